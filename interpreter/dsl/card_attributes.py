"""A card's attribute read by an expression: the part that reads it, from the attribute's values by card id (the
deck's table), its type and whether no value is a list, each worked out once per attribute (a deck may have
10,000 cards)."""

from __future__ import annotations

from typing import Any

from interpreter.dsl import checks as check
from interpreter.dsl.ir import Part, constant
from interpreter.dsl.names import Globals
from interpreter.errors import ExpressionError, Position


class CardAttributes:
    """The parts reading the cards' attributes of one game (``g``)."""

    def __init__(self, g: Globals):
        self.g = g
        self._by_card: dict[str, dict[Any, Any]] = {}  # card attribute -> its values by card id, and none: none
        self._scalar: dict[str, bool] = {}  # card attribute -> whether no value is a list

    def part(self, base: Part, name: str, named: str | None, sure: bool, where: Position | None) -> Part:
        """``base.NAME`` for a card ``base``: ``named`` the bound name it is, if any; ``sure``: never none (the
        item a judged expression is judged for)."""
        table = attribute_of("cards", self.g.card_attrs, name, where)
        rtype = self.g.card_attr_types.get(name)
        if rtype is None:  # worked out once per attribute: a deck may have 10,000 cards
            rtype = self.g.card_attr_types[name] = check.plain_type(table)
        if base.const:
            return constant(None if base.value is None else table[base.value], rtype)
        # an attribute of none (first() of nothing, a led card that is none) is none: looked up in a dict
        # with none in it, except for the item a judged expression is judged for (a card, never none)
        lookup: Any = table if sure else self._none_reads_none(name)
        # card.colour reads an attribute of the card, not the card
        deps = base.deps if named is None else frozenset({"ctx:" + named, f"attr:{named}.{name}"})
        res = Part("attr", rtype, deps, (base,), lookup)
        scalar = self._scalar.get(name)
        if scalar is None:
            scalar = self._scalar[name] = all(v is None or type(v) in (str, int, bool) for v in table)
        res.scalar, res.attr = scalar, name
        return res

    def _none_reads_none(self, name: str) -> dict[Any, Any]:
        """The values of a card attribute by card id, and none for none: one lookup, no test."""
        table = self._by_card.get(name)
        if table is None:
            table = self._by_card[name] = dict(enumerate(self.g.card_attrs[name]))
            table[None] = None
        return table


def attribute_of(things: str, attributes: dict[str, Any], name: str, where: Position | None) -> Any:
    """What ``attributes`` holds for ``name``, or the error naming the attributes ``things`` have."""
    entry = attributes.get(name)
    if entry is None:
        raise ExpressionError(f"{things} have no attribute {name!r} (they have: {', '.join(sorted(attributes))})",
                              where)
    return entry
