"""The compiled backend's tricks template (interpreter/compiled/trick_template.py) in lockstep with the Python backend:
trick play entered on both from states of random games and played to its end with the same cards, and the same
actions of the steps it runs between plays and after a trick (tests/compiled_steps.py)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from interpreter.compiled.lower import Lowerer
from interpreter.compiled.steps import Writing
from interpreter.compiled.trick_template import TrickWriter
from interpreter.compiled.values import NotWritten

from .compiled_steps import StepOnBoth, compiled_or_skip, short_list
from .conftest import ROOT

# every bundled game whose trick step runs no steps of its own, at the fewest players and at 4
WRITTEN = [("euchre", 4), ("hearts", 4), ("mue", 3), ("mue", 4), ("mue-riogrande", 4), ("njet-goldsieber", 3),
           ("njet-goldsieber", 4), ("njet-riogrande", 2), ("njet-riogrande", 4), ("oh-hell", 3), ("oh-hell", 4),
           ("spades", 4)]
# the others, with the steps they run between plays and after a trick (trick_template_hooks.py)
RULES = Path(__file__).parent / "data" / "compiled_tricks"
HOOKED = [("bridge", 4, "play"), ("skat", 3, "tricks"), ("skat", 4, "tricks"), ("was-sticht", 3, "tricks"),
          ("was-sticht", 4, "tricks"), ("whist", 4, "tricks")]
# those whose steps have a part the compiled backend does not write yet; until it does, their trick play with those
# steps taken out (tests/data/compiled_tricks): what the template writes of them (several zones with decided_by,
# per_trick, takers with unclaimed, seats...)
HOOKS_MISSING = [("doppelkopf", 4, "tricks"), ("meinz", 3, "tricks"), ("meinz", 4, "tricks"),
                 ("mit-list-und-tuecke", 4, "tricks")]
# and of those, their steps but for the part not written (tests/data/compiled_tricks), choices among them
MOST_HOOKS = [("doppelkopf-hooks", 4), ("meinz-calls", 4)]


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
def test_trick_play_with_its_steps_agrees_with_the_python_backend(name, players, step):
    played_in_lockstep(StepOnBoth(name, players, step), players)


@pytest.mark.parametrize(("name", "players", "step"), short_list(HOOKS_MISSING))
def test_trick_play_without_its_steps_agrees_with_the_python_backend(name, players, step):
    try:
        both = StepOnBoth(name, players, step)
    except NotWritten as e:  # (a part of one of its steps: the message names the step, and the trick's option)
        assert re.search(r"in '\w+', a step of a trick's (between_plays|after_trick)", str(e)), e
    else:  # (the parts its steps missed are written now: the game belongs in HOOKED)
        played_in_lockstep(both, players)
    played_in_lockstep(StepOnBoth(str(RULES / f"{name}-no-hooks.yaml"), players, step), players)


@pytest.mark.parametrize(("name", "players"), MOST_HOOKS)
def test_the_steps_of_a_trick_but_a_part_not_written_agree_with_the_python_backend(name, players):
    both = StepOnBoth(str(RULES / f"{name}.yaml"), players, "tricks")
    taken = noting_actions(both)
    played_in_lockstep(both, players)
    assert taken["Choice"] > 0 and taken["Pass"] > 0, taken


def test_steps_run_between_plays_and_after_a_trick_see_the_names_the_trick_binds():
    """Steps between plays note player, trick, trick_seats and led, steps after a trick winner, takers, last_trick
    and trick_seats, in round values compared after every action (a trick shared by two takers, one choosing
    cards); one after a trick decides (a choice, or a pass), its when read from winner."""
    both = StepOnBoth(str(RULES / "hook-names.yaml"), 4, "tricks")
    taken = noting_actions(both)
    played_in_lockstep(both, 4)
    assert {"Play", "Take", "Choice", "Pass"} <= set(taken), taken


def test_a_step_between_plays_decides():
    both = StepOnBoth(str(ROOT / "docs" / "examples" / "claims.yaml"), 3, "tricks")  # a claim, then won_by
    taken = noting_actions(both)
    played_in_lockstep(both, 3)
    assert taken["Choice"] > 0 and taken["Pass"] > 0, taken


def test_a_step_between_plays_moves_cards_the_next_play_is_made_from():
    both = StepOnBoth("bridge", 4, "play")  # the dummy's hand laid down after the opening lead, played by declarer
    rng = random.Random(2)
    first = both.states(rng, 2, every=1, games=40, where=lambda s: s.pending.step is both.step
                        and all(len(hand) == 13 for hand in s.per_seat["hand"]))
    assert len(first) == 2 and all(both.lockstep(state, rng) == 52 for state in first)


def test_a_trick_without_steps_of_its_own_has_no_code_for_them():
    """Trick play with no steps between plays or after a trick is written as before: no slot, no test of one."""
    plain = StepOnBoth("hearts", 4, "tricks")
    hooked = StepOnBoth(str(RULES / "hook-names.yaml"), 4, "tricks")
    assert "hook" not in plain.code.source and "enter_" not in plain.code.source
    assert "_hook_apply" in hooked.code.source and "_enter_after" in hooked.code.source
    regions = TrickWriter(plain.step, Writing(plain.lay, Lowerer(plain.lay, plain.values), "s", 0)).regions
    assert plain.code.size == regions.size


def noting_actions(both: StepOnBoth) -> Counter:
    """The kinds of the Python backend's actions the lockstep maps (every action offered), counted as it goes."""
    taken: Counter = Counter()
    mapping = both.code.action_of
    assert mapping is not None

    def noted(action, *step):
        taken[type(action).__name__] += 1
        return mapping(action, *step)

    both.code.action_of = noted
    return taken


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


# the steps a trick runs; and the bundled game without hooks whose trick step uses the most the template writes:
# takers (one choosing cards), unclaimed, next_leader, otherwise: end (among those, one of the quickest to compile)
@pytest.mark.parametrize("rules", ["hook-names.yaml", "mit-list-und-tuecke-no-hooks.yaml"])
def test_compiled_compiles_the_trick_template(rules):
    compiled_or_skip(everywhere=True)
    both = StepOnBoth(str(RULES / rules), 4, "tricks", compiled=True)
    rng = random.Random(3)
    (state,) = entries(both, rng, 1)
    assert both.lockstep(state, rng)
