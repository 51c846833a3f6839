"""The errors a game's written code raises in play when the rules give what a step cannot use: each message in
full, with the position it names (the expression's, or the step's), the same on the checked path and in a playout.

The written code makes these from plain data written into it (engine/faults.py): a change of where they are made
must leave every message byte for byte.
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.state import CHANCE
from interpreter.errors import GameError

from .test_steps import DEAL_3, TRICKS, line_of, make, rules

HIDDEN = 'tm: {do: teams, known: own, teams: "[[seats[0], seats[2]], [seats[1], seats[3]]]"}'
PICK_A = "pick: {do: choose, who: \"[seats[0]]\", options: \"['a', 1]\", set: k}"

# (steps of the round, the text of the line the error names, its column, the message after "error: ")
CASES = [
    pytest.param([DEAL_3, 'bid: {do: choose, who: "[seats[0], 7]", options: "[1, 2]", pass: pass}', TRICKS],
                 'who: "[seats[0], 7]"', 27, "who must give seats, got (0, 7)", id="who"),
    pytest.param([DEAL_3, 'bid: {do: choose, options: "first([none, [1]])", pass: pass}', TRICKS],
                 "first([none, [1]])", 31, "options must give a list, got None", id="options"),
    pytest.param([DEAL_3, 'bid: {do: choose, who: "[seats[0]]", options: "[1, 2]", allowed: "value not in picked", '
                          'count: 3, stop: done, may_stop: "len(picked) == 3"}', TRICKS],
                 "bid:", 8, "step 'bid': N picked 1 + 2, may not stop there (may_stop) and has nothing allowed left "
                 "to pick", id="may_stop"),
    pytest.param([DEAL_3, 'mv: {do: move, cards: "[first(seats[0].hand), first(seats[0].hand)]", to: won, '
                          'owner: "seats[1]"}', TRICKS],
                 "mv:", 26, "a card is named twice in (7, 7)", id="move-twice"),
    pytest.param([DEAL_3, 'mv: {do: move, cards: "[first(seats[0].hand), 99]", to: won, owner: "seats[1]"}', TRICKS],
                 "mv:", 26, "cards must give cards, got (7, 99)", id="move-cards"),
    # the seat of a move to a per-seat zone from `each` (no owner): a value there that is no seat is refused at the
    # each expression's position (it once named the step's path, ('round', 'mv'), not a place in the file)
    pytest.param([DEAL_3, 'mv: {do: move, each: "[seats[1], 7]", cards: "last(seats[0].hand) if seat == seats[1] '
                          'else first(seats[0].hand)", to: won}', TRICKS],
                 "mv:", 25, "a move to 'won' needs a seat, got 7", id="move-each-no-seat"),
    pytest.param([DEAL_3, 'tm: {do: teams, teams: "[[seats[0]], [seats[1]]]"}', TRICKS],
                 "tm:", 27, "every seat must be in exactly one team, got ((0,), (1,))", id="teams-seats"),
    pytest.param([DEAL_3, 'tm: {do: teams, teams: "[seats[0]]"}', TRICKS],
                 "tm:", 27, "teams must be a list of lists of seats, got (0,)", id="teams-lists"),
    pytest.param([DEAL_3, HIDDEN, "rv: {do: reveal, seats: \"[seats[0], 'a']\"}", TRICKS],
                 "rv:", 28, "reveal's seats must be seats, got (0, 'a')", id="reveal"),
    pytest.param([DEAL_3, HIDDEN, 'rv: {do: reveal, seats: "[seats[0], 7]"}', TRICKS],
                 "rv:", 28, "reveal's seats must be seats, got (0, 7)", id="reveal-no-seat"),
    pytest.param([DEAL_3, 'rows: {do: repeat, times: "round.number * 5000", steps: {s: {do: set, round: {a: "1"}}}}',
                  TRICKS],
                 "rows:", 30, "times must be a whole number from 0 to 1000, got 5000", id="repeat-times"),
    pytest.param([DEAL_3, 'rows: {do: repeat, until: "round.a == 2", steps: {s: {do: set, round: {a: "1"}}}}', TRICKS],
                 "rows:", 9, "step 'rows' ran 1000 times; its until never held", id="repeat-until"),
    pytest.param([DEAL_3, TRICKS.replace("to: won", 'to: won\n  seats: "[seats[2], seats[3]]"')],
                 'seats: "[seats[2]', 13, "seats must give seats that include the leader, got [2, 3]",
                 id="trick-seats"),
    pytest.param([DEAL_3, TRICKS.replace("left(round.dealer)", "seats[0]").replace(
        "to: won", 'to: won\n  next_leader: "seats[3] if len(seats[0].won) > 0 else none"\n'
                   '  seats: "[seats[0], seats[1], seats[2]]"')],
                 "next_leader:", 19, "next_leader must give a seat that plays (or none for the winner), got 3",
                 id="next-leader"),
]


def _checked(game, seed: int) -> None:
    """The game played through the checked path (chance drawn, the first action taken) until it ends."""
    rng, state = random.Random(seed), game.new_state()
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, d.actions[0])


@pytest.mark.parametrize("steps, needle, column, message", CASES)
def test_a_value_a_step_cannot_use_stops_play_naming_its_place(tmp_path, steps, needle, column, message):
    text = rules(*steps)
    game = make(tmp_path, *steps)
    said = f"{tmp_path / 'tiny.yaml'}:{line_of(text, needle)}:{column}: error: {message}"
    with pytest.raises(GameError) as checked:
        _checked(game, 1)
    assert str(checked.value) == said
    with pytest.raises(GameError) as played:
        game.playout(game.new_state(), random.Random(1))
    assert str(played.value) == said
