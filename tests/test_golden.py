"""Golden records: seeded games written once (tests/golden/) must replay identically.

Each record holds the deal of every round, every decision by its label, every
round's scores and the result. A replay that differs names the first line where
the engine plays differently from the day the record was written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.harness.records import replay

GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("*.jsonl"))


def test_there_are_golden_records_for_every_bundled_game_and_player_count():
    from interpreter.engine.compile import supported_players
    from interpreter.rules.loader import load_rules

    from .conftest import GAMES

    have = {p.stem.rsplit("-", 1)[0] for p in GOLDEN}
    for path in GAMES:
        for n in supported_players(load_rules(path)):
            assert f"{path.stem}-{n}p" in have, f"no golden record for {path.stem} with {n} players"


@pytest.mark.parametrize("record", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_record_replays_identically(record):
    out = replay(record)
    assert out.rounds > 0
