"""Doppelkopf (games/doppelkopf.yaml) by the DDV's tournament rules (Turnierspielregeln, TSR): the order of the
cards, the special points, the times for announcements, the scoring of won games, announcements and solos, and
the parties hidden until play reveals them. North, East, South and West sit in that order; West deals, so
North is asked and leads first."""

from __future__ import annotations

from collections import Counter

import pytest

from interpreter.engine.observation import observe

from .conftest import at_step, game_of

N, E, S, W = range(4)
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
NOBODY_SAID = {s: 0 for s in range(4)}


def _game(**options):
    return game_of("doppelkopf", 4, **options)


def _play(game, state, *labels):
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def _deck(game) -> Counter:
    return Counter(game.cards.labels[c] for c in game.deck)


def _piles(game, eyes: dict[int, int], spare: Counter | None = None) -> dict[int, list[str]]:
    """Won piles worth exactly ``eyes`` for each seat (taken from ``spare``, default the whole deck)."""
    pool = Counter(spare if spare is not None else _deck(game))
    out = {}
    for seat, need in eyes.items():
        pile = []
        for label in sorted(pool, key=lambda lab: -POINTS[lab.split()[1]]):
            worth = POINTS[label.split()[1]]
            while pool[label] and worth <= need and (worth > 0 or need == 0):
                if need - worth in (1,):      # 1 eye cannot be made up later
                    break
                pile.append(label)
                pool[label] -= 1
                need -= worth
        assert need == 0, (seat, need)
        out[seat] = pile
    return out


def _score(game, re: set[int], eyes: dict[int, int], tricks: dict[int, int], said=None, extras=None, foxes=()):
    """The round's scores when the trick piles are worth ``eyes`` and each seat took ``tricks`` tricks; ``extras``:
    each seat's Doppelkopf and Karlchen, ``foxes``: (the fox's player, its taker) for each fox taken."""
    state = game.new_state()
    for s, n in tricks.items():
        state.counters["tricks"][s] = n
    state = at_step(game, "score", {s: [] for s in range(4)}, state=state, zones={"won": _piles(game, eyes)},
                    kind="normal", foxes=[list(f) for f in foxes],
                    teams=[0 if s in re else 1 for s in range(4)],
                    seat_values={"re": {s: s in re for s in range(4)}, "said": said or NOBODY_SAID,
                                 "extras": extras or {s: 0 for s in range(4)}})
    return state.round_results[-1]


# ---------------------------------------------------------------- 2.3 the order of the cards

TRUMPS = ["hearts 10", "clubs Q", "spades Q", "hearts Q", "diamonds Q", "clubs J", "spades J", "hearts J",
          "diamonds J", "diamonds A", "diamonds 10", "diamonds K", "diamonds 9"]


def _trick(game, cards: list[str], kind: str = "normal") -> str:
    """Who wins a last trick of these four cards in a game of ``kind`` (the normal game or a solo's trump suit),
    North leading (each seat holds its one card)."""
    state = at_step(game, "parties", {s: [c] for s, c in enumerate(cards)}, dealer=W, kind=kind)
    state.notes = []
    for label in cards:
        _play(game, state, label)
    won = [n for n in state.notes if n.startswith("Trick ")]
    return won[-1].split("-> ")[1].split()[0]


@pytest.mark.parametrize("higher, lower", list(zip(TRUMPS, TRUMPS[1:])))
def test_each_trump_beats_the_next_lower_one(higher, lower):
    game = _game()
    assert _trick(game, [lower, higher, "spades 9", "clubs 9"]) == "East"


@pytest.mark.parametrize("suit", ["clubs", "spades", "hearts"])
def test_the_plain_suits_rank_ace_ten_king_nine_and_any_trump_beats_them(suit):
    game = _game()
    ranks = ["A", "K", "9"] if suit == "hearts" else ["A", "10", "K", "9"]
    for higher, lower in zip(ranks, ranks[1:]):
        assert _trick(game, [f"{suit} {lower}", f"{suit} {higher}", "spades 9" if suit != "spades" else "clubs 9",
                             "hearts 9" if suit != "hearts" else "clubs 9"]) == "East"
    assert _trick(game, [f"{suit} A", "diamonds 9", f"{suit} 9", f"{suit} K"]) == "East"


def test_of_two_equal_cards_the_first_wins_the_tens_of_hearts_too():
    game = _game()
    assert _trick(game, ["hearts 10", "hearts 10", "spades 9", "clubs 9"]) == "North"
    assert _trick(game, ["clubs Q", "clubs Q", "spades 9", "clubs 9"]) == "North"
    assert _trick(_game(second_dulle_wins=True), ["hearts 10", "hearts 10", "spades 9", "clubs 9"]) == "East"


def test_a_plain_card_that_does_not_follow_never_wins():
    game = _game()
    assert _trick(game, ["clubs 9", "spades A", "hearts A", "clubs K"]) == "West"


# ---------------------------------------------------------------- 7.1, 7.2 winning and scoring

def test_re_wins_with_121_eyes_and_scores_one():
    assert _score(_game(), {N, S}, {N: 121, E: 119}, {N: 6, E: 6}) == [1, -1, 1, -1]


def test_kontra_wins_with_120_eyes_against_the_queens_of_clubs():
    # won 1, against the club queens (gegen die Alten) 1
    assert _score(_game(), {N, S}, {N: 120, E: 120}, {N: 6, E: 6}) == [-2, 2, -2, 2]


def test_when_only_kontra_is_announced_re_wins_with_120():
    # won 1, Kontra announced 2
    assert _score(_game(), {N, S}, {N: 120, E: 120}, {N: 6, E: 6}, said={N: 0, E: 1, S: 0, W: 0}) == [3, -3, 3, -3]


def test_the_losers_below_90_60_30_and_without_a_trick_add_a_point_each():
    game = _game()
    assert _score(game, {N, S}, {N: 151, E: 89}, {N: 8, E: 4}) == [2, -2, 2, -2]
    assert _score(game, {N, S}, {N: 211, E: 29}, {N: 11, E: 1}) == [4, -4, 4, -4]
    assert _score(game, {N, S}, {N: 240, E: 0}, {N: 12, E: 0}) == [5, -5, 5, -5]


def test_the_worked_example_151_against_89():
    # the example of doppelkopf-online.com's "Punktevergabe" (the DDV's scoring without announcements):
    # Re 151 against 89 scores 2 (won, below 90); Kontra 151 against 89 scores 3 (and against the club queens)
    game = _game()
    assert _score(game, {N, W}, {N: 151, E: 89}, {N: 7, E: 5}) == [2, -2, -2, 2]
    assert _score(game, {N, W}, {N: 89, E: 151}, {N: 5, E: 7}) == [-3, 3, 3, -3]


def test_re_announced_counts_two():
    assert _score(_game(), {N, S}, {N: 150, E: 90}, {N: 8, E: 4}, said={N: 1, E: 0, S: 0, W: 0}) == [3, -3, 3, -3]


def test_no_90_missed_loses_and_120_against_it_counts():
    game = _game()
    said = {N: 2, E: 0, S: 1, W: 0}             # Re, no 90: Re needs 151
    # Kontra 95: won 1, Re 2, no 90 1, against the club queens 1
    assert _score(game, {N, S}, {N: 145, E: 95}, {N: 8, E: 4}, said=said) == [-5, 5, -5, 5]
    # Kontra 120: and 120 reached against no 90, 1
    assert _score(game, {N, S}, {N: 120, E: 120}, {N: 6, E: 6}, said=said) == [-6, 6, -6, 6]
    # Re 151: won 1, Kontra below 90 1, Re 2, no 90 1
    assert _score(game, {N, S}, {N: 151, E: 89}, {N: 8, E: 4}, said=said) == [5, -5, 5, -5]


def test_when_both_parties_miss_their_claims_neither_wins():
    # Re and Kontra each said no 90 (need 151): Re 140, Kontra 100; Re reached 120 against no 90
    said = {N: 2, E: 2, S: 0, W: 0}
    assert _score(_game(), {N, S}, {N: 140, E: 100}, {N: 7, E: 5}, said=said) == [1, -1, 1, -1]


def test_special_points_are_netted_in_the_normal_game():
    # Re won 1; Re caught a fox (North took East's) 1, Kontra made a Doppelkopf 1
    extras = {N: 0, E: 1, S: 0, W: 0}
    assert _score(_game(), {N, S}, {N: 130, E: 110}, {N: 6, E: 6}, extras=extras, foxes=[(E, N)]) == [1, -1, 1, -1]


def test_a_fox_counts_only_when_its_player_and_its_taker_are_of_different_parties_at_the_round_s_end():
    game = _game()
    won = {N: 130, E: 110}, {N: 6, E: 6}                             # Re (North, South) won 1
    assert _score(game, {N, S}, *won, foxes=[(S, N)]) == [1, -1, 1, -1]        # South's fox, North took it
    assert _score(game, {N, S}, *won, foxes=[(E, W)]) == [1, -1, 1, -1]        # East's, West took it
    assert _score(game, {N, S}, *won, foxes=[(W, S), (E, N)]) == [3, -3, 3, -3]
    assert _score(game, {N, S}, *won, foxes=[(N, E)]) == [0, 0, 0, 0]          # Kontra took North's
    # the same foxes with West, not South, on the Re side: one caught by each party, Re won 1
    assert _score(game, {N, W}, *won, foxes=[(W, S), (E, N)]) == [1, -1, -1, 1]


def test_the_silent_marriage_is_a_solo_three_times_for_the_soloist_without_special_points():
    extras = {N: 0, E: 1, S: 0, W: 1}
    assert _score(_game(), {N}, {N: 130, E: 110}, {N: 6, E: 6}, extras=extras, foxes=[(N, E), (E, N)]) \
        == [3, -1, -1, -1]
    assert _score(_game(), {N}, {N: 100, E: 140}, {N: 6, E: 6}, said={N: 1, E: 0, S: 0, W: 0}) == [-9, 3, 3, 3]


# ---------------------------------------------------------------- 7.2.3 special points from play

def _last_trick(game, cards, re, eyes):
    """The scores of a round whose last trick is ``cards`` (North leads), the piles before it worth ``eyes``."""
    rest = _deck(game)
    rest.subtract(cards)
    state = at_step(game, "parties", {s: [c] for s, c in enumerate(cards)}, dealer=W,
                    zones={"won": _piles(game, eyes, rest)}, kind="normal")
    # no club queen in these hands: the parties are set by hand, as the deal would have made them
    state.seat_vars["re"] = [s in re for s in range(4)]
    state.counters["tricks"][:] = [6, 5, 0, 0]          # the eleven tricks before
    state.teams = [0 if s in re else 1 for s in range(4)]
    for label in cards:
        _play(game, state, label)
    return state.round_results[-1]


def test_a_fox_caught_a_doppelkopf_and_karlchen_score_for_the_party_that_won_the_trick():
    game = _game()
    # East (Kontra) takes North's fox with a Dulle: 21 eyes; Kontra then has 21 + 99 = 120 and wins:
    # won 1, against the club queens 1, fox 1
    assert _last_trick(game, ["diamonds A", "hearts 10", "spades 9", "clubs 9"], {N, S}, {N: 120, E: 99}) \
        == [-3, 3, -3, 3]
    # North's Dulle takes three aces: 43 eyes, a Doppelkopf; Re 121 wins: won 1, Doppelkopf 1
    assert _last_trick(game, ["hearts 10", "spades A", "clubs A", "hearts A"], {N, S}, {N: 78, E: 119}) \
        == [2, -2, 2, -2]
    # North's jack of clubs wins the last trick: Karlchen; Re 121 wins: won 1, Karlchen 1
    assert _last_trick(game, ["clubs J", "spades 9", "hearts 9", "clubs 9"], {N, S}, {N: 119, E: 121 - 2}) \
        == [2, -2, 2, -2]


# ---------------------------------------------------------------- 6 the times for announcements

def _offered(game, hands: int, re: set[int], said: dict[int, int], kind="normal", clarified=None) -> list[str]:
    """What North may announce before a card, holding ``hands`` cards, after what each seat ``said`` (in a game
    of ``kind``; a marriage ``clarified`` by that trick)."""
    deck = sorted(_deck(game).elements())
    state = at_step(game, "announce", {s: deck[s * 12:s * 12 + hands] for s in range(4)}, dealer=W, kind=kind,
                    clarified=clarified,
                    teams=[0 if s in re else 1 for s in range(4)],
                    seat_values={"re": {s: s in re for s in range(4)}, "said": said,
                                 "extras": {s: 0 for s in range(4)}})
    if state.pending.step.name != "announce":     # nothing to announce: North is not asked
        return []
    return [lab for lab in game.labels(state) if lab != "no announcement"]


def test_re_or_kontra_while_the_announcer_holds_eleven_cards():
    game = _game()
    assert _offered(game, 12, {N, S}, NOBODY_SAID) == ["Re"]
    assert _offered(game, 11, {E, W}, NOBODY_SAID) == ["Kontra"]
    assert _offered(game, 10, {N, S}, NOBODY_SAID) == []


def test_a_reply_to_the_other_party_with_one_card_fewer_than_its_announcement_needed():
    game = _game()
    assert _offered(game, 10, {E, W}, {N: 0, E: 1, S: 0, W: 0}) == ["Kontra"]   # Re needed 11
    assert _offered(game, 9, {E, W}, {N: 0, E: 1, S: 0, W: 0}) == []
    assert _offered(game, 9, {E, W}, {N: 0, E: 2, S: 0, W: 0}) == ["Kontra"]    # no 90 needed 10


def test_no_90_with_ten_cards_no_60_with_nine_no_30_with_eight_black_with_seven():
    game = _game()
    for level, cards, saying in ((1, 10, "no 90"), (2, 9, "no 60"), (3, 8, "no 30"), (4, 7, "black")):
        said = {N: 0, E: 0, S: level, W: 0}           # the partner said it
        assert _offered(game, cards, {N, S}, said) == [saying]
        assert _offered(game, cards - 1, {N, S}, said) == []
    assert _offered(game, 10, {N, S}, {N: 5, E: 0, S: 0, W: 0}) == []             # nothing after black


def test_in_a_marriage_announcements_wait_for_the_clarifying_trick_and_come_later_by_as_many_tricks():
    game = _game()
    assert _offered(game, 12, {N, S}, NOBODY_SAID, "marriage") == []               # not clarified yet
    assert _offered(game, 11, {N, S}, NOBODY_SAID, "marriage", clarified=1) == ["Re"]
    assert _offered(game, 10, {N, S}, NOBODY_SAID, "marriage", clarified=1) == []
    assert _offered(game, 10, {N, S}, NOBODY_SAID, "marriage", clarified=2) == ["Re"]
    assert _offered(game, 9, {N, S}, NOBODY_SAID, "marriage", clarified=2) == []
    assert _offered(game, 9, {N, S}, NOBODY_SAID, "marriage", clarified=3) == ["Re"]
    assert _offered(game, 8, {N, S}, {N: 0, E: 0, S: 1, W: 0}, "marriage", clarified=3) == ["no 90"]


# ---------------------------------------------------------------- 2.4, 5.5 the parties, hidden until shown

HANDS = {N: ["clubs Q", "clubs A", "clubs A", "clubs K", "clubs K", "clubs 9", "clubs 9", "clubs 10", "clubs 10",
             "spades A", "spades A", "spades K"],
         E: ["spades K", "spades 9", "spades 9", "spades 10", "spades 10", "hearts A", "hearts A", "hearts K",
             "hearts K", "hearts 9", "hearts 9", "diamonds 9"],
         S: ["clubs Q", "hearts 10", "hearts 10", "spades Q", "spades Q", "hearts Q", "hearts Q", "diamonds Q",
             "diamonds Q", "clubs J", "clubs J", "spades J"],
         W: ["spades J", "hearts J", "hearts J", "diamonds J", "diamonds J", "diamonds A", "diamonds A",
             "diamonds 10", "diamonds 10", "diamonds K", "diamonds K", "diamonds 9"]}


def test_a_kontra_player_does_not_see_who_is_re_until_a_club_queen_or_an_announcement_shows_it():
    game = _game()
    state = at_step(game, "parties", HANDS, dealer=W, kind="normal")
    assert state.teams == [0, 1, 0, 1]                              # the truth: North and South are Re
    assert observe(game, state, E)["teams"] == [[], ["East"]]
    assert observe(game, state, N)["teams"] == [["North"], []]     # Re does not know its partner either
    assert state.known_team(E, N) == [] and state.team_members(N) == [N, S]
    _play(game, state, "no announcement", "clubs Q")                # North plays a club queen
    assert observe(game, state, E)["teams"] == [["North"], ["East"]]
    assert observe(game, state, S)["teams"][0] == ["North", "South"]
    _play(game, state, "Kontra")                                    # East announces: its party shows
    assert observe(game, state, N)["teams"] == [["North"], ["East"]]
    assert observe(game, state, W)["teams"] == [["North"], ["East", "West"]]


def test_when_both_club_queens_are_out_every_party_is_known():
    game = _game()
    state = at_step(game, "parties", HANDS, dealer=W, kind="normal")
    _play(game, state, "no announcement", "clubs Q", "no announcement", "diamonds 9", "no announcement", "clubs Q")
    for seat in range(4):
        assert observe(game, state, seat)["teams"] == [["North", "South"], ["East", "West"]]


# ---------------------------------------------------------------- 4.2 the solos' trumps

@pytest.mark.parametrize("kind, cards, winner", [
    ("queens", ["diamonds A", "diamonds Q", "spades 9", "clubs 9"], "East"),    # only the queens are trumps
    ("queens", ["hearts Q", "spades Q", "hearts 10", "clubs 9"], "East"),      # clubs, spades, hearts, diamonds
    ("queens", ["hearts K", "hearts 10", "spades 9", "clubs 9"], "East"),      # the ten of hearts is a plain ten
    ("jacks", ["clubs K", "clubs Q", "spades 9", "hearts 9"], "North"),        # a plain suit A 10 K Q J 9
    ("jacks", ["hearts J", "clubs J", "hearts 10", "clubs 9"], "East"),
    ("fleshless", ["clubs Q", "diamonds A", "hearts 10", "clubs J"], "North"),  # no trumps
    ("fleshless", ["spades J", "spades Q", "hearts 9", "clubs 9"], "East"),
    ("hearts", ["hearts A", "diamonds J", "spades 9", "clubs 9"], "East"),     # hearts A K 9 below the jacks
    ("hearts", ["clubs 9", "diamonds A", "spades 9", "clubs K"], "West"),      # diamonds are a plain suit
    ("hearts", ["hearts K", "hearts 10", "spades 9", "clubs 9"], "East"),      # the Dulle stays on top
    ("clubs", ["clubs A", "diamonds J", "spades 9", "hearts 9"], "East"),
    ("diamonds", ["diamonds 9", "diamonds K", "spades 9", "clubs 9"], "East"),  # the normal trumps
])
def test_each_solo_has_its_own_trumps(kind, cards, winner):
    assert _trick(_game(), cards, kind) == winner


# ---------------------------------------------------------------- 4.1, 4.4 reservations and the marriage

MARRIAGE = {N: ["clubs Q", "clubs Q", "spades A", "spades A", "hearts A", "hearts A", "clubs A", "clubs A",
                "diamonds A", "diamonds A", "diamonds 10", "diamonds 10"],
            E: ["spades 9", "spades 9", "spades K", "spades K", "spades 10", "spades 10", "hearts K", "hearts K",
                "hearts 9", "hearts 9", "clubs 9", "clubs 9"],
            S: ["clubs K", "clubs K", "clubs 10", "clubs 10", "hearts 10", "hearts 10", "spades Q", "spades Q",
                "hearts Q", "hearts Q", "diamonds Q", "diamonds Q"],
            W: ["clubs J", "clubs J", "spades J", "spades J", "hearts J", "hearts J", "diamonds J", "diamonds J",
                "diamonds K", "diamonds K", "diamonds 9", "diamonds 9"]}


def test_the_first_trick_another_player_wins_makes_him_the_groom_s_partner():
    game = _game()
    state = at_step(game, "reservation", MARRIAGE, dealer=W)
    _play(game, state, "reservation", "healthy", "healthy", "healthy")
    assert "no solo" in game.labels(state) and "queen solo" in game.labels(state)   # or a solo
    _play(game, state, "no solo")
    assert state.vars["kind"] == "marriage" and state.vars["groom"] == N
    assert observe(game, state, E)["teams"] == [["North"], ["East", "South", "West"]]
    assert state.pending.step.name == "tricks"                      # no announcement before the partner is found
    _play(game, state, "spades A", "spades 9", "hearts 10", "diamonds 9")    # South's Dulle wins the first trick
    assert state.vars["partner"] == S and state.vars["clarified"] == 1
    assert state.teams == [0, 1, 0, 1]
    assert observe(game, state, E)["teams"] == [["North", "South"], ["East", "West"]]
    assert game.labels(state) == ["no announcement", "Re"]          # the first trick: the usual times


def test_a_solo_goes_before_a_marriage_and_a_voluntary_solo_is_led_by_the_dealer_s_left():
    game = _game()                                                   # no compulsory solos: every solo voluntary
    state = at_step(game, "reservation", MARRIAGE, dealer=W)
    _play(game, state, "reservation", "reservation", "healthy", "healthy")
    _play(game, state, "no solo")                                   # North has the marriage
    assert "no solo" not in game.labels(state)                      # East's reservation can only be a solo
    _play(game, state, "queen solo")
    assert state.vars["kind"] == "queens" and state.vars["soloist"] == E
    assert state.teams == [1, 0, 1, 1] and state.team_known is None  # a solo's parties are known to all
    assert state.pending.actor == N and state.vars["compulsory"] is False


ALONE = {N: ["hearts 10", "hearts 10", "clubs Q", "clubs Q", "spades A", "spades A", "clubs A", "clubs A",
             "hearts A", "hearts A", "spades 10", "spades 10"],
         E: ["spades Q", "spades Q", "hearts Q", "hearts Q", "diamonds Q", "diamonds Q", "spades K", "spades K",
             "spades 9", "spades 9", "hearts K", "hearts K"],
         S: ["clubs J", "clubs J", "spades J", "spades J", "hearts J", "hearts J", "diamonds J", "diamonds J",
             "clubs K", "clubs K", "clubs 10", "clubs 10"],
         W: ["diamonds A", "diamonds A", "diamonds 10", "diamonds 10", "diamonds K", "diamonds K", "diamonds 9",
             "diamonds 9", "clubs 9", "clubs 9", "hearts 9", "hearts 9"]}


def test_a_groom_who_wins_the_first_three_tricks_plays_alone():
    game = _game()
    state = at_step(game, "reservation", ALONE, dealer=W)
    _play(game, state, "reservation", "healthy", "healthy", "healthy", "no solo")
    _play(game, state, "hearts 10", "spades Q", "clubs J", "diamonds 9")
    _play(game, state, "hearts 10", "spades Q", "clubs J", "diamonds 9")
    assert state.vars["clarified"] is None
    _play(game, state, "clubs Q", "hearts Q", "spades J", "diamonds K")
    assert state.vars["clarified"] == 3 and state.vars["partner"] is None
    assert state.teams == [0, 1, 1, 1]
    assert game.labels(state) == ["no announcement", "Re"]          # 9 cards, two tricks later: as 11


# 7.2.3: a fox counts when taken from the other party. In an announced marriage the partner is on the Re side
# from the deal on; the clarifying trick (4.4, 5.5) only shows it. A three-card round: East, the groom, is asked
# after North (West deals, North leads); the piles before it are worth 87 (East) and 85 (North) eyes, so Re
# (East and West) ends with 87 + 18 + 25 = 130 against Kontra's 85 + 25 = 110. No trick has 40 eyes, and the
# last is not won by a jack of clubs.
FOX_HANDS = {N: ["diamonds 9", "spades 10", "hearts 10"],
             E: ["clubs Q", "clubs Q", "spades 9"],
             S: ["diamonds K", "spades K", "diamonds J"],
             W: ["diamonds A", "spades A", "diamonds 10"]}


def _marriage_with_a_fox(hands: dict[int, list[str]], first_trick: list[str]):
    """The round played: East announces the marriage, his club queen wins the first trick (``first_trick``, North
    leading), West's ace of spades the second (West becomes the partner), North's Dulle the third."""
    game = _game()
    rest = _deck(game)
    rest.subtract(card for cards in hands.values() for card in cards)
    state = at_step(game, "reservation", hands, dealer=W, zones={"won": _piles(game, {E: 87, N: 85}, rest)})
    _play(game, state, "healthy", "reservation", "healthy", "healthy", "no solo")
    assert state.vars["kind"] == "marriage" and state.vars["groom"] == E
    _play(game, state, *first_trick)
    assert state.vars["clarified"] is None                           # the groom's own trick clarifies nothing
    _play(game, state, "spades 9", "spades K", "spades A", "spades 10")
    assert state.vars["partner"] == W and state.vars["clarified"] == 2
    _play(game, state, "diamonds 10", "hearts 10", "clubs Q", "diamonds J")
    return state.round_results[-1]


def test_in_a_marriage_the_groom_taking_his_future_partner_s_fox_before_the_clarifying_trick_scores_nothing():
    # West's fox, taken by East in the first trick, stays in the Re party: Re won 1, and nothing else
    assert _marriage_with_a_fox(FOX_HANDS, ["diamonds 9", "clubs Q", "diamonds K", "diamonds A"]) == [-1, 1, -1, 1]


def test_in_a_marriage_a_fox_the_groom_takes_from_kontra_before_the_clarifying_trick_counts():
    # South (Kontra) holds the fox instead: Re won 1, fox caught 1
    hands = dict(FOX_HANDS)
    hands[S] = ["diamonds A", "spades K", "diamonds J"]
    hands[W] = ["diamonds K", "spades A", "diamonds 10"]
    assert _marriage_with_a_fox(hands, ["diamonds 9", "clubs Q", "diamonds A", "diamonds K"]) == [-2, 2, -2, 2]


def test_a_compulsory_solo_goes_before_a_voluntary_one_and_its_soloist_leads():
    game = _game(compulsory_solos=True, deals=24)
    # East has played his compulsory solo in this series, South has not: South is asked first
    state = at_step(game, "reservation", MARRIAGE, dealer=W, seat_values={"soloed": {N: False, E: True, S: False,
                                                                                      W: False}})
    _play(game, state, "healthy", "reservation", "reservation", "healthy")
    assert game.current(state) == S
    _play(game, state, "jack solo")
    assert state.vars["soloist"] == S and state.vars["compulsory"] is True
    assert state.pending.actor == S and state.seat_vars["soloed"][S] is True
    assert state.game_vars["deals"] == 0                           # a compulsory solo is not one of the deals


def test_with_compulsory_solos_a_solo_after_one_s_own_is_voluntary():
    game = _game(compulsory_solos=True, deals=24)
    state = at_step(game, "reservation", MARRIAGE, dealer=W, seat_values={"soloed": {N: False, E: True, S: False,
                                                                                      W: False}},
                    game_values={"deals": 3})
    _play(game, state, "healthy", "reservation", "healthy", "healthy", "clubs solo")
    assert state.vars["soloist"] == E and state.vars["compulsory"] is False
    assert state.pending.actor == N and state.game_vars["deals"] == 4


def test_after_a_compulsory_solo_the_same_dealer_deals_again():
    game = _game(compulsory_solos=True, deals=24)
    for compulsory, next_dealer in ((True, W), (False, N)):
        state = game.new_state()
        state.counters["tricks"][:] = [12, 0, 0, 0]
        state = at_step(game, "score", {s: [] for s in range(4)}, state=state, dealer=W, kind="clubs",
                        soloist=N, compulsory=compulsory, redeal=compulsory, zones={"won": _piles(game, {N: 240})},
                        seat_values={"re": {N: True, E: False, S: False, W: False}, "said": NOBODY_SAID,
                                     "extras": {s: 0 for s in range(4)}})
        assert state.round_results[-1] == [15, -5, -5, -5]         # won 1, below 90, 60, 30, black: 5, x3
        assert state.round_number == 2 and state.dealer == next_dealer


def test_when_the_deals_left_are_as_many_as_the_compulsory_solos_owed_the_first_who_owes_must_play_one():
    game = _game(compulsory_solos=True, deals=24)
    owed = {"soloed": {N: True, E: True, S: False, W: False}}      # South and West owe theirs; 2 deals left
    state = at_step(game, "forcing", MARRIAGE, dealer=W, seat_values=owed, game_values={"deals": 22})
    assert state.vars["forced"] == S
    _play(game, state, "healthy", "healthy")
    assert game.labels(state) == ["reservation"]                    # South may not say healthy
    _play(game, state, "reservation", "healthy")
    assert game.current(state) == S and "no solo" not in game.labels(state)
    _play(game, state, "spades solo")
    assert state.vars["compulsory"] is True and state.vars["redeal"] is False
    assert state.game_vars["deals"] == 23                            # the forced solo is one of the deals
    assert state.pending.actor == S                                 # a compulsory solo: the soloist leads
    # with more deals left than solos owed nobody is forced
    state = at_step(game, "forcing", MARRIAGE, dealer=W, seat_values=owed, game_values={"deals": 21})
    assert state.vars["forced"] is None
