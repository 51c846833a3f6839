"""The code of a ``deal`` step's play, written for each step: its number of cards worked out and checked, chance's
decision, and the deal applied (the cards gathered back, then dealt), over a state held as its shape says; ``o``, the
names an enclosing step binds, as every step kind's written code takes them (a deal reads none).

* ``start(state, o)``: the progress (the number of cards for each seat), refused when this deck cannot give it
  (faults.py's ``deal_problem`` asked only then, for what is wrong);
* ``decision(state, p, o)``: chance deals, or None once it has;
* ``apply(state, p, outcome, o)``: the pack gathered back from every zone, each by its name (every card, for a deal
  of the whole deck), then ``outcome`` (the pack in its dealt order) dealt: ``count`` cards to each seat, the rest to
  ``rest``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.dsl.codegen import Namespace, local_name
from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.faults import cannot_deal, deal_problem
from interpreter.engine.game_view import GameView
from interpreter.engine.state import CHANCE, Decision
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps.deal_reading import DealReading
from interpreter.engine.steps.writer import Lines, Part, Writer


def dealing(shape: StateShape, step: str) -> str:
    """The source of chance's decision at the deal ``step`` (a source), before it has dealt."""
    return shape.decision(repr(CHANCE), "[]", step, repr("deal"), repr("chance"))


def fixed_start(step: DealReading) -> int | None:
    """The number of cards each seat gets when the rules give a constant (checked when the game was compiled,
    see DealReading.check: the deal starts with it and nothing else), or None."""
    count = step.count({}) if step.count.is_constant else None
    return count if type(count) is int else None


class DealCode(NamedTuple):
    """The functions written for one deal step (see the module's docstring)."""

    start: Any
    decision: Any
    apply: Any


def part(step: DealReading, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part:
    """The functions of ``step`` for ``game`` over a state held as ``shape`` says."""
    x = Writer(gen, shape)
    w = Lines()
    with w.block("def start(state, o):"):
        w("e = {'$s': state}")
        count = fixed_start(step)
        if count is not None:
            w(f"return P({count!r})")
        else:
            n, have = game.players, len(step.pack)  # every card dealt, or some left for rest
            if step.per_seat:  # each seat's own number, in seat order
                w("counts = []")
                seat = local_name("seat")
                with w.block(f"for {seat} in range({n}):"):
                    x.assign(w, "one", step.count, {"seat": seat}, "number")
                    w("counts.append(one)")
                w("count = tuple(counts)")
                whole = "all(c.__class__ is int for c in count)"
                fits = (f"sum(count) != {have}" if step.rest is None
                        else f"min(count) < 0 or sum(count) > {have}")
            else:
                x.assign(w, "count", step.count, {}, "number")
                whole = "count.__class__ is int"
                fits = f"count * {n} != {have}" if step.rest is None else f"not 0 <= count * {n} <= {have}"
            with w.block(f"if not {whole} or {fits}:"):  # the step says what is wrong
                some, rest = step.which is not None, step.rest is not None
                w(f"problem = {x.ref(deal_problem)}(count, {n}, {have}, {some}, {rest})")
                with w.block("if problem:"):
                    w(f"raise {x.ref(cannot_deal)}({str(step.count.position)!r}, problem, "
                      f"{shape.attribute('state', 'round_number')})")
            w("return P(count)")
    with w.block("def decision(state, p, o):"):
        w(f"return None if p.dealt else {dealing(shape, 'STEP')}")
    with w.block("def apply(state, p, outcome, o):"):
        if shape.kinds:  # chance deals card ids
            w(f"outcome = {shape.held('outcome', x.ref)}")
        w("# the pack gathered back first, so a deal always starts from the full deck (or its whole part)")
        for name in game.shared_zones:  # each zone by its name: no list of the zones made per deal
            w(f"zone = {shape.zone('state', name)}")
            _gather(w, step)
        for name in game.seat_zones:
            with w.block(f"for zone in {shape.seat_lists('state', name)}:"):
                _gather(w, step)
        w("count = p.count")
        if step.per_seat:  # each seat's number in turn
            w("at = 0")
            for s in range(game.players):
                w(f"{shape.seat_zone('state', step.hand_zone, str(s))}.extend(outcome[at:at + count[{s}]])",
                  f"at += count[{s}]")
            if step.rest is not None:
                w(f"{shape.zone('state', step.rest)}.extend(outcome[at:])")
        else:
            for s in range(game.players):
                w(f"{shape.seat_zone('state', step.hand_zone, str(s))}.extend(outcome[{s} * count:{s + 1} * count])")
            if step.rest is not None:
                w(f"{shape.zone('state', step.rest)}.extend(outcome[{game.players} * count:])")
        w("p.dealt = True")
        if shape.edges:
            with w.block("if state.seen is not None:"):
                w("state.seen.dealt.extend(outcome)")
    packed = None if step.packed is None else shape.card_set(step.packed)
    return Part(w.text(), {"STEP": step, "P": step.progress_class, "PACKED": packed, "Decision": Decision,
                           "RUNTIME_ERRORS": RUNTIME_ERRORS},
                lambda f: DealCode(f["start"], f["decision"], f["apply"]))


def _gather(w: Lines, step: DealReading) -> None:
    """The cards of the deal's pack taken out of ``zone`` (every card, for a deal of the whole deck)."""
    if step.packed is None:
        w("zone.clear()")
    else:
        with w.block("if zone and not PACKED.isdisjoint(zone):"):
            w("zone[:] = [c for c in zone if c not in PACKED]")
