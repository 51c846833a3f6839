"""The play of steps other than tricks, as their written code (engine/module.py) gives it: tested by what a game does,
never by the text of that code.

A choice's playout loop takes the checked path's decisions; each part a choice has acts (its choices, a pass, an
allowed rule, a move, an until, what a Knowledge is told) and one it lacks does nothing; the steps of every list (a
round's, a repeat's, a trick's hooks) run in the written code, never through their methods; a game's code is
compiled once, as one piece, and a later compile of the game reads it back. The work the engine leaves to a step's
methods is counted (tests/step_calls.py), never timed.
"""

from __future__ import annotations

import builtins
import inspect
import random
from collections import Counter

import pytest

from interpreter.conformance.battery import lockstep
from interpreter.engine.compile import compile_game
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.state import CHANCE
from interpreter.engine.steps.choose import Choose
from interpreter.rules.loader import load_rules

from .conftest import game_of
from .step_calls import called, in_loops, step_calls
from .test_steps import DEAL_3, TRICKS, make, rules, write


def _walk(game, seed, visit=None, rounds=None):
    """A random game on the checked path (Game.apply), or its first ``rounds`` rounds; before each decision
    ``visit(state, decision)``, which may give the action to take (None: one drawn at random). The state at the
    end."""
    rng = random.Random(seed)
    state = game.new_state()
    while not state.finished and (rounds is None or state.round_number <= rounds):
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        action = None if visit is None else visit(state, d)
        game.apply(state, rng.choice(d.actions) if action is None else action)
    return state


@pytest.mark.parametrize("name", ["njet-riogrande", "mue", "oh-hell", "spades"])
def test_a_choice_s_playout_loop_takes_the_checked_path_s_decisions(name):
    """Every decision of a playout is taken in a step's own loop (none goes back to the engine), and is the one the
    checked path takes: the same seat among the same actions in the same order, and the game ends in the same state;
    the choices' loops take their share. (The conformance battery compares the states on the way and the
    narration, for every bundled game.)"""
    game = game_of(name, 4)
    chooses = [s.name for s in game.steps if s.kind == "choose"]
    with step_calls(game) as calls:
        seen = lockstep(game, 0, every=0)  # raises ConformanceError, naming the decision
    assert in_loops(calls) == len(seen) - 1 > 100, called(calls)
    assert sum(calls[c, "taken"] for c in chooses) >= 4, (chooses, called(calls))


PICK = 'pick: {do: choose, options: "[1, 2]", set: picked}'


@pytest.fixture(scope="module")
def choices(tmp_path_factory):
    """A game of two rounds: a seat shows a card of its hand to all, the dealer one to itself only (``peek``), each
    seat picks 1 or 2 (``pick``), then tricks."""
    return make(tmp_path_factory.mktemp("choices"), DEAL_3,
                "show: {do: choose, who: left(round.dealer), options: seat.hand}",
                "peek: {do: choose, who: round.dealer, options: seat.hand, visible: owner}", PICK, TRICKS,
                game="rounds: 2")


def test_a_choice_of_constant_options_asks_each_seat_once_among_them_and_nothing_more(choices):
    """No pass, no stop, no until, no move: each seat is asked once, from the dealer's left, between the two values
    (the same every time, in a list of its own: a policy that changes the list it is given changes nothing that
    follows), and the value set is the last chosen; no card moves."""
    game = choices
    asked = []

    def visit(state, d):
        if d.step.name == "pick":
            assert d.kind == "choose" and game.labels(state) == ["1", "2"]
            assert [len(hand) for hand in state.per_seat["hand"]] == [3] * 4
            if asked and asked[-1][0] == state.round_number:
                assert state.vars["picked"] == asked[-1][2]
            asked.append((state.round_number, d.actor, d.actions[d.actor % 2].value))
            return d.actions[d.actor % 2]
        return None

    _walk(game, 3, visit)
    assert [(r, seat) for r, seat, _ in asked] == [(r, (r + i) % 4) for r in (1, 2) for i in range(4)]  # dealer r - 1
    seen = []

    def policy(state, seat, actions):
        if game.steps[state.step_index].name == "pick":
            seen.append([a.label for a in actions])
            actions.append(actions[0])
        return 0

    state = game.new_state()
    game.playout(state, random.Random(1), policy)
    assert seen == [["1", "2"]] * 8 and state.finished


def test_cards_chosen_in_the_open_are_known_to_every_seat_and_values_that_are_not_cards_to_none(choices):
    """A card a seat shows from its hidden hand (chosen in the open, moved nowhere) is known to every seat from
    then on; one shown to its owner only, to nobody else; a value that is not a card (1, 2: also card ids) tells
    nobody of any card."""
    game = choices
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    knowledge = Knowledge(game, state)
    for known in (True, False):  # show, then peek
        seat, card = state.pending.actor, state.pending.actions[0].value
        game.apply(state, state.pending.actions[0])
        knowledge.update(state)
        assert card in state.per_seat["hand"][seat]
        assert [knowledge.knows(s, card) for s in range(4)] == [s == seat or known for s in range(4)], known
    unknown = [set(knowledge.unknown(s)) for s in range(4)]
    assert sum(len({1, 2} & u) for u in unknown) >= 4  # cards 1 and 2 lie in hands the other seats do not see
    for value in (1, 2, 1, 2):  # pick
        game.apply(state, next(a for a in state.pending.actions if a.value == value))
        knowledge.update(state)
    assert state.pending.step.name == "tricks"
    assert [set(knowledge.unknown(s)) for s in range(4)] == unknown


def test_a_choice_s_pass_allowed_rule_move_and_until_each_act(tmp_path):
    """A seat may pass (first, with its label) or pick a card of its hand other than its first; a picked card moves
    to ``out`` at once, a pass moves nothing; the step ends as soon as two cards lie in ``out``, else after each
    seat's turn."""
    lay = ('lay: {do: choose, options: seat.hand, pass: keep, move_to: out, until: "len(out) > 1", '
           'allowed: "value != first(seat.hand)"}')
    game = make(tmp_path, DEAL_3, lay, TRICKS, zones="out: {visible: all}", game="rounds: 4")
    labels = game.cards.labels
    turns, ends, picks = [], [], random.Random(0)
    last: list = []  # the lay decision just taken: (seat, its hand, the action)

    def visit(state, d):
        out = state.shared["out"]
        if last:
            seat, hand, action = last.pop()
            moved = [] if action.label == "keep" else [action.value]
            assert sorted(state.per_seat["hand"][seat] + moved) == sorted(hand)
            assert out[len(out) - len(moved):] == moved
            if d.step.name != "lay":  # the step is over
                ends.append(len(out))
        if d.step.name != "lay":
            return None
        hand = state.per_seat["hand"][d.actor]
        assert len(out) < 2 and game.labels(state) == ["keep"] + [labels[c] for c in hand[1:]]
        action = d.actions[0] if picks.random() < 0.4 else picks.choice(d.actions[1:])
        turns.append(action.label == "keep")
        last.append((d.actor, list(hand), action))
        return action

    for seed in range(4):
        _walk(game, seed, visit)
    assert any(turns) and not all(turns) and 2 in ends and any(n < 2 for n in ends), (turns, ends)
    for seed in range(2):
        lockstep(game, seed)  # the loop of playouts does the same


IN_PLACE = ("set", "move", "teams", "score", "reveal")  # the kinds without decisions that do their work in place


@pytest.mark.parametrize("name", ["was-sticht", "meinz", "njet-riogrande"])
def test_the_steps_of_every_list_run_in_the_written_code_never_through_their_methods(name):
    """The round's steps without decisions (move, set, teams, score, reveal) and every step of a nested list (a
    repeat's steps, a trick's hooks, choices among them) are run by the code written for their list: the engine calls
    none of their methods, on the checked path or in a playout. In a playout the engine applies no action of a step
    of the round (deal's chance events aside) and goes into a step's loop at most once a round, not once a
    decision."""
    game = game_of(name, 4)
    inside = {s.name for step in game.steps for s in step.inner_steps()}
    quiet = {s.name for s in game.steps if s.kind in IN_PLACE}
    assert quiet and (inside or name == "njet-riogrande")
    with step_calls(game) as calls:
        _walk(game, 5, rounds=2)
    assert not called(calls, inside | quiet)
    assert called(calls)  # the counting counts
    with step_calls(game) as calls:  # two rounds
        state = game.new_state()
        taken = game.playout(state, random.Random(5), round_end=True)
        taken += game.playout(state, random.Random(6), round_end=True)
    assert not called(calls, inside | quiet)
    assert taken == in_loops(calls) > 50
    for step in game.steps:
        if step.kind != "deal":
            assert calls[step.name, "apply"] == 0 and calls[step.name, "playout"] <= 2, step.name


def test_a_game_s_code_is_compiled_as_one_piece_and_read_back_whole_by_a_later_compile(tmp_path, monkeypatch):
    """The code written for a game's steps and its round is one module: compiling the game and playing it compiles
    one block of statements; compiling the same game again (a later run reads the cache) compiles nothing, and the
    steps play by that code."""
    text = rules(DEAL_3, PICK, TRICKS + "  after_trick: {note: {do: set, round: {picked: 0}}}\n",
                 "score: {do: score, points: seat.tricks}", game="rounds: 2").replace("name: tiny", "name: one-piece")
    path = write(tmp_path, text)
    compiled = []  # the modes of the game's code compiled: "exec" a block of statements, "eval" an expression
    real = builtins.compile

    def counting(source, filename, mode, *args, **kwargs):
        if filename == "<trickbook>":
            compiled.append(mode)
        return real(source, filename, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "compile", counting)
    for again in (False, True):
        compiled.clear()
        game = compile_game(load_rules(str(path)), 4)
        with step_calls(game) as calls:
            taken = game.playout(game.new_state(), random.Random(2))
        assert taken == in_loops(calls) > 20
        assert compiled == [] if again else compiled.count("exec") == 1, compiled


def test_the_choices_a_trick_runs_call_no_method_of_their_steps_in_a_playout_once_their_values_are_known():
    """In a playout the choices a trick runs (Meinz's "Meinz!" offer between plays, its exchange after a trick) are
    played by code written in the trick's loop: their code is not looked up on the step, and their choices, labels
    and swaps are the written code's, the label of a value seen first too (choose_labels.py, given to the code; its
    errors are engine/faults.py's). So a game played from a seed calls no method of theirs, and again from the same
    seed, every value seen, plays the same game."""
    game = compile_game(load_rules("meinz"), 4)  # its own steps: no choice made yet by another test
    inside = [s for step in game.steps for s in step.inner_steps()]
    assert sorted(s.name for s in inside) == ["exchange", "meinz"]
    calls: Counter[tuple[str, str]] = Counter()
    methods = [n for n in dir(Choose) if inspect.isfunction(getattr(Choose, n)) and not n.startswith("__")]

    def counted(step, name):
        real = getattr(step, name)

        def count(*args, **kwargs):
            calls[step.name, name] += 1
            return real(*args, **kwargs)

        return count

    for step in inside:
        for name in methods:
            setattr(step, name, counted(step, name))
    try:
        first = game.playout(game.new_state(), random.Random(3))
        assert not calls, calls
        exchange = next(s for s in inside if s.name == "exchange")
        assert exchange.labels.made  # the labels of the values seen first, made by the written code's labels
        again = game.playout(game.new_state(), random.Random(3))
    finally:
        for step in inside:
            for name in methods:
                delattr(step, name)
    assert again == first > 200
    assert not calls, calls


def test_a_choice_a_trick_runs_with_a_condition_on_the_trick_s_names_plays_its_playout_as_the_checked_path(tmp_path):
    """A choice after each trick whose allowed rule reads the trick's names (the winner, judged option by option in
    one loop) and a choice between plays that reads the player: a playout takes the checked path's decisions and
    ends in its state; the winner is offered only the numbers up to its seat."""
    game = make(tmp_path, DEAL_3, TRICKS + """\
  between_plays:
    call: {do: choose, who: player, options: "[1, 2]", pass: no, set: called, when: "round.called == none"}
  after_trick:
    pick: {do: choose, who: winner, options: "[0, 1, 2, 3]", pass: none, set: picked,
           allowed: "value <= winner.index and value + seat.index >= 0"}
""", game="rounds: 3")
    offered = []

    def visit(state, d):
        if d.step.name == "pick":
            offered.append((d.actor, [a.value for a in d.actions if hasattr(a, "value")]))
        return None

    for seed in range(3):
        _walk(game, seed, visit)
        lockstep(game, seed)
    assert offered and all(values == list(range(seat + 1)) for seat, values in offered), offered


@pytest.mark.parametrize("options, label, offered", [
    ("[1, 2, 3, 1]", "'low' if value < 3 else 'high'", [(1, "low"), (3, "high")]),  # a label of the value only
    ("[1, 2, 2, 3]", None, [(1, "1"), (2, "2"), (3, "3")]),  # the value's own label
    ("[1, 2, 3]", "'low' if value < round.number + 1 else 'high'", [(1, "low"), (2, "high")]),  # a keyed label
])
def test_values_with_one_label_are_one_choice_the_first_on_the_checked_path_and_in_playouts(tmp_path, options, label,
                                                                                           offered):
    """Two values of a choice's options with one label are one choice, the first of them, whatever the label reads;
    a playout takes the checked path's decisions."""
    labelled = f", label: \"{label}\"" if label else ""
    game = make(tmp_path, DEAL_3, f"pick: {{do: choose, options: \"{options}\", set: picked{labelled}}}", TRICKS,
                game="rounds: 1")
    seen = []

    def visit(state, d):
        if d.step.name == "pick":
            seen.append([(a.value, a.label) for a in d.actions])
        return None

    _walk(game, 1, visit)
    assert seen and all(actions == offered for actions in seen), seen
    lockstep(game, 1)
