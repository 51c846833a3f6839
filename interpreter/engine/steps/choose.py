"""``choose``: seats in an order given by data each pick values from a list given by an expression.

What the step does in play: it is entered, asked and applied through its written code (choose_code.py), which calls
back here for what is not worth writing out (its errors are made by engine/faults.py). Its parts: its reading
(choose_reading.py: the declaration, each option read and checked, the progress ``Choosing``), its words
(choose_words.py) and what search asks of it (choose_search.py).
"""

from __future__ import annotations

from typing import Any, cast

from interpreter.dsl.compiler import ExpressionFailed
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.base import register
from interpreter.engine.steps.choose_reading import ChooseReading, Choosing
from interpreter.engine.steps.choose_search import ChooseSearch
from interpreter.engine.steps.choose_words import ChooseWords
from interpreter.engine.steps.writer import Found, Lines, ListWriter, bound_read


@register
class Choose(ChooseReading):
    """A choose step in play: entered, asked and applied through its written code (choose_code.py), which calls
    back for what is not worth writing out."""

    words_part = ChooseWords
    search_part = ChooseSearch
    words: ChooseWords

    # ------------------------------------------------------------------ play (its code: choose_code.py)

    def outer_names(self) -> set[str]:
        return bound_read([self.who, self.options_expr, self.allowed, self.must, self.count, self.may_pass,
                           self.may_stop, self.until, self.label_expr, self.describe_expr]) & set(self.bound)

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """Entered through its written code, given the names of the holding step it reads (see steps_code.py); in
        a playout's loop written in place, taking its decisions as they come."""
        if x.playing:
            x.in_loop(w, k)
            return
        x.outer_dict(w)
        w(f"code = {x.shape.code_of(x.step_ref(k), x.ref)}")
        x.started(w, k, found, began, "code.start(state, o)", "code.decision(state, q, o)")

    def together(self, p: Choosing) -> list[int]:
        if not self.simultaneous:
            return []
        return list(dict.fromkeys(p.order[p.pos:]))

    def start(self, game: GameView, state: State) -> Choosing | None:
        return cast(Choosing | None, self.code(game).start(state, self.outer_values(state)))

    def decision(self, game: GameView, state: State, p: Choosing) -> Decision | None:
        return cast(Decision | None, self.code(game).decision(state, p, self.outer_values(state)))

    def apply(self, game: GameView, state: State, p: Choosing, action: Any) -> None:
        self.code(game).apply(state, p, action, self.outer_values(state))

    def _not_in_zones(self, value: Any) -> ExpressionFailed:
        labels = self._card_choices
        return ExpressionFailed(f"{self.options_expr.position}: error: a swap needs two cards that lie in "
                                f"zones, got {[labels[c].label for c in value]}")
