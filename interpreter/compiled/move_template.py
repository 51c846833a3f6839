"""A ``move`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/move.py's written code): every card to move and its destination worked out first, then all cards moved
together, as runtime/moves.py moves them over the compact layout. ``PREFIX_start`` works the plan out and returns
``DONE`` from ``move_carried``, which carries it out: one function for every move step of the game, its step's
constants its arguments (``_carried``). The step owns no progress slot.

For each seat of ``each`` (or once, for no seat) the cards are those of ``cards`` (a card, a list of cards, none:
nothing) or every card of the ``from`` zones (every seat's, for a per-seat zone; with ``each``, only that seat's),
and the destination ``to`` (a per-seat zone: of ``owner``, else of the seat). Each card is then taken where it is,
looked for in the zones the move takes its cards from in runtime/moves.py's order (the seat's own zones first, then
the shared ones, then every seat's; the last copy of a kind in the zone) and put at the bottom of its destination (at
its top with ``top``); a card no zone still holds moves nothing. A card two seats name moves once: the plan takes no
more cards of a kind than the deck has (two seats naming two copies of identical cards move both, as they would
naming the same copy twice: in kinds the two cannot be told apart).

Every option of the step kind is written. A seat or an owner that is not a seat is not refused (the Python backend
refuses it; the compiled one plays what it has checked): nothing moves to it. A move a trick runs reads the names
the trick binds (``Writing.outer``); written alone, without it, an expression reading one is not written. Not written
(NotWritten): an expression the expression writer does not write (lower.py), and cards written as constants.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing, table
from interpreter.compiled.values import NotWritten
from interpreter.dsl.types import SEAT
from interpreter.runtime.moves import search_orders

_SEAT = {"seat": SEAT}


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a move step (see the module's docstring)."""
    return _MoveWriter(step, w).code()


class _MoveWriter:
    def __init__(self, step: Any, w: Writing):
        self.step, self.w, self.name, self.n = step, w, w.prefix, w.players
        self.layout = w.lay.layout
        self.names = {"seat": "seat"} if step.each is not None else {}

    def code(self) -> StepCode:
        lines = self._start()
        return StepCode(self.name, "\n".join(lines), 0, expressions=self.w.expressions)

    def _start(self) -> list[str]:
        step, n, cap = self.step, self.n, self.w.lay.capacity
        orders = search_orders(self.layout, self.step.looks_in or None)
        size = len(orders[0])
        assert all(len(o) == size for o in orders)
        lines = [table(f"{self.name}_copies", list(self.layout.copies)),
                 table(f"{self.name}_orders", [row for order in orders for row in order]), "", "",
                 f"def {self.name}_start({ARRAYS}, p):", *self._seats(),
                 # the cards of every seat in turn (from first[k]): at most every card, each kind its copies
                 *("    " + line for line in Writing.scratch("plan", str(cap))),
                 f"    copies = {self.name}_copies",
                 *("    " + line for line in Writing.scratch("planned", str(len(self.layout.copies)))),
                 "    for i in range(len(planned)):",  # of each kind, so far
                 "        planned[i] = 0",
                 *("    " + line for line in Writing.scratch("first", "ns + 1")),
                 *("    " + line for line in Writing.scratch("owner", "ns")),
                 "    m = 0",
                 "    for k in range(ns):",
                 "        seat = seats[k]",
                 "        first[k] = m",
                 *("        " + line for line in self._cards()),
                 "        if m == first[k]:",
                 "            continue"]
        if step.to_per_seat:
            whose = "seat" if step.owner is None else self.w.call(step.owner, self.names, _SEAT, "owner")
            lines.append(f"        owner[k] = {whose}")
        to = self.layout.zone_slot(step.to, 0) if step.to_per_seat else self.layout.zone_slot(step.to)
        return [*lines, "    first[ns] = m",
                f"    return move_carried(z, zn, h, seats, ns, plan, first, owner, {self.name}_orders, {size}, {to}, "
                f"{int(step.to_per_seat)}, {int(bool(step.top))})", "", *_carried(n, cap)]

    def _seats(self) -> list[str]:
        """``seats[:ns]``: the seats of ``each`` (NONE, once, without it)."""
        each = self.step.each
        if each is None:
            return [*("    " + line for line in Writing.scratch("seats", "1")), "    seats[0] = NONE", "    ns = 1"]
        if each.part is not None and each.part.const:  # (``seats``: every seat, in order)
            listed = list(each.part.value) if isinstance(each.part.value, (list, tuple)) else [each.part.value]
            seats = [self.w.lowerer.values.encode(s) for s in listed] or [0]
            return [*("    " + line for line in Writing.scratch("seats", str(len(seats)))),
                    *(f"    seats[{i}] = {x}" for i, x in enumerate(seats)), f"    ns = {len(listed)}"]
        if each.type.kind != "list":
            return [*("    " + line for line in Writing.scratch("seats", "1")),
                    f"    seats[0] = {self.w.call(each, {}, {}, 'each')}", "    ns = 1"]
        listed_seats = self.w.listed(self.w.call(each, {}, {}, "each", lists=True), "seats", "ns")
        return [*("    " + line for line in listed_seats),
                "    if ns < 0:",  # none: once, for no seat
                "        seats[0] = NONE",
                "        ns = 1"]

    def _cards(self) -> list[str]:
        """The seat's cards put in the plan from ``m``."""
        step, lay = self.step, self.layout
        if step.cards is None:
            lines = []
            for zone in step.sources:
                if zone not in step.seat_zones:
                    rows = [str(lay.zone_slot(zone))]
                elif step.each is not None:
                    rows = [f"{lay.zone_slot(zone, 0)} + seat"]
                else:
                    rows = [str(lay.zone_slot(zone, s)) for s in range(self.n)]
                for row in rows:
                    lines += [f"for i in range(zn[{row}]):",
                              f"    c = z[{row}, i]",
                              *("    " + line for line in _planned())]
            return lines
        cards = step.cards
        if cards.part is not None and cards.part.const:
            if cards.part.value is None:
                return []
            raise NotWritten("a move's cards written as constants")
        if cards.type.kind == "list":
            return [*self.w.listed(self.w.call(cards, self.names, _SEAT, 'cards', lists=True), "got", "count"),
                    "for i in range(count):",
                    "    c = got[i]",
                    *("    " + line for line in _planned())]
        return [f"c = {self.w.call(cards, self.names, _SEAT, 'cards')}",
                *_planned()]


def _carried(n: int, cap: int) -> list[str]:
    """``move_carried``: the cards of the plan (each seat's ``plan[first[k]:first[k + 1]]``) taken where they are
    and put in their destinations, the same for every move step of a game (written by each, kept once: a module's
    functions written alike are one, module.source_of), its step's own constants its arguments: the orders the cards
    are looked for in (runtime/moves.py's search_orders, ``size`` zones each), the destination (``to``; for a
    per-seat zone its first seat's, the owner's taken), whether it is a per-seat zone and whether the cards go on
    top. Linked into each step's start (linking.py), its constants fold again there."""
    return ["def move_carried(z, zn, h, seats, ns, plan, first, owner, orders, size, to, per_seat, top):",
            *("    " + line for line in Writing.scratch("moved", str(cap))),
            "    for k in range(ns):",
            "        if first[k + 1] == first[k]:",
            "            continue",
            "        seat = seats[k]",
            f"        o = seat if 0 <= seat < {n} else {n}",  # the order the cards are looked for in
            "        mm = 0",
            "        for j in range(first[k], first[k + 1]):",
            "            if move_taken(z, zn, orders, size, o, plan[j]) == 1:",
            "                moved[mm] = plan[j]",
            "                mm += 1",
            "        d = to",
            "        if per_seat == 1:",
            f"            if owner[k] < 0 or owner[k] >= {n}:",
            "                continue",
            "            d = to + owner[k]",
            "        if top == 1:",
            "            for i in range(zn[d] - 1, -1, -1):",
            "                z[d, i + mm] = z[d, i]",
            "            for i in range(mm):",
            "                z[d, i] = moved[i]",
            "        else:",
            "            for i in range(mm):",
            "                z[d, zn[d] + i] = moved[i]",
            "        zn[d] += mm",
            "    return DONE", "",
            # the last copy of kind ``c`` taken from the first zone of the ``o``-th order holding one: 1, or 0
            "def move_taken(z, zn, orders, size, o, c):",
            "    for j in range(size):",
            "        row = orders[o * size + j]",
            "        for i in range(zn[row] - 1, -1, -1):",
            "            if z[row, i] == c:",
            "                for q in range(i, zn[row] - 1):",
            "                    z[row, q] = z[row, q + 1]",
            "                zn[row] -= 1",
            "                return 1",
            "    return 0", ""]


def _planned() -> list[str]:
    """The card ``c`` put in the plan, unless every card of its kind is planned already: a card two seats name moves
    once, as the Python backend moves it (none, or anything not a card, is not put in)."""
    return ["if 0 <= c < len(copies) and planned[c] < copies[c]:",
            "    planned[c] += 1",
            "    plan[m] = c",
            "    m += 1"]
