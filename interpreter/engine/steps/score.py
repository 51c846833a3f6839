"""``score``: every seat adds the value of ``points`` (with ``seat`` bound) to its total."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.dsl.types import SEAT
from interpreter.engine.steps.base import COMMON, Opt, Step, StepContext, register


@register
class Score(Step):
    kind = "score"
    summary = ("Add points to every seat's total. All seats are scored from the same state, then the points are "
               "added; a record's round line shows them.")
    options = COMMON + (
        Opt("points", "number", "The points of seat for this round: a whole number.", binds=("seat",),
            required=True),
    )

    def build(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        self.points = ctx.expr(self.path + ("points",), {"seat": SEAT}, expect="number")

    def start(self, game: Any, state: Any) -> None:
        env = {"$s": state, "$batch": object()}  # every seat is scored from the same state
        scores = []
        for s in range(game.players):
            env["seat"] = s
            value = self.points(env)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ExpressionFailed(f"{self.points.position}: error: points must be a whole number, "
                                       f"got {value!r} for seat {game.seat_names[s]}")
            scores.append(value)
        for s, v in enumerate(scores):
            state.totals[s] += v
        state.round_results.append(scores)
        if state.notes is not None:
            names = game.seat_names
            state.note(f"Round {state.round_number} scores: "
                       + ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(scores))
                       + " | totals: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(state.totals)))
        return None
