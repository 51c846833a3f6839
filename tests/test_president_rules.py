"""President (games/president.yaml) by John McLeod's "President" on pagat.com and the English Wikipedia article
"President (card game)": the whole pack dealt out, some players getting one more; a play is a single card or a set
of one rank, each later play of a trick as many cards of a higher rank (2 high), or a pass; the trick goes to the
last player to play, who leads again; the titles by the order of going out and their points; from the second hand
the Scum deals, gives the President their best cards and gets back any the President chooses (with 5 or more
players the Vice-Scum and the Vice-President exchange one card fewer), and the Scum leads. The seats A, B, C, ...
sit in that order; the plays below are the rules' cases worked out by hand."""

from __future__ import annotations

import random

from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, State

from .conftest import at_step, game_of, names, play

A, B, C, D, E = range(5)


def _labels(game: Game, state: State) -> list[str]:
    return sorted(game.labels(state))


def _hands(game: Game, state: State) -> list[list[str]]:
    return [names(game, h) for h in state.per_seat["hand"]]


def test_the_whole_pack_is_dealt_from_the_dealers_left_some_getting_one_more_and_the_next_player_leads():
    rng = random.Random(7)
    for players, sizes in {4: [13] * 4, 5: [11, 11, 10, 10, 10], 6: [9, 9, 9, 9, 8, 8],
                           7: [8, 8, 8, 7, 7, 7, 7]}.items():
        game = game_of("president", players)
        state = game.new_state()                    # A deals the first hand: B gets the first card and leads
        while state.pending.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        assert [len(state.per_seat["hand"][(B + i) % players]) for i in range(players)] == sizes
        assert state.pending.actor == B and "pass" not in game.labels(state)          # the leader may not pass


def test_each_later_play_is_as_many_cards_of_a_higher_rank_and_the_last_to_play_leads_again():
    game = game_of("president", 4)
    hands = {A: ["5♣", "5♦", "9♠", "2♥"], B: ["6♣", "6♦", "6♥", "K♠"], C: ["4♣", "4♦", "A♠"], D: ["7♣", "7♦", "Q♥"]}
    state = at_step(game, "play", hands, dealer=D)                                   # A leads
    assert _labels(game, state) == ["2♥", "5♣", "5♦", "9♠"]
    play(game, state, "5♣")
    assert _labels(game, state) == ["5♦", "play"]  # a single, or a pair with the other 5
    play(game, state, "5♦")                         # nothing makes more of the pair: played
    # a pair is beaten only by a higher pair: B's king alone may not go on it, the triple of 6s neither, but two
    # of the three 6s may
    assert _labels(game, state) == sorted(["6♣", "6♦", "6♥", "pass"])
    play(game, state, "6♣", "6♦")
    # C's pair of 4s is lower: C passes unasked; D plays the 7s; nobody holds a higher pair
    assert state.pending.actor == D
    play(game, state, "7♣", "7♦")
    assert state.vars["top_player"] == D and state.pending.actor == D and state.vars["top"] is None
    assert names(game, state.shared["discard"]) == ["5♣", "5♦", "6♣", "6♦", "7♣", "7♦"]
    play(game, state, "Q♥")                         # D leads a single queen, its last card: D is out first
    assert state.pending.actor == A and _labels(game, state) == ["2♥", "pass"]      # the 9 is lower than a queen
    play(game, state, "pass")                       # A may pass though it could play the 2
    assert state.pending.actor == B and _labels(game, state) == ["K♠", "pass"]
    play(game, state, "K♠")
    assert _labels(game, state) == ["A♠", "pass"]   # C: the ace beats the king
    play(game, state, "A♠")
    assert state.vars["out"] == [D]
    # D, out, is skipped; A, who passed, may play again
    assert state.pending.actor == A and _labels(game, state) == ["2♥", "pass"]
    play(game, state, "2♥")                         # the 2 is the highest card: nobody beats it
    assert state.vars["top_player"] == A and state.pending.actor == A and state.vars["top"] is None


def _round_of_four(**options) -> State:
    """A hand of 4 played to its end: C goes out first, A second, B third; D, still holding cards, is the Scum."""
    game = game_of("president", 4, **options)
    hands = {A: ["9♠", "2♥"], B: ["6♥", "K♠"], C: ["2♠"], D: ["4♣", "3♦", "5♥"]}
    state = at_step(game, "play", hands, dealer=B)                                   # C leads
    state.notes = []
    play(game, state, "2♠")                         # C is out; nobody beats the 2: D leads for C
    play(game, state, "3♦", "9♠")                   # D leads the 3, A plays the 9
    play(game, state, "K♠")                         # B the king; D cannot beat it and passes unasked
    play(game, state, "2♥")                         # A is out with the 2 and B, holding the 6, takes the lead
    play(game, state, "6♥")                         # B is out: D is left, the Scum
    return state


def test_the_titles_go_by_the_order_of_going_out_and_score_their_points():
    state = _round_of_four()
    assert state.round_number == 2                  # the hand is over
    assert [state.seat_vars["last_place"][s] for s in range(4)] == [2, 3, 1, 4]
    # President +2, Vice-President +1, Vice-Scum -1, Scum -2 (4 players: no neutral)
    assert state.totals == [1, -1, 2, -2]
    assert [n.strip() for n in state.notes[-4:]] == ["A +1: Vice-President", "B -1: Vice-Scum", "C +2: President",
                                                     "D -2: Scum"]
    assert state.dealer == D                        # the Scum deals the next hand
    # places: one point for each player who went out after you
    assert _round_of_four(scoring="places").totals == [2, 1, 3, 0]


def _second_hand(players: int, hands: dict[int, list[str]], places: list[int], **options) -> tuple[Game, State]:
    """The second hand after the deal: seat s went out in place places[s] in the first; the Scum deals."""
    game = game_of("president", players, **options)
    scum = places.index(players)
    state = game.new_state(hand=2, dealer=scum)
    return game, at_step(game, "scum_gives", hands, state=state, dealer=scum,
                         seat_values={"last_place": dict(enumerate(places))})


def test_from_the_second_hand_the_scum_gives_the_best_cards_and_gets_back_any_the_president_chooses():
    # five players: A was the Scum, B the Vice-Scum, C neutral, D the Vice-President, E the President
    hands = {A: ["A♥", "3♣", "2♣", "A♠"], B: ["4♣", "K♦", "8♦"], C: ["5♣"], D: ["6♣", "7♣"], E: ["8♣", "9♣"]}
    game, state = _second_hand(5, hands, [5, 4, 3, 2, 1])
    # A gave the 2 and the first of its two aces; the President chooses two cards of any (those just got too)
    assert state.pending.actor == E and _labels(game, state) == ["2♣", "8♣", "9♣", "A♥"]
    play(game, state, "8♣", "9♣")
    # B gave its best card, the king, to D, who gives back one card
    assert _hands(game, state)[D] == ["6♣", "7♣", "K♦"] and state.pending.actor == D
    play(game, state, "6♣")
    assert _hands(game, state) == [["3♣", "8♣", "9♣", "A♠"], ["4♣", "6♣", "8♦"], ["5♣"], ["7♣", "K♦"],
                                   ["2♣", "A♥"]]
    assert state.pending.actor == A and "pass" not in game.labels(state)             # the Scum leads
    # the President leads instead (option)
    game, state = _second_hand(5, hands, [5, 4, 3, 2, 1], lead="president")
    play(game, state, "8♣", "9♣", "6♣")
    assert state.pending.actor == E


def test_with_four_players_only_the_president_and_the_scum_exchange_and_not_before_the_second_hand():
    hands = {A: ["3♣", "K♦"], B: ["4♣", "A♦", "A♠"], C: ["5♣", "2♦"], D: ["6♣"]}
    # B was the Scum, C the Vice-Scum, A the Vice-President, D the President; one card each way (option)
    game, state = _second_hand(4, hands, [2, 4, 3, 1], exchange=1)
    assert _hands(game, state)[D] == ["6♣", "A♦"] and state.pending.actor == D
    play(game, state, "6♣")
    assert _hands(game, state) == [["3♣", "K♦"], ["4♣", "6♣", "A♠"], ["2♦", "5♣"], ["A♦"]]
    assert state.pending.actor == B                 # no exchange between C and A: the Scum leads
    # no exchange in the first hand, nor with exchange 0
    game = game_of("president", 4)
    assert at_step(game, "scum_gives", hands, dealer=A).pending.actor == B           # left of the dealer leads
    game, state = _second_hand(4, hands, [2, 4, 3, 1], exchange=0)
    assert state.pending.actor == B and _hands(game, state)[D] == ["6♣"]


def test_with_the_house_rule_a_2_goes_alone_on_any_play_and_clears_the_pile():
    hands = {A: ["5♣", "5♦", "9♠"], B: ["2♣", "K♠", "K♦"], C: ["2♦", "2♥", "A♠"], D: ["7♣", "7♦", "Q♥"]}
    game = game_of("president", 4, twos_clear=True)
    state = at_step(game, "play", hands, dealer=D)
    play(game, state, "5♣", "5♦")
    assert _labels(game, state) == sorted(["2♣", "K♠", "K♦", "pass"])                # the 2 alone on a pair
    play(game, state, "2♣")
    # the 2 ends the trick at once (C, holding two 2s, is not asked) and B leads the next
    assert state.pending.actor == B and state.vars["top"] is None
    assert names(game, state.shared["discard"]) == sorted(["5♣", "5♦", "2♣"])
    play(game, state, "K♠", "K♦")
    play(game, state, "2♦", "2♥")                   # a pair of 2s clears the pile too
    assert state.pending.actor == C and state.vars["top"] is None
    # by the rules a single 2 may not go on a pair
    game = game_of("president", 4)
    state = at_step(game, "play", hands, dealer=D)
    play(game, state, "5♣", "5♦")
    assert _labels(game, state) == sorted(["K♠", "K♦", "pass"])


def test_with_the_house_rule_the_holder_of_the_3_of_clubs_leads_the_first_hand_with_it():
    hands = {A: ["5♣", "9♠"], B: ["3♦", "K♠"], C: ["3♣", "3♥", "A♠"], D: ["7♣", "Q♥"]}
    game = game_of("president", 4, first_lead="three_of_clubs")
    state = at_step(game, "play", hands, dealer=D)
    # C leads (not A, left of the dealer) and must play the 3 of clubs: alone, or in the pair of 3s
    assert state.pending.actor == C and _labels(game, state) == sorted(["3♣", "3♥"])
    play(game, state, "3♥")
    assert _labels(game, state) == ["3♣"]           # the 3 of hearts alone is no play with the 3 of clubs
    play(game, state, "3♣")
    assert names(game, state.shared["discard"]) == sorted(["3♣", "3♥"])   # nobody holds a higher pair
