"""How people see a hand: cards grouped by suit (the deck itself is the plan's: interpreter/plan/cards.py)."""

from __future__ import annotations

from typing import Any

from interpreter.plan.cards import CardTable


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
