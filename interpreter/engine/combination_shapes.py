"""The shapes of plays a hand can make, for the rule file's ``combinations`` section (combinations.py): for each
kind, the ranks a play needs (with the suit, for a suited kind) and how many wild cards, never the cards themselves.

Sets of one rank, runs of consecutive ranks (wild cards filling the gaps where they may stand for a rank), and sets
of different ranks (a full house and the like) are found here, card counts in, shapes out. With a tie-break
(combinations.tie) a card's key holds its tie, and a shape needs its deciding card's key and, for the rest, any of
several keys (an ``Among``: the cards of a rank, those of a lower tie); a flush is its top card and so many more of
its suit below it, an Among too, so thirteen cards of a suit make nine flushes of five, not 1,287 sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from interpreter.dsl.budget import OutOfWork

WILD = "*"  # the key of a wild card in a shape


@dataclass(frozen=True)
class Kind:
    """One kind of play: its shape, the cards it is made of, and how it compares."""

    name: str
    same: int  # cards of each rank
    run: int  # the fewest consecutive ranks (0: not a run)
    sets: tuple[int, ...]  # sizes of sets of different ranks (() unless a full house and the like)
    suited: bool  # (a flush is suited)
    bomb: bool
    wild: bool  # wild cards may stand in
    beats: frozenset[str]  # kinds it beats whatever their value
    lead_only: bool
    cards: frozenset[int]  # the (non-wild) cards it is made of
    longest: int = 0  # the most consecutive ranks of a run (0: no most)
    flush: int = 0  # cards of one suit of any ranks (0: not a flush)


class Among(frozenset):
    """A need of a shape that any of several keys fills (cards of a rank, of a lower tie, of a suit below the top
    card): never a key itself, and never holding a key the shape needs on its own."""


class Shape(NamedTuple):
    """A play a hand can make: its kind, cards, deciding value, and what it needs (a key or an Among -> how many);
    ``tie``: what decides between plays of one kind and value (0 without combinations.tie)."""

    kind: int
    length: int
    value: float
    need: tuple[tuple[Any, int], ...]
    bomb: bool
    tie: Any = 0

    def needs(self) -> dict[Any, int]:
        return dict(self.need)


def rank_of(key: Any) -> Any:
    """The rank of a key: a rank, or (rank, suit) or (rank, suit, tie)."""
    return key[0] if isinstance(key, tuple) else key


def fixed_ranks(shape: Shape) -> list[Any]:
    """The ranks a shape fixes, sorted: of each card it needs but wild cards and the cards of a flush below its top
    card, which may be of any rank (a reading's ``ranks``)."""
    out: list[Any] = []
    for key, n in shape.need:
        if key == WILD:
            continue
        if isinstance(key, Among):
            ranks = {rank_of(k) for k in key}
            if len(ranks) == 1:
                out += [next(iter(ranks))] * n
        else:
            out += [rank_of(key)] * n
    return sorted(out)


class TooMany(OutOfWork):
    """More shapes than the maker was asked to find at most."""


class ShapeMaker:
    """Finds the shapes of plays of ``kinds`` that cards make, each card read by its ``rank`` and ``suit`` (by card
    id); ``wild``: the wild cards, ``wild_ranks``: the ranks they may stand for."""

    def __init__(self, kinds: list[Kind], rank: tuple[Any, ...], suit: tuple[Any, ...], wild: frozenset[int],
                 wild_ranks: frozenset[Any], tie: tuple[Any, ...] | None = None, most: int | None = None):
        self.kinds, self.rank, self.suit, self.wild, self.wild_ranks = kinds, rank, suit, wild, wild_ranks
        self.tied = tie is not None
        self.most = most  # the most shapes one call finds (None: no most; more: TooMany)
        if tie is None:  # what each card counts as, by suitedness: its rank, with its suit
            self.keys = {False: rank, True: tuple(zip(rank, suit))}
        else:  # and its tie: (rank, None or suit, tie)
            self.keys = {False: tuple(zip(rank, (None,) * len(rank), tie)), True: tuple(zip(rank, suit, tie))}

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
                if self.tied or kind.flush:
                    self._of_kind_tied(i, kind, counts, found)
                else:
                    self._of_kind(i, kind, counts, wilds if kind.wild else 0, found)
                if self.most is not None and len(found) > self.most:
                    raise TooMany(f"more than {self.most:,} plays of kind {kind.name!r} in one hand")
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
            for end in range(start, (min(high, start + kind.longest - 1) if kind.longest else high) + 1):
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

        most = self.most

        def place(at: int, chosen: tuple[Any, ...], left: int, need: tuple[tuple[Any, int], ...]) -> None:
            if at == len(sets):
                first = chosen[0][0] if suited else chosen[0]
                out.append(Shape(i, length, first, need + ((WILD, wilds - left),) if wilds - left else need, bomb))
                if most is not None and len(out) > most:
                    raise TooMany(f"more than {most:,} plays of kind {kind.name!r} in one hand")
                return
            size = sets[at]
            after = keys.index(chosen[-1]) + 1 if at >= 2 and sets[at - 1] == size else 0  # (each set of sets once)
            for k in keys[after:]:
                if k in chosen:
                    continue
                for w in self._wilds_in_set(counts[k], size, k[0] if suited else k, left):
                    place(at + 1, chosen + (k,), left - w, need + ((k, size - w),))

        place(0, (), wilds, ())


    # ---------------------------------------------------------------- with a tie-break, and flushes (no wild card)

    def _of_kind_tied(self, i: int, kind: Kind, counts: dict[Any, int], out: list[Shape]) -> None:
        """Every shape of one kind the cards (``counts`` by key) make, when a card's key holds its tie or the kind is
        a flush: the deciding rank's cards as its top key (how many of it) and an Among of those of a lower tie, the
        other ranks' each an Among of their keys (a key of its own when it is the only one)."""
        by_rank: dict[tuple[Any, Any], list[Any]] = {}  # (rank, suit) -> its keys, the lowest tie first
        for k in sorted(counts, key=_order):
            by_rank.setdefault((rank_of(k), k[1] if isinstance(k, tuple) else None), []).append(k)
        bomb = kind.bomb
        if kind.flush:
            suits: dict[Any, list[Any]] = {}
            for k in sorted(counts, key=_order):
                suits.setdefault(k[1], []).append(k)
            for keys in suits.values():
                for at, top in enumerate(keys):
                    for need, tie in _tops(top, keys[:at], counts, kind.flush):
                        out.append(Shape(i, kind.flush, rank_of(top), need, bomb, tie))
        elif kind.run:
            self._runs_tied(i, kind, by_rank, counts, out)
        elif kind.sets:
            self._sets_tied(i, kind, by_rank, counts, out)
        else:
            for keys in by_rank.values():
                for at, top in enumerate(keys):
                    for need, tie in _tops(top, _lower(keys, at), counts, kind.same):
                        out.append(Shape(i, kind.same, rank_of(top), need, bomb, tie))

    def _runs_tied(self, i: int, kind: Kind, by_rank: dict[tuple[Any, Any], list[Any]], counts: dict[Any, int],
                   out: list[Shape]) -> None:
        k, fewest, most = kind.same, kind.run, kind.longest or 0
        suits: dict[Any, dict[Any, list[Any]]] = {}
        for (rank, suit), keys in by_rank.items():
            if isinstance(rank, (int, float)) and rank == int(rank):
                suits.setdefault(suit, {})[int(rank)] = keys
        for ranks in suits.values():
            for start in sorted(ranks):
                below: list[tuple[Any, int]] = []  # the ranks under the top, each k cards of any of its keys
                end = start
                while end in ranks and (not most or end - start < most):
                    keys = ranks[end]
                    if end - start + 1 >= fewest:
                        for at, top in enumerate(keys):
                            for need, tie in _tops(top, _lower(keys, at), counts, k):
                                out.append(Shape(i, (end - start + 1) * k, end, tuple(below) + need, kind.bomb, tie))
                    if sum(counts[x] for x in keys) < k:
                        break
                    below.append((_among(keys), k))
                    end += 1

    def _sets_tied(self, i: int, kind: Kind, by_rank: dict[tuple[Any, Any], list[Any]], counts: dict[Any, int],
                   out: list[Shape]) -> None:
        sets, length, most = kind.sets, sum(kind.sets), self.most
        groups = list(by_rank)
        held = {g: sum(counts[x] for x in keys) for g, keys in by_rank.items()}

        def place(at: int, chosen: tuple[Any, ...], need: tuple[tuple[Any, int], ...], value: Any, tie: Any) -> None:
            if at == len(sets):
                out.append(Shape(i, length, value, need, kind.bomb, tie))
                if most is not None and len(out) > most:
                    raise TooMany(f"more than {most:,} plays of kind {kind.name!r} in one hand")
                return
            size = sets[at]
            after = groups.index(chosen[-1]) + 1 if at >= 2 and sets[at - 1] == size else 0
            for g in groups[after:]:
                if g in chosen or held[g] < size:
                    continue
                keys = by_rank[g]
                if at:
                    place(at + 1, chosen + (g,), need + ((_among(keys), size),), value, tie)
                    continue
                for j, top in enumerate(keys):
                    for first, t in _tops(top, _lower(keys, j), counts, size):
                        place(1, (g,), first, g[0], t)

        place(0, (), (), 0, 0)


def _order(key: Any) -> tuple[Any, ...]:
    """A tied key's place: by rank, then tie (a flush's (rank, suit) key: by rank)."""
    return (key[0], key[2] if len(key) > 2 else 0)


def _lower(keys: list[Any], at: int) -> list[Any]:
    """The keys of one rank of a lower tie than ``keys[at]`` (they are in order of tie)."""
    return [k for k in keys[:at] if _order(k) < _order(keys[at])]


def _among(keys: list[Any]) -> Any:
    """What any of ``keys`` fills: the key itself when there is one."""
    return keys[0] if len(keys) == 1 else Among(keys)


Need = tuple[tuple[Any, int], ...]


def _tops(top: Any, lower: list[Any], counts: dict[Any, int], size: int) -> list[tuple[Need, Any]]:
    """The needs of ``size`` cards decided by the key ``top`` (as many of it as one to all held, the rest of
    ``lower``), each with its tie."""
    out: list[tuple[Need, Any]] = []
    tie = top[2] if len(top) > 2 else 0
    low = sum(counts[k] for k in lower)
    for n in range(1, min(size, counts[top]) + 1):
        rest = size - n
        if rest > low:
            continue
        out.append((((top, n), (_among(lower), rest)) if rest else ((top, n),), tie))
    return out


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
