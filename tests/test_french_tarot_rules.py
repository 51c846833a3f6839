"""French Tarot (games/french-tarot.yaml) by the FFT's Règlement officiel: the cards and their points, the
auction, the chien and the écart, the obligations of play, the Excuse and the half-point card it owes, and the
marque worked through (the contract's 25 and the difference, the multiplier, the petit au bout, the poignées, the
slam; the taker scores three times what each defender pays). The seats sit in the order of play: North, West,
South, East; East deals, so North speaks and leads first."""

from __future__ import annotations

import random

import pytest

from .compiled_steps import StepOnBoth
from .conftest import at_step, game_of

N, W, S, E = range(4)


def _game():
    return game_of("french-tarot", 4)


def _play(game, state, *labels):
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def _labels(game, cards) -> list[str]:
    return sorted(game.cards.labels[c] for c in cards)


def _half(game, label: str) -> int:
    return game.cards.attributes["half"][game.cards.labels.index(label)]


def _pile(game, halves: int, bouts: list[str], taken: tuple[str, ...] = ()) -> list[str]:
    """Cards worth ``halves`` half points with exactly these bouts (kings, queens... then low cards), none of
    ``taken``."""
    pile, need = list(bouts), halves - sum(_half(game, b) for b in bouts)
    others = sorted((game.cards.labels[c] for c in game.deck if game.cards.labels[c] not in
                     ("atout 21", "atout 1", "Excuse", *taken)), key=lambda lab: -_half(game, lab))
    for label in others:
        if 0 < _half(game, label) <= need:
            pile.append(label)
            need -= _half(game, label)
    assert need == 0, need
    return pile


def _marque(contract: int, taker_points: float, bouts: list[str], petit_au_bout: int = 0,
            poignees: dict[int, int] | None = None, tricks: int = 10, ecart_points: float = 0,
            slam: int | None = None) -> list[int]:
    """The deal's scores when North took ``contract`` and his cards (tricks and, but in garde contre, the écart)
    are worth ``taker_points``, with these bouts."""
    game = _game()
    state = game.new_state()
    state.counters["tricks"][N] = tricks
    won = _pile(game, int(2 * (taker_points - ecart_points)), bouts)
    ecart = _pile(game, int(2 * ecart_points), [], tuple(won))
    poignees = poignees or {}
    state = at_step(game, "score", {s: [] for s in range(4)}, state=state, zones={"won": {N: won}, "ecart": ecart},
                    dealer=E, taker=N, contract=contract, petit_au_bout=petit_au_bout, slam=slam,
                    teams=[0, 1, 1, 1],
                    seat_values={"poignee_size": {s: poignees.get(s) for s in range(4)}})
    return state.round_results[-1]


# ---------------------------------------------------------------- Les cartes


def test_78_cards_worth_91_points_with_three_bouts() -> None:
    game = _game()
    labels = [game.cards.labels[c] for c in game.deck]
    assert len(labels) == 78 == len(set(labels))
    assert sum(_half(game, lab) for lab in labels) == 182            # 91 points, counted in halves
    assert {lab for lab in labels if _half(game, lab) == 9} == {
        "atout 21", "atout 1", "Excuse", "pique R", "coeur R", "carreau R", "trefle R"}


# ---------------------------------------------------------------- La marque, worked through


@pytest.mark.parametrize("contract, points, bouts, extra, taker", [
    # garde, 2 bouts, 49 points: 8 over 41; (25 + 8) x 2 = 66 from each defender, 198 to the taker
    (2, 49, ["atout 21", "Excuse"], {}, 198),
    # prise, 1 bout, 47 points: 4 short of 51; 25 + 4 = 29 to each defender; the Petit lost at the last trick
    # costs 10 more: 39 each, the taker -117
    (1, 47, ["atout 1"], {"petit_au_bout": -1}, -117),
    # garde sans, 3 bouts, 36 points: made exactly; 25 x 4 = 100, and a defender's simple poignée goes to the
    # side that wins, the taker: 120 from each
    (3, 36, ["atout 21", "atout 1", "Excuse"], {"poignees": {S: 10}}, 360),
    # garde contre, no bout, 50 points (the chien counts for the defence): 6 short of 56; (25 + 6) x 6 = 186,
    # and the taker's double poignée goes to the defence: 216 to each
    (4, 50, [], {"poignees": {N: 13}}, -648),
    # prise, 2 bouts, 43.5 points: 2.5 over 41, counted 3; with the petit au bout to the taker: 25 + 3 + 10
    (1, 43.5, ["atout 1", "atout 21"], {"petit_au_bout": 1}, 114),
    # every trick to the taker: the slam made without announcing it adds 200; garde, 3 bouts, 91 points:
    # (25 + 55) x 2 + 200 = 360
    (2, 91, ["atout 21", "atout 1", "Excuse"], {"tricks": 18}, 1080),
    # the slam announced and made: 400 instead: 560 from each
    (2, 91, ["atout 21", "atout 1", "Excuse"], {"tricks": 18, "slam": N}, 1680),
    # announced and failed (17 tricks), garde, 2 bouts, 80 points: (25 + 39) x 2 - 200 = -72
    (2, 80, ["atout 21", "Excuse"], {"tricks": 17, "slam": N}, -216),
])
def test_the_marque(contract, points, bouts, extra, taker) -> None:
    scores = _marque(contract, points, bouts, **extra)
    assert scores == [taker, -taker // 3, -taker // 3, -taker // 3]


def test_the_ecart_counts_for_the_taker_but_in_garde_contre_the_chien_is_the_defence_s() -> None:
    # 45 points in tricks and 6 in the écart, 1 bout: 51 made exactly, 25 x 2; in garde contre 45 of 51
    assert _marque(2, 51, ["atout 21"], ecart_points=6)[N] == 150
    assert _marque(4, 51, ["atout 21"], ecart_points=6)[N] == -3 * (25 + 6) * 6


# ---------------------------------------------------------------- Les enchères, le chien et l'écart


def _hands(game, west: list[str], chien: list[str]) -> tuple[dict[int, list[str]], list[str]]:
    rest = [game.cards.labels[c] for c in game.deck if game.cards.labels[c] not in west + chien]
    return {W: west, N: rest[:18], S: rest[18:36], E: rest[36:54]}, chien


def test_each_bids_once_above_the_last_the_chien_is_shown_and_the_ecart_keeps_kings_and_bouts() -> None:
    game = _game()
    west = ["pique R", "coeur R", "carreau R", "trefle R", "atout 21", "atout 1", "Excuse"] + [
        f"atout {n}" for n in range(2, 13)]
    hands, chien = _hands(game, west, ["atout 13", "atout 14", "pique 2", "pique 3", "coeur 2", "coeur 3"])
    state = at_step(game, "bid", hands, zones={"chien": chien}, dealer=E)
    state.notes = []
    _play(game, state, "prise")                                  # North
    assert game.labels(state) == ["passe", "garde", "garde sans", "garde contre"]   # West: only higher
    _play(game, state, "garde", "passe", "passe")
    assert (state.vars["taker"], state.vars["contract"]) == (W, 2)
    assert "atout 13, atout 14, pique 2, pique 3, coeur 2, coeur 3 to shown" in "\n".join(state.notes)
    assert len(state.per_seat["hand"][W]) == 24 and game.current(state) == W
    # no king, no bout; a trump only when nothing else can go
    assert sorted(game.labels(state)) == ["coeur 2", "coeur 3", "pique 2", "pique 3"]
    _play(game, state, "coeur 2", "coeur 3", "pique 2", "pique 3")
    assert sorted(game.labels(state)) == sorted(f"atout {n}" for n in range(2, 15))
    _play(game, state, "atout 2", "atout 3")
    assert _labels(game, state.vars["trumps_laid_aside"]) == ["atout 2", "atout 3"]   # shown to all
    assert game.current(state) == W and game.labels(state) == ["no chelem", "chelem"]
    _play(game, state, "chelem")                                  # a slam announced: the taker leads
    while state.pending.kind != "play":
        _play(game, state, "no poignée")
    assert game.current(state) == W


@pytest.mark.parametrize("petit_sec", [False, True])
def test_all_pass_or_a_petit_sec_the_deal_is_thrown_in_and_not_counted(petit_sec) -> None:
    game = _game()
    labels = [game.cards.labels[c] for c in game.deck]
    trumps = [lab for lab in labels if lab.startswith("atout") and lab != "atout 1"] + ["Excuse"]
    plain = [lab for lab in labels if lab not in trumps and lab != "atout 1"]
    north = ["atout 1"] + plain[:17] if petit_sec else ["atout 1", "atout 2"] + plain[:16]
    rest = [lab for lab in labels if lab not in north]
    state = at_step(game, "sec", {N: north, W: rest[:18], S: rest[18:36], E: rest[36:54]}, dealer=E)
    if not petit_sec:
        _play(game, state, "passe", "passe", "passe", "passe")
    assert state.round_results[-1] == [0, 0, 0, 0] and state.game_vars["deals_played"] == 0
    assert state.round_number == 2


# ---------------------------------------------------------------- Le jeu de la carte


def test_follow_else_trump_and_overtrump_the_excuse_at_any_time() -> None:
    game = _game()
    hands = {N: ["coeur 5", "pique 4", "pique 6"], W: ["atout 3", "atout 8", "Excuse"],
             S: ["atout 5", "atout 12", "pique 9"], E: ["coeur 2", "atout 21", "pique 5"]}
    state = at_step(game, "tricks", hands, dealer=E, taker=N, contract=1, petit_au_bout=0, teams=[0, 1, 1, 1])
    _play(game, state, "coeur 5")
    assert sorted(game.labels(state)) == ["Excuse", "atout 3", "atout 8"]      # no heart: trump
    _play(game, state, "atout 8")
    assert game.labels(state) == ["atout 12"]                                  # a higher trump
    _play(game, state, "atout 12")
    assert game.labels(state) == ["coeur 2"]                                   # follow suit
    _play(game, state, "coeur 2")
    assert state.progress.winner == S


def test_the_excuse_goes_back_to_its_player_who_gives_a_half_point_card_once_his_side_has_one() -> None:
    game = _game()
    hands = {N: ["Excuse", "pique 4", "pique R"], W: ["coeur 7", "pique 2", "coeur 9"],
             S: ["coeur R", "pique 3", "coeur 8"], E: ["coeur 3", "pique 5", "coeur 10"]}
    state = at_step(game, "tricks", hands, dealer=E, taker=N, contract=2, petit_au_bout=0, teams=[0, 1, 1, 1])
    won = state.per_seat["won"]
    state.notes = []
    _play(game, state, "Excuse", "coeur 7", "coeur R", "coeur 3")              # the Excuse led: hearts led
    assert _labels(game, won[N]) == ["Excuse"] and _labels(game, won[S]) == ["coeur 3", "coeur 7", "coeur R"]
    assert (state.vars["debtor"], state.vars["creditor"]) == (N, S)            # nothing to give yet
    _play(game, state, "pique 3", "pique 5", "pique R", "pique 2")             # the taker wins a trick
    assert "pique 3 to South's won" in state.notes
    assert state.vars["debtor"] is None and len(won[N]) == 4 and len(won[S]) == 4


@pytest.mark.parametrize("tricks, winner", [(17, N), (5, E)])
def test_the_excuse_at_the_last_trick_wins_only_a_slam_and_is_lost_otherwise(tricks, winner) -> None:
    game = _game()
    hands = {N: ["Excuse"], W: ["coeur 7"], S: ["coeur 8"], E: ["coeur 9"]}
    state = game.new_state()
    state.counters["tricks"][N] = tricks
    state = at_step(game, "tricks", hands, state=state, dealer=E, taker=N, contract=1, petit_au_bout=0,
                    teams=[0, 1, 1, 1])
    _play(game, state, "Excuse", "coeur 7", "coeur 8", "coeur 9")
    assert "Excuse" in _labels(game, state.per_seat["won"][winner])


def test_the_petit_in_the_last_trick_scores_for_the_side_that_wins_it() -> None:
    game = _game()
    hands = {N: ["atout 1"], W: ["atout 4"], S: ["coeur 8"], E: ["coeur 9"]}
    state = at_step(game, "tricks", hands, dealer=E, taker=N, contract=1, petit_au_bout=0, teams=[0, 1, 1, 1])
    state.notes = []
    _play(game, state, "atout 1", "atout 4", "coeur 8", "coeur 9")
    assert state.round_results[-1][N] < 0 and "petit au bout" in "\n".join(state.notes)


def test_a_poignee_is_offered_by_the_trumps_held_and_shown_the_excuse_only_when_no_other_trump_is_left() -> None:
    game = _game()
    north = [f"atout {n}" for n in range(2, 14)] + ["Excuse"] + ["pique 2", "pique 3", "pique 4", "pique 5", "pique 6"]
    rest = [game.cards.labels[c] for c in game.deck if game.cards.labels[c] not in north]
    hands = {N: north, W: rest[:18], S: rest[18:36], E: rest[36:54]}
    state = at_step(game, "poignee", hands, dealer=E, taker=N, contract=2, teams=[0, 1, 1, 1])
    assert game.current(state) == N
    assert game.labels(state) == ["no poignée", "simple poignée", "double poignée"]
    _play(game, state, "double poignée")
    while game.current(state) != N:                                            # the others have none
        _play(game, state, "no poignée")
    # 13 to show of 12 trumps and the Excuse: the trumps first, then the Excuse
    for n in range(2, 14):
        assert "Excuse" not in game.labels(state)
        _play(game, state, f"atout {n}")
    assert game.labels(state) == ["Excuse"]
    _play(game, state, "Excuse")
    assert len(state.per_seat["poignee"][N]) == 13 and len(state.per_seat["hand"][N]) == 5
    assert "atout 2 from poignee" in game.labels(state)                        # played from there


def test_the_tricks_with_a_poignee_shown_agree_on_both_backends() -> None:
    """A deal played to its end from a hand and a poignée shown (played from two zones), with the Excuse among the
    trumps not shown, on the Python backend and the compiled machine (random games rarely deal a poignée)."""
    both = StepOnBoth("french-tarot", 4, "tricks")
    game = both.game
    north = [f"atout {n}" for n in range(2, 14)] + ["Excuse", "pique 2", "pique 3", "pique 4", "pique 5", "pique 6"]
    rest = [game.cards.labels[c] for c in game.deck if game.cards.labels[c] not in north]
    state = at_step(game, "tricks", {N: north[10:], W: rest[:18], S: rest[18:36], E: rest[36:54]},
                    zones={"poignee": {N: north[:10]}}, dealer=E, taker=N, contract=2, petit_au_bout=0,
                    teams=[0, 1, 1, 1], seat_values={"poignee_size": {N: 10, W: None, S: None, E: None}})
    assert both.lockstep(state, random.Random(1)) == 72
