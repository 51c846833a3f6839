"""The NJET rulebooks' worked examples and rules, as exact tests of the two game files."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.state import CHANCE
from interpreter.errors import IllegalAction

from .conftest import at_step, card, game_of, trick_progress


def score_of(game, state):
    step = next(s for s in game.steps if s.name == "score")
    return [step.points({"$s": state, "seat": s}) for s in range(game.players)]


def scoring_state(game, teams, tricks, captured, **values):
    """A state at scoring time with given teams, tricks and numbers of captured cards per seat."""
    state = game.new_state()
    state.teams = teams
    state.counters["tricks"] = list(tricks)
    zeros = [c for c in game.deck if game.cards.attributes["number"][c] in (0, 1)]
    for s, k in enumerate(captured):
        state.per_seat["captured"][s] = [zeros.pop() for _ in range(k)]
    state.vars.update(values)
    return state


# --------------------------------------------------------------- scoring examples


def test_rio_grande_scoring_example_three_player_team_scores_7_plus_3_times_2():
    game = game_of("njet-riogrande", 5)
    # seats 0,1,2: the 3-player team (7 tricks, 3 captured 0s); 3 and 4: the 2-player team,
    # seat 3 won 3 tricks and no 0, seat 4 holds the monster and won 2 tricks and 1 captured 0
    state = scoring_state(game, [0, 0, 0, 1, 1], [3, 2, 2, 3, 2], [1, 1, 1, 0, 1], points=2, monster=4)
    assert score_of(game, state) == [20, 20, 20, 18, 18]


def test_rio_grande_record_only_the_difference_gives_2_and_0():
    game = game_of("njet-riogrande", 5, difference_scoring=True)
    state = scoring_state(game, [0, 0, 0, 1, 1], [3, 2, 2, 3, 2], [1, 1, 1, 0, 1], points=2, monster=4)
    assert score_of(game, state) == [2, 2, 2, 0, 0]


def test_rio_grande_negative_points_count_minus_2_per_trick_and_capture():
    game = game_of("njet-riogrande", 4)
    state = scoring_state(game, [0, 1, 0, 1], [5, 4, 3, 3], [1, 0, 0, 2], points=-2, monster=None)
    assert score_of(game, state) == [-18, -18, -18, -18]


def test_goldsieber_scoring_example_3_plus_1_times_3_and_5_plus_2_times_3():
    game = game_of("njet-goldsieber", 4)
    # Alf and Betty: 3 tricks, 1 booty; Claus and Dotty: 5 tricks, 2 booty; 3 points each
    state = scoring_state(game, [0, 0, 1, 1], [2, 1, 3, 2], [1, 0, 1, 1], points=3)
    assert score_of(game, state) == [12, 12, 21, 21]


def test_goldsieber_three_players_lone_player_12_is_doubled_to_24_against_18():
    game = game_of("njet-goldsieber", 3)
    # Angy alone: 5 tricks, 1 booty; Biggy and Chris: 7 tricks, 2 booty; 2 points each
    state = scoring_state(game, [0, 1, 1], [5, 4, 3], [1, 1, 1], points=2)
    assert score_of(game, state) == [24, 18, 18]


# --------------------------------------------------------------- decks and deals


@pytest.mark.parametrize("name,players,deck,hand", [
    ("njet-riogrande", 2, 60, 15), ("njet-riogrande", 3, 48, 16), ("njet-riogrande", 4, 60, 15),
    ("njet-riogrande", 5, 60, 12), ("njet-goldsieber", 3, 36, 12), ("njet-goldsieber", 4, 40, 10),
])
def test_deck_size_and_hand_size_by_player_count(name, players, deck, hand):
    game = game_of(name, players)
    assert len(game.deck) == deck
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(1)))
    assert [len(h) for h in state.per_seat["hand"]] == [hand] * players


def test_rio_grande_three_players_removes_three_7s_of_each_colour_and_plays_48_cards_16_each():
    game = game_of("njet-riogrande", 3)
    sevens = [game.cards.labels[c] for c in game.deck if game.cards.attributes["number"][c] == 7]
    assert sorted(sevens) == ["black 7", "blue 7", "red 7", "yellow 7"]
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(3)))
    assert [len(h) for h in state.per_seat["hand"]] == [16, 16, 16]


def test_rio_grande_two_players_set_30_cards_aside():
    game = game_of("njet-riogrande", 2)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(3)))
    assert len(state.shared["aside"]) == 30


def test_goldsieber_three_players_removes_the_four_2s():
    game = game_of("njet-goldsieber", 3)
    assert not [c for c in game.deck if game.cards.attributes["number"][c] == 2]


# --------------------------------------------------------------- the veto board


def board_after_deal(game, seed=1):
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(seed)))
    return state


@pytest.mark.parametrize("players,markers", [(2, 17), (3, 18), (4, 19), (5, 20)])
def test_rio_grande_board_takes_25_spaces_minus_5_open_minus_covered_player_cards(players, markers):
    game = game_of("njet-riogrande", players)
    state = board_after_deal(game)
    assert state.pending.step.kind == "board"
    placed = 0
    rng = random.Random(2)
    while state.pending.step.name == "njet":
        game.apply(state, rng.choice(game.legal_actions(state)))
        placed += 1
    assert placed == markers


def test_rio_grande_covers_the_start_spaces_of_player_cards_nobody_plays():
    game = game_of("njet-riogrande", 3)
    state = board_after_deal(game)
    starts = [lab for lab in game.labels(state) if lab.startswith("start:")]
    assert starts == ["start: turquoise", "start: lilac", "start: orange"]


def test_goldsieber_board_has_no_njet_trump_space_and_covers_the_unused_character():
    game = game_of("njet-goldsieber", 3)
    state = board_after_deal(game)
    labels = game.labels(state)
    assert [lab for lab in labels if lab.startswith("trump:")] == [
        "trump: red", "trump: black", "trump: blue", "trump: green"]
    assert [lab for lab in labels if lab.startswith("start:")] == ["start: Bear", "start: Wolf", "start: Hawk"]
    assert [lab for lab in labels if lab.startswith("points:")] == [f"points: {n}" for n in (1, 2, 3, 4)]


def test_rio_grande_dealer_places_first_goldsieber_dealers_left_neighbour_first():
    for name, players, first in (("njet-riogrande", 4, 0), ("njet-goldsieber", 4, 1)):
        game = game_of(name, players)
        state = board_after_deal(game)
        assert state.dealer == 0
        assert game.current(state) == first, name


def test_a_marker_may_not_go_on_a_rows_last_open_space():
    game = game_of("njet-riogrande", 4)
    state = board_after_deal(game)
    for space in ("trump: red", "trump: black", "trump: blue"):
        game.apply(state, game.action_for_label(state, space))
    assert [lab for lab in game.labels(state) if lab.startswith("trump:")] == ["trump: yellow", "trump: NJET"]
    game.apply(state, game.action_for_label(state, "trump: yellow"))
    assert not [lab for lab in game.labels(state) if lab.startswith("trump:")]
    with pytest.raises(IllegalAction, match="not legal"):
        game.action_for_label(state, "trump: NJET")


def play_veto(game, state, keep):
    """Cover spaces until each row keeps the space named in ``keep`` (row -> label)."""
    while state.pending.step.name == "njet":
        for label in game.labels(state):
            row, space = label.split(": ", 1)
            if keep.get(row) != space:
                game.apply(state, game.action_for_label(state, label))
                break


def test_the_surviving_spaces_set_the_round_values():
    game = game_of("njet-riogrande", 4)
    state = board_after_deal(game)
    play_veto(game, state, {"start": "orange", "cache": "NJET", "trump": "blue", "supertrump": "red",
                            "points": "-2"})
    assert state.vars["start"] == 2
    assert state.vars["trump"] == "blue" and state.vars["supertrump"] == "red" and state.vars["points"] == -2
    assert state.vars["cache"]["label"] == "NJET"
    # with 4 players the team size (2) is the only one: the start player goes on to choose a partner
    assert state.vars["own_size"] == 2
    assert state.pending.step.name == "partners" and game.current(state) == 2


# --------------------------------------------------------------- teams and the monster


def after_board(name, players, start="turquoise", **keep):
    game = game_of(name, players)
    state = board_after_deal(game)
    wanted = {"start": start, "cache": keep.get("cache", "NJET" if name == "njet-riogrande" else "Njet"),
              "trump": keep.get("trump", "red"), "supertrump": keep.get("supertrump", "blue"), "points": "1"}
    play_veto(game, state, wanted)
    return game, state


def test_rio_grande_three_players_start_player_chooses_alone_or_with_partner_and_monster_goes_to_the_lone_player():
    game, state = after_board("njet-riogrande", 3)
    assert state.pending.step.name == "team_size" and game.current(state) == 0
    assert game.labels(state) == ["team of 1", "team of 2"]
    game.apply(state, game.action_for_label(state, "team of 2"))
    assert state.pending.step.name == "partners" and game.current(state) == 0
    assert game.labels(state) == ["partner lilac", "partner orange"]
    game.apply(state, game.action_for_label(state, "partner orange"))
    assert state.vars["partners"] == [2]
    assert state.teams[0] == state.teams[2] != state.teams[1]
    assert state.vars["monster"] == 1  # lilac, alone, holds the monster (the only choice: not asked)
    assert state.pending.step.name not in ("team_size", "partners", "monster")


def test_rio_grande_five_players_start_player_picks_team_size_partners_and_monster_holder_in_smaller_team():
    game, state = after_board("njet-riogrande", 5)
    assert game.labels(state) == ["team of 2", "team of 3"]
    game.apply(state, game.action_for_label(state, "team of 3"))
    assert state.pending.step.name == "partners"
    assert game.labels(state) == ["partner lilac", "partner orange", "partner green", "partner yellow"]
    game.apply(state, game.action_for_label(state, "partner lilac"))
    assert state.pending.step.name == "partners"    # the second of two partners
    game.apply(state, game.action_for_label(state, "partner orange"))
    assert state.vars["partners"] == [1, 2]
    assert state.pending.step.name == "monster" and game.current(state) == 0
    assert game.labels(state) == ["monster to green", "monster to yellow"]
    game.apply(state, game.action_for_label(state, "monster to yellow"))
    assert state.vars["monster"] == 4
    assert [state.teams[s] for s in range(5)] == [0, 0, 0, 1, 1]


def test_rio_grande_four_players_choose_one_partner_and_no_monster():
    game, state = after_board("njet-riogrande", 4, start="lilac")
    assert game.labels(state) == ["partner turquoise", "partner orange", "partner green"]
    game.apply(state, game.action_for_label(state, "partner green"))
    assert state.vars["monster"] is None
    assert state.teams[1] == state.teams[3] != state.teams[0] == state.teams[2]


def test_rio_grande_two_players_each_play_alone():
    game, state = after_board("njet-riogrande", 2)
    assert state.pending.step.name == "tricks"
    assert state.teams[0] != state.teams[1] and state.vars["monster"] is None


def test_goldsieber_three_players_start_player_decides_partner_or_alone_without_monster():
    game, state = after_board("njet-goldsieber", 3, start="Bear")
    assert game.labels(state) == ["team of 1", "team of 2"]
    game.apply(state, game.action_for_label(state, "team of 1"))
    assert state.teams[0] != state.teams[1] == state.teams[2]
    assert "monster" not in state.vars


# --------------------------------------------------------------- the cache


def test_discard_2_but_no_0_offers_only_non_zero_cards_while_there_are_any():
    game = game_of("njet-riogrande", 4)
    cache = {"label": "discard 2, no 0", "discard": 2, "pass": 0, "keep_zeros": True}
    hands = {0: ["red 0", "red 0", "blue 0", "red 5"], 1: ["red 1", "red 2", "red 3", "red 4"],
             2: ["blue 1", "blue 2", "blue 3", "blue 4"], 3: ["black 2", "black 3", "black 4", "black 5"]}
    state = at_step(game, "discard", hands, cache=cache, start=0, dealer=3)
    assert game.current(state) == 0
    assert game.labels(state) == ["red 5"]
    game.apply(state, game.action_for_label(state, "red 5"))
    assert game.labels(state) == ["red 0", "blue 0"]  # only 0s are left: one of them goes


def test_pass_2_right_moves_cards_to_the_right_neighbour_after_everyone_chose():
    game = game_of("njet-riogrande", 4)
    cache = {"label": "pass 2 right", "discard": 0, "pass": 2, "keep_zeros": False}
    hands = {0: ["red 1", "red 2", "red 3"], 1: ["blue 1", "blue 2", "blue 3"],
             2: ["black 1", "black 2", "black 3"], 3: ["yellow 1", "yellow 2", "yellow 3"]}
    state = at_step(game, "pass", hands, cache=cache, start=0, dealer=3)
    seen_by_seat_1 = None
    while state.pending.step.name == "pass":
        seat = game.current(state)
        if seat == 1 and seen_by_seat_1 is None:
            # what seat 0 chose is hidden from seat 1 until everyone has chosen
            from interpreter.engine.observation import observe
            seen_by_seat_1 = observe(game, state, 1)["zones"]["passing"]["turquoise"]
            assert state.per_seat["hand"][1] == [card(game, lab) for lab in hands[1]]
        labels = game.labels(state)
        game.apply(state, game.action_for_label(state, labels[0]))
    assert seen_by_seat_1 == {"count": 2}
    assert state.pending.step.name == "tricks"   # the receive step moved the cards without asking anyone
    assert all(cards == [] for cards in state.per_seat["passing"])
    labels = game.cards.labels
    hand = lambda s: sorted(labels[c] for c in state.per_seat["hand"][s])  # noqa: E731
    # each seat passed its first two cards to the seat on its right (seat - 1)
    assert hand(3) == ["red 1", "red 2", "yellow 3"]
    assert hand(0) == ["blue 1", "blue 2", "red 3"]
    assert hand(1) == ["black 1", "black 2", "blue 3"]
    assert hand(2) == ["black 3", "yellow 1", "yellow 2"]


# --------------------------------------------------------------- following and winning


def play_trick(game, state, labels):
    for lab in labels:
        game.apply(state, game.action_for_label(state, lab))
    return state.pending.step  # still tricks or next


def last_winner(state):
    """The winner of the trick just finished (None before the first trick is over)."""
    p = trick_progress(state)
    return p.winner if p is not None and p.last else None


def trick_state(name, hands, **values):
    game = game_of(name, len(hands))
    n = len(hands)
    values.setdefault("teams", [s % 2 for s in range(n)])
    state = at_step(game, "tricks", dict(enumerate(hands)), start=0, **values)
    return game, state


def test_equal_cards_the_later_played_wins():
    game, state = trick_state("njet-riogrande", [["red 7", "blue 1"], ["red 7", "blue 2"], ["red 5", "blue 3"],
                                                 ["red 7", "blue 4"]], trump=None, supertrump=None, points=1)
    play_trick(game, state, ["red 7", "red 7", "red 5", "red 7"])
    assert last_winner(state) == 3


def test_a_supertrump_beats_every_trump_and_the_later_of_two_supertrumps_wins():
    game, state = trick_state("njet-riogrande", [["red 9", "blue 1"], ["black 0", "blue 2"], ["black 9", "blue 3"],
                                                 ["black 0", "blue 4"]], trump="black", supertrump="black", points=1)
    play_trick(game, state, ["red 9", "black 0", "black 9", "black 0"])
    assert last_winner(state) == 3
    game, state = trick_state("njet-riogrande", [["red 5", "blue 1"], ["yellow 0", "blue 2"],
                                                 ["black 9", "blue 3"], ["black 8", "blue 4"]],
                              trump="black", supertrump="yellow", points=1)
    play_trick(game, state, ["red 5", "yellow 0", "black 9", "black 8"])
    assert last_winner(state) == 1


def test_a_trump_beats_the_led_colour_and_off_colour_cards_never_win():
    game, state = trick_state("njet-riogrande", [["red 2", "blue 1"], ["yellow 9", "blue 2"], ["black 1", "blue 3"],
                                                 ["red 3", "blue 4"]], trump="black", supertrump=None, points=1)
    play_trick(game, state, ["red 2", "yellow 9", "black 1", "red 3"])
    assert last_winner(state) == 2


def test_rio_grande_a_supertrump_follows_its_printed_colour():
    # yellow 0s are supertrumps; red is trump. Red led: the yellow 0 does not answer it,
    # and a player with a yellow 0 and a yellow 5 must answer a yellow lead with either.
    game, state = trick_state("njet-riogrande", [["red 4", "yellow 3"], ["yellow 0", "yellow 5", "blue 2"],
                                                 ["red 1"], ["blue 3"]], trump="red", supertrump="yellow", points=1)
    game.apply(state, game.action_for_label(state, "red 4"))
    assert game.labels(state) == ["yellow 0", "yellow 5", "blue 2"]  # no red: any card
    state2 = trick_state("njet-riogrande", [["yellow 3"], ["yellow 0", "red 9", "blue 2"], ["red 1"], ["blue 3"]],
                         trump="red", supertrump="yellow", points=1)[1]
    game.apply(state2, game.action_for_label(state2, "yellow 3"))
    assert game.labels(state2) == ["yellow 0"]  # the supertrump is the only yellow card: it must follow


def test_goldsieber_a_supertrump_counts_as_trump_for_following():
    # trump red, supertrumps the blue 1s. A red lead must be answered by a trump or a supertrump.
    game, state = trick_state("njet-goldsieber", [["red 4", "green 3"], ["blue 1", "blue 5", "green 2"],
                                                  ["red 1", "blue 9"], ["green 9", "black 8"]],
                              trump="red", supertrump="blue", points=1)
    game.apply(state, game.action_for_label(state, "red 4"))
    assert game.labels(state) == ["blue 1"]
    game.apply(state, game.action_for_label(state, "blue 1"))
    assert game.labels(state) == ["red 1"]
    game.apply(state, game.action_for_label(state, "red 1"))
    assert game.labels(state) == ["green 9", "black 8"]  # no trump: any card
    game.apply(state, game.action_for_label(state, "green 9"))
    assert last_winner(state) == 1
    # a blue lead is not answered by the blue 1 supertrump: it is no longer blue
    game, state = trick_state("njet-goldsieber", [["blue 4"], ["blue 1", "green 2"], ["blue 9"], ["green 9"]],
                              trump="red", supertrump="blue", points=1)
    game.apply(state, game.action_for_label(state, "blue 4"))
    assert game.labels(state) == ["blue 1", "green 2"]


def test_goldsieber_the_second_of_two_equal_1s_wins():
    game, state = trick_state("njet-goldsieber", [["green 1", "red 2"], ["green 1", "red 3"], ["blue 9", "red 4"],
                                                  ["red 9", "red 5"]],
                              trump="black", supertrump=None, points=1)
    play_trick(game, state, ["green 1", "green 1", "blue 9", "red 9"])
    assert last_winner(state) == 1


def test_rio_grande_captures_every_0_played_by_an_opponent_but_not_a_partners():
    # the book's example with red for green: the 3-player team is seats 0, 1, 4; black is trump
    hands = [["red 9", "blue 1"], ["red 0", "blue 2"], ["red 4", "blue 3"], ["black 0", "blue 4"],
             ["black 7", "blue 5"]]
    game, state = trick_state("njet-riogrande", hands, trump="black", supertrump="blue", points=2,
                              teams=[0, 0, 1, 1, 0])
    play_trick(game, state, ["red 9", "red 0", "red 4", "black 0", "black 7"])
    assert last_winner(state) == 4
    assert [game.cards.labels[c] for c in state.per_seat["captured"][4]] == ["black 0"]
    assert sorted(game.cards.labels[c] for c in state.per_seat["won"][4]) == ["black 7", "red 0", "red 4", "red 9"]
    assert state.counters["tricks"][4] == 1


def test_goldsieber_booty_is_the_1s_of_opponents_supertrumps_included():
    hands = [["green 5", "red 2"], ["green 1", "red 3"], ["blue 1", "red 4"], ["green 9", "red 5"]]
    game, state = trick_state("njet-goldsieber", hands, trump="red", supertrump="blue", points=1,
                              teams=[0, 1, 1, 0])
    play_trick(game, state, ["green 5", "green 1", "blue 1", "green 9"])
    assert last_winner(state) == 2  # the supertrump
    assert state.per_seat["captured"][2] == []  # the green 1 came from the winner's partner
    game, state = trick_state("njet-goldsieber", hands, trump="red", supertrump="blue", points=1,
                              teams=[1, 0, 0, 1])
    play_trick(game, state, ["green 5", "green 1", "blue 1", "green 9"])
    assert last_winner(state) == 2
    assert state.per_seat["captured"][2] == []  # a winner's own supertrump 1 is no booty
    game, state = trick_state("njet-goldsieber", hands, trump="red", supertrump=None, points=1,
                              teams=[0, 1, 0, 1])
    play_trick(game, state, ["green 5", "green 1", "blue 1", "green 9"])
    assert last_winner(state) == 3
    assert [game.cards.labels[c] for c in state.per_seat["captured"][3]] == ["blue 1"]
    hands = [["green 5", "red 2"], ["blue 1", "red 3"], ["green 1", "red 4"], ["green 9", "red 5"]]
    game, state = trick_state("njet-goldsieber", hands, trump="red", supertrump="blue", points=1,
                              teams=[0, 1, 0, 1])
    play_trick(game, state, ["green 5", "blue 1", "green 1", "green 9"])
    assert last_winner(state) == 1  # the blue 1 supertrump wins; the green 1 of an opponent is booty
    assert [game.cards.labels[c] for c in state.per_seat["captured"][1]] == ["green 1"]


def test_the_trick_winner_leads_the_next_trick():
    game, state = trick_state("njet-riogrande", [["red 2", "blue 1"], ["red 9", "blue 2"], ["red 3", "blue 3"],
                                                 ["red 4", "blue 4"]], trump=None, supertrump=None, points=1)
    play_trick(game, state, ["red 2", "red 9", "red 3", "red 4"])
    assert game.current(state) == 1


# --------------------------------------------------------------- game length and winners


@pytest.mark.parametrize("name,players,rounds,options", [
    ("njet-riogrande", 2, 8, {}), ("njet-riogrande", 3, 9, {}), ("njet-riogrande", 4, 8, {}),
    ("njet-riogrande", 5, 10, {}), ("njet-goldsieber", 3, 6, {}), ("njet-goldsieber", 4, 8, {}),
    ("njet-goldsieber", 3, 3, {"short_game": True}), ("njet-goldsieber", 4, 4, {"short_game": True}),
])
def test_rounds_per_player_count_and_the_dealer_moves_left(name, players, rounds, options):
    from interpreter.harness.runner import play_game

    game = game_of(name, players, **options)
    dealers = []

    def watch(state):
        if not dealers or dealers[-1][0] != state.round_number:
            dealers.append((state.round_number, state.dealer))

    out = play_game(game, seed=7, after_each=watch)
    assert out.rounds == rounds
    assert [d for _, d in dealers] == [r % players for r in range(rounds)]


def test_players_tied_with_the_most_points_share_the_victory():
    game = game_of("njet-riogrande", 4)
    state = game.new_state()
    state.totals = [30, 42, 42, 7]
    assert game.winners(state) == [1, 2]


def test_chance_is_the_first_actor_of_every_round():
    game = game_of("njet-goldsieber", 4)
    state = game.new_state()
    assert game.current(state) == CHANCE
