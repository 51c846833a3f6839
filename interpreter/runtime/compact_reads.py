"""How code written for the compact layout reads the state (the expression writer's reads, dsl/state_reads.py):
a shared zone, a round or a game value, a seat's zone, counter, value or total are numbered slots of ``z`` (zones)
and ``v`` (values) of a ``Slots`` (slots.py), the slot numbers written into the code; so are the parts of a state
the step kinds' code changes (engine/state_shape.py: a seat's team, the totals, the rounds' results...)."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import written_for
from interpreter.dsl.state_reads import Defines, Getter, KeptApart, Source
from interpreter.engine.state_shape import Moves, StateShape
from interpreter.runtime.layout import (
    COUNTED,
    COUNTER,
    DEALER,
    GAME,
    KNOWN,
    NUMBER,
    RESULTS,
    ROUND,
    SEAT,
    TEAM,
    TOTAL,
    Layout,
)
from interpreter.runtime.moves import SlotMoves

# the state's own values (StateShape.attribute) -> their part of the layout
_ATTRIBUTES = {"dealer": DEALER, "round_number": NUMBER, "round_results": RESULTS, "team_known": KNOWN,
               "team_counted": COUNTED}


class SlotPlaces(StateShape):
    """Where each part of a state is in the compact layout's slots: the sources the expression writer and the step
    kinds' writers read and change (StateShape's places, for the slots)."""

    simple = r"(?:state|e\['\$s'\])\.v\[\d+\]"

    def __init__(self, lay: Layout):
        self.layout = lay
        self.counted = frozenset(lay.zones[slot][0] for slot in lay.counts)

    def zone(self, state: str, name: str) -> str:
        return f"{state}.z[{self.layout.zone_slot(name)}]"

    def round(self, state: str, name: str) -> str:
        return f"{state}.v[{self.layout.value_slot(ROUND, name)}]"

    def game(self, state: str, name: str) -> str:
        return f"{state}.v[{self.layout.value_slot(GAME, name)}]"

    def seat(self, name: str, getter: Getter, source: Source) -> tuple[Getter, Source]:
        lay = self.layout
        if (name, 0) in lay.zones:  # (an expression reads a zone held by count as its copies: see counted.py)
            return _slot_of("z", lay.zone_slot(name, 0), ".copies()" if name in self.counted else "")
        for part in (SEAT, COUNTER):
            if (part, name, 0) in lay.values:
                return _slot_of("v", lay.value_slot(part, name, 0))
        if name == "total":
            return _slot_of("v", lay.value_slot(TOTAL, "", 0))
        raise ValueError(f"no slot for the seat attribute {name!r}")  # pragma: no cover - the layout has them all

    def attribute(self, state: str, name: str) -> str:
        return f"{state}.v[{self.layout.value_slot(_ATTRIBUTES[name])}]"

    def zones(self, state: str) -> str:
        return f"{state}.z"

    def seat_zone(self, state: str, name: str, seat: str) -> str:
        return _slot_of("z", self.layout.zone_slot(name, 0))[1](state, seat, repr)

    def new_seat_values(self, state: str, name: str, players: int) -> str:
        base = self.layout.value_slot(SEAT, name, 0)
        return f"{state}.v[{base}:{base + players}] = [None] * {players}"

    def new_round_values(self, state: str, names: list[str]) -> str:
        return "; ".join(f"{self.round(state, n)} = None" for n in names) or "pass"

    def round_values(self, state: str, names: list[str]) -> str:
        return "{" + ", ".join(f"{n!r}: {self.round(state, n)}" for n in names) + "}"

    def ended_teams(self, state: str) -> str | None:
        return None  # (the slots keep no summary: search plays them)

    def seat_lists(self, state: str, name: str) -> str:
        base = self.layout.zone_slot(name, 0)
        return f"{state}.z[{base}:{base + self.layout.players}]"

    def counter(self, state: str, name: str, seat: str) -> str:
        return self._seat_slot(state, COUNTER, name, seat)

    def seat_value(self, state: str, name: str, seat: str) -> str:
        return self._seat_slot(state, SEAT, name, seat)

    def total(self, state: str, seat: str) -> str:
        return self._seat_slot(state, TOTAL, "", seat)

    def team(self, state: str, seat: str) -> str:
        return self._seat_slot(state, TEAM, "", seat)

    def _seat_slot(self, state: str, part: str, name: str, seat: str) -> str:
        return _slot_of("v", self.layout.value_slot(part, name, 0))[1](state, seat, repr)


class CompactReads(SlotPlaces):
    """The reads of one game's compact layout, for expressions and for the code of step kinds (a StateShape); what
    the writer makes of a define's body for them is kept here."""

    edges = False
    kinds = True

    def __init__(self, lay: Layout, at_once: bool = False):
        super().__init__(lay)
        self.at_once = at_once  # the expressions' functions made as they are written (a game made to be played)
        self._defines = KeptApart()  # what the writer makes of the defines' bodies for these reads
        self._moves = SlotMoves(lay)
        self.gen = Namespace(None)  # where the code written for these reads is made
        self.codes: dict[Any, Any] = {}  # each step -> its code written for these reads (filled once it is written)
        self._written: dict[int, tuple[Any, Any]] = {}  # id of an expression or a table -> (it, it written here)

    @property
    def moves(self) -> Moves:
        return self._moves

    def held(self, cards: str, ref: Any) -> str:
        return f"[{ref(self.layout.kind)}[c] for c in {cards}]"

    def card_set(self, cards: Any) -> frozenset[int]:
        return frozenset(self.layout.kind[c] for c in cards)

    def remove_card(self, cards: str, card: str, last: bool, ref: Any, sure: bool = False,
                    zone: str | None = None) -> str:
        if zone in self.counted:  # its count down; the kind gone at none (see counted.py)
            if not sure:
                return f"{cards}.take({card})"
            return (f"_n = {cards}.n; _left = _n[{card}] - 1; _n[{card}] = _left; _h = {cards}.held; "
                    f"_h is None or _h.remove({card}); _left or {cards}.kinds.remove({card})")
        if not last or max(self.layout.copies) <= 1:  # (no two cards alike: the first copy is the last)
            return f"{cards}.remove({card})"
        if sure:  # the last copy, found from the end in place (as moves.py takes it, without a copy)
            return f"{cards}.reverse(); {cards}.remove({card}); {cards}.reverse()"
        return f"del {cards}[len({cards}) - 1 - {cards}[::-1].index({card})]"  # (a copy reversed, the list unchanged)

    def compiled(self, expr: Any) -> Any:
        kept = self._written.get(id(expr))
        if kept is None:
            kept = self._written[id(expr)] = (expr, written_for(expr, self.gen, self, self.at_once))
        return kept[1]

    def table(self, table: Any) -> Any:
        kept = self._written.get(id(table))
        if kept is None:
            slots = tuple(self.layout.value_slot(ROUND, f) for f in table.fields or ())
            made = table.written_for([self.compiled(e) for e in table.exprs], _values, slots)
            kept = self._written[id(table)] = (table, made)
        return kept[1]

    def code_of(self, step: str, ref: Any) -> str:
        return f"{ref(self.codes)}[{step}]"

    @property
    def defines(self) -> Defines:
        return self._defines


def _values(state: Any) -> list[Any]:
    return state.v


def _slot_of(held: str, base: int, then: str = "") -> tuple[Getter, Source]:
    """A seat's slot among ``base``, ``base + 1``...: its getter and its source (``then``: ``.copies()``, the cards
    of a zone held by count)."""
    def get(state: Any, seat: Any) -> Any:
        found = getattr(state, held)[base + seat]
        return found.copies() if then else found

    def source(state: str, seat: str, ref: Any) -> str:
        return (f"{state}.{held}[{base} + {seat}]" if base else f"{state}.{held}[{seat}]") + then

    return get, source
