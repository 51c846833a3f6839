"""The shapes of a hand's plays (interpreter/engine/combination_shapes.py) and the shapes, picks and work of
``Combinations`` (combinations.py) against a plain reference: the enumeration as first written (every kind's
shapes, each need built as a dict, every way to use the wild cards tried) and its filter of every shape by what
beats the play on the table. The fast paths (only the kinds that can beat a play made, runs found in one way,
picks kept) must give the same shapes in the same order, the same picks and charge the same work."""

from __future__ import annotations

import random
from typing import Any

import pytest

from interpreter.dsl import budget
from interpreter.engine.combination_shapes import WILD, Kind, Shape, ShapeMaker
from interpreter.engine.game import Game

from .test_combinations import make, source

# two wild cards (x 1 and y 1), runs of pairs and of triples, two pairs, suited runs: every path of the maker
WIDE = """\
combinations:
  rank: card.rank
  cards: "card.suit != 'x' and card.suit != 'y'"
  wild:
    cards: "card.rank == 1"
    ranks: "range(3, 11)"
    alone: above
  kinds:
    single:   {same: 1}
    pair:     {same: 2}
    triple:   {same: 3}
    stairs:   {same: 2, run: 2}
    plane:    {same: 3, run: 2}
    straight: {run: 3}
    house:    {sets: [3, 2]}
    twopair:  {sets: [2, 2]}
    crown:    {cards: "card.rank == 20", beats: [single]}
    fool:     {cards: "card.rank == 0", lead_only: true}
    bomb:     {same: 4, bomb: true, wild: false}
    flush:    {run: 4, suited: true, bomb: true, wild: false}
    wildrun:  {run: 3, suited: true}
"""


def reference_every(maker: ShapeMaker, hand: tuple[int, ...], only: tuple[str, ...] | None) -> list[Shape]:
    """Every shape, as the maker first found them: each kind's, each run tried from each rank, every way to
    spread the wild cards, each need a dict with its zeros dropped at the end."""
    found: list[Shape] = []
    wilds = sum(1 for c in hand if c in maker.wild)
    plain = [c for c in hand if c not in maker.wild]
    for i, kind in enumerate(maker.kinds):
        if only is not None and kind.name not in only:
            continue
        counts: dict[Any, int] = {}
        for c in plain:
            if c in kind.cards:
                counts[maker.key(kind, c)] = counts.get(maker.key(kind, c), 0) + 1
        if counts:
            found.extend(_reference_kind(maker, i, kind, counts, wilds if kind.wild else 0))
    return found


def _reference_kind(maker: ShapeMaker, i: int, kind: Kind, counts: dict[Any, int], wilds: int) -> list[Shape]:
    out: list[Shape] = []

    def add(length: int, value: float, need: dict[Any, int]) -> None:
        out.append(Shape(i, length, value, tuple((k, n) for k, n in need.items() if n), kind.bomb))

    def in_set(held: int, size: int, rank: Any, wilds: int) -> list[int]:
        most = min(wilds, size - 1) if rank in maker.wild_ranks else 0
        return [w for w in range(0, most + 1) if held >= size - w]

    if kind.run:
        suits: dict[Any, dict[Any, int]] = {}
        for key, n in counts.items():
            rank, suit = key if kind.suited else (key, None)
            suits.setdefault(suit, {})[rank] = n
        for suit, ranks in suits.items():
            numbers = sorted(ranks)
            fill = sorted(maker.wild_ranks) if wilds else []
            k = kind.same
            for start in range(int(min(numbers + fill)), int(max(numbers + fill)) + 1):
                have: list[int] = []
                short = 0
                for end in range(start, int(max(numbers + fill)) + 1):
                    h = min(ranks.get(end, 0), k)
                    if h < k and end not in maker.wild_ranks:
                        break
                    short += k - h
                    if short > wilds:
                        break
                    have.append(h)
                    if end - start + 1 < kind.run or not any(have):
                        continue
                    span = list(range(start, end + 1))
                    for used in _reference_spread(span, have, wilds, maker.wild_ranks, k):
                        need = {((r, suit) if kind.suited else r): k - u for r, u in zip(span, used) if k - u}
                        need[WILD] = sum(used)
                        add(len(span) * k, end, need)
    elif kind.sets:
        keys = list(counts)

        def place(at: int, chosen: list[Any], left: int, need: dict[Any, int]) -> None:
            if at == len(kind.sets):
                add(sum(kind.sets), chosen[0][0] if kind.suited else chosen[0], {**need, WILD: wilds - left})
                return
            for key in keys:
                if key not in chosen:
                    for w in in_set(counts[key], kind.sets[at], key[0] if kind.suited else key, left):
                        place(at + 1, chosen + [key], left - w, {**need, key: kind.sets[at] - w})

        place(0, [], wilds, {})
    else:
        for key, n in counts.items():
            rank = key[0] if kind.suited else key
            for w in in_set(n, kind.same, rank, wilds):
                add(kind.same, rank, {key: kind.same - w, WILD: w})
    return out


def _reference_spread(span: list[Any], have: list[int], wilds: int, wild_ranks: frozenset[Any], k: int,
                      ) -> list[list[int]]:
    out: list[list[int]] = []

    def go(i: int, left: int, used: list[int]) -> None:
        if i == len(span):
            if any(k - u > 0 for u in used):
                out.append(used)
            return
        short = k - have[i]
        top = short + (min(left - short, have[i]) if span[i] in wild_ranks else 0)
        for u in range(short, top + 1):
            go(i + 1, left - u, used + [u])

    go(0, wilds, [])
    return out


def reference_beats(c: Any, s: Shape, top: tuple[int, int, float, bool, Any] | None) -> bool:
    if top is None:
        return True
    tkind, tlength, tvalue, tbomb, _ = top  # (no tie here)
    if s.bomb:
        return not tbomb or (s.length, s.value) > (tlength, tvalue)
    if tbomb:
        return False
    return c.kinds[tkind].name in c.kinds[s.kind].beats or (s.kind == tkind and s.length == tlength
                                                            and s.value > tvalue)


def reference_shapes(c: Any, hand: list[int], top: Any, kinds: Any = None) -> list[Shape]:
    t = c.top_of(top)
    only = None if not kinds else tuple(kinds)
    every = reference_every(c.maker, tuple(sorted(hand)), only)
    found = every if t is None else [s for s in every if not c.kinds[s.kind].lead_only and reference_beats(c, s, t)]
    i = c.alone_kind
    if i is not None and (only is None or c.kinds[i].name in only) and any(x in c.wild for x in hand):
        value = (c.lowest if t is None else t[2]) + 0.5
        alone = Shape(i, 1, value, ((WILD, 1),), False)
        if reference_beats(c, alone, t):
            found = found + [alone]
    return found


def reference_picks(c: Any, picked: list[int], hand: list[int], top: Any) -> list[int]:
    """The cards some shape that holds the picks still needs (no obligation), in the hand's order."""
    open_keys: set[tuple[int, Any]] = set()
    for s in reference_shapes(c, hand, top):
        need = dict(s.need)
        kind = c.kinds[s.kind]
        for x in picked:
            key = WILD if x in c.wild else (c.maker.key(kind, x) if x in kind.cards else None)
            if need.get(key, 0) <= 0:
                break
            need[key] -= 1
        else:
            open_keys.update((s.kind, k) for k, n in need.items() if n > 0)
    return [x for x in hand if x not in picked and any(
        (i, WILD) in open_keys if x in c.wild else x in c.kinds[i].cards and (i, c.maker.key(c.kinds[i], x))
        in open_keys for i in range(len(c.kinds)))]


@pytest.fixture(scope="module", params=["ladder", "wide"])
def game(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Game:
    text = source(climb="out_of_turn: [bomb, flush]\n") if request.param == "ladder" else source(
        WIDE, climb="out_of_turn: [bomb, flush]\n").replace("{suit: [x], rank: [1, 20, 0]}",
                                                             "{suit: [x, y], rank: [1, 20, 0]}")
    return make(tmp_path_factory.mktemp(request.param), text)


def hands(game: Game, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    n = len(game.cards.labels)
    wild = sorted(game.combinations.wild)
    out = []
    for _ in range(count):
        size = rng.choice([3, 6, 9, 12, 16])
        hand = rng.sample(range(n), size)
        if rng.random() < 0.5:  # wild cards in half the hands (both of them, when two)
            hand = list(dict.fromkeys(hand + wild))
        out.append(hand)
    return out


def test_the_shapes_of_a_hand_are_those_of_the_reference_in_its_order(game: Game) -> None:
    c = game.combinations
    made = 0
    for hand in hands(game, 150, 1):
        held = tuple(sorted(hand))
        for only in (None, ("straight",), ("stairs", "flush"), ("house", "plane", "twopair", "wildrun")):
            got = c.maker.every(held, only)
            assert got == reference_every(c.maker, held, only)
            made += len(got)
    assert made > 5000  # (the hands make many shapes: the comparison is not of empty lists)


def test_the_shapes_that_beat_a_play_are_the_reference_filter_in_its_order(game: Game) -> None:
    c = game.combinations
    rng = random.Random(2)
    tops: list[Any] = [None]
    for hand in hands(game, 60, 3):  # plays of every kind to beat: readings of shapes of random hands
        for s in rng.sample(reference_every(c.maker, tuple(sorted(hand)), None), 3):
            tops.append({"kind": c.kinds[s.kind].name, "length": s.length, "value": s.value, "bomb": s.bomb})
    c.kept.clear()
    compared = 0
    for hand in hands(game, 40, 4):
        for top in rng.sample(tops, 8) + [None]:
            for kinds in (None, ["bomb", "flush"]):
                got = c.shapes(hand, top, kinds)
                assert got == reference_shapes(c, hand, top, kinds)
                compared += len(got)
    assert compared > 1000


def test_the_picks_are_those_of_the_reference_and_asked_again_charge_the_same_work(game: Game) -> None:
    c = game.combinations
    rng = random.Random(5)
    c.kept.clear()
    c.picks_kept.clear()
    for hand in hands(game, 60, 6):
        top = c.combination(rng.sample(hand, 1)) if rng.random() < 0.7 else None
        picked: list[int] = []
        while True:
            budget.reset()
            first = c.next_picks(picked, hand, top)
            work = budget.WORK_LIMIT - budget.left[0]
            budget.reset()
            again = c.next_picks(picked, hand, top)  # kept: the same picks, the same work charged
            assert again == first == reference_picks(c, picked, hand, top)
            assert budget.WORK_LIMIT - budget.left[0] == work == len(first) + 2 * len(c.shapes(hand, top)) + 1
            if not first:
                break
            picked.append(rng.choice(first))
    budget.reset()


def test_a_hand_facing_a_play_makes_only_the_kinds_that_can_beat_it_each_once(
        game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    c = game.combinations
    hand = list(range(0, len(game.cards.labels), 3))
    asked: list[tuple[str, ...] | None] = []
    every = c.maker.every
    monkeypatch.setattr(c.maker, "every", lambda held, only: asked.append(only) or every(held, only))
    c.kept.clear()
    pair = {"kind": "pair", "length": 2, "value": 5, "bomb": False}
    c.shapes(hand, pair)
    c.shapes(hand, {**pair, "value": 7})
    c.shapes(hand, pair, ["bomb", "flush"])
    assert asked == [("pair",), ("bomb",), ("flush",)]  # a pair is beaten by a pair or a bomb, nothing else
    c.shapes(hand, {"kind": "single", "length": 1, "value": 5, "bomb": False})
    assert asked[3:] == [("single",), ("crown",)]      # the crown beats a single; the bombs are kept
