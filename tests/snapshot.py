"""A state as plain, comparable data: what two runs of the same game must agree on after every action.

Shared by the tests (through conftest.py) and the fuzzer (tests/fuzz.py, also run as a script), so it imports
nothing of the test suite and changes nothing when imported.
"""

from __future__ import annotations

from typing import Any

PARTS = ("per-seat zones", "shared zones", "round values", "seat values", "game values", "counters", "teams",
         "totals", "step progress", "step", "round", "actor", "decision kind", "decision step", "legal actions")


def progress_data(p: object) -> object:
    """A step's progress as plain data (its slots, nested progress included)."""
    if p is None or isinstance(p, (int, str, bool, tuple)):
        return p
    if isinstance(p, list):
        return [progress_data(x) for x in p]
    slots = [s for cls in type(p).__mro__ for s in getattr(cls, "__slots__", ())]
    if not slots:
        return repr(p)
    return {s: progress_data(getattr(p, s)) if s != "steps" else len(getattr(p, s)) for s in slots}


def snapshot(state: Any) -> tuple:
    """The parts of ``state`` named by PARTS, in that order."""
    d = state.pending
    return (repr(state.per_seat), repr(state.shared), repr(state.vars), repr(state.seat_vars), repr(state.game_vars),
            repr(state.counters), list(state.teams), list(state.totals), repr(progress_data(state.progress)),
            state.step_index, state.round_number, d.actor if d else None, d.kind if d else None,
            d.step.name if d else None, list(d.actions) if d else None)


def differences(a: tuple, b: tuple) -> str:
    """The parts in which two snapshots differ, each shown briefly."""
    return "; ".join(f"{name}: {x!r:.300} vs {y!r:.300}" for name, x, y in zip(PARTS, a, b) if x != y)
