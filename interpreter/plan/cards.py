"""Decks as data (the plan's deck): every card is an int id with attributes kept in tuples.

A deck entry in a rule file is a mapping from attribute names to lists of
values; its cards are the cartesian product. Identical cards get the
automatic attribute ``copy`` (0, 1, 2, ... among equals) so a rule can say
"remove three of the four 7s" as ``card.number == 7 and card.copy < 3``.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Any, NamedTuple

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class CardTable:
    attributes: dict[str, tuple[Any, ...]]  # attribute -> value per card id
    labels: tuple[str, ...]
    kinds: tuple[int, ...]  # id of the first identical card, per card id

    def __len__(self) -> int:
        return len(self.labels)

    def by_label(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for cid, label in enumerate(self.labels):
            out.setdefault(label, []).append(cid)
        return out


class CardGroup(NamedTuple):
    """One entry of ``deck.cards``: each attribute with its values (every combination is a card), and the group's
    own label template (None: the deck's)."""

    attributes: tuple[tuple[str, tuple[Any, ...]], ...]
    label: str | None

    def size(self) -> int:
        return math.prod(len(values) for _, values in self.attributes)


def build_cards(groups: tuple[CardGroup, ...], label: str | None) -> CardTable:
    """Expand deck groups into a card table (the validator has checked shapes).

    A group's ``label`` (a template, not an attribute) writes that group's cards; ``label`` writes the others.
    """
    names: list[str] = []
    for g in groups:
        for n, _ in g.attributes:
            if n not in names:
                names.append(n)
    default = label or " ".join("{" + n + "}" for n in names)
    rows: list[dict[str, Any]] = []
    templates: list[str] = []
    for g in groups:
        keys = [k for k, _ in g.attributes]
        for combo in itertools.product(*(values for _, values in g.attributes)):
            row = {n: None for n in names}
            row.update(zip(keys, combo))
            rows.append(row)
            templates.append(g.label or default)
    seen: dict[tuple[Any, ...], int] = {}
    copies: list[int] = []
    kinds: list[int] = []
    first: dict[tuple[Any, ...], int] = {}
    for cid, row in enumerate(rows):
        key = tuple(row[n] for n in names)
        copies.append(seen.get(key, 0))
        seen[key] = seen.get(key, 0) + 1
        kinds.append(first.setdefault(key, cid))
    attributes = {n: tuple(r[n] for r in rows) for n in names}
    attributes["copy"] = tuple(copies)
    labels = tuple(_fill(t, dict(r, copy=k)) for r, k, t in zip(rows, copies, templates))
    return CardTable(attributes, labels, tuple(kinds))


def _fill(template: str, row: dict[str, Any]) -> str:
    return _FIELD.sub(lambda m: _text(row.get(m.group(1))), template)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def label_fields(template: str) -> list[str]:
    return _FIELD.findall(template)
