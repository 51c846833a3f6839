"""The shapes of plays a hand can make, for the rule file's ``combinations`` section (combinations.py): for each
kind, the ranks a play needs (with the suit, for a suited kind) and how many wild cards, never the cards themselves.

Sets of one rank, runs of consecutive ranks (wild cards filling the gaps where they may stand for a rank), and sets
of different ranks (a full house and the like) are found here, card counts in, shapes out.
"""

from __future__ import annotations

from collections import Counter
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

    def key(self, kind: Kind, c: int) -> Any:
        """What a card counts as in a shape of ``kind``: its rank, with its suit for a suited kind."""
        return (self.rank[c], self.suit[c]) if kind.suited else self.rank[c]

    def every(self, hand: tuple[int, ...], only: tuple[str, ...] | None) -> list[Shape]:
        """Every shape of the kinds ``only`` (None: all) the cards can make but a wild card alone."""
        found: list[Shape] = []
        wilds = sum(1 for c in hand if c in self.wild)
        plain = [c for c in hand if c not in self.wild]
        counted: dict[tuple[frozenset[int], bool], Counter[Any]] = {}  # kinds made of the same cards share
        for i, kind in enumerate(self.kinds):
            if only is not None and kind.name not in only:
                continue
            which = (kind.cards, kind.suited)
            counts = counted.get(which)
            if counts is None:
                counts = counted[which] = Counter(self.key(kind, c) for c in plain if c in kind.cards)
            if counts:
                found.extend(self._of_kind(i, kind, counts, wilds if kind.wild else 0))
        return found

    def _of_kind(self, i: int, kind: Kind, counts: Counter[Any], wilds: int) -> list[Shape]:
        """Every shape of one kind the cards (``counts`` by key, and ``wilds`` wild cards) can make."""
        out: list[Shape] = []

        def add(length: int, value: float, need: dict[Any, int]) -> None:
            out.append(Shape(i, length, value, tuple((k, n) for k, n in need.items() if n), kind.bomb))

        if kind.run:
            for suit, ranks in self._by_suit(kind, counts):
                self._runs(kind, ranks, suit, wilds, add)
        elif kind.sets:
            self._sets(kind, counts, wilds, add)
        else:
            for k, n in counts.items():
                rank = k[0] if kind.suited else k
                for w in self._wilds_in_set(n, kind.same, rank, wilds):
                    add(kind.same, rank, {k: kind.same - w, WILD: w})
        return out

    def _wilds_in_set(self, held: int, size: int, rank: Any, wilds: int) -> range | list[int]:
        """How many wild cards a set of ``size`` of ``rank`` may take, with ``held`` cards of it and ``wilds``
        wild cards at hand (at least one card of the rank; wild cards only for a rank they may stand for)."""
        most = min(wilds, size - 1) if rank in self.wild_ranks else 0
        return [w for w in range(0, most + 1) if held >= size - w]

    def _by_suit(self, kind: Kind, counts: Counter[Any]) -> list[tuple[Any, dict[Any, int]]]:
        if not kind.suited:
            return [(None, dict(counts))]
        suits: dict[Any, dict[Any, int]] = {}
        for (rank, suit), n in counts.items():
            suits.setdefault(suit, {})[rank] = n
        return list(suits.items())

    def _runs(self, kind: Kind, ranks: dict[Any, int], suit: Any, wilds: int, add: Any) -> None:
        numbers = sorted(r for r in ranks if isinstance(r, (int, float)))
        if not numbers:
            return
        fill = sorted(r for r in self.wild_ranks if isinstance(r, (int, float))) if wilds else []
        low, high = int(min(numbers + fill)), int(max(numbers + fill))
        k = kind.same
        for start in range(low, high + 1):  # each run grows from its lowest rank until it cannot go on
            have: list[int] = []
            short = 0
            for end in range(start, high + 1):
                h = min(ranks.get(end, 0), k)
                if h < k and end not in self.wild_ranks:
                    break
                short += k - h
                if short > wilds:
                    break
                have.append(h)
                length = end - start + 1
                if length < kind.run or not any(have):
                    continue
                span = list(range(start, end + 1))
                for used in _spread(span, have, wilds, self.wild_ranks, k):
                    need: dict[Any, int] = {}
                    for r, u in zip(span, used):
                        if k - u:
                            need[(r, suit) if kind.suited else r] = k - u
                    need[WILD] = sum(used)
                    add(length * k, end, need)

    def _sets(self, kind: Kind, counts: Counter[Any], wilds: int, add: Any) -> None:
        keys = list(counts)

        def place(at: int, chosen: list[Any], left: int, need: dict[Any, int]) -> None:
            if at == len(kind.sets):
                first = chosen[0][0] if kind.suited else chosen[0]
                add(sum(kind.sets), first, {**need, WILD: wilds - left})
                return
            size = kind.sets[at]
            for k in keys:
                if k in chosen:
                    continue
                for w in self._wilds_in_set(counts[k], size, k[0] if kind.suited else k, left):
                    place(at + 1, chosen + [k], left - w, {**need, k: size - w})

        place(0, [], wilds, {})


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
