"""``board``: rows of options that seats cover in turn; each row's open space decides a round value.

What the step does in play: it is started, asked and applied through its written code (board_code.py), which calls
back here to settle the rows and for its errors. Its parts: its reading (board_reading.py: the declaration, the
rows read and checked, the progress) and its words (board_words.py).
"""

from __future__ import annotations

from typing import Any, cast

from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Cover
from interpreter.engine.steps.base import register
from interpreter.engine.steps.board_code import Opening, covering, first_seat, opened
from interpreter.engine.steps.board_reading import BoardProgress, BoardReading
from interpreter.engine.steps.board_words import BoardWords
from interpreter.engine.steps.writer import Found, Lines, ListWriter


@register
class Board(BoardReading):
    """A board step in play."""

    words_part = BoardWords

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """Entered in place when it starts the same way every round with a seat to cover (its first seat, its
        progress and its decision, from the fragments of its written code, board_code.py); else through its
        written code (see steps_code.py)."""
        opening = Opening.of(self)
        if opening.fixed():
            first_seat(w, self, x.assign, x.shape)
            start = opened(x.ref(BoardProgress), x.ref(opening.open), f"{x.ref(opening.choices)}.copy()")
            x.started(w, k, found, began, start, covering(x.shape, "q", x.step_ref(k)))
            return
        w(f"code = {x.shape.code_of(x.step_ref(k), x.ref)}")
        x.started(w, k, found, began, "code.start(state, None)", "code.decision(state, q, None)")

    def start(self, game: GameView, state: State) -> BoardProgress:
        return cast(BoardProgress, self.code(game).start(state, None))

    def decision(self, game: GameView, state: State, p: BoardProgress) -> Decision | None:
        return cast(Decision | None, self.code(game).decision(state, p, None))

    def apply(self, game: GameView, state: State, p: BoardProgress, action: Cover) -> None:
        self.code(game).apply(state, p, action, None)

    def value_of(self, game: GameView, state: State, p: Any, d: Decision, value: Any) -> Any:
        for a in d.actions:
            if self.rows[a.row].values[a.space] == value or self.words.label(game, a) == value:
                return a
        return None
