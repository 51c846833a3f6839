"""Every value a game holds as one whole number, for the compiled backend's arrays.

A number is itself, a seat its index and a card its id (as everywhere in the engine); true and false are 1 and 0;
none is ``NONE``, a number no rule can make (numbers stay within ``limits.MAX_NUMBER``); a text or a record (a
board space's values, an option's choice, a record of a choice's history) is interned: ``INTERNED`` plus its place
in the game's table of them, so that two equal ones are the same number; a text made in play (engine/made_texts.py)
is ``MADE``, whatever its text. A list lives in a row of its own (arrays.py); a list that is an item of a list (a
pair of seats in a list of pairs) is interned like a record.

What a value is when read back needs its type (1 is true or the number 1): ``Values.decode`` takes the type the
checker gave it.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import Type
from interpreter.errors import GameError
from interpreter.limits import MAX_NUMBER

NONE = -(1 << 62)  # none
INTERNED = 1 << 61  # the first interned value (a text or a record)
MADE = INTERNED - 1  # a text made in play, of which only that there is one is held (engine/made_texts.py)
assert MAX_NUMBER < MADE


class NotWritten(GameError):
    """A part of a game the compiled backend does not write yet: the game is played by the Python backend."""


class Values:
    """One game's table of interned values (texts and records), filled as its constants are written and as states
    are packed."""

    def __init__(self) -> None:
        self.interned: list[Any] = []
        self._ids: dict[Any, int] = {}

    def encode(self, value: Any) -> int:
        """``value`` as its whole number (see the module's docstring)."""
        if value is None:
            return NONE
        if value is True or value is False:
            return int(value)
        if type(value) is int:
            return value
        if isinstance(value, (str, dict)):
            return self._interned(value)
        raise NotWritten(f"a value the compiled backend cannot hold as a number: {value!r}")

    def item(self, value: Any) -> int:
        """``value``, an item of a list, as its whole number: a list too is interned (see the module's docstring)."""
        if isinstance(value, (list, tuple)):
            return self._interned(value)
        return self.encode(value)

    def _interned(self, value: Any) -> int:
        key = _key(value)
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = INTERNED + len(self.interned)
            self.interned.append(value)
        return found

    def decode(self, number: int, type_: Type) -> Any:
        """The value ``number`` stands for, read as ``type_`` says (true/false when it is a truth)."""
        number = int(number)
        if number == NONE:
            return None
        if number >= INTERNED:
            return self.interned[number - INTERNED]
        if type_.plain == "truth":
            return bool(number)
        return number

    def field_table(self, name: str) -> list[int]:
        """For each interned value, its field ``name`` when it is a record that has it (else none): the table a
        record's field is read from."""
        return [self.item(v.get(name)) if isinstance(v, dict) else NONE for v in list(self.interned)]

    def text_ranks(self) -> list[int]:
        """For each interned value, its place among the interned texts in the Python backend's order of texts (-1
        when it is not a text): the table texts are ordered by (they are interned in the order they are met)."""
        texts = sorted(v for v in self.interned if isinstance(v, str))
        rank = {t: i for i, t in enumerate(texts)}
        return [rank[v] if isinstance(v, str) else -1 for v in list(self.interned)]

    def list_tables(self) -> tuple[list[int], list[int], list[int]]:
        """For each interned value, where its items start in one table of all of them, and how many it has (-1 when
        it is not a list): the tables an interned list's items are read from (the table, the starts, the counts)."""
        items: list[int] = []
        starts: list[int] = []
        counts: list[int] = []
        for v in list(self.interned):
            starts.append(len(items))
            counts.append(len(v) if isinstance(v, (list, tuple)) else -1)
            if isinstance(v, (list, tuple)):
                items.extend(self.item(x) for x in v)
        return items, starts, counts


def _key(value: Any) -> Any:
    """A hashable key of a text, a record or a list, equal for equal values (a tuple and a list of the same items are
    the same list, as the Python backend compares them)."""
    if isinstance(value, dict):
        return ("record", tuple((k, _key(v) if isinstance(v, (dict, list, tuple)) else v) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return ("list", tuple(_key(v) for v in value))
    return ("text", value)
