"""Climbing shapes beyond sets and runs (docs/rule-files.md, "combinations"): a tie-break between plays of one value
(``tie``), runs of an exact length (``longest``), flushes, sets of any number of groups, kinds that beat each other
read as the higher, plays found by shape within the work budget for a 13-card hand, and the shapes that cannot be
refused by validate with their place; on docs/examples/big-two.yaml and small sections of tests/test_combinations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter.dsl import budget
from interpreter.engine.game import Game

from .conftest import ROOT, game_of
from .test_combinations import COMBINATIONS, make, source
from .test_steps import line_of, refusal

SUITS = {"d": "diamonds", "c": "clubs", "h": "hearts", "s": "spades"}


@pytest.fixture(scope="module")
def game() -> Game:
    return game_of(str(ROOT / "docs" / "examples" / "big-two.yaml"), 4)


def ids(game: Game, short: str) -> list[int]:
    """Cards by short names, e.g. "7s 7h 10d"."""
    return [game.cards.labels.index(f"{c[:-1]} {SUITS[c[-1]]}") for c in short.split()]


def read(game: Game, short: str, top: Any = None) -> tuple[str, float, Any] | None:
    r = game.combinations.combination(ids(game, short), top)
    return None if r is None else (r["kind"], r["value"], r["tie"])


def top(game: Game, short: str) -> Any:
    return game.combinations.combination(ids(game, short))


def test_a_tie_breaks_equal_values_by_the_deciding_cards_suit(game: Game) -> None:
    assert read(game, "7s") == ("single", 7, 3) and read(game, "2d") == ("single", 15, 0)
    assert read(game, "7s", top(game, "7h")) == ("single", 7, 3)          # a 7 of spades beats a 7 of hearts
    assert read(game, "7h", top(game, "7s")) is None and read(game, "6s", top(game, "7d")) is None
    assert read(game, "9c 9s", top(game, "9d 9h")) == ("pair", 9, 3)      # the pair holding the spade
    assert read(game, "9d 9h", top(game, "9c 9s")) is None
    cb = game.combinations
    hand = ids(game, "7d 7c 7s 3h 9h")
    assert sorted(cb.next_picks([], hand, top(game, "7h"))) == sorted(ids(game, "7s 9h"))
    # a pair above 7h-7c: one with the spade; its first pick may be any 7 (the 7s is still to come)
    pair = top(game, "7h 7c")
    assert sorted(cb.next_picks([], hand, pair)) == sorted(ids(game, "7d 7c 7s"))
    assert cb.next_picks(ids(game, "7d"), hand, pair) == ids(game, "7s")
    assert cb.is_play(ids(game, "7d 7s"), hand, pair) and not cb.is_play(ids(game, "7d 7c"), hand, pair)


def test_runs_of_exactly_five_flushes_and_sets_of_five_cards_ranked_by_kind(game: Game) -> None:
    assert read(game, "3d 4c 5h 6s 7d") == ("straight", 7, 0)
    assert read(game, "3d 4c 5h 6s 7d 8d") is None                         # longest: 5 (run: 5 is five or more)
    assert read(game, "Jd Qc Kh As 2d") is None      # a 2 is in no straight
    assert read(game, "3h 9h Jh 5h Kh") == ("flush", 13, 2)                # any ranks: its top card decides
    assert read(game, "3h 9h Jh 5h Ks") is None
    assert read(game, "3s 4s 9s Qs Ks", top(game, "3h 9h Jh 5h Kh")) == ("flush", 13, 3)   # same top: the suit
    assert read(game, "4d 5d 6d 7d 8d", top(game, "3c 5c 6c 7c 8c")) == ("straight_flush", 8, 0)
    assert read(game, "9c 9d 9s 4d 4h") == ("full_house", 9, 3)            # decided by the three
    assert read(game, "5c 5d 5s 5h Ad") == ("four_of_a_kind", 5, 3)        # sets: [4, 1]
    # straight < flush < full house < four of a kind < straight flush, whatever the values
    plays = ["10d Jc Qh Ks Ac", "3h 9h Jh 5h Kh", "3c 3d 3s 4d 4h", "4c 4d 4s 4h 3d", "3s 4s 5s 6s 7s"]
    for lower, higher in zip(plays, plays[1:]):
        assert read(game, higher, top(game, lower)) is not None and read(game, lower, top(game, higher)) is None
    assert read(game, "10d Jc Qh Ks Ad", top(game, "10c Jd Qs Kh Ac")) is None   # the ace of diamonds is lower


def test_plays_of_a_13_card_hand_are_found_by_shape_within_the_budget(game: Game) -> None:
    """Every card of a suit (1,287 sets of five cards, each a flush) and a hand of pairs: a lead's picks count the
    shapes, under a hundred, not the sets of cards."""
    cb = game.combinations
    hands = [ids(game, " ".join(f"{r}s" for r in "3 4 5 6 7 8 9 10 J Q K A 2".split())),
             ids(game, "3d 3s 4c 4h 5d 5s 6c 6h 7d 7s 8c 8h 9d")]
    for hand in hands:
        budget.reset()
        assert sorted(cb.next_picks([], hand, None)) == sorted(hand)
        work = budget.WORK_LIMIT - budget.left[0]
        shapes = cb.shapes(hand, None)
        assert 0 < work < 200 and len(shapes) < 100, (work, len(shapes))  # (90 and 38 when written)
    flushes = [s for s in cb.shapes(hands[0], None) if cb.kinds[s.kind].name == "flush"]
    assert len(flushes) == 9                                                # one a top card from the 7 up
    picked = ids(game, "3s 4s 5s 6s")                                       # a straight flush or a flush next
    assert sorted(cb.next_picks(picked, hands[0], None)) == sorted(set(hands[0]) - set(picked))
    assert cb.is_play(ids(game, "3s 4s 5s 6s Ks"), hands[0], None)


SETS = COMBINATIONS.replace("house:    {sets: [3, 2]}", "house:    {sets: [3, 2]}\n    three:    {sets: [2, 2, 2]}")


def test_sets_of_any_number_of_groups_each_found_once(tmp_path: Path) -> None:
    ladder = make(tmp_path, source(SETS))
    cb = ladder.combinations
    labels = ladder.cards.labels
    hand = [labels.index(x) for x in ("a 4", "b 4", "a 6", "b 6", "c 9", "d 9", "a 10")]
    r = cb.combination(hand[:6])
    assert (r["kind"], r["length"], r["value"], r["ranks"]) == ("three", 6, 9, [4, 4, 6, 6, 9, 9])
    threes = [s for s in cb.shapes(hand, None) if cb.kinds[s.kind].name == "three" and not s.needs().get("*")]
    assert len(threes) == 3                                                 # 9, 6 or 4 first; the others once


@pytest.mark.parametrize("old, new, where, said", [
    ("straight: {run: 3}", "straight: {run: 3, longest: 2}", "straight:", "longest 2 is fewer than run 3"),
    ("pair:     {same: 2}", "pair:     {same: 2, longest: 3}", "pair:", "longest is the most ranks of a run"),
    ("straight: {run: 3}", "straight: {run: 3, flush: 5, wild: false}", "straight:", "not run and flush"),
    ("pair:     {same: 2}", "pair:     {same: 2, flush: 5, wild: false}", "pair:", "a flush is of any ranks"),
    ("pair:     {same: 2}", "pair:     {flush: 9, wild: false}", "pair:", "at most 8 of one suit"),
    ("pair:     {same: 2}", "pair:     {flush: 5}", "pair:", "a flush takes no wild card"),
    ("house:    {sets: [3, 2]}", "house:    {sets: [1, 1, 1, 1, 1, 1, 1, 1, 1]}", "house:",
     "9 sets of different ranks, but its cards have 8 ranks"),
    ("  rank: card.rank\n", "  rank: card.rank\n  tie: card.rank\n", "tie:", "a wild card has no tie"),
])
def test_a_shape_that_cannot_be_is_refused_at_its_place(tmp_path: Path, old: str, new: str, where: str,
                                                        said: str) -> None:
    assert old in COMBINATIONS
    text = source(COMBINATIONS.replace(old, new))
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, where) and said in message, message
