"""The compiled backend's reveal template (interpreter/compiled/reveal_template.py) in lockstep with the Python backend
(tests/compiled_steps.py): Doppelkopf's reveal of an announcer's party, entered on both from states of random games,
what each seat knows of the teams (the arrays' ``team known`` row) compared. A reveal of seats given as a list (the
club queens played) runs in the whole machine: tests/test_vector.py's lockstep of hidden teams."""

from __future__ import annotations

import random

from .compiled_steps import StepOnBoth


def announced(both: StepOnBoth, count: int, seed: int, hidden: bool) -> int:
    """The reveal entered from ``count`` states of random games whose teams are hidden (``hidden``) or public, a random
    seat (or none) the announcer; how many of them changed what some seat knows."""
    rng = random.Random(seed)
    changed = 0
    for state in both.states(rng, count, every=9, where=lambda s: (s.team_known is not None) == hidden):
        state.vars["announcer"] = rng.choice([None, *range(both.game.players)])
        before = None if state.team_known is None else list(state.team_known)
        assert both.lockstep(state, rng) == 0  # (it decides nothing; what it did compared after its start)
        after = state.clone()
        both.step.start(both.game, after)
        changed += after.team_known != before
    return changed


def test_a_reveal_tells_every_seat_as_the_python_backend_does():
    both = StepOnBoth("doppelkopf", 4, "announced_party")
    assert announced(both, 12, 4, hidden=True) >= 2  # (the reveals that told some seat something)


def test_a_reveal_while_the_teams_are_public_tells_nothing():
    both = StepOnBoth("doppelkopf", 4, "announced_party")
    assert announced(both, 4, 5, hidden=False) == 0
