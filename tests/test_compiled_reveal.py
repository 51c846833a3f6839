"""The compiled backend's reveal template (interpreter/compiled/reveal_template.py) in lockstep with the Python backend
(tests/compiled_steps.py): Doppelkopf's reveal of an announcer's party, entered on both from states of random games
with hidden teams, what each seat knows compared where the arrays hold it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from interpreter.compiled.arrays import ArrayLayout, array_layout
from interpreter.compiled.values import NotWritten
from interpreter.runtime.layout import KNOWN

from .compiled_steps import StepOnBoth


def holding_known(game) -> ArrayLayout:
    """The game's layout in the arrays, with what each seat knows of the teams held as a list row (its last)."""
    lay = array_layout(game)
    rows = list(lay.list_row)
    rows[lay.layout.value_slot(KNOWN)] = lay.lists
    return dataclasses.replace(lay, list_row=tuple(rows))


def announced(both: StepOnBoth, count: int, seed: int) -> int:
    """The reveal entered from ``count`` states of random games whose teams are hidden, a random seat (or none) the
    announcer; how many of them changed what some seat knows."""
    rng = random.Random(seed)
    changed = 0
    for state in both.states(rng, count, every=9, where=lambda s: s.team_known is not None):
        state.vars["announcer"] = rng.choice([None, *range(both.game.players)])
        before = list(state.team_known)
        assert both.lockstep(state, rng) == 0  # (it decides nothing; what it did compared after its start)
        after = state.clone()
        both.step.start(both.game, after)
        changed += after.team_known != before
    return changed


def test_a_reveal_tells_every_seat_as_the_python_backend_does():
    both = StepOnBoth("doppelkopf", 4, "announced_party", arrays_of=holding_known)
    assert announced(both, 12, 4) >= 2  # (the reveals that told some seat something)


def test_a_reveal_changes_nothing_the_arrays_hold():
    both = StepOnBoth("doppelkopf", 4, "announced_party")  # (what each seat knows is not in them)
    assert not both.code.expressions
    assert announced(both, 4, 5) >= 1


def test_seats_given_as_a_list_are_not_written():
    with pytest.raises(NotWritten, match="seats given as a list"):
        StepOnBoth("doppelkopf", 4, "queen_played", arrays_of=holding_known)

