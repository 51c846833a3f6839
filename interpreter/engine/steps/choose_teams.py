"""Team choice: one seat picks its team size, then its partners, then a marker.

``own_size`` lists the sizes the chooser may pick for its own team (the others
form the second team). When the teams differ in size and ``marker`` names a
round value, the chooser gives the marker (e.g. a doubling card) to a member
of the smaller team; the round value then holds that seat (else none).
Decisions with only one possible answer are taken automatically.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl.types import SEAT
from interpreter.engine.steps.base import Decision, Step, StepContext, register


@register
class ChooseTeams(Step):
    kind = "choose_teams"

    def declare(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.marker = spec.get("marker")
        if self.marker:
            ctx.declare(self.marker, SEAT, path + ("marker",))

    def build(self, ctx: StepContext, spec: dict[str, Any], path: tuple) -> None:
        self.chooser = ctx.expr(path + ("chooser",), expect="seat")
        sizes = ctx.constant(path + ("own_size",))
        if isinstance(sizes, int):
            sizes = [sizes]
        if not isinstance(sizes, (list, tuple)) or not sizes or not all(
                isinstance(s, int) and 1 <= s < ctx.players + (ctx.players == 1) for s in sizes):
            raise ctx.error(f"own_size must be a list of team sizes from 1 to {ctx.players - 1} "
                            f"for {ctx.players} players, got {sizes!r}", path + ("own_size",))
        self.sizes = sorted(set(sizes))

    def begin(self, game: Any, state: Any) -> None:
        chooser = self.chooser({"$s": state})
        state.step_data = {"chooser": chooser, "size": None, "team": [chooser], "offer": None}
        if len(self.sizes) == 1:
            state.step_data["size"] = self.sizes[0]
        self._settle(game, state)

    def _settle(self, game: Any, state: Any) -> None:
        """Take every forced choice, and say what must be decided next (``offer``)."""
        data = state.step_data
        data["offer"] = None
        if data["size"] is None:
            data["offer"] = [("size", s) for s in self.sizes]
            return
        team = data["team"]
        if len(team) < data["size"]:
            others = [s for s in range(game.players) if s not in team]
            if len(others) > data["size"] - len(team):
                data["offer"] = [("partner", s) for s in others]
                return
            team.extend(others)
        state.teams = [0 if s in team else 1 for s in range(game.players)]
        if not data.get("announced"):
            data["announced"] = True
            names = game.seat_names
            other = [s for s in range(game.players) if s not in team]
            state.note(f"Teams: {', '.join(names[s] for s in team)} against {', '.join(names[s] for s in other)}")
        if self.marker and not data.get("marker_given"):
            data["marker_given"] = True
            state.vars[self.marker] = None
            other = [s for s in range(game.players) if s not in team]
            if len(team) != len(other):
                smaller = team if len(team) < len(other) else other
                if len(smaller) == 1:
                    self._give_marker(game, state, smaller[0])
                else:
                    data["offer"] = [("marker", s) for s in smaller]

    def _give_marker(self, game: Any, state: Any, seat: int) -> None:
        state.vars[self.marker] = seat
        state.note(f"{game.seat_names[seat]} holds the {self.marker}")

    def decision(self, game: Any, state: Any) -> Decision | None:
        offer = state.step_data["offer"]
        if offer is None:
            return None
        return Decision(state.step_data["chooser"], offer, self, _PROMPTS[offer[0][0]])

    def apply(self, game: Any, state: Any, action: tuple[str, int]) -> None:
        what, value = action
        data = state.step_data
        if what == "size":
            data["size"] = value
        elif what == "partner":
            data["team"].append(value)
        else:
            self._give_marker(game, state, value)
        self._settle(game, state)

    def describe(self, game: Any, state: Any, action: tuple[str, int], viewer: int | None = None) -> str:
        what, value = action
        if what == "marker":
            return f"gives the {self.marker} to {game.seat_names[value]}"
        return "plays alone" if what == "size" and value == 1 else f"chooses {self.label(game, state, action)}"

    def label(self, game: Any, state: Any, action: tuple[str, int]) -> str:
        what, value = action
        if what == "size":
            return f"team of {value}"
        if what == "partner":
            return f"partner {game.seat_names[value]}"
        return f"{self.marker} to {game.seat_names[value]}"


_PROMPTS = {"size": "choose your team size", "partner": "choose a partner", "marker": "give the marker to"}
