"""The schema file is generated from the step declarations, and the declarations are complete enough for it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from interpreter import schema_gen
from interpreter.engine.steps import REGISTRY as STEPS
from interpreter.engine.steps.base import COMMON
from interpreter.plan.declaration import Opt
from interpreter.plan.opt_kinds import KINDS
from interpreter.schema_gen import docs, generate, render

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_FILE = ROOT / "schema" / "game.schema.json"
REGENERATE = "python -m interpreter.schema_gen"


def _all_options(options: tuple[Opt, ...], where: str):
    """Every option with a readable path, nested fields included."""
    for opt in options:
        path = f"{where}.{opt.key}"
        yield path, opt
        yield from _all_options(opt.fields, path)


def test_the_committed_schema_is_the_one_the_step_declarations_generate():
    committed = SCHEMA_FILE.read_text(encoding="utf-8")
    expected = render()
    if committed != expected:
        old, new = committed.splitlines(), expected.splitlines()
        line = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        pytest.fail(f"schema/game.schema.json is out of date (first difference at line {line + 1}); "
                    f"run `{REGENERATE}` and commit the result")
    assert json.loads(committed) == generate()


@pytest.mark.parametrize("kind", sorted(STEPS))
def test_every_option_of_every_step_kind_has_a_description_and_a_known_kind(kind):
    cls = STEPS[kind]
    assert cls.kind == kind
    assert cls.summary.strip(), f"step kind {kind!r} has no summary"
    problems = []
    for path, opt in _all_options(tuple(COMMON) + tuple(cls.options), kind):
        if not opt.doc.strip():
            problems.append(f"{path}: no doc")
        if opt.kind not in KINDS:
            problems.append(f"{path}: unknown kind {opt.kind!r} (kinds: {', '.join(KINDS)})")
        if opt.kind == "enum" and not opt.choices and opt.key != schema_gen.DISPATCH:
            problems.append(f"{path}: an enum without choices")
        if bool(opt.fields) != (opt.kind in ("object", "list", "rules")):
            problems.append(f"{path}: fields belong to (and only to) kinds object, list and rules")
    keys = [o.key for o in cls.options]
    if len(keys) != len(set(keys)):
        problems.append(f"{kind}: an option is declared twice")
    assert problems == []


def test_the_generated_schema_is_valid_draft_07_and_2020_12():
    schema = generate()
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.Draft202012Validator.check_schema(schema)


def test_the_generated_schema_has_a_definition_for_every_step_kind_and_option():
    defs = generate()["definitions"]
    assert defs["step"]["properties"]["do"]["enum"] == sorted(STEPS)
    for kind, cls in STEPS.items():
        step = defs[f"{kind}_step"]
        assert step["description"] == " ".join(cls.summary.split())
        assert set(step["properties"]) == {o.key for o in COMMON} | {o.key for o in cls.options}
        assert step["required"] == [o.key for o in schema_gen.step_options(kind) if o.required]


def test_the_generator_knows_no_step_kind_by_name():
    code = Path(schema_gen.__file__).read_text(encoding="utf-8")
    named = [kind for kind in STEPS if re.search(rf"[\"']{re.escape(kind)}[\"']", code)]
    assert named == []


def test_the_docs_have_a_section_and_a_row_for_every_step_kind_and_option():
    text = docs()
    common = {o.key for o in COMMON}
    for kind, cls in STEPS.items():
        assert f"### `{kind}`\n" in text
        section = text.split(f"### `{kind}`\n", 1)[1].split("\n### ", 1)[0]
        for path, opt in _all_options(tuple(o for o in cls.options if o.key not in common), kind):
            doc = " ".join(opt.doc.split()).replace("|", "\\|")
            row = next((line for line in section.splitlines()
                        if line.startswith(f"| `{opt.key}` |") and doc in line), None)
            assert row is not None, path
            assert ("**required.**" in row) == opt.required, path
            for name in opt.binds:
                assert f"`{name}`" in row, path


def test_check_reports_an_out_of_date_schema(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "game.schema.json"
    stale.write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(schema_gen, "SCHEMA_FILE", stale)
    assert schema_gen.main(["--check"]) == 1
    assert REGENERATE in capsys.readouterr().err
    assert schema_gen.main([]) == 0
    assert schema_gen.main(["--check"]) == 0
    assert stale.read_text(encoding="utf-8") == render()
