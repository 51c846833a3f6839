"""Choices made together (a step declared ``simultaneous``): every seat the step asks may be asked at once, ahead
of its turn, and its answers kept until the engine's one order reaches it.

The engine asks the seats of such a step one after the other, as it asks any step, and a record holds their
choices in that order; what makes the step one of choices made together is that no seat's choices depend on what
another seat picked in it (``validate`` refuses the declaration where they could: see
engine/steps/together_check.py). So the decision a seat will have in its turn is the one it has now in a copy of
the game in which the seats before it took stand-in choices (the first action of each of their decisions):
``ahead`` makes that copy, for a front end (the web table, the terminal) to ask the seat at once. Its answers are
taken in the real game when its turn comes; the copy is never shown beyond the seat's own decision and zones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, State
from interpreter.engine.steps.base import Step
from interpreter.engine.steps.running import running


def made_together(game: Game, state: State) -> Any:
    """The progress of the pending step when its choices are made together (what tells one such step's run from
    the next one's: the same object until it is over), else None."""
    found = _pending(game, state)
    return None if found is None else found[1]


def together(game: Game, state: State) -> list[int]:
    """The seats the pending step still asks, the seat to act first, when its choices are made together; else []."""
    found = _pending(game, state)
    return [] if found is None else found[0].together(found[1])


def _pending(game: Game, state: State) -> tuple[Step, Any] | None:
    """The pending step and its progress when its choices are made together, else None."""
    d = state.pending
    if d is None or d.actor == CHANCE:
        return None
    for step, p in running(game.steps, state.step_index, state.progress):
        if step is d.step:
            return (step, p) if step.together(p) else None
    return None


def same(actions: Sequence[Any], action: Any) -> Any:
    """The action of ``actions`` that is ``action`` (equal and of the same kind), or None."""
    return next((a for a in actions if a is action or (a == action and type(a) is type(action))), None)


def ahead(game: Game, state: State, seat: int, answers: Sequence[Any]) -> State | None:
    """A copy of ``state`` (at a step whose choices are made together) in which ``seat`` is to act in that step:
    each seat before it takes a stand-in choice (the first action of each of its decisions), ``seat`` its
    ``answers`` (its own actions in the step not taken in ``state`` yet, in order). None when ``seat`` has nothing
    more to choose in the step (its answers end its turn, or the step does not ask it again). An answer that is
    not one of the seat's actions there is a LookupError (the step's choices were not independent after all).

    The stand-ins are other seats' real choices: show nothing of the copy but the decision of ``seat`` and its own
    zones (the step is pending in the copy, so the seat's zones hold only what it chose)."""
    if made_together(game, state) is None:
        return None
    copy = state.clone()
    p = made_together(game, copy)
    left = list(answers)
    while made_together(game, copy) is p:
        d = copy.pending
        assert d is not None  # (a step made together is pending)
        if d.actor == seat:
            if not left:
                return copy
            action = same(d.actions, left.pop(0))
            if action is None:
                raise LookupError(f"an answer of seat {seat} is not one of its choices in its turn")
        else:
            action = d.actions[0]
        game.apply_fast(copy, action)
    return None


def own_zones(seen: dict[str, Any], ahead_seen: dict[str, Any]) -> dict[str, Any]:
    """``seen``, a seat's observation of the game, with the seat's own cards as its observation ``ahead_seen`` of
    its copy (``ahead``) has them: the cards it chose so far where they go, nothing else of the copy."""
    me = seen["seat"]
    out = dict(seen, zones=dict(seen["zones"]))
    for name, content in out["zones"].items():
        mine = ahead_seen["zones"].get(name)
        if isinstance(content, dict) and isinstance(mine, dict) and me in mine:
            out["zones"][name] = dict(content, **{me: mine[me]})
    return out
