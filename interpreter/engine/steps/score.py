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
        Opt("explain", "expr", "How the narration tells where seat's points came from (text), e.g. "
            "\"text(seat.tricks) + ' tricks, bid ' + text(seat.bid)\"; worked out from the same state as points.",
            binds=("seat",)),
    )

    def build(self, ctx: StepContext, spec: dict[str, Any]) -> None:
        self.points = self.read(ctx, "points", {"seat": SEAT}, expect="number")
        self.explain = self.read(ctx, "explain", {"seat": SEAT}) if "explain" in spec else None

    def start(self, game: Any, state: Any) -> None:
        env = {"$s": state, "$batch": object()}  # every seat is scored from the same state
        scores = []
        why = []
        explain = self.explain if state.notes is not None else None
        for s in range(game.players):
            env["seat"] = s
            if explain is not None:
                text = explain(env)
                why.append(text if isinstance(text, str) else str(text))
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
            for s, text in enumerate(why):
                state.note(f"  {names[s]} {scores[s]:+d}: {text}")
        return None
