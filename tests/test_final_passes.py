"""``choose`` with ``pass_is_final``: an auction where a seat that passes is out (not asked again), its pass kept in
the step's history, and the step over by itself when one seat is left after a bid or all have passed; and
``validate``'s refusals where the option does not compose."""

from __future__ import annotations

import pytest

from interpreter.cli import main, validate_file
from interpreter.engine.observation import observe

from .test_steps import TRICKS, asked, deal, labels, line_of, make, play, rules

N, E, S, W = range(4)

HANDS = (["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])

AUCTION = """\
deal: {do: deal, hand: 3}
bid:
  do: choose
  options: "[v for v in [1, 2, 3, 4, 5, 6] if v > max([h.value for h in history if not h.passed] + [0])]"
  pass: pass
  repeat: true
  pass_is_final: true
  set: bid
  set_chooser: declarer
  set_history: calls
"""

AFTER = """\
seen: {do: set, round: {passes_seen: "0", out: "[h.seat for h in round.calls if h.passed]"}}
"""


def test_a_seat_that_passes_is_not_asked_again_and_the_last_bidder_left_ends_the_auction(tmp_path):
    game = make(tmp_path, AUCTION, AFTER, TRICKS)
    state = game.new_state()
    deal(game, state, *HANDS)
    order = []
    for label in ["pass", "pass", "1", "2", "3", "4", "5", "pass"]:  # E and S pass at once; W and N bid up
        order.append(asked(state))
        play(game, state, label)
    assert order == [E, S, W, N, W, N, W, N]                   # E and S are never asked again
    assert state.pending.step.name == "tricks"                 # N passed: W is left, the auction is over
    assert (state.vars["bid"], state.vars["declarer"]) == (5, W)
    calls = state.vars["calls"]
    assert [(h["seat"], h["value"], h["passed"]) for h in calls] == [
        (E, None, True), (S, None, True), (W, 1, False), (N, 2, False), (W, 3, False), (N, 4, False),
        (W, 5, False), (N, None, True)]
    assert state.vars["out"] == [E, S, N]                      # the history read by an expression of the file


def test_passes_counts_the_seats_out_and_history_shows_the_passes_to_the_step_expressions(tmp_path):
    auction = AUCTION.replace("  set: bid\n", "  set: bid\n  until: \"passes == 2 and len(history) == 3\"\n")
    game = make(tmp_path, auction, TRICKS)
    state = game.new_state()
    deal(game, state, *HANDS)
    play(game, state, "pass", "1")                              # E out, S bids: one pass, not in a row
    assert asked(state) == W and labels(game, state) == ["pass", "2", "3", "4", "5", "6"]
    play(game, state, "pass")                                   # two seats out, three records: the written until
    assert state.pending.step.name == "tricks"
    assert (state.vars["bid"], state.vars["declarer"]) == (1, S)


def test_when_all_pass_the_step_ends_and_the_chooser_is_none(tmp_path):
    game = make(tmp_path, AUCTION, TRICKS)
    state = game.new_state()
    deal(game, state, *HANDS)
    play(game, state, "pass", "pass", "pass")
    assert asked(state) == N and state.pending.step.name == "bid"   # the last seat may still bid
    play(game, state, "pass")
    assert state.pending.step.name == "tricks"
    assert state.vars["declarer"] is None and state.vars["bid"] is None
    assert [h["passed"] for h in state.vars["calls"]] == [True] * 4


def test_the_last_seat_left_without_a_bid_may_bid_and_then_wins(tmp_path):
    game = make(tmp_path, AUCTION, TRICKS)
    state = game.new_state()
    deal(game, state, *HANDS)
    play(game, state, "pass", "pass", "pass", "2")
    assert state.pending.step.name == "tricks" and state.vars["declarer"] == N
    seen = observe(game, state, E)["values"]["calls"]
    assert seen[0] == {"seat": "E", "value": None, "passed": True} and seen[3]["value"] == 2


def test_clones_and_playouts_keep_the_seats_out(tmp_path):
    game = make(tmp_path, AUCTION, TRICKS)
    state = game.new_state()
    deal(game, state, *HANDS)
    play(game, state, "pass", "1")
    clone = state.clone()
    play(game, clone, "pass", "2")
    assert asked(clone) == S and asked(state) == W            # E out in the clone, and the state untouched
    assert state.progress.out == [E] and clone.progress.out == [E, W]


@pytest.mark.parametrize(("extra", "drop", "needle", "message"), [
    ("", "  pass: pass\n", "pass_is_final", "pass_is_final needs pass"),
    ("", "  repeat: true\n", "pass_is_final", "pass_is_final needs repeat"),
    ("  simultaneous: true\n", "", "pass_is_final", "not simultaneous"),
])
def test_validate_refuses_final_passes_where_they_do_not_compose(tmp_path, extra, drop, needle, message):
    text = rules(AUCTION.replace(drop, "") + extra if drop else AUCTION + extra, TRICKS)
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    errors = validate_file(str(path))  # (with simultaneous, repeat may be refused too)
    at = f"{path}:{line_of(text, needle)}:"
    assert [e for e in errors if e.startswith(at) and message in e.split("\n", 1)[0]], errors
    assert main(["validate", str(path)]) == 1


def test_the_step_in_progress_shows_the_passes_by_their_label(tmp_path):
    game = make(tmp_path, AUCTION, TRICKS)
    state = game.new_state()
    deal(game, state, *HANDS)
    play(game, state, "pass", "1")
    shown = state.pending.step.words.public(game, state, state.progress, N)
    assert shown == {"choices": [["E", "pass"], ["S", "1"]]}
