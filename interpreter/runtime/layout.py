"""The compact layout of a game's state, and today's state packed into it and back.

Step 1 of the order docs/architecture.md gives for the compact state: a card is its *kind* (the id of the first
of its identical cards: records name cards by label, so which copy of an identical card lies where never changes
a game), every zone of every seat is a *slot* holding a list of kinds in today's order (the order a seat's
actions are listed in), and every value the state keeps (the round's, each seat's, the game's, the counters, the
totals, the teams, the dealer and the round's number) a slot too. ``pack`` gives a state's slots, ``unpack`` a
state of today's shape from them; the steps' progress and the pending decision are carried as they are (their
cards renamed to kinds) until each step kind declares its progress fields, the next steps of that order.

The layout is plain data made once a game: a writer of compact code reads it, and the tests check at every
decision of random games of every bundled game that a state packed and unpacked is the same game
(tests/test_layout.py)."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, NamedTuple

from interpreter.engine.game import Game
from interpreter.engine.samples import relabel
from interpreter.engine.state import State
from interpreter.runtime.zone_shapes import counted_zones

# the parts of a value slot: where today's state keeps it
ROUND, SEAT, GAME, COUNTER, TOTAL, TEAM, DEALER, NUMBER = (
    "round", "seat", "game", "counter", "total", "team", "dealer", "round number")
RESULTS, KNOWN, COUNTED = "results", "team known", "team counted"  # one slot each: the rounds' scores, what each
# seat knows of the teams (None: public), whether the teams' sizes are public


@dataclass(frozen=True)
class Layout:
    """Where each part of a game's state lives in the compact state."""

    players: int
    kind: tuple[int, ...]  # card id -> its kind: the id of the first identical card
    kinds: tuple[int, ...]  # the kinds, in deck order (each the id of its first card)
    copies: tuple[int, ...]  # card id -> how many cards of the deck are of its kind (0 for a card of no kind)
    zones: tuple[tuple[str, int | None], ...]  # zone slot -> (the zone, its seat; None for a shared zone)
    values: tuple[tuple[str, str, int | None], ...]  # value slot -> (its part, its name, its seat or None)
    # the zone slots a ``Slots`` holds as their kinds with a count per kind (counted.py; which: zone_shapes.py);
    # ``pack`` gives every zone as its list of kinds in today's order all the same
    counts: frozenset[int] = frozenset()

    def zone_slot(self, zone: str, seat: int | None = None) -> int:
        """The slot of ``zone`` (a seat's zone: of ``seat``)."""
        return self.zones.index((zone, seat))

    def value_slot(self, part: str, name: str = "", seat: int | None = None) -> int:
        """The slot of a value: its part (ROUND, SEAT, ...), name and seat."""
        return self.values.index((part, name, seat))


class Packed(NamedTuple):
    """A state in the compact layout: the zone slots (lists of kinds), the value slots (their cards as kinds),
    and what has no slots yet (the running step, its progress and the pending decision, cards as kinds; the
    last round's values; whether the game is over; the actions taken)."""

    zones: list[list[int]]
    values: list[Any]
    rest: tuple[Any, ...]


_LAYOUTS: weakref.WeakKeyDictionary[Game, Layout] = weakref.WeakKeyDictionary()  # each game's, made once


def layout(game: Game) -> Layout:
    """The layout of ``game``'s state (made once a game)."""
    made = _LAYOUTS.get(game)
    if made is None:
        kind = tuple(game.cards.kinds)
        kinds = tuple(dict.fromkeys(kind[c] for c in game.deck))
        count: dict[int, int] = {}
        for c in game.deck:
            count[kind[c]] = count.get(kind[c], 0) + 1
        n = game.players
        seats = range(n)
        zones = tuple([(z, None) for z in game.shared_zones] + [(z, s) for z in game.seat_zones for s in seats])
        rounds = dict.fromkeys(["dealer", "number", *game.round_fields])  # the round's own values, then the file's
        seat_values = dict.fromkeys([*game.seat_value_names, *game.flow.game_seat_values])  # the round's, the game's
        values = tuple([(ROUND, name, None) for name in rounds]
                       + [(SEAT, name, s) for name in seat_values for s in seats]
                       + [(GAME, name, None) for name in game.flow.game_values]
                       + [(COUNTER, name, s) for name in game.counters for s in seats]
                       + [(TOTAL, "", s) for s in seats] + [(TEAM, "", s) for s in seats]
                       + [(DEALER, "", None), (NUMBER, "", None), (RESULTS, "", None), (KNOWN, "", None),
                          (COUNTED, "", None)])
        counted = counted_zones(game)
        made = Layout(n, kind, kinds, tuple(count.get(kind[c], 0) for c in range(len(kind))), zones, values,
                      frozenset(i for i, (z, _) in enumerate(zones) if z in counted))
        _LAYOUTS[game] = made
    return made


def pack(game: Game, state: State) -> Packed:
    """``state`` in ``game``'s compact layout (``state`` is left as it is)."""
    lay = layout(game)
    kinds = state.clone()
    relabel(game, kinds, lay.kind.__getitem__)
    zones = [list(kinds.shared[z]) if s is None else list(kinds.per_seat[z][s]) for z, s in lay.zones]
    values = [_read(kinds, part, name, seat) for part, name, seat in lay.values]
    rest = (kinds.step_index, kinds.progress, kinds.pending, kinds.ended, kinds.finished, kinds.actions_taken)
    return Packed(zones, values, rest)


def unpack(game: Game, packed: Packed) -> State:
    """A state of today's shape from ``packed`` (each card the first of its kind): the same game as the state
    packed, at the same point."""
    lay = layout(game)
    state = State(game)
    for (z, s), cards in zip(lay.zones, packed.zones):
        (state.shared[z] if s is None else state.per_seat[z][s]).extend(cards)
    for (part, name, seat), value in zip(lay.values, packed.values):
        _write(state, part, name, seat, value)
    state.step_index, progress, pending, state.ended, state.finished, state.actions_taken = packed.rest
    state.progress = None if progress is None else progress.copy()
    state.pending = None if pending is None else pending.copy()
    return state


class _Absent:
    """A value slot whose value the state does not hold yet (a round value before the step that sets it)."""

    def __repr__(self) -> str:
        return "absent"


_ABSENT = _Absent()
ABSENT = _ABSENT  # what a value slot holds before its value is set (read as none)


def _read(state: State, part: str, name: str, seat: int | None) -> Any:
    return _PARTS[part][0](state, name, seat)


def _write(state: State, part: str, name: str, seat: int | None, value: Any) -> None:
    if value is not _ABSENT:
        _PARTS[part][1](state, name, seat, value)


def _set_seat_value(state: State, name: str, seat: Any, value: Any) -> None:
    state.seat_vars.setdefault(name, [None] * state.players)[seat] = value


def _set(attr: str) -> Any:
    return lambda state, name, seat, value: setattr(state, attr, value)


def _set_item(attr: str, by_name: bool) -> Any:
    def put(state: State, name: str, seat: Any, value: Any) -> None:
        held = getattr(state, attr)
        (held[name] if by_name else held)[seat] = value

    return put


# each part of a value slot: how today's state reads it (absent: not set yet) and writes it
_PARTS: dict[str, tuple[Any, Any]] = {
    ROUND: (lambda st, name, seat: st.vars.get(name, _ABSENT),
            lambda st, name, seat, value: st.vars.__setitem__(name, value)),
    SEAT: (lambda st, name, seat: st.seat_vars[name][seat] if name in st.seat_vars else _ABSENT, _set_seat_value),
    GAME: (lambda st, name, seat: st.game_vars.get(name, _ABSENT),
           lambda st, name, seat, value: st.game_vars.__setitem__(name, value)),
    COUNTER: (lambda st, name, seat: st.counters[name][seat], _set_item("counters", True)),
    TOTAL: (lambda st, name, seat: st.totals[seat], _set_item("totals", False)),
    TEAM: (lambda st, name, seat: st.teams[seat], _set_item("teams", False)),
    DEALER: (lambda st, name, seat: st.dealer, _set("dealer")),
    NUMBER: (lambda st, name, seat: st.round_number, _set("round_number")),
    RESULTS: (lambda st, name, seat: [list(r) for r in st.round_results],
              lambda st, name, seat, value: setattr(st, "round_results", [list(r) for r in value])),
    KNOWN: (lambda st, name, seat: None if st.team_known is None else list(st.team_known),
            lambda st, name, seat, value: setattr(st, "team_known", None if value is None else list(value))),
    COUNTED: (lambda st, name, seat: st.team_counted, _set("team_counted")),
}
