"""Every game file, every player count: random games terminate, conserve cards,
give the same record for the same seed, and replay identically from their record.

The default run plays 30 games per file and player count and checks the first 10 fully (the
cards after every action, the same-seed record, the replay); set
TRICKBOOK_CONFORMANCE_GAMES for a longer run that checks every game fully (README: "Long runs")."""

from __future__ import annotations

import json
import os

import pytest

from interpreter.engine.compile import compile_game, supported_players
from interpreter.harness.records import replay, write_record
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import GAMES

GAMES_PER_COUNT = int(os.environ.get("TRICKBOOK_CONFORMANCE_GAMES", "30"))
FULLY_CHECKED = GAMES_PER_COUNT if "TRICKBOOK_CONFORMANCE_GAMES" in os.environ else 10
CASES = [(path, n) for path in GAMES for n in supported_players(load_rules(path))]


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_random_games_terminate_conserve_cards_and_replay_identically(path, players, tmp_path):
    game = compile_game(load_rules(path), players)
    deck = sorted(game.deck)

    def conserved(state):  # every card of the deck is in exactly one place, after every action
        cards = sorted(state.all_cards())
        assert cards == deck, f"round {state.round_number}: {len(cards)} cards of {len(deck)}, or a card twice"

    rounds = set()
    for i in range(GAMES_PER_COUNT):
        seed = f"conformance/{i}"
        fully = i < FULLY_CHECKED
        first = play_game(game, seed=seed, record=fully, after_each=conserved if fully else None)
        assert len(first.round_results) == first.rounds
        assert sum(map(sum, zip(*first.round_results))) == sum(first.totals)
        rounds.add(first.rounds)
        if not fully:
            continue
        again = play_game(game, seed=seed, record=True)
        assert again.record == first.record, f"seed {seed}: the same seed gave a different record"
        record_file = tmp_path / f"{i}.jsonl"
        write_record(record_file, first.record)
        replayed = replay(record_file, game=game)
        assert (replayed.totals, replayed.winners, replayed.rounds) == (first.totals, first.winners, first.rounds)
        # the record is plain JSON Lines that names every action by its label
        lines = [json.loads(line) for line in record_file.read_text().splitlines()]
        assert lines[0]["type"] == "game" and lines[-1]["type"] == "result"
    if game.flow.until is None:
        assert len(rounds) == 1, "a fixed-length game ended after different numbers of rounds"


def test_different_seeds_give_different_games():
    game = compile_game(load_rules("njet-riogrande"), 4)
    records = {json.dumps(play_game(game, seed=s, record=True).record[1:]) for s in range(5)}
    assert len(records) == 5
