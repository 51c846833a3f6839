"""Where a game stands: whose turn it is and at which step, the round and the dealer, what happened so far (its
events and narration) and the scores."""

from __future__ import annotations

from typing import Any

from interpreter.api.core import StateCore, after
from interpreter.engine.state import CHANCE


class Progress(StateCore):
    """Whose turn, what happened, the scores (a part of GameState)."""

    @property
    def current_player(self) -> int | None:
        """The seat to act, ``CHANCE`` (-1) when a chance event (a deal) comes next, or None when the game is
        over."""
        d = self._state.pending
        return None if d is None else d.actor

    def is_chance(self) -> bool:
        d = self._state.pending
        return d is not None and d.actor == CHANCE

    def is_over(self) -> bool:
        return self._state.finished

    @property
    def step(self) -> str | None:
        """The name of the step that decides now (None when the game is over)."""
        d = self._state.pending
        return None if d is None else d.step.name

    @property
    def prompt(self) -> str | None:
        """What the seat to act is asked, as ``trickbook play`` asks a person ("play a card"; None at a deal or
        when the game is over)."""
        d = self._state.pending
        return None if d is None or d.actor == CHANCE else d.prompt

    @property
    def round(self) -> int:
        return self._state.round_number

    @property
    def dealer(self) -> int:
        return self._state.dealer

    @property
    def events(self) -> list[dict[str, Any]]:
        """Everything that happened, as the lines of a game record: the header, then each chance event, action,
        trick won (``trick``: its cards, winner and takers), decision an automatic seat took by its rule
        (``automatic``), round scored and the result (docs/records.md)."""
        return [dict(e) for e in self._history().lines]

    def events_since(self, count: int) -> list[dict[str, Any]]:
        """``events[count:]``, without copying the events before: to write a record line by line as the game
        goes (each new event once)."""
        return [dict(e) for e in self._history().lines[after(count, "count")]]

    def notes(self, since: int = 0) -> list[str]:
        """The narration so far (from its ``since``-th line on), one line each: what the rules tell everyone as
        the game goes (each trick won, each round's scores explained, ...), as ``trickbook play`` prints it. A
        state read back from its record (``deserialize``) starts with none."""
        self._history()
        return self._notes[after(since, "since")]

    def returns(self) -> list[int]:
        """Each seat's total so far (its final score once the game is over)."""
        return list(self._state.totals)

    def round_returns(self) -> list[list[int]]:
        """Each round's scores, one list a round played in this state."""
        return [list(r) for r in self._state.round_results]

    def winners(self) -> list[int]:
        """The seats with the best total among those that may win (once the game is over)."""
        return self.game.engine.winners(self._state)
