"""The code of a ``repeat`` step's play, written for each step: one source for the checked path and for playouts.

* ``start(state, o)``: how many times (``times``), then the first time that has something to decide;
* ``next_time(game, state, rp)``: after a time is over, ``until`` and ``times``, then the next time: its counter
  set and its steps entered (steps_code.py writes the entering of the nested steps, ``enter_INNER``);
* ``decision(state, rp, o)`` and ``apply(state, rp, action, o)``: the decision of the nested step running (found
  when it was entered, or by its code), the action taken by it (``advance_INNER``), and the next time once the steps
  of this one are done (``o``: as every kind with decisions takes it; a repeat binds no names);
* ``run(game, state, policy)``: for ``Game.playout``, the body of ``apply`` in a loop of its own.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.faults import MAX_TIMES, bad_times, too_many
from interpreter.engine.game_view import GameView
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps.repeat import Repeat, Repeating
from interpreter.engine.steps.running import Running, pending
from interpreter.engine.steps.steps_code import StepsWriter
from interpreter.engine.steps.writer import Lines, Part, Writer


class RepeatCode(NamedTuple):
    """The functions written for one repeat step (see the module's docstring)."""

    start: Any
    decision: Any
    apply: Any
    run: Any


def part(step: Repeat, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part:
    """The functions of ``step`` for ``game`` (see choose_code.part)."""
    writer = RepeatWriter(step, game, gen, shape)
    return Part(writer.source(), {
        "STEP": step, "R": Repeating, "Running": Running, "pending": pending, "RUNTIME_ERRORS": RUNTIME_ERRORS,
        **writer.inner.globals(), **Writer.run_globals(),
    }, lambda f: RepeatCode(f["start"], f["decision"], f["apply"], f.get("run")))


class RepeatWriter(Writer):
    """Writes the functions of one repeat step; each method writes one fragment."""

    def __init__(self, step: Repeat, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE):
        super().__init__(gen, shape)
        self.step = step
        self.inner = StepsWriter("INNER", step.inner, gen, game, None, shape)

    def source(self) -> str:
        w = Lines()
        self.inner.running(w)
        with w.block("def start(state, o):"):
            w("game = state.game")
            self.start(w)
        with w.block("def next_time(game, state, rp):"):
            self.next_time(w)
        with w.block("def decision(state, rp, o):"):
            self.decision(w)
        with w.block("def apply(state, rp, action, o):"):
            w("game = state.game")
            self.apply(w)
        with w.block("def run(game, state, policy, random):"):
            self.run_loop(w, "seat", lambda: self.apply(w, "q"), lambda: self.find(w), "d")
        return w.text()

    def decision(self, w: Lines) -> None:
        """The decision of the nested step running: found when it was entered, or by its written code."""
        with w.block("if rp.running is None:"):
            w("return None")
        w("r = rp.running", "d, r.d = r.d, None")
        with w.block("if d is None:"):
            w("game = state.game", f"d = {self.shape.code_of('r.steps[r.index]', self.ref)}.decision(state, r.p, None)")
        w("return d")

    def start(self, w: Lines) -> None:
        step = self.step
        if step.times is None:
            w("times = None")
        else:
            w("e = {'$s': state}")
            self.assign(w, "times", step.times, {}, "number")
            with w.block(f"if not isinstance(times, int) or isinstance(times, bool) or not 0 <= times <= "
                         f"{MAX_TIMES}:"):
                w(f"raise {self.ref(bad_times)}({str(step.times.position)!r}, times)")
        w("rp = R(times)", "return rp if next_time(game, state, rp) else None")

    def next_time(self, w: Lines) -> None:
        """Begin the next time that has something to decide; False when the repetition is over."""
        step = self.step
        with w.block("while True:"):
            with w.block("if rp.times is not None and rp.time >= rp.times:"):
                w("break")
            if step.until is not None:
                with w.block("if rp.time > 0:"):
                    w("e = {'$s': state}")
                    self.assign(w, "done", step.until, {})
                    with w.block("if done:"):
                        w("break")
            with w.block(f"if rp.time >= {MAX_TIMES}:"):
                w(f"raise {self.ref(too_many)}({step.where!r}, {step.name!r})")
            w("rp.time += 1")
            if step.counter:
                w(f"{self.shape.round('state', step.counter)} = rp.time")
            w("rp.running = enter_INNER(game, state, None, 0)")
            with w.block("if rp.running is not None:"):
                w("return True")
        w("rp.running = None", "return False")

    @staticmethod
    def apply(w: Lines, rp: str = "rp") -> None:
        """The nested step running takes ``action``; once this time's steps are done, the next time."""
        w(f"{rp}.running = advance_INNER(game, state, None, {rp}.running, action)")
        with w.block(f"if {rp}.running is None:"):
            w(f"next_time(game, state, {rp})")

    @staticmethod
    def find(w: Lines) -> None:
        """The next decision of the loop: the nested step's (None: the repetition is over)."""
        with w.block("if q.running is None:"):
            w("actions = None")
        with w.block("else:"):
            w("d = pending(game, state, q.running)", "seat, actions = d.actor, d.actions")
