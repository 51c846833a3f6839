"""A run that records and tells nothing, with agents that pick from the list of actions alone, plays by
``Game.playout`` (Match._played_out): the same games as the checked loop with a Turn per decision."""

from __future__ import annotations

import pytest

from interpreter.engine.compile import supported_players
from interpreter.harness.runner import play_game, random_agents
from interpreter.match.driver import Match
from interpreter.rules.loader import load_rules

from .conftest import GAMES, game_of

CASES = [(path.stem, n) for path in GAMES for n in supported_players(load_rules(path))]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_quiet_run_of_random_agents_plays_the_game_the_checked_loop_plays(name, players, monkeypatch):
    game = game_of(name, players)
    taken = []
    monkeypatch.setattr(Match, "_played_out", lambda *a: taken.append(1) or _real(*a))
    for seed in range(3):
        fast_ended: list = []
        fast = play_game(game, random_agents(game, seed), seed, round_values=fast_ended)
        checked_ended: list = []
        # a record asked for: the loop with a Turn per decision
        checked = play_game(game, random_agents(game, seed), seed, round_values=checked_ended, record=True)
        assert (fast.totals, fast.winners, fast.rounds, fast.round_results) == \
            (checked.totals, checked.winners, checked.rounds, checked.round_results)
        assert fast_ended == checked_ended
    assert len(taken) == 3  # the quiet runs took the playout path


_real = Match._played_out
