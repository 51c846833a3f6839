"""Copies of a state and saving it: an independent copy, a sample a seat cannot tell from it, the state as text (a
game record) and pickled (its game and its record)."""

from __future__ import annotations

import json
import random
from typing import Any, Self

from interpreter.api.core import Rules, StateCore
from interpreter.api.following import Following, Narration
from interpreter.engine.observation import observe
from interpreter.engine.samples import determinize
from interpreter.errors import GameError
from interpreter.match.records import record_text


class Copies(StateCore):
    """Copies, samples and saving (a part of GameState)."""

    def clone(self) -> Self:
        """An independent copy: playing on one leaves the other as it was."""
        other = type(self).__new__(type(self))
        other.game = self.game
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        other._match = self._match.copy(rng)
        other._state = other._match.state
        other._space, other._head = self._space, self._head
        other._moves = list(self._moves)
        other._following = Following(other)
        other._match.listen(other._following)
        other._writer, other._notes = None, []
        if self._writer is not None:  # the history followed: the copy's goes on from a copy of it
            other._writer, other._notes = self._writer.copy(), list(self._notes)
            other._match.listen(other._writer, Narration(other._notes))
        other._knowledge = None
        other._dealing = list(self._dealing)
        other._seen = None if self._seen is None else [list(s) for s in self._seen]
        if other._seen is not None:
            other._following.follow()
        other._last = [dict(o) for o in self._last]
        other._sample = self._sample
        other._ids, other._ids_of = [], None
        other._table, other._table_of = {}, None
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and its record (a deal being dealt card by card: the cards dealt so far too)."""
        dealing, self._dealing = self._dealing, []
        try:
            return _state_from, (self.game, self.serialize(), list(dealing), self._rng.getstate())
        finally:
            self._dealing = dealing

    def serialize(self) -> str:
        """The state as text (a game record, JSON Lines): ``TrickGame.deserialize`` or ``load_serialized``
        gives it back. A deal being dealt card by card is not saved until it is whole."""
        if self._dealing:
            raise GameError("a deal is being dealt card by card: deal the rest (apply_chance()) before saving")
        if self._sample:
            raise GameError("a sample cannot be saved: it has no history of its own")
        return record_text(self._history().lines)

    def sample(self, seat: int, rng: random.Random | None = None) -> Self:
        """A state ``seat`` cannot tell from this one: the cards it has not seen dealt again among their
        places, as what it was told allows (for search). A sample has no history of its own: its ``events`` start
        empty, it cannot be saved, and another seat's information state in it starts from what that seat sees
        in the sample."""
        knowledge = self.knowledge()
        self._information_states()  # the seat's information state goes with its samples
        self._history()  # a sample's history is its own from its header on (the narration so far kept)
        seat = self._seat(seat)
        other = self.clone()
        other._put(determinize(self.game.engine, self._state, seat, knowledge, rng or self._rng))
        # nothing of the real game beyond what the seat knows: no history (it would tell the real deal), and
        # the other seats' information states start from what they see in the sample
        del other._history().lines[1:], other._moves[:]
        other._sample = True
        if other._seen is not None:
            for s in range(self.game.players):
                if s != seat:
                    other._last[s] = observe(self.game.engine, other._state, s)
                    other._seen[s] = [json.dumps(other._last[s], sort_keys=True, ensure_ascii=False)]
        return other


def _state_from(game: Rules, text: str, dealing: list[int], rng: Any) -> StateCore:
    """A pickled state, played again from its record."""
    state = game.deserialize(text)
    state._dealing = dealing
    state._rng.setstate(rng)
    return state
