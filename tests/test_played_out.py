"""A run that records and tells nothing, with agents that pick from the list of actions alone, plays by
``Game.playout`` (Match._played_out). That it plays the game the checked loop plays, with the same round values, the
conformance battery checks on every bundled game, player count and docs example (tests/test_conformance.py)."""

from __future__ import annotations

from interpreter.harness.runner import play_game, random_agents
from interpreter.match.driver import Match

from .conftest import game_of


def test_a_quiet_run_of_random_agents_takes_the_playout_path_and_a_recorded_one_does_not(monkeypatch):
    game = game_of("meinz", 3)
    taken = []
    real = Match._played_out
    monkeypatch.setattr(Match, "_played_out", lambda *a: taken.append(1) or real(*a))
    quiet = play_game(game, random_agents(game, 1), 1)
    assert len(taken) == 1
    recorded = play_game(game, random_agents(game, 1), 1, record=True)
    assert len(taken) == 1 and (quiet.totals, quiet.rounds) == (recorded.totals, recorded.rounds)
