"""What every part of a GameState stands on: its match, the listeners that keep its history and follow it, a change
made whole or not at all, and the checks of a seat and of a count that its methods share.

A GameState (api/game.py) is made of this core and of its parts, each a concern of the API: whose turn it is and
what happened (progress.py), the actions (actions.py), the deals (dealing.py), what a seat sees (seeing.py),
copies and saving (copies.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from interpreter.api.following import Following, knowledge_of, replayed, seen_of
from interpreter.engine.actions import ActionInfo, ActionSpace
from interpreter.engine.encoding import ObservationEncoder
from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.state import State
from interpreter.errors import GameError
from interpreter.match.driver import Match
from interpreter.match.writer import RecordWriter


class Rules(Protocol):
    """What a state asks of its game: TrickGame (api/game.py), which makes the states."""

    engine: Game
    rules_file: str | None

    @property
    def players(self) -> int: ...

    @property
    def seat_names(self) -> list[str]: ...

    @property
    def actions(self) -> ActionSpace: ...

    @property
    def num_actions(self) -> int: ...

    @property
    def encoder(self) -> ObservationEncoder: ...

    def action(self, action_id: int) -> ActionInfo: ...

    def deserialize(self, text: str) -> StateCore: ...


class StateCore:
    """One game in progress: its match, its history (the lines of a record, written by a listener of the match)
    and what it follows of the match (the narration; the knowledge and the seats' information states once asked
    for)."""

    game: Rules

    def __init__(self, game: Rules, match: Match, head: dict[str, Any] | None = None):
        """The state of ``match`` (just made), its history written from now on (``head``: the header line to
        keep, default one made from the game)."""
        self.game = game
        self._match = match
        self._state = match.state
        self._moves: list[tuple[bool, Any]] = []  # each chance outcome (True) and action (False) as applied
        self._writer = RecordWriter(told=True, rules_file=game.rules_file, head=head, moves=self._moves)
        self._events = self._writer.lines  # the history, as the lines of a record
        self._knowledge: Knowledge | None = None
        self._dealing: list[int] = []  # the cards dealt so far of a deal dealt card by card
        self._seen: list[list[str]] | None = None  # what each seat saw after each event, once asked for
        self._last: list[dict[str, Any]] = [{} for _ in range(game.players)]  # each seat's last observation
        self._sample = False  # a state made by sample(): no history of its own
        self._ids: tuple[Any, Any, list[int]] = (None, None, [])  # a decision, its actions and their ids
        self._notes: list[str] = []  # the narration the rules told everyone so far
        self._following = Following(self)
        match.listen(self._writer, self._following)
        match.begin()

    def _put(self, state: State) -> None:
        """Put ``state`` in place of the one played (a copy kept before a change, a sample)."""
        self._match.state = self._state = state

    @property
    def _rng(self) -> random.Random:
        return self._match.rng

    def _seat(self, seat: Any) -> int:
        """``seat`` when it is a seat of this game (a number from 0), else a GameError."""
        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise GameError(f"seat must be a number from 0 to {self.game.players - 1}, not {seat!r}")
        return seat

    def _atomic(self, change: Callable[[], None]) -> None:
        """Make the ``change``, all of it or nothing: when a rule fails on the way (an expression that cannot be
        worked out), the state and its history are put back as they were before and the error raised. Nothing
        is copied while changes go well: the state is played again from its events when one fails (a sample,
        which has no history, from a copy taken before each change)."""
        kept = self._state.clone() if self._sample else None
        events, notes, moves, rounds = len(self._events), len(self._notes), len(self._moves), self._match.rounds
        try:
            change()
        except BaseException:
            del self._events[events:], self._notes[notes:], self._moves[moves:]
            self._match.rounds = rounds
            self._put(kept if kept is not None else replayed(self, lambda again: None))
            self._knowledge, self._ids = None, (None, None, [])  # followed again from the start when asked for
            raise

    def knowledge(self) -> Knowledge:
        """Who knows where each card is (engine/knowledge.py), for search: followed from the game's start the
        first time it is asked for, and from then on."""
        if self._knowledge is None:
            if self._sample:
                raise GameError("a sample has no history to follow: sample the real state again")
            self._knowledge, self._state.seen = knowledge_of(self)
            self._following.follow()
        return self._knowledge

    def _information_states(self) -> list[list[str]]:
        """What each seat saw after each event: followed from the game's start the first time it is asked for,
        and from then on."""
        if self._seen is None:
            self._seen = seen_of(self)
            self._following.follow()
        return self._seen


def after(n: Any, name: str) -> slice:
    """``[n:]`` for a count of lines or events already read, a whole number from 0."""
    if type(n) is not int or n < 0:
        raise GameError(f"{name} is a whole number from 0, not {n!r}")
    return slice(n, None)
