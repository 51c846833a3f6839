"""Counting the engine's calls into a game's steps: the work a playout or the checked path leaves to the steps'
methods instead of the game's written code.

A step is entered and played through ``start``, ``decision``, ``apply`` and ``playout`` (Game.apply_fast and
Game.playout call them on the round's steps; a step without written code is played by them). ``step_calls(game)``
counts each call by ``(step name, method)``, and under ``(step name, "taken")`` the decisions the step's own
playout loop took (what its ``playout`` returned), while the ``with`` block runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

METHODS = ("start", "decision", "apply", "playout")


@contextmanager
def step_calls(game: Any) -> Iterator[Counter[tuple[str, str]]]:
    """Count the calls of every step of ``game`` (the round's and those nested in them) while the block runs."""
    calls: Counter[tuple[str, str]] = Counter()
    kept: list[tuple[Any, str, Any]] = []  # (step, method, what the step itself held under that name)
    for step in {id(s): s for s in game.every_step()}.values():
        for method in METHODS:
            kept.append((step, method, vars(step).get(method, _NONE)))
            setattr(step, method, _counted(calls, step.name, method, getattr(step, method)))  # hides the class's
    try:
        yield calls
    finally:
        for step, method, held in kept:
            if held is _NONE:
                delattr(step, method)  # the class's method again
            else:
                setattr(step, method, held)


_NONE = object()


def _counted(calls: Counter[tuple[str, str]], name: str, method: str, real: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name, method] += 1
        out = real(*args, **kwargs)
        if method == "playout":
            calls[name, "taken"] += out
        return out

    return counted


def called(calls: Counter[tuple[str, str]], names: Iterable[str] | None = None) -> dict[tuple[str, str], int]:
    """The counts that are not zero, of the steps ``names`` (None: of every step)."""
    wanted = None if names is None else set(names)
    return {key: n for key, n in calls.items() if n and (wanted is None or key[0] in wanted)}


def in_loops(calls: Counter[tuple[str, str]]) -> int:
    """The decisions the steps took in their own playout loops."""
    return sum(n for (_, method), n in calls.items() if method == "taken")
