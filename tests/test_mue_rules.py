"""Mü: the rulebooks' examples and rules as exact tests of games/mue.yaml and games/mue-riogrande.yaml.

The examples are those of the German rules ("Mü & mehr", Doris & Frank), also printed in the Rio
Grande edition: Anna, Beate, Conny, Dagmar and Emma play with 5 players, Anna deals.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter.engine.observation import observe
from interpreter.engine.steps.action_types import Pass, Stop
from interpreter.harness.runner import play_game
from interpreter.match.records import replay, write_record

from .conftest import at_step, game_of, trick_progress

ANNA, BEATE, CONNY, DAGMAR, EMMA = range(5)
COLOURS = ["red", "blue", "yellow", "green", "black"]


def worth(label: str) -> int:
    """The triangles of a card, as the rulings give them: 1s and 9s 0, 6s and 7s 2, every other card 1."""
    number = int(label.split()[-1])
    return 0 if number in (1, 9) else 2 if number in (6, 7) else 1


def play(game, state, *labels):
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def asked(game, state):
    return game.seat_names[state.pending.actor]


def fill(game, wanted: dict[int, list[str]], size: int) -> dict[int, list[str]]:
    """Hands of ``size`` cards: the cards each seat is given, then cards nobody was given."""
    pool = Counter(game.cards.labels[c] for c in game.deck)
    for cards in wanted.values():
        pool.subtract(cards)
    spare = [lab for lab, k in sorted(pool.items()) for _ in range(k)]
    hands = {}
    for seat in range(game.players):
        hand = list(wanted.get(seat, []))
        while len(hand) < size:
            hand.append(spare.pop())
        hands[seat] = hand
    return hands


def piles(game, points: dict[int, int]) -> dict[int, list[str]]:
    """Trick piles worth the given points: 2-point cards first, then 1-point cards, the 0s anywhere."""
    by_worth = {w: [game.cards.labels[c] for c in game.deck if worth(game.cards.labels[c]) == w] for w in (0, 1, 2)}
    out = {}
    for seat, need in points.items():
        pile = []
        while need >= 2 and by_worth[2]:
            pile.append(by_worth[2].pop())
            need -= 2
        while need > 0:
            pile.append(by_worth[1].pop())
            need -= 1
        out[seat] = pile
    for i, lab in enumerate(by_worth[0]):      # the cards worth nothing change no score
        out.setdefault(i % game.players, []).append(lab)
    return out


def most_cards(game, state) -> int:
    """How many cards the seat to act may reveal in this turn (trying it on a copy)."""
    trial = game.clone(state) if hasattr(game, "clone") else state.clone()
    seat, k = trial.pending.actor, 0
    while trial.pending.step.name == "auction" and trial.pending.actor == seat:
        cards = [a for a in game.legal_actions(trial) if game.label(trial, a) not in ("pass", "done")]
        if not cards:
            break
        game.apply(trial, cards[0])
        k += 1
    return k


# ======================================================================= the deck


def test_60_cards_in_5_colours_worth_12_each_and_dealt_evenly():
    game = game_of("mue", 5)
    labels = [game.cards.labels[c] for c in game.deck]
    assert len(labels) == 60
    for colour in COLOURS:
        numbers = sorted(int(lab.split()[1]) for lab in labels if lab.startswith(colour + " "))
        assert numbers == [0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9]
    for players, hand in ((3, 12), (4, 15), (5, 12), (6, 10)):
        game = game_of("mue", players)
        state = game.new_state()
        game.apply_chance(state, game.sample_chance(state, random.Random(players)))
        assert [len(h) for h in state.per_seat["hand"]] == [hand] * players


def test_with_3_players_two_colours_are_left_out():
    game = game_of("mue", 3)
    colours = {game.cards.labels[c].split()[0] for c in game.deck}
    assert len(game.deck) == 36 and len(colours) == 3


def test_the_rio_grande_edition_is_for_4_to_6_players():
    assert sorted(game_of("mue-riogrande", n).players for n in (4, 5, 6)) == [4, 5, 6]
    with pytest.raises(Exception, match="not 3"):
        game_of("mue-riogrande", 3)


# ======================================================================= the auction (example 1)


EXAMPLE_1 = {ANNA: ["red 6", "red 2", "red 9"], BEATE: ["blue 9"], CONNY: ["yellow 8", "green 9", "red 5"],
             DAGMAR: ["green 1", "blue 1", "green 8", "green 7"], EMMA: ["red 8"]}


def auction(game=None):
    """5 players at the start of the auction, Anna dealing, with the cards of example 1 in hand."""
    game = game or game_of("mue", 5)
    return game, at_step(game, "auction", fill(game, EXAMPLE_1, 12), dealer=ANNA)


def example_1_first_rounds(game, state):
    """The auction of example 1 up to Dagmar's last bid."""
    # round 1: Anna opens with one card, Beate passes, Conny draws level, Dagmar raises
    assert asked(game, state) == "Anna" and most_cards(game, state) == 1
    play(game, state, "red 6")                       # one card is all the dealer may open with
    assert asked(game, state) == "Beate" and most_cards(game, state) == 2
    play(game, state, "pass")
    assert most_cards(game, state) == 2
    play(game, state, "yellow 8", "done")
    assert asked(game, state) == "Dagmar" and most_cards(game, state) == 2
    play(game, state, "green 1", "blue 1")           # two: her turn is over by itself
    assert asked(game, state) == "Emma" and most_cards(game, state) == 3   # "Emma could play three cards"
    play(game, state, "pass")
    # round 2: Anna draws level with Dagmar, Beate bids low, Conny raises to 3, Emma bids one
    assert most_cards(game, state) == 2
    play(game, state, "red 2", "done")
    assert asked(game, state) == "Beate" and most_cards(game, state) == 3  # may come back after a pass
    play(game, state, "blue 9", "done")              # an underbid
    assert most_cards(game, state) == 2
    play(game, state, "green 9", "red 5")
    play(game, state, "pass")                        # Dagmar
    play(game, state, "red 8", "done")               # Emma
    # round 3
    play(game, state, "red 9", "done")               # Anna: 3
    play(game, state, "pass", "pass")                # Beate, Conny
    assert asked(game, state) == "Dagmar" and most_cards(game, state) == 2


def test_example_1_who_may_bid_how_many_and_emma_is_not_asked_in_the_last_round():
    game, state = auction()
    example_1_first_rounds(game, state)
    play(game, state, "green 8", "green 7")          # Dagmar: 4
    play(game, state, "pass")                        # Emma begins the circle of passes
    for name in ("Anna", "Beate", "Conny", "Dagmar"):
        assert state.pending.step.name == "auction" and asked(game, state) == name
        play(game, state, "pass")
    # every seat has passed in a row: Emma is not asked again; Dagmar is chief, Conny vice (example 2, 4)
    assert state.pending.step.name == "vice_trump" and asked(game, state) == "Conny"
    assert [len(r) for r in state.per_seat["revealed"]] == [3, 1, 3, 4, 1]
    assert state.vars["chief"] == DAGMAR and state.vars["vice"] == CONNY and state.vars["height"] == 4
    # the vice names a colour or number among his revealed cards, and must name one
    assert game.labels(state) == ["yellow", "green", "red", "5", "8", "9"]
    play(game, state, "red")
    # example 5: Dagmar may name green, blue, 1, 7 or 8, or play without a trump of her own
    assert asked(game, state) == "Dagmar"
    assert game.labels(state) == ["no trump", "green", "blue", "1", "7", "8"]
    play(game, state, "green")
    assert state.vars["chief_trump"] == "green" and state.vars["vice_trump"] == "red"
    # the partner: anyone but the vice
    assert asked(game, state) == "Dagmar" and game.labels(state) == ["Anna", "Beate", "Emma"]
    play(game, state, "Anna")
    assert state.vars["partner"] == ANNA
    assert sorted(state.teams[s] == state.teams[DAGMAR] for s in range(5)) == [False] * 3 + [True] * 2
    assert state.teams[ANNA] == state.teams[DAGMAR]
    # the chief leads, from the hand or the revealed cards
    assert state.pending.step.name == "tricks" and asked(game, state) == "Dagmar"
    assert {"green 1 from revealed", "blue 1 from revealed"} <= set(game.labels(state))


def test_the_chief_may_not_name_the_vices_trump():
    game, state = auction()
    example_1_first_rounds(game, state)
    play(game, state, "green 8", "green 7", "pass", "pass", "pass", "pass", "pass")
    play(game, state, "8")                           # Conny names 8
    assert game.labels(state) == ["no trump", "green", "blue", "1", "7"]
    play(game, state, "no trump")
    assert state.vars["chief_trump"] is None and state.vars["vice_trump"] == 8


def test_example_3_eklat_dagmar_minus_30_anna_and_conny_plus_15():
    game, state = auction()
    example_1_first_rounds(game, state)
    play(game, state, "green 8", "done")             # Dagmar places only one card: 3, like Anna and Conny
    play(game, state, "pass", "pass", "pass", "pass", "pass")
    # nobody has the most alone: the hand ends at once, the deal moves on
    assert state.round_number == 2 and state.pending.kind == "chance"
    assert state.totals == [15, 0, 15, -30, 0]


def test_all_pass_in_the_first_round_is_an_eklat_without_points():
    game, state = auction()
    play(game, state, *["pass"] * 5)
    assert state.round_number == 2 and state.totals == [0] * 5
    game.apply_chance(state, game.sample_chance(state, random.Random(1)))
    assert asked(game, state) == "Beate"            # the left neighbour deals next and bids first


def test_the_eklat_penalty_goes_to_the_highest_bidder_who_revealed_last_not_to_a_later_underbid():
    game, state = auction()
    play(game, state, "red 6")                       # Anna 1
    play(game, state, "blue 9", "done")              # Beate 1
    play(game, state, "pass", "pass", "pass")        # Conny, Dagmar, Emma
    play(game, state, "pass", "pass")                # Anna, Beate: the circle of passes is complete
    assert state.totals == [5, -10, 0, 0, 0]
    game, state = auction()
    play(game, state, "red 6", "pass", "pass")       # Anna 1
    play(game, state, "green 1", "blue 1")           # Dagmar 2
    play(game, state, "pass")
    play(game, state, "red 2", "done")               # Anna 2: tied with Dagmar, and the later of the two
    play(game, state, "blue 9", "done")              # Beate underbids after her: not among the highest
    play(game, state, *["pass"] * 5)
    assert state.totals == [-20, 0, 0, 10, 0]


# ======================================================================= chief and vice


def bids(revealed: dict[int, list[str]], players=5, hands=None):
    """The state after the auction with these revealed cards: at the first trump choice (or later)."""
    game = game_of("mue", players)
    state = at_step(game, "bids", hands or {}, zones={"revealed": revealed}, dealer=ANNA)
    return game, state


def test_the_vice_tie_break_compares_the_highest_numbers_then_the_next():
    # example 4: Anna 9, 6, 2 against Conny 9, 8, 5
    game, state = bids({ANNA: ["red 6", "red 2", "red 9"], CONNY: ["yellow 8", "green 9", "red 5"],
                        DAGMAR: ["green 1", "blue 1", "green 8", "green 7"]})
    assert (state.vars["chief"], state.vars["vice"]) == (DAGMAR, CONNY)
    game, state = bids({ANNA: ["red 9", "red 8", "red 2"], CONNY: ["yellow 9", "yellow 8", "red 5"],
                        DAGMAR: ["green 1", "blue 1", "green 8", "green 7"]})
    assert state.vars["vice"] == CONNY                 # 9, 8, 5 over 9, 8, 2
    game, state = bids({ANNA: ["red 9", "red 8"], CONNY: ["yellow 9", "yellow 8"], BEATE: ["blue 7"],
                        DAGMAR: ["green 1", "blue 1", "green 8"]})
    assert state.vars["vice"] is None                  # still tied: no vice
    assert state.pending.step.name == "chief_trump"


def test_no_vice_when_only_the_chief_bid_nor_with_3_players():
    game, state = bids({DAGMAR: ["green 1"]})
    assert (state.vars["chief"], state.vars["vice"]) == (DAGMAR, None)
    assert state.pending.step.name == "chief_trump" and game.labels(state) == ["no trump", "green", "1"]
    game, state = bids({0: ["red 9", "red 8"], 1: ["yellow 9"]}, players=3)
    assert (state.vars["chief"], state.vars["vice"]) == (0, None)


def test_with_3_players_the_chief_plays_alone():
    game, state = bids({0: ["red 9", "red 8"], 1: ["yellow 9"]}, players=3,
                       hands={0: ["blue 1"], 1: ["blue 2"], 2: ["blue 3"]})
    play(game, state, "red")                         # no partner to choose: the tricks begin
    assert state.pending.step.name == "tricks" and asked(game, state) == "Anna"
    assert state.vars["partner"] is None
    assert state.teams[0] != state.teams[1] and state.teams[1] == state.teams[2]


# ======================================================================= tricks


def trick(hands, chief_trump, vice_trump, players=4, revealed=None):
    """A trick led by the chief, seat 0, with these trumps."""
    game = game_of("mue", players)
    state = at_step(game, "tricks", dict(enumerate(hands)), zones={"revealed": revealed or {}}, chief=0,
                    chief_trump=chief_trump, vice_trump=vice_trump)
    return game, state


def winner_of(game, state, *labels):
    play(game, state, *labels)
    p = trick_progress(state)
    assert p.last, "the trick is not over"
    return game.seat_names[p.winner]


def test_a_chief_trump_0_beats_every_vice_trump():
    # red is led (the vice's trump); the chief trump green 0 follows, as both trumps are one suit,
    # and beats the vice's 9
    game, state = trick([["red 9", "red 1"], ["green 0", "red 2"], ["red 8", "blue 2"], ["red 7", "blue 3"]],
                        chief_trump="green", vice_trump="red")
    assert winner_of(game, state, "red 9", "green 0", "red 8", "red 7") == "Beate"
    # and when the vice trump is a number
    game, state = trick([["yellow 9", "red 1"], ["blue 9", "red 2"], ["green 0", "blue 2"], ["red 9", "blue 3"]],
                        chief_trump="green", vice_trump=9)
    assert winner_of(game, state, "yellow 9", "blue 9", "green 0", "red 9") == "Conny"


def test_a_double_trump_beats_every_other_trump():
    # chief trump red, vice trump 5: the red 5 is a double trump
    game, state = trick([["red 9", "red 1"], ["red 5", "red 2"], ["blue 5", "blue 2"], ["red 8", "blue 3"]],
                        chief_trump="red", vice_trump=5)
    assert winner_of(game, state, "red 9", "red 5", "blue 5", "red 8") == "Beate"
    # with the trumps the other way round too
    game, state = trick([["yellow 9", "red 1"], ["red 0", "red 2"], ["blue 5", "blue 2"], ["red 5", "blue 3"]],
                        chief_trump=5, vice_trump="red")
    assert winner_of(game, state, "yellow 9", "red 0", "blue 5", "red 5") == "Dagmar"


@pytest.mark.parametrize("number", [7, 1])
def test_two_double_trumps_the_first_played_wins(number):
    a, b = f"green {number}", f"green {number}"
    game, state = trick([["green 9", "red 0"], [a, "red 2"], [b, "blue 2"], ["green 8", "blue 3"]],
                        chief_trump="green", vice_trump=number)
    assert winner_of(game, state, "green 9", a, b, "green 8") == "Beate"


def test_equal_number_trumps_the_first_played_wins_and_chief_trumps_beat_vice_trumps():
    game, state = trick([["yellow 0", "red 0"], ["blue 6", "red 2"], ["red 6", "blue 2"], ["yellow 9", "blue 3"]],
                        chief_trump=6, vice_trump="yellow")
    assert winner_of(game, state, "yellow 0", "blue 6", "red 6", "yellow 9") == "Beate"


def test_a_number_trump_card_does_not_follow_its_printed_colour():
    # 6 is trump: the red 6 is not a red card
    game, state = trick([["red 3", "blue 0"], ["red 6", "blue 9"], ["red 2", "red 4"], ["blue 8", "blue 3"]],
                        chief_trump=6, vice_trump=None)
    play(game, state, "red 3")
    assert game.labels(state) == ["red 6", "blue 9"]    # no red card: any card
    play(game, state, "blue 9")
    assert game.labels(state) == ["red 2", "red 4"]
    # trump led: a number trump must be followed with trumps, whatever their colour
    game, state = trick([["yellow 6", "blue 0"], ["red 6", "red 9"], ["red 2", "red 4"], ["blue 8", "blue 3"]],
                        chief_trump=6, vice_trump=None)
    play(game, state, "yellow 6")
    assert game.labels(state) == ["red 6"]


def test_cards_are_played_from_the_hand_or_the_revealed_cards_and_following_looks_at_both():
    game, state = trick([["red 3"], ["blue 9"], ["blue 2"], ["blue 8"]], chief_trump=None, vice_trump=None,
                        revealed={0: ["yellow 4"], 1: ["red 5"], 2: ["red 4"], 3: ["green 3"]})
    assert game.labels(state) == ["red 3", "yellow 4 from revealed"]
    play(game, state, "red 3")
    assert game.labels(state) == ["red 5 from revealed"]   # must follow red with the revealed red 5
    play(game, state, "red 5 from revealed")
    assert game.labels(state) == ["red 4 from revealed"]
    play(game, state, "red 4 from revealed")
    assert game.labels(state) == ["blue 8", "green 3 from revealed"]
    assert observe(game, state, 3)["zones"]["revealed"]["Anna"] == ["yellow 4"]   # revealed cards are open


# ======================================================================= scoring


def hand_scored(points, chief, partner, height, chief_trump, vice_trump=None, vice=None, players=5,
                state=None, game=None):
    """Score one hand: the chief team's round values, and trick piles worth ``points`` (seat -> points)."""
    game = game or game_of("mue", players)
    before = list(state.totals) if state is not None else [0] * players
    state = at_step(game, "teams", {}, state=state, zones={"won": piles(game, points)}, chief=chief,
                    partner=partner, height=height, chief_trump=chief_trump, vice_trump=vice_trump, vice=vice)
    assert state.pending is None or state.pending.kind == "chance"   # no trick to play: scored at once
    return game, state, [t - b for t, b in zip(state.totals, before)]


def test_example_6_the_team_goal_for_5_players_at_height_4_is_33():
    # 33 points meet the goal (bonus 40 with a colour trump); 32 miss it by one height (achieved 3)
    *_, scores = hand_scored({DAGMAR: 20, ANNA: 13, BEATE: 27}, DAGMAR, ANNA, 4, "green")
    assert scores == [13 + 40, 27, 0, 20 + 40, 0]
    *_, scores = hand_scored({DAGMAR: 20, ANNA: 12, BEATE: 28}, DAGMAR, ANNA, 4, "green")
    assert scores == [12, 28 + 5, 5, 20 - 10, 5]


@pytest.mark.parametrize("players, height, goal", [
    (3, 1, 12), (3, 12, 34), (4, 1, 30), (4, 15, 58), (5, 4, 33), (5, 12, 57), (6, 1, 20), (6, 10, 56)])
def test_the_printed_team_goal_table(players, height, goal):
    chief, partner = 0, (1 if players > 3 else None)
    others = 2 if partner is not None else 1
    *_, met = hand_scored({chief: goal, others: 0}, chief, partner, height, "red", players=players)
    *_, short = hand_scored({chief: goal - 1, others: 0}, chief, partner, height, "red", players=players)
    bonus = min(100, 10 * height)
    assert met[chief] == goal + bonus and short[chief] < goal - 1


@pytest.mark.parametrize("height, trump, bonus", [
    (4, "green", 40), (4, 1, 50), (5, 7, 60), (4, 7, 50), (4, 5, 60), (4, None, 70), (1, "red", 10),
    (9, 0, 100), (10, "red", 100), (12, None, 100)])
def test_the_bonus_by_height_and_kind_of_chief_trump(height, trump, bonus):
    # example 7: a colour at height 4 gives 40 each, the 1s 50; example 9: the 7s at height 5 give 60
    *_, scores = hand_scored({DAGMAR: 60}, DAGMAR, ANNA, height, trump)
    assert scores[DAGMAR] == 60 + bonus and scores[ANNA] == bonus and scores[BEATE] == 0


def test_example_8_a_missed_goal_costs_the_chief_10_and_gives_each_opponent_5_per_height():
    # Dagmar 20 and Anna 9: 29 points meet height 2 only, 2 short of the bid 4
    *_, scores = hand_scored({DAGMAR: 20, ANNA: 9, BEATE: 31}, DAGMAR, ANNA, 4, "green")
    assert scores == [9 + 0, 31 + 10, 10, 20 - 20, 10]
    # with 23 points they meet no height at all: 4 short
    *_, scores = hand_scored({DAGMAR: 14, ANNA: 9, BEATE: 37}, DAGMAR, ANNA, 4, "green")
    assert scores == [9, 37 + 20, 20, 14 - 40, 20]


def test_example_9_the_score_sheet_of_three_hands():
    game = game_of("mue", 5)
    # hand 1, Anna deals: an Eklat at height 4, Dagmar bid last
    state = at_step(game, "auction", fill(game, {}, 12), dealer=ANNA)

    def reveal(seat, k):
        for _ in range(k):
            play(game, state, game.cards.labels[state.per_seat["hand"][seat][0]])

    reveal(ANNA, 1)
    reveal(BEATE, 2)
    play(game, state, "pass")                        # Conny
    reveal(DAGMAR, 3)
    play(game, state, "pass")                        # Emma
    reveal(ANNA, 3)                                  # Anna 4
    reveal(BEATE, 2)                                 # Beate 4 (she could have gone to 5)
    play(game, state, "done")
    play(game, state, "pass")                        # Conny
    reveal(DAGMAR, 1)                                # Dagmar 4, the last
    play(game, state, "done", *["pass"] * 5)
    assert state.totals == [20, 20, 0, -40, 0]
    # hand 2, Beate deals: Dagmar and Conny win at height 5 with the 7s as chief trump
    _, state, _ = hand_scored({ANNA: 11, BEATE: 3, CONNY: 22, DAGMAR: 15, EMMA: 9}, DAGMAR, CONNY, 5, 7,
                              vice_trump="red", vice=ANNA, state=state, game=game)
    assert state.totals == [31, 23, 82, 35, 9]
    # hand 3, Conny deals: Conny and Anna lose at height 4 with red, 3 heights short
    _, state, _ = hand_scored({ANNA: 19, BEATE: 13, CONNY: 5, DAGMAR: 3, EMMA: 20}, CONNY, ANNA, 4, "red",
                              state=state, game=game)
    assert state.totals == [50, 51, 57, 53, 44]
    assert state.dealer == DAGMAR and not state.finished


# ======================================================================= the end of the game


def after_a_hand_without_points(name, totals, **options):
    game = game_of(name, 4, **options)
    state = at_step(game, "auction", fill(game, {}, 15), dealer=ANNA)
    state.totals = list(totals)
    play(game, state, *["pass"] * 4)                  # everyone passes: an Eklat without points
    return state


def test_the_german_edition_ends_when_a_total_exceeds_the_target_the_rio_grande_when_one_reaches_it():
    assert not after_a_hand_without_points("mue", [200, 10, 0, 0]).finished
    assert after_a_hand_without_points("mue", [201, 10, 0, 0]).finished
    assert after_a_hand_without_points("mue-riogrande", [200, 10, 0, 0]).finished
    assert not after_a_hand_without_points("mue-riogrande", [199, 10, 0, 0]).finished
    assert not after_a_hand_without_points("mue", [201, 10, 0, 0], target=300).finished


def test_a_fixed_number_of_hands_instead_of_a_target():
    game = game_of("mue", 4, hands=3)
    result = play_game(game, seed=5)
    assert result.rounds == 3


# ======================================================================= whole hands with trick play


class CautiousBidder:
    """Random play, except that in a turn of the auction it passes or stops half the time.

    Uniformly random bidders reveal nearly every card and tie (an Eklat in almost every hand with 5 or 6
    players), so the conformance suite seldom reaches the tricks; these bidders make chiefs.
    """

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def act(self, turn):
        legal = turn.legal
        enough = [a for a in legal if isinstance(a, (Pass, Stop))]
        if enough and self.rng.random() < 0.5:
            return enough[0]
        return legal[self.rng.randrange(len(legal))]


@pytest.mark.parametrize("name, players", [("mue", 3), ("mue", 4), ("mue", 5), ("mue", 6), ("mue-riogrande", 5)])
def test_hands_with_a_chief_play_every_card_and_score_the_60_points(name, players, tmp_path):
    game = game_of(name, players)
    deck = sorted(game.deck)
    chiefs, played = set(), {}                       # hands with a chief; hand -> cards and points in the tricks

    def check(state):
        assert sorted(state.all_cards()) == deck
        if state.vars.get("chief") is not None:
            chiefs.add(state.round_number)
        at_deal = state.pending is not None and state.pending.kind == "chance"
        hand = state.round_number - 1 if at_deal else state.round_number
        if (at_deal or state.finished) and hand in chiefs and hand not in played:   # the tricks lie until the deal
            won = [c for pile in state.per_seat["won"] for c in pile]
            played[hand] = (len(won), sum(worth(game.cards.labels[c]) for c in won))

    for seed in range(2):
        agents = [CautiousBidder(f"{seed}/{s}") for s in range(players)]
        result = play_game(game, agents, seed=seed, record=True, after_each=check)
        path = tmp_path / f"{seed}.jsonl"
        write_record(path, result.record)
        assert replay(path, game=game).totals == result.totals
    assert len(played) >= 3 and len(played) == len(chiefs)
    total = 60 if players > 3 else 36
    assert all(v == (total, total) for v in played.values())


def test_a_person_bidding_sees_every_revealed_card_and_the_reveals_in_order():
    from interpreter.harness.agents import render_observation

    game, state = auction()
    play(game, state, "red 6", "pass", "yellow 8", "done")
    view = render_observation(observe(game, state, DAGMAR))
    assert "reveals: Anna red 6, Conny yellow 8; " in view
    assert "revealed: Anna red 6; Conny yellow 8" in view
    assert "{" not in view and "your hand: " in view
    assert state.pending.prompt == "reveal"             # no "(12 to go)": with stop, count is only a bound
