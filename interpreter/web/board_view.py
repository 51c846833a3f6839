"""A ``board`` step as the web table draws it: its rows of spaces, from the observation's public ``board`` (the
step's declaration: each row's title and its spaces in order, which are open and who covered the others), with the
spaces the seat to act may cover now, and the status lines that say what each row has left.

Nothing here knows a game: a board of any shape (rows, spaces, values) is drawn the same way. Who covered what is
public in a board step (every seat sees every cover), so the drawing is the same for every viewer but for the
spaces it may cover.
"""

from __future__ import annotations

from typing import Any


def drawn_board(obs: dict[str, Any], choices: dict[tuple[str, str], str]) -> list[dict[str, Any]] | None:
    """The rows of the running board step (None: no board is in play), each ``{"row", "title", "left", "spaces"}``,
    each space ``{"label", "open", "by", "action"}``: ``by`` the seat that covered it (None: open, or covered before
    play), ``action`` the label of the action that covers it when the viewer may cover it now (``choices``: the
    viewer's legal covers, (row, space label) -> the action's label), else None."""
    board = obs.get("board")
    if not isinstance(board, dict):
        return None
    rows = []
    for key, row in board.items():
        spaces = [{"label": s["label"], "open": s["open"], "by": s["by"],
                   "action": choices.get((key, s["label"])) if s["open"] else None} for s in row["spaces"]]
        rows.append({"row": key, "title": row["title"], "left": sum(s["open"] for s in spaces), "spaces": spaces})
    return rows


def board_status(rows: list[dict[str, Any]] | None) -> list[list[str]]:
    """What each row of a board in play has left, as status lines (the row's title, its open spaces)."""
    out = []
    for row in rows or []:
        left = [s["label"] for s in row["spaces"] if s["open"]]
        if len(left) > 1:
            text = f"{', '.join(left[:-1])} or {left[-1]} ({len(left)} left)"
        else:
            text = f"{left[0]} (the last left)" if left else "nothing left"
        out.append([row["title"], text])
    return out


def covers(state: Any) -> dict[tuple[str, str], str]:
    """The legal actions of ``state`` (the public API's GameState) that cover a board's space: (row, space label)
    -> the action's label (a board's action is of the kind ``space``, its value (row, space label))."""
    game = state.game
    out = {}
    for action in state.legal_actions():
        info = game.action(action)
        if info.kind == "space":
            row, label = info.value
            out[(row, label)] = info.label
    return out
