"""The keyword table of the plan (interpreter/plan/): each top-level section of a rule file is one entry, the only
place it is described (the schema, the docs and explain are made from it); the sections' checks report every
mistake they find, not only the first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import schema_gen
from interpreter.cli import main, validate_file
from interpreter.plan.sections import SECTIONS, read
from interpreter.rules.loader import load_rules
from interpreter.rules.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rule-files.md"
GAMES = sorted((ROOT / "games").glob("*.yaml"))


def test_every_top_level_key_of_the_schema_is_one_entry_of_the_table_and_no_entry_is_missing():
    schema = load_schema()
    top = schema["definitions"]["rules"]
    assert list(top["properties"]) == list(SECTIONS)  # one entry per key, each key once, in the schema's order
    assert list(schema["properties"]) == list(SECTIONS)  # what an editor shows
    assert top["required"] == [key for key, section in SECTIONS.items() if section.required]
    assert all(section.key == key for key, section in SECTIONS.items())
    owned = [name for section in SECTIONS.values() for name in section.definitions()]
    assert len(owned) == len(set(owned)) and set(owned) <= set(schema["definitions"])  # each owned once


def test_every_entry_is_in_the_docs_table_and_the_table_is_the_generated_one():
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"<!-- generated: sections -->\n(.*?)<!-- end generated -->", text, re.S)
    assert len(found) == 1, "docs/rule-files.md needs one block between the sections' generated-table markers"
    assert found[0] == schema_gen.section_docs(), (
        "the sections table in docs/rule-files.md is out of date: run `python -m interpreter.schema_gen`")
    rows = [line.split(" | ")[0].strip("| `") for line in found[0].splitlines()[2:]]
    assert rows == list(SECTIONS)
    for key in SECTIONS:  # and each section has its own part of the page
        assert re.search(rf"^##+ .*`{key}`", text, re.M), key


def test_the_generator_prints_the_sections_table(capsys):
    assert schema_gen.main(["--sections"]) == 0
    assert capsys.readouterr().out == schema_gen.section_docs()


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_bundled_game_reads_into_a_plan_of_plain_records(path):
    plan = read(load_rules(path))
    assert set(plan.pieces) == set(SECTIONS)
    assert plan["players"].counts == tuple(sorted(plan["players"].setups))
    deck = plan["deck"]
    assert deck.cards is not None and len(deck.cards) == sum(g.size() for g in deck.groups)
    assert [s.name for s in plan["round"]] == list(load_rules(path).data["round"])


# ---------------------------------------------------------------- every mistake, not the first

RULES = """\
trickbook: 1
name: two-mistakes
seats: [North, East, South]
deck:
  label: "{rank} of {suite}"
  cards: [{rank: [A, K, Q, J], suit: [clubs, hearts]}]
players:
  4: {}
zones:
  hand: {per_seat: true, visible: owner}
  trick: {}
define:
  high(c): "c.rank == 'A'"
  high(x): "x.rank == 'K'"
game:
  rounds: 1
round:
  deal: {do: deal, hand: 2}
"""


def _problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return [block.split("\n", 1)[0].split(": error: ", 1)[1] for block in validate_file(str(path))]


def test_validate_lists_every_mistake_of_independent_sections_in_file_order(tmp_path):
    assert _problems(tmp_path, RULES) == [
        "seats names 3 seats but the game is for up to 4 players",
        "the label names 'suite', which is not a card attribute (rank, suit)",
        "'high' is defined twice",
    ]


def test_each_mistake_alone_is_the_one_reported(tmp_path):
    fixed = {"{suite}": "{suit}", "  high(x)": "  low(x)", "South]": "South, West]"}

    def with_fixed(*keys: str) -> str:
        text = RULES
        for key in keys:
            text = text.replace(key, fixed[key])
        return text

    for wrong in fixed:
        assert len(_problems(tmp_path, with_fixed(*(k for k in fixed if k != wrong)))) == 1, wrong
    assert _problems(tmp_path, with_fixed(*fixed)) == []


def test_the_command_prints_them_all(tmp_path, capsys):
    path = tmp_path / "rules.yaml"
    path.write_text(RULES.replace("  high(x)", "  low(x)"), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:3:" in err and f"{path}:5:" in err and err.count(": error: ") == 2


LATER = """\
trickbook: 1
name: later-mistakes
deck:
  cards: [{rank: [A, K, Q, J], suit: [clubs, hearts]}]
players:
  2:
    automatic: [{name: dummy, policy: {bid: "first(legal)"}}]
zones:
  hand: {per_seat: true}
  trick: {}
table:
  - {title: leader, show: "round.leader"}
game:
  rounds: 100000
  first_dealer: "'North'"
round:
  deal: {do: deal, hand: 2}
"""


def test_the_game_section_the_table_and_the_policies_report_every_mistake_too(tmp_path):
    assert _problems(tmp_path, LATER) == [
        "there is no step 'bid' that asks seats (steps that do: none)",
        "unknown round value 'leader' (known: dealer, number)",
        "rounds must be a whole number from 1 to 1000, got 100000",
        "first_dealer must be a whole number (the seat index), not \"'North'\"",
    ]


def test_a_mistake_in_one_step_does_not_hide_another_step_s(tmp_path):
    """Each step is compiled whatever the steps before it found, and
    validate lists them all in file order; each alone is the one reported."""
    two = ("extends: hearts\nname: two\nround:\n  pass:\n    count: \"nonsense_value + 1\"\n"
           "  moon:\n    options: \"['a', 'b'] + other_nonsense\"\n")
    path = tmp_path / "two.yaml"
    path.write_text(two, encoding="utf-8")
    found = [block.split("\n", 1)[0] for block in validate_file(str(path))]
    assert [line.split(": error: ")[0].rsplit(":", 2)[1:] for line in found] == [["5", "13"], ["7", "28"]]
    assert all("unknown name" in line for line in found)
    path.write_text(two.replace(" + other_nonsense", ""), encoding="utf-8")
    assert len(validate_file(str(path))) == 1
