"""Where each part of a compact state lives in the compiled backend's arrays, and a state packed into them.

The compact layout (runtime/layout.py) numbers a game's zone slots and value slots; here each is placed in one of
five numpy arrays of whole numbers (values.py says how a value is one):

* ``z[row, :zn[row]]``: the cards of zone slot ``row`` (their kinds, in the slot's order); ``zn[row]`` how many;
* ``v[i]``: a value slot that holds one value;
* ``l[row, :ln[row]]``: a value slot that holds a list (its items as values), by the type the checker gave it;
  ``ln[row]`` is -1 while it is none.

and a sixth, ``h``, the scratch space of the written code (see ``HEAP``), which holds nothing of the state.

A list of records or of lists (a choice's history: records of a seat and a value; pairs of seats) is a row of ``l``
like any other: each item interned (values.py), so that an expression reads it with the ops of any list and a
record's field from the table of that field. A row holds ``width`` items: the deck's cards (or the seats), times the
seats when a list of records or lists is held (an auction's calls may outnumber the cards: at most 105 in a bidding
of 35 bids, each doubled and redoubled); a history longer than that keeps its first items (choose_template.py).

What each seat knows of the teams (the layout's ``team known`` slot) is a row of ``l``: ``l[row, s]`` the bits of
the seats whose team seat ``s`` was told, ``ln[row]`` -1 while the teams are public (written by the ``teams`` and
``reveal`` steps, read by a seat's observation). The rounds' scores are not in the arrays yet (no expression reads
them directly; the steps that do are not written for this backend). A text made in play (engine/made_texts.py: a
contract put in words) has no number: its value holds ``MADE`` (values.py), only that there is one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from interpreter.compiled.values import MADE, Values
from interpreter.dsl.types import NUMBER, VALUE, Type, list_of
from interpreter.engine.game import Game
from interpreter.engine.made_texts import made_texts
from interpreter.runtime.layout import ABSENT, GAME, KNOWN, RESULTS, ROUND, SEAT, Layout, layout
from interpreter.runtime.slots import Slots

_UNHELD = (RESULTS,)  # value slots the arrays do not hold (see the module's docstring)
_KNOWN = list_of(NUMBER)  # what each seat knows of the teams: a list of bits, one a seat (none: public)


class Arrays(NamedTuple):
    """A state in the arrays (see the module's docstring)."""

    z: Any
    zn: Any
    v: Any
    l: Any  # noqa: E741 - the lists' rows, as the generated code names them
    ln: Any
    h: Any  # the written code's scratch space (HEAP)


# The written code allocates nothing (under numba, the reference counts of its runtime cost most of a card's time; the
# IR writer has no runtime): a list an expression builds lives in ``h``, a stack of whole numbers. ``h[TOP]`` is its
# first free place, ``h[MOST]`` the most it ever held (the tests read it); ``grab`` (module.py) takes places, and a
# function that took some gives them back when it returns.
TOP, MOST, HEAP_START = 0, 1, 2
HEAP = 1 << 15


def heap() -> Any:
    """A new, empty scratch space."""
    h = np.zeros(HEAP, np.int64)
    h[TOP] = h[MOST] = HEAP_START
    return h


@dataclass(frozen=True)
class ArrayLayout:
    """Where each slot of a game's compact layout is in the arrays."""

    layout: Layout
    capacity: int  # the most items a row of z holds: every card of the deck, or every seat
    value_index: tuple[int | None, ...]  # value slot -> its index in v (None: a list, or not held)
    list_row: tuple[int | None, ...]  # value slot -> its row in l (None: one value, or not held)
    types: tuple[Type, ...]  # value slot -> the type of its value
    width: int  # the most items a row of l holds (see the module's docstring)
    made: frozenset[int] = frozenset()  # the value slots of texts made in play: MADE for any text (values.py)
    game: Any = field(default=None, compare=False, repr=False)  # the game laid out (a step's domain is read from it)

    @property
    def values(self) -> int:
        return sum(i is not None for i in self.value_index)

    @property
    def lists(self) -> int:
        return sum(r is not None for r in self.list_row)

    def value(self, part: str, name: str = "", seat: int | None = None) -> int:
        """The index in v of a value slot that holds one value."""
        found = self.value_index[self.layout.value_slot(part, name, seat)]
        if found is None:
            raise KeyError(f"{part} {name!r} is not one value in the arrays")
        return found

    def list_of(self, part: str, name: str = "", seat: int | None = None) -> int:
        """The row in l of a value slot that holds a list."""
        found = self.list_row[self.layout.value_slot(part, name, seat)]
        if found is None:
            raise KeyError(f"{part} {name!r} is not a list in the arrays")
        return found


def array_layout(game: Game) -> ArrayLayout:
    """The arrays' layout of ``game``'s compact layout."""
    lay = layout(game)
    types = tuple(_type(game, part, name) for part, name, _ in lay.values)
    index: list[int | None] = []
    rows: list[int | None] = []
    for (part, _, _), t in zip(lay.values, types, strict=True):
        held = part not in _UNHELD
        listed = held and t.kind == "list"
        index.append(sum(i is not None for i in index) if held and not listed else None)
        rows.append(sum(r is not None for r in rows) if listed else None)
    capacity = max(len(game.deck), lay.players, 1)
    interned = any(r is not None and t.element is not None and t.element.kind in ("list", "record")
                   for r, t in zip(rows, types, strict=True))  # (lists of records or lists: see the docstring)
    width = capacity * lay.players if interned else capacity
    made = made_texts(game)
    slots = frozenset(i for i, (part, name, _) in enumerate(lay.values) if part in (ROUND, SEAT, GAME) and name in made)
    return ArrayLayout(lay, capacity, tuple(index), tuple(rows), types, width, slots, game)


def _type(game: Game, part: str, name: str) -> Type:
    if part in (ROUND, SEAT, GAME):
        return game.value_types.get(name, VALUE)
    return _KNOWN if part == KNOWN else VALUE


def pack_arrays(lay: ArrayLayout, slots: Slots, values: Values) -> Arrays:
    """``slots`` in the arrays (each text or record interned in ``values``)."""
    cap, width = lay.capacity, lay.width
    zones = [cards.copies() if hasattr(cards, "copies") else cards for cards in slots.z]
    z = np.zeros((len(zones), cap), np.int64)
    zn = np.zeros(len(zones), np.int64)
    for at, cards in enumerate(zones):
        z[at, :len(cards)] = cards
        zn[at] = len(cards)
    v = np.zeros(max(lay.values, 1), np.int64)
    l = np.zeros((max(lay.lists, 1), width), np.int64)  # noqa: E741
    ln = np.zeros(max(lay.lists, 1), np.int64)
    for slot, value in enumerate(slots.v):
        i, row = lay.value_index[slot], lay.list_row[slot]
        if value is ABSENT:  # (a round value not set yet reads as none)
            value = None
        if i is not None:
            v[i] = MADE if slot in lay.made and isinstance(value, str) else values.encode(value)
        elif row is not None:
            if value is None:
                ln[row] = -1  # none, not an empty list
                continue
            items = [values.item(x) for x in value]
            l[row, :len(items)] = items
            ln[row] = len(items)
    return Arrays(z, zn, v, l, ln, heap())
