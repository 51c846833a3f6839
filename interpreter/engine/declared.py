"""The ``types:`` section of a rule file: the kind of a value the engine cannot tell from how it is set.

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
from typing import Any

from interpreter.dsl.checks import noun
from interpreter.dsl.types import CARD, NUMBER, SEAT, TEXT, TRUTH, Type, join, list_of
from interpreter.errors import SchemaError

_KINDS = {"card": CARD, "seat": SEAT, "number": NUMBER, "text": TEXT, "truth": TRUTH}
_SPELLED = re.compile(r"^((?:list of )*)(card|seat|number|text|truth)s?$")
GROUPS = ("round", "seats", "game")


def kind_named(text: Any) -> Type | None:
    """The type a declaration names (``card``, ``list of cards``, ``list of list of seats``...), or None."""
    m = _SPELLED.match(str(text).strip()) if isinstance(text, str) else None
    if m is None:
        return None
    t = _KINDS[m.group(2)]
    for _ in range(m.group(1).count("list of")):
        t = list_of(t)
    return t


def declared(section: dict[str, Any], source: Any) -> dict[tuple[str, str], Type]:
    """Every declaration of the ``types`` section, by (group, name), each checked to name a kind."""
    out: dict[tuple[str, str], Type] = {}
    for group, names in section.items():
        for name, text in (names or {}).items():
            t = kind_named(text)
            if t is None:
                raise SchemaError(f"types: {text!r} is not a kind: card, seat, number, text or truth, or "
                                  "'list of' one of them (e.g. list of cards)", source.pos(("types", group, name)))
            out[(group, name)] = t
    return out


def apply(types: dict[tuple[str, str], Type], fields: dict[str, dict[str, Type]], source: Any,
          check: bool) -> None:
    """Give the declared values their kinds in ``fields`` (by group). With ``check`` (once the steps' types are
    worked out): a value no step sets, or one set to another kind, is refused."""
    for (group, name), t in types.items():
        have = fields[group].get(name)
        if check:
            where = source.pos(("types", group, name))
            if have is None:
                raise SchemaError(f"types: no step sets the {_noun(group)} value {name!r}", where)
            if not have.literal_none and join(t, have) != t:
                raise SchemaError(f"types: the {_noun(group)} value {name!r} is declared {noun(t)}, but its steps "
                                  f"set it to {noun(have)}", where)
        fields[group][name] = t


def _noun(group: str) -> str:
    return {"round": "round", "seats": "per-seat", "game": "game"}[group]
