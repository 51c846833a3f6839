"""Which zones of a game the compact layout holds as their kinds with a count per kind (counted.py), decided once a
game from the expressions and the steps that read and change each zone (docs/architecture.md, "Zones keep their
order").

Such a zone gives exactly today's answers to every read that sees only its first copies and its counts: the actions
offered from it (identical cards once, where the first copy stands), ``first``, ``len``, ``in``, counts, sums, and
every filtered list made into actions; a play takes the last copy of its kind and a card that comes is put at the
end, so no first copy moves. A zone is held so when all of these hold (``counted_zones``):

* the deck has two alike cards (with none, a zone's kinds are its cards: nothing to gain);
* it is a seat's zone and the only zone some ``tricks`` step plays from (the hand of trick play), and the game has no
  ``climb`` (whose plays are combinations picked card by card);
* no step reads or changes it by position: no other role in a ``tricks`` step (a second zone played from, the won
  cards, a route's zone); no ``move`` from it (``from:`` moves its cards in their order) nor to
  its top; no ``deal`` of part of the pack (that gathers the pack back out of every zone, list by list). A deal to
  it, a choice that moves a card out of it or into it, a move of cards into it (at the end) keep its first copies;
* no expression that reads it (through a define too) reads anything by position: no ``last``, index, ``slice``,
  ``reverse``, ``index``, ``pairs``, ``combinations``, ``join``, ``text``, no comparison of lists, none of the
  combination builtins; and its value is not a list, unless it is the options of a choice among cards (identical
  cards are one choice there, listed by their first copy). A list read from such a zone gives its cards in the order
  of their kinds' first copies (``Counted.copies``), which no such expression can tell from today's.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.builtins import REGISTRY
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.ir import Part, walk, zones_read
from interpreter.dsl.runtime import BINARY
from interpreter.engine.game import Game
from interpreter.engine.steps.base import Step
from interpreter.engine.steps.choose_reading import ChooseReading
from interpreter.engine.steps.climb import Climb
from interpreter.engine.steps.deal_reading import DealReading
from interpreter.engine.steps.move import Move
from interpreter.engine.steps.tricks import Tricks

# the builtins whose value depends on where the copies of a kind stand in a list
_BY_POSITION = frozenset(id(REGISTRY[name].impl) for name in (
    "last", "index", "slice", "reverse", "pairs", "combinations", "join", "text", "combination", "next_picks",
    "is_play", "must_play"))
_COMPARING = frozenset(id(BINARY[op]) for op in ("==", "!=", "<", "<=", ">", ">=") if op in BINARY)
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def counted_zones(game: Game) -> frozenset[str]:
    """The seat zones of ``game`` held as kinds with counts on the compact layout (see the module's docstring)."""
    if len(set(game.cards.kinds[c] for c in game.deck)) == len(game.deck):
        return frozenset()
    steps = game.every_step()
    if any(isinstance(step, Climb) for step in steps):  # (its plays are combinations, picked card by card)
        return frozenset()
    hands = {s.zones[0] for s in steps if isinstance(s, Tricks) and len(s.zones) == 1}
    return frozenset(zone for zone in hands & set(game.seat_zones)
                     if all(_step_keeps(step, zone) for step in steps) and _expressions_keep(game, zone))


def _step_keeps(step: Step, zone: str) -> bool:
    """Whether ``step`` reads and changes ``zone`` only in ways that keep its first copies (see the module)."""
    if isinstance(step, Tricks):
        named = [*step.zones[1:], step.won, step.unclaimed, step.trick_zone, *(r.zone for r in step.routes)]
        return zone not in named and (zone not in step.zones or len(step.zones) == 1)
    if isinstance(step, Move):
        return zone not in step.sources and not (step.to == zone and step.top)
    if isinstance(step, DealReading):
        return step.packed is None
    return True  # a choice moves a card out (its last copy) or in (at the end); the other kinds move no cards


def _expressions_keep(game: Game, zone: str) -> bool:
    """Whether every expression of ``game`` that reads ``zone`` reads only its first copies and counts."""
    card_options = {id(s.options_expr) for s in game.every_step() if isinstance(s, ChooseReading) and s._cards}
    for compiled in expressions(game):
        part = compiled.part
        if part is None or zone not in zones_read(part):
            continue
        order = _Order(zone)
        if order.of(part) and id(compiled) not in card_options or order.by_position:
            return False
    return True


class _Order:
    """Which parts of an expression give a list in an order that comes from ``zone``'s copies (its read, and what
    is made of it: comprehensions over it, lists holding it, ``sort``...), and whether any of them is read by
    position (see the module's docstring). A list bound to a name (a comprehension's variable that is itself such a
    list, a define's argument, a ``let``) is followed no further: any read by position where it is seen counts."""

    def __init__(self, zone: str):
        self.zone = zone
        self.by_position = False
        self._ordered: dict[int, bool] = {}

    def of(self, p: Part) -> bool:
        """Whether ``p`` gives a list ordered by the zone's copies (noting any read by position on the way)."""
        known = self._ordered.get(id(p))
        if known is not None:
            return known
        self._ordered[id(p)] = False  # (a define that calls itself)
        kids = [self.of(k) for k in p.kids]
        listy = p.type.kind == "list"
        if p.op == "seat":
            ordered = p.data[4] == self.zone and listy
        elif p.op == "for":
            body = [q for q in p.data[1:3] if q is not None]
            inner = [self.of(q) for q in body]
            if kids[0] and _holds_lists(p.kids[0]) and any(map(_reads_by_position, body)):
                self.by_position = True
            ordered = listy and (kids[0] or inner[0])
        elif p.op == "define":
            body = p.data[2].part
            if any(kids) and _reads_by_position(body):
                self.by_position = True
            ordered = listy and (self.of(body) or any(kids))
        else:
            ordered = listy and any(kids)
        if any(kids) and _reads_by_position(p, shallow=True):
            self.by_position = True
        self._ordered[id(p)] = ordered
        return ordered


def _holds_lists(p: Part) -> bool:
    """Whether the items of the list ``p`` may be lists."""
    element = p.type.element
    return element is None or element.kind == "list"


def _reads_by_position(part: Part, shallow: bool = False) -> bool:
    """Whether ``part`` (``shallow``: itself only; else with every part in it, its defines' bodies too) reads a list by
    position (see the module's docstring)."""
    return any(map(_by_position, (part,) if shallow else walk(part)))


def _by_position(p: Part) -> bool:
    """Whether ``p`` itself reads a list by position."""
    if p.op == "index":
        return True
    if p.op == "call" and isinstance(p.data, tuple) and (id(p.data[0]) in _BY_POSITION or (
            id(p.data[0]) in _COMPARING and any(k.type.kind == "list" for k in p.kids))):
        return True
    return p.op == "infix" and p.data in _COMPARISONS and any(k.type.kind == "list" for k in p.kids)


def expressions(game: Game) -> list[Compiled]:
    """Every expression compiled for ``game`` that reads something (its steps', its flow's, its tables', its
    automatic seats' policies...): found by going through the game's own objects (``game`` itself, of whatever
    class: a game made for the compact layout too)."""
    found: dict[int, Compiled] = {}
    seen: set[int] = set()
    todo: list[Any] = [game]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, bool, type(None))):
            continue
        seen.add(id(obj))
        if isinstance(obj, Compiled):
            if obj.part is not None and not obj.part.const:
                found[id(obj)] = obj
            continue
        if isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        elif obj is game or type(obj).__module__.startswith(("interpreter.engine", "interpreter.plan")):
            todo.extend(getattr(obj, "__dict__", {}).values())
            for cls in type(obj).__mro__:
                todo.extend(getattr(obj, a) for a in getattr(cls, "__slots__", ()) if hasattr(obj, a))
    return list(found.values())
