"""Deal files on their own: the deck's ``notation`` (engine/notation.py), checked when a rule file is loaded, and
PBN files read by harness/deal_files.py to start a game at a board with the hands it writes."""

from __future__ import annotations

import json
import random

import pytest

from interpreter.api import load
from interpreter.cli import main, validate_file
from interpreter.engine.compile import compile_game
from interpreter.errors import DealFileError, GameError, TrickbookError
from interpreter.harness.deal_files import fixed_deal, parse_boards
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import ROOT

DEAL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
PBN = ROOT / "docs" / "examples" / "deal-file.pbn"
RULES = """\
trickbook: 1
name: tiny-deals
seats: [A, B, C, D]
deck:
  label: "{suit}{rank}"
  cards:
    - suit: [c, d, h, s]
      rank: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]
  notation:
    suits: {by: suit, order: [s, h, d, c]}
    ranks: {by: rank, letters: {A: 14, K: 13, Q: 12, J: 11, T: 10}}
    seats: [A, B, C, D]
players:
  4: {}
zones:
  hand: {per_seat: true, visible: owner}
  stock: {visible: nobody}
  won: {per_seat: true, visible: nobody}
  trick: {visible: all}
game:
  rounds: 3
round:
  deal: {do: deal, hand: HAND, rest: stock}
  tricks: {do: tricks, leader: left(round.dealer), follow: "card.suit == led.suit",
           strength: ["card.suit == led.suit", "card.rank"], to: won}
  score: {do: score, points: seat.tricks}
"""


def rules(tmp_path, hand: int = 13, notation: str | None = None):
    text = RULES.replace("HAND", str(hand))
    if notation is not None:
        start = text.index("  notation:")
        end = text.index("players:")
        text = text[:start] + notation + text[end:]
    path = tmp_path / "tiny-deals.yaml"
    path.write_text(text)
    return path


def pbn(tmp_path, text: str):
    path = tmp_path / "deal.pbn"
    path.write_text(text)
    return path


# ------------------------------------------------------------------ the notation, checked at load

@pytest.mark.parametrize("notation, where, message", [
    ("  notation:\n    suits: {by: colour, order: [s, h, d, c]}\n    ranks: {by: rank}\n", "10:17",
     "notation: 'colour' is not a card attribute"),
    ("  notation:\n    suits: {by: suit, order: [s, h, d, x]}\n    ranks: {by: rank, letters: {A: 14, K: 13, Q: 12, "
     "J: 11, T: 10}}\n", "10:40", "notation: no card of the deck has suit 'x'"),
    ("  notation:\n    suits: {by: suit, order: [s, h, d, c]}\n    ranks: {by: rank, letters: {A: 15}}\n", "11:36",
     "notation: no card of the deck has rank 15"),
    ("  notation:\n    suits: {by: suit, order: [s, h, d]}\n    ranks: {by: rank, letters: {A: 14, K: 13, Q: 12, "
     "J: 11, T: 10}}\n", "10:5", "notation cannot write the card 'c2': its suit 'c' is not in suits.order"),
    ("  notation:\n    suits: {by: suit, order: [s, h, d, c]}\n    ranks: {by: rank, letters: {A: 14, K: 13}}\n",
     "10:5", "notation cannot write the card 'c10': its rank 10 has no letter"),
    ("  notation:\n    suits: {by: suit, order: [s, h, d, c]}\n    ranks: {by: rank, letters: {A: 14, K: 13, Q: 12, "
     "J: 11, T: 10}}\n    seats: [A, B, C, E]\n", "12:22", "notation: 'E' is not a seat"),
    ("  notation:\n    suits: {by: suit, order: [s, h, d, c]}\n    ranks: {by: rank, letters: {'.': 14}}\n", "11:33",
     "not a dot, a hyphen or a space"),
])
def test_a_notation_that_does_not_fit_the_deck_is_refused_with_its_place(tmp_path, notation, where, message):
    path = rules(tmp_path, notation=notation)
    errors = validate_file(str(path))
    assert errors and errors[0].startswith(f"{path}:{where}: error: "), errors
    assert message in errors[0], errors


def test_a_notation_that_writes_two_different_cards_alike_is_refused(tmp_path):
    path = tmp_path / "two-backs.yaml"
    text = RULES.replace("HAND", "13").replace('label: "{suit}{rank}"', 'label: "{back} {suit}{rank}"')
    path.write_text(text.replace("      rank: [2, 3,", "      back: [red, blue]\n      rank: [2, 3,")
                    .replace("players:\n  4: {}", "players:\n  4: {remove: \"card.rank < 8\"}"))
    errors = validate_file(str(path))
    assert len(errors) == 1 and errors[0].startswith(f"{path}:11:5: error: notation writes two different cards "
                                                     "alike, 'red c8' and 'blue c8'"), errors


def test_the_notation_s_seats_default_to_the_first_four(tmp_path):
    path = rules(tmp_path, notation="  notation:\n    suits: {by: suit, order: [s, h, d, c]}\n"
                                    "    ranks: {by: rank, letters: {A: 14, K: 13, Q: 12, J: 11, T: 10}}\n")
    game = compile_game(load_rules(path), 4)
    assert game.notation is not None and game.notation.seats == ("A", "B", "C", "D")


# ------------------------------------------------------------------ reading PBN files

def test_boards_are_parted_by_empty_lines_and_comments_and_other_tokens_are_skipped():
    text = ('% PBN 2.1\n[Event "a \\"quoted\\" event"]\n[Board "1"] ; a comment [Board "9"]\n'
            '{ a comment\n[Board "8"]\n}\n[Deal "' + DEAL + '"]\n[Board "7"]\n[Auction "N"]\n1D 1S Pass\n\n'
            '[Board "2"]\n[Dealer "E"]\n[Deal "' + DEAL + '"]\n   \n\n[Board "3"]\n')
    boards = parse_boards(text, "f.pbn")
    assert [b.tags["Board"].value for b in boards] == ["1", "2", "3"]      # the first of a repeated tag counts
    assert boards[0].tags["Event"].value == 'a "quoted" event'
    assert str(boards[0].tags["Deal"].position) == "f.pbn:7:8"
    assert str(boards[1].position) == "f.pbn:12:1"
    assert "Deal" not in boards[2].tags


@pytest.mark.parametrize("text, where, message", [
    ('[Board "1"]\n{ never closed\n', "2:1", "this comment is not closed with }"),
    ('[Board "1"]\n[Deal ' + DEAL + ']\n', "2:1", 'a tag pair is written [Name "value"]'),
    ('[Board "0"]\n[Deal "' + DEAL + '"]\n', "1:9", "the board number must be a whole number from 1"),
    ('[Board "1"]\n[Dealer "NE"]\n[Deal "' + DEAL + '"]\n', "2:10", "a direction is N, E, S or W"),
    ('[Board "1"]\n[Dealer "N"]\n', "1:1", 'this board has no [Deal "...."] tag'.replace("....", "...")),
])
def test_a_deal_file_s_mistakes_name_file_line_and_column(tmp_path, text, where, message):
    path = pbn(tmp_path, text)
    game = load("bridge", 4).engine
    with pytest.raises(DealFileError) as caught:
        fixed_deal(game, path)
    assert str(caught.value).startswith(f"{path}:{where}: error: {message}"), str(caught.value)


def test_a_board_is_picked_by_its_board_tag(tmp_path):
    path = pbn(tmp_path, '[Board "4"]\n[Deal "' + DEAL + '"]\n\n[Board "11"]\n[Dealer "S"]\n[Deal "' + DEAL + '"]\n')
    game = load("bridge", 4).engine
    first, other = fixed_deal(game, path), fixed_deal(game, path, "11")
    assert (first.hand, first.dealer, other.hand, other.dealer) == (4, None, 11, 2)
    with pytest.raises(TrickbookError, match=r"no board '12' \(its boards: 4, 11\)"):
        fixed_deal(game, path, "12")


# ------------------------------------------------------------------ starting a game from one

def test_the_hands_are_dealt_and_the_cards_left_over_go_to_the_rest_shuffled(tmp_path):
    game = compile_game(load_rules(rules(tmp_path, hand=3)), 4)
    path = pbn(tmp_path, '[Board "2"]\n[Deal "W:.AK..2 AKQ... ..AKQ. ...AKQ"]\n')
    deal = fixed_deal(game, path)
    outs = [play_game(game, seed=seed, record=True, deal=deal) for seed in (1, 2)]
    for out in outs:
        dealt = out.record[1]
        assert out.record[0]["start"]["hand"] == 2 and dealt["round"] == 2
        assert dealt["outcome"]["hand"] == {"A": ["s14", "s13", "s12"], "B": ["d14", "d13", "d12"],
                                            "C": ["c14", "c13", "c12"], "D": ["h14", "h13", "c2"]}
        assert len(dealt["outcome"]["stock"]) == 52 - 12
    assert outs[0].record[1]["outcome"]["stock"] != outs[1].record[1]["outcome"]["stock"]
    assert [r["round"] for r in outs[0].record if r["type"] == "round"] == [2, 3]


def test_a_hand_of_the_wrong_size_for_the_deal_is_refused(tmp_path):
    game = compile_game(load_rules(rules(tmp_path, hand=3)), 4)
    path = pbn(tmp_path, '[Deal "N:AKQ... .AKQ.. ..AKQ. ...AKQJ"]\n')
    with pytest.raises(DealFileError, match=r":1:31: error: D's hand: it has 4 cards; this deal gives 3 to each"):
        play_game(game, seed=1, deal=fixed_deal(game, path))


def test_the_fast_playout_and_the_recorded_game_start_from_the_same_deal(tmp_path):
    game = compile_game(load_rules(rules(tmp_path)), 4)
    deal = fixed_deal(game, pbn(tmp_path, '[Deal "' + DEAL + '"]\n'))
    fast = play_game(game, seed=5, deal=deal)
    recorded = play_game(game, seed=5, deal=deal, record=True)
    assert (fast.totals, fast.round_results) == (recorded.totals, recorded.round_results)


def test_the_api_starts_from_a_deal_file_and_a_saved_state_plays_again(tmp_path):
    game = load("bridge", 4)
    state = game.new_state(seed=3, deal=PBN)
    state.apply("1NT")
    again = game.deserialize(state.serialize())
    assert again.events == state.events and again.labels() == state.labels()
    with pytest.raises(GameError, match="the round and the dealer are the file's"):
        game.new_state(deal=PBN, hand=3)


def test_simulate_and_play_take_a_deal_file_and_board_needs_deal(tmp_path, capsys):
    assert main(["simulate", "bridge", "-p", "4", "-n", "3", "-o", "boards=1", "--deal", str(PBN), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 3
    with pytest.raises(SystemExit) as caught:
        main(["play", "bridge", "-p", "4", "--board", "1", "-q"])
    assert caught.value.code == 2
    assert "--board goes with --deal" in capsys.readouterr().err


def test_a_random_deal_file_game_conserves_cards(tmp_path):
    game = compile_game(load_rules(rules(tmp_path)), 4)
    deal = fixed_deal(game, pbn(tmp_path, '[Deal "' + DEAL + '"]\n'))
    deck = sorted(game.deck)
    out = play_game(game, seed=random.Random(1).random(), deal=deal,
                    after_each=lambda state: sorted(state.all_cards()) == deck or pytest.fail("a card was lost"))
    assert sum(out.totals) == 13 * 3


def test_lower_case_directions_and_letters_are_read_as_pbn_s_import_format_allows(tmp_path):
    game = load("bridge", 4).engine
    upper = fixed_deal(game, pbn(tmp_path, '[Dealer "E"]\n[Deal "' + DEAL + '"]\n'))
    lower = fixed_deal(game, pbn(tmp_path, '[Dealer "e"]\n[Deal "' + DEAL.lower() + '"]\n'))
    assert lower == upper

