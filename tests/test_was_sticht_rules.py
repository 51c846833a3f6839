"""Was sticht?: the rulebook's examples and rules as exact tests of games/was-sticht.yaml.

Alex, Bernhard, Carsten and Daniel are seats 0-3; the start player of a round is its dealer.
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.observation import observe
from interpreter.harness.runner import play_game

from .conftest import at_step, game_of, trick_progress

ALEX, BERNHARD, CARSTEN, DANIEL = range(4)
NUMBERS = [f"{c} {n}" for c in ("red", "blue", "green", "yellow") for n in range(1, 10)]


def play(game, state, *labels):
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def asked(game, state):
    return game.seat_names[state.pending.actor]


def labels(game, cards):
    return [game.cards.labels[c] for c in cards]


# ======================================================================= the cards and the draft


def test_the_four_decks():
    game = game_of("was-sticht", 4)
    by_kind = {}
    for c in game.deck:
        by_kind.setdefault(game.cards.attributes["kind"][c], []).append(game.cards.labels[c])
    assert sorted(by_kind["number"]) == sorted(NUMBERS)
    assert sorted(by_kind["trump colour"]) == sorted(["trump colour red", "trump colour blue", "trump colour green",
                                                      "trump colour yellow", "no trump colour"])
    assert sorted(by_kind["trump number"]) == sorted([f"trump number {n}" for n in range(1, 10)] + ["no trump number"])
    functions = by_kind["function"]
    assert len(functions) == 24 and len(set(functions)) == 12
    assert all(functions.count(f) == 2 for f in functions)
    assert {"no tricks", "no red cards", "no blue cards", "no green cards", "no yellow cards", "exactly 1 trick",
            "exactly 2 tricks", "exactly 3 tricks", "exactly 4 tricks", "the last trick", "the most tricks",
            "the fewest tricks"} == set(functions)


@pytest.mark.parametrize("players", [3, 4])
def test_the_function_draft_start_player_first_clockwise_four_each_the_rest_back_to_the_box(players):
    game = game_of("was-sticht", players)
    state = game.new_state()
    assert sorted(state.shared["box"] + state.shared["offer"]) == sorted(game.deck)   # all from the box
    assert len(state.shared["offer"]) == 24
    order = []
    while state.pending.step.name == "draft":
        order.append(state.pending.actor)
        game.apply(state, game.legal_actions(state)[0])
    assert order == list(range(players)) * 4
    assert [len(f) for f in state.per_seat["functions"]] == [4] * players
    assert len(state.shared["offer"]) == 0
    assert sum(game.cards.attributes["kind"][c] == "function" for c in state.shared["box"]) == 24 - 4 * players


# ======================================================================= the rows and the hints


def drafted_round(dealer, stock, trumps, players=4):
    """A round at its rows: ``stock`` are the number cards, top first; the start player saw ``trumps``."""
    game = game_of("was-sticht", players)
    state = at_step(game, "sees", {}, dealer=dealer, zones={"stock": stock, "secret": {dealer: trumps}})
    return game, state


def test_the_row_example_trump_red_and_2_carsten_would_win():
    # Carsten is start player; the monster goes to Daniel for the first row, to Alex for the second
    first_row = ["blue 1", "blue 3", "blue 4", "blue 5"]
    second_row = ["blue 7", "red 6", "red 2", "yellow 2"]
    rest = [c for c in NUMBERS if c not in first_row + second_row]
    game, state = drafted_round(CARSTEN, first_row + second_row + rest, ["trump colour red", "trump number 2"])
    assert state.vars["row"] == 1 and asked(game, state) == "Daniel"
    assert sorted(game.labels(state)) == first_row
    play(game, state, "blue 5", "blue 1", "blue 3", "blue 4")  # Daniel, Alex, Bernhard, Carsten
    assert state.vars["hints"] == [DANIEL] and state.vars["monster"] == ALEX
    assert asked(game, state) == "Alex"
    play(game, state, "blue 7")                                 # the highest card
    play(game, state, "red 6")                                  # the highest red
    play(game, state, "red 2")                                  # Carsten knows: the red 2 is the super trump
    play(game, state, "yellow 2")                               # Daniel takes what is left
    assert state.vars["hints"] == [DANIEL, CARSTEN]
    for seat in range(4):                                       # the hint is told to everyone
        assert observe(game, state, seat)["values"]["hints"] == ["Daniel", "Carsten"]


def test_nine_rows_the_monster_moves_left_and_each_takes_one_card_per_row():
    game, state = drafted_round(ALEX, NUMBERS, ["trump colour blue", "trump number 7"])
    firsts = []
    while state.pending.step.name == "take":
        if not state.vars["picks"]:
            firsts.append(state.pending.actor)
        assert len(state.shared["row"]) + len(state.vars["picks"]) == 4   # 4 face-up cards a row
        game.apply(state, game.legal_actions(state)[0])
    assert firsts == [1, 2, 3, 0, 1, 2, 3, 0, 1]                # left of the start player, then left each row
    assert len(state.vars["hints"]) == 9
    assert [len(h) for h in state.per_seat["hand"]] == [9, 9, 9, 9]
    assert state.pending.step.name == "tricks"                 # nobody holds a function card here: no choice


def test_with_3_players_the_fourth_card_of_each_row_goes_to_the_table_and_is_no_part_of_the_hint():
    # trump yellow, no trump number; row: the monster (Bernhard) takes red 9, Carsten red 1, Alex red 5;
    # the yellow 1 left on the table would win as a trick, but it is out of the round
    row = ["red 9", "red 1", "red 5", "yellow 1"]
    stock = row + [c for c in NUMBERS if c not in row]
    game, state = drafted_round(ALEX, stock, ["trump colour yellow", "no trump number"], players=3)
    play(game, state, "red 9", "red 1", "red 5")
    assert labels(game, state.shared["table"]) == ["yellow 1"]
    assert state.vars["hints"] == [BERNHARD]
    while state.pending.step.name == "take":
        game.apply(state, game.legal_actions(state)[0])
    assert len(state.shared["table"]) == 9 and [len(h) for h in state.per_seat["hand"]] == [9, 9, 9]


def test_only_the_start_player_sees_the_trumps_until_they_are_turned_over():
    game, state = drafted_round(CARSTEN, NUMBERS, ["trump colour red", "trump number 2"])
    for seat in range(4):
        seen = observe(game, state, seat)
        secret = seen["zones"]["secret"]["Carsten"]
        if seat == CARSTEN:
            assert sorted(secret) == ["trump colour red", "trump number 2"]
            assert seen["seat_values"]["sees_colour"] == {"Carsten": "red"}
        else:
            assert secret == {"count": 2}
            assert "red" not in str(seen["values"]) + str(seen["seat_values"]) + str(seen["zones"]["trumps"])
        assert seen["zones"]["trumps"] == []
    while state.pending.step.name == "take":
        game.apply(state, game.legal_actions(state)[0])
    # after the draft the stacks are turned over: everyone sees both trumps
    for seat in range(4):
        assert sorted(observe(game, state, seat)["zones"]["trumps"]) == ["trump colour red", "trump number 2"]


# ======================================================================= choosing functions


FUNCTIONS = {ALEX: ["no tricks", "the last trick"], BERNHARD: ["exactly 2 tricks", "no red cards"],
             CARSTEN: ["the most tricks", "exactly 1 trick"], DANIEL: ["the fewest tricks", "no blue cards"]}


def at_function_choice(dealer=ALEX, won=None, tricks=(0, 0, 0, 0), last=None, functions=None, fulfilled=None):
    """After the tricks (``won`` cards and ``tricks`` counts given), at the choice of functions."""
    game = game_of("was-sticht", 4)
    state = at_step(game, "pick_function", {}, dealer=dealer, zones={"functions": functions or FUNCTIONS,
                                                                "won": won or {}, "fulfilled": fulfilled or {}})
    state.counters["tricks"] = list(tricks)
    state.vars["last_winner"] = last
    return game, state


def test_every_player_but_the_start_player_chooses_in_secret_and_all_are_shown_together():
    game, state = at_function_choice()
    assert asked(game, state) == "Bernhard" and game.labels(state) == ["exactly 2 tricks", "no red cards"]
    play(game, state, "no red cards")
    for seat in (ALEX, CARSTEN, DANIEL):                        # hidden from the others until all have chosen
        assert "Bernhard" not in observe(game, state, seat)["seat_values"].get("chosen", {})
    assert observe(game, state, BERNHARD)["seat_values"]["chosen"] == {"Bernhard": "no red cards"}
    play(game, state, "exactly 1 trick")
    assert asked(game, state) == "Daniel"
    assert "Carsten" not in observe(game, state, DANIEL)["seat_values"].get("chosen", {})
    play(game, state, "the fewest tricks")
    # the start player chooses nothing; the tricks begin (no cards here: the round ends at once)
    assert state.round_number == 2


def functions_fulfilled(chosen, **round_end):
    """Bernhard, Carsten and Daniel choose ``chosen`` (labels); which of them are fulfilled at round end."""
    functions = {ALEX: ["exactly 4 tricks"], BERNHARD: [chosen[0]], CARSTEN: [chosen[1]], DANIEL: [chosen[2]]}
    game, state = at_function_choice(functions=functions, **round_end)
    play(game, state, *chosen)
    return game, state, [labels(game, f) for f in state.per_seat["fulfilled"]]


RED_WON = {BERNHARD: ["red 3", "blue 4", "green 1", "yellow 9"]}
BLUE_WON = {BERNHARD: ["blue 3", "blue 4", "green 1", "yellow 9"], DANIEL: ["green 7", "red 1", "red 2", "red 4"]}


@pytest.mark.parametrize("chosen, round_end, fulfilled", [
    # no tricks: Bernhard 0 tricks yes, Carsten 1 no
    (["no tricks", "no tricks", "the fewest tricks"], dict(tricks=(5, 0, 1, 3)), [True, False, False]),
    # no red cards: needs a trick without a red card (trump or not); no trick at all is not enough
    (["no red cards", "no blue cards", "no green cards"], dict(tricks=(5, 1, 0, 3), won=BLUE_WON),
     [True, False, False]),
    (["no red cards", "no yellow cards", "no blue cards"], dict(tricks=(5, 1, 0, 3), won=RED_WON),
     [False, False, True]),
    # exactly n tricks
    (["exactly 1 trick", "exactly 2 tricks", "exactly 3 tricks"], dict(tricks=(3, 1, 2, 3)), [True, True, True]),
    (["exactly 2 tricks", "exactly 3 tricks", "exactly 4 tricks"], dict(tricks=(3, 1, 2, 3)),
     [False, False, False]),
    # the last trick, whatever else
    (["the last trick", "the last trick", "no tricks"], dict(tricks=(3, 3, 3, 0), last=CARSTEN), [False, True, True]),
    # the most / the fewest: more (fewer) than every other single player; a tie is not enough
    (["the most tricks", "the fewest tricks", "the most tricks"], dict(tricks=(2, 4, 0, 3)), [True, True, False]),
    (["the most tricks", "the fewest tricks", "the fewest tricks"], dict(tricks=(1, 4, 4, 0)), [False, False, True]),
    (["the most tricks", "the fewest tricks", "the most tricks"], dict(tricks=(0, 4, 0, 5)), [False, False, True]),
])
def test_each_function_on_a_crafted_round(chosen, round_end, fulfilled):
    game, state, done = functions_fulfilled(chosen, **round_end)
    assert [bool(done[s]) for s in (BERNHARD, CARSTEN, DANIEL)] == fulfilled
    for s, ok in zip((BERNHARD, CARSTEN, DANIEL), fulfilled):
        assert done[s] == ([chosen[s - 1]] if ok else [])
        assert len(state.per_seat["functions"][s]) == (0 if ok else 1)


def test_the_start_player_discards_one_of_his_own_for_a_function_its_owner_missed():
    # Bernhard chose "no tricks" and took one; Alex (start player) took none: Alex may discard one card
    functions = {ALEX: ["exactly 4 tricks", "the last trick"], BERNHARD: ["no tricks"], CARSTEN: ["exactly 1 trick"],
                 DANIEL: ["exactly 3 tricks"]}
    game, state = at_function_choice(functions=functions, tricks=(0, 1, 5, 3))
    play(game, state, "no tricks", "exactly 1 trick", "exactly 3 tricks")
    assert state.pending.step.name == "start_player" and asked(game, state) == "Alex"
    assert game.labels(state) == ["no discard", "exactly 4 tricks", "the last trick"]
    play(game, state, "the last trick")
    assert [labels(game, f) for f in state.per_seat["fulfilled"]] == [["the last trick"], [], [], ["exactly 3 tricks"]]
    assert state.totals == [1, 0, 0, 1] and state.round_number == 2


def start_player_entitled():
    """Alex (start player) took no trick and so fulfilled Bernhard's "no tricks", which Bernhard (one trick)
    missed; Carsten and Daniel fulfilled their own. The round is at Alex's discard."""
    functions = {ALEX: ["exactly 4 tricks", "the last trick", "no green cards"], BERNHARD: ["no tricks"],
                 CARSTEN: ["the most tricks"], DANIEL: ["exactly 3 tricks"]}
    game, state = at_function_choice(functions=functions, tricks=(0, 1, 5, 3))
    play(game, state, "no tricks", "the most tricks", "exactly 3 tricks")
    return game, state


@pytest.mark.parametrize("choice", ["exactly 4 tricks", "the last trick", "no green cards"])
def test_the_start_player_may_discard_any_one_of_his_function_cards(choice):
    # "If this succeeds, he MAY discard any of his own function cards": any one, his choice
    game, state = start_player_entitled()
    assert state.pending.step.name == "start_player" and asked(game, state) == "Alex"
    assert game.labels(state) == ["no discard", "exactly 4 tricks", "the last trick", "no green cards"]
    play(game, state, choice)
    assert [labels(game, f) for f in state.per_seat["fulfilled"]] == [[choice], [], ["the most tricks"],
                                                                       ["exactly 3 tricks"]]
    assert labels(game, state.per_seat["functions"][ALEX]) == [
        f for f in ["exactly 4 tricks", "the last trick", "no green cards"] if f != choice]
    assert state.totals == [1, 0, 1, 1] and state.round_number == 2


def test_the_start_player_may_decline_and_keep_all_his_function_cards():
    # the rulebook says "may": declining keeps all three; nobody else's cards change
    game, state = start_player_entitled()
    assert state.pending.step.name == "start_player" and asked(game, state) == "Alex"
    play(game, state, "no discard")
    assert [labels(game, f) for f in state.per_seat["fulfilled"]] == [[], [], ["the most tricks"],
                                                                       ["exactly 3 tricks"]]
    assert labels(game, state.per_seat["functions"][ALEX]) == ["exactly 4 tricks", "the last trick",
                                                               "no green cards"]
    assert labels(game, state.per_seat["functions"][BERNHARD]) == ["no tricks"]
    assert state.totals == [0, 0, 1, 1] and state.round_number == 2


def test_the_start_player_is_offered_neither_discard_nor_no_discard_when_not_entitled():
    # Alex took no trick, but so did Bernhard: he fulfilled only what its owner fulfilled too
    functions = {ALEX: ["exactly 4 tricks", "the last trick"], BERNHARD: ["no tricks"], CARSTEN: ["the most tricks"],
                 DANIEL: ["exactly 3 tricks"]}
    game, state = at_function_choice(functions=functions, tricks=(0, 0, 6, 3))
    play(game, state, "no tricks", "the most tricks", "exactly 3 tricks")
    assert state.round_number == 2                          # the round ended without asking Alex
    assert state.pending.step.name != "start_player" and "no discard" not in game.labels(state)
    assert labels(game, state.per_seat["functions"][ALEX]) == ["exactly 4 tricks", "the last trick"]
    assert state.totals == [0, 1, 1, 1]


def test_the_start_player_discards_nothing_for_a_function_its_owner_fulfilled_and_one_card_at_most():
    functions = {ALEX: ["exactly 4 tricks", "the last trick"], BERNHARD: ["no tricks"], CARSTEN: ["exactly 1 trick"],
                 DANIEL: ["no blue cards"]}
    game, state = at_function_choice(functions=functions, tricks=(0, 0, 6, 3),   # both Alex and Bernhard 0
                                     won={DANIEL: ["blue 9", "red 1", "red 2", "red 3"]})
    play(game, state, "no tricks", "exactly 1 trick", "no blue cards")
    assert state.round_number == 2 and state.totals == [0, 1, 0, 0]
    # Carsten (6 tricks) and Daniel (a blue card) missed what Alex (1 trick, no blue) fulfils: one discard only
    game, state = at_function_choice(functions=functions, tricks=(1, 0, 6, 2),
                                     won={ALEX: ["green 1", "green 2", "red 3", "red 4"], DANIEL: ["blue 9"]})
    play(game, state, "no tricks", "exactly 1 trick", "no blue cards")
    assert state.pending.step.name == "start_player"
    play(game, state, "exactly 4 tricks")
    assert state.totals == [1, 1, 0, 0] and [len(f) for f in state.per_seat["functions"]] == [1, 0, 1, 1]


# ======================================================================= tricks


def trick(trumps, hands, dealer=DANIEL):
    """A trick after the reveal of ``trumps`` (labels); Alex (left of the start player Daniel) leads."""
    game = game_of("was-sticht", 4)
    colour, number = trumps
    seen = {"sees_colour": {dealer: colour.split()[-1] if colour.startswith("trump") else None},
            "sees_number": {dealer: int(number.split()[-1]) if number.startswith("trump") else None}}
    state = at_step(game, "tricks", dict(enumerate(hands)), dealer=dealer, zones={"trumps": trumps},
                    seat_values=seen)
    return game, state


def winner_of(game, state, *cards):
    play(game, state, *cards)
    p = trick_progress(state)
    assert p.last
    return game.seat_names[p.winner]


def test_the_trump_rank_example_red_and_5():
    trumps = ["trump colour red", "trump number 5"]
    order = ["red 5", "blue 5", "red 9", "red 8", "red 1", "green 9"]      # highest first (green led)
    for better, worse in zip(order, order[1:]):
        for first, second in ((better, worse), (worse, better)):
            game, state = trick(trumps, [["green 2", "green 3"], [first, "blue 1"], [second, "blue 2"],
                                         ["green 4", "blue 3"]])
            hands = {first: "Bernhard", second: "Carsten"}
            assert winner_of(game, state, "green 2", first, second, "green 4") == hands[better], (first, second)


def test_no_trump_colour_and_trump_number_5_the_5s_are_equal_the_first_played_wins():
    game, state = trick(["no trump colour", "trump number 5"], [["green 9", "red 1"], ["yellow 5", "red 2"],
                                                                 ["red 5", "red 3"], ["blue 5", "red 4"]])
    assert winner_of(game, state, "green 9", "yellow 5", "red 5", "blue 5") == "Bernhard"


def test_trump_colour_red_and_no_trump_number_only_reds_are_trump_by_number():
    game, state = trick(["trump colour red", "no trump number"], [["green 9", "blue 1"], ["red 2", "blue 2"],
                                                                  ["red 8", "blue 3"], ["green 5", "blue 4"]])
    assert winner_of(game, state, "green 9", "red 2", "red 8", "green 5") == "Carsten"
    game, state = trick(["trump colour red", "no trump number"], [["green 9", "blue 1"], ["green 2", "blue 2"],
                                                                  ["yellow 8", "blue 3"], ["green 5", "blue 4"]])
    assert winner_of(game, state, "green 9", "green 2", "yellow 8", "green 5") == "Alex"


def test_a_number_trump_has_no_colour_and_a_trump_lead_must_be_followed_by_any_trump():
    trumps = ["trump colour red", "trump number 5"]
    game, state = trick(trumps, [["blue 7", "red 1"], ["blue 5", "green 2"], ["red 9", "blue 2"],
                                 ["yellow 3", "blue 3"]])
    play(game, state, "blue 7")
    assert sorted(game.labels(state)) == ["blue 5", "green 2"]   # the blue 5 is no blue card: no blue held
    game, state = trick(trumps, [["red 1", "blue 8"], ["blue 5", "green 2"], ["yellow 9", "red 9"],
                                 ["yellow 3", "blue 3"]])
    play(game, state, "red 1")                                    # a colour trump led: any trump follows
    assert game.labels(state) == ["blue 5"]
    play(game, state, "blue 5")
    assert game.labels(state) == ["red 9"]
    play(game, state, "red 9")
    assert sorted(game.labels(state)) == ["blue 3", "yellow 3"]   # no trump: any card


def test_the_left_neighbour_of_the_start_player_leads_and_the_start_player_moves_left():
    game = game_of("was-sticht", 4)
    state = game.new_state()
    rng = random.Random(3)
    starts, leaders = [], []
    while state.round_number <= 3 and not state.finished:
        d = state.pending
        if d.kind == "chance":
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        if d.step.name == "tricks" and trick_progress(state).plays == [] and trick_progress(state).number == 0:
            starts.append(state.dealer)
            leaders.append(d.actor)
        game.apply(state, game.legal_actions(state)[rng.randrange(len(d.actions))])
    assert starts == [0, 1, 2] and leaders == [1, 2, 3]


# ======================================================================= the end of the game


def test_the_game_ends_when_a_player_has_fulfilled_all_four_and_ties_share_the_win():
    functions = {ALEX: ["exactly 4 tricks"], BERNHARD: ["no tricks"], CARSTEN: ["exactly 1 trick"],
                 DANIEL: ["exactly 3 tricks"]}
    before = {BERNHARD: ["the last trick", "no red cards", "no blue cards"],
              CARSTEN: ["the most tricks", "the fewest tricks", "no green cards"], DANIEL: ["exactly 2 tricks"]}
    game, state = at_function_choice(functions=functions, tricks=(5, 0, 1, 3), fulfilled=before)
    state.totals = [0, 3, 3, 1]
    play(game, state, "no tricks", "exactly 1 trick", "exactly 3 tricks")
    assert state.finished and state.totals == [0, 4, 4, 2]
    assert game.winners(state) == [BERNHARD, CARSTEN]
    game, state = at_function_choice(functions=functions, tricks=(5, 0, 2, 3), fulfilled=before)
    state.totals = [0, 3, 3, 1]
    play(game, state, "no tricks", "exactly 1 trick", "exactly 3 tricks")
    assert state.finished and game.winners(state) == [BERNHARD]


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_end_with_four_functions_fulfilled(players):
    game = game_of("was-sticht", players)
    for seed in range(3):
        result = play_game(game, seed=seed)
        assert max(result.totals) == 4 and all(0 <= t <= 4 for t in result.totals)
        assert result.winners == [s for s, t in enumerate(result.totals) if t == 4]
