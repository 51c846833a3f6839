"""Cards moved in the compact layout, where a card is its kind: a move's cards are looked for, each in turn, in the
zones the move takes its cards from (its ``from`` zones, or the zones its ``cards`` expression reads; every zone when
it reads none, such as a seat's value holding cards chosen earlier), the moving seat's zones first, then the shared
ones, then every seat's (the order today's ``State.zone_of`` looks in); of identical cards the last in the zone goes,
as a play or a choice takes the last copy of a card a hand holds twice (a zone held by count, counted.py: its count
goes down). A card no zone still holds (named twice, or
by two seats) moves once."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from interpreter.runtime.counted import Counted
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
            moved = [k for k in cards if _take(z, order, k) is not None]
            if top:
                dest[:0] = moved
            else:
                dest.extend(moved)

    return carry


def _take(z: list[Any], order: list[int], k: int) -> Any:
    """The last copy of ``k`` taken from the first zone of ``order`` holding one: that zone (None: none does)."""
    for slot in order:
        zone = z[slot]
        if k in zone:
            if isinstance(zone, Counted):  # (a zone held by count: its count down)
                zone.take(k)
                return zone
            zone.reverse()  # its last copy, found from the end in place (as compact_reads' remove_card writes it)
            zone.remove(k)
            zone.reverse()
            return zone
    return None


def remover(lay: Layout, zones: Iterable[str] | None) -> Callable[[Any, int, Any], None]:
    """``remove(state, card, seat)``: ``card`` taken from where it is (looked for in ``zones``, every zone when there
    are none; the seat's first), if anywhere."""
    orders, n = search_orders(lay, zones), lay.players

    def remove(state: Any, card: int, seat: Any) -> None:
        _take(state.z, orders[n if seat is None else seat], card)

    return remove


def swapper(lay: Layout, zones: Iterable[str] | None, fail: Callable[[Any], Exception]
            ) -> Callable[[Any, int, Any], None]:
    """``swap(state, seat, pair)``: the two cards of ``pair`` change places (looked for as ``remover`` does); a card
    that lies in no zone: ``fail(pair)`` is raised."""
    orders, n = search_orders(lay, zones), lay.players

    def swap(state: Any, seat: Any, pair: Any) -> None:
        a, b = pair
        if a == b:
            return
        order = orders[n if seat is None else seat]
        where_a = _take(state.z, order, a)
        where_b = _take(state.z, order, b)
        if where_a is None or where_b is None:
            raise fail(pair)
        where_a.append(b)
        where_b.append(a)

    return swap


class SlotMoves:
    """What moves cards over the compact layout's slots (engine/state_shape.py's StateMoves, for the slots)."""

    def __init__(self, lay: Layout):
        self.layout = lay

    def carrier(self, step: Any) -> Carry:
        return carrier(self.layout, step.looks_in, step.top)

    def remover(self, zones: tuple[str, ...]) -> Callable[[Any, int, Any], None]:
        return remover(self.layout, zones)

    def swapper(self, step: Any) -> Callable[[Any, int, Any], None]:
        return swapper(self.layout, step.looks_in, step._not_in_zones)
