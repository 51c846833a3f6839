"""The JSON Schema of rule files, generated: the sections from the keyword table, step kinds from their declarations.

Each top-level section (``deck``, ``players``, ``game``...) is one entry of the keyword table
(``interpreter/plan/sections.py``): its schema fragment and the definitions it owns. Each step
kind is described by its class in ``interpreter/engine/steps``: its ``summary`` and its
``options`` (:class:`~interpreter.engine.steps.base.Opt`). This module turns those
declarations into the schema's top level, one ``definitions/<kind>_step`` per kind, and the
tables of the documentation; it knows nothing about any particular section or step kind. The
pieces both share (expressions, conditions, names) are described once below.

    python -m interpreter.schema_gen              # write schema/game.schema.json and the tables of
                                                  # docs/rule-files.md (between its markers)
    python -m interpreter.schema_gen --check      # exit 1 when either is out of date
    python -m interpreter.schema_gen --docs       # print the step kinds' option tables (Markdown)
    python -m interpreter.schema_gen --sections   # print the table of the sections (Markdown)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import interpreter.engine.steps  # noqa: F401  (registers the step kinds)
from interpreter.engine.steps.base import COMMON, REGISTRY
from interpreter.plan import shared
from interpreter.plan.declaration import Opt
from interpreter.plan.opt_kinds import bound_text, option_schema
from interpreter.plan.section import JSON, ref
from interpreter.plan.sections import SECTIONS

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "schema" / "game.schema.json"
DOCS_FILE = Path(__file__).resolve().parents[1] / "docs" / "rule-files.md"

DRAFT = "http://json-schema.org/draft-07/schema#"  # written so that draft-07 and 2020-12 validators agree
SCHEMA_ID = "urn:trickbook:schema:game"  # (a name, not an address: the project has none yet)

DISPATCH = "do"  # the key of a step that names its kind


# ---------------------------------------------------------------- the top level and the shared pieces

def _top() -> JSON:
    """The schema of a whole rule file: one property per section of the keyword table (interpreter/plan/)."""
    return {
        "title": "Trickbook rule file",
        "description": "A trick-taking card game written as data (trickbook format version 1). The interpreter "
                       "validates the document after merging 'extends', so every key is checked against the merged "
                       "rules.",
        "type": "object",
        "additionalProperties": False,
        "required": [key for key, section in SECTIONS.items() if section.required],
        "properties": {key: section.schema() for key, section in SECTIONS.items()},
    }


def _section_defs() -> JSON:
    """The definitions the sections own, section by section."""
    defs: JSON = {}
    for section in SECTIONS.values():
        defs.update(section.definitions())
    return defs


# ---------------------------------------------------------------- step kinds, from their declarations

def step_kinds() -> list[str]:
    return sorted(REGISTRY)


def step_options(kind: str) -> tuple[Opt, ...]:
    """The options of a step kind, the common ones (do, when) first even where a kind leaves them out."""
    own = REGISTRY[kind].options
    keys = {o.key for o in own}
    return tuple(o for o in COMMON if o.key not in keys) + tuple(own)


def _step_def(kind: str) -> JSON:
    cls = REGISTRY[kind]
    options = step_options(kind)
    properties: JSON = {}
    for opt in options:
        if opt.key == DISPATCH:
            properties[opt.key] = {"description": f"{opt.doc.strip().rstrip('.')}: {kind}.", "const": kind}
        else:
            properties[opt.key] = option_schema(opt, f"{kind} step")
    return {
        "title": f"{kind} step",
        "description": " ".join(cls.summary.split()),
        "type": "object",
        "additionalProperties": False,
        "required": [o.key for o in options if o.required],
        "properties": properties,
    }


def _step() -> JSON:
    kinds = step_kinds()
    common = {}
    for opt in COMMON:
        if opt.key == DISPATCH:
            common[opt.key] = {"description": opt.doc, "enum": kinds}
        else:
            common[opt.key] = option_schema(opt, "step")
    return {
        "title": "step",
        "description": f"One step: {DISPATCH} names its kind ({', '.join(kinds)}); the other keys depend on the "
                       "kind. Or a use of a template (use: TEMPLATE, its arguments, keys merged over its step).",
        "type": "object",
        "anyOf": [{"required": [DISPATCH]}, {"required": ["use"]}],
        "properties": {**common, "use": {"description": "The template (under templates:) this step is: its other "
                                                        "keys are the template's arguments, or merged over its "
                                                        "step.", "type": "string"}},
        "allOf": [
            {
                "if": {
                    "required": [DISPATCH],
                    "properties": {DISPATCH: {"description": f"Selects the keys of the {kind} step.",
                                              "const": kind}},
                },
                "then": ref(f"{kind}_step"),  # its keys: the common ones and the kind's, no other
            }
            for kind in kinds
        ],
    }


def generate() -> dict[str, Any]:
    """The JSON Schema of rule files, written in the common part of draft-07 and 2020-12 (so editors' draft-07
    validators and the interpreter's 2020-12 one agree): its definitions under ``definitions``, no keyword of
    later drafts, and no ``$ref`` beside other keywords that check (draft-07 ignores them).

    A whole file is checked against ``definitions/rules``; a file with ``extends`` (a variant, written as the
    differences from its base) against ``definitions/variant``: the same keys and values, none required, any
    key of a mapping may be null (it deletes the base's key), lists whole (they replace the base's)."""
    defs = shared.definitions()
    defs.update(_section_defs())
    defs["step"] = _step()
    for kind in step_kinds():
        defs[f"{kind}_step"] = _step_def(kind)
    rules = _top()
    defs["rules"] = rules
    variant = _partial(rules, defs)
    variant["required"] = ["extends"]
    variant["title"] = "Trickbook variant"
    variant["description"] = ("A rule file written as the differences from the file it extends: mappings are "
                              "merged key by key, other values replace the base's, null removes a key.")
    defs["variant"] = variant
    _no_ref_siblings(defs)
    return {
        "$schema": DRAFT,
        "$id": SCHEMA_ID,
        "title": rules["title"],
        "description": rules["description"] + " A file with extends is a variant: only its differences are "
                                              "written, and none of the keys is required.",
        "type": "object",
        "properties": {key: {k: v for k, v in value.items() if k in ("title", "description")}
                       for key, value in rules["properties"].items()},  # what an editor shows on a key
        "if": {"required": ["extends"]},
        "then": ref("variant"),
        "else": ref("rules"),
        "definitions": defs,
    }


_CHECKS_NOTHING = ("title", "description", "default", "examples", "$comment")


def _partial(node: JSON, defs: JSON) -> JSON:
    """``node`` as a variant may write it: nothing required, a mapping's values may be null, lists whole. The
    definitions it refers to get a partial twin (``partial_NAME``) in ``defs``, made once."""
    out: JSON = {}
    for key, value in node.items():
        if key in ("required", "minProperties") or key == "anyOf" and all(
                isinstance(b, dict) and set(b) == {"required"} for b in value):
            continue  # a variant need not write what the merged file must hold
        if key == "$ref":
            name = value.rsplit("/", 1)[1]
            if f"partial_{name}" not in defs:
                defs[f"partial_{name}"] = {}  # made before it is filled: definitions may refer to themselves
                defs[f"partial_{name}"] = _partial(defs[name], defs)
            out[key] = f"#/definitions/partial_{name}"
        elif key in ("properties", "patternProperties"):
            out[key] = {k: _nullable(_partial(v, defs)) for k, v in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_partial(value, defs))
        elif key in ("anyOf", "oneOf", "allOf"):
            out[key] = [_partial(b, defs) for b in value]
        elif key == "then":
            out[key] = _partial(value, defs)
        else:  # items (a list replaces the base's whole), if (it selects by keys written), checks of one value
            out[key] = value
    return out


def _nullable(node: JSON) -> JSON:
    """``node`` or null (a variant's null removes the base's key), described as ``node`` is."""
    shown: JSON = {k: node[k] for k in ("title", "description") if k in node}
    return {**shown, "anyOf": [node, {"description": "null removes the base's key", "type": "null"}]}


def _no_ref_siblings(node: Any) -> None:
    """Where a ``$ref`` stands beside keywords that check (``minimum``, ``default`` is not one), move it into an
    ``allOf``: draft-07 validators ignore every keyword beside a ``$ref``."""
    if isinstance(node, list):
        for item in node:
            _no_ref_siblings(item)
    elif isinstance(node, dict):
        for value in node.values():
            _no_ref_siblings(value)
        if "$ref" in node and set(node) - {"$ref", *_CHECKS_NOTHING}:
            node["allOf"] = [{"$ref": node.pop("$ref")}, *node.get("allOf", [])]


def render(schema: dict[str, Any] | None = None) -> str:
    """The schema file's text."""
    return json.dumps(generate() if schema is None else schema, indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------- documentation

def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _doc_row(opt: Opt) -> str:
    text = _cell(opt.doc.strip())
    if opt.required:
        text = f"**required.** {text}"
    text += bound_text(opt, "`{}`")
    return f"| `{opt.key}` | {text} |"


def _doc_table(options: tuple[Opt, ...] | list[Opt]) -> list[str]:
    return ["| Key | Meaning |", "|---|---|", *(_doc_row(o) for o in options)]


_FIELD_INTRO = {
    "object": "Each entry of {keys} (a mapping):",
    "list": "Each item of {keys} (a mapping):",
    "rules": "A rule mapping in {keys}:",
}


def _nested_tables(options: tuple[Opt, ...]) -> list[str]:
    """Tables of the mappings inside options (shared fields are shown once), depth first."""
    groups: list[tuple[str, tuple[Opt, ...], list[str]]] = []
    for opt in options:
        if not opt.fields:
            continue
        for kind, fields, keys in groups:
            if kind == opt.kind and fields == opt.fields:
                keys.append(opt.key)
                break
        else:
            groups.append((opt.kind, opt.fields, [opt.key]))
    lines: list[str] = []
    for kind, fields, keys in groups:
        named = " or ".join(f"`{k}`" for k in keys)
        lines += ["", _FIELD_INTRO.get(kind, "The keys of {keys}:").format(keys=named), "", *_doc_table(fields)]
        lines += _nested_tables(fields)
    return lines


def docs() -> str:
    """A Markdown section per step kind: its summary and its option tables (do and when are left out)."""
    common = {o.key for o in COMMON}
    out: list[str] = []
    for kind in step_kinds():
        cls = REGISTRY[kind]
        options = tuple(o for o in cls.options if o.key not in common)
        out += [f"### `{kind}`", "", " ".join(cls.summary.split()), ""]
        if options:
            out += _doc_table(options)
            out += _nested_tables(options)
        else:
            out.append(f"No keys besides `{DISPATCH}` and `when`.")
        out.append("")
    return "\n".join(out)


def section_docs() -> str:
    """A Markdown table of the top-level sections, one row per entry of the keyword table: whether it is required,
    and what it holds (its schema fragment's description)."""
    rows = ["| Section | Required | What it holds |", "|---|---|---|"]
    for key, section in SECTIONS.items():
        rows.append(f"| `{key}` | {'yes' if section.required else ''} | {_cell(section.schema()['description'])} |")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- command line

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m interpreter.schema_gen",
                                     description="Generate schema/game.schema.json from the section and step "
                                                 "declarations.")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 when the schema file is out of date")
    group.add_argument("--docs", action="store_true", help="print the step kinds' option tables (Markdown)")
    group.add_argument("--sections", action="store_true", help="print the table of the top-level sections (Markdown)")
    args = parser.parse_args(argv)
    if args.docs or args.sections:
        sys.stdout.write(docs() if args.docs else section_docs())
        return 0
    text = render()
    stale = []
    if (SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.is_file() else None) != text:
        stale.append(SCHEMA_FILE)
    doc_text = DOCS_FILE.read_text(encoding="utf-8") if DOCS_FILE.is_file() else None
    new_doc = with_tables(doc_text) if doc_text is not None else None
    if new_doc is not None and new_doc != doc_text:
        stale.append(DOCS_FILE)
    if args.check:
        for f in stale:
            print(f"{f} is out of date with the step and section declarations; run python -m "
                  "interpreter.schema_gen", file=sys.stderr)
        if not stale:
            print(f"{SCHEMA_FILE} and the tables of {DOCS_FILE.name} are up to date")
        return 1 if stale else 0
    SCHEMA_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {SCHEMA_FILE}")
    if new_doc is not None and new_doc != doc_text:
        DOCS_FILE.write_text(new_doc, encoding="utf-8")
        print(f"wrote the generated tables of {DOCS_FILE}")
    return 0


START_MARK, END_MARK = "<!-- generated: step options -->", "<!-- end generated -->"
SECTIONS_MARK = "<!-- generated: sections -->"


def with_tables(text: str) -> str:
    """``text`` (docs/rule-files.md) with the generated tables between their markers: the sections table after
    SECTIONS_MARK, the step kinds' tables after START_MARK, each up to the next END_MARK."""
    for mark, table in ((SECTIONS_MARK, section_docs), (START_MARK, docs)):
        if mark not in text or END_MARK not in text.split(mark, 1)[1]:
            continue
        head, rest = text.split(mark, 1)
        _, tail = rest.split(END_MARK, 1)
        text = f"{head}{mark}\n{table().strip(chr(10))}\n{END_MARK}{tail}"
    return text


if __name__ == "__main__":
    sys.exit(main())
