"""What the players see on the table: the rule file's status lines (``table:``), each worked out for one viewer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.dsl.compiler import Compiled
from interpreter.engine.card_values import readable
from interpreter.engine.game_view import GameView
from interpreter.engine.state import State


@dataclass(frozen=True)
class StatusLine:
    """One line of what the players see on the table (the rule file's ``table:``)."""

    title: str
    show: Compiled
    when: Compiled | None = None
    each: bool = False  # the value of every seat (bound as seat) on one line
    discloses: bool = False  # shows what the rules have told everyone, though it reads hidden things (validate)


def _said(value: Any) -> str:
    """A status value as people read it: yes/no, lists joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_said(v) for v in value) if value else "none"
    return str(value)


def status(game: GameView, lines: list[StatusLine], state: State, viewer: int | None) -> list[tuple[str, str]]:
    """The status lines ``lines`` (a game's ``table``) for ``viewer``, each title with its text: give it a state the
    viewer cannot tell from the real one (a sample of what it knows), so that no line shows what it may not
    see (None: a spectator, given only lines that read what is public, observation.public_status). A line whose
    ``when`` is false, or whose value is none or an empty list, is left out."""
    out = []
    for line in lines:
        if line.when is not None and not line.when({"$s": state, "seat": viewer}):
            continue
        if line.each:
            values = [(s, line.show({"$s": state, "seat": s})) for s in range(game.players)]
            shown = [f"{game.seat_names[s]} {_said(readable(game, line.show.type, v))}" for s, v in values
                     if v is not None and v != []]
            if shown:
                out.append((line.title, ", ".join(shown)))
        else:
            value = line.show({"$s": state, "seat": viewer})
            if value is not None and value != []:
                out.append((line.title, _said(readable(game, line.show.type, value))))
    return out
