"""What a ``board`` step says: its spaces' labels, a cover in the narration, the rows' titles, the spaces still open,
and every action it may offer."""

from __future__ import annotations

from typing import Any

from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Cover
from interpreter.engine.steps.board_reading import BoardProgress, BoardReading
from interpreter.engine.steps.words import Words


class BoardWords(Words[BoardReading]):
    """The words of a board step, read from its rows."""

    def public(self, game: GameView, state: State, p: BoardProgress, viewer: int | None = None) -> dict[str, Any]:
        """The whole board, public to everyone: each row (by its key) with its title and every space in the
        declaration's order, whether it is open and who covered it (a seat's name; None while open, and for a
        space covered before play)."""
        by = {(r, i): game.seat_names[seat] for r, i, seat in p.covers}
        return {"board": {row.key: {"title": row.title,
                                    "spaces": [{"label": lab, "open": o, "by": by.get((r, i))}
                                               for i, (lab, o) in enumerate(zip(row.labels, spaces))]}
                          for r, (row, spaces) in enumerate(zip(self.step.rows, p.open))}}

    def titles(self) -> dict[str, str]:
        return {row.key: row.title for row in self.step.rows if row.title != row.key}

    def describe(self, game: GameView, state: State, d: Decision, action: Cover, viewer: int | None = None) -> str:
        r, i = action
        return f"covers {self.step.rows[r].title}: {self.step.rows[r].labels[i]}"

    def label(self, game: GameView, action: Cover) -> str:
        r, i = action
        row = self.step.rows[r]
        return f"{row.key}: {row.labels[i]}"

    def action_entries(self, game: GameView) -> list[tuple[str, Any, Any, str]]:
        """A space of a row covered: its value is (the row's key, the space's label)."""
        return [("space", (r, i), (row.key, row.labels[i]), self.label(game, Cover(r, i)))
                for r, row in enumerate(self.step.rows) for i in range(len(row.values))]

    def action_key(self, game: GameView, action: Cover) -> Any:
        return tuple(action)
