"""A state held in the compact layout (layout.py), as code written for it reads it: ``z``, the zone slots (each a
list of card kinds), and ``v``, the value slots; the rest (the running step's progress, the pending decision...) as
``pack`` carries it until the step kinds declare their progress fields.

The expressions' builtins that take the state ask it what they ask today's ``State``: its number of players, its
game, and the team questions (engine/team_queries.py, answered from the team slots)."""

from __future__ import annotations

from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.team_queries import TeamQueries
from interpreter.runtime.layout import COUNTED, KNOWN, TEAM, Layout, Packed, layout


class Slots(TeamQueries):
    """A state in the compact layout (see the module's docstring)."""

    __slots__ = ("game", "players", "z", "v", "rest", "_team", "_known", "_counted")

    def __init__(self, game: Game, lay: Layout, zones: list[list[int]], values: list[Any], rest: tuple[Any, ...]):
        self.game = game
        self.players = lay.players
        self.z = zones
        self.v = values
        self.rest = rest
        self._team = lay.value_slot(TEAM, "", 0)
        self._known, self._counted = lay.value_slot(KNOWN), lay.value_slot(COUNTED)

    @classmethod
    def of(cls, game: Game, packed: Packed) -> Slots:
        """The slots of a packed state (they are its lists, not copies)."""
        return cls(game, layout(game), packed.zones, packed.values, packed.rest)

    @property
    def teams(self) -> list[int]:  # type: ignore[override]
        return self.v[self._team:self._team + self.players]

    @property
    def team_known(self) -> list[int] | None:  # type: ignore[override]
        known: list[int] | None = self.v[self._known]
        return known

    @property
    def team_counted(self) -> bool:  # type: ignore[override]
        return bool(self.v[self._counted])
