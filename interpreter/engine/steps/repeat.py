"""``repeat``: run a few steps several times in a row: the rows of a draft, rounds of an auction, phases.

The nested steps run in order; after the last one the next time begins, until ``times`` times have run
or ``until`` holds (checked after each time). ``set`` names a round value that counts the times: 1, 2, ...
Nested steps are of the kinds a trick may run (choose, move, set, teams, reveal); their decisions are named by
their own names, as a trick's are.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from interpreter.dsl.types import NUMBER
from interpreter.engine.faults import times_problem
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps import rulebook
from interpreter.engine.steps.base import COMMON, Step, bind_nested, build_steps, finish_steps, register
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.running import Running
from interpreter.plan.declaration import Opt


class Repeating:
    """Which time this is, and the nested step running now (None: this time is over)."""

    __slots__ = ("time", "times", "running")

    def __init__(self, times: int | None):
        self.time, self.times = 0, times
        self.running: Running | None = None

    def copy(self) -> Repeating:
        other = Repeating(self.times)
        other.time = self.time
        other.running = None if self.running is None else self.running.copy()
        return other


@register
class Repeat(Step):
    kind = "repeat"
    rulebook = staticmethod(rulebook.repeated)
    loops = True
    summary = ("Run some steps several times in a row (the rows of a draft, rounds of an auction): a number of "
               "times, or until a condition holds.")
    options: ClassVar[tuple[Opt, ...]] = COMMON + (
        Opt("steps", "steps", "The steps run each time, in order; of the kinds a trick may run (choose, move, "
            "set, teams, reveal).", required=True),
        Opt("times", "number", "How many times: a number or an expression worked out when the step starts "
            "(e.g. 9, or setup.rows)."),
        Opt("until", "condition", "Checked after each time: the repetition ends when it holds."),
        Opt("set", "name", "A round value that counts the times: 1 the first time, 2 the second, ..."),
    )

    def declare(self, ctx: StepContext, opts: Options) -> None:
        self.inner = build_steps(ctx, opts.plain("steps") or {}, self.path + ("steps",), True, inside="a repeat")
        bind_nested(self.inner, {})
        self.counter = opts.plain("set")
        if self.counter:
            ctx.declare(self.counter, NUMBER, self.path + ("set",))

    def infer(self, ctx: StepContext) -> None:
        if self.counter:
            ctx.round_fields[self.counter] = NUMBER

    def inner_steps(self) -> list[Step]:
        return self.inner

    def build(self, ctx: StepContext, opts: Options) -> None:
        path = self.path
        if not self.inner:
            opts.mistake("a repeat needs steps: the steps to run each time", "steps")
        if not opts.given("times") and not opts.given("until"):
            opts.mistake("a repeat needs times: or until: (or both) to end")
        self.times = opts.get("times", expect="number")
        if self.times is not None and self.times.is_constant:
            problem = times_problem(self.times({}))
            if problem is not None:
                opts.mistake(problem, "times")
        self.until = opts.get("until")
        self.where = str(ctx.source.pos(path))
        finish_steps(ctx, self.inner)

    # ------------------------------------------------------------------ play (its code: repeat_code.py)

    def start(self, game: GameView, state: State) -> Repeating | None:
        return cast(Repeating | None, self.code(game).start(state, None))

    def decision(self, game: GameView, state: State, rp: Repeating) -> Decision | None:
        return cast(Decision | None, self.code(game).decision(state, rp, None))

    def apply(self, game: GameView, state: State, rp: Repeating, action: Any) -> None:
        self.code(game).apply(state, rp, action, None)

    def inside(self, rp: Repeating) -> tuple[Step, Any] | None:
        r = rp.running
        return (r.steps[r.index], r.p) if r is not None and r.p is not None else None

