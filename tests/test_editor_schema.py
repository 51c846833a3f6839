"""The schema as an editor uses it: on the file as written (a variant before it is merged), with a draft-07
validator (what most editor plugins run) as well as a 2020-12 one, and both agree."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads((ROOT / "schema" / "game.schema.json").read_text(encoding="utf-8"))
GAMES = sorted((ROOT / "games").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))
VALIDATORS = {"draft-07": jsonschema.Draft7Validator(SCHEMA), "2020-12": jsonschema.Draft202012Validator(SCHEMA)}


def as_editor_sees(text: str) -> object:
    """The document as JSON (an editor's YAML plugin turns keys such as player counts into strings)."""
    return json.loads(json.dumps(yaml.safe_load(text)))


@pytest.mark.parametrize("draft", VALIDATORS)
@pytest.mark.parametrize("path", GAMES + EXAMPLES, ids=lambda p: p.name)
def test_every_bundled_game_and_example_is_valid_as_written(path, draft):
    errors = [e.message for e in VALIDATORS[draft].iter_errors(as_editor_sees(path.read_text(encoding="utf-8")))]
    assert errors == []


def test_the_examples_hold_variants():
    variants = [p for p in EXAMPLES if "extends" in yaml.safe_load(p.read_text(encoding="utf-8"))]
    assert len(variants) >= 3


HEARTS = (ROOT / "games" / "hearts.yaml").read_text(encoding="utf-8")
NINES = (ROOT / "docs" / "examples" / "njet-nines.yaml").read_text(encoding="utf-8")

BROKEN = {
    "unknown top-level key": HEARTS.replace("\nzones:", "\nzonez: {}\nzones:", 1),
    "missing section": HEARTS.replace("\nround:", "\nround_:", 1).split("\nround_:")[0],
    "unknown step kind": HEARTS.replace("do: tricks", "do: trickz", 1),
    "unknown key of a step": HEARTS.replace("do: tricks", "do: tricks\n    folow: x", 1),
    "wrong type": HEARTS.replace("trickbook: 1", "trickbook: 2", 1),
    "a step without do": HEARTS.replace("do: tricks", "dont: tricks", 1),
    "variant: unknown top-level key": NINES + "\nzonez: {}\n",
    "variant: unknown key of a step of a known kind": NINES + "\n  extra:\n    do: set\n    sett: 1\n",
    "variant: a define that is not text": "\n".join(
        "  super(c): [1, 2]" if line.startswith("  super(c):") else line for line in NINES.splitlines()),
    "variant: extends is not text": NINES.replace("extends: njet-riogrande", "extends: 3", 1),
}


@pytest.mark.parametrize("draft", VALIDATORS)
@pytest.mark.parametrize("case", BROKEN)
def test_broken_files_are_invalid_under_both_drafts(case, draft):
    text = BROKEN[case]
    assert text not in (HEARTS, NINES)
    assert list(VALIDATORS[draft].iter_errors(as_editor_sees(text)))


@pytest.mark.parametrize("case", BROKEN)
def test_both_drafts_find_the_same_errors(case):
    data = as_editor_sees(BROKEN[case])
    found = [sorted((list(e.absolute_path), e.message) for e in v.iter_errors(data)) for v in VALIDATORS.values()]
    assert found[0] == found[1]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_every_bundled_game_names_the_schema_for_editors(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/game.schema.json"


def test_trickbook_schema_prints_the_schema(capsys):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out) == SCHEMA
