"""A step kind's checks report every mistake they find, not only the first: a step with several independent
mistakes is refused with all of them, in file order, each at its line and column, as the schema reports its own
(engine/steps/options.py collects them, ``finish_steps`` raises them together). A check that would only repeat the
consequence of an earlier mistake (the zone does not exist, so whether it is per-seat cannot be told) is skipped."""

from __future__ import annotations

import re
from pathlib import Path

from interpreter.cli import main, validate_file

from .test_steps import DEAL_3, TRICKS, line_of, rules, write


def refusals(tmp_path: Path, text: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each error ``trickbook validate`` reports for the rule file ``text``."""
    path = write(tmp_path, text, "bad.yaml")
    found = []
    for error in validate_file(str(path)):
        m = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.*)", error)
        assert m, error
        found.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    assert main(["validate", str(path)]) == 1
    return found


def column_of(text: str, line: int, needle: str) -> int:
    """The column (from 1) of ``needle`` in line ``line`` (from 1) of ``text``."""
    return text.splitlines()[line - 1].index(needle) + 1


def test_a_move_reports_cards_with_from_a_bad_expression_and_a_per_seat_zone_without_owner(tmp_path):
    text = rules(DEAL_3, """\
        pass_on:
          do: move
          cards: "first(stokc)"
          from: trick
          to: hand
        """, TRICKS)
    step, cards, to = line_of(text, "do: move"), line_of(text, 'cards: "first'), line_of(text, "to: hand")
    assert refusals(tmp_path, text) == [
        (step, column_of(text, step, "do"), "a move needs either cards: (an expression) or from: (zones), not both"),
        (cards, column_of(text, cards, "stokc"), "unknown name 'stokc' (names here: deck, game, options, players, "
                                                 "round, seats, setup, trick)"),
        (to, column_of(text, to, "hand"), "zone 'hand' belongs to each seat: say whose with owner: (a seat "
                                          "expression) or move for each seat with each:"),
    ]


def test_a_move_to_an_unknown_zone_is_not_also_told_whose_zone_it_is(tmp_path):
    """The zone does not exist, so whether it needs an owner cannot be told: that check is skipped."""
    text = rules(DEAL_3, """\
        pass_on:
          do: move
          from: trick
          to: nowhere
        """, TRICKS)
    to = line_of(text, "to: nowhere")
    assert refusals(tmp_path, text) == [(to, column_of(text, to, "nowhere"),
                                         "unknown zone 'nowhere' (zones: hand, trick, won)")]


def test_a_choose_reports_each_of_its_bad_options(tmp_path):
    text = rules(DEAL_3, """\
        bid:
          do: choose
          options: "[0, 1, bidd]"
          pass: pass
          stop: pass
          repeat: true
        """, TRICKS)
    options, stop, repeat = line_of(text, "options:"), line_of(text, "stop: pass"), line_of(text, "repeat:")
    assert refusals(tmp_path, text) == [
        (options, column_of(text, options, "bidd"), "unknown name 'bidd' (names here: deck, game, history, options, "
                                                    "passes, picked, players, round, seat, seats, setup, trick)"),
        (stop, column_of(text, stop, "pass"), "stop and pass need different labels"),
        (repeat, column_of(text, repeat, "true"), "repeat needs until: the condition that ends the choosing"),
    ]


def test_a_choose_whose_options_cannot_be_read_is_not_told_what_they_must_be(tmp_path):
    """What the options are is unknown, so whether move_to may take them cannot be told: that check is skipped."""
    text = rules(DEAL_3, """\
        bid:
          do: choose
          options: "[0, 1, bidd]"
          move_to: trick
        """, TRICKS)
    options = line_of(text, "options:")
    assert [where[:2] for where in refusals(tmp_path, text)] == [(options, column_of(text, options, "bidd"))]


def test_a_tricks_step_reports_its_leader_its_follow_rule_its_zone_and_its_per_trick_values(tmp_path):
    text = rules(DEAL_3, """\
        tricks:
          do: tricks
          leader: left(round.dealr)
          follow: "card.suit == led.suitt"
          strength: ["card.suit == led.suit", "card.rank"]
          to: won
          trick: hand
          per_trick: [claim]
        """)
    leader, follow = line_of(text, "leader:"), line_of(text, "follow:")
    trick, per_trick = line_of(text, "trick: hand"), line_of(text, "per_trick:")
    assert refusals(tmp_path, text) == [
        (leader, column_of(text, leader, "dealr"), "unknown round value 'dealr' (known: dealer, number)"),
        (follow, column_of(text, follow, "suitt"), "cards have no attribute 'suitt' (they have: copy, label, rank, "
                                                   "suit)"),
        (trick, column_of(text, trick, "hand"), "zone 'hand' belongs to each seat; a shared zone is needed here"),
        (per_trick, column_of(text, per_trick, "claim"), "unknown round value 'claim'"),
    ]


def test_a_deal_reports_its_hand_its_rest_and_its_cards(tmp_path):
    text = rules("""\
        deal:
          do: deal
          hand: setup.hnd
          rest: hand
          cards: "card.colour == 1"
        """, TRICKS)
    hand, rest, cards = line_of(text, "hand: setup"), line_of(text, "rest:"), line_of(text, 'cards: "card')
    assert refusals(tmp_path, text) == [
        (hand, column_of(text, hand, "hnd"), "no field 'hnd' here (fields: none)"),
        (rest, column_of(text, rest, "hand"), "zone 'hand' belongs to each seat; a shared zone is needed here"),
        (cards, column_of(text, cards, "colour"), "cards have no attribute 'colour' (they have: copy, label, rank, "
                                                  "suit)"),
    ]


def test_a_deal_to_a_shared_zone_is_not_also_told_it_needs_a_hand(tmp_path):
    """The zone dealt to is refused as it is read; "a deal needs a per-seat zone" would say it again."""
    text = rules("""\
        deal:
          do: deal
          hand: 3
          to: trick
        """, TRICKS)
    to = line_of(text, "to: trick")
    assert refusals(tmp_path, text) == [(to, column_of(text, to, "trick"),
                                         "zone 'trick' is shared; a zone with per_seat: true is needed here")]


def test_a_board_reports_its_first_seat_and_a_mistake_in_each_row(tmp_path):
    text = rules(DEAL_3, """\
        contract:
          do: board
          first: left(round.dealr)
          rows:
            trump:
              spaces: [x, y, x]
            bid:
              spaces: [1, 2]
              covered: "space > seat.bid"
        """, TRICKS)
    first, spaces, covered = line_of(text, "first:"), line_of(text, "spaces: [x"), line_of(text, "covered:")
    assert refusals(tmp_path, text) == [
        (first, column_of(text, first, "dealr"), "unknown round value 'dealr' (known: bid, dealer, number, trump)"),
        (spaces, column_of(text, spaces, "["), "two spaces of this row have the same label"),
        (covered, column_of(text, covered, "seat.bid"), "unknown name 'seat'; did you mean 'seats'? (names here: "
                                                        "deck, game, options, players, round, seats, setup, space, "
                                                        "trick)"),
    ]


def test_a_repeat_reports_no_steps_and_no_end_together(tmp_path):
    text = rules(DEAL_3, """\
        again:
          do: repeat
          steps: {}
        """, TRICKS)
    step, steps = line_of(text, "do: repeat"), line_of(text, "steps: {}")
    assert refusals(tmp_path, text) == [
        (step, column_of(text, step, "do"), "a repeat needs times: or until: (or both) to end"),
        (steps, column_of(text, steps, "{}"), "a repeat needs steps: the steps to run each time"),
    ]
