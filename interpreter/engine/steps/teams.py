"""``teams``: who plays with whom, as data: fixed partnerships or teams formed from earlier choices, public or
hidden (each seat told at first only its own team, or nothing, until ``reveal`` steps tell more)."""

from __future__ import annotations

from functools import partial
from typing import Any

from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import SEATS, list_of
from interpreter.engine.faults import check_teams, teams_problem
from interpreter.engine.narration import tell_teams
from interpreter.engine.steps import rulebook
from interpreter.engine.steps.base import COMMON, register
from interpreter.engine.steps.context import StepContext
from interpreter.engine.steps.options import Options
from interpreter.engine.steps.steps_code import InPlace
from interpreter.engine.steps.writer import Found, Lines, ListWriter
from interpreter.plan.declaration import Opt


@register
class Teams(InPlace):
    kind = "teams"
    rulebook = staticmethod(rulebook.partnered)
    nested = True
    summary = ("Set the teams: a list of teams, each a list of seats; every seat in exactly one. Until a round "
               "sets them, every seat plays alone. team(s), opponents(s) and same_team(a, b) read them.")
    options = COMMON + (
        Opt("teams", "expr", "The teams: a list of lists of seat names (fixed partnerships, e.g. "
            "[[North, South], [East, West]]), or an expression giving a list of lists of seats, e.g. "
            "\"[[round.start] + round.partners, [s for s in seats if s != round.start and s not in "
            "round.partners]]\".", required=True, gives="list"),
        Opt("known", "enum", "What each seat knows of the teams: all (default: every seat sees them), own (each "
            "seat knows its own team, and no other seat's) or nobody (no seat knows any team, not even its own). "
            "Hidden teams (own, nobody) become known by reveal steps; the rules' expressions always read the true "
            "teams, a seat's observation and known_team() only what it knows.", choices=("all", "own", "nobody"),
            default="all"),
        Opt("sizes_known", "bool", "With hidden teams: every seat knows how many seats each team has, and so "
            "counts: once the seats it knows of fill every team but one, the other seats are on that one.",
            default=False),
    )

    def declare(self, ctx: StepContext, opts: Options) -> None:
        self.known = opts.get("known")
        self.counted = bool(opts.get("sizes_known"))
        if self.known != "all":
            ctx.hidden_teams = True
        elif self.counted:
            opts.mistake("sizes_known is for hidden teams (known: own or nobody): public teams are seen whole",
                         "sizes_known")

    def build(self, ctx: StepContext, opts: Options) -> None:
        value = opts.plain("teams")
        self.fixed: list[list[int]] | None = None
        self.expr: Compiled | None = None
        if isinstance(value, list):
            if self.known != "all":
                opts.mistake("fixed partnerships written as seat names are known to everyone: hidden teams (known: "
                             f"{self.known}) need an expression, e.g. one reading who holds a card", "teams")
            self.fixed = self._fixed(ctx, opts, value)
        else:
            self.expr = opts.get("teams")
            if self.expr is not None and self.expr.type not in (list_of(SEATS),) and self.expr.type.kind != "list":
                opts.mistake(f"teams must be a list of lists of seats, found {self.expr.type}", "teams")

    def _fixed(self, ctx: StepContext, opts: Options, value: list[Any]) -> list[list[int]]:
        """Fixed partnerships, each seat name checked; whether every seat is in one team is checked once every
        name is known."""
        names = ctx.seat_names
        fixed = []
        found = len(opts.found)
        for i, team in enumerate(value):
            if not isinstance(team, list):
                opts.mistake("each team is a list of seat names", "teams", i)
                continue
            members = []
            for j, name in enumerate(team):
                if name not in names:
                    opts.mistake(f"no seat {name!r} in this game (seats: {', '.join(names)})", "teams", i, j)
                else:
                    members.append(names.index(name))
            fixed.append(members)
        if len(opts.found) == found:
            opts.attempt(partial(self._check, [s for t in fixed for s in t], len(names),
                                 lambda m: ctx.error(m, self.path + ("teams",))))
        return fixed

    @staticmethod
    def _check(members: list[Any], n: int, fail: Any) -> None:
        problem = teams_problem(members, n)
        if problem is not None:
            raise fail(problem)

    @property
    def hides(self) -> bool:
        """Whether the teams this step sets are hidden from some seats (a Knowledge works them out again on a
        sample, engine/knowledge.py)."""
        return self.known != "all"

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """The teams set in place: fixed ones as they are written, others worked out and checked; then what each
        seat knows of them."""
        ref, shape = x.step_ref(k), x.shape
        if shape.edges:
            with w.block("if state.seen is not None:"):  # a Knowledge works hidden teams out again on its samples
                w(f"state.seen.derived.append(({ref}, state.clone()))")
        if self.fixed is not None:
            w(f"teams = {self.fixed!r}")
        else:
            assert self.expr is not None  # build gave one of fixed and expr
            names = x.outer_locals(w, [self.expr])
            w("e = {'$s': state}")
            x.assign(w, "teams", self.expr, names)
            w(f"{x.ref(check_teams)}({str(self.expr.position)!r}, teams, {x.game.players})")
        with w.block("for t, team in enumerate(teams):  # (i: the step the list is entered from)"):
            with w.block("for s in team:"):
                w(f"{shape.team('state', 's')} = t")
        players = x.game.players
        known = None if self.known == "all" else \
            [1 << s for s in range(players)] if self.known == "own" else [0] * players
        w(f"{shape.attribute('state', 'team_known')} = {known!r}",
          f"{shape.attribute('state', 'team_counted')} = {self.counted and known is not None!r}")
        if not shape.edges:
            return
        if known is None:
            with w.block("if state.notes is not None and len(teams) > 1:"):
                w(f"{x.ref(tell_teams)}(state, teams)")
        else:
            with w.block("if state.notes is not None:"):
                w("state.note('Teams are set, hidden')")
