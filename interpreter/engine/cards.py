"""Decks as data: every card is an int id with attributes kept in tuples.

A deck entry in a rule file is a mapping from attribute names to lists of
values; its cards are the cartesian product. Identical cards get the
automatic attribute ``copy`` (0, 1, 2, ... among equals) so a rule can say
"remove three of the four 7s" as ``card.number == 7 and card.copy < 3``.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

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


def build_cards(groups: list[dict[str, Any]], label: str | None) -> CardTable:
    """Expand deck groups into a card table (the validator has checked shapes).

    A group's ``label`` (a template, not an attribute) writes that group's cards; ``label`` writes the others.
    """
    names: list[str] = []
    for g in groups:
        for n in g:
            if n not in names and n != "label":
                names.append(n)
    default = label or " ".join("{" + n + "}" for n in names)
    rows: list[dict[str, Any]] = []
    templates: list[str] = []
    for g in groups:
        keys = [k for k in g if k != "label"]
        for combo in itertools.product(*(g[k] for k in keys)):
            row = {n: None for n in names}
            row.update(zip(keys, combo))
            rows.append(row)
            templates.append(g.get("label") or default)
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


def hand_order(cards: CardTable, group: str | None = None) -> tuple[list[int], list[Any]]:
    """How people see a hand: (a sort key per card id, its group per card id). Cards are grouped by the
    attribute ``group`` (default: the attribute with the fewest values, the suit of most decks; of equals,
    the one that changes least often in deck order), groups in the order the deck first shows them, and
    keep deck order within a group."""
    attrs = cards.attributes
    n = len(cards.labels)
    if group is None:
        best = None
        for name, values in attrs.items():
            if name in ("label", "copy") or len(set(values)) < 2:
                continue
            key = (len(set(values)), sum(values[i] != values[i - 1] for i in range(1, n)))
            if best is None or key < best[0]:
                best = (key, name)
        group = best[1] if best is not None else None
    if group is None:
        return list(range(n)), [None] * n
    groups = list(attrs[group])
    first: dict[Any, int] = {}
    for v in groups:
        first.setdefault(v, len(first))
    order = sorted(range(n), key=lambda c: (first[groups[c]], c))
    rank = [0] * n
    for i, c in enumerate(order):
        rank[c] = i
    return rank, groups
