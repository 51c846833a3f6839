"""The ``types`` section: the kind of a value the engine cannot tell from how it is set.

A value that starts as ``none`` and is set later (a partner found in play, the cards of a meld) takes the kind
its steps give it; where that is not enough (a value only a later rule fills, or one that several steps set
differently), the rule file says it:

    types:
      round: {partner: seat, meld: list of cards}
      seats: {announced: text}
      game: {best: number}

A declared kind is checked against what the steps give the value (a step that sets it to something of another
kind is refused when the file is checked, naming both) and is then what every expression sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from interpreter.dsl.checks import noun
from interpreter.dsl.types import CARD, NUMBER, SEAT, TEXT, TRUTH, Type, join, list_of
from interpreter.errors import RuleError, SchemaError
from interpreter.plan.section import JSON, NAME_RULE, Plan, Section, names
from interpreter.rules.source import RuleSource

_KINDS = {"card": CARD, "seat": SEAT, "number": NUMBER, "text": TEXT, "truth": TRUTH}
KIND = "^(list of )*(card|seat|number|text|truth)s?$"  # how a kind is written (the schema's pattern)
_KIND = re.compile(KIND)
GROUPS = (("round", "Round", "round"), ("seats", "Per-seat", "per-seat"), ("game", "Game", "game"))

Declared = dict[tuple[str, str], Type | None]  # (group, value name) -> its kind (None: the text names no kind)


def kind_named(text: Any) -> Type | None:
    """The type a declaration names (``card``, ``list of cards``, ``list of list of seats``...), or None."""
    m = _KIND.match(text.strip()) if isinstance(text, str) else None
    if m is None:
        return None
    t = _KINDS[m.group(2)]
    for _ in range(text.count("list of")):
        t = list_of(t)
    return t


def read(source: RuleSource) -> Declared:
    """Every declaration of the ``types`` section, by (group, name)."""
    return {(group, name): kind_named(text) for group, values in (source.data.get("types") or {}).items()
            for name, text in (values or {}).items()}


def check(types: Declared, plan: Plan) -> Iterator[RuleError]:
    for (group, name), t in types.items():
        if t is None:
            text = plan.source.data["types"][group][name]
            yield SchemaError(f"types: {text!r} is not a kind: card, seat, number, text or truth, or 'list of' one of "
                              "them (e.g. list of cards)", plan.source.pos(("types", group, name)))


def mismatches(types: Declared, fields: dict[str, dict[str, Type]], source: RuleSource) -> Iterator[RuleError]:
    """Once the steps' types are worked out (``fields``: the values by group): each declared value no step sets,
    or one its steps set to another kind."""
    for (group, name), t in types.items():
        have = fields[group].get(name)
        where = source.pos(("types", group, name))
        if have is None:
            yield SchemaError(f"types: no step sets the {_noun(group)} value {name!r}", where)
        elif t is not None and not have.literal_none and join(t, have) != t:
            yield SchemaError(f"types: the {_noun(group)} value {name!r} is declared {noun(t)}, but its steps set it "
                              f"to {noun(have)}", where)


def apply(types: Declared, fields: dict[str, dict[str, Type]]) -> None:
    """Give the declared values their kinds in ``fields`` (by group)."""
    for (group, name), t in types.items():
        if t is not None:
            fields[group][name] = t


def _noun(group: str) -> str:
    return next(said for key, _, said in GROUPS if key == group)


def _schema() -> JSON:
    return {
        "title": "types section",
        "description": "The kind of values the engine cannot tell from how they are set (a value that starts as "
                       "none): round values, per-seat values and game values by name, e.g. round: {partner: seat, "
                       "meld: list of cards}.",
        "type": "object",
        "additionalProperties": False,
        "properties": {group: {
            "description": f"{what} values by name, each with its kind.",
            "type": "object",
            "propertyNames": names(f"a value name is a name usable in expressions: {NAME_RULE}"),
            "additionalProperties": {
                "description": "card, seat, number, text or truth, or 'list of' one of them (e.g. list of cards).",
                "type": "string",
                "pattern": KIND,
            },
        } for group, what, _ in GROUPS},
    }


SECTION = Section("types", _schema, read=read, checks=check)
