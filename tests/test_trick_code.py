"""The play of a trick step, as its written code (engine/steps/trick_code.py) gives it: tested by what a game does,
never by the text of that code.

The playout loop takes the checked path's decisions, its hooks' among them; a trick without hooks, and one with
them, is played out without going back to the engine (counted with tests/step_calls.py, never timed); each part a
trick has acts in a playout as in play; an expression written in place fails with its own position on both paths.
"""

from __future__ import annotations

import random

import pytest

from interpreter.conformance.battery import lockstep
from interpreter.dsl.compiler import ExpressionFailed
from interpreter.engine.card_tables import CardTable
from interpreter.engine.compile import compile_game
from interpreter.engine.state import CHANCE
from interpreter.rules.loader import load_rules

from .conftest import game_of, random_decisions
from .step_calls import called, in_loops, step_calls
from .test_playout import TRICK_VARIANTS
from .test_steps import DEAL_3, TRICKS, make


@pytest.mark.parametrize("name", ["hearts", "mit-list-und-tuecke", "meinz"])  # NJET's: test_step_code.py
def test_the_playout_loop_takes_the_checked_path_s_decisions_its_hooks_among_them(name):
    """Every decision of a playout is taken in a step's own loop and is the one the checked path takes (the same
    seat among the same actions in the same order, and the game ends in the same state); the trick's loop takes the
    cards played and the decisions of the steps it runs between plays and after a trick, which the engine never
    enters (on the checked path either)."""
    game = game_of(name, 4)
    tricks = next(s for s in game.steps if s.kind == "tricks")
    hooks = [s.name for s in tricks.inner_steps()]
    with step_calls(game) as calls:
        seen = lockstep(game, 0, every=0)  # raises ConformanceError, naming the decision
    assert in_loops(calls) == len(seen) - 1 and calls["tricks", "taken"] > 100, called(calls)
    assert not called(calls, hooks)


def _game(tmp_path, *parts: str, rounds: int = 3):
    """Three cards a seat, one trick step with ``parts`` (lines of TRICK_VARIANTS), ``rounds`` rounds."""
    tricks = TRICKS + "".join(f"  {line}\n" for part in parts for line in part.splitlines())
    return make(tmp_path, DEAL_3, 'mark: {do: set, round: {mark: "round.dealer"}}', tricks,
                zones="out: {visible: all}", game=f"rounds: {rounds}")


@pytest.mark.parametrize("variants", [["no rules"], ["choice between plays", "choice after trick", "takers"]],
                         ids=["without hooks", "with choices between plays, after a trick and of a taker"])
def test_a_trick_is_played_out_in_one_go_a_round_without_going_back_to_the_engine(tmp_path, variants):
    """A playout enters the trick step's loop once a round and takes every decision of its tricks there (the cards,
    and the choices of its hooks and of a taker): the engine applies none of them and never enters a hook."""
    game = _game(tmp_path, *(TRICK_VARIANTS[v] for v in variants))
    hooks = [s.name for s in game.steps[2].inner_steps()]
    assert len(hooks) == (0 if len(variants) == 1 else 2)
    for policy in (None, lambda _state, _seat, actions: len(actions) - 1):
        with step_calls(game) as calls:
            state = game.new_state()
            taken = game.playout(state, random.Random(3), policy)
        assert state.finished and taken > 20  # 3 rounds of up to 12 cards, and the hooks' choices
        assert calls["tricks", "taken"] == taken and calls["tricks", "playout"] == 3
        assert calls["tricks", "apply"] == 0 and not called(calls, hooks), called(calls)


def test_a_trick_s_claim_route_and_hook_act_in_a_playout(tmp_path):
    """With a claim (the dealer takes every trick of round 2), a route (rank 1 goes to ``out``) and a step between
    plays (``mark``: who played last), what each does is seen by the policy of a playout, and the checked path
    takes the same decisions."""
    game = _game(tmp_path, TRICK_VARIANTS["claim"], TRICK_VARIANTS["route"], TRICK_VARIANTS["between plays"])
    labels = game.cards.labels
    seen = {"marks": 0, "routed": 0, "claimed": 0}

    def policy(state, seat, actions):
        out, won = state.shared["out"], state.per_seat["won"]
        assert all(labels[c].endswith("1") for c in out)
        assert not any(labels[c].endswith("1") for hand in won for c in hand)
        seen["routed"] += len(out)
        if state.round_number == 2:
            dealer = state.dealer
            assert not any(won[s] for s in range(4) if s != dealer)
            seen["claimed"] += len(won[dealer])
        if state.shared["trick"]:
            assert state.vars["mark"] == (seat - 1) % 4
            seen["marks"] += 1
        return int(rng.random() * len(actions))

    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state()
        game.playout(state, rng, policy)
        assert state.finished
        lockstep(game, seed)
    assert all(seen.values()), seen


def _failing_route(tmp_path):
    return make(tmp_path, DEAL_3, TRICKS + '  route: [{when: "1 // (card.rank - card.rank) == 0", to: out}]\n',
                zones="out: {visible: all}")


def test_a_route_that_fails_in_play_names_its_expression_and_line(tmp_path):
    """Written in place, a route's ``when`` still fails as every expression does: the file, the line and the
    expression, in the words of the rules, on the checked path and in a playout."""
    game = _failing_route(tmp_path)
    state, rng = game.new_state(), random.Random(1)
    with pytest.raises(ExpressionFailed) as failed:
        while True:
            if state.pending.actor == CHANCE:
                game.apply_chance(state, game.sample_chance(state, rng))
            else:
                game.apply(state, game.legal_actions(state)[0])
    with pytest.raises(ExpressionFailed) as played_out:
        game.playout(game.new_state(), random.Random(1))
    for message in (str(failed.value), str(played_out.value)):
        assert message.startswith(f"{tmp_path / 'tiny.yaml'}:") and ":error: expression " not in message
        assert "error: expression '1 // (card.rank - card.rank) == 0' failed: integer division or modulo by zero" \
            in message


def test_a_follow_rule_reading_a_value_a_step_between_plays_sets_reads_it_as_it_is_now(tmp_path):
    """The follow rules' tables are kept for a trick once it is led only when nothing between plays can change
    what they read: here the rank of the card just played is wild for the next seat, so every seat's legal cards
    are those the rule gives with the value as it is when the seat plays (the trick's first table was kept for
    the whole trick before, and the seats after the second followed the first card's value)."""
    tricks = TRICKS + ('  follow: "card.suit == led.suit or card.rank == round.wild"\n'
                       '  between_plays: {wild: {do: set, round: {wild: "last(trick).rank"}}}\n')
    game = make(tmp_path, DEAL_3, tricks, game="rounds: 3")
    labels = game.cards.labels
    rng, checked = random.Random(7), 0
    state = game.new_state()
    for d in random_decisions(game, state, rng):
        p = state.progress
        if p.plays:
            hand = state.per_seat["hand"][d.actor]
            led, wild = labels[p.plays[0][1]], state.vars["wild"]
            want = [c for c in hand if labels[c][0] == led[0] or int(labels[c][1]) == wild] or hand
            assert sorted(a.card for a in d.actions) == sorted(want)
            checked += 1
        game.apply(state, rng.choice(d.actions))
    assert checked > 10


def test_a_trick_s_card_tables_once_made_are_looked_up_in_place(monkeypatch):
    """The follow rule's table (keyed by the led card) and the cards' strengths (keyed by round values and the led
    card) are looked up by the trick's written code itself: their lookup is called only for a key no table is made
    for yet, in a playout and on the checked path alike (counted, never timed)."""
    lookups: list[tuple[bool, bool]] = []  # per call of a lookup: of a watched table, and found its key's table made
    table = CardTable.table

    def counted(self, state, led=None):
        made = len(self.made)
        out = table(self, state, led)
        lookups.append((self in watched, len(self.made) == made))
        return out

    monkeypatch.setattr(CardTable, "table", counted)  # before the game's code takes the lookups
    game = compile_game(load_rules("njet-riogrande"), 4)
    tricks = next(s for s in game.steps if s.kind == "tricks")
    watched = [tricks.follow_rules[0].must_table, tricks.ordering.combined]
    assert not watched[0].fields and watched[1].fields  # one of each kind of key
    with step_calls(game) as calls:
        for seed in range(3):
            game.playout(game.new_state(), random.Random(seed))
    tricks_played = calls[tricks.name, "taken"] // game.players  # (every card of NJET's tricks played in the loop)
    rng = random.Random(6)
    checked = game.new_state()
    for d in random_decisions(game, checked, rng):
        game.apply(checked, d.actions[int(rng.random() * len(d.actions))])
    assert tricks_played > 2 * sum(len(t.made) for t in watched) and checked.finished
    assert not any(found for ours, found in lookups if ours)


# obligations read by their card tables and judged ones (reading the seat, the trick) in one list, with holdings and
# otherwise: end: the written code applies each in place, in order, as trick_parts.narrowing does
MIXED_RULES = {
    "judged lead": 'lead: "card.rank != 1 or seat.tricks > 0"\nfollow: "card.suit == led.suit"',
    "judged holding": 'follow: [{must: "card.rank >= led.rank + seat.tricks", holding: "card.suit == led.suit or '
                      'seat.tricks > 0"}, "card.suit == led.suit"]',
    "judged end": 'follow: ["card.suit == led.suit", {must: "card.rank >= len(trick) or seat.tricks > 0", '
                  'otherwise: end}]',
}


@pytest.mark.parametrize("variant", list(MIXED_RULES))
def test_obligations_read_by_tables_and_judged_ones_leave_the_plays_narrowing_leaves(tmp_path, variant):
    from interpreter.engine.steps.trick_parts import STUCK, narrowing
    from interpreter.runtime.compact_game import compact_game
    from interpreter.runtime.layout import layout, pack

    from .test_compact_steps import as_held, held

    text = TRICKS + "".join("  " + line + "\n" for line in MIXED_RULES[variant].splitlines())
    game = make(tmp_path, DEAL_3, text, "score: {do: score, points: seat.tricks}", game="rounds: 4")
    step = game.steps[1]
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state()
        for d in random_decisions(game, state, rng):
            p = state.progress
            seat = p.turn
            rules = step.follow_rules if p.plays else step.lead_rules
            hand = state.per_seat["hand"][seat]
            narrowed = [hand] + [cards for _, cards in narrowing(rules, state, seat, hand, p.plays[0][1] if p.plays
                                                                  else None, p.plays)]
            left = narrowed[-1]
            assert left is not STUCK  # (a seat left no card ends trick play: it is asked nothing)
            assert [a.card for a in d.actions] == left, variant
            checked += 1
            game.apply(state, d.actions[rng.randrange(len(d.actions))])
        lockstep(game, seed)  # the playout loop takes the same decisions
        compact = compact_game(game)
        assert compact is not None
        state = game.new_state()
        slots = compact.start(state)
        assert compact.playout(slots, random.Random(seed)) == game.playout(state, random.Random(seed))
        assert held(slots) == as_held(layout(game), pack(game, state).zones)
    assert checked > 100
