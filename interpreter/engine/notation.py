"""How a deal file writes a hand: the deck's ``notation`` declaration, checked against the deck.

Deal files (PBN's ``Deal`` tag, ``N:AKQ.JT9.876.5432 ...``) write a hand as groups separated
by dots, one group for each value of one card attribute (the suits, in a fixed order), and within a group one letter
for each card (its rank). Which attribute the groups and the letters stand for, the order of the groups, the letters
that are not the value itself (``T`` for ``10``) and which seats the hands belong to are the rule file's to say, so
any game whose cards are suits and ranks can read such files; deal_files.py reads the files with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.errors import RuleError, SchemaError
from interpreter.plan.cards import CardTable
from interpreter.plan.section import raise_all

DIRECTIONS = "NESW"  # the hands of a deal file, clockwise


@dataclass(frozen=True)
class Notation:
    groups: tuple[Any, ...]  # the value of the group attribute that each dot-separated group stands for, in order
    cards: dict[tuple[int, str], int]  # (group index, letter) -> the id of the first card so written
    seats: tuple[str, ...]  # the seat names that the directions N, E, S, W stand for


def build_notation(spec: dict[str, Any], cards: CardTable, deck: list[int], seat_names: list[str],
                   source: Any) -> Notation:
    """The deck's ``notation`` checked against the deck (after ``remove``): every card of the deck must be writable,
    as one letter in one group, and no two different cards written alike. Raises every mistake found."""
    path = ("deck", "notation")
    group_attr, letter_attr = spec["suits"]["by"], spec["ranks"]["by"]
    raise_all(SchemaError(f"notation: {attr!r} is not a card attribute ({', '.join(sorted(cards.attributes))})",
                          source.pos(path + (key, "by")))
              for key, attr in (("suits", group_attr), ("ranks", letter_attr)) if attr not in cards.attributes)
    found: list[RuleError] = []
    values = {key: {cards.attributes[attr][c] for c in deck} for key, attr in (("suits", group_attr),
                                                                                ("ranks", letter_attr))}
    order = tuple(spec["suits"]["order"])
    found += [SchemaError(f"notation: no card of the deck has {group_attr} {v!r}",
                          source.pos(path + ("suits", "order", i)))
              for i, v in enumerate(order) if v not in values["suits"]]
    letters: dict[str, Any] = {}
    for letter, v in (spec["ranks"].get("letters") or {}).items():
        if v not in values["ranks"]:
            found.append(SchemaError(f"notation: no card of the deck has {letter_attr} {v!r}",
                                     source.pos(path + ("ranks", "letters", letter))))
        letters[letter] = v
    for v in values["ranks"]:  # a value written as one character is its own letter, unless that letter is taken
        text = str(v)
        if len(text) == 1 and v not in letters.values():
            letters.setdefault(text, v)
    seats = tuple(spec.get("seats") or seat_names[:len(DIRECTIONS)])
    found += [SchemaError(f"notation: {name!r} is not a seat ({', '.join(seat_names)})",
                          source.pos(path + ("seats", i) if spec.get("seats") else path))
              for i, name in enumerate(seats) if name not in seat_names]
    if len(seats) != len(DIRECTIONS) or len(set(seats)) != len(seats):
        found.append(SchemaError(f"notation needs {len(DIRECTIONS)} different seats, for the hands N, E, S and W",
                                 source.pos(path + ("seats",) if spec.get("seats") else path)))
    raise_all(found)  # values that are no card's, seats that are none; then each card (the first one unwritten)
    written: dict[tuple[int, str], int] = {}
    letter_of = {v: k for k, v in reversed(list(letters.items()))}
    for c in deck:
        g, r = cards.attributes[group_attr][c], cards.attributes[letter_attr][c]
        if g not in order or r not in letter_of:
            why = (f"its {group_attr} {g!r} is not in suits.order" if g not in order else
                   f"its {letter_attr} {r!r} has no letter (give it one in ranks.letters)")
            raise SchemaError(f"notation cannot write the card {cards.labels[c]!r}: {why}", source.pos(path))
        first = written.setdefault((order.index(g), letter_of[r]), cards.kinds[c])
        if first != cards.kinds[c]:
            raise SchemaError(f"notation writes two different cards alike, {cards.labels[first]!r} and "
                              f"{cards.labels[c]!r}", source.pos(path))
    return Notation(order, written, seats)
