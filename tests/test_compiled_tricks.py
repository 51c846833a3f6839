"""The compiled backend's tricks template (interpreter/compiled/trick_template.py) in lockstep with the Python backend:
trick play entered on both from states of random games and played to its end with the same cards
(tests/compiled_steps.py)."""

from __future__ import annotations

import random

import pytest

from interpreter.compiled.values import NotWritten

from .compiled_steps import StepOnBoth

# the bundled games whose trick step the template writes (the others use what it does not write yet: see below)
WRITTEN = [("hearts", 4), ("spades", 4), ("oh-hell", 4), ("njet-riogrande", 3), ("njet-riogrande", 4),
           ("njet-goldsieber", 4)]


def between_tricks(state) -> bool:
    return not state.shared["trick"]


@pytest.mark.parametrize(("name", "players"), WRITTEN)
def test_trick_play_agrees_with_the_python_backend(name, players):
    both = StepOnBoth(name, players, "tricks")
    rng = random.Random(11)
    # (entered between tricks: the step's start begins a trick, as the Python backend's does)
    taken = [both.lockstep(state, rng) for state in both.states(rng, 6, every=7, where=between_tricks)]
    assert sum(t or 0 for t in taken) >= 6 * players, taken  # tricks were played to their end on both


@pytest.mark.parametrize(("name", "what"), [("whist", "from several zones"), ("euchre", "seats"),
                                            ("meinz", "per_trick"), ("doppelkopf", "between_plays")])
def test_what_the_template_does_not_write_is_said(name, what):
    with pytest.raises(NotWritten, match=what):
        StepOnBoth(name, 4, "tricks")


def test_numba_compiles_the_trick_template():
    pytest.importorskip("numba")
    both = StepOnBoth("hearts", 4, "tricks", compiled=True)
    rng = random.Random(3)
    (state,) = both.states(rng, 1, every=9, where=between_tricks)
    assert both.lockstep(state, rng) is not None
