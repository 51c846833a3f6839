"""What the written code of a ``tricks`` step (trick_code.py) refers to by name, over a state held as its shape says,
and what of a trick step is written through a shape yet (engine/state_shape.py)."""

from __future__ import annotations

from typing import Any

from interpreter.dsl import budget
from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.faults import no_route_seat
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision
from interpreter.engine.state_shape import StateShape
from interpreter.engine.steps.board import Board
from interpreter.engine.steps.choose import Choose
from interpreter.engine.steps.deal_reading import DealReading
from interpreter.engine.steps.running import Running, pending
from interpreter.engine.steps.steps_code import InPlace
from interpreter.engine.steps.trick_plays_code import lookup_globals, rule_lookups
from interpreter.engine.steps.tricks import Tricks
from interpreter.limits import MAX_ACTIONS, WORK_LIMIT


def written_for_shapes(step: Tricks) -> None:
    """Refuse what the code of a trick step is not written through a shape for yet: steps of other kinds than those
    written through it run between plays or after a trick."""
    written = (InPlace, Board, Choose, DealReading)  # the kinds whose code a trick's hooks call through a shape
    missing = [what for what, there in (
        ("steps of other kinds between plays or after a trick",
         not all(isinstance(s, written) for s in step.between + step.after)),
    ) if there]
    if missing:
        raise NotImplementedError(f"the code of a tricks step with {', '.join(missing)} is written for today's "
                                  "state only")


def trick_globals(step: Tricks, game: GameView, shape: StateShape) -> dict[str, Any]:
    """What the written code refers to, by name: the helpers and constants of the expressions written in place
    (``_k0``, ``_k1``..., see codegen.Namespace), the step, its compiled parts (written for the state's shape), the
    engine's helpers."""
    ordering = step.ordering.written_for(shape)
    compiled = shape.compiled
    return {
        "step": step, "T": step.progress_class, "N": game.players,
        "NEXT": tuple((s + 1) % game.players for s in range(game.players)),  # the seat after each
        "KINDS": step.kinds, "PLAYS": step.play_actions[0],
        "PLAYS_Z": step.play_actions, "NAMES": game.seat_names, "Decision": Decision,
        **rule_lookups("F", step.follow_rules, shape), **rule_lookups("L", step.lead_rules, shape),
        "ORDERING": ordering, **lookup_globals("STRENGTHS", ordering.combined), "FILL": ordering.fill,
        "CAN_WIN": None if step.can_win is None else compiled(step.can_win),
        "WON_BY": None if step.won_by is None else compiled(step.won_by), "LED": step.led,
        "DECIDED_BY": None if step.decided_by is None else compiled(step.decided_by),
        "ROUTE_WHEN": tuple(r.when for r in step.routes), "ROUTE_OWNER": tuple(r.owner for r in step.routes),
        "ROUTE_NO_SEAT": no_route_seat,
        "LATER": [o.written_for(shape) for o in step.later_orderings],
        "TAKES": [None if t.takes is None else compiled(t.takes) for t in step.takers],
        "RUNTIME_ERRORS": RUNTIME_ERRORS,
        "BETWEEN": step.between, "AFTER": step.after, "Running": Running,
        "pending": pending,
        "BUDGET": budget.left, "WORK": WORK_LIMIT, "MAX_ACTIONS": MAX_ACTIONS,
    }
