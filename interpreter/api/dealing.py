"""Chance events (the deals): the cards that may come next, and dealing them, card by card or whole."""

from __future__ import annotations

import random
from typing import Any

from interpreter.api.core import StateCore
from interpreter.engine.state import CHANCE
from interpreter.errors import IllegalAction


class Dealing(StateCore):
    """The deals (a part of GameState)."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending chance event dealt card by card: the cards that may come next, as (card, probability),
        every card left equally likely, so identical cards (one outcome, the id of the first of them) as likely
        as there are of them left ([] when no chance event is pending). ``apply_chance(card)`` deals one."""
        d = self._state.pending
        if d is None or d.actor != CHANCE:
            return []
        left = self._left(d)
        kinds = self.game.engine.cards.kinds
        counts: dict[int, int] = {}
        for c in left:
            counts[kinds[c]] = counts.get(kinds[c], 0) + 1
        return [(k, n / len(left)) for k, n in counts.items()]

    def _left(self, d: Any) -> list[int]:
        cards = d.step.chance.chance_cards(self.game.engine, self._state)
        for c in self._dealing:
            cards.remove(c)
        return cards

    def apply_chance(self, outcome: int | random.Random | None = None, rng: random.Random | None = None) -> None:
        """Deal: with ``outcome``, the next card of the pending chance event (one of ``chance_outcomes``; once
        every card has come, the deal is made in that order); without, the whole deal (the rest of it, when
        some cards have come) drawn from ``rng`` or the state's own random source (seeded by ``new_state``),
        every order equally likely (``apply_chance(rng)`` says the same as ``apply_chance(rng=rng)``)."""
        if isinstance(outcome, random.Random):
            outcome, rng = None, outcome
        state, engine = self._state, self.game.engine
        d = state.pending
        if d is None or d.actor != CHANCE:
            raise IllegalAction("no chance event is pending")
        if outcome is not None:
            left = self._left(d)
            kinds = engine.cards.kinds
            card = next((c for c in left if kinds[c] == outcome), None) if type(outcome) is int else None
            if card is None:
                raise IllegalAction(f"card {outcome!r} cannot come next in this deal (the cards left: "
                                    f"{', '.join(engine.cards.labels[c] for c in left[:20])}"
                                    + (" ..." if len(left) > 20 else "") + ")")
            self._dealing.append(card)
            if len(left) > 1:
                return
            order = self._dealing
        elif self._dealing:
            left = self._left(d)
            (rng or self._rng).shuffle(left)
            order = self._dealing + left
        else:
            order = d.step.chance.sample(engine, state, rng or self._rng)
        self._dealing = []
        self._apply_deal(d, order)

    def _apply_deal(self, d: Any, outcome: Any) -> None:
        self._change(True, outcome)
