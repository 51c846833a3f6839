"""The compiled backend's tricks template (interpreter/compiled/trick_template.py) in lockstep with the Python backend:
trick play entered on both from states of random games and played to its end with the same cards
(tests/compiled_steps.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.compiled.values import NotWritten

from .compiled_steps import StepOnBoth, numba_or_skip, short_list

# every bundled game whose trick step runs no steps of its own, at the fewest players and at 4
WRITTEN = [("euchre", 4), ("hearts", 4), ("mue", 3), ("mue", 4), ("mue-riogrande", 4), ("njet-goldsieber", 3),
           ("njet-goldsieber", 4), ("njet-riogrande", 2), ("njet-riogrande", 4), ("oh-hell", 3), ("oh-hell", 4),
           ("spades", 4)]
# the others, their steps between plays and after a trick taken out (tests/data/compiled_tricks): what the
# template writes of them (several zones with decided_by, per_trick, takers with unclaimed, seats...)
RULES = Path(__file__).parent / "data" / "compiled_tricks"
HOOKED = [("bridge", 4, "play"), ("doppelkopf", 4, "tricks"), ("meinz", 3, "tricks"), ("meinz", 4, "tricks"),
          ("mit-list-und-tuecke", 4, "tricks"), ("skat", 3, "tricks"), ("skat", 4, "tricks"),
          ("was-sticht", 3, "tricks"), ("was-sticht", 4, "tricks"), ("whist", 4, "tricks")]


def between_tricks(state) -> bool:
    return not state.shared["trick"]


def entries(both: StepOnBoth, rng: random.Random, count: int) -> list:
    """``count`` states of random games between two tricks of the step (its start begins a trick, as the Python
    backend's does)."""
    return both.states(rng, count, every=3, where=lambda s: between_tricks(s) and s.pending.step is both.step)


def played_in_lockstep(both: StepOnBoth, players: int) -> list:
    rng = random.Random(11)
    taken = [both.lockstep(state, rng) for state in entries(both, rng, 6)]
    assert sum(t or 0 for t in taken) >= 6 * players, taken  # tricks were played to their end on both
    return taken


@pytest.mark.parametrize(("name", "players"), short_list(WRITTEN))
def test_trick_play_agrees_with_the_python_backend(name, players):
    played_in_lockstep(StepOnBoth(name, players, "tricks"), players)


@pytest.mark.parametrize(("name", "players", "step"), short_list(HOOKED))
def test_trick_play_without_its_steps_agrees_with_the_python_backend(name, players, step):
    with pytest.raises(NotWritten, match="between_plays|after_trick"):  # as the bundled game has it
        StepOnBoth(name, players, step)
    played_in_lockstep(StepOnBoth(str(RULES / f"{name}-no-hooks.yaml"), players, step), players)


def test_a_seat_that_sits_out_is_passed_over():
    both = StepOnBoth("euchre", 4, "tricks")  # seats: every seat but the partner of one who goes alone
    rng = random.Random(7)
    alone = both.states(rng, 3, every=1, where=lambda s: between_tricks(s) and s.pending.step is both.step
                        and s.vars.get("alone") is not None)
    taken = [both.lockstep(state, rng) for state in alone]
    assert all(t is not None and t % 3 == 0 for t in taken), taken  # three seats play each trick


def test_a_led_rule_reads_the_plays_cards():
    played_in_lockstep(StepOnBoth(str(RULES / "spades-led-rule.yaml"), 4, "tricks"), 4)


def test_round_values_per_trick_go_back_to_none_and_a_claim_wins():
    both = StepOnBoth(str(RULES / "meinz-no-hooks.yaml"), 3, "tricks")  # per_trick: [caller]
    rng = random.Random(5)
    for state in entries(both, rng, 3):
        state.vars["caller"] = 1  # (set between plays in the game: gone when a trick starts, on both)
        assert both.lockstep(state, rng)
    claimed = StepOnBoth(str(RULES / "meinz-dealer-claims-no-hooks.yaml"), 3, "tricks")
    for state in entries(claimed, rng, 2):
        assert claimed.lockstep(state, rng)  # (the dealer's tricks counted on both)


def test_numba_compiles_the_trick_template():
    numba_or_skip(everywhere=True)
    # the bundled game without hooks whose trick step uses the most the template writes: takers (one choosing
    # cards), unclaimed, next_leader, otherwise: end; among those, one of the quickest to compile
    both = StepOnBoth(str(RULES / "mit-list-und-tuecke-no-hooks.yaml"), 4, "tricks", compiled=True)
    rng = random.Random(3)
    (state,) = entries(both, rng, 1)
    assert both.lockstep(state, rng)
