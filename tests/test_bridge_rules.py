"""Contract Bridge: the Laws of Duplicate Bridge 2017 (World Bridge Federation) as exact tests of games/bridge.yaml,
and a published deal read from a Portable Bridge Notation file (tests/data/schiphol-1995.pbn).

The scores are Law 77's table worked out for each case (the contract trick points, the game, part-score, slam and
"insult" bonuses, overtricks and undertricks); each is produced by the rule file's own score step from a state put
at the end of the play (contract, declarer, board and tricks set as the auction and the play would leave them)."""

from __future__ import annotations

import pytest

from interpreter.api import load
from interpreter.cli import main
from interpreter.errors import IllegalAction

from .conftest import ROOT, game_of

N, E, S, W = 0, 1, 2, 3
PBN = ROOT / "tests" / "data" / "schiphol-1995.pbn"
# Law 2: the vulnerability of boards 1 to 16 (and again from 17)
VULNERABLE = ["None", "NS", "EW", "Both", "NS", "EW", "Both", "None",
              "EW", "Both", "None", "NS", "Both", "None", "NS", "EW"]
DEALER = ["North", "East", "South", "West"]


def bid_and_risk(contract: str) -> tuple[str, int]:
    """'4S' -> ('4S', 0); '1NTX' -> ('1NT', 1: doubled); '7NTXX' -> ('7NT', 2: redoubled)."""
    bid = contract.rstrip("X")
    return bid, len(contract) - len(bid)


def board_score(contract: str, taken: int, vulnerable: bool, declarer: int = S) -> list[int]:
    """The board's score (by seat) for ``contract`` played by ``declarer`` whose side took ``taken`` tricks,
    on a board where the declaring side is (not) vulnerable: the rule file's score step, run from the end of play."""
    game = game_of("bridge", 4)
    ns = declarer % 2 == 0
    board = {(True, True): 2, (True, False): 1, (False, True): 3, (False, False): 1}[(ns, vulnerable)]
    state = game.new_state(hand=board)
    bid, risk = bid_and_risk(contract)
    state.teams = [0, 1, 0, 1]
    state.counters["tricks"] = [0, 0, 0, 0]
    state.counters["tricks"][declarer] = taken
    state.counters["tricks"][(declarer + 1) % 4] = 13 - taken
    state.vars.update(bid=bid, risk=risk, declarer=declarer, dummy=(declarer + 2) % 4, trump=None,
                      contract=contract, vulnerable=VULNERABLE[board - 1])
    index = [s.name for s in game.steps].index("score")
    game.rounds.advance(state, game.rounds.enter(state, index))
    return state.round_results[-1]


def declarer_score(contract: str, taken: int, vulnerable: bool) -> int:
    scores = board_score(contract, taken, vulnerable)
    assert scores[N] == scores[S] == -scores[E] == -scores[W], "the board is plus for one side, minus for the other"
    return scores[S]


# ------------------------------------------------------------------ Law 77: contracts made

@pytest.mark.parametrize("contract, taken, vulnerable, score", [
    ("4S", 10, True, 620),       # 120 trick points, game bonus vulnerable 500
    ("4S", 10, False, 420),      # ... not vulnerable 300
    ("3NT", 10, False, 430),     # 40 + 30 + 30 = 100, game 300, one overtrick 30
    ("3NT", 9, True, 600),
    ("2S", 8, False, 110),       # part score: 60 + 50
    ("1NT", 7, True, 90),        # 40 + 50
    ("3C", 9, False, 110),       # 60 + 50
    ("5D", 11, False, 400),      # 100 + 300
    ("4H", 11, False, 450),      # 120 + 300 + 30
    ("2C", 11, False, 150),      # 40 + 50 + three overtricks of 20
    ("6S", 12, True, 1430),      # 180 + 500 + small slam vulnerable 750
    ("6NT", 12, False, 990),     # 190 + 300 + small slam 500
    ("7C", 13, False, 1440),     # 140 + 300 + grand slam 1000
    ("7NT", 13, True, 2220),     # 220 + 500 + grand slam vulnerable 1500
])
def test_law_77_undoubled_contracts_made(contract, taken, vulnerable, score):
    assert declarer_score(contract, taken, vulnerable) == score


@pytest.mark.parametrize("contract, taken, vulnerable, score", [
    ("2HX", 8, False, 470),      # 60 x 2 = 120: game 300, insult 50
    ("1NTX", 7, False, 180),     # 80: part score 50, insult 50
    ("1NTXX", 7, False, 560),    # 160: game 300, insult 100
    ("1CXX", 8, True, 630),      # 80: part score 50, insult 100, an overtrick redoubled vulnerable 400
    ("4SX", 11, False, 690),     # 240 + 300 + 50 + an overtrick doubled 100
    ("3NTX", 11, True, 1150),    # 200 + 500 + 50 + two overtricks doubled vulnerable 2 x 200
    ("7NTXX", 13, True, 2980),   # 880 + 500 + 1500 + 100
    ("6DX", 12, False, 1090),    # 240 + 300 + 500 + 50
    ("5CXX", 13, False, 1200),   # 400 + 300 + 100 + two overtricks redoubled 2 x 200
])
def test_law_77_doubled_and_redoubled_contracts_made(contract, taken, vulnerable, score):
    assert declarer_score(contract, taken, vulnerable) == score


# ------------------------------------------------------------------ Law 77: undertricks

@pytest.mark.parametrize("contract, taken, vulnerable, score", [
    ("3NT", 8, False, -50), ("4S", 8, False, -100), ("4S", 8, True, -200), ("7NT", 6, True, -700),
    # doubled, not vulnerable: 100, 200, 200, then 300 each
    ("4SX", 9, False, -100), ("4SX", 8, False, -300), ("1NTX", 4, False, -500), ("4SX", 6, False, -800),
    ("4SX", 5, False, -1100), ("7NTX", 4, False, -2300),
    # doubled, vulnerable: 200, then 300 each
    ("4SX", 9, True, -200), ("4SX", 8, True, -500), ("4SX", 7, True, -800), ("4SX", 6, True, -1100),
    # redoubled: twice the doubled
    ("4SXX", 9, False, -200), ("4SXX", 8, False, -600), ("4SXX", 6, False, -1600),
    ("4SXX", 9, True, -400), ("4SXX", 7, True, -1600),
])
def test_law_77_undertricks(contract, taken, vulnerable, score):
    assert declarer_score(contract, taken, vulnerable) == score


def test_the_score_of_an_east_west_declarer_goes_to_east_west():
    assert board_score("4S", 10, True, declarer=W) == [-620, 620, -620, 620]
    assert board_score("4SX", 8, False, declarer=E) == [300, -300, 300, -300]


# ------------------------------------------------------------------ Law 2: boards

def test_the_board_number_sets_dealer_and_vulnerability_and_repeats_after_16():
    game = load("bridge", 4)
    for board in range(1, 21):
        state = game.new_state(seed=board, hand=board)
        state.apply_chance()
        seen = state.observation(None)
        assert state.game.seat_names[state.dealer] == DEALER[(board - 1) % 4]
        assert state.current_player == state.dealer  # the dealer makes the first call
        assert seen["values"]["vulnerable"] == VULNERABLE[(board - 1) % 16], board


def test_a_game_plays_the_option_s_number_of_boards_from_the_first_one():
    game = load("bridge", 4, {"boards": 4})
    out = game.play(["random"], seed=3)
    assert out.is_over() and len(out.round_returns()) == 4
    rounds = [e["round"] for e in out.events if e["type"] == "round"]
    assert rounds == [1, 2, 3, 4]


# ------------------------------------------------------------------ the auction (Laws 18-22)

def auction(*calls: str, board: int = 1, seed: int = 1):
    state = load("bridge", 4).new_state(seed=seed, hand=board)
    state.apply_chance()
    for c in calls:
        state.apply(c)
    return state


def test_a_bid_must_be_higher_than_the_last_bid():
    state = auction("1H")
    legal = state.labels()
    assert "1C" not in legal and "1D" not in legal and "1H" not in legal
    assert {"pass", "1S", "1NT", "2C", "7NT", "double"} <= set(legal)
    assert "redouble" not in legal
    with pytest.raises(IllegalAction):
        state.apply("1D")


def test_double_only_an_opponents_last_bid_not_yet_doubled():
    assert "double" not in auction().labels()                     # nothing to double
    assert "double" not in auction("1H", "pass").labels()         # South: his partner's bid
    assert "double" in auction("1H", "pass", "pass").labels()     # West: the opponents' bid, passes between
    state = auction("1H", "double")                               # South may redouble, not double
    assert "double" not in state.labels() and "redouble" in state.labels()
    state = auction("1H", "double", "pass")                       # West: the double is his partner's
    assert "double" not in state.labels() and "redouble" not in state.labels()
    assert "redouble" not in auction("1H", "double", "redouble").labels()


def test_three_passes_after_a_call_end_the_auction_and_the_declarer_named_the_strain_first():
    state = auction("1H", "1S", "2H", "double", "4H", "pass", "pass", "pass")
    seen = state.observation(None)["values"]
    assert seen["contract"] == "4H by North"                      # North named hearts first; the double is gone
    assert state.step == "play" and state.current_player == E     # the opening lead: declarer's left
    assert seen["dummy"] == "South"


def test_doubled_and_redoubled_contracts():
    assert auction("1NT", "double", "pass", "pass", "pass").observation(None)["values"]["contract"] == "1NTX by North"
    state = auction("1NT", "double", "redouble", "pass", "pass", "pass")
    assert state.observation(None)["values"]["contract"] == "1NTXX by North"


def test_four_passes_pass_the_board_out_for_no_score():
    state = auction("pass", "pass", "pass", "pass", board=3)
    assert state.round_returns() == [[0, 0, 0, 0]]
    assert state.round == 4 and state.is_chance()                  # on to the next board


def test_the_auction_starts_with_the_dealer():
    state = auction(board=3)
    assert state.current_player == S
    state.apply("pass")
    assert state.current_player == W


# ------------------------------------------------------------------ play (Laws 41-45)

def test_the_dummy_goes_face_up_after_the_opening_lead_and_declarer_plays_its_cards():
    state = auction("1H", "pass", "4H", "pass", "pass", "pass")   # North declares, South is dummy
    assert state.current_player == E
    assert state.observation(E)["zones"]["dummy"]["South"] == []   # nothing face up before the lead
    state.apply(state.labels()[0])
    table = state.observation(E)["zones"]["dummy"]["South"]
    assert len(table) == 13                                        # the dummy's hand, seen by all
    assert state.current_player == N                               # declarer plays for the dummy
    assert all(label.endswith("from dummy") for label in state.labels())


# ------------------------------------------------------------------ a published deal from a PBN file

# PBN 2.1, section 1.2: the auction, then the play as published (the cards of each trick as West, North, East and
# South played them), which stops after South's lead to the 7th trick; the tricks after it are a legal ending of
# our own that gives the published result, 9 tricks for the declarer.
PUBLISHED_AUCTION = "1D 1S 3H 4S 4NT double pass pass 5C double 5H double pass pass pass"
PUBLISHED_TRICKS = ["SK H3 S4 S3", "C5 C2 C6 CK", "S2 H6 S5 S7", "C8 CA CT C4", "D2 DA DT D3", "D4 DK H5 H7"]
ENDING = ["2 of hearts", "10 of hearts", "7 of clubs from dummy", "K of hearts", "Q of hearts", "J of hearts",
          "A of hearts", "7 of diamonds from dummy", "6 of diamonds", "8 of diamonds from dummy", "8 of spades",
          "9 of hearts", "9 of spades", "Q of spades", "3 of clubs from dummy", "6 of spades", "10 of spades",
          "9 of diamonds from dummy", "A of spades", "J of spades", "J of clubs", "8 of hearts", "5 of diamonds",
          "9 of clubs from dummy", "4 of hearts", "J of diamonds", "Q of diamonds from dummy", "Q of clubs"]


def pbn_label(card: str) -> str:
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[card[0]]
    return f"{'10' if card[1] == 'T' else card[1]} of {suit}"


def test_the_published_pbn_deal_is_dealt_and_its_play_scores_5h_doubled_down_2():
    game = load("bridge", 4, {"boards": 1})
    state = game.new_state(seed=1, deal=PBN)
    hands = state.events[1]["outcome"]["hand"]
    assert hands["North"] == [pbn_label(c) for c in ["H6", "H3", "DA", "DK", "DQ", "D9", "D8", "D7", "CA", "C9",
                                                      "C7", "C3", "C2"]]
    assert sorted(hands["West"]) == sorted(pbn_label(c) for c in "SK SQ ST S2 HA HT DJ D6 D5 D4 D2 C8 C5".split())
    assert state.dealer == N and state.round == 1
    for call in PUBLISHED_AUCTION.split():
        state.apply(call)
    seen = state.observation(None)["values"]
    assert seen["contract"] == "5HX by South" and seen["vulnerable"] == "None"   # the file's Contract, Vulnerable
    leader = W
    for trick in PUBLISHED_TRICKS:
        by_seat = dict(zip([W, N, E, S], trick.split()))
        for k in range(4):
            seat = (leader + k) % 4
            label = pbn_label(by_seat[seat])
            state.apply(label if label in state.labels() else label + " from dummy")
        leader = state.game.seat_names.index([e for e in state.events if e["type"] == "trick"][-1]["winner"])
    assert [e["winner"] for e in state.events if e["type"] == "trick"] == ["North", "South", "North", "North",
                                                                        "North", "South"]
    for label in ENDING:
        state.apply(label)
    assert state.is_over()
    assert sum(1 for e in state.events if e["type"] == "trick" and e["winner"] in ("North", "South")) == 9
    assert state.returns() == [-300, 300, -300, 300]     # 5HX down 2, not vulnerable: 100 + 200 to East-West


def test_a_game_from_a_pbn_board_starts_at_its_number_with_its_dealer_and_replays(tmp_path, capsys):
    text = PBN.read_text().replace('[Board "1"]', '[Board "6"]').replace('[Dealer "N"]', '[Dealer "E"]')
    deal = tmp_path / "b6.pbn"
    deal.write_text(text)
    record = tmp_path / "r.jsonl"
    assert main(["play", "bridge", "-p", "4", "--seed", "2", "-o", "boards=2", "--deal", str(deal),
                 "--record", str(record), "-q"]) == 0
    lines = [__import__("json").loads(x) for x in record.read_text().splitlines()]
    assert lines[0]["start"]["hand"] == 6 and lines[0]["start"]["dealer"] == "East"
    assert lines[1]["round"] == 6 and lines[1]["outcome"]["hand"]["South"][0] == "J of spades"
    assert [x["round"] for x in lines if x["type"] == "round"] == [6, 7]
    assert main(["replay", str(record)]) == 0


def test_a_pbn_file_of_several_boards_gives_the_chosen_one(tmp_path):
    second = PBN.read_text().replace('[Board "1"]', '[Board "2"]').replace(
        "N:.63.AKQ987.A9732", "E:.63.AKQ987.A9732")
    deal = tmp_path / "two.pbn"
    deal.write_text(PBN.read_text() + "\n" + second)
    game = load("bridge", 4)
    first = game.new_state(deal=deal)
    other = game.new_state(deal=deal, board="2")
    assert first.round == 1 and other.round == 2
    assert other.events[1]["outcome"]["hand"]["East"] == first.events[1]["outcome"]["hand"]["North"]
    with pytest.raises(Exception, match="no board '9'"):
        game.new_state(deal=deal, board="9")


BAD_DEALS = [
    ("N:.63.AKQ987.A9732 A8654.KQ5.T.QJX6 J973.J98742.3.K4 KQT2.AT.J6542.85", 34,
     "'X' is not a card of clubs"),
    ("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.8", 54,
     "West's hand: it has 12 cards; this deal gives 13 to each seat"),
    ("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.88", 69,
     "the 8 of clubs is dealt more often than the deck has it"),
    ("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4", 3, "a deal has 4 hands"),
    ("N:.63.AKQ987 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85", 3, "a hand has 4 groups"),
    ("X:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85", 1, "a direction is N, E, S or W"),
    ("N:- A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85", 3, "an unknown hand (-) cannot be dealt"),
]


@pytest.mark.parametrize("deal, column, message", BAD_DEALS)
def test_a_pbn_deal_that_does_not_fit_the_deck_is_refused_with_its_place(deal, column, message, tmp_path, capsys):
    path = tmp_path / "bad.pbn"
    path.write_text(f'[Event "x"]\n[Deal "{deal}"]\n')
    assert main(["play", "bridge", "-p", "4", "--deal", str(path), "-q"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:{7 + column}: error: {message}" in err, err
    assert "Traceback" not in err


def test_a_deal_file_needs_a_game_whose_deck_has_a_notation(capsys):
    assert main(["play", "whist", "-p", "4", "--deal", str(PBN), "-q"]) == 1
    assert "whist cannot read deal files: its deck has no notation" in capsys.readouterr().err
