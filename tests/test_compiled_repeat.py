"""The compiled backend's repeat template (interpreter/compiled/repeat_template.py) in lockstep with the Python
backend: a repeat entered on both from states of random games and played to its end with the same actions
(tests/compiled_steps.py), every zone and value compared after each; whole games with a repeat on the machine
(tests/compiled_games.py); and what it does not write, said (NotWritten)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.compiled.arrays import array_layout
from interpreter.compiled.kinds import step_code
from interpreter.compiled.lower import Lowerer
from interpreter.compiled.machine import Machine
from interpreter.compiled.steps import Writing
from interpreter.compiled.values import NotWritten, Values
from interpreter.engine.steps.action_types import Choice, Pass

from .compiled_games import lockstep_game
from .compiled_steps import StepOnBoth, compiled_or_skip
from .conftest import ROOT, game_of
from .test_steps import TRICKS, make

ZONES = "stock: {visible: nobody}\nrow: {visible: all}\nout: {visible: all}"

# a repeat a number of times, counted in round.row: a row laid, one seat picks a card of it, the rest cleared
ROWS = """\
rows:
  do: repeat
  times: 3
  set: row
  steps:
    lay: {do: move, cards: "slice(stock, 0, 2)", to: row}
    pick: {do: choose, who: "[seats[round.row]]", options: row, move_to: hand}
    clear: {do: move, from: row, to: out}
"""

# a repeat of every kind it may hold: times worked out at its start, until, steps passed over by their when, a
# choice of texts with a pass, a choice of cards by every seat with a pass, teams set, a value set
MIXED = """\
rounds:
  do: repeat
  times: "round.number + 1"
  until: "len(stock) < 2"
  set: time
  steps:
    lay: {do: move, cards: "slice(stock, 0, 2)", to: row}
    bid: {do: choose, who: "left(round.dealer)", options: "['low', 'high']", pass: skip, set: call,
          set_chooser: caller}
    odd: {do: choose, when: "round.time % 2 == 1", who: "seats_from(round.dealer)", options: row, move_to: hand,
          pass: leave}
    partner: {do: teams, when: "round.call == 'high'",
              teams: "[[round.caller, left(left(round.caller))], [left(round.caller), right(round.caller)]]"}
    mark: {do: set, round: {marks: "round.time * 10 + len(row)"}}
    clear: {do: move, from: row, to: out}
"""

# until alone: a card offered until the stock is empty (a skip leaves it for the next time)
UNTIL = """\
rows:
  do: repeat
  until: "len(stock) == 0"
  steps:
    pick: {do: choose, who: "[left(round.dealer)]", options: "[first(stock)]", pass: skip, move_to: hand}
"""

# times worked out as 0 in the first round (nothing runs), 1 and 2 later; a step that decides nothing between
LATER = """\
rows:
  do: repeat
  times: "round.number - 1"
  set: row
  steps:
    pick: {do: choose, who: "left(round.dealer)", options: "[first(stock)]", pass: skip, move_to: hand}
    count: {do: set, round: {picked: "round.row * 10 + len(stock)"}}
"""


def repeat_game(tmp_path: Path, body: str, deal: str = "deal: {do: deal, hand: 1, rest: stock}"):
    return make(tmp_path, deal, body, TRICKS, zones=ZONES, game="rounds: 3")


@pytest.mark.parametrize("body", [ROWS, MIXED, UNTIL, LATER], ids=["times", "mixed", "until", "later"])
def test_a_repeat_agrees_with_the_python_backend_from_states_of_random_games(tmp_path, body):
    game = repeat_game(tmp_path, body)
    (step,) = [s for s in game.steps if s.kind == "repeat"]
    both = StepOnBoth(game, 4, step.name)
    rng = random.Random(5)
    taken = [both.lockstep(state, rng) for state in both.states(rng, 8, every=2)]
    assert sum(t or 0 for t in taken) >= 8, taken  # its decisions were taken on both, to its end


@pytest.mark.parametrize("body", [ROWS, MIXED, UNTIL, LATER], ids=["times", "mixed", "until", "later"])
def test_whole_games_with_a_repeat_agree_with_the_python_backend(tmp_path, body):
    machine = Machine(repeat_game(tmp_path, body))
    assert sum(lockstep_game(machine, seed) for seed in range(4)) > 12


def before_the_rows(both: StepOnBoth, rng: random.Random, count: int) -> list:
    """``count`` states of random games of was-sticht just before its rows: taken at the first pick of the first
    row, the row's four cards put back on top of the stock they were laid from (its round values as the start of
    the rows found them: no row counted yet)."""
    def first_pick(state) -> bool:
        return state.pending.step.name == "take" and state.vars["row"] == 1 and len(state.shared["row"]) == 4

    out = both.states(rng, count, every=1, where=first_pick)
    for state in out:
        state.shared["stock"][:0] = state.shared["row"]
        state.shared["row"].clear()
        state.vars["row"] = None
    return out


@pytest.mark.parametrize("players", [3, 4])
def test_was_stichts_rows_agree_with_the_python_backend(players):
    """The rows of the draft, nine times: a move, a choice of every seat in turn (the picks' history kept, which the
    hint reads), a move and two sets."""
    both = StepOnBoth("was-sticht", players, "rows")
    rng = random.Random(3)
    (state,) = before_the_rows(both, rng, 1)
    assert both.lockstep(state, rng) == 9 * players  # every seat took a card of each of the nine rows, on both


# two choices in one repeat, of cards and of numbers, in a deck with identical cards (a card's kind is not its id)
TWO_CHOICES = """\
rows:
  do: repeat
  times: 2
  steps:
    pick: {do: choose, who: "left(round.dealer)", options: stock, move_to: hand}
    count: {do: choose, who: "left(round.dealer)", options: "[0, 1, 2, 3]", pass: none of them, set: n}
"""
TWINS = "deck:\n  label: \"{suit}{rank}\"\n  cards:\n    - {suit: [x, y, z], rank: [1, 1, 2, 3, 4]}\n"


def twins_game(tmp_path: Path):
    return make(tmp_path, "deal: {do: deal, hand: 1, rest: stock}", TWO_CHOICES, TRICKS, zones=ZONES, deck=TWINS)


def test_choices_of_cards_and_of_numbers_in_one_repeat_agree_with_the_python_backend(tmp_path):
    both = StepOnBoth(twins_game(tmp_path), 4, "rows")
    rng = random.Random(2)
    taken = [both.lockstep(state, rng) for state in both.states(rng, 4, every=1)]
    assert sum(t or 0 for t in taken) >= 12, taken


def test_an_action_is_mapped_through_the_step_that_decides_it(tmp_path):
    """A choice's value is read as its step's (a card's kind, a number itself); given without its step, an action
    both could take alike is taken, one they would take differently is refused."""
    game = twins_game(tmp_path)
    lay = array_layout(game)
    code = step_code(game.steps[1], Writing(lay, Lowerer(lay, Values()), "s1", 0))
    pick, count = game.steps[1].inner
    later = next(c for c in game.deck if lay.layout.kind[c] != c)  # a copy of x1: the first's kind
    assert code.action_of is not None
    assert code.action_of(Choice(later, "x"), pick) == lay.layout.kind[later]
    assert code.action_of(Choice(2, "2"), count) == 2
    assert code.action_of(Pass("none of them")) == code.action_of(Pass("none of them"), count)
    assert code.action_of(Choice(0, "0")) == 0  # (card 0 is the first of its kind: both read it as 0)
    assert code.action_of(Choice(len(game.deck) + 5, "many")) == len(game.deck) + 5  # (no card: a number only)
    with pytest.raises(NotWritten, match="without the step"):
        code.action_of(Choice(later, "x"))


HELD_UNWRITTEN = """\
rows:
  do: repeat
  times: 2
  steps:
    pairs: {do: choose, who: "left(round.dealer)", options: "[slice(stock, 0, 2)]", pass: none}
"""


def test_what_a_held_step_does_not_write_is_the_repeats(tmp_path):
    with pytest.raises(NotWritten, match="a list where one value is needed"):  # (a list of lists sliced in play)
        Machine(repeat_game(tmp_path, HELD_UNWRITTEN))


def test_compiled_plays_whole_games_with_a_repeat_in_lockstep(tmp_path):
    compiled_or_skip(everywhere=True)
    machine = Machine(repeat_game(tmp_path, MIXED), compiled=True)
    assert lockstep_game(machine, 0) > 0


@pytest.mark.parametrize(("name", "players"), [("tichu", 4), (str(ROOT / "docs" / "examples" / "climbing.yaml"), 4)],
                         ids=["tichu", "climbing"])
def test_a_climb_is_written_as_the_repeat_it_is(name, players):
    """A climb runs as a repeat of the steps it writes (engine/steps/climb.py): the repeat template writes it, its
    turn's combinations builtins by the support written once for the game (compiled/combination_calls.py)."""
    game = game_of(name, players)
    (climb,) = [s for s in game.steps if s.kind == "climb"]
    lay = array_layout(game)
    code = step_code(climb, Writing(lay, Lowerer(lay, Values()), "s0", 0))
    assert code.decides
    called = {c.name for e in code.expressions for c in e.calls}
    assert "cb_support" in called
