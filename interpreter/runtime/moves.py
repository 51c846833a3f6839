"""Cards moved in the compact layout, where a card is its kind: a move's cards are looked for, each in turn, in the
zones the move takes its cards from (its ``from`` zones, or the zones its ``cards`` expression reads; every zone when
it reads none, such as a seat's value holding cards chosen earlier), the moving seat's zones first, then the shared
ones, then every seat's (the order today's ``State.zone_of`` looks in); of identical cards the last in the zone goes,
as a play or a choice takes the last copy of a card a hand holds twice. A card no zone still holds (named twice, or
by two seats) moves once."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from interpreter.runtime.layout import Layout

Carry = Callable[[Any, list[tuple[list[int], list[int], Any]], list[Any]], None]


def search_orders(lay: Layout, zones: Iterable[str] | None) -> list[list[int]]:
    """For each seat (and last, for a move of no seat) the zone slots a card is looked for in, in turn."""
    allowed = None if zones is None else set(zones) & {z for z, _ in lay.zones} or None
    ok = [allowed is None or z in allowed for z, _ in lay.zones]
    shared = [i for i, (z, s) in enumerate(lay.zones) if s is None and ok[i]]
    seated = [i for i, (z, s) in enumerate(lay.zones) if s is not None and ok[i]]
    orders = [[i for i in seated if lay.zones[i][1] == seat] for seat in range(lay.players)]
    orders = [own + shared + [i for i in seated if i not in own] for own in orders]
    return orders + [shared + seated]


def carrier(lay: Layout, zones: Iterable[str] | None, top: bool) -> Carry:
    """``carry(state, plan, owners)``: the cards of each (cards, destination, owner) of ``plan`` (``owners``: the
    seat each was worked out for, or None) taken from where they are and put at the bottom of the destination (at
    its top with ``top``)."""
    orders, n = search_orders(lay, zones), lay.players

    def carry(state: Any, plan: list[tuple[list[int], list[int], Any]], owners: list[Any]) -> None:
        z = state.z
        for (cards, dest, _), seat in zip(plan, owners):
            order = orders[n if seat is None else seat]
            moved = []
            for k in cards:
                for slot in order:
                    zone = z[slot]
                    if k in zone:
                        del zone[len(zone) - 1 - zone[::-1].index(k)]  # the last copy
                        moved.append(k)
                        break
            if top:
                dest[:0] = moved
            else:
                dest.extend(moved)

    return carry
