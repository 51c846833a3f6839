"""Chance: gather the cards (every card, or those a condition picks), shuffle, and deal a number of cards to
every seat; the rest stay in a zone.

What the step does in play: its number of cards worked out in place, then chance's decision, applied here. Its
parts: its reading (deal_reading.py: the declaration, the options read and checked, the progress) and its chance
(deal_chance.py: the outcomes drawn, written to records and read back); its words are chance's (a deal is labelled
by its kind).
"""

from __future__ import annotations

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.engine.game_view import GameView
from interpreter.engine.state import CHANCE, Decision, State
from interpreter.engine.steps.base import register
from interpreter.engine.steps.chance import ChanceWords
from interpreter.engine.steps.deal_chance import DealChance
from interpreter.engine.steps.deal_reading import DealReading, _Dealing
from interpreter.engine.steps.writer import Found, Lines, ListWriter


@register
class Deal(DealReading):
    """A deal step in play."""

    words_part = ChanceWords
    chance_part = DealChance

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """The number of cards worked out in place and checked; then the deal is chance's decision."""
        ref = x.step_ref(k)
        w("e = {'$s': state}")
        x.assign(w, "count", self.count, {}, "number")
        w(f"problem = {ref}._problem(count, game)")
        with w.block("if problem:"):
            w(f"raise {ref}._cannot(problem, state)")
        x.started(w, k, found, began, f"{ref}.progress_class(count)", f"{ref}.decision(game, state, q)")

    def _cannot(self, problem: str, state: State) -> ExpressionFailed:
        return ExpressionFailed(f"{self.count.position}: error: {problem} (round {state.round_number})")

    def decision(self, game: GameView, state: State, p: _Dealing) -> Decision | None:
        if p.dealt:
            return None
        return Decision(CHANCE, [], self, "deal", "chance")

    def apply(self, game: GameView, state: State, p: _Dealing, outcome: list[int]) -> None:
        # gather the cards back first, so a deal always starts from the full deck (or its whole part)
        packed = self.packed
        zones = [*state.shared.values(), *(cards for hands in state.per_seat.values() for cards in hands)]
        for zone in zones:
            if packed is None:
                zone.clear()
            elif zone and not packed.isdisjoint(zone):
                zone[:] = [c for c in zone if c not in packed]
        n, k = game.players, p.count
        hands = state.per_seat[self.hand_zone]
        for s in range(n):
            hands[s].extend(outcome[s * k:(s + 1) * k])
        if self.rest is not None:
            state.shared[self.rest].extend(outcome[n * k:])
        p.dealt = True
        if state.seen is not None:
            state.seen.dealt.extend(outcome)
