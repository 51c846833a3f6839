"""``Game.playout`` (the rollout path for bots and simulation) against the checked path, decision by decision.

Playout may take runs of plain decisions in a step's own loop, without Decision objects; the checked path
(``Game.apply``, one Decision per action) must see the same seat, the same legal actions in the same order, and
end in the same state, for every bundled game and player count.
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.compile import supported_players
from interpreter.engine.state import CHANCE
from interpreter.rules.loader import load_rules

from .conftest import GAMES, game_of

CASES = [(path.stem, n) for path in GAMES for n in supported_players(load_rules(path))]


def _final(state):
    return (repr(state.per_seat), repr(state.shared), repr(state.vars), repr(state.seat_vars),
            repr(state.game_vars), list(state.totals), repr(state.round_results), state.round_number)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_playout_takes_the_decisions_the_checked_path_takes(name, players):
    game = game_of(name, players)
    for seed in range(3):
        seen = []
        rng = random.Random(f"playout/{seed}")

        def policy(state, seat, actions, rng=rng, seen=seen):
            i = int(rng.random() * len(actions))
            seen.append((seat, [(type(a), a) for a in actions], i))
            return i

        fast = game.new_state()
        taken = game.playout(fast, rng, policy)
        assert fast.finished and fast.pending is None and taken == len(seen)

        rng = random.Random(f"playout/{seed}")
        checked = game.new_state()
        k = 0
        while not checked.finished:
            d = checked.pending
            if d.actor == CHANCE:
                game.apply_chance(checked, game.sample_chance(checked, rng))
                continue
            seat, actions, i = seen[k]
            assert (d.actor, [(type(a), a) for a in d.actions]) == (seat, actions), f"{name} decision {k}"
            assert int(rng.random() * len(d.actions)) == i  # the same draw, so chance goes the same way
            game.apply(checked, d.actions[i])
            k += 1
        assert k == taken
        assert _final(fast) == _final(checked) and game.winners(fast) == game.winners(checked)


def test_the_default_policy_plays_uniformly_at_random_from_the_rng():
    game = game_of("njet-riogrande", 4)
    a, b = game.new_state(), game.new_state()
    assert game.playout(a, random.Random(5)) == game.playout(b, random.Random(5)) > 100
    assert _final(a) == _final(b)
    c = game.new_state()
    game.playout(c, random.Random(6))
    assert _final(c) != _final(a)
