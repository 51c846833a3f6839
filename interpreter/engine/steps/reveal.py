"""``reveal``: the teams of some seats become known to every seat (hidden teams, set by a ``teams`` step with
``known: own`` or ``nobody``): what each seat knows is a bit a seat in ``State.team_known``."""

from __future__ import annotations

from interpreter.engine.faults import revealed
from interpreter.engine.narration import tell_revealed
from interpreter.engine.steps.base import COMMON, register
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.steps_code import InPlace
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.plan.declaration import Opt


@register
class Reveal(InPlace):
    kind = "reveal"
    nested = True
    summary = ("Make the teams of some seats known to every seat (hidden teams: a teams step with known: own or "
               "nobody), e.g. between plays when a card that shows a seat's team is played, or after a seat "
               "announced its team.")
    options = COMMON + (
        Opt("seats", "seats", "The seats whose team every seat now knows: a seat or a list of seats, e.g. "
            "\"[player] if card.rank == 'Q' else []\" between plays.", required=True),
    )

    def build(self, ctx: StepContext, opts: Options) -> None:
        if not ctx.hidden_teams:
            opts.mistake("reveal tells hidden teams: no teams step of this game hides them (known: own or nobody)")
        self.seats = opts.get("seats")  # a seat or a list of seats (its kind "seats" says so)

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """The seats worked out in place; their bits set in what every seat knows (nothing while teams are public)."""
        shape = x.shape
        w(f"known = {shape.attribute('state', 'team_known')}")
        with w.block("if known is not None:"):
            names = x.outer_locals(w, [self.seats])
            w("e = {'$s': state}")
            x.assign(w, "shown", self.seats, names)
            w(f"shown = {x.ref(revealed)}({str(self.seats.position)!r}, shown, {x.game.players})", "bits = 0")
            with w.block("for s in shown:"):
                w("bits |= 1 << s")
            with w.block("if any(m & bits != bits for m in known):"):
                with w.block(f"for v in range({x.game.players}):"):
                    w("known[v] |= bits")
                if shape.edges:
                    with w.block("if state.notes is not None:"):
                        w(f"{x.ref(tell_revealed)}(state, shown)")
