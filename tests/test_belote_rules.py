"""Belote (games/belote.yaml) by the Fédération Française de Belote's "Règlement officiel de la belote avec ou sans
annonce" (and, with the option contree, its belote contrée): the value of the cards (III), the obligations of play
and the card that is master (VI), the declarations and belote-rebelote (VII), the taking of classic belote with the
turned card and the auction of contrée (V), and how a deal scores: made, "dedans", in dispute (litige), contré,
surcontré, capot. North, East, South and West sit in that order, North and South partners; hearts are trumps unless
a test says otherwise. The scores come from the file's own score step, run from a state put at the end of play."""

from __future__ import annotations

import random

from interpreter.engine.state import CHANCE

from .conftest import at_step, game_of

N, E, S, W = range(4)
TEAMS = [0, 1, 0, 1]
RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7"]


def _suit(suit: str) -> list[str]:
    return [f"{r} of {suit}" for r in RANKS]


def _trick_state(hands: dict[int, list[str]], **values):
    """Trick play, West dealing (North leads), hearts trumps, South's side (North) the takers."""
    game = game_of("belote", 4)
    state = at_step(game, "tricks", hands, dealer=W, trump="hearts", taker=N, teams=TEAMS,
                    seat_values={"has_belote": values.pop("belote", {s: False for s in range(4)}),
                                 "announced": {s: [] for s in range(4)}}, **values)
    return game, state


def _after(hands: dict[int, list[str]], *played: str) -> set[str]:
    """The cards the next seat may play once ``played`` are on the table."""
    game, state = _trick_state(hands)
    for label in played:
        game.apply(state, game.action_for_label(state, label))
    return set(game.labels(state))


# ---------------------------------------------------------------- VI Le jeu de la carte: the obligations

def test_a_player_must_follow_suit():
    assert _after({N: ["7 of spades"], E: ["A of spades", "J of hearts", "8 of clubs"], S: ["7 of clubs"],
                   W: ["8 of diamonds"]}, "7 of spades") == {"A of spades"}


def test_unable_to_follow_a_player_must_trump_when_an_opponent_is_master_and_not_when_the_partner_is():
    hands = {N: ["A of spades"], E: ["7 of spades", "8 of hearts"], S: ["7 of hearts", "8 of diamonds"],
             W: ["8 of clubs"]}
    assert _after(hands, "A of spades", "7 of spades") == {"7 of hearts", "8 of diamonds"}   # North is master
    hands = {N: ["7 of spades"], E: ["A of spades"], S: ["7 of hearts", "8 of diamonds"], W: ["8 of clubs"]}
    assert _after(hands, "7 of spades", "A of spades") == {"7 of hearts"}                    # East is master
    hands = {N: ["7 of spades"], E: ["A of spades"], S: ["8 of clubs", "8 of diamonds"], W: ["9 of clubs"]}
    assert _after(hands, "7 of spades", "A of spades") == {"8 of clubs", "8 of diamonds"}    # no trump: any card


def test_over_an_opponents_trump_a_player_must_overtrump_and_if_unable_still_trump():
    hands = {N: ["A of spades"], E: ["9 of hearts"], S: ["J of hearts", "8 of hearts", "8 of diamonds"],
             W: ["8 of clubs"]}
    assert _after(hands, "A of spades", "9 of hearts") == {"J of hearts"}
    hands[S] = ["A of hearts", "8 of hearts", "8 of diamonds"]                  # both below the 9 of trumps
    assert _after(hands, "A of spades", "9 of hearts") == {"A of hearts", "8 of hearts"}


def test_at_trumps_a_player_must_play_higher_even_over_the_partner():
    hands = {N: ["9 of hearts"], E: ["7 of hearts"], S: ["J of hearts", "8 of hearts", "A of clubs"],
             W: ["8 of clubs"]}
    assert _after(hands, "9 of hearts", "7 of hearts") == {"J of hearts"}
    hands[S] = ["A of hearts", "8 of hearts", "A of clubs"]
    assert _after(hands, "9 of hearts", "7 of hearts") == {"A of hearts", "8 of hearts"}


def test_the_highest_trump_wins_in_the_order_j_9_a_10_k_q_8_7_else_the_highest_of_the_suit_led():
    def winner(*cards: str) -> int:
        game, state = _trick_state({s: [c] for s, c in enumerate(cards)})
        state.notes = []
        for label in cards:
            game.apply(state, game.action_for_label(state, label))
        return [n for n in state.notes if n.startswith("Trick ")][0].split("-> ")[1].split()[0]
    assert winner("A of hearts", "9 of hearts", "J of hearts", "10 of hearts") == "South"
    assert winner("10 of hearts", "K of hearts", "9 of hearts", "A of hearts") == "South"
    assert winner("A of spades", "10 of spades", "7 of hearts", "K of spades") == "South"
    assert winner("J of clubs", "10 of clubs", "A of diamonds", "9 of clubs") == "East"
    assert winner("Q of clubs", "K of clubs", "J of clubs", "A of spades") == "East"


# ---------------------------------------------------------------- VII belote and rebelote, the declarations

def test_belote_and_rebelote_are_said_when_the_king_and_queen_of_trumps_are_played():
    game, state = _trick_state({N: ["K of hearts", "Q of hearts"], E: ["7 of spades", "8 of spades"],
                                S: ["7 of clubs", "8 of clubs"], W: ["A of hearts", "8 of diamonds"]},
                               belote={N: True, E: False, S: False, W: False})
    state.notes = []
    for label in ["K of hearts", "7 of spades", "7 of clubs", "A of hearts", "8 of diamonds", "Q of hearts"]:
        game.apply(state, game.action_for_label(state, label))
    said = [n for n in state.notes if "says" in n]
    assert len(said) == 2 and "North says belote" in said[0] and "North says rebelote" in said[1]
    assert state.notes.index(said[0]) < next(i for i, n in enumerate(state.notes) if "7 of spades" in n)


HANDS = {  # hearts trumps
    N: ["7 of clubs", "8 of clubs", "9 of clubs", "J of spades", "J of diamonds", "J of clubs", "J of hearts",
        "A of hearts"],                                         # a carré of jacks and a tierce to the 9 of clubs
    E: ["7 of spades", "8 of spades", "9 of spades", "10 of spades", "K of diamonds", "Q of diamonds",
        "7 of diamonds", "9 of diamonds"],                      # a cinquante to the 10 of spades
    S: ["Q of spades", "K of spades", "A of spades", "7 of hearts", "9 of hearts", "K of hearts", "Q of hearts",
        "10 of clubs"],                                         # a tierce to the ace of spades; belote
    W: ["8 of hearts", "10 of hearts", "A of diamonds", "10 of diamonds", "8 of diamonds", "Q of clubs",
        "K of clubs", "A of clubs"],                            # a tierce to the ace of clubs
}


def test_each_player_may_declare_what_he_holds_and_the_best_side_counts_all_of_its_declarations():
    game = game_of("belote", 4)
    state = at_step(game, "belote_held", HANDS, dealer=W, trump="hearts", taker=N, teams=TEAMS)
    assert state.seat_vars["has_belote"] == [False, False, True, False]
    assert set(game.labels(state)) == {"no declaration", "carré of Js", "tierce to the 9 of clubs"}   # North leads
    for label in ["carré of Js", "tierce to the 9 of clubs", "cinquante to the 10 of spades",
                  "tierce to the A of spades", "no declaration"]:
        game.apply(state, game.action_for_label(state, label))
    announced = state.seat_vars["announced"]
    assert list(announced[W]) == [] and len(announced[N]) == 2
    # the declarations count for North-South only (the carré of jacks is the best): 200 + 20 + 20; made, as
    # North-South take hearts and spades and the last trick (102) against diamonds and clubs (60)
    assert _score(_suit("hearts") + _suit("spades"), announced=announced) == [342, 60, 342, 60]
    # without the carré, East's cinquante is the best: East-West count 50, and with 110 against North-South's 102
    # the takers are dedans: East-West score 162 and the 50
    announced = [[d for d in announced[N] if d // 10000 == 20], announced[E], announced[S], []]
    assert _score(_suit("hearts") + _suit("spades"), announced=announced) == [0, 212, 0, 212]


def test_of_equal_declarations_the_higher_sequence_then_the_one_at_trumps_counts_and_a_full_tie_for_neither():
    game = game_of("belote", 4)

    def count(hands):
        state = at_step(game, "declare", hands, dealer=W, trump="hearts", taker=N, teams=TEAMS)
        while "no declaration" in game.labels(state):
            game.apply(state, game.action_for_label(state, [x for x in game.labels(state) if x != "no declaration"][0]))
        return _score(_suit("hearts") + _suit("spades"), announced=state.seat_vars["announced"])

    rest = ["8 of diamonds", "10 of diamonds", "A of diamonds", "8 of spades", "10 of spades"]
    hands = {N: ["7 of clubs", "8 of clubs", "9 of clubs"] + rest, E: ["8 of hearts", "9 of hearts", "10 of hearts"],
             S: ["J of clubs", "Q of clubs", "K of clubs"], W: ["J of spades", "Q of spades", "K of spades"]}
    assert count(hands) == [102, 60, 102, 60]                  # the tierces to the K: South's and West's tie
    hands[E] = ["J of hearts", "Q of hearts", "K of hearts"]
    hands[W] = ["7 of diamonds", "9 of diamonds", "J of diamonds"]
    assert count(hands) == [102, 80, 102, 80]                  # East's at trumps beats South's: 20 for East-West


# ---------------------------------------------------------------- II, V: the score of a deal

def _score(takers: list[str], taker: int = N, last: int = N, announced=None, belote=None, tricks=None,
           litige: int = 0, game=None, **contract) -> list[int]:
    """The deal's score when the takers' side (North-South) won the cards ``takers`` and East-West the others."""
    game = game or game_of("belote", 4)
    every = [c for s in ["spades", "hearts", "diamonds", "clubs"] for c in _suit(s)]
    state = game.new_state()
    state.counters["tricks"] = tricks or [4, 4, 0, 0]
    state = at_step(game, "score", {s: [] for s in range(4)}, state=state, dealer=W, teams=TEAMS,
                    zones={"won": {N: takers, E: [c for c in every if c not in takers]}},
                    trump="hearts", taker=taker, last_winner=last, game_values={"litige": litige},
                    seat_values={"announced": {s: (announced or [[]] * 4)[s] for s in range(4)},
                                 "has_belote": {s: s in (belote or []) for s in range(4)}}, **contract)
    return state.round_results[-1]


def test_the_card_points_add_up_to_162_with_the_dix_de_der_and_the_side_making_more_scores_its_own():
    assert _score(_suit("hearts") + _suit("spades")) == [102, 60, 102, 60]   # 62 + 30 + 10 against 60
    assert _score(_suit("diamonds") + _suit("clubs"), last=E) == [0, 162, 0, 162]   # 60 against 102: dedans


def test_a_side_that_takes_every_trick_scores_250_for_its_capot():
    every = [c for s in ["spades", "hearts", "diamonds", "clubs"] for c in _suit(s)]
    assert _score(every, tricks=[4, 0, 4, 0]) == [250, 0, 250, 0]


def test_dedans_the_defenders_score_162_and_the_declarations_and_belote_stays_with_its_holders():
    clubs = _suit("diamonds") + _suit("clubs")
    tierce = [_declared(N, "7 of clubs", "8 of clubs", "9 of clubs")[N], [], [], []]
    assert _score(clubs, last=E, announced=tierce) == [0, 182, 0, 182]           # 80 against 102
    assert _score(clubs, last=E, announced=tierce, belote=[S]) == [20, 182, 20, 182]   # 100 against 102


def test_a_deal_in_dispute_holds_the_takers_points_for_the_side_that_wins_the_next():
    takers = _suit("hearts") + ["K of diamonds", "Q of diamonds", "J of diamonds"]   # 71 + 10 against 81
    game = game_of("belote", 4)
    state = game.new_state()
    state.counters["tricks"] = [4, 4, 0, 0]
    every = [c for s in ["spades", "hearts", "diamonds", "clubs"] for c in _suit(s)]
    state = at_step(game, "score", {s: [] for s in range(4)}, state=state, dealer=W, teams=TEAMS,
                    zones={"won": {N: takers, E: [c for c in every if c not in takers]}}, trump="hearts", taker=N,
                    last_winner=N, seat_values={"announced": {s: [] for s in range(4)}, "has_belote": {}})
    assert state.round_results[-1] == [0, 81, 0, 81]
    assert state.game_vars["litige"] == 81
    # the next deal won by the takers' side brings them the 81 held, a deal won by the defenders brings it to them
    assert _score(_suit("hearts") + _suit("spades"), litige=81) == [183, 60, 183, 60]
    assert _score(_suit("diamonds") + _suit("clubs"), last=E, litige=81) == [0, 243, 0, 243]


def _declared(seat: int, *cards: str) -> dict[int, list[int]]:
    """The declarations a seat holding these cards makes (hearts trumps), as the rule file keeps them."""
    game = game_of("belote", 4)
    hands = {s: [f"{r} of diamonds"] for s, r in enumerate("78JQ")}   # every seat holds a card: play waits
    hands[seat] = list(cards)
    state = at_step(game, "declare", hands, dealer=W, trump="hearts", taker=N, teams=TEAMS)
    while "no declaration" in game.labels(state):
        game.apply(state, game.action_for_label(state, [x for x in game.labels(state) if x != "no declaration"][0]))
    return dict(enumerate(state.seat_vars["announced"]))


def test_contree_a_contract_made_scores_the_bid_and_the_points_down_160_and_the_bid_doubled_by_contre():
    game = game_of("belote", 4, contree=True)
    won = _suit("hearts") + _suit("spades")                                # 102 against 60

    def score(amount, coinche=1, **more):
        return _score(won, game=game, amount=amount, coinche=coinche, **more)
    assert score(100) == [202, 60, 202, 60]                                # made: 100 + 102, and 60
    assert score(110) == [0, 270, 0, 270]                                  # down: 160 + 110
    assert score(100, 2) == [360, 0, 360, 0]                               # contré, made: 160 + 2 x 100
    assert score(110, 4) == [0, 600, 0, 600]                               # surcontré, down: 160 + 4 x 110
    assert score(110, belote=[E]) == [0, 290, 0, 290]                      # the defenders' belote as well
    assert score(120, belote=[S]) == [242, 60, 242, 60]                    # belote counts: 102 + 20 make 120
    every = [c for s in ["spades", "hearts", "diamonds", "clubs"] for c in _suit(s)]
    assert _score(every, game=game, amount=250, coinche=1, tricks=[4, 0, 4, 0]) == [500, 0, 500, 0]   # capot made
    assert score(250) == [0, 410, 0, 410]                                  # capot bid, a trick lost


# ---------------------------------------------------------------- V Prise et contrat

def _dealt(seed: int, **options):
    """A game just dealt (North deals, East speaks first) and a way to take the actions of these labels."""
    game = game_of("belote", 4, **options)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(seed)))

    def say(*labels: str) -> None:
        for label in labels:
            game.apply(state, game.action_for_label(state, label))
    return game, state, say


def test_classic_the_taker_takes_the_turned_card_and_two_more_the_others_three():
    game, state, say = _dealt(3)
    turned = game.cards.labels[state.shared["turned"][0]]
    suit = turned.split(" of ")[1]
    assert state.pending.actor == E and set(game.labels(state)) == {f"take at {suit}", "pass"}
    say("pass", f"take at {suit}")                                          # South takes
    hands = state.per_seat["hand"]
    assert [len(h) for h in hands] == [8, 8, 8, 8] and turned in [game.cards.labels[c] for c in hands[S]]
    assert state.vars["taker"] == S and state.vars["trump"] == suit


def test_classic_all_passing_twice_throws_the_deal_in():
    game, state, say = _dealt(3)
    say("pass", "pass", "pass", "pass")
    assert len(game.labels(state)) == 4 and sum(lab.startswith("take at ") for lab in game.labels(state)) == 3
    say("pass", "pass", "pass", "pass")
    assert state.round_results[-1] == [0, 0, 0, 0] and state.pending.actor == CHANCE


def test_contree_bids_climb_by_tens_contre_and_surcontre_end_the_auction():
    game, state, say = _dealt(1, contree=True)
    assert state.pending.actor == E and "80 hearts" in game.labels(state) and "contre" not in game.labels(state)
    say("90 spades")
    assert "90 hearts" not in game.labels(state) and {"100 hearts", "capot clubs"} <= set(game.labels(state))
    say("contre")                                                           # South: an opponent of East
    assert set(game.labels(state)) == {"surcontre", "pass"}                 # West: East's partner
    say("surcontre")
    assert state.vars["contract"] == "90 spades surcontré by East" and state.vars["coinche"] == 4


def test_contree_three_passes_after_a_bid_end_the_auction_and_four_passes_throw_the_deal_in():
    game, state, say = _dealt(1, contree=True)
    say("80 clubs", "100 hearts", "pass", "pass", "pass")
    assert state.vars["contract"] == "100 hearts by South" and state.vars["amount"] == 100
    game, state, say = _dealt(1, contree=True)
    say("pass", "pass", "pass", "pass")
    assert state.round_results[-1] == [0, 0, 0, 0] and state.pending.actor == CHANCE
