"""Scoring: every seat adds the value of ``points`` (with ``seat`` bound) to its total."""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import SEAT
from interpreter.engine.steps.base import Decision, Step, StepContext, register


@register
class Score(Step):
    kind = "score"

    def build(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.points = ctx.expr(path + ("points",), {"seat": SEAT})

    def begin(self, game: Any, state: Any) -> None:
        env = {"$s": state}
        scores = []
        for s in range(game.players):
            env["seat"] = s
            value = self.points(env)
            if not isinstance(value, int) or isinstance(value, bool):
                from interpreter.dsl.compiler import ExpressionFailed

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
        state.step_data = None

    def decision(self, game: Any, state: Any) -> Decision | None:
        return None
