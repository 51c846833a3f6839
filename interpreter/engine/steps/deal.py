"""Chance: gather the cards (every card, or those a condition picks), shuffle, and deal a number of cards to
every seat; the rest stay in a zone.

What the step does in play: its written code (deal_code.py): its number of cards worked out, then chance's decision,
and the deal applied. Its
parts: its reading (deal_reading.py: the declaration, the options read and checked, the progress) and its chance
(deal_chance.py: the outcomes drawn, written to records and read back); its words are chance's (a deal is labelled
by its kind).
"""

from __future__ import annotations

from typing import cast

from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.base import register
from interpreter.engine.steps.chance import ChanceWords
from interpreter.engine.steps.deal_chance import DealChance
from interpreter.engine.steps.deal_code import dealing, fixed_start
from interpreter.engine.steps.deal_reading import DealReading, _Dealing
from interpreter.engine.steps.writer import Found, Lines, ListWriter


@register
class Deal(DealReading):
    """A deal step in play."""

    words_part = ChanceWords
    chance_part = DealChance

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """Entered in place when each seat gets a constant number of cards (its progress made, chance's decision
        given, as its written code gives them, deal_code.py); else through its written code, where the number is
        worked out and checked."""
        count = fixed_start(self)
        if count is not None:
            x.started(w, k, found, began, f"{x.ref(self.progress_class)}({count!r})", dealing(x.shape, x.step_ref(k)))
            return
        w(f"code = {x.shape.code_of(x.step_ref(k), x.ref)}")
        x.started(w, k, found, began, "code.start(state, None)", "code.decision(state, q, None)")

    def start(self, game: GameView, state: State) -> _Dealing:
        return cast(_Dealing, self.code(game).start(state, None))

    def decision(self, game: GameView, state: State, p: _Dealing) -> Decision | None:
        return cast(Decision | None, self.code(game).decision(state, p, None))

    def apply(self, game: GameView, state: State, p: _Dealing, outcome: list[int]) -> None:
        self.code(game).apply(state, p, outcome, None)
