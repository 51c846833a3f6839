"""The compiled backend's templates of the steps without decisions and of the deal (interpreter/compiled/: deal,
move, set, score, teams) in lockstep with the Python backend: every such step of every bundled game, at the fewest
players and at 4, entered on both from states of random games (tests/compiled_steps.py), every zone and value
compared after it; what a template does not write is said (NotWritten)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from interpreter.compiled.values import MADE, NotWritten
from interpreter.engine.steps.deal_chance import shuffle
from interpreter.errors import GameError
from interpreter.runtime.layout import KNOWN

from .compiled_steps import StepOnBoth, compiled_or_skip, short_list
from .conftest import GAMES, game_of
from .test_steps import DEAL_3, TRICKS, make

KINDS = ("deal", "move", "set", "score", "teams")


def _counts(name: str) -> list[int]:
    playable = []
    for n in range(2, 8):
        try:
            game_of(name, n)
        except GameError:
            continue
        playable.append(n)
    return sorted({playable[0], 4} & set(playable))


TABLES = [(path.stem, n) for path in GAMES for n in _counts(path.stem)]


@pytest.mark.parametrize(("name", "players"), short_list(TABLES))
def test_the_steps_agree_with_the_python_backend(name, players):
    game = game_of(name, players)
    rng = random.Random(7)
    states = None
    entered = worked = 0  # the steps entered on both, and those that changed the state
    for step in [s for s in game.every_step() if s.kind in KINDS]:
        try:
            both = StepOnBoth(name, players, step.name)
        except NotWritten:
            continue
        if states is None:
            states = both.states(rng, 4, every=9)
        for state in states:
            before = both.arrays(state)
            if both.lockstep(state, rng) is not None:
                entered += 1
                worked += both.changed(before)
    assert entered > 0 and worked > 0, (entered, worked)


def _unset_teams(state, step):
    state.teams = [0] * state.players  # (one team of every seat: the step must set them again)


def _unset_values(state, step):
    """The values ``step`` sets made none (the step must set them again)."""
    for group, name, _ in step.assign:
        if group == "round":
            state.vars[name] = None
        else:
            state.seat_vars[name] = [None] * state.players


# each kind doing its work on both backends: entered from a state where the Python backend changes something
@pytest.mark.parametrize(("name", "players", "step", "every", "unset"), [
    ("oh-hell", 3, "deal", 5, None),
    ("was-sticht", 4, "numbers", 5, None),  # a deal of some cards (cards), to a rest
    ("euchre", 4, "turn_up", 3, None),  # a card of an expression, to a shared zone
    ("hearts", 4, "receive", 2, None),  # each seat's list, to another seat's zone
    ("euchre", 4, "turn_down", 3, None),  # every card of a zone (from)
    ("euchre", 4, "pick_up", 3, None),  # a card, to an owner's zone
    ("whist", 4, "trump", 5, _unset_values),  # a round value
    ("mit-list-und-tuecke", 4, "stacks", 5, _unset_values),  # a list of each seat
    ("doppelkopf", 4, "parties", 5, _unset_values),  # a truth of each seat
    ("doppelkopf", 4, "nothing_said", 5, _unset_values),  # a list of lists (pairs of seats) set empty
    ("hearts", 4, "score", 30, None),
    ("whist", 4, "partners", 5, _unset_teams),  # fixed partnerships
    ("mue", 4, "teams", 40, _unset_teams),  # teams worked out
    ("skat", 4, "parties", 12, _unset_teams),  # teams joined, of a comprehension
])
def test_each_kind_does_its_work_as_the_python_backend(name, players, step, every, unset):
    both = StepOnBoth(name, players, step)
    rng = random.Random(1)
    changed = 0
    for state in both.states(rng, 4, every=every):
        if unset is not None:
            unset(state, both.step)
        before = both.arrays(state)
        if both.lockstep(state, rng) is not None:  # (else the rules refuse the step there: a team of no seat...)
            changed += both.changed(before)
    assert changed > 0


@pytest.mark.parametrize(("name", "players", "step", "what"), [
    ("skat", 3, "played", "the name 'last_trick'"),  # a name a trick binds, for a step of its hooks
    ("mit-list-und-tuecke", 4, "drop", "the name 'takers'"),
])
def test_what_the_templates_do_not_write_is_said(name, players, step, what):
    with pytest.raises(NotWritten, match=what):
        StepOnBoth(name, players, step)


@pytest.mark.parametrize(("name", "step"), [("hearts", "deal"), ("was-sticht", "numbers")])
def test_a_shuffle_of_the_pack_is_the_python_backends_deal(name, step):
    """``PREFIX_pack`` lists the pack in the order the Python sampler shuffles: the same draws give the same deal."""
    both = StepOnBoth(name, 4, step)
    state = both.game.new_state()
    out = np.empty(both.lay.capacity, np.int64)
    n = both.module().s_pack(*both.arrays(state), np.zeros(2, np.int64), out)
    mine = out[:n].tolist()
    shuffle(random.Random(5), mine)
    theirs = both.step.chance.sample(both.game, state, random.Random(5))
    assert mine == [both.lay.layout.kind[c] for c in theirs]
    assert len(set(mine)) > 1


def test_compiled_compiles_the_move_template():
    """The largest of these templates (a move; here of a card an expression gives), compiled."""
    compiled_or_skip(everywhere=True)
    both = StepOnBoth("euchre", 4, "turn_up", compiled=True)
    rng = random.Random(3)
    changed = 0
    for state in both.states(rng, 2, every=3):
        before = both.arrays(state)
        assert both.lockstep(state, rng) is not None
        changed += both.changed(before)
    assert changed > 0


def test_a_move_to_the_top_of_cards_named_twice_and_more_than_the_deck(tmp_path):
    """The cards go first, in their order; a card two seats name moves once; the cards of the seats together more
    than the deck has (the plan grows)."""
    game = make(tmp_path, "deal: {do: deal, hand: 2, rest: stock}", TRICKS, """\
        back:
          do: move
          cards: "stock + seat.hand"
          each: "[round.dealer, left(round.dealer), right(round.dealer)]"
          to: stock
          top: true
        """, zones="stock: {visible: nobody}")  # (after trick play: entered from its states)
    both = StepOnBoth(game, 4, "back")
    rng = random.Random(2)
    for state in both.states(rng, 2, every=2):
        before = both.arrays(state)
        assert both.lockstep(state, rng) == 0 and both.changed(before)


def test_teams_of_a_builtin_are_not_written(tmp_path):
    game = make(tmp_path, DEAL_3, """\
        sides:
          do: teams
          teams: "reverse([[s for s in seats if s == round.dealer], [s for s in seats if s != round.dealer]])"
        """, TRICKS)
    with pytest.raises(NotWritten, match="teams given by an expression other than"):
        StepOnBoth(game, 4, "sides")


def test_hidden_teams_set_what_each_seat_knows_in_the_arrays(tmp_path):
    game = make(tmp_path, DEAL_3, """\
        sides:
          do: teams
          teams: "[[s for s in seats if s == round.dealer or s == left(left(round.dealer))],
            [s for s in seats if s == left(round.dealer) or s == right(round.dealer)]]"
          known: own
          sizes_known: true
        """, TRICKS)
    both = StepOnBoth(game, 4, "sides")
    rng = random.Random(2)
    (state,) = both.states(rng, 1)
    state.teams = [0, 1, 2, 3]
    before = both.arrays(state)
    assert both.lockstep(state, rng) == 0 and both.changed(before)  # (the arrays compared: the known row too)
    row = both.lay.list_of(KNOWN)
    assert state.team_known == [1, 2, 4, 8]
    assert both.arrays(state).l[row, :4].tolist() == [1, 2, 4, 8] and state.team_counted


def test_a_text_made_in_play_is_held_as_there_being_one():
    """Bridge's contract put in words (read only by the table and the score's explanation) is held as only whether
    there is one (MADE: the step that sets it builds no text; a state packed holds MADE for it), its vulnerability (a
    text of the rule file) as its number; a text play reads (Whist's trump) is held as its number too."""
    both = StepOnBoth("bridge", 4, "announce")
    contract = both.lay.value("round", "contract")
    assert both.lay.made == {both.lay.layout.value_slot("round", "contract")} and both.lay.value("round", "vulnerable")
    rng = random.Random(2)
    states = both.states(rng, 2, every=5, where=both.enterable)  # (once the auction has made a contract)
    assert states and all(both.lockstep(state, rng) is not None for state in states)  # (the arrays compared)
    assert all(isinstance(state.vars["contract"], str) and both.arrays(state).v[contract] == MADE for state in states)
    whist = StepOnBoth("whist", 4, "trump")
    assert not whist.lay.made and whist.lay.value("round", "trump") >= 0
