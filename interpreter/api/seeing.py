"""What a seat sees: its observation (a dict, a line of JSON, a tensor), the rule file's status lines as it sees
them, its information state, and the cards it holds and received."""

from __future__ import annotations

import json
from typing import Any

from interpreter.api.core import StateCore
from interpreter.engine.observation import held as cards_held
from interpreter.engine.observation import observe, public_status
from interpreter.engine.observation import received as cards_received
from interpreter.engine.samples import seen_status
from interpreter.errors import GameError


class Seeing(StateCore):
    """What a seat sees (a part of GameState)."""

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees now (None: a spectator): its cards, the others' counts, the table, the values
        everyone is told, the scores (see docs/api.md)."""
        return observe(self.game.engine, self._state, None if seat is None else self._seat(seat))

    def observation_string(self, seat: int | None) -> str:
        """``observation(seat)`` as one line of JSON (keys sorted)."""
        return json.dumps(self.observation(seat), sort_keys=True, ensure_ascii=False)

    def observation_tensor(self, seat: int | None) -> list[float]:
        """``observation(seat)`` as ``game.observation_size`` numbers, laid out as ``game.observation_layout``
        says."""
        return self.game.encoder.encode(self.observation(seat))

    def status(self, seat: int | None) -> list[tuple[str, str]]:
        """The rule file's status lines (its ``table:``) as ``seat`` sees them: each title with its text, worked
        out on a sample of what the seat knows (so a line never shows what it may not see); empty when the file
        declares none. The same sample every time for the same state (a fixed random source). None: a spectator,
        shown only the lines that read nothing but what everyone sees (round values all see; no line about
        "your" anything)."""
        if seat is None:
            return public_status(self.game.engine, self._state)
        return seen_status(self.game.engine, self._state, self._seat(seat), self.knowledge())

    def information_state_string(self, seat: int) -> str:
        """Everything ``seat`` has seen so far, in order: what changed in its observation at each event (the
        deals, its own and the others' actions as it saw them), one line each. Two states give the same string
        exactly when the seat cannot tell them apart. The first call follows the game from its start once."""
        if self._seen is None and self._sample:
            raise GameError("a sample has no history: ask the real state for information states before sampling")
        return "\n".join(self._information_states()[self._seat(seat)])

    def held(self, seat: int) -> tuple[frozenset[int], frozenset[int]]:
        """What ``seat`` holds face down and every card it sees now, as card ids: give it to ``received`` after an
        action to learn what came to the seat unseen."""
        own, seen = cards_held(self.game.engine, self._state, self._seat(seat))
        return frozenset(own), frozenset(seen)

    def received(self, seat: int, before: tuple[frozenset[int], frozenset[int]]) -> list[str]:
        """The labels of the cards ``seat`` holds face down now and did not see when ``before`` (its ``held``) was
        taken: the cards passed to it, as ``trickbook play`` tells a person ("you receive: ...")."""
        now = cards_held(self.game.engine, self._state, self._seat(seat))
        labels = self.game.engine.cards.labels
        return [labels[c] for c in cards_received(before, now)]
