"""The shapes of plays a hand can make, for the rule file's ``combinations`` section (combinations.py): for each
kind, the ranks a play needs (with the suit, for a suited kind) and how many wild cards, never the cards themselves.

Sets of one rank, runs of consecutive ranks (wild cards filling the gaps where they may stand for a rank), and sets
of different ranks (a full house and the like) are found here, card counts in, shapes out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

WILD = "*"  # the key of a wild card in a shape


@dataclass(frozen=True)
class Kind:
    """One kind of play: its shape, the cards it is made of, and how it compares."""

    name: str
    same: int  # cards of each rank
    run: int  # the fewest consecutive ranks (0: not a run)
    sets: tuple[int, ...]  # sizes of sets of different ranks (() unless a full house and the like)
    suited: bool
    bomb: bool
    wild: bool  # wild cards may stand in
    beats: frozenset[str]  # kinds it beats whatever their value
    lead_only: bool
    cards: frozenset[int]  # the (non-wild) cards it is made of


class Shape(NamedTuple):
    """A play a hand can make: its kind, cards, deciding value, and what it needs (key -> how many)."""

    kind: int
    length: int
    value: float
    need: tuple[tuple[Any, int], ...]
    bomb: bool

    def needs(self) -> dict[Any, int]:
        return dict(self.need)


class ShapeMaker:
    """Finds the shapes of plays of ``kinds`` that cards make, each card read by its ``rank`` and ``suit`` (by card
    id); ``wild``: the wild cards, ``wild_ranks``: the ranks they may stand for."""

    def __init__(self, kinds: list[Kind], rank: tuple[Any, ...], suit: tuple[Any, ...], wild: frozenset[int],
                 wild_ranks: frozenset[Any]):
        self.kinds, self.rank, self.suit, self.wild, self.wild_ranks = kinds, rank, suit, wild, wild_ranks
        self.keys = {False: rank, True: tuple(zip(rank, suit))}  # what each card counts as, by suitedness

    def key(self, kind: Kind, c: int) -> Any:
        """What a card counts as in a shape of ``kind``: its rank, with its suit for a suited kind."""
        return self.keys[kind.suited][c]

    def every(self, hand: tuple[int, ...], only: tuple[str, ...] | None) -> list[Shape]:
        """Every shape of the kinds ``only`` (None: all) the cards can make but a wild card alone."""
        found: list[Shape] = []
        wild = self.wild
        wilds = 0
        plain = []
        for c in hand:
            if c in wild:
                wilds += 1
            else:
                plain.append(c)
        counted: dict[tuple[frozenset[int], bool], dict[Any, int]] = {}  # kinds made of the same cards share
        for i, kind in enumerate(self.kinds):
            if only is not None and kind.name not in only:
                continue
            which = (kind.cards, kind.suited)
            counts = counted.get(which)
            if counts is None:
                counts = counted[which] = {}
                made_of, keys = kind.cards, self.keys[kind.suited]
                for c in plain:
                    if c in made_of:
                        k = keys[c]
                        counts[k] = counts.get(k, 0) + 1
            if counts:
                self._of_kind(i, kind, counts, wilds if kind.wild else 0, found)
        return found

    def _of_kind(self, i: int, kind: Kind, counts: dict[Any, int], wilds: int, out: list[Shape]) -> None:
        """Every shape of one kind the cards (``counts`` by key, and ``wilds`` wild cards) can make, added to
        ``out``: each with what it needs, key by key (the ranks in order, then the wild cards), none of 0."""
        if kind.run:
            for suit, ranks in self._by_suit(kind, counts):
                self._runs(i, kind, ranks, suit, wilds, out)
        elif kind.sets:
            self._sets(i, kind, counts, wilds, out)
        else:
            same, bomb, suited, wild_ranks = kind.same, kind.bomb, kind.suited, self.wild_ranks
            for k, n in counts.items():
                rank = k[0] if suited else k
                most = min(wilds, same - 1) if rank in wild_ranks else 0
                for w in range(max(0, same - n), most + 1):  # (at least one card of the rank)
                    out.append(Shape(i, same, rank, ((k, same - w), (WILD, w)) if w else ((k, same),), bomb))

    def _wilds_in_set(self, held: int, size: int, rank: Any, wilds: int) -> range:
        """How many wild cards a set of ``size`` of ``rank`` may take, with ``held`` cards of it and ``wilds``
        wild cards at hand (at least one card of the rank; wild cards only for a rank they may stand for)."""
        most = min(wilds, size - 1) if rank in self.wild_ranks else 0
        return range(max(0, size - held), most + 1)

    def _by_suit(self, kind: Kind, counts: dict[Any, int]) -> list[tuple[Any, dict[Any, int]]]:
        if not kind.suited:
            return [(None, counts)]
        suits: dict[Any, dict[Any, int]] = {}
        for (rank, suit), n in counts.items():
            suits.setdefault(suit, {})[rank] = n
        return list(suits.items())

    def _runs(self, i: int, kind: Kind, ranks: dict[Any, int], suit: Any, wilds: int, out: list[Shape]) -> None:
        numbers = [r for r in ranks if isinstance(r, (int, float))]
        if len(numbers) + wilds < kind.run or not numbers:  # each rank of a run: a card held or a wild card
            return
        wild_ranks = self.wild_ranks
        fill = [r for r in wild_ranks if isinstance(r, (int, float))] if wilds else []
        low, high = int(min(numbers + fill)), int(max(numbers + fill))
        k, fewest, suited, bomb = kind.same, kind.run, kind.suited, kind.bomb
        for start in range(low, high + 1):  # each run grows from its lowest rank until it cannot go on
            have: list[int] = []
            keys: list[Any] = []
            whole: list[tuple[Any, int]] = []  # what it needs without wild cards (when every rank is held)
            short = 0
            held = False
            for end in range(start, high + 1):
                h = ranks.get(end, 0)
                if h > k:
                    h = k
                if h < k and end not in wild_ranks:
                    break
                short += k - h
                if short > wilds:
                    break
                have.append(h)
                key = (end, suit) if suited else end
                keys.append(key)
                whole.append((key, k))
                held = held or h > 0
                length = end - start + 1
                if length < fewest or not held:
                    continue
                if not wilds:  # every rank held: one way
                    out.append(Shape(i, length * k, end, tuple(whole), bomb))
                    continue
                if short == wilds:  # every wild card fills a gap: one way
                    need = [(r, h) for r, h in zip(keys, have) if h]
                    need.append((WILD, short))
                    out.append(Shape(i, length * k, end, tuple(need), bomb))
                    continue
                for used in _spread(list(range(start, end + 1)), have, wilds, wild_ranks, k):
                    need = [(r, k - u) for r, u in zip(keys, used) if k - u]
                    w = sum(used)
                    if w:
                        need.append((WILD, w))
                    out.append(Shape(i, length * k, end, tuple(need), bomb))

    def _sets(self, i: int, kind: Kind, counts: dict[Any, int], wilds: int, out: list[Shape]) -> None:
        keys = list(counts)
        sets, suited, length, bomb = kind.sets, kind.suited, sum(kind.sets), kind.bomb

        def place(at: int, chosen: tuple[Any, ...], left: int, need: tuple[tuple[Any, int], ...]) -> None:
            if at == len(sets):
                first = chosen[0][0] if suited else chosen[0]
                out.append(Shape(i, length, first, need + ((WILD, wilds - left),) if wilds - left else need, bomb))
                return
            size = sets[at]
            for k in keys:
                if k in chosen:
                    continue
                for w in self._wilds_in_set(counts[k], size, k[0] if suited else k, left):
                    place(at + 1, chosen + (k,), left - w, need + ((k, size - w),))

        place(0, (), wilds, ())


def _spread(span: list[Any], have: list[int], wilds: int, wild_ranks: frozenset[Any], k: int) -> list[list[int]]:
    """The ways to use wild cards in a run of ``k`` cards a rank: at each rank at least what the cards held
    (``have``) lack, at most ``wilds`` in all, a wild card in place of a card held only at a rank it may stand
    for, and at least one card held."""
    short = [k - h for h in have]
    out: list[list[int]] = []

    def go(i: int, left: int, used: list[int]) -> None:
        if i == len(span):
            if any(k - u > 0 for u in used):
                out.append(used)
            return
        top = short[i] + (min(left - short[i], have[i]) if span[i] in wild_ranks else 0)
        for u in range(short[i], top + 1):
            go(i + 1, left - u, used + [u])

    go(0, wilds, [])
    return out
