"""``score``: every seat adds the value of ``points`` (with ``seat`` bound) to its total."""

from __future__ import annotations

from interpreter.dsl.types import SEAT
from interpreter.engine.narration import tell_scores
from interpreter.engine.steps import rulebook
from interpreter.engine.steps.base import COMMON, register
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.steps_code import InPlace
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.plan.declaration import Opt


@register
class Score(InPlace):
    kind = "score"
    rulebook = staticmethod(rulebook.scored)
    summary = ("Add points to every seat's total. All seats are scored from the same state, then the points are "
               "added; a record's round line shows them.")
    options = COMMON + (
        Opt("points", "number", "The points of seat for this round: a whole number.", binds=("seat",),
            required=True),
        Opt("explain", "expr", "How the narration tells where seat's points came from (text), e.g. "
            "\"text(seat.tricks) + ' tricks, bid ' + text(seat.bid)\"; worked out from the same state as points.",
            binds=("seat",), gives="shown"),
    )

    def build(self, ctx: StepContext, opts: Options) -> None:
        self.points = opts.get("points", {"seat": SEAT}, expect="number")
        self.explain = opts.get("explain", {"seat": SEAT})

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """Every seat scored from the same state (one batch), then the points added, in place."""
        shape = x.shape
        names = x.outer_locals(w, [self.points, self.explain])
        told = self.explain is not None and shape.edges
        w("e = {'$s': state, '$batch': object()}", "scores = []")
        if shape.edges:
            w("why = []", "told = state.notes is not None")
        with w.block(f"for _v_seat in range({x.game.players}):"):
            if told:
                with w.block("if told:"):
                    assert self.explain is not None
                    x.assign(w, "text", self.explain, {**names, "seat": "_v_seat"})
                    w("why.append(text if isinstance(text, str) else str(text))")
            # a whole number: the expression's own check refuses anything else (a constant, when compiled)
            x.assign(w, "value", self.points, {**names, "seat": "_v_seat"}, "number")
            w("scores.append(value)")
        with w.block("for s, v in enumerate(scores):"):
            w(f"{shape.total('state', 's')} += v")
        w(f"{shape.attribute('state', 'round_results')}.append(scores)")
        if shape.edges:
            with w.block("if told:"):
                w(f"{x.ref(tell_scores)}(state, scores, why)")
