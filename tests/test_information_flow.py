"""validate's information-flow check (engine/information_flow.py): a value, status line or narration every seat (or
one seat) is shown that reads what that seat cannot see is a warning naming the value and the hidden source, at its
place in the file; what is not hidden (counts, played cards, a seat's own hand, choices told to the table, the
round's end) is not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.cli import main, validate_file, validate_warnings

from .conftest import ROOT

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))

# a small game of tricks; STEPS (the tricks' between_plays), TABLE and AFTER (steps after the tricks, before the
# last choice of the round) are filled by each test
GAME = """\
trickbook: 1
name: flow
title: Information flow

seats: [Ann, Bob, Cid]

deck:
  label: "{suit} {rank}"
  cards:
    - suit: [red, blue]
      rank: [1, 2, 3, 4]

players:
  3: {}

zones:
  hand:  {per_seat: true, visible: owner}
  stock: {visible: nobody}
  trick: {visible: all}
  won:   {per_seat: true, visible: nobody}
  shown: {per_seat: true, visible: all}

game:
  rounds: 1

table:
TABLE

round:
  deal: {do: deal, hand: 2, rest: stock}
  tricks:
    do: tricks
    leader: left(round.dealer)
    follow: "card.suit == led.suit"
    strength: ["card.suit == led.suit", "card.rank"]
    between_plays:
      nothing: {do: set, round: {plays: "len(trick)"}, narrate: false}
STEPS
    to: won
AFTER
  again: {do: choose, options: "['yes', 'no']", set_seat: again}
  score: {do: score, points: "seat.tricks + len(seat.hand) + len(stock)", explain: "text(seat.hand)"}
"""


def _file(tmp_path: Path, steps: str = "", table: str = "  - {title: plays, show: round.plays}",
          after: str = "") -> str:
    path = tmp_path / "flow.yaml"
    path.write_text(GAME.replace("TABLE", table).replace("STEPS", steps).replace("AFTER", after))
    assert validate_file(str(path)) == []
    return str(path)


def _warnings(path: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each warning."""
    out = []
    for block in validate_warnings(path):
        head = block.split("\n", 1)[0]
        found = re.match(r"^.*:(\d+):(\d+): warning: (.*)$", head)
        assert found, head
        out.append((int(found[1]), int(found[2]), found[3]))
    return out


def _at(path: str, needle: str) -> tuple[int, int]:
    """The line and column of ``needle`` in the file."""
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(needle)


# ---------------------------------------------------------------- the leaky shape and its fixed forms

LEGAL = "[c for c in left(player).hand if c.suit == led.suit]"  # the next seat's legal plays


def test_a_public_round_value_of_the_next_seats_legal_plays_warns_naming_the_value_and_the_hand(tmp_path):
    path = _file(tmp_path, f'      legal: {{do: set, round: {{legal: "{LEGAL}"}}}}')
    ((line, col, message),) = _warnings(path)
    assert (line, col) == _at(path, "left(player).hand")  # the caret at the read
    assert message.startswith("round value 'legal' is told to every seat, but it reads the cards of a seat's "
                              "'hand' (visible: owner), which only that seat sees;")
    assert "discloses: true" in message and "visible: owner" in message


def test_the_leak_shows_as_a_warning_validate_passes_and_strict_fails(tmp_path, capsys):
    path = _file(tmp_path, f'      legal: {{do: set, round: {{legal: "{LEGAL}"}}}}')
    assert main(["validate", path]) == 0
    out = capsys.readouterr()
    assert out.out == f"{path}: ok (1 warning)\n"
    first, source, caret = out.err.splitlines()
    assert ": warning: round value 'legal'" in first and "left(player).hand" in source
    assert source.index("left(player)") == caret.index("^")
    assert main(["validate", "--strict", path]) == 1
    out = capsys.readouterr()
    assert out.out == "" and f"{path}: 1 warning (--strict: a warning fails)" in out.err


def test_the_warning_docs_rule_files_md_shows_is_what_validate_says(tmp_path):
    path = _file(tmp_path, f'      legal: {{do: set, round: {{legal: "{LEGAL}"}}}}')
    (block,) = validate_warnings(path)
    doc = (ROOT / "docs" / "rule-files.md").read_text(encoding="utf-8")
    assert block.replace(path, "my-game.yaml") in doc


@pytest.mark.parametrize("fixed", [
    # each seat's own legal plays, seen by that seat alone
    '      legal: {do: set, visible: owner, seats: {legal: "[c for c in seat.hand if c.suit == led.suit]"}}',
    # worked out from the cards played
    '      legal: {do: set, round: {legal: "[c for c in trick if c.suit == led.suit]"}}',
    # how many cards the next seat holds: every seat sees the counts
    '      legal: {do: set, round: {legal: "len(left(player).hand)"}}',
    # the rules tell it to everyone
    f'      legal: {{do: set, round: {{legal: "{LEGAL}"}}, discloses: true}}',
])
def test_the_fixed_forms_do_not_warn(tmp_path, fixed):
    assert _warnings(_file(tmp_path, fixed)) == []


def test_a_per_seat_value_its_seat_alone_sees_warns_when_it_reads_another_seats_hand(tmp_path):
    path = _file(tmp_path, '      peek: {do: set, visible: owner, seats: {peek: "left(seat).hand"}}')
    ((_, _, message),) = _warnings(path)
    assert message.startswith("per-seat value 'peek' is shown to its seat, but it reads the cards of a seat's 'hand'")


def test_a_public_value_reading_the_stock_or_a_hidden_value_or_a_hidden_choice_warns(tmp_path):
    after = ("  secret: {do: choose, who: round.dealer, options: \"['up', 'down']\", visible: owner, set: secret}\n"
             "  told: {do: set, round: {told: \"round.secret == 'up'\"}}")
    path = _file(tmp_path, '      top: {do: set, round: {top: "first(stock)"}}\n'
                           '      mine: {do: set, visible: owner, seats: {best: "max([c.rank for c in seat.hand])"}}\n'
                           '      best: {do: set, round: {best: "max(s.best for s in seats)"}}', after=after)
    found = _warnings(path)
    assert [m.split(",")[0] for _, _, m in found] == ["round value 'top' is told to every seat",
                                                      "round value 'best' is told to every seat",
                                                      "round value 'told' is told to every seat"]
    assert "the cards of 'stock' (visible: nobody), which no seat sees" in found[0][2]
    assert "a seat's value 'best' (visible: owner), which only that seat sees" in found[1][2]
    assert "round.secret (chosen with visible: owner), which only the seat that chose it sees" in found[2][2]


# ---------------------------------------------------------------- status lines and narration


def test_a_status_line_reading_another_seats_hand_warns_and_the_seats_own_does_not(tmp_path):
    table = ("  - {title: your cards, show: seat.hand}\n"
             "  - {title: cards left, show: len(left(seat).hand), each: true}\n"
             "  - {title: next seat holds, show: left(seat).hand}\n"
             "  - {title: everyone's red cards, show: \"[c for c in seat.hand if c.suit == 'red']\", each: true}\n"
             "  - {title: your reds, show: \"'yes'\", when: \"any(c.suit == 'red' for c in seat.hand)\"}\n"
             "  - {title: next has reds, show: \"'yes'\", when: \"any(c.suit == 'red' for c in left(seat).hand)\"}")
    path = _file(tmp_path, table=table)
    found = _warnings(path)
    assert [(line, m.split(",")[0]) for line, _, m in found] == [
        (_at(path, "next seat holds")[0], "status line 'next seat holds' shows its value to the seat looking"),
        (_at(path, "everyone's red")[0], "status line 'everyone's red cards' shows every seat's value to each seat"),
        (_at(path, "next has reds")[0], "whether status line 'next has reds' is shown tells the seat looking")]
    assert all("the cards of a seat's 'hand'" in m for _, _, m in found)


def test_a_status_line_that_discloses_does_not_warn(tmp_path):
    path = _file(tmp_path, table="  - {title: next seat holds, show: left(seat).hand, discloses: true}")
    assert _warnings(path) == []


def test_a_narration_line_reading_another_seats_hand_warns(tmp_path):
    after = ("  tell: {do: choose, options: \"['yes', 'no']\", who: round.dealer,\n"
             "         describe: \"'says ' + value + ', next holds ' + text(left(seat).hand)\"}")
    path = _file(tmp_path, after=after)
    ((line, col, message),) = _warnings(path)
    assert (line, col) == _at(path, "left(seat).hand")
    assert message.startswith("step 'tell' tells its narration (describe) to every seat, but it reads the cards "
                              "of a seat's 'hand'")


def test_a_narration_line_telling_the_choosers_own_hand_or_the_value_chosen_does_not_warn(tmp_path):
    after = ("  tell: {do: choose, options: \"['yes', 'no']\", who: round.dealer,\n"
             "         label: \"value + ' with ' + text(len(seat.hand)) + ' cards'\",\n"
             "         describe: \"'says ' + value + ' holding ' + text(seat.hand)\"}")
    assert _warnings(_file(tmp_path, after=after)) == []


# ---------------------------------------------------------------- what is not hidden


def test_won_tricks_face_down_are_cards_every_seat_has_seen(tmp_path):
    table = "  - {title: red cards won, show: \"count(c.suit == 'red' for c in seat.won)\", each: true}"
    assert _warnings(_file(tmp_path, table=table)) == []


def test_a_pile_that_gets_a_hidden_card_is_hidden(tmp_path):
    table = "  - {title: red cards won, show: \"count(c.suit == 'red' for c in seat.won)\", each: true}"
    after = "  bury: {do: move, cards: first(stock), to: won, owner: round.dealer}"
    ((_, _, message),) = _warnings(_file(tmp_path, table=table, after=after))
    assert "the cards of a seat's 'won' (visible: nobody), which no seat sees (step 'bury' puts cards there from " \
           "'stock')" in message


def test_values_worked_out_at_the_rounds_end_do_not_warn(tmp_path):
    # the score reads every hand and the stock (GAME's score step), and a value after the last choice reads a hand
    path = _file(tmp_path)
    text = Path(path).read_text().replace("  score: {", "  rest: {do: set, round: {rest: first(stock)}}\n  score: {")
    Path(path).write_text(text)
    assert validate_file(path) == [] and _warnings(path) == []


def test_a_define_reads_the_seat_it_is_given(tmp_path):
    table = ("  - {title: reds, show: reds(seat)}\n  - {title: next reds, show: reds(left(seat))}\n"
             "define:\n  reds(s): \"[c for c in s.hand if c.suit == 'red']\"")
    path = _file(tmp_path, table=table)
    ((line, col, message),) = _warnings(path)
    assert (line, col) == _at(path, "reds(left(seat))")
    assert "'hand' (visible: owner), which only that seat sees (through reds())" in message


def test_hidden_teams_read_in_a_public_value_warn(tmp_path):
    after = ("  teams: {do: teams, teams: \"[[round.dealer], [s for s in seats if s != round.dealer]]\", known: own}\n"
             "  partner: {do: set, round: {alone: \"len(team(left(round.dealer))) == 1\"}}")
    ((_, _, message),) = _warnings(_file(tmp_path, after=after))
    assert "the true teams (team()), which a teams step hides" in message


# ---------------------------------------------------------------- the bundled games and the docs' examples


def test_every_bundled_game_and_docs_example_validates_without_a_warning():
    files = sorted((ROOT / "games").glob("*.yaml")) + EXAMPLES
    assert len(files) > 30
    assert {str(f): validate_warnings(str(f)) for f in files} == {str(f): [] for f in files}


def test_the_web_lobby_accepts_a_rule_file_with_warnings_and_shows_them(tmp_path):
    pytest.importorskip("starlette")
    from interpreter.web.lobby import Lobby

    text = GAME.replace("TABLE", "  - {title: next seat holds, show: left(seat).hand}").replace("STEPS", "") \
        .replace("AFTER", "")
    lobby = Lobby(tmp_path)
    for _ in range(2):  # sent again: the file kept, its warnings told again
        info = lobby.check_rules(text, "a")
        assert "errors" not in info and info["players"] == [3]
        ((warning,),) = [info["warnings"]]
        assert warning["line"] == text.splitlines().index("  - {title: next seat holds, show: left(seat).hand}") + 1
        assert warning["message"].startswith("status line 'next seat holds' shows its value to the seat looking")
        assert warning["source"].endswith("left(seat).hand}") and warning["caret"].endswith("^")
    assert "warnings" not in lobby.check_rules(text.replace("left(seat).hand", "seat.hand"), "a")
