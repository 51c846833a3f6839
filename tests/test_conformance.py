"""Every game file, every player count: random games terminate, conserve cards,
give the same record for the same seed, and replay identically from their record.

The default run plays 30 games per file and player count and checks the first 10 fully (the
cards after every action, the same-seed record, the replay); set
TRICKBOOK_CONFORMANCE_GAMES for a longer run that checks every game fully (README: "Long runs")."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from interpreter.engine.compile import compile_game, supported_players
from interpreter.harness.conformance import ConformanceError, check_game
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import GAMES

GAMES_PER_COUNT = int(os.environ.get("TRICKBOOK_CONFORMANCE_GAMES", "30"))
FULLY_CHECKED = GAMES_PER_COUNT if "TRICKBOOK_CONFORMANCE_GAMES" in os.environ else 10
# the default run counts work: after the first 3 games of a count, it stops once 40,000 actions were checked (a
# game of long series, Skat's 48 deals, or of slow decisions, Tichu's, plays fewer than 30); set
# TRICKBOOK_CONFORMANCE_GAMES to play that many whatever they cost
MIN_GAMES, ACTIONS_PER_COUNT = 3, (None if "TRICKBOOK_CONFORMANCE_GAMES" in os.environ else 40_000)
CASES = [(path, n) for path in GAMES for n in supported_players(load_rules(path))]


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_random_games_terminate_conserve_cards_and_replay_identically(path, players, tmp_path):
    game = compile_game(load_rules(path), players)
    rounds = set()
    actions = 0
    for i in range(GAMES_PER_COUNT):
        if ACTIONS_PER_COUNT is not None and i >= MIN_GAMES and actions >= ACTIONS_PER_COUNT:
            break
        played = check_game(game, i, tmp_path, fully=i < FULLY_CHECKED)  # raises ConformanceError
        assert played.rounds >= 1 and played.actions > 0
        rounds.add(played.rounds)
        actions += played.actions
    if game.flow.until is None:
        assert len(rounds) == 1, "a fixed-length game ended after different numbers of rounds"


def test_a_broken_invariant_is_reported_with_its_seed(tmp_path, monkeypatch):
    """The checks can fail: a card that vanishes after an action is caught and named."""
    from interpreter.engine.state import State

    game = compile_game(load_rules("meinz"), 4)
    real = State.all_cards
    monkeypatch.setattr(State, "all_cards", lambda self: real(self)[1:] if self.round_number > 1 else real(self))
    with pytest.raises(ConformanceError, match=r"^seed conformance/3: after action \d+ \(round 2\) 35 cards of 36"):
        check_game(game, 3, tmp_path)


def test_the_conformance_command_reports_figures_and_failures(capsys):
    from interpreter.cli import main

    assert main(["conformance", "meinz", "njet-riogrande", "-p", "4", "--games", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 6 and report["failures"] == 0
    assert [(c["game"], c["players"], c["games"]) for c in report["cases"]] == [("meinz", 4, 3),
                                                                                 ("njet-riogrande", 4, 3)]
    assert all(c["rounds"] >= 3 and c["actions"] > 100 for c in report["cases"])
    # --first continues a run: game 2 alone is the third game of the run above
    assert main(["conformance", "njet-riogrande", "-p", "4", "--games", "1", "--first", "2", "--json"]) == 0
    later = json.loads(capsys.readouterr().out)["cases"][0]
    played = check_game(compile_game(load_rules("njet-riogrande"), 4), 2, Path(tempfile.mkdtemp()))
    assert (later["games"], later["rounds"], later["actions"]) == (1, played.rounds, played.actions)
    assert main(["conformance", "meinz", "-p", "9"]) == 1
    assert "meinz is for 3, 4 players, not 9" in capsys.readouterr().err


def test_different_seeds_give_different_games():
    game = compile_game(load_rules("njet-riogrande"), 4)
    records = {json.dumps(play_game(game, seed=s, record=True).record[1:]) for s in range(5)}
    assert len(records) == 5
