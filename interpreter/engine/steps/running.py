"""A list of steps being run (a round's, a repeat's, a trick's hooks), and the steps running now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State

if TYPE_CHECKING:
    from interpreter.engine.steps.base import Step


class Running:
    """A list of steps being run (a round's, a repeat's, a trick's hook): the step running now (its index), its
    progress, and the decision found while entering or applying it (taken once by ``pending``)."""

    __slots__ = ("steps", "index", "p", "d")

    def __init__(self, steps: list[Step], index: int, p: Any, d: Decision | None = None):
        self.steps, self.index, self.p, self.d = steps, index, p, d

    def copy(self) -> Running:
        return Running(self.steps, self.index, None if self.p is None else self.p.copy())


def pending(game: GameView, state: State, r: Running) -> Decision | None:
    """The decision of the step running in ``r``."""
    d, r.d = r.d, None
    return d if d is not None else r.steps[r.index].decision(game, state, r.p)


def running(steps: list[Step], index: int, p: Any) -> list[tuple[Step, Any]]:
    """The steps running now, each with its progress: the round's step ``steps[index]``, then the step running
    inside it, and so on down to the one whose decision is pending."""
    out: list[tuple[Step, Any]] = []
    if index < 0 or p is None:
        return out
    here: tuple[Step, Any] | None = (steps[index], p)
    while here is not None and here[1] is not None:
        out.append(here)
        here = here[0].inside(here[1])
    return out

