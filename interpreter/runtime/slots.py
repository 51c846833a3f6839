"""A state held in the compact layout (layout.py), as code written for it reads it: ``z``, the zone slots (each a
list of card kinds, or for a zone the layout holds by count, a ``Counted``: its kinds once each with a count per
kind, counted.py), and ``v``, the value slots; the rest (the running step's progress, the pending decision...) as
``pack`` carries it until the step kinds declare their progress fields.

The expressions' builtins that take the state ask it what they ask today's ``State``: its number of players, its
game, and the team questions (engine/team_queries.py, answered from the team slots)."""

from __future__ import annotations

from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.team_queries import TeamQueries
from interpreter.runtime.counted import Counted
from interpreter.runtime.layout import COUNTED, DEALER, KNOWN, NUMBER, RESULTS, TEAM, TOTAL, Layout, Packed, layout


class Slots(TeamQueries):
    """A state in the compact layout (see the module's docstring)."""

    __slots__ = ("game", "players", "z", "v", "step_index", "progress", "pending", "ended", "finished",
                 "actions_taken", "results_slot", "_teams", "_known", "_counted", "_number", "_dealer")

    def __init__(self, game: Game, lay: Layout, zones: list[Any], values: list[Any], rest: tuple[Any, ...]):
        self.game = game
        self.players = lay.players
        self.z = zones
        for slot in lay.counts:  # (a zone held by count: its cards as their kinds and counts)
            cards = zones[slot]
            if not isinstance(cards, Counted):
                zones[slot] = Counted.of(cards, len(lay.kind))
        self.v = values
        # where the round stands, as the driver keeps it (the running step, its progress, the pending decision)
        self.step_index, self.progress, self.pending, self.ended, self.finished, self.actions_taken = rest
        team = lay.value_slot(TEAM, "", 0)
        self._teams = slice(team, team + self.players)  # the teams' slots (read by every team question)
        self._known, self._counted = lay.value_slot(KNOWN), lay.value_slot(COUNTED)
        self._number, self._dealer = lay.value_slot(NUMBER), lay.value_slot(DEALER)
        self.results_slot = lay.value_slot(RESULTS)  # the rounds' scores

    # the narration and what a Knowledge is told are made at the edges: the slots keep neither
    notes = None
    seen = None
    told = None

    def copy(self) -> Slots:
        """An independent copy: every zone's list, the values (those a step changes in place, the rounds' results and
        what seats know of the teams, copied too), the running step's progress and the pending decision."""
        other = Slots.__new__(Slots)
        other.game, other.players = self.game, self.players
        other.z = [cards.copy() for cards in self.z]
        v = other.v = list(self.v)
        results, known = self.results_slot, self._known
        v[results] = [list(r) for r in v[results]]
        if v[known] is not None:
            v[known] = list(v[known])
        other.step_index, other.ended, other.finished = self.step_index, self.ended, self.finished
        other.actions_taken = self.actions_taken
        other.progress = None if self.progress is None else self.progress.copy()
        other.pending = None if self.pending is None else self.pending.copy()
        other.results_slot, other._teams, other._known, other._counted = results, self._teams, known, self._counted
        other._number, other._dealer = self._number, self._dealer
        return other

    def cards(self, slot: int) -> list[int]:
        """The cards (kinds) of the zone in ``slot``: a new list. Code other than the written code (search's
        samples, the edges) reads a zone only so, whatever shape the zone is held in. A zone held as a list: its
        cards in today's order. A zone held by count (``Counted``): each kind repeated by its count, the kinds in
        the order of their first copies (today's order of the first copies; a later copy of a kind stands next to
        its first, not where today's state has it)."""
        cards = self.z[slot]
        return list(cards.copies()) if isinstance(cards, Counted) else list(cards)

    def put(self, slot: int, cards: list[int]) -> None:
        """Make ``cards`` (kinds, in order) the zone in ``slot``, held in the zone's shape (by count: the order of
        the first copies kept); the one way code other than the written code changes a zone."""
        held = self.z[slot]
        if isinstance(held, Counted):
            self.z[slot] = Counted.of(cards, len(held.n))
        else:
            self.z[slot] = list(cards)

    @property
    def round_number(self) -> int:
        number: int = self.v[self._number]
        return number

    @round_number.setter
    def round_number(self, number: int) -> None:
        self.v[self._number] = number

    @property
    def dealer(self) -> int:
        dealer: int = self.v[self._dealer]
        return dealer

    @dealer.setter
    def dealer(self, dealer: int) -> None:
        self.v[self._dealer] = dealer

    @classmethod
    def of(cls, game: Game, packed: Packed) -> Slots:
        """The slots of a packed state (they are its lists, not copies)."""
        return cls(game, layout(game), packed.zones, packed.values, packed.rest)

    @property
    def round_results(self) -> list[list[int]]:
        """The rounds' scores (as a state's are read where the rounds played are counted: search)."""
        results: list[list[int]] = self.v[self.results_slot]
        return results

    @property
    def totals(self) -> list[int]:
        """Each seat's total (as a state's totals are read where they are told: a game that never ends)."""
        first = layout(self.game).value_slot(TOTAL, "", 0)
        totals: list[int] = self.v[first:first + self.players]
        return totals

    @property
    def teams(self) -> list[int]:  # type: ignore[override]
        return self.v[self._teams]

    @property
    def team_known(self) -> list[int] | None:  # type: ignore[override]
        known: list[int] | None = self.v[self._known]
        return known

    @property
    def team_counted(self) -> bool:  # type: ignore[override]
        return bool(self.v[self._counted])
