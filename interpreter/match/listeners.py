"""Small listeners of a match that several drivers share: who knows which card (for search), the round values
of each round as it ended (and the teams then)."""

from __future__ import annotations

from typing import Any

from interpreter.engine.knowledge import Knowledge
from interpreter.match.driver import Handler, Match
from interpreter.match.events import Applied, RoundEnd


class Knowing:
    """Follows who knows where each card is (engine/knowledge.py) from the match's state as it is now: the
    samples a searching agent draws come from it (``knowledge``)."""

    def __init__(self, match: Match):
        self.knowledge = Knowledge(match.game, match.state)
        self.hears: dict[type, Handler] = {Applied: self.applied}

    def applied(self, match: Match, event: Applied) -> None:
        self.knowledge.update(match.state)


class RoundValues:
    """Keeps the round values of each round as it ended, in ``values``, and each seat's team then, in ``teams``."""

    def __init__(self, values: list[dict[str, Any]] | None = None, teams: list[list[int]] | None = None):
        self.values: list[dict[str, Any]] = [] if values is None else values
        self.teams: list[list[int]] = [] if teams is None else teams
        self.hears: dict[type, Handler] = {RoundEnd: self.round_end}

    def round_end(self, match: Match, event: RoundEnd) -> None:
        if event.values is not None and (
                not self.values or event.values is not self.values[-1]):
            self.values.append(event.values)
            ended = match.state.ended_teams
            self.teams.append(list(match.state.teams if ended is None else ended))
