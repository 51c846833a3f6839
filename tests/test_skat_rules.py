"""Skat: the International Skat Order (ISkO, DSkV and ISPA-World, 2018 edition) and the Seeger-Fabian scoring of
the Skatwettspielordnung (SkWO) as exact tests of games/skat.yaml.

Every score here is produced by the game's own rules: a state is put at a step of a round (hands, skat, won
cards, tricks and round values set as they would be at that point), then the rule file's steps run. The ISkO's
own worked examples are marked with their paragraph; the others are derived strictly from its rules."""

from __future__ import annotations

import pytest

from interpreter.engine.observation import observe
from interpreter.harness.runner import play_game

from .conftest import at_step, card, game_of

ANNA, BERND, CLARA, DIETER = 0, 1, 2, 3
SUITS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}


def labs(text: str) -> list[str]:
    """'JC 10H AS' -> ['clubs J', 'hearts 10', 'spades A']."""
    return [f"{SUITS[x[-1]]} {x[:-1]}" for x in text.split()]


def play(game, state, *labels):
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def asked(game, state) -> str:
    return game.seat_names[game.current(state)]


def rest_of_deck(game, used: list[str]) -> list[str]:
    return [game.cards.labels[c] for c in game.deck if game.cards.labels[c] not in used]


def deal(game, hands: dict[int, str], skat: str, dealer: int, step: str = "opening", **values):
    """A state at ``step`` with these hands (the other active seats get the rest of the pack) and skat."""
    taken = [x for text in hands.values() for x in labs(text)] + labs(skat)
    rest = rest_of_deck(game, taken)
    active = [(dealer + 1 + i) % game.players for i in range(3)]
    full = {}
    for seat in active:
        if seat in hands:
            full[seat] = labs(hands[seat])
        else:
            full[seat], rest = rest[:10], rest[10:]
    assert all(len(h) == 10 for h in full.values())
    return at_step(game, step, full, zones={"skat": labs(skat)}, dealer=dealer, **values)


def score_of(players=3, *, declarer=ANNA, dealer=CLARA, bid=18, game="clubs", hand=False, announced=None,
             won="", skat="", played="", declarer_tricks=5, defender_tricks=5, kontra=None, re=None,
             seeger_fabian=True):
    """The deal's scores, the score step run on a finished deal: the declarer's tricks hold ``won``, the skat
    ``skat``, and he played ``played`` (his ten cards, for the matadors)."""
    g = game_of("skat", players, seeger_fabian=seeger_fabian)
    won_ids, skat_ids, played_ids = ([card(g, x) for x in labs(text)] for text in (won, skat, played))
    assert not set(won_ids) & set(skat_ids)
    state = g.new_state()
    for zone in state.per_seat.values():
        for cards in zone:
            cards.clear()
    for zone in state.shared.values():
        zone.clear()
    state.per_seat["won"][declarer] = won_ids
    state.shared["skat"][:] = skat_ids
    state.dealer = dealer
    defenders = [s for s in ((dealer + 1 + i) % players for i in range(3)) if s != declarer]
    tricks = [0] * players
    tricks[declarer] = declarer_tricks
    tricks[defenders[0]] = defender_tricks
    state.counters["tricks"] = tricks
    level = {None: 0, "schneider": 1, "schwarz": 2, "ouvert": 3}[announced] if game != "null" else 0
    state.vars.update(declarer=declarer, bid=bid, game_type=game, hand=hand, taking="hand" if hand else "take the skat",
                      announced=announced, ouvert=announced == "ouvert", announced_level=level, played=played_ids,
                      kontra=kontra, re=re)
    index = [s.name for s in g.steps].index("score")
    g.rounds.advance(state, g.rounds.enter(state, index))
    return list(state.totals)


# card points by suit, for building tricks
ALL_CLUBS, ALL_SPADES = "AC 10C KC QC 9C 8C 7C", "AS 10S KS QS 9S 8S 7S"   # 28 each without the jack
TWELVE = "JC JS 10C KC QC 9C 8C 7C AH 7H"                                  # with 2 in clubs: played cards
WON = "AS 10S KS QS AH 10H KH QH AD"                                       # 67 card points: won, no schneider


# ======================================================================= the pack and the deal


def test_32_cards_of_120_card_points():
    game = game_of("skat", 3)
    labels = [game.cards.labels[c] for c in game.deck]
    assert len(labels) == len(set(labels)) == 32
    points = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    assert sorted({x.split()[1] for x in labels}) == sorted(points)
    assert sum(points[x.split()[1]] for x in labels) == 120


@pytest.mark.parametrize("players", [3, 4])
def test_the_deal_3_skat_4_3_from_forehand_and_with_four_the_dealer_sits_out(players):
    game = game_of("skat", players)
    dealer = players - 1
    order = [game.cards.labels[c] for c in game.deck]          # the pack as shuffled, top first
    state = at_step(game, "give", {}, zones={"stock": order}, dealer=dealer)
    fore, middle, rear = [(dealer + 1 + i) % players for i in range(3)]
    hand = state.per_seat["hand"]

    def names(cards):
        return sorted(game.cards.labels[c] for c in cards)

    for i, seat in enumerate((fore, middle, rear)):
        assert names(hand[seat]) == sorted(order[3 * i:3 * i + 3] + order[11 + 4 * i:15 + 4 * i]
                                           + order[23 + 3 * i:26 + 3 * i])
    assert names(state.shared["skat"]) == sorted(order[9:11])
    if players == 4:
        assert hand[dealer] == []                                # the dealer sits this deal out
    # middlehand is asked first in the auction
    assert state.pending.step.name == "middlehand_bids" and game.current(state) == middle


def test_with_four_players_the_seat_sitting_out_moves_with_the_deal():
    game = game_of("skat", 4)
    dealt = {}

    def watch(state):
        if state.pending is not None and state.pending.step.name == "middlehand_bids":
            dealt.setdefault(state.round_number, (state.dealer, [len(h) for h in state.per_seat["hand"]]))

    out = play_game(game, seed=3, after_each=watch)
    assert out.rounds == 48                                      # a series: 48 deals at a table of four
    assert [dealt[r][0] for r in range(1, 9)] == [0, 1, 2, 3, 0, 1, 2, 3]
    for dealer, sizes in dealt.values():
        assert sizes[dealer] == 0 and sorted(sizes) == [0, 10, 10, 10]


def test_a_series_at_a_table_of_three_is_36_deals_and_an_option_shortens_it():
    assert play_game(game_of("skat", 3), seed=1).rounds == 36
    assert play_game(game_of("skat", 3, deals=6), seed=1).rounds == 6


# ======================================================================= the auction (3.3)


def bidding(dealer=CLARA, players=3):
    game = game_of("skat", players)
    return game, deal(game, {}, "7D 8D", dealer, step="opening")


def test_middlehand_bids_to_forehand_who_says_yes_or_passes_then_rearhand_bids():
    game, state = bidding()                               # Clara deals: Anna forehand, Bernd middle, Clara rear
    assert asked(game, state) == "Bernd"
    labels = game.labels(state)
    assert labels[:8] == ["pass", "18", "20", "22", "23", "24", "27", "30"]
    assert labels[8:21] == ["33", "35", "36", "40", "44", "45", "46", "48", "50", "54", "55", "59", "60"]
    assert labels[-1] == "264"                            # grand ouvert with 4
    play(game, state, "20")
    assert asked(game, state) == "Anna" and game.labels(state) == ["pass", "yes"]
    play(game, state, "yes")
    assert asked(game, state) == "Bernd" and game.labels(state)[1] == "22"   # only higher values
    play(game, state, "22")
    play(game, state, "pass")                              # Anna passes: Bernd survives at 22
    assert asked(game, state) == "Clara" and game.labels(state)[1] == "23"
    play(game, state, "23")
    assert asked(game, state) == "Bernd" and game.labels(state) == ["pass", "yes"]
    play(game, state, "yes", "24", "yes", "pass")          # Clara gives up at 24: Bernd plays at 24
    assert state.vars["declarer"] == BERND and state.vars["bid"] == 24
    assert asked(game, state) == "Bernd" and game.labels(state) == ["take the skat", "hand"]


def test_rearhand_bids_to_forehand_when_middlehand_passes_and_holding_wins():
    game, state = bidding()
    play(game, state, "pass")                              # Bernd passes at once
    assert asked(game, state) == "Clara"                   # rearhand bids to forehand
    play(game, state, "18")
    assert asked(game, state) == "Anna"
    play(game, state, "yes", "pass")                       # Clara passes: forehand plays at 18
    assert state.vars["declarer"] == ANNA and state.vars["bid"] == 18


def test_when_middlehand_and_rearhand_pass_forehand_may_play_at_18():
    game, state = bidding()
    play(game, state, "pass", "pass")
    assert asked(game, state) == "Anna" and game.labels(state) == ["pass", "play"]
    play(game, state, "play")
    assert state.vars["declarer"] == ANNA and state.vars["bid"] == 18


@pytest.mark.parametrize("players", [3, 4])
def test_all_pass_the_deal_is_thrown_in_no_ramsch_score_0_and_the_next_seat_deals(players):
    game, state = bidding(dealer=CLARA, players=players)
    play(game, state, "pass", "pass", "pass")
    assert state.round_number == 2 and state.dealer == (CLARA + 1) % players
    assert state.totals == [0] * players


# ======================================================================= rank of cards (2.3) and following (4.2)


def trick_state(game_kind, hands, players=3, dealer=CLARA):
    game = game_of("skat", players)
    # a second card each (a diamond: no trump but in a diamonds game), so that the deal goes on after the trick
    full = {s: labs(h) + [f"diamonds {r}"] for s, h, r in zip(hands, hands.values(), ["7", "8", "9"])}
    state = at_step(game, "tricks", full, dealer=dealer, declarer=ANNA, game_type=game_kind, played=[], bid=18)
    return game, state


def trick_winner(game, state, *labels):
    before = list(state.counters["tricks"])
    play(game, state, *labels)
    return game.seat_names[[a - b for a, b in zip(state.counters["tricks"], before)].index(1)]


def test_suit_game_the_jacks_then_a_10_k_q_9_8_7_of_trumps():
    # the diamonds jack beats the ace of trumps
    game, state = trick_state("hearts", {ANNA: "7H", BERND: "AH", CLARA: "JD"})
    assert trick_winner(game, state, "hearts 7", "hearts A", "diamonds J") == "Clara"
    # clubs J > spades J > hearts J
    game, state = trick_state("hearts", {ANNA: "JS", BERND: "JC", CLARA: "JH"})
    assert trick_winner(game, state, "spades J", "clubs J", "hearts J") == "Bernd"
    game, state = trick_state("hearts", {ANNA: "10H", BERND: "KH", CLARA: "AH"})
    assert trick_winner(game, state, "hearts 10", "hearts K", "hearts A") == "Clara"
    # a plain suit: the 10 over the king, and any trump beats it
    game, state = trick_state("hearts", {ANNA: "KS", BERND: "10S", CLARA: "QS"})
    assert trick_winner(game, state, "spades K", "spades 10", "spades Q") == "Bernd"
    game, state = trick_state("hearts", {ANNA: "KS", BERND: "10S", CLARA: "7H"})
    assert trick_winner(game, state, "spades K", "spades 10", "hearts 7") == "Clara"


def test_a_jack_led_in_a_suit_game_asks_for_trumps_not_its_printed_suit():
    # clubs J led in a hearts game: Bernd must play a trump (his heart), not his club
    game, state = trick_state("hearts", {ANNA: "JC", BERND: "9C 8H", CLARA: "7S"})
    play(game, state, "clubs J")
    assert game.labels(state) == ["hearts 8"]
    # a club led: Bernd's clubs J is a trump and does not follow clubs; without another club he plays anything
    game, state = trick_state("hearts", {ANNA: "AC", BERND: "JC 9S", CLARA: "7S"})
    play(game, state, "clubs A")
    assert sorted(game.labels(state)) == ["clubs J", "diamonds 8", "spades 9"]


def test_grand_only_the_jacks_are_trumps():
    game, state = trick_state("grand", {ANNA: "AC", BERND: "JD", CLARA: "10C"})
    assert trick_winner(game, state, "clubs A", "diamonds J", "clubs 10") == "Bernd"
    game, state = trick_state("grand", {ANNA: "KH", BERND: "AH", CLARA: "AC"})
    assert trick_winner(game, state, "hearts K", "hearts A", "clubs A") == "Bernd"


def test_null_no_trumps_and_each_suit_runs_a_k_q_j_10_9_8_7():
    game, state = trick_state("null", {ANNA: "10C", BERND: "JC", CLARA: "9C"})
    assert trick_winner(game, state, "clubs 10", "clubs J", "clubs 9") == "Bernd"
    game, state = trick_state("null", {ANNA: "JH", BERND: "QH", CLARA: "JC"})
    assert trick_winner(game, state, "hearts J", "hearts Q", "clubs J") == "Bernd"
    # a jack belongs to its suit: a jack led asks for that suit
    game, state = trick_state("null", {ANNA: "JC", BERND: "7C 7H", CLARA: "7S"})
    play(game, state, "clubs J")
    assert game.labels(state) == ["clubs 7"]


# ======================================================================= game values (5.1, 5.2, 5.3)


def test_with_2_game_3_times_clubs_12_is_36():
    # the declarer holds the clubs and spades jacks, not the hearts jack: "with 2, game 3"; 3 x 12 = 36
    assert score_of(bid=36, game="clubs", won=WON, skat="7D 8D", played=TWELVE,
                    seeger_fabian=False) == [36, 0, 0]


def test_the_matadors_count_over_the_skat_too():
    # no clubs jack in hand, but it lies in the skat: with 1, game 2, x 12 = 24
    won = WON
    assert score_of(bid=24, game="clubs", won=won, skat="JC 8D", played="JH JD 10C KC QC 9C 8C 7C AH 7H",
                    seeger_fabian=False) == [24, 0, 0]
    # neither the clubs nor the spades jack among his twelve cards: without 2, game 3, x 12 = 36
    assert score_of(bid=24, game="clubs", won=won, skat="7D 8D", played="JH JD 10C KC QC 9C 8C 7C AH 7H",
                    seeger_fabian=False) == [36, 0, 0]
    # in a suit game the run goes on into the trump suit: J J J J A 10 of diamonds, no K: with 6, game 7 x 9
    assert score_of(bid=18, game="diamonds", won=won, skat="7S 8S", played="JC JS JH JD AD 10D QD 9D 8D 7D",
                    seeger_fabian=False) == [63, 0, 0]


def test_the_skat_counts_for_the_declarer():
    # 39 card points in tricks and 21 in the skat: 60 loses (5.2.2: the 61st card point, the skat included);
    # with 1, game 2, x 9 = 18, doubled
    played = "JC 7D 8D 9D QD KD 10D 7S 8S 9S"
    assert score_of(bid=18, game="diamonds", won="AS 10S KS QS KH QH KC", skat="AC 10C", played=played,
                    seeger_fabian=False) == [-36, 0, 0]
    # two more card points in his tricks: 62 wins
    assert score_of(bid=18, game="diamonds", won="AS 10S KS QS KH QH KC JS", skat="AC 10C", played=played,
                    seeger_fabian=False) == [18, 0, 0]


def test_grand_hand_with_4_schneider():
    # with 4, game 5, hand 6, schneider 7: x 24 = 168 (98 card points: the defenders took 30 or fewer)
    assert score_of(game="grand", hand=True, won=f"{ALL_CLUBS} {ALL_SPADES} AH 10H AD 10D", skat="7D 8D",
                    played="JC JS JH JD AC 10C KC QC AH AD", declarer_tricks=8, defender_tricks=2,
                    seeger_fabian=False) == [168, 0, 0]


def test_schneider_announced_reached_missed_and_no_eigenschneider():
    played = "JC JD AS 10S KS QS 9S 8S 7S AH"                 # with 1 in spades
    won = f"{ALL_SPADES} AH 10H KH QH AC 10C KC QC"           # 84 card points
    # 84 + 21 in the skat = 105: with 1, game 2, hand 3, schneider 4, announced 5: x 11 = 55
    assert score_of(game="spades", hand=True, announced="schneider", won=won, skat="AD 10D", played=played,
                    seeger_fabian=False) == [55, 0, 0]
    # 84: the game is made, schneider announced is not: lost at the announced level (5.2.5), doubled
    assert score_of(game="spades", hand=True, announced="schneider", won=won, skat="7D 8D", played=played,
                    seeger_fabian=False) == [-110, 0, 0]
    # 5.2.5: schneidered himself (25), the announced level is not counted twice (no "Eigenschneider")
    assert score_of(game="spades", hand=True, announced="schneider", won="AH 10H KS", skat="7D 8D", played=played,
                    seeger_fabian=False) == [-110, 0, 0]


def test_schwarz_announced_includes_schneider_announced():
    won = "AC 10C KC QC JC 9C 8C 7C AS 10S KS QS JS 9S 8S 7S AH 10H KH QH JH 9H 8H 7H KD QD JD 9D"
    played = "JC JD AS 10S KS QS 9S 8S 7S AH"
    # with 1, game 2, hand 3, schneider 4, announced 5, schwarz 6, announced 7: x 11 = 77
    assert score_of(game="spades", hand=True, announced="schwarz", won=won, skat="AD 10D", played=played,
                    declarer_tricks=10, defender_tricks=0, seeger_fabian=False) == [77, 0, 0]
    # one trick given away: lost at the announced level, doubled
    assert score_of(game="spades", hand=True, announced="schwarz", won=won, skat="AD 10D", played=played,
                    declarer_tricks=9, defender_tricks=1, seeger_fabian=False) == [-154, 0, 0]


def test_the_declarer_schneidered_or_schwarz_loses_at_a_higher_level():
    played = "JS JH JD AH 10H KH QH 9H 8H 7H"                 # without 1 in hearts
    # 25 card points: without 1, game 2, schneider 3: x 10 = 30, lost: -60
    assert score_of(game="hearts", won="AC 10C KC", skat="7D 8D", played=played,
                    seeger_fabian=False) == [-60, 0, 0]
    # no trick at all: schwarz as well: 4 x 10, lost: -80
    assert score_of(game="hearts", won="", skat="7D 8D", played=played, declarer_tricks=0, defender_tricks=10,
                    seeger_fabian=False) == [-80, 0, 0]


def test_a_lost_hand_game_counts_double_too():
    # every lost game counts double, hand games included: clubs hand with 2, game 3, hand 4 = 48; 56 card
    # points lose: -96
    assert score_of(game="clubs", hand=True, won="AS 10S KS QS AH 10H KH QH", skat="7D 8D", played=TWELVE,
                    seeger_fabian=False) == [-96, 0, 0]


@pytest.mark.parametrize("hand, announced, value", [(False, None, 23), (True, None, 35), (False, "ouvert", 46),
                                                     (True, "ouvert", 59)])
def test_null_values_won_and_lost(hand, announced, value):
    assert score_of(game="null", hand=hand, announced=announced, declarer_tricks=0, defender_tricks=10,
                    seeger_fabian=False) == [value, 0, 0]
    assert score_of(game="null", hand=hand, announced=announced, won="7C 8C 9S", declarer_tricks=1,
                    defender_tricks=9, seeger_fabian=False) == [-2 * value, 0, 0]


# ----------------------------------------------------------------------- overbidding (5.4)


def test_overbid_the_game_is_lost_at_the_lowest_multiple_of_the_base_value_reaching_the_bid():
    # bid 30 (without 2, game 3 in hearts), but the clubs jack lies in the skat: with 1, game 2 = 20 < 30;
    # lost at 3 x 10 = 30, doubled: -60, although the declarer took 77 card points
    won = f"{ALL_CLUBS} {ALL_SPADES} AH 10H"
    played = "JH JD 9H 8H 7H AS 9C 8C 7C KD"
    assert score_of(bid=30, game="hearts", won=won, skat="JC 7D", played=played,
                    seeger_fabian=False) == [-60, 0, 0]
    # a bid of 33 in hearts: the next multiple of 10 is 40: -80
    assert score_of(bid=33, game="hearts", won=won, skat="JC 7D", played=played,
                    seeger_fabian=False) == [-80, 0, 0]
    # schneider lifts the same game to 3 x 10 = 30: the bid of 30 is reached and the game won
    assert score_of(bid=30, game="hearts", won=f"{won} KH QH AD 10D", skat="JC 7D", played=played,
                    seeger_fabian=False) == [30, 0, 0]


def test_a_null_below_the_bid_may_not_be_announced_and_above_the_closed_value_it_must_be_open():
    game = game_of("skat", 3)
    state = deal(game, {}, "7D 8D", CLARA, step="parties", declarer=ANNA, bid=24)
    play(game, state, "take the skat")
    first_two = game.labels(state)[:2]
    play(game, state, *first_two)
    assert "null" in game.labels(state)                    # null ouvert (46) reaches 24
    play(game, state, "null")
    assert game.labels(state) == ["ouvert"]                # the closed null (23) does not
    state = deal(game, {}, "7D 8D", CLARA, step="parties", declarer=ANNA, bid=48)
    play(game, state, "take the skat")
    play(game, state, *game.labels(state)[:2])
    assert "null" not in game.labels(state)                # 46 < 48
    state = deal(game, {}, "7D 8D", CLARA, step="parties", declarer=ANNA, bid=48)
    play(game, state, "hand", "null")
    assert game.labels(state) == ["ouvert"]                # only null ouvert hand (59)


def test_schneider_schwarz_and_ouvert_may_be_announced_in_hand_games_only():
    game = game_of("skat", 3)
    state = deal(game, {}, "7D 8D", CLARA, step="parties", declarer=ANNA, bid=18)
    play(game, state, "hand", "spades")
    assert game.labels(state) == ["no announcement", "schneider", "schwarz", "ouvert"]
    state = deal(game, {}, "7D 8D", CLARA, step="parties", declarer=ANNA, bid=18)
    play(game, state, "take the skat")
    assert len(game.labels(state)) == 12                    # ten cards and the skat: discard two
    play(game, state, *game.labels(state)[:2])
    assert game.labels(state) == ["diamonds", "hearts", "spades", "clubs", "grand", "null"]
    play(game, state, "spades")
    assert state.pending.step.name == "tricks"                # nothing more to announce
    assert len(state.shared["skat"]) == 2 and len(state.per_seat["hand"][ANNA]) == 10


def test_the_skat_taken_up_and_the_two_cards_discarded_count_for_the_declarer():
    # Anna takes up the skat (hearts A and 10), discards them again and takes every trick in a grand:
    # 120 card points; with 4, game 5, schneider 6, schwarz 7 = 7 x 24 = 168, + 50
    game = game_of("skat", 3)
    state = deal(game, {ANNA: "JC JS JH JD AC 10C KC QC 9C 8C"}, "AH 10H", CLARA)
    play(game, state, "pass", "pass", "play", "take the skat")
    assert sorted(game.labels(state)) == sorted(labs("JC JS JH JD AC 10C KC QC 9C 8C AH 10H"))
    play(game, state, "hearts A", "hearts 10", "grand")
    assert observe(game, state, BERND)["zones"]["skat"] == {"count": 2}
    play_out(game, state, labs("JC JS JH JD AC 10C KC QC 9C 8C"))
    assert state.totals == [168 + 50, 0, 0]


# ======================================================================= whole deals: ISkO 5.2.6


def declare_hand(game, state, kind, announcement):
    """Anna plays at 18 (the others pass) from hand and announces."""
    play(game, state, "pass", "pass", "play", "hand", kind)
    play(game, state, announcement)


def play_out(game, state, script):
    """Anna plays her cards in the order given; the defenders play their first allowed card."""
    script = list(script)
    while state.pending is not None and state.pending.step.name == "tricks":
        if game.current(state) == ANNA:
            play(game, state, script.pop(0))
        else:
            play(game, state, game.labels(state)[0])
    assert not script


def test_clubs_ouvert_with_2_counts_9_x_12_108():
    # ISkO 5.2.6: "Kreuz ouvert mit zweien" = 9 x 12 = 108 (ouvert games are schwarz announced)
    game = game_of("skat", 3)
    state = deal(game, {ANNA: "JC JS AC 10C KC QC 9C 8C 7C AS"}, "7D 8D", CLARA)
    declare_hand(game, state, "clubs", "ouvert")
    # ouvert: the cards lie face up before the opening lead; every defender sees them
    assert sorted(observe(game, state, BERND)["zones"]["open"]["Anna"]) == sorted(
        labs("JC JS AC 10C KC QC 9C 8C 7C AS"))
    assert observe(game, state, BERND)["zones"]["hand"]["Anna"] == {"count": 0}
    play_out(game, state, [f"{x} from open" for x in labs("JC JS AC 10C KC QC 9C 8C 7C AS")])
    assert state.totals == [108 + 50, 0, 0]                # Seeger-Fabian: + 50 for the game won


def test_grand_ouvert_with_4_counts_11_x_24_264():
    # ISkO 5.2.6: "Grand ouvert mit vieren" = 11 x 24 = 264
    game = game_of("skat", 3, seeger_fabian=False)
    state = deal(game, {ANNA: "JC JS JH JD AC 10C KC QC 9C 8C"}, "7D 8D", CLARA)
    declare_hand(game, state, "grand", "ouvert")
    play_out(game, state, [f"{x} from open" for x in labs("JC JS JH JD AC 10C KC QC 9C 8C")])
    assert state.totals == [264, 0, 0]


def test_a_closed_game_keeps_the_declarers_cards_hidden():
    game = game_of("skat", 3)
    state = deal(game, {ANNA: "JC JS JH JD AC 10C KC QC 9C 8C"}, "7D 8D", CLARA)
    declare_hand(game, state, "grand", "no announcement")
    assert observe(game, state, BERND)["zones"]["hand"]["Anna"] == {"count": 10}
    assert observe(game, state, BERND)["zones"]["open"]["Anna"] == []
    play_out(game, state, labs("JC JS JH JD AC 10C KC QC 9C 8C"))
    # grand hand with 4, game 5, hand 6, schneider 7, schwarz 8: x 24 = 192 (schwarz unannounced)
    assert state.totals == [192 + 50, 0, 0]


def test_null_ouvert_hand_lost_seeger_fabian():
    # Anna leads her ace and takes the trick: null ouvert hand (59) lost, doubled, less 50; each defender +40
    game = game_of("skat", 3)
    state = deal(game, {ANNA: "AC AS AH AD KC KS KH KD QC QS"}, "7D 8D", CLARA)
    play(game, state, "pass", "pass", "play", "hand", "null", "ouvert")
    play_out(game, state, [f"{x} from open" for x in labs("AC AS AH AD KC KS KH KD QC QS")])
    assert state.totals == [-2 * 59 - 50, 40, 40]


# ======================================================================= Seeger-Fabian (SkWO), Kontra and Re


def test_seeger_fabian_won_plus_50_lost_minus_50_and_40_to_each_other_player_at_three():
    assert score_of(bid=36, game="clubs", won=WON, skat="7D 8D", played=TWELVE) \
        == [36 + 50, 0, 0]
    assert score_of(bid=36, game="clubs", won="AS 10S KS QS AH", skat="7D 8D", played=TWELVE) == [-72 - 50, 40, 40]


def test_seeger_fabian_at_four_30_to_every_other_player_the_dealer_sitting_out_too():
    # Dieter deals and sits out; Anna's lost game gives Bernd, Clara and Dieter 30 each
    assert score_of(4, dealer=DIETER, bid=36, game="clubs", won="AS 10S KS QS AH", skat="7D 8D", played=TWELVE) \
        == [-72 - 50, 30, 30, 30]
    assert score_of(4, dealer=DIETER, bid=36, game="clubs", won=WON, skat="7D 8D",
                    played=TWELVE) == [36 + 50, 0, 0, 0]


def test_kontra_and_re_double_and_redouble_the_game_value():
    # clubs with 2, game 3 = 36; Kontra 72, Re 144; lost: -288
    assert score_of(game="clubs", won=WON, skat="7D 8D", played=TWELVE, kontra=BERND,
                    seeger_fabian=False) == [72, 0, 0]
    assert score_of(game="clubs", won=WON, skat="7D 8D", played=TWELVE, kontra=BERND,
                    re=ANNA, seeger_fabian=False) == [144, 0, 0]
    assert score_of(game="clubs", won="AS 10S KS QS AH", skat="7D 8D", played=TWELVE, kontra=BERND, re=ANNA,
                    seeger_fabian=False) == [-288, 0, 0]


def test_kontra_is_offered_to_the_defenders_before_the_opening_lead_only_with_the_option():
    game = game_of("skat", 3)
    state = deal(game, {ANNA: "JC JS JH JD AC 10C KC QC 9C 8C"}, "7D 8D", CLARA)
    declare_hand(game, state, "grand", "no announcement")
    assert state.pending.step.name == "tricks"            # off by default, as in ISkO tournaments
    game = game_of("skat", 3, kontra=True)
    state = deal(game, {ANNA: "JC JS JH JD AC 10C KC QC 9C 8C"}, "7D 8D", CLARA)
    declare_hand(game, state, "grand", "no announcement")
    assert asked(game, state) == "Bernd" and game.labels(state) == ["no Kontra", "Kontra"]
    play(game, state, "no Kontra")
    assert asked(game, state) == "Clara"
    play(game, state, "Kontra")
    assert asked(game, state) == "Anna" and game.labels(state) == ["no Re", "Re"]
    play(game, state, "Re")
    assert state.pending.step.name == "tricks" and asked(game, state) == "Anna"
    play_out(game, state, labs("JC JS JH JD AC 10C KC QC 9C 8C"))
    assert state.totals == [4 * 192 + 50, 0, 0]
