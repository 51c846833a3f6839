"""What search asks of a ``choose`` step: the values a simultaneous choice fills in secret, its picks renamed in a
sampled state, and the choices a seat has not seen drawn again among what their chooser could choose."""

from __future__ import annotations

from typing import Any

from interpreter.engine.card_values import renamed
from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.steps.choose_reading import ChooseReading, Choosing
from interpreter.engine.steps.search import Search


class ChooseSearch(Search[ChooseReading]):
    """The search part of a choose step, read from its resolved options."""

    def filling(self) -> frozenset[str]:
        step = self.step
        if not step.simultaneous:
            return frozenset()
        return frozenset(n for n in (step.set_round, step.set_seat, step.set_chooser, step.set_history) if n)

    def relabel(self, p: Choosing, card: Any) -> None:
        t = self.step.option_type
        p.picked = [renamed(t, v, card) for v in p.picked]
        for h in p.history:
            h["value"] = renamed(t, h["value"], card)

    def redrawn(self) -> frozenset[str]:
        # choices that move or swap cards are sampled with the cards (as unknown cards in their new places)
        step = self.step
        return self.filling() if step.move_to is None and not step.swap and not step.counted else frozenset()

    def redraw(self, game: GameView, state: State, p: Choosing, seat: int, rng: Any) -> None:
        if not self.redrawn():
            return
        step = self.step
        hidden = [h for h in p.history if h["seat"] != seat]
        for h in hidden:
            them = h["seat"]
            probe = p.copy()
            probe.picked = []
            legal = step.code(game).legal(state, probe, them, step.outer_values(state))
            if legal:
                h["value"] = legal[rng.randrange(len(legal))].value
                if step.set_seat:
                    state.seat_vars[step.set_seat][them] = h["value"]
        if hidden and p.history:
            if step.set_round:
                state.vars[step.set_round] = p.history[-1]["value"]
            if step.set_history:
                state.vars[step.set_history] = [dict(h) for h in p.history]
