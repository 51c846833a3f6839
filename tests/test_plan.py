"""The keyword table of the plan (interpreter/plan/): each top-level section of a rule file is one entry, the only
place it is described (the schema, the docs and explain are made from it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter import schema_gen
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
