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


def _score(game, re: set[int], eyes: dict[int, int], tricks: dict[int, int], said=None, extras=None):
    """The round's scores when the trick piles are worth ``eyes`` and each seat took ``tricks`` tricks."""
    state = game.new_state()
    for s, n in tricks.items():
        state.counters["tricks"][s] = n
    state = at_step(game, "score", {s: [] for s in range(4)}, state=state, zones={"won": _piles(game, eyes)},
                    teams=[0 if s in re else 1 for s in range(4)],
                    seat_values={"re": {s: s in re for s in range(4)}, "said": said or NOBODY_SAID,
                                 "extras": extras or {s: 0 for s in range(4)}})
    return state.round_results[-1]


# ---------------------------------------------------------------- 2.3 the order of the cards

TRUMPS = ["hearts 10", "clubs Q", "spades Q", "hearts Q", "diamonds Q", "clubs J", "spades J", "hearts J",
          "diamonds J", "diamonds A", "diamonds 10", "diamonds K", "diamonds 9"]


def _trick(game, cards: list[str]) -> str:
    """Who wins a last trick of these four cards, North leading (each seat holds its one card)."""
    state = at_step(game, "parties", {s: [c] for s, c in enumerate(cards)}, dealer=W)
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
    # Re won 1; Re caught a fox 1, Kontra made a Doppelkopf 1
    extras = {N: 1, E: 1, S: 0, W: 0}
    assert _score(_game(), {N, S}, {N: 130, E: 110}, {N: 6, E: 6}, extras=extras) == [1, -1, 1, -1]


def test_the_silent_marriage_is_a_solo_three_times_for_the_soloist_without_special_points():
    extras = {N: 0, E: 1, S: 0, W: 1}
    assert _score(_game(), {N}, {N: 130, E: 110}, {N: 6, E: 6}, extras=extras) == [3, -1, -1, -1]
    assert _score(_game(), {N}, {N: 100, E: 140}, {N: 6, E: 6}, said={N: 1, E: 0, S: 0, W: 0}) == [-9, 3, 3, 3]


# ---------------------------------------------------------------- 7.2.3 special points from play

def _last_trick(game, cards, re, eyes):
    """The scores of a round whose last trick is ``cards`` (North leads), the piles before it worth ``eyes``."""
    rest = _deck(game)
    rest.subtract(cards)
    state = at_step(game, "parties", {s: [c] for s, c in enumerate(cards)}, dealer=W,
                    zones={"won": _piles(game, eyes, rest)})
    # no club queen in these hands: the parties are set by hand, as the deal would have made them
    state.seat_vars["re"] = [s in re for s in range(4)]
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

def _offered(game, hands: int, re: set[int], said: dict[int, int]) -> list[str]:
    """What North may announce before a card, holding ``hands`` cards, after what each seat ``said``."""
    deck = sorted(_deck(game).elements())
    state = at_step(game, "announce", {s: deck[s * 12:s * 12 + hands] for s in range(4)}, dealer=W,
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
    state = at_step(game, "parties", HANDS, dealer=W)
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
    state = at_step(game, "parties", HANDS, dealer=W)
    _play(game, state, "no announcement", "clubs Q", "no announcement", "diamonds 9", "no announcement", "clubs Q")
    for seat in range(4):
        assert observe(game, state, seat)["teams"] == [["North", "South"], ["East", "West"]]
