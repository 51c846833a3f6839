"""What every part of a GameState stands on: its match, the listeners that keep its history and follow it, a change
made whole or not at all, and the checks of a seat and of a count that its methods share.

A GameState (api/game.py) is made of this core and of its parts, each a concern of the API: whose turn it is and
what happened (progress.py), the actions (actions.py), the deals (dealing.py), what a seat sees (seeing.py),
copies and saving (copies.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from interpreter.api.following import Dealt, Following, Moves, Narration, history_of, knowledge_of, replayed, seen_of
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
    """One game in progress: its match, the chance outcomes and actions applied, and what it follows of the match,
    each from the first time it is asked for (api/following.py): its history (the lines of a record, written by a
    listener of the match) and narration, the knowledge and the seats' information states."""

    game: Rules

    def __init__(self, game: Rules, match: Match, head: dict[str, Any] | None = None):
        """The state of ``match`` (just made; ``head``: the header line its history is to keep, default one made
        from the game)."""
        self.game = game
        self._match = match
        self._state = match.state
        self._space = game.actions
        self._head = head
        # each action and chance outcome (a Dealt) applied, by the change itself (_change), or by a listener while
        # others drive the match (_driven)
        self._moves: list[Any] = []
        self._writer: RecordWriter | None = None  # the history's writer, once followed (_history)
        self._notes: list[str] = []  # the narration the rules told everyone so far, once the history is followed
        self._knowledge: Knowledge | None = None
        self._dealing: list[int] = []  # the cards dealt so far of a deal dealt card by card
        self._seen: list[list[str]] | None = None  # what each seat saw after each event, once asked for
        self._last: list[dict[str, Any]] = [{} for _ in range(game.players)]  # each seat's last observation
        self._sample = False  # a state made by sample(): no history of its own
        self._ids: list[int] = []  # the ids of the actions of the list _ids_of (a decision's), once asked for
        self._ids_of: list[Any] | None = None
        self._table: dict[Any, int] = {}  # the ids of the actions of the step _table_of seen so far (ActionSpace.table)
        self._table_of: Any = None
        self._following = Following(self)
        match.listen(self._following)
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

    def _change(self, chance: bool, move: Any) -> None:
        """Apply the chance outcome (``chance``) or the legal action ``move``, all of it or nothing: when a rule
        fails on the way (an expression that cannot be worked out), the state and what it follows are put back as
        they were before and the error raised. Nothing is copied while changes go well: the state is played again
        from its moves when one fails (a sample, which has no history, from a copy taken before each change)."""
        kept = self._state.clone() if self._sample else None
        writer = self._writer
        marks = None if writer is None else (len(writer.lines), len(self._notes))
        try:
            if chance:
                self._match.chance(move)
            else:
                self._match.take(move)  # legal: taken from the pending decision's actions (Actions)
        except BaseException:
            self._undo(kept, marks)
            raise
        self._moves.append(Dealt(move) if chance else move)

    def _undo(self, kept: State | None, marks: tuple[int, int] | None) -> None:
        """Put the state and what it follows back as they were before a change that failed: ``kept``, a copy of
        the state taken before (a sample's), else the state played again from its moves; ``marks``, the lengths
        of the history's lines and narration before (when the history is followed)."""
        writer = self._writer
        if writer is not None and marks is not None:
            lines, notes = marks
            del writer.lines[lines:], self._notes[notes:]
        self._put(kept if kept is not None else replayed(self, None))
        self._knowledge, self._ids_of = None, None  # followed again from the start when asked for

    def _history(self) -> RecordWriter:
        """The writer of the state's history (the lines of its record; the narration in ``_notes``): followed from
        the game's start the first time it is asked for, and from then on."""
        writer = self._writer
        if writer is None:
            writer = RecordWriter(told=True, rules_file=self.game.rules_file, head=self._head)
            self._notes = history_of(self, writer)
            self._writer = writer
            self._match.listen(writer, Narration(self._notes))
        return writer

    @contextmanager
    def _driven(self) -> Iterator[Match]:
        """The state's match, for something other than the state's own changes to drive (agents playing a game, a
        record read): its history followed, its moves kept as the match tells them."""
        self._history()
        moves = Moves(self._moves)
        self._match.listen(moves)
        try:
            yield self._match
        finally:
            self._match.forget(moves)

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
