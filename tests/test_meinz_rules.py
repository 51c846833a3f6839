"""Meinz: the rulebook's examples and rules as exact tests of games/meinz.yaml."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.state import CHANCE
from interpreter.harness.runner import play_game

from .conftest import at_step, game_of, trick_progress


def labels_of(game, state):
    return game.labels(state)


def meinz_tricks(players, hands, dealer=0, tricks=None):
    """A state at the first card of a trick; the leader is the seat left of the dealer."""
    game = game_of("meinz", players)
    state = at_step(game, "tricks", dict(enumerate(hands)), dealer=dealer)
    if tricks:
        state.counters["tricks"] = list(tricks)
    return game, state


def play(game, state, label):
    game.apply(state, game.action_for_label(state, label))


def answer_claims(game, state, seen, call=None):
    """Answer every pending Meinz question; ``call`` names the seat that calls (else nobody)."""
    while state.pending and state.pending.step.name == "meinz":
        assert labels_of(game, state) == ["no Meinz", "Meinz"]
        seat = game.current(state)
        seen.append(seat)
        play(game, state, "Meinz" if seat == call else "no Meinz")


def last_winner(state):
    """The winner of the trick just finished."""
    p = trick_progress(state)
    assert p.last, "no trick is finished yet"
    return p.winner


# ----------------------------------------------------------------- deck, deal, discard


@pytest.mark.parametrize("players", [3, 4])
def test_36_cards_9_each_and_every_player_discards_one_face_down(players):
    game = game_of("meinz", players)
    assert len(game.deck) == 36 and len(game.seat_names) == 4
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(2)))
    assert [len(h) for h in state.per_seat["hand"]] == [9, 9, 9, 9]
    while state.pending.step.name == "discard":
        game.apply(state, game.legal_actions(state)[0])
    discarded = [len(d) for d in state.per_seat["discard"]]
    if players == 4:
        assert discarded == [1, 1, 1, 1]
    else:  # the card monster does not discard
        assert discarded == [1, 1, 1, 0]
    from interpreter.engine.observation import observe

    assert observe(game, state, 0)["zones"]["discard"]["Joe"] == {"count": 1}


# ----------------------------------------------------------------- following


def test_the_red_5_example_without_red_any_card_may_be_played():
    # Alex leads the red 5; Joe has no red but the yellow 5: he need not play it
    game, state = meinz_tricks(4, [["blue 1"], ["red 5", "blue 2"], ["yellow 5", "blue 9", "green 3"],
                                   ["green 1"]])
    play(game, state, "red 5")
    answer_claims(game, state, [])
    assert labels_of(game, state) == ["yellow 5", "blue 9", "green 3"]


def test_the_red_5_example_with_red_cards_a_red_card_or_a_5_must_be_played():
    game, state = meinz_tricks(4, [["blue 1"], ["red 5", "blue 2"], ["yellow 5", "red 9", "green 3"],
                                   ["green 1"]])
    play(game, state, "red 5")
    answer_claims(game, state, [])
    assert labels_of(game, state) == ["yellow 5", "red 9"]


# ----------------------------------------------------------------- who wins


def test_the_lowest_card_wins_and_of_equal_numbers_the_later_played():
    game, state = meinz_tricks(4, [["blue 2", "green 7"], ["red 5", "red 8"], ["red 2", "red 9"],
                                   ["yellow 2", "blue 9"]])
    for lab in ("red 5", "red 2", "yellow 2", "blue 2"):
        answer_claims(game, state, [])
        play(game, state, lab)
    answer_claims(game, state, [])
    assert last_winner(state) == 0  # blue 2, the last of the three 2s


def test_a_seat_with_two_tricks_is_skipped_when_finding_the_lowest_card():
    game, state = meinz_tricks(4, [["blue 1", "green 7"], ["red 5", "red 8"], ["red 2", "red 9"], ["red 3", "blue 9"]],
                               tricks=[2, 0, 0, 0])
    for lab in ("red 5", "red 2", "red 3", "blue 1"):
        answer_claims(game, state, [])
        play(game, state, lab)
    answer_claims(game, state, [])
    assert last_winner(state) == 2  # the red 2: the blue 1's seat has 2 tricks


# ----------------------------------------------------------------- the Meinz call


def test_call_order_after_the_first_second_and_third_card_and_none_after_the_fourth():
    game, state = meinz_tricks(4, [["blue 1", "green 7"], ["red 5", "red 8"], ["red 6", "red 9"], ["red 4", "blue 9"]])
    asked = []
    play(game, state, "red 5")          # 1st card, by seat 1
    answer_claims(game, state, asked)
    assert asked == [1]
    asked.clear()
    play(game, state, "red 6")          # 2nd card, by seat 2
    answer_claims(game, state, asked)
    assert asked == [2, 1]
    asked.clear()
    play(game, state, "red 4")          # 3rd card, by seat 3
    answer_claims(game, state, asked)
    assert asked == [3, 1, 2]
    asked.clear()
    play(game, state, "blue 1")         # 4th card: nobody may call
    answer_claims(game, state, asked)
    assert asked == []
    assert last_winner(state) == 0


def test_a_call_takes_the_trick_whatever_is_played_later_and_ends_the_calls_of_that_trick():
    game, state = meinz_tricks(4, [["blue 1", "green 7"], ["red 5", "red 8"], ["red 6", "red 9"], ["red 4", "blue 9"]])
    asked = []
    play(game, state, "red 5")
    answer_claims(game, state, asked)
    play(game, state, "red 6")
    answer_claims(game, state, asked, call=1)   # seat 2 declines, then seat 1 calls
    assert asked == [1, 2, 1]
    asked.clear()
    play(game, state, "red 4")
    answer_claims(game, state, asked)
    assert asked == []                           # one call per trick
    play(game, state, "blue 1")
    assert last_winner(state) == 1


def test_a_seat_with_two_tricks_may_not_call():
    game, state = meinz_tricks(4, [["blue 1", "green 7"], ["red 5", "red 8"], ["red 6", "red 9"], ["red 4", "blue 9"]],
                               tricks=[0, 2, 0, 0])
    asked = []
    play(game, state, "red 5")
    answer_claims(game, state, asked)
    play(game, state, "red 6")
    answer_claims(game, state, asked)
    assert asked == [2]


# ----------------------------------------------------------------- the exchange


def won_by_lena_who_may_exchange():
    """Lena (seat 3) wins a trick with the red 4 and holds the blue 8; the trick holds the blue 9."""
    game, state = meinz_tricks(4, [["blue 9", "green 7", "yellow 8"], ["red 5", "red 8", "green 3"],
                                   ["red 6", "red 9", "green 4"], ["red 4", "blue 8", "yellow 9"]])
    for lab in ("red 5", "red 6", "red 4", "blue 9"):
        answer_claims(game, state, [])
        play(game, state, lab)
    answer_claims(game, state, [])
    return game, state


def test_the_winner_may_exchange_a_hand_card_for_a_trick_card_of_the_same_colour():
    game, state = won_by_lena_who_may_exchange()
    assert last_winner(state) == 3        # red 4 is the lowest
    assert game.current(state) == 3 and state.pending.step.name == "exchange"
    assert labels_of(game, state) == ["no exchange", "swap blue 8 for blue 9"]
    play(game, state, "swap blue 8 for blue 9")
    hand = sorted(game.cards.labels[c] for c in state.per_seat["hand"][3])
    won = sorted(game.cards.labels[c] for c in state.per_seat["won"][3])
    assert hand == ["blue 9", "yellow 9"]
    assert won == ["blue 8", "red 4", "red 5", "red 6"]
    assert game.current(state) == 3                     # the winner leads the next trick


def test_the_exchange_is_told_to_everyone():
    game = game_of("meinz", 4)
    lines = []
    play_game(game, seed=4, narrate=lines.append, viewer=0)
    swaps = [line.split() for line in lines if "swap" in line]
    assert any(words[0] != "Alex" for words in swaps)       # Alex (the viewer) is told the others' exchanges
    for words in swaps:                                     # with both cards: a hand card and a trick card
        cards = [(words[i], words[i + 1]) for i, w in enumerate(words[:-1])
                 if w in ("red", "blue", "green", "yellow") and words[i + 1].isdigit()]
        assert len(cards) == 2 and cards[0][0] == cards[1][0] and cards[0] != cards[1], words


# ----------------------------------------------------------------- point cards


def won_with_sums(game, sums):
    """Won zones whose numbers add up to the given sums (distinct cards)."""
    free = sorted(game.deck, key=lambda c: -game.cards.attributes["number"][c])
    zones = []
    for target in sums:
        chosen, total = [], 0
        for c in list(free):
            n = game.cards.attributes["number"][c]
            if total + n <= target:
                chosen.append(c)
                total += n
                free.remove(c)
            if total == target:
                break
        assert total == target
        zones.append(chosen)
    return zones


@pytest.mark.parametrize("sums,awards", [([51, 38, 37, 31], [3, 1, 0, 2]), ([40, 40, 39, 34], [0, 0, 0, 2]),
                                         ([31, 37, 51, 38], [2, 0, 3, 1])])
def test_point_cards_3_1_0_2_by_sum_and_tied_sums_get_nothing(sums, awards):
    game = game_of("meinz", 4)
    state = game.new_state()
    state.per_seat["won"] = won_with_sums(game, sums)
    step = next(s for s in game.steps if s.name == "score")
    assert [step.points({"$s": state, "seat": s}) for s in range(4)] == awards


def test_the_card_monster_adds_12_to_its_sum():
    game = game_of("meinz", 3)
    state = game.new_state()
    state.per_seat["won"] = won_with_sums(game, [40, 38, 30, 29])   # the monster: 29 + 12 = 41
    step = next(s for s in game.steps if s.name == "score")
    assert [step.points({"$s": state, "seat": s}) for s in range(4)] == [1, 0, 2, 3]


# ----------------------------------------------------------------- rounds and the card monster


@pytest.mark.parametrize("players", [3, 4])
def test_8_rounds_every_seat_takes_exactly_two_tricks_and_the_start_player_moves_left(players):
    game = game_of("meinz", players)
    leaders = []

    def watch(state):  # the first time each round's trick play is seen: who led the first trick
        if state.pending and state.step_index >= 0 and game.steps[state.step_index].name == "tricks" \
                and trick_progress(state).number == 0 and (not leaders or leaders[-1][0] != state.round_number):
            leaders.append((state.round_number, trick_progress(state).leader))

    out = play_game(game, seed=11, after_each=watch)
    assert out.rounds == 8
    first = 3 if players == 3 else 1   # the card monster leads the first trick of the game
    assert [seat for _, seat in leaders] == [(first + r) % 4 for r in range(8)]


def test_every_seat_ends_a_round_with_two_tricks_and_the_monster_keeps_one_card():
    game = game_of("meinz", 3)
    lines, monster_left = [], []

    def watch(state):  # at the next round's deal the cards of the last round are still in place
        if state.pending and state.pending.actor == CHANCE and state.round_number > 1:
            monster_left.append(len(state.per_seat["hand"][3]))

    play_game(game, seed=8, narrate=lines.append, after_each=watch)
    rounds = "\n".join(lines).split("\nRound ")[1:]
    assert len(rounds) == 8
    for text in rounds:
        wins = [line.rsplit("-> ", 1)[1].split(" wins")[0] for line in text.splitlines() if " wins" in line]
        assert sorted(wins.count(name) for name in game.seat_names) == [2, 2, 2, 2]
    assert monster_left and set(monster_left) == {1}


@pytest.mark.parametrize("players", [3, 4])
def test_with_3_players_the_fourth_seat_is_the_card_monster_playing_by_rule(players):
    game = game_of("meinz", players)
    roles = [seat.role for seat in game.seats]
    if players == 3:
        assert game.seat_names == ["Alex", "Joe", "Hanna", "card monster"]
        assert roles == ["player", "player", "player", "monster"]
        assert game.automatic == {3}
    else:
        assert game.seat_names == ["Alex", "Joe", "Hanna", "Lena"]
        assert roles == ["player"] * 4
        assert game.automatic == set()


@pytest.mark.parametrize("players,start", [(3, 3), (4, 1)])
def test_the_card_monster_starts_the_game_else_the_player_left_of_the_dealer(players, start):
    game = game_of("meinz", players)
    state = game.new_state()
    assert state.dealer == 0
    assert state.game_vars["start"] == start


def test_the_card_monster_plays_its_first_card_regardless_of_following_and_never_exchanges():
    # Alex leads the red 5; the monster holds the red 9 but its top card is the blue 1: it plays the blue 1
    game = game_of("meinz", 3)
    hands = {0: ["red 5", "green 9"], 1: ["red 6", "green 8"], 2: ["red 7", "green 7"], 3: ["blue 1", "red 9"]}
    state = at_step(game, "tricks", hands, game_values={"start": 0})
    for lab in ("red 5", "red 6", "red 7"):
        assert game.current(state) != 3
        play(game, state, lab)
        answer_claims(game, state, [])
    p = trick_progress(state)
    assert [(s, game.cards.labels[c]) for s, c in p.last] == [(0, "red 5"), (1, "red 6"), (2, "red 7"),
                                                              (3, "blue 1")]
    assert p.winner == 3  # the blue 1 is the lowest card
    # the monster is not offered an exchange (the red 9 matches the trick's red cards): it leads at once
    assert [(s, game.cards.labels[c]) for s, c in p.plays] == [(3, "red 9")]
    assert game.current(state) == 0 and state.pending.step.name == "tricks"


def test_the_card_monster_is_never_asked_and_plays_the_top_card_of_its_stack():
    game = game_of("meinz", 3)
    state = game.new_state()
    rng = random.Random(3)
    game.apply_chance(state, game.sample_chance(state, rng))
    stack = list(state.per_seat["hand"][3])
    played = []
    while state.round_number == 1 and not state.finished:
        d = state.pending
        assert d.actor != 3
        if d.actor == CHANCE:
            break
        before = list(state.per_seat["hand"][3])
        game.apply(state, rng.choice(d.actions))
        after = state.per_seat["hand"][3]
        if len(after) < len(before):
            played.append(before[0])
            assert after == before[1:]
    assert played == stack[:len(played)] and len(played) == 8


def test_an_exchange_is_in_everyones_observation():
    import json

    from interpreter.engine.observation import observe

    game, state = won_by_lena_who_may_exchange()
    for viewer in (0, 1, 2):   # Lena's blue 8 is hidden in her hand until she swaps it
        assert "blue 8" not in json.dumps(observe(game, state, viewer))
    play(game, state, "swap blue 8 for blue 9")
    for viewer in (0, 1, 2):   # the swap is made openly: everyone sees which hand card went to the tricks
        obs = observe(game, state, viewer)
        assert obs["values"]["exchange"] == ["blue 8", "blue 9"], viewer


# ----------------------------------------------------------------- who wins the game


def finished_game(totals, **options):
    game = game_of("meinz", 3, **options)
    state = game.new_state()
    state.totals = list(totals)
    state.finished = True
    return game, state


@pytest.mark.parametrize("totals,winners,with_house_rule", [
    ([9, 11, 7, 14], [1], [3]),          # the monster has the most points: the best player wins
    ([9, 14, 7, 14], [1], [1, 3]),       # a tie with the monster: only the player wins
    ([15, 11, 7, 14], [0], [0]),         # a player ahead of the monster wins either way
])
def test_the_card_monster_is_not_a_player_and_cannot_win_unless_the_house_rule_lets_it(totals, winners,
                                                                                        with_house_rule):
    game, state = finished_game(totals)
    assert game.winners(state) == winners
    game, state = finished_game(totals, card_monster_can_win=True)
    assert game.winners(state) == with_house_rule


def test_with_4_players_every_seat_can_win():
    game = game_of("meinz", 4)
    state = game.new_state()
    state.totals = [9, 11, 7, 14]
    assert game.winners(state) == [3]


@pytest.mark.parametrize("seed,winners,with_house_rule", [(0, [2], [3]), (16, [2], [2, 3])])
def test_a_played_game_where_the_card_monster_has_the_highest_total(seed, winners, with_house_rule):
    out = play_game(game_of("meinz", 3), seed=seed)
    assert max(out.totals) == out.totals[3]                 # the card monster collected the most points
    assert out.winners == winners
    house = play_game(game_of("meinz", 3, card_monster_can_win=True), seed=seed)
    assert house.totals == out.totals                       # the house rule changes no play
    assert house.winners == with_house_rule
