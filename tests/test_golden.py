"""Golden records: seeded games written once (tests/golden/) must replay identically.

Each record holds the deal of every round, every decision by its label, every
round's scores and the result. A replay that differs names the first line where
the engine plays differently from the day the record was written.

The records were written before the rule files were rewritten on the general
steps (choose, move, teams, board, trick parts), so two things are not compared:
the rules' fingerprint (``rules_id``, which changes with any edit of the file) and
the names of the steps (``team_size``, ``partners`` and ``monster`` replaced one
``teams`` step). The chance outcomes, every action by its label, every round's
scores and the result must be identical. One rule changed on purpose: the Meinz
card monster is not a player and cannot win the game unless the house-rule option
says so, so its records are replayed with that option on (the engine of the day
let it win).
"""

from __future__ import annotations

import json
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


HOUSE_RULES = {"meinz": {"card_monster_can_win": True}}


@pytest.mark.parametrize("record", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_record_replays_identically(record, tmp_path):
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    head = lines[0]
    head.pop("rules_id")
    if head["players"] == 3 and head["rules"] in HOUSE_RULES:
        head["options"] = dict(head.get("options") or {}, **HOUSE_RULES[head["rules"]])
    for event in lines[1:]:
        event.pop("step", None)
    normalized = tmp_path / record.name
    normalized.write_text("".join(json.dumps(e) + "\n" for e in lines))
    out = replay(normalized)
    assert out.rounds == lines[-1]["rounds"]
