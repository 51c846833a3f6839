"""The ``define`` section: named helper expressions, ``NAME`` or ``NAME(PARAM, ...)``, used in any expression.

A define is its expression, or a mapping ``{value: EXPRESSION, says: WORDS}`` whose ``says`` is how the rulebook
(``trickbook explain``) names it wherever it is used."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from interpreter.dsl.builtins import REGISTRY as BUILTINS
from interpreter.dsl.words import definition, term_name
from interpreter.errors import RuleError, SchemaError
from interpreter.plan.section import JSON, PLACES, Path_, Plan, Section, Telling, Told, names
from interpreter.plan.zones import KEYWORDS
from interpreter.rules.source import RuleSource

KEY = (r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*(\(\s*([A-Za-z_][A-Za-z0-9_]*(\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)?"
       r"\s*\))?\s*$")  # how a define's key is written: NAME or NAME(PARAM, ...)
_KEY = re.compile(KEY)


class DefinePlan(NamedTuple):
    """One define: its name and parameters (None when its key is not written NAME or NAME(PARAM, ...)), its
    expression's text and where that is written."""

    key: str
    name: str | None
    params: tuple[str, ...]
    text: str
    path: Path_


def read(source: RuleSource) -> tuple[DefinePlan, ...]:
    out = []
    for key, written in (source.data.get("define") or {}).items():
        m = _KEY.match(str(key))
        name = str(key).partition("(")[0].strip() if m else None
        params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip()) if m else ()
        said = isinstance(written, dict)
        text = written["value"] if said else written
        out.append(DefinePlan(str(key), name, params, str(text), ("define", key) + (("value",) if said else ())))
    return tuple(out)


def check(defines: tuple[DefinePlan, ...], plan: Plan) -> Iterator[RuleError]:
    seen: set[str] = set()
    for d in defines:
        where = plan.source.key_pos(d.path)
        if d.name is None:
            yield SchemaError(f"a define is written name or name(param, ...), not {d.key!r}", where)
        elif d.name in BUILTINS:
            yield SchemaError(f"{d.name!r} is a builtin function; choose another name for this define", where)
        elif d.name in KEYWORDS:
            yield SchemaError(f"{d.name!r} is a word of the expression language; choose another name", where)
        elif d.name in seen:
            yield SchemaError(f"{d.name!r} is defined twice", where)
        elif len(set(d.params)) != len(d.params):
            yield SchemaError("a parameter name is repeated", where)
        if d.name is not None:
            seen.add(d.name)


def tell(defines: Any, tell: Telling) -> list[Told]:
    if not defines:
        return []
    items = []
    for key in defines:
        term = tell.vocabulary.terms[str(key).partition("(")[0].strip()]
        of, said = definition(term, tell.vocabulary)
        name = term_name(term)
        if name.endswith(" of") and of.startswith(" of "):  # "**suit of** a card"
            name, of = name.removesuffix(" of"), " of" + of.removeprefix(" of")
        items.append(f"**{name}**{of}: {said}" + tell.comment(("define", key)))
    return [(PLACES["terms"], [("h2", "Terms used below"), ("ul", items)])]


def _schema() -> JSON:
    return {
        "title": "define section",
        "description": "Named helper expressions: a key NAME or NAME(PARAM, ...) and its expression. Helpers can call "
                       "each other and are used in any expression.",
        "type": "object",
        "propertyNames": names("a define is written NAME or NAME(PARAM, ...), each a name of letters, digits and _",
                               KEY),
        "additionalProperties": {
            "description": "The helper's expression (its parameters are bound to the call's arguments), or a mapping "
                           "of it (value) and of how the rulebook names it (says).",
            "type": ["string", "integer", "object"],
            "minLength": 1,
            "additionalProperties": False,
            "required": ["value"],
            "properties": {
                "value": {"description": "The helper's expression; its parameters are bound to the call's "
                                         "arguments.", "type": ["string", "integer"], "minLength": 1},
                "says": {"description": "How trickbook explain names the define wherever it is used: without "
                                        "parameters, the words as they stand ('trumps are broken'); of one thing, "
                                        "a condition's words after 'is' ('the top trump': the card is the top "
                                        "trump) or a value's name ('penalty points': the player's "
                                        "penalty points).", "type": "string", "minLength": 1},
            },
        },
    }


SECTION = Section("define", _schema, read=read, checks=check, words=tell)
