"""The ``options`` section: variants the players may switch on or choose (the options themselves, their kinds and the
reading of a value given for one: interpreter/rules/options.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.errors import RuleError
from interpreter.plan.section import JSON, NAME_RULE, PLACES, Plan, Section, Telling, Told, names, ref
from interpreter.rules import options as declared_options
from interpreter.rules.options import Option


def _schema() -> JSON:
    return {
        "title": "options section",
        "description": "Variants the players may switch on or choose, read in expressions as options.NAME.",
        "type": "object",
        "propertyNames": names(f"an option name is a name usable in expressions (options.NAME): {NAME_RULE}"),
        "additionalProperties": ref("option"),
    }


def _definitions() -> JSON:
    return {"option": {
        "title": "option",
        "description": "One option: what it does, its default value (which also fixes its type) and optionally the "
                       "allowed values.",
        "type": "object",
        "additionalProperties": False,
        "required": ["description", "default"],
        "properties": {
            "description": {"description": "What the option changes, shown to players.", "type": "string",
                            "minLength": 1},
            "default": ref("scalar", "The value used unless the players choose another; true/false, a whole number "
                                     "or text."),
            "choices": {
                "description": "The values the option may take (by default any value of the default's type).",
                "type": "array",
                "minItems": 1,
                "uniqueItems": True,
                "items": ref("scalar"),
            },
        },
    }}


def read(source: Any) -> dict[str, Option]:
    return declared_options.declared(source.data)


def check(piece: dict[str, Option], plan: Plan) -> Iterator[RuleError]:
    source = plan.source
    yield from declared_options.problems(source.data, source.smap.style, source.pos)


def tell(options: Any, tell: Telling) -> list[Told]:
    if not options:
        return []
    rows = []
    for name, spec in options.items():
        default = spec["default"]
        shown = ("yes" if default else "no") if isinstance(default, bool) else str(default)
        choices = ", ".join(map(str, spec["choices"])) if spec.get("choices") else ""
        rows.append([f"`{name}`", " ".join(str(spec["description"]).split()), shown, choices])
    return [(PLACES["options"], [
        ("h2", "Options"), ("p", "Set with `-o NAME=VALUE`; without it, each option has its default."),
        ("table", (["option", "what it changes", "default", "choices"], rows))])]


SECTION = Section("options", _schema, read=read, checks=check, words=tell, definitions=_definitions)
