"""The Mü variant of docs/rule-files.md ("Write your own variant"), docs/examples/mue-300.yaml: it changes
only what it says it changes. The game ends at 300 instead of 200, and in an Eklat the highest bidder
who revealed last scores 0 instead of -10 per card, while the others tied with him still get +5 per card.

Seats as in tests/test_mue_rules.py: Anna, Beate, Conny, Dagmar, Emma; Anna deals.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest

from interpreter.engine.compile import compile_game, supported_players
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import at_step

ROOT = Path(__file__).resolve().parents[1]
VARIANT = ROOT / "docs" / "examples" / "mue-300.yaml"
ANNA, BEATE, CONNY, DAGMAR, EMMA = range(5)


@functools.cache
def game_of(name: str, players: int) -> Game:
    """The compiled variant (``mue-300``) or base game (``mue``), compiled once per test run."""
    return compile_game(load_rules(VARIANT if name == "mue-300" else name), players)


def play(game: Game, state: State, *labels: str) -> None:
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def hands(game: Game, size: int) -> dict[int, list[str]]:
    """Hands of ``size`` cards for every seat, dealt in deck order."""
    labels = [game.cards.labels[c] for c in game.deck]
    return {seat: labels[seat * size:(seat + 1) * size] for seat in range(game.players)}


def first_card(game: Game, state: State, seat: int) -> str:
    return game.cards.labels[state.per_seat["hand"][seat][0]]


def test_the_variant_is_its_own_game_and_keeps_the_rest_of_mue() -> None:
    variant, base = game_of("mue-300", 5), game_of("mue", 5)
    assert variant.name == "mue-300" and base.name == "mue"
    assert variant.options == {"target": 300, "hands": 0}
    assert base.options == {"target": 200, "hands": 0}
    assert Counter(variant.cards.labels[c] for c in variant.deck) == Counter(base.cards.labels[c] for c in base.deck)
    assert [s.name for s in variant.steps] == [s.name for s in base.steps]
    assert supported_players(load_rules(VARIANT)) == [3, 4, 5, 6]


# ======================================================================= (a) the target is 300


def after_a_hand_without_points(name: str, totals: list[int]) -> State:
    """4 players: the totals given, then a hand in which everyone passes (an Eklat without points)."""
    game = game_of(name, 4)
    state = at_step(game, "auction", hands(game, 15), dealer=ANNA)
    state.totals = list(totals)
    play(game, state, *["pass"] * 4)
    assert state.round_results == [[0] * 4] and state.totals == list(totals)   # nobody scored
    return state


@pytest.mark.parametrize(("totals", "finished"), [
    ([290, 10, 0, 0], False), ([300, 10, 0, 0], False), ([0, 0, -20, 300], False),
    ([301, 10, 0, 0], True), ([0, 0, 0, 301], True), ([-50, 420, 0, 0], True)])
def test_the_variant_ends_when_a_total_exceeds_300(totals: list[int], finished: bool) -> None:
    assert after_a_hand_without_points("mue-300", totals).finished is finished


def test_the_base_game_would_have_ended_at_those_totals() -> None:
    assert after_a_hand_without_points("mue", [290, 10, 0, 0]).finished
    assert not after_a_hand_without_points("mue", [200, 10, 0, 0]).finished


# ======================================================================= (b) the Eklat


def eklat_anna_and_beate_at_1(name: str) -> State:
    """5 players, Anna deals and bids first. Anna reveals 1 card (all she may open with), Beate reveals 1
    and stops although she may reveal a second, then all five pass: Anna and Beate are tied at 1, and
    Beate revealed last."""
    game = game_of(name, 5)
    state = at_step(game, "auction", hands(game, 12), dealer=ANNA)
    assert state.pending.actor == ANNA
    play(game, state, first_card(game, state, ANNA))
    assert state.pending.actor == BEATE                            # Anna's turn ended by itself
    play(game, state, first_card(game, state, BEATE))
    assert state.pending.actor == BEATE and "done" in game.labels(state)
    play(game, state, "done")
    for seat in (CONNY, DAGMAR, EMMA, ANNA, BEATE):
        assert state.pending.step.name == "auction" and state.pending.actor == seat
        play(game, state, "pass")
    # no chief: the hand ends at once, no trump is named and no trick is played
    assert [len(r) for r in state.per_seat["revealed"]] == [1, 1, 0, 0, 0]
    assert state.round_number == 2 and state.pending.kind == "chance"
    return state


def test_in_the_variant_the_last_highest_bidder_of_an_eklat_scores_0() -> None:
    state = eklat_anna_and_beate_at_1("mue-300")
    assert state.round_results == [[5, 0, 0, 0, 0]]
    assert state.totals == [5, 0, 0, 0, 0]


def test_in_the_base_game_the_same_eklat_costs_her_10() -> None:
    state = eklat_anna_and_beate_at_1("mue")
    assert state.round_results == [[5, -10, 0, 0, 0]]


def test_an_eklat_of_three_at_2_gives_the_other_two_10_each_and_the_last_0() -> None:
    game = game_of("mue-300", 5)
    state = at_step(game, "auction", hands(game, 12), dealer=ANNA)
    play(game, state, first_card(game, state, ANNA))                                 # Anna 1
    play(game, state, "pass")                                                        # Beate
    conny = state.per_seat["hand"][CONNY][:2]
    play(game, state, *[game.cards.labels[c] for c in conny])                       # Conny 2: her turn ends
    play(game, state, "pass", "pass")                                                # Dagmar, Emma
    play(game, state, first_card(game, state, ANNA), "done")                         # Anna 2
    beate = state.per_seat["hand"][BEATE][:2]
    play(game, state, *[game.cards.labels[c] for c in beate], "done")               # Beate 2, the last
    play(game, state, *["pass"] * 5)
    assert state.round_results == [[10, 0, 10, 0, 0]]


# ======================================================================= (c) whole games


def test_random_games_end_as_soon_as_a_total_exceeds_300_and_an_eklat_costs_nobody_anything() -> None:
    game = game_of("mue-300", 5)
    eklats_with_points = 0
    for seed in range(4):
        with_tricks: set[int] = set()

        def watch(state: State, with_tricks: set[int] = with_tricks) -> None:
            if state.pending is not None and state.pending.step.name == "tricks":
                with_tricks.add(state.round_number)

        out = play_game(game, seed=seed, after_each=watch)
        assert max(out.totals) > 300, out.totals
        before_last = [t - s for t, s in zip(out.totals, out.round_results[-1])]
        assert max(before_last) <= 300, (before_last, out.totals)     # it did not go on once past 300
        assert out.rounds == len(out.round_results)
        assert out.winners == [s for s in range(5) if out.totals[s] == max(out.totals)]
        for number, scores in enumerate(out.round_results, 1):
            if number not in with_tricks:                            # an Eklat (or everyone passed)
                assert min(scores) == 0 and all(s % 5 == 0 for s in scores), (number, scores)
                eklats_with_points += any(scores)
    assert eklats_with_points > 0                                    # the games did test the Eklat


def test_rule_files_md_shows_the_variant_whole_and_cites_no_path_outside_the_repository() -> None:
    doc = (ROOT / "docs" / "rule-files.md").read_text(encoding="utf-8")
    text = VARIANT.read_text(encoding="utf-8")
    assert f"```yaml\n{text}```" in doc
    assert "trickbook validate docs/examples/mue-300.yaml" in doc
    assert '"Mü & mehr", Doris & Frank' in text and "/" not in text.split("trickbook: 1")[0]
