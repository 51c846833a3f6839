"""A game played on the compact layout (runtime/compact_game.py): every bundled game and player count, played out from
the same point with the same random source on today's state and on its slots, is the same game round after round:
the same cards where they are, the same values, totals and round results, the same actions taken.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter.runtime.compact_game import compact_game, why_not
from interpreter.runtime.layout import layout, pack

from .conftest import GAMES, SHORTER, game_of, suite_counts
from .test_compact_steps import as_held, held, plain

CASES = [(path.stem, n) for path in GAMES for n in suite_counts(path)]
ROUNDS = 2


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_game_played_out_on_the_slots_is_the_game_played_out_on_the_state(name, players):
    game = game_of(name, players, **SHORTER.get(name, {}))
    compact = compact_game(game)
    assert compact is not None, f"not written for the slots: {why_not(game)}"
    state = game.new_state()  # every player count of every game, two rounds, one random source
    slots = compact.start(state)
    mine, theirs = random.Random(players), random.Random(players)
    for _ in range(ROUNDS):
        if state.finished:
            break
        taken = game.playout(state, mine, round_end=True)
        assert compact.playout(slots, theirs, round_end=True) == taken
        after = pack(game, state)
        assert held(slots) == as_held(layout(game), after.zones)
        assert plain(slots.v) == plain(after.values)
        assert (slots.finished, slots.actions_taken, slots.step_index) == (state.finished, state.actions_taken,
                                                                            state.step_index)


@pytest.mark.parametrize("name", ["njet-riogrande", "meinz", "mit-list-und-tuecke"])
def test_a_copy_of_the_slots_plays_on_without_changing_them(name):
    game = game_of(name, 4)
    compact = compact_game(game)
    assert compact is not None
    state = game.new_state()
    slots = compact.start(state)
    compact.playout(slots, random.Random(5), round_end=True)  # into the second round: results, won piles
    before = (plain(slots.z), plain(slots.v), slots.step_index, slots.actions_taken)
    other = slots.copy()
    assert (plain(other.z), plain(other.v), other.step_index, other.actions_taken) == before
    compact.playout(other, random.Random(6), round_end=True)
    assert other.actions_taken > slots.actions_taken
    assert (plain(slots.z), plain(slots.v), slots.step_index, slots.actions_taken) == before
    again = slots.copy()  # the original goes on as it would have
    compact.playout(again, random.Random(6), round_end=True)
    assert (plain(again.z), plain(again.v)) == (plain(other.z), plain(other.v))


@pytest.mark.parametrize("name", ["njet-riogrande", "hearts", "doppelkopf", "mit-list-und-tuecke"])
def test_a_policy_is_shown_on_the_slots_the_plays_it_is_shown_on_the_state(name):
    # the trick's loop holds the cards its plays play; a policy is still shown the plays, as the decision offers them
    game = game_of(name, 4)
    compact = compact_game(game)
    assert compact is not None
    kind = layout(game).kind

    def policy(seen: list[Any], rng: random.Random, as_kind: Any) -> Any:
        def choose(state: Any, seat: int, actions: list[Any]) -> int:
            seen.append((seat, [as_kind(a.card) if hasattr(a, "card") else type(a).__name__ for a in actions]))
            return int(rng.random() * len(actions))
        return choose

    state = game.new_state()
    slots = compact.start(state)
    mine: list[Any] = []
    theirs: list[Any] = []
    taken = game.playout(state, random.Random(7), policy(mine, random.Random(8), kind.__getitem__), round_end=True)
    assert compact.playout(slots, random.Random(7), policy(theirs, random.Random(8), int), round_end=True) == taken
    assert theirs == mine and sum(1 for _, shown in mine if shown and isinstance(shown[0], int)) > 20
    assert held(slots) == as_held(layout(game), pack(game, state).zones)
