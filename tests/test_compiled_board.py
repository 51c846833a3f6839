"""The compiled backend's board template (interpreter/compiled/board_template.py) in lockstep with the Python backend:
NJET's board entered on both from states of random games and played to its end with the same covers
(tests/compiled_steps.py), the round values it sets read back by the later steps' expressions on both; and the
options NJET leaves at their defaults (first, next, coverable, covered) in rule files of the tests' own."""

from __future__ import annotations

import random

import numpy as np
import pytest

from interpreter.compiled.values import NotWritten
from interpreter.engine.steps.action_types import Cover

from .compiled_steps import StepOnBoth, compiled_or_skip
from .conftest import game_of

BOARDS = [("njet-riogrande", 3), ("njet-riogrande", 4), ("njet-riogrande", 5), ("njet-goldsieber", 3),
          ("njet-goldsieber", 4)]

# every option of a board away from NJET's: the dealer first (no first), the turn to the right, a row's last open
# space coverable in some rows, some only on odd rounds, a space covered before play
OPTIONS = """\
trickbook: 1
extends: njet-riogrande
name: board-options
title: A board with every option
round:
  njet:
    first: null
    next: right(seat)
    coverable: "open > 1 if row != 'trump' and row != 'supertrump' else open > 0 if row == 'supertrump'
                else open > 2 or (space != 'black' and round.number % 2 == 1)"
    rows:
      trump: {covered: "space == 'red'"}
"""
# a board with one open space in each row: nothing to cover, the values set as the step starts
SETTLED = """\
trickbook: 1
extends: njet-riogrande
name: board-settled
title: A board with one open space a row
round:
  njet:
    rows:
      start: {covered: "space != last(seats)"}
      cache: {covered: "space.discard != 1"}
      trump: {covered: "space != 'blue'"}
      supertrump: {covered: "space != none"}
      points: {covered: "space != 3"}
"""
LISTED = """\
trickbook: 1
extends: njet-riogrande
name: board-listed
title: A board whose spaces are lists
round:
  njet:
    rows:
      points: {spaces: [{label: few, value: [1, 2]}, {label: many, value: [3]}]}
"""


def later_reads(name: str, players: int) -> list:
    """Expressions of the steps after the board that read the round values it sets (a record's field among them)."""
    steps = {s.name: s for s in game_of(name, players).every_step()}
    return [steps["discard"].when, steps["discard"].count, steps["team_size"].who]


def played(both: StepOnBoth, count: int, seed: int, every: int = 13) -> list[int | None]:
    """The board entered from ``count`` states of random games, one every ``every`` decisions: the covers taken."""
    rng = random.Random(seed)
    return [both.lockstep(state, rng) for state in both.states(rng, count, every=every)]


@pytest.mark.parametrize(("name", "players"), BOARDS)
def test_the_board_agrees_with_the_python_backend(name, players):
    both = StepOnBoth(name, players, "njet", reads=later_reads(name, players))
    taken = played(both, 3, 7)
    # every cover of the board on both, until one space is left in each row
    assert taken == [sum(len(r.values) - 1 for r in both.step.rows)] * 3, taken
    assert all(n >= 3 for n in both.read_counts), both.read_counts  # the values set, read back by expressions


def test_every_option_agrees_with_the_python_backend(tmp_path):
    (tmp_path / "options.yaml").write_text(OPTIONS)
    both = StepOnBoth(str(tmp_path / "options.yaml"), 4, "njet")
    taken = played(both, 6, 3, every=37)  # (in several rounds)
    # start 3 covers, cache 4, supertrump 5 (its last space too), points 4; trump 2 on even rounds, 3 or 4 on odd
    assert set(taken) >= {18, 19} and set(taken) <= {18, 19, 20}, taken


def test_a_board_with_nothing_to_cover_sets_its_values_at_once(tmp_path):
    (tmp_path / "settled.yaml").write_text(SETTLED)
    both = StepOnBoth(str(tmp_path / "settled.yaml"), 4, "njet")
    assert played(both, 2, 5) == [0, 0]  # (the values compared after the start)


def test_an_action_is_a_row_and_a_space():
    both = StepOnBoth("njet-riogrande", 4, "njet")
    width = max(len(r.values) for r in both.step.rows)
    assert both.code.action_of(Cover(2, 3)) == 2 * width + 3
    assert both.code.size == 1 + len(both.step.rows) * width


def test_a_space_that_is_a_list_is_not_written(tmp_path):
    (tmp_path / "listed.yaml").write_text(LISTED)
    with pytest.raises(NotWritten, match="not one number .*'points'"):
        StepOnBoth(str(tmp_path / "listed.yaml"), 4, "njet")


def test_compiled_compiles_the_board_template():
    compiled_or_skip(everywhere=True)
    both = StepOnBoth("njet-goldsieber", 4, "njet", compiled=True)
    assert played(both, 1, 9) == [sum(len(r.values) - 1 for r in both.step.rows)]


def test_the_progress_holds_who_covered_each_space():
    from interpreter.compiled.board_template import OPEN, SHUT, SPACES, TURN

    both = StepOnBoth("njet-riogrande", 3, "njet")
    module, rng = both.module(), random.Random(2)
    (state,) = both.states(rng, 1)
    arrays = both.arrays(state)
    p = np.zeros(both.code.size, np.int64)
    out = np.empty(both.code.size, np.int64)
    module.s_start(*arrays, p)
    assert p[TURN] == state.dealer  # (first: round.dealer)
    who = {}
    while (n := module.s_legal(*arrays, p, out)) > 0:
        action, seat = int(out[rng.randrange(n)]), int(p[TURN])
        who[action] = seat
        module.s_apply(*arrays, p, action)
        assert p[TURN] == (seat + 1) % 3
    width = max(len(r.values) for r in both.step.rows)
    for r, row in enumerate(both.step.rows):
        for i in range(width):
            covered = p[SPACES + r * width + i]
            assert covered == (who.get(r * width + i, OPEN) if i < len(row.values) else SHUT)
