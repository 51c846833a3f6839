"""``repeat``: run a few steps several times in a row: the rows of a draft, rounds of an auction, phases.

The nested steps run in order; after the last one the next time begins, until ``times`` times have run
or ``until`` holds (checked after each time). ``set`` names a round value that counts the times: 1, 2, ...
Nested steps are of the kinds a trick may run (choose, move, set, teams); their decisions are named by
their own names, as a trick's are.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.dsl.types import NUMBER
from interpreter.engine.steps.base import (
    COMMON,
    Decision,
    Opt,
    Running,
    Step,
    StepContext,
    advance,
    bind_nested,
    build_steps,
    enter,
    finish_steps,
    pending,
    register,
)
from interpreter.errors import GameError

MAX_TIMES = 1000  # a repetition that runs longer than this is a mistake in the rules


class _Repeating:
    """Which time this is, and the nested step running now (None: this time is over)."""

    __slots__ = ("time", "times", "running")

    def __init__(self, times: int | None):
        self.time, self.times = 0, times
        self.running: Running | None = None

    def copy(self) -> _Repeating:
        other = _Repeating(self.times)
        other.time = self.time
        other.running = None if self.running is None else self.running.copy()
        return other


@register
class Repeat(Step):
    kind = "repeat"
    summary = ("Run some steps several times in a row (the rows of a draft, rounds of an auction): a number of "
               "times, or until a condition holds.")
    options = COMMON + (
        Opt("steps", "steps", "The steps run each time, in order; of the kinds a trick may run (choose, move, "
            "set, teams).", required=True),
        Opt("times", "number", "How many times: a number or an expression worked out when the step starts "
            "(e.g. 9, or setup.rows)."),
        Opt("until", "condition", "Checked after each time: the repetition ends when it holds."),
        Opt("set", "name", "A round value that counts the times: 1 the first time, 2 the second, ..."),
    )

    def declare(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        self.inner = build_steps(ctx, spec.get("steps") or {}, self.path + ("steps",), True, inside="a repeat")
        bind_nested(self.inner, {})
        self.counter = spec.get("set")
        if self.counter:
            ctx.declare(self.counter, NUMBER, self.path + ("set",))

    def infer(self, ctx: StepContext) -> None:
        if self.counter:
            ctx.round_fields[self.counter] = NUMBER

    def inner_steps(self) -> list[Step]:
        return self.inner

    def build(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        path = self.path
        if not self.inner:
            raise ctx.error("a repeat needs steps: the steps to run each time", path + ("steps",))
        if "times" not in spec and "until" not in spec:
            raise ctx.error("a repeat needs times: or until: (or both) to end", path)
        self.times = self.read(ctx, "times", expect="number") if "times" in spec else None
        if self.times is not None and self.times.is_constant:
            times = self.times({})
            if not isinstance(times, int) or isinstance(times, bool) or not 0 <= times <= MAX_TIMES:
                raise ctx.error(f"times must be a whole number from 0 to {MAX_TIMES}, got {times!r}",
                                path + ("times",))
        self.until = self.read(ctx, "until") if "until" in spec else None
        self.where = str(ctx.source.pos(path))
        finish_steps(ctx, self.inner)

    # ------------------------------------------------------------------ play

    def start(self, game: Any, state: Any) -> _Repeating | None:
        times = None
        if self.times is not None:
            times = self.times(self.env(state))
            if not isinstance(times, int) or isinstance(times, bool) or not 0 <= times <= MAX_TIMES:
                raise ExpressionFailed(f"{self.times.position}: error: times must be a whole number from 0 to "
                                       f"{MAX_TIMES}, got {times!r}")
        rp = _Repeating(times)
        return rp if self._next_time(game, state, rp) else None

    def _next_time(self, game: Any, state: Any, rp: _Repeating) -> bool:
        """Begin the next time that has something to decide; False when the repetition is over."""
        while True:
            if rp.times is not None and rp.time >= rp.times:
                break
            if rp.time > 0 and self.until is not None and self.until(self.env(state)):
                break
            if rp.time >= MAX_TIMES:
                raise GameError(f"{self.where}: error: step {self.name!r} ran {MAX_TIMES} times; its until "
                                "never held")
            rp.time += 1
            if self.counter:
                state.vars[self.counter] = rp.time
            rp.running = enter(game, state, self.inner)
            if rp.running is not None:
                return True
        rp.running = None
        return False

    def decision(self, game: Any, state: Any, rp: _Repeating) -> Decision | None:
        return None if rp.running is None else pending(game, state, rp.running)

    def apply(self, game: Any, state: Any, rp: _Repeating, action: Any) -> None:
        assert rp.running is not None  # a decision is pending
        rp.running = advance(game, state, rp.running, action)
        if rp.running is None:
            self._next_time(game, state, rp)

    def inside(self, rp: _Repeating) -> tuple[Step, Any] | None:
        r = rp.running
        return (r.steps[r.index], r.p) if r is not None and r.p is not None else None

