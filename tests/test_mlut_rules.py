"""Mit List und Tücke: the rulebook's examples and rules as exact tests of games/mit-list-und-tuecke.yaml."""

from __future__ import annotations

import random

import pytest

from interpreter.harness.runner import play_game

from .conftest import at_step, card, game_of, trick_progress

NAME = "mit-list-und-tuecke"


def labels(game, cards):
    return sorted(game.cards.labels[c] for c in cards)


def play(game, state, label):
    game.apply(state, game.action_for_label(state, label))


def trick_state(hands, dealer=None):
    """A state at the first card; the leader is seat 0 (the dealer is the last seat)."""
    game = game_of(NAME, len(hands))
    state = at_step(game, "tricks", dict(enumerate(hands)), dealer=len(hands) - 1 if dealer is None else dealer)
    return game, state


@pytest.mark.parametrize("players,deck", [(4, 56), (5, 70), (6, 84)])
def test_the_deck_by_player_count_and_14_cards_each(players, deck):
    game = game_of(NAME, players)
    assert len(game.deck) == deck
    by_colour = {}
    for c in game.deck:
        by_colour.setdefault(game.cards.attributes["colour"][c], []).append(game.cards.attributes["number"][c])
    top = {colour: max(numbers) for colour, numbers in by_colour.items()}
    assert top == {4: {"blue": 14, "green": 14, "red": 14, "yellow": 14},
                   5: {"blue": 17, "green": 17, "red": 18, "yellow": 18},
                   6: {"blue": 21, "green": 21, "red": 21, "yellow": 21}}[players]
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(1)))
    assert [len(h) for h in state.per_seat["hand"]] == [14] * players


def test_the_led_suit_need_not_be_followed():
    game, state = trick_state([["red 10", "red 1"], ["red 3", "yellow 6"], ["red 14", "blue 1"], ["blue 2", "red 4"]])
    play(game, state, "red 10")
    assert game.labels(state) == ["red 3", "yellow 6"]


def test_the_rulebook_trick_example_c_picks_three_cards_d_takes_two_and_leads():
    hands = [["red 10", "green 1"], ["yellow 6", "green 2"], ["red 14", "green 3"], ["blue 2", "green 4"],
             ["yellow 16", "green 5"]]
    game, state = trick_state(hands)
    for lab in ("red 10", "yellow 6", "red 14", "blue 2"):
        play(game, state, lab)
    # three colours are on the table: E cannot play the green 5
    assert game.labels(state) == ["yellow 16"]
    play(game, state, "yellow 16")
    assert game.current(state) == 2                                  # C chooses
    assert sorted(game.labels(state)) == ["take blue 2", "take red 10", "take red 14", "take yellow 16",
                                          "take yellow 6"]
    for lab in ("take red 14", "take red 10", "take yellow 16"):
        assert game.current(state) == 2
        play(game, state, lab)
    assert labels(game, state.per_seat["stacks"][2]) == ["red 10", "red 14", "yellow 16"]
    assert labels(game, state.per_seat["stacks"][3]) == ["blue 2", "yellow 6"]   # D takes the rest
    assert game.current(state) == 3                                  # and leads the next trick
    assert state.shared["trick"] == []


def test_of_equal_lowest_off_colour_cards_the_first_played_takes_the_rest():
    hands = [["red 10", "green 1"], ["yellow 6", "green 2"], ["red 14", "green 3"], ["blue 6", "green 4"]]
    game, state = trick_state(hands)
    for lab in ("red 10", "yellow 6", "red 14", "blue 6"):
        play(game, state, lab)
    play(game, state, "take red 14")
    play(game, state, "take red 10")
    assert labels(game, state.per_seat["stacks"][1]) == ["blue 6", "yellow 6"]
    assert game.current(state) == 1


def test_a_one_colour_trick_the_high_winner_chooses_the_rest_is_discarded_and_he_leads():
    hands = [["red 10", "green 1"], ["red 6", "green 2"], ["red 14", "green 3"], ["red 2", "green 4"]]
    game, state = trick_state(hands)
    for lab in ("red 10", "red 6", "red 14", "red 2"):
        play(game, state, lab)
    play(game, state, "take red 14")
    play(game, state, "take red 10")
    assert labels(game, state.per_seat["stacks"][2]) == ["red 10", "red 14"]
    assert labels(game, state.shared["out"]) == ["red 2", "red 6"]
    assert game.current(state) == 2


def test_a_player_holding_only_the_fourth_colour_ends_the_round_at_once():
    hands = [["red 10", "green 1"], ["yellow 6", "green 2"], ["blue 3", "blue 4"], ["green 5", "green 6"]]
    game, state = trick_state(hands)
    state.notes = []
    for lab in ("red 10", "yellow 6", "blue 3"):
        play(game, state, lab)
    assert "D cannot play: trick play ends" in state.notes
    # D holds only green, the fourth colour: the trick and all hands are out of play, the round is scored
    assert state.round_number == 2
    assert state.round_results[0] == [0, 0, 0, 0]
    assert state.pending.step.name == "deal"     # the next round's deal has not gathered the cards yet
    assert labels(game, state.shared["out"]) == ["blue 3", "blue 4", "green 1", "green 2", "green 5", "green 6",
                                                 "red 10", "yellow 6"]
    assert state.shared["trick"] == [] and all(h == [] for h in state.per_seat["hand"])


def test_the_colour_choice_comes_when_all_four_colours_are_collected_and_later_cards_go_face_down():
    hands = [["red 10", "red 2", "green 1"], ["yellow 6", "green 2", "blue 9"], ["red 14", "yellow 9", "green 3"],
             ["blue 5", "yellow 1", "green 4"]]
    game, state = trick_state(hands)
    # C has already collected a green and a blue card
    state.per_seat["stacks"][2] = [card(game, "green 13"), card(game, "blue 13")]
    for lab in ("red 10", "yellow 6", "red 14", "blue 5"):
        play(game, state, lab)
    play(game, state, "take red 14")
    play(game, state, "take yellow 6")
    assert game.current(state) == 2          # C now shows all four colours: C chooses two to keep
    assert state.pending.step.name == "keep"
    assert game.labels(state) == ["keep blue + green", "keep blue + red", "keep blue + yellow",
                                  "keep green + red", "keep green + yellow", "keep red + yellow"]
    play(game, state, "keep green + red")
    assert state.seat_vars["kept"][2] == ["green", "red"]
    assert labels(game, state.per_seat["stacks"][2]) == ["green 13", "red 14"]
    assert labels(game, state.per_seat["pile"][2]) == ["blue 13", "yellow 6"]
    assert labels(game, state.per_seat["stacks"][3]) == ["blue 5", "red 10"]   # D: the lowest other card
    assert game.current(state) == 3
    # later cards of C's dropped colours go straight to the face-down pile: C wins the next trick with
    # the yellow 9 and takes the yellow 1 (dropped) and the red 2 (kept); A's red 2 takes the rest
    for lab in ("yellow 1", "red 2", "green 2", "yellow 9"):
        play(game, state, lab)
    assert trick_progress(state).winner == 2
    play(game, state, "take yellow 1")
    play(game, state, "take red 2")
    assert labels(game, state.per_seat["pile"][2]) == ["blue 13", "yellow 1", "yellow 6"]
    assert labels(game, state.per_seat["stacks"][2]) == ["green 13", "red 14", "red 2"]
    assert labels(game, state.per_seat["stacks"][0]) == ["green 2", "yellow 9"]
    assert state.pending.step.name == "tricks" and game.current(state) == 0   # nobody else has four colours


def score_for(stacks, pile=0):
    """The score of one seat with open stacks of the given sizes per colour and a face-down pile."""
    game = game_of(NAME, 6)
    state = game.new_state()
    taken = set()
    cards = []
    for colour, n in stacks.items():
        cards += [card(game, f"{colour} {i}", taken) for i in range(1, n + 1)]
    state.per_seat["stacks"][0] = cards
    state.per_seat["pile"][0] = [card(game, f"blue {i}", taken) for i in range(21 - pile + 1, 22)]
    steps = {s.name: s for s in game.steps}
    steps["stacks"].start(game, state)      # the sizes of the open stacks, as the round's end works them out
    return steps["score"].points({"$s": state, "seat": 0})


@pytest.mark.parametrize("stacks,pile,points", [
    ({"green": 5, "red": 6, "yellow": 3}, 0, 10),    # player A: 5 x 6 = 30, 30 : 3
    ({"red": 5, "blue": 4, "yellow": 3}, 0, 6),      # player B: 20 : 3 = 6.6, rounded down
    ({"blue": 7, "green": 8}, 4, 14),                # player C: 56 : 4 discarded cards
    ({"yellow": 7, "red": 1, "blue": 1}, 0, 7),      # player D: 7 x 1 : 1
    ({"green": 3, "blue": 5}, 0, 15),                # player E: two colours, not divided by 0
    ({"red": 9}, 0, 0),                              # one colour only: nothing
    ({}, 0, 0),                                      # nothing collected
])
def test_the_rulebook_scoring_examples(stacks, pile, points):
    assert score_for(stacks, pile) == points


@pytest.mark.parametrize("players", [4, 5, 6])
def test_as_many_rounds_as_players(players):
    out = play_game(game_of(NAME, players), seed=2)
    assert out.rounds == players
