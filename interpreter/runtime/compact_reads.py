"""How code written for the compact layout reads the state (the expression writer's reads, dsl/state_reads.py):
a shared zone, a round or a game value, a seat's zone, counter, value or total are numbered slots of ``z`` (zones)
and ``v`` (values) of a ``Slots`` (slots.py), the slot numbers written into the code; so are the parts of a state
the step kinds' code changes (engine/state_shape.py: a seat's team, the totals, the rounds' results...)."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.state_reads import Defines, Getter, KeptApart, Source
from interpreter.engine.state_shape import StateShape
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
from interpreter.runtime.moves import carrier


class CompactReads(StateShape):
    """The reads of one game's compact layout, for expressions and for the code of step kinds (a StateShape); what
    the writer makes of a define's body for them is kept here."""

    simple = r"(?:state|e\['\$s'\])\.v\[\d+\]"
    edges = False
    kinds = True

    def __init__(self, lay: Layout):
        self.layout = lay
        self._defines = KeptApart()  # what the writer makes of the defines' bodies for these reads

    def zone(self, state: str, name: str) -> str:
        return f"{state}.z[{self.layout.zone_slot(name)}]"

    def round(self, state: str, name: str) -> str:
        return f"{state}.v[{self.layout.value_slot(ROUND, name)}]"

    def game(self, state: str, name: str) -> str:
        return f"{state}.v[{self.layout.value_slot(GAME, name)}]"

    def seat(self, name: str, getter: Getter, source: Source) -> tuple[Getter, Source]:
        lay = self.layout
        if (name, 0) in lay.zones:
            return _slot_of("z", lay.zone_slot(name, 0))
        for part in (SEAT, COUNTER):
            if (part, name, 0) in lay.values:
                return _slot_of("v", lay.value_slot(part, name, 0))
        if name == "total":
            return _slot_of("v", lay.value_slot(TOTAL, "", 0))
        raise ValueError(f"no slot for the seat attribute {name!r}")  # pragma: no cover - the layout has them all

    def dealer(self, state: str) -> str:
        return f"{state}.v[{self.layout.value_slot(DEALER)}]"

    def decision(self, actor: str, actions: str, step: str, prompt: str, kind: str) -> str:
        return f"({actor}, {actions})"

    def round_number(self, state: str) -> str:
        return f"{state}.v[{self.layout.value_slot(NUMBER)}]"

    def zones(self, state: str) -> str:
        return f"{state}.z"

    def card_set(self, cards: Any) -> frozenset[int]:
        return frozenset(self.layout.kind[c] for c in cards)

    def seat_zone(self, state: str, name: str, seat: str) -> str:
        return _slot_of("z", self.layout.zone_slot(name, 0))[1](state, seat, repr)

    def seat_value(self, state: str, name: str, seat: str) -> str:
        return self._seat_slot(state, SEAT, name, seat)

    def total(self, state: str, seat: str) -> str:
        return self._seat_slot(state, TOTAL, "", seat)

    def team(self, state: str, seat: str) -> str:
        return self._seat_slot(state, TEAM, "", seat)

    def team_known(self, state: str) -> str:
        return f"{state}.v[{self.layout.value_slot(KNOWN)}]"

    def team_counted(self, state: str) -> str:
        return f"{state}.v[{self.layout.value_slot(COUNTED)}]"

    def carrier(self, step: Any) -> Any:
        return carrier(self.layout, step.looks_in, step.top)

    def results(self, state: str) -> str:
        return f"{state}.v[{self.layout.value_slot(RESULTS)}]"

    def _seat_slot(self, state: str, part: str, name: str, seat: str) -> str:
        return _slot_of("v", self.layout.value_slot(part, name, 0))[1](state, seat, repr)

    @property
    def defines(self) -> Defines:
        return self._defines


def _slot_of(held: str, base: int) -> tuple[Getter, Source]:
    """A seat's slot among ``base``, ``base + 1``...: its getter and its source."""
    def get(state: Any, seat: Any) -> Any:
        return getattr(state, held)[base + seat]

    def source(state: str, seat: str, ref: Any) -> str:
        return f"{state}.{held}[{base} + {seat}]" if base else f"{state}.{held}[{seat}]"

    return get, source
