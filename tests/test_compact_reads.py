"""The expression writer's compact reads (runtime/compact_reads.py): every expression of every bundled game, written
again to read the compact layout's slots (runtime/slots.py), gives at every decision of random games what today's
written expression gives over today's state (its cards as their kinds), or fails where it fails.

This is step 2 of the order docs/architecture.md gives for the compact state: the lockstep of the expressions, on
which the step kinds' compact code is built."""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter.dsl import emit
from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiled
from interpreter.dsl.ir import Part, zones_read
from interpreter.dsl.types import Type
from interpreter.engine.game import Game
from interpreter.runtime.compact_reads import CompactReads
from interpreter.runtime.layout import layout, pack
from interpreter.runtime.slots import Slots
from interpreter.runtime.zone_shapes import counted_zones, expressions

from .conftest import GAMES, SHORTER, counts_of, game_of, take_random

CASES = [(path.stem, min(counts_of(path))) for path in GAMES]
DECISIONS = 40  # decisions of each game at which every expression is read both ways
CARDS_BOUND = 5  # cards a card bound by the caller takes, in turn


def compiled_expressions(game: Game) -> list[Compiled]:
    """Every expression compiled for ``game`` that reads something (its steps', its flow's, its table's...)."""
    return expressions(game)


def bound_names(part: Part) -> dict[str, Type]:
    """The names the caller binds that ``part`` reads, with their types."""
    out: dict[str, Type] = {}
    todo = [part]
    while todo:
        p = todo.pop()
        if p.op == "name" and f"ctx:{p.data}" in part.deps:
            out[p.data] = p.type
        todo.extend(p.kids)
        if p.op in ("for", "call") and isinstance(p.data, tuple):
            todo.extend(x for x in p.data if isinstance(x, Part))
    return out


def as_kinds(value: Any, t: Type, kind: tuple[int, ...]) -> Any:
    """``value`` (of type ``t``) with its cards as their kinds."""
    if value is None:
        return None
    if t.kind == "card":
        return kind[value]
    if t.kind == "list" and t.element is not None and isinstance(value, (list, tuple)):
        return [as_kinds(v, t.element, kind) for v in value]
    if t.kind == "record" and isinstance(value, dict):
        return {k: as_kinds(v, t.field_type(k) or Type("value"), kind) for k, v in value.items()}
    return list(value) if isinstance(value, tuple) else value


def outcome(fn: Any, env: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "value", fn(env)
    except RUNTIME_ERRORS as exc:
        return "fails", type(exc).__name__


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_expression_reads_the_slots_as_it_reads_the_state(name, players):
    game = game_of(name, players, **SHORTER.get(name, {}))
    lay = layout(game)
    reads = CompactReads(lay)
    gen = Namespace(None)  # the compact code's own
    cards = game.deck[::max(1, len(game.deck) // CARDS_BOUND)][:CARDS_BOUND]
    cases = []
    for c in compiled_expressions(game):
        names = bound_names(c.part)
        if c.per is not None and c.per not in names:  # judged for an item it does not read
            names[c.per] = Type("value")
        if all(_bindable(t) or n == c.per for n, t in names.items()):
            made = emit.function(gen, c.part, c.expect, reads=reads) if c.per is None else \
                emit.loops(gen, c.part, c.per, reads=reads)[0]
            cases.append((c, names, made))
    assert len(cases) > 3, "the game's expressions were found"
    # a list read from a zone held by count gives its copies at their kind's first copy (the choices among its cards,
    # which offer identical cards once by their first copy, the one such list the layout allows: zone_shapes.py)
    counted = counted_zones(game)
    grouped = {id(c) for c, _, _ in cases if c.type.kind == "list" and counted & zones_read(c.part)}
    rng = random.Random(players)
    state = game.new_state()
    read = 0
    for _ in range(DECISIONS):
        if state.finished:
            break
        slots = Slots.of(game, pack(game, state))
        for c, names, compact in cases:
            for binding in _bindings(names, players, cards):
                today = outcome(c.fn, {"$s": state, **binding})
                there = outcome(compact, {"$s": slots, **{k: as_kinds(v, names[k], lay.kind)
                                                          for k, v in binding.items()}})
                if today[0] == "value":
                    today = ("value", as_kinds(today[1], c.type, lay.kind))
                    if id(c) in grouped:
                        today = ("value", [k for k in dict.fromkeys(today[1]) for _ in range(today[1].count(k))])
                    there = ("value", as_kinds(there[1], c.type, lay.kind)) if there[0] == "value" else there
                assert there == today, f"{c.position}: {c.text!r} with {binding}"
                read += 1
        take_random(game, state, rng)
    assert read > 100


def _bindings(names: dict[str, Type], players: int, cards: list[int]) -> list[dict[str, Any]]:
    """Values for the bound names (at most 12 bindings): each seat in turn for a seat, a few cards for a card, no
    cards and three for a list of cards, every seat for a list of seats."""
    out: list[dict[str, Any]] = [{}]
    for n, t in names.items():
        out = [{**b, n: v} for b in out for v in _values(t, players, cards) or [None]][:12]
    return out


def _bindable(t: Type) -> bool:
    return t.kind in ("seat", "card") or t.kind == "list" and t.element is not None and t.element.kind in (
        "seat", "card")


def _values(t: Type, players: int, cards: list[int]) -> list[Any]:
    """The values a bound name of type ``t`` takes in turn (none: it is not bound here)."""
    if t.kind == "seat":
        return list(range(players))
    if t.kind == "card":
        return list(cards)
    if t.kind == "list" and t.element is not None and t.element.kind == "card":
        return [[], list(cards[:3])]
    if t.kind == "list" and t.element is not None and t.element.kind == "seat":
        return [list(range(players))]
    return []
