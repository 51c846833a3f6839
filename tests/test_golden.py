"""Golden records: seeded games written once (tests/golden/) must replay identically, and the newer set must
also be played again identically from its seed and agents.

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

import gzip
import json
from pathlib import Path

import pytest

from interpreter.match.records import read_record, replay, write_record

from .conftest import LONG, counts_of, game_of, one_in
from .golden.make_golden import AGENT_KINDS, SEEDS, golden_name, play

HERE = Path(__file__).resolve().parent / "golden"
GOLDEN = sorted(HERE.glob("*.jsonl"))
SECOND = sorted(HERE.glob("*.jsonl.gz"))


def test_there_are_golden_records_for_every_bundled_game_and_player_count():
    from .conftest import GAMES

    have = {p.stem.rsplit("-", 1)[0] for p in GOLDEN}
    second = {p.name for p in SECOND}
    for path in GAMES:
        for n in counts_of(path):
            assert f"{path.stem}-{n}p" in have, f"no golden record for {path.stem} with {n} players"
            for agent in AGENT_KINDS:
                for k in range(1, len(SEEDS) + 1):
                    name = golden_name(path.stem, n, agent, k)
                    assert name in second, f"no golden record {name}: python tests/golden/make_golden.py {path.stem}"


HOUSE_RULES = {"meinz": {"card_monster_can_win": True}}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the records the tests write (each under its own name): a folder a test costs more than the
    replay of a short record."""
    return tmp_path_factory.mktemp("golden")


# the default suite replays the first of each game and player count (seed golden/1), the long suite all three
FIRST = [p for p in GOLDEN if LONG or p.stem.endswith("-1")]


@pytest.mark.parametrize("record", FIRST, ids=[p.stem for p in FIRST])
def test_a_golden_record_replays_identically(record, folder):
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    head = lines[0]
    head.pop("rules_id")
    if head["players"] == 3 and head["rules"] in HOUSE_RULES:
        head["options"] = dict(head.get("options") or {}, **HOUSE_RULES[head["rules"]])
    for event in lines[1:]:
        event.pop("step", None)
    normalized = folder / record.name
    normalized.write_text("".join(json.dumps(e) + "\n" for e in lines))
    out = replay(normalized)
    assert out.rounds == lines[-1]["rounds"]


# ---------------------------------------------------------------- the second set: random and greedy agents, 10 seeds


def _events(record: Path) -> list[dict]:
    """The record's events, without the rules' fingerprint (it changes with any edit of the file, also one that
    changes no play)."""
    events = [json.loads(line) for line in gzip.decompress(record.read_bytes()).decode().splitlines()]
    events[0].pop("rules_id")
    return events


def _seed(record: Path) -> int:
    return int(record.name.removesuffix(".jsonl.gz").split("-")[-1])


# the default suite replays and plays again those of seed 10 (the long suite every one)
REPLAYED = [p for p in SECOND if one_in(10, _seed(p))]


@pytest.mark.parametrize("record", REPLAYED, ids=[p.name.removesuffix(".jsonl.gz") for p in REPLAYED])
def test_a_golden_record_of_the_second_set_replays_and_is_played_again_identically(record, folder):
    events = _events(record)
    plain = folder / record.name.removesuffix(".gz")
    plain.write_text("".join(json.dumps(e) + "\n" for e in events))
    head = events[0]
    agent = record.name.removesuffix(".jsonl.gz").split("-")[-2]
    game = game_of(head["rules"], head["players"], **head["options"])
    # replayed on the game compiled once for every record of its rules, player count and options (the first set
    # replays each from its header's rules)
    out = replay(plain, game=game)
    assert out.rounds == events[-1]["rounds"]
    again = folder / ("again-" + record.name.removesuffix(".gz"))
    write_record(again, play(game, head["seed"], agent).record)
    played = [e for _, e in read_record(again)]
    played[0].pop("rules_id")
    # an option added to the file since the record was written is not in its header: the game took its default
    played[0]["options"] = {k: v for k, v in played[0]["options"].items() if k in head["options"]}
    first = next((i for i, (a, b) in enumerate(zip(played, events, strict=False)) if a != b), None)
    assert played == events, (f"played again from seed {head['seed']!r} with {agent} agents, the game differs "
                              f"from line {(first if first is not None else min(len(played), len(events))) + 1}")
