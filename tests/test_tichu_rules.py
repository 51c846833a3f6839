"""Tichu (games/tichu.yaml) against its rules (Urs Hostettler; Fata Morgana Spiele, English translation by Chris
Mellor edited by Aaron D. Fuegi; Rio Grande Games English edition; the Fata Morgana / Wuerzburg FAQ rulings):
each test plays a situation of the rules card by card and checks exactly what the rules say happens."""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.rules.loader import load_rules

from .conftest import at_step, names, play

N, W, S, E = range(4)   # in playing order: North, West, South, East; North-South against West-East


@pytest.fixture(scope="module")
def game() -> Game:
    return compile_game(load_rules("tichu"), 4)


def at_turn(game: Game, hands: dict[int, list[str]], turn: int, state: State | None = None,
            **values: Any) -> State:
    """A trick about to be led by ``turn`` (or the round values given), with these hands."""
    start: dict[str, Any] = dict(turn=turn, top=None, top_player=turn, passes=0, out=[], wish=None, wish_seen=0,
                                 receiver=None, trick_over=False, play_over=False, play=[], out_of_turn=[],
                                 out_of_turn_player=None)
    start.update(values)
    return at_step(game, "play", hands, state=state, teams=[0, 1, 0, 1], **start)


def top(state: State) -> tuple[str, int, float] | None:
    """The combination to beat: its kind, number of cards and value."""
    t = state.vars["top"]
    return None if t is None else (t["kind"], t["length"], t["value"])


def offered(game: Game, state: State) -> list[str]:
    return sorted(game.labels(state))


def asked(state: State) -> tuple[int, str]:
    return state.pending.actor, state.pending.step.name


# ---------------------------------------------------------------- the combinations and what beats what


def test_a_straight_is_beaten_only_by_a_higher_straight_of_the_same_length(game: Game) -> None:
    hands = {N: ["jade 3", "sword 4", "jade 5", "star 6", "pagoda 7", "star 2"],
             W: ["sword 5", "pagoda 6", "jade 7", "star 8", "pagoda 9", "jade 10", "star 3"],
             S: ["jade 2", "sword 2"],
             E: ["jade J", "sword Q"]}
    state = at_turn(game, hands, N)
    play(game, state, "jade 3", "sword 4", "jade 5", "star 6", "pagoda 7")       # a straight 3 to 7...
    assert offered(game, state) == ["play", "star 2"]   # ... which the 2 would make 2 to 7
    play(game, state, "play")
    assert names(game, state.shared["table"]) == ["jade 3", "jade 5", "pagoda 7", "star 6", "sword 4"]
    assert top(state) == ("straight", 5, 7) and asked(state) == (W, "play")
    # West may play 5-9 or 6-10 (five cards, higher), not his six-card straight 5-10, nor the 3
    assert offered(game, state) == ["jade 10", "jade 7", "pagoda 6", "pagoda 9", "pass", "star 8", "sword 5"]
    play(game, state, "jade 10")
    assert offered(game, state) == ["jade 7", "pagoda 6", "pagoda 9", "star 8"]   # only 6-10 goes on from it
    play(game, state, "pagoda 6", "jade 7", "star 8", "pagoda 9")
    # nobody beats 6-10: West takes the trick and leads
    assert state.vars["top_player"] == W and asked(state) == (W, "play")
    assert len(state.per_seat["won"][W]) == 10


def test_a_full_house_counts_its_three_of_a_kind_and_a_sequence_of_pairs_its_length(game: Game) -> None:
    hands = {N: ["jade 4", "sword 4", "star 4", "jade K", "sword K", "star 2"],
             W: ["jade 5", "sword 5", "star 5", "jade 3", "sword 3", "pagoda 2"],
             S: ["jade 6", "sword 6", "jade 7", "sword 7", "pagoda 7", "jade 8", "sword 8"],
             E: ["star 9"]}
    state = at_turn(game, hands, N)
    play(game, state, "jade 4", "sword 4", "star 4", "jade K", "sword K")         # 4-4-4 K-K
    assert top(state) == ("full_house", 5, 4)
    assert offered(game, state) == sorted(["jade 5", "sword 5", "star 5", "jade 3", "sword 3", "pass"])
    play(game, state, "jade 5", "sword 5", "star 5", "jade 3", "sword 3")          # 5-5-5 3-3 beats it
    assert top(state) == ("full_house", 5, 5)
    # South holds 7-7-7 with 6-6 or 8-8, two full houses of 7s, and the sequence of pairs 6-6-7-7-8-8, which
    # is not a full house: after three 7s and a 6 only the other 6 completes a play
    play(game, state, "pagoda 7", "jade 7", "sword 7")
    assert offered(game, state) == ["jade 6", "jade 8", "sword 6", "sword 8"]
    play(game, state, "jade 6")
    assert offered(game, state) == ["sword 6"]
    play(game, state, "sword 6")
    assert state.vars["top_player"] == S and len(state.per_seat["won"][S]) == 15    # nobody beats it


def test_a_sequence_of_pairs_is_beaten_by_as_many_higher_pairs_the_phoenix_completing_one(game: Game) -> None:
    hands = {N: ["jade 3", "sword 3", "jade 4", "sword 4", "star 2"],
             W: ["jade 6", "sword 6", "jade 7", "Phoenix", "jade 8", "sword 8", "pagoda 3"],
             S: ["jade 9", "sword 9", "jade 10", "sword 10"],
             E: ["pagoda 2"]}
    state = at_turn(game, hands, N)
    play(game, state, "jade 3", "sword 3", "jade 4", "sword 4")       # 3-3-4-4
    assert top(state) == ("stairs", 4, 4)
    # West: 6-6-7-P or 7-P-8-8 (two pairs, the Phoenix as a 7); not the three pairs 6-6-7-P-8-8
    play(game, state, "jade 7")
    assert offered(game, state) == ["Phoenix", "jade 6", "jade 8", "sword 6", "sword 8"]
    play(game, state, "Phoenix", "jade 8")
    assert offered(game, state) == ["sword 8"]
    play(game, state, "sword 8")
    assert top(state) == ("stairs", 4, 8) and state.vars["top_player"] == W
    # South's 9-9-10-10 beats it
    assert asked(state) == (S, "play") and offered(game, state) == sorted(hands[S] + ["pass"])


def test_a_higher_four_of_a_kind_and_a_longer_straight_flush_beat_a_bomb(game: Game) -> None:
    hands = {N: ["jade 2", "sword 2", "star 2", "pagoda 2", "jade A"],
             W: ["jade 3", "sword 3", "star 3", "pagoda 3", "jade Q"],
             S: ["sword 9", "sword 10", "sword J", "sword Q", "sword K", "pagoda K"],
             E: ["star 4", "star 5", "star 6", "star 7", "star 8", "star 9", "pagoda A"]}
    state = at_turn(game, hands, N)
    play(game, state, "jade 2", "sword 2", "star 2", "pagoda 2")      # four 2s led
    assert asked(state) == (W, "bomb")                  # four 3s beat them
    play(game, state, "jade 3", "sword 3", "star 3", "pagoda 3")
    assert top(state) == ("bomb", 4, 3)
    assert asked(state) == (S, "play")                  # South's straight flush 9-K beats four of a kind
    play(game, state, "sword 9", "sword 10", "sword J", "sword Q", "sword K")
    assert top(state) == ("straight_flush", 5, 13)
    # East's six-card straight flush 4-9 beats a five-card one, though lower; his 4-8 or 5-9 would not
    assert asked(state) == (E, "bomb")
    play(game, state, "star 4", "star 5", "star 6", "star 7", "star 8")
    assert offered(game, state) == ["star 9"]           # 4-8 may not be played: no bomb stop, only the 9
    play(game, state, "star 9")
    # nobody beats it: East takes the four bombs and leads
    assert state.vars["top_player"] == E and asked(state) == (E, "play") and len(state.per_seat["won"][E]) == 19


def test_a_bomb_beats_any_combination_and_a_straight_flush_beats_four_of_a_kind(game: Game) -> None:
    hands = {N: ["Dragon", "star 2"],
             W: ["jade 9", "sword 9", "star 9", "pagoda 9", "jade 3"],
             S: ["star 4", "star 5", "star 6", "star 7", "star 8", "jade 2"],
             E: ["jade A", "sword A", "star A", "pagoda A", "pagoda 3"]}
    state = at_turn(game, hands, N)
    play(game, state, "Dragon")                         # the highest single: only a bomb beats it
    # out of turn, in playing order from West: West holds four 9s and is asked first
    assert asked(state) == (W, "bomb")
    assert offered(game, state) == ["jade 9", "no bomb", "pagoda 9", "star 9", "sword 9"]
    play(game, state, "jade 9", "sword 9", "star 9", "pagoda 9")
    assert top(state) == ("bomb", 4, 9) and state.vars["top_player"] == W
    # South's straight flush beats four of a kind; East's four aces beat four 9s too: East may bomb on his turn
    # the first bomb ends the offers out of turn; South, whose turn it is, may bomb in his turn
    assert asked(state) == (S, "play") and "pass" in offered(game, state)
    play(game, state, "star 4", "star 5", "star 6", "star 7", "star 8")
    # four aces do not beat a straight flush: East is neither offered a bomb nor can he play; South takes it
    assert state.vars["top_player"] == S and asked(state) == (S, "play")
    assert names(game, state.per_seat["won"][S]) == sorted(["Dragon", "jade 9", "sword 9", "star 9", "pagoda 9",
                                                            "star 4", "star 5", "star 6", "star 7", "star 8"])


def test_a_bomb_may_still_be_played_after_three_passes_before_the_trick_is_over(game: Game) -> None:
    hands = {N: ["jade 5", "star 2"],
             W: ["jade 9", "sword 9", "star 9", "pagoda 9", "jade 3"],
             S: ["star 4", "sword 2"],
             E: ["pagoda 3", "jade 2"]}
    state = at_turn(game, hands, N)
    play(game, state, "jade 5")
    assert asked(state) == (W, "bomb")                  # out of turn, after the play
    play(game, state, "no bomb")
    play(game, state, "pass")                           # West's turn: he could play a 9 and passes
    assert asked(state) == (W, "bomb")                  # after each turn the offer comes again
    play(game, state, "no bomb")
    # South cannot beat a 5 and passes unasked: the offer again (West's pass counted, South's being made)
    assert asked(state) == (W, "bomb") and state.vars["passes"] == 1
    play(game, state, "no bomb")
    # East passes unasked too: the third pass; before the trick is over, West may still bomb
    assert asked(state) == (W, "bomb") and state.vars["passes"] == 2
    play(game, state, "jade 9", "sword 9", "star 9", "pagoda 9")
    assert state.vars["top_player"] == W and state.vars["passes"] == 0
    # nobody beats four 9s: West takes the trick (the 5 and his bomb) and leads
    assert asked(state) == (W, "play") and len(state.per_seat["won"][W]) == 5


# ---------------------------------------------------------------- the special cards


def test_the_phoenix_as_a_single_is_half_a_rank_above_the_single_it_beats(game: Game) -> None:
    hands = {N: ["jade K", "star 2"], W: ["Phoenix", "jade 3"], S: ["sword K", "sword A"], E: ["pagoda 4"]}
    state = at_turn(game, hands, N)
    play(game, state, "jade K")
    assert "Phoenix" in offered(game, state)
    play(game, state, "Phoenix")                        # (West's 3 makes no pair with it on a single)
    assert top(state) == ("single", 1, 13.5)        # a king and a half
    # South: the ace beats it, the other king does not
    assert asked(state) == (S, "play") and offered(game, state) == ["pass", "sword A"]


def test_the_phoenix_led_counts_one_and_a_half_and_never_beats_the_dragon(game: Game) -> None:
    hands = {N: ["Phoenix", "jade 5"], W: ["Mah Jong", "jade 2"], S: ["Dragon", "star 3"], E: ["pagoda 4"]}
    state = at_turn(game, hands, N)
    play(game, state, "Phoenix", "play")                # (with the 5 it would be a pair)
    assert top(state) == ("single", 1, 1.5)
    # the Mah Jong (1) does not beat 1.5, a 2 does
    assert asked(state) == (W, "play") and offered(game, state) == ["jade 2", "pass"]
    state = at_turn(game, {N: ["Dragon", "jade 5"], W: ["Phoenix", "jade 2"], S: ["star 3"], E: ["pagoda 4"]}, N)
    play(game, state, "Dragon")
    # West's Phoenix does not beat the Dragon: West passes unasked, and so do South and East
    assert asked(state) == (N, "dragon")


def test_the_dragon_trick_goes_to_the_opponent_its_winner_chooses(game: Game) -> None:
    hands = {N: ["Dragon", "jade 5"], W: ["jade 2"], S: ["star 3"], E: ["pagoda 4"]}
    state = at_turn(game, hands, N)
    play(game, state, "Dragon")
    assert asked(state) == (N, "dragon") and offered(game, state) == ["East", "West"]
    play(game, state, "East")
    assert names(game, state.per_seat["won"][E]) == ["Dragon"] and state.per_seat["won"][N] == []
    assert asked(state) == (N, "play")                  # the winner of the trick still leads


def test_the_dog_is_led_only_and_gives_the_lead_to_the_partner_or_the_player_after_him(game: Game) -> None:
    hands = {N: ["Dog", "jade 5"], W: ["jade 2", "jade 7"], S: ["star 3", "star 9"], E: ["pagoda 4"]}
    state = at_turn(game, hands, N)
    assert "Dog" in offered(game, state)
    play(game, state, "Dog")
    assert asked(state) == (S, "play") and top(state) is None   # South, the partner, leads
    state = at_turn(game, {N: ["Dog", "jade 5"], W: ["jade 2"], S: [], E: ["pagoda 4"]}, N, out=[S])
    play(game, state, "Dog")
    assert asked(state) == (E, "play")                  # the partner is out: the player after him leads
    state = at_turn(game, {N: ["jade 5", "Dog"], W: ["jade 2"], S: ["star 3"], E: ["pagoda 4"]}, W)
    play(game, state, "jade 2")
    assert "Dog" not in offered(game, state)            # the Dog never follows


# ---------------------------------------------------------------- the wish


def test_the_mah_jong_wish_binds_the_next_player_who_can_play_the_rank(game: Game) -> None:
    hands = {N: ["Mah Jong", "jade 5"], W: ["jade 9", "star 4"], S: ["sword 8", "jade K"], E: ["pagoda 8", "star 8"]}
    state = at_turn(game, hands, N)
    play(game, state, "Mah Jong")
    assert asked(state) == (N, "wish") and "wish 8" in offered(game, state) and "no wish" in offered(game, state)
    play(game, state, "wish 8")
    assert state.vars["wish"] == 8
    # West holds no 8: he may play what he likes or pass
    assert asked(state) == (W, "play") and offered(game, state) == ["jade 9", "pass", "star 4"]
    play(game, state, "jade 9")
    # South holds an 8 but it cannot beat a 9: he may play the king or pass
    assert offered(game, state) == ["jade K", "pass"]
    play(game, state, "pass")
    # East's 8s cannot beat the 9: he passes without being asked; so does North (his 5); West leads again,
    # and the wish, not fulfilled, binds South now that his 8 can be played: the 8, no king, no pass
    assert asked(state) == (W, "play") and state.vars["wish"] == 8
    play(game, state, "star 4")
    assert asked(state) == (S, "play") and offered(game, state) == ["sword 8"]
    play(game, state, "sword 8")
    assert state.vars["wish"] is None                   # fulfilled
    # East (8s do not beat an 8) and North pass unasked, West is out: South takes the trick and leads
    assert asked(state) == (S, "play") and state.vars["out"] == [W]


def test_a_player_who_can_fulfil_the_wish_must_and_may_not_pass(game: Game) -> None:
    hands = {N: ["Mah Jong", "jade 5"], W: ["jade 8", "star 4", "sword K"], S: ["sword 3"], E: ["pagoda 2"]}
    state = at_turn(game, hands, N)
    play(game, state, "Mah Jong", "wish 8")
    assert asked(state) == (W, "play") and offered(game, state) == ["jade 8"]       # no pass, no other card
    play(game, state, "jade 8")
    assert state.vars["wish"] is None                   # fulfilled


def test_the_wish_binds_a_leader_who_holds_the_rank(game: Game) -> None:
    hands = {N: ["jade 5"], W: ["jade 8", "star 4", "sword 4"], S: ["sword 3"], E: ["pagoda 2"]}
    state = at_turn(game, hands, W, wish=8)
    assert offered(game, state) == ["jade 8"]


# ---------------------------------------------------------------- the end of the round and the scores


def test_a_double_victory_scores_200_and_no_cards_are_counted(game: Game) -> None:
    hands = {N: [], W: ["jade 5", "jade K", "jade 10"], S: ["star 3"], E: ["sword 5", "sword K", "Dragon"]}
    zones = {"won": {W: ["pagoda K", "pagoda 10"]}}
    state = at_turn(game, hands, S, zones=zones, out=[N],
                    seat_values={"tichu": {N: "Tichu"}, "grand": {W: "Grand Tichu"}})
    totals = list(state.totals)
    play(game, state, "star 3")                         # South goes out second, after his partner North
    # 200 for North-South and North's Tichu; West's failed Grand Tichu; West-East's 20 card points count nothing
    assert [t - b for t, b in zip(state.totals, totals)] == [300, -200, 300, -200]


def test_the_last_player_gives_his_hand_to_the_opponents_and_his_tricks_to_the_first_out(game: Game) -> None:
    hands = {N: ["jade 5"], W: ["sword 10"], S: ["star K", "pagoda 5"], E: ["pagoda 2"]}
    zones = {"won": {S: ["jade K", "star 10"]}}
    state = at_turn(game, hands, E, zones=zones)
    totals = list(state.totals)
    play(game, state, "pagoda 2")                       # East is out first
    play(game, state, "jade 5")                         # North is out second
    play(game, state, "sword 10")                       # West is out third: the round ends, West takes the trick
    # South's hand (K, 5) goes to the opponents, his tricks (K, 10) to East, who went out first: North-South
    # count nothing; West-East count 5 + 10 (West's trick) and 10 + 5 + 10 + 10
    assert [t - b for t, b in zip(state.totals, totals)] == [0, 50, 0, 50]


def test_a_tichu_call_scores_100_for_going_out_first_and_loses_100_otherwise(game: Game) -> None:
    hands = {N: ["jade 5"], W: ["sword 10"], S: ["star 2", "pagoda 3"], E: ["pagoda 2"]}
    state = at_turn(game, hands, E, seat_values={"tichu": {E: "Tichu", N: "Tichu"}})
    totals = list(state.totals)
    play(game, state, "pagoda 2", "jade 5", "sword 10")  # East, North, West out in that order
    # West-East: +100 for East's Tichu and 5 + 10 in West's trick; North-South: -100 for North's Tichu
    assert [t - b for t, b in zip(state.totals, totals)] == [-100, 115, -100, 115]


def test_the_holder_of_the_mah_jong_leads_and_tichu_may_be_called_before_his_first_card(game: Game) -> None:
    import random
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(3)))
    assert asked(state)[1] == "grand_tichu" and all(len(h) == 8 for h in state.per_seat["hand"])
    play(game, state, "Grand Tichu")                    # West, left of the dealer, calls Grand Tichu
    while asked(state)[1] == "grand_tichu":
        play(game, state, "no call")
    assert all(len(h) == 14 for h in state.per_seat["hand"])          # then 6 more cards each
    for seat in (S, E, N):                              # with all his cards, before passing, each may call Tichu
        assert asked(state) == (seat, "tichu_early") and offered(game, state) == ["Tichu", "no call"]
        play(game, state, "no call")                    # (not West: he called Grand Tichu)
    while asked(state)[1] != "tichu":                   # the passing: one card to each other player
        assert asked(state)[1] in ("pass_next", "pass_partner", "pass_previous")
        play(game, state, sorted(game.labels(state))[0])
    holder = next(s for s in range(4) if any(game.cards.labels[c] == "Mah Jong" for c in state.per_seat["hand"][s]))
    assert asked(state)[0] == holder and offered(game, state) == ["Tichu", "no call"] and holder != W


# ---------------------------------------------------------------- work


def test_a_lead_from_a_hand_rich_in_combinations_stays_well_within_the_work_budget(game: Game) -> None:
    from interpreter.dsl import budget
    from interpreter.limits import WORK_LIMIT

    # pairs of 2 to 7, the Mah Jong and the Phoenix: many straights, sequences of pairs and full houses to lead
    hand = [f"{suit} {r}" for r in range(2, 8) for suit in ("jade", "sword")] + ["Mah Jong", "Phoenix"]
    state = at_turn(game, {N: hand, W: ["star 9"], S: ["star 10"], E: ["star J"]}, N,
                    seat_values={"tichu": {N: "Tichu"}})          # (called: no offer to call)
    budget.reset()
    play(game, state, "jade 4")                         # the next pick worked out from every combination with a 4
    used = WORK_LIMIT - budget.left[0]
    assert 0 < used < WORK_LIMIT // 10, used
    assert "play" in game.labels(state) and "Phoenix" in game.labels(state) and "Mah Jong" in game.labels(state)
