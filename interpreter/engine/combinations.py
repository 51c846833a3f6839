"""Combinations: plays of several cards at once, declared by the rule file's ``combinations`` section.

Climbing (ladder, shedding) games play sets of cards: a pair, a run, a full house, a bomb. The section names
each *kind* by its shape (``same``: cards of one rank; ``run``: that many
consecutive ranks or more, ``longest`` at most; ``flush``: cards of one suit of any ranks; ``sets``: sets of
different ranks, any number, the first deciding), which cards make it, whether it is a bomb, and which other kinds
it beats whatever their value. A card's rank, its suit, its tie (what decides between plays of one kind and value)
and the wild cards (which stand in for a rank) are worked out once per card, before play.

A play is found card by card (actions keep fixed ids: a card, ``play``, ``pass``), so the engine works with
*shapes*: the ranks a play needs (with the suit, for a suited kind) and how many wild cards, never the cards
themselves, which a run of four suits would multiply (combination_shapes.py finds them). What the builtins
``next_picks``, ``is_play``, ``must_play`` and ``combination`` answer comes from one list of shapes per hand and
play to beat, made once and kept (``Combinations.shapes``).

What beats what: a bomb beats every play that is not a bomb, and a bomb with more cards or, as long, a higher
value; otherwise a play beats a play of a kind it ``beats``, or of its own kind with as many cards and a lower
value (or, as high, a lower tie). A play's reading is the best one its cards allow (a bomb first, then a kind that
beats the other, then the highest value): a wild card in a straight counts as its top card when it can.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.dsl.budget import charge
from interpreter.dsl.types import CARD
from interpreter.engine.combination_shapes import WILD, Among, Kind, Shape, ShapeMaker, fixed_ranks
from interpreter.errors import SchemaError
from interpreter.limits import WORK_LIMIT
from interpreter.plan.combinations import BASE, CombinationsPlan

MAX_KEPT = 4096  # hands and tops whose shapes are kept, per game


@dataclass
class Combinations:
    """The compiled ``combinations`` section of a game."""

    kinds: list[Kind]
    rank: tuple[Any, ...]  # per card id
    suit: tuple[Any, ...]  # per card id
    wild: frozenset[int]
    wild_ranks: frozenset[Any]
    alone: Any  # a wild card played alone: "above" or a number (None: it cannot be played alone)
    lowest: float  # the lowest rank of the cards that make plays (for a wild card led alone, "above")
    tie: tuple[Any, ...] | None = None  # per card id, what decides between plays of one kind and value (None: none)
    by_name: dict[str, int] = field(default_factory=dict)
    kept: dict[Any, list[Shape]] = field(default_factory=dict)
    rivals: dict[Any, tuple[int, ...]] = field(default_factory=dict)
    picks_kept: dict[Any, tuple[list[int], int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_name = {k.name: i for i, k in enumerate(self.kinds)}
        self.maker = ShapeMaker(self.kinds, self.rank, self.suit, self.wild, self.wild_ranks, self.tie,
                                WORK_LIMIT)  # combination_shapes.py
        # per kind, the cards that count as each key of its shapes (a wild card: WILD)
        self.cards_with: list[dict[Any, frozenset[int]]] = []
        for kind in self.kinds:
            with_key: dict[Any, set[int]] = {WILD: set(self.wild)}
            for c in sorted(kind.cards):
                with_key.setdefault(self.maker.key(kind, c), set()).add(c)
            self.cards_with.append({k: frozenset(cs) for k, cs in with_key.items()})
        # a wild card played alone is a play of the first kind of one card that takes wild cards
        self.alone_kind = next((i for i, k in enumerate(self.kinds)
                                if k.same == 1 and not k.run and not k.sets and not k.flush and k.wild), None)

    # ------------------------------------------------------------------ readings

    def top_of(self, top: Any) -> tuple[int, int, float, bool, Any] | None:
        """A reading record (or none) as the tuple shapes are compared with."""
        if top is None:
            return None
        if not isinstance(top, dict) or top.get("kind") not in self.by_name:
            raise ValueError(f"the play to beat must be a combination (or none), got {top!r}")
        return (self.by_name[top["kind"]], int(top["length"]), float(top["value"]), bool(top["bomb"]),
                top.get("tie", 0))

    def beats(self, kind: int, length: int, value: float, bomb: bool, top: tuple[int, int, float, bool, Any] | None,
              tie: Any = 0) -> bool:
        if top is None:
            return True
        tkind, tlength, tvalue, tbomb, ttie = top
        if bomb:
            return not tbomb or (length, value, tie) > (tlength, tvalue, ttie)
        if tbomb:
            return False
        if self.kinds[tkind].name in self.kinds[kind].beats:
            return True
        return kind == tkind and length == tlength and (value, tie) > (tvalue, ttie)

    def better(self, shape: Shape, best: Shape) -> bool:
        """``shape`` is a better reading of the same cards than ``best``: a bomb first, then a kind that beats the
        other's, then the higher value (and tie)."""
        if shape.bomb != best.bomb:
            return shape.bomb
        over = self.kinds[best.kind].name in self.kinds[shape.kind].beats
        under = self.kinds[shape.kind].name in self.kinds[best.kind].beats
        if over != under:
            return over
        return (shape.value, shape.tie) > (best.value, best.tie)

    def reading(self, shape: Shape) -> dict[str, Any]:
        return record(self.kinds[shape.kind].name, shape.length, shape.value, shape.bomb, fixed_ranks(shape),
                      shape.tie)

    # ------------------------------------------------------------------ shapes

    def shapes(self, hand: Any, top: Any, kinds: Any = None) -> list[Shape]:
        """Every shape the cards ``hand`` can make that beats ``top`` (of the kinds named, when given), the work
        charged."""
        found = self._shapes(hand, top, kinds)
        charge(len(found) + 1)
        return found

    def _shapes(self, hand: Any, top: Any, kinds: Any = None) -> list[Shape]:
        """Every shape the cards ``hand`` can make that beats ``top`` (of the kinds named, when given).

        A hand's shapes are made once and kept while the hand is the same, each kind's on its own: a play to beat
        makes (or reads) only those of the kinds that can beat it (``_rivals``), and picks those that do (and the
        value of a wild card played alone, which depends on it). A hand that leads makes every kind's at once."""
        t = self.top_of(top)
        only = None if not kinds else tuple(kinds)
        held = tuple(sorted(hand))
        key = (held, t, only)
        found = self.kept.get(key)
        if found is None:
            if t is None:
                found = self.kept.get((held, only))
                if found is None:
                    found = self.kept[(held, only)] = self.maker.every(held, only)
            else:
                beats = self.beats
                found = [s for i in self._rivals(t, only) for s in self._of_kind(held, i)
                         if beats(s.kind, s.length, s.value, s.bomb, t, s.tie)]
            i = self.alone_kind
            if (i is not None and self.alone is not None and (only is None or self.kinds[i].name in only)
                    and any(c in self.wild for c in held)):
                value = self._alone(t)
                if self.beats(i, 1, value, False, t):
                    found = found + [Shape(i, 1, value, ((WILD, 1),), False)]
            if len(self.kept) >= MAX_KEPT:
                self.kept.clear()
            self.kept[key] = found
        return found

    def _rivals(self, t: tuple[int, int, float, bool, Any], only: tuple[str, ...] | None) -> tuple[int, ...]:
        """The kinds (of ``only``, when given) a play of which may beat the reading ``t``, in the section's order:
        a bomb, a kind that beats t's, or t's own (never a kind that is only led)."""
        key = (t[0], t[3], only)
        found = self.rivals.get(key)
        if found is None:
            tkind, tbomb = t[0], t[3]
            found = self.rivals[key] = tuple(
                i for i, k in enumerate(self.kinds)
                if (only is None or k.name in only) and not k.lead_only
                and (k.bomb or (not tbomb and (i == tkind or self.kinds[tkind].name in k.beats))))
        return found

    def _of_kind(self, held: tuple[int, ...], i: int) -> list[Shape]:
        """The shapes of kind ``i`` the cards ``held`` (sorted) make, kept (read from every kind's, when made)."""
        key = (held, i)
        found = self.kept.get(key)
        if found is None:
            every = self.kept.get((held, None))
            found = ([s for s in every if s.kind == i] if every is not None
                     else self.maker.every(held, (self.kinds[i].name,)))
            if len(self.kept) >= MAX_KEPT:
                self.kept.clear()
            self.kept[key] = found
        return found

    def _alone(self, top: tuple[int, int, float, bool, Any] | None) -> float:
        if self.alone != "above":
            return float(self.alone)
        return (self.lowest if top is None else top[2]) + 0.5

    # ------------------------------------------------------------------ picking a play card by card

    def fits(self, shape: Shape, cards: list[int]) -> bool:
        """The cards can all be part of the shape (each a key it still needs)."""
        return self._left(shape, cards) is not None

    def _room_for(self, shape: Shape, cards: list[int], must: list[int]) -> bool:
        """The cards include one of ``must``, or one of them can still be added."""
        if any(c in must for c in cards):
            return True
        return any(c not in cards and self.fits(shape, cards + [c]) for c in must)

    def _legal(self, hand: Any, top: Any, must: Any, kinds: Any) -> tuple[list[Shape], list[int], int]:
        """The shapes a seat may play now, the cards of the obligation when it binds ([] otherwise), and the work
        to charge for them (the shapes read)."""
        shapes = self._shapes(hand, top, kinds)
        work = len(shapes) + 1
        if must:
            bound = [s for s in shapes if self._room_for(s, [], list(must))]
            if bound:
                return bound, list(must), work
        return shapes, [], work

    def _left(self, shape: Shape, cards: list[int]) -> dict[Any, int] | None:
        """What the shape still needs once it holds the cards; None when they do not fit it."""
        need = shape.needs()
        kind = self.kinds[shape.kind]
        for c in cards:
            wild = c in self.wild
            if not wild and c not in kind.cards:
                return None
            k = WILD if wild else self.maker.key(kind, c)
            left = need.get(k)
            if left is None:  # a key some Among of the shape holds
                k = next((x for x in need if isinstance(x, Among) and k in x), None)
                left = need.get(k, 0)
            if left <= 0:
                return None
            need[k] = left - 1
        return need

    def next_picks(self, picked: Any, hand: Any, top: Any, must: Any = (), kinds: Any = None) -> list[int]:
        """The cards of ``hand`` that may be picked next: kept by what is asked, as a choice asks it more than once
        per pick (the work charged each time as when worked out)."""
        key = (tuple(picked), tuple(hand), self.top_of(top), tuple(must), None if not kinds else tuple(kinds))
        kept = self.picks_kept.get(key)
        if kept is None:
            kept = self._next_picks(list(picked), hand, top, must, kinds)
            if len(self.picks_kept) >= MAX_KEPT:
                self.picks_kept.clear()
            self.picks_kept[key] = kept
        out, work = kept
        charge(work)
        return list(out)

    def _next_picks(self, picked: list[int], hand: Any, top: Any, must: Any, kinds: Any) -> tuple[list[int], int]:
        """The picks, and the work they take (the shapes read and made, and the cards found)."""
        shapes, bind, work = self._legal(hand, top, must, kinds)
        out = []
        if bind:  # an obligation that binds: each pick must leave room for one of its cards
            for c in hand:
                more = picked + [c]
                if c not in picked and any(self.fits(s, more) and self._room_for(s, more, bind) for s in shapes):
                    out.append(c)
        else:  # the keys some shape holding the picks still needs, by kind; then the cards of those keys
            open_cards: set[int] = set()
            cards_with = self.cards_with
            for s in shapes:
                left = self._left(s, picked)
                if left is not None:
                    with_key = cards_with[s.kind]
                    for k, n in left.items():
                        if n > 0:
                            if isinstance(k, Among):
                                for x in k:
                                    open_cards.update(with_key.get(x, ()))
                            else:
                                open_cards.update(with_key.get(k, ()))
            out = [c for c in hand if c in open_cards and c not in picked]
        return out, work + len(out) + len(shapes)

    def is_play(self, picked: Any, hand: Any, top: Any, must: Any = (), kinds: Any = None) -> bool:
        picked = list(picked)
        shapes, bind, work = self._legal(hand, top, must, kinds)
        charge(work)
        return any(s.length == len(picked) and self.fits(s, picked) and (not bind or self._room_for(s, picked, bind))
                   for s in shapes)

    def must_play(self, hand: Any, top: Any, must: Any, kinds: Any = None) -> bool:
        _, bind, work = self._legal(hand, top, must, kinds)
        charge(work)
        return bool(bind)  # the obligation binds

    def combination(self, cards: Any, top: Any = None) -> dict[str, Any] | None:
        """The best reading of the cards as one play that beats ``top``: a bomb first, then the highest value."""
        cards = list(cards)
        best = None
        for s in self.shapes(cards, top):
            if s.length == len(cards) and self.fits(s, cards):
                if best is None or self.better(s, best):
                    best = s
        return None if best is None else self.reading(best)


def record(kind: str, length: int, value: float, bomb: bool, ranks: list[Any], tie: Any) -> dict[str, Any]:
    """A reading: the record ``combination`` gives (``tie`` 0 without combinations.tie)."""
    return {"kind": kind, "length": length, "value": int(value) if value == int(value) else value, "bomb": bomb,
            "ranks": ranks, "tie": tie}


def compile_combinations(spec: CombinationsPlan | None, source: Any, compiler: Any, n_cards: int, group: str | None,
                         ) -> Combinations | None:
    """The rule file's ``combinations`` section (its piece of the plan, checked), each card's rank, suit and wildness
    worked out now."""
    if spec is None:
        return None

    def per_card(path: tuple[Any, ...], text: Any, expect: str | None = None) -> tuple[Any, ...]:
        expr = compiler.compile(text, {"card": CARD}, source.locator(path), expect)
        if expr.deps - {"ctx:card"}:
            raise SchemaError("this may read only the card, players, options and setup (it is worked out before "
                              "play)", source.pos(path))
        return tuple(expr({"card": c}) for c in range(n_cards))

    def written(path: tuple[Any, ...], expect: str | None = None) -> tuple[Any, ...]:
        return per_card(path, source.get(path), expect)

    rank = written(spec.rank)
    if spec.suit is not None:
        suit = written(spec.suit)
    elif group is not None:
        suit = per_card(BASE, f"card.{group}")
    else:
        suit = (None,) * n_cards
    plain = written(spec.cards, "truth") if spec.cards is not None else (True,) * n_cards
    tie = written(spec.tie) if spec.tie is not None else None
    for c, t in enumerate(tie or ()):
        if plain[c] and not isinstance(t, (int, float)):
            raise SchemaError(f"a card's tie must be a number, got {t!r}", source.pos(spec.tie))
    wild: frozenset[int] = frozenset()
    wild_ranks: frozenset[Any] = frozenset()
    if spec.wild is not None:
        wild = frozenset(c for c, w in enumerate(written(spec.wild.cards, "truth")) if w)
        if spec.wild.ranks is not None:
            wild_ranks = _wild_ranks(spec.wild.ranks, source, compiler)
        else:
            wild_ranks = frozenset(r for c, r in enumerate(rank) if c not in wild and plain[c] and r is not None)
    kinds = []
    for k in spec.kinds:
        made_of = written(k.cards, "truth") if k.cards is not None else plain
        cards = frozenset(c for c, ok in enumerate(made_of) if ok and c not in wild and rank[c] is not None)
        kinds.append(Kind(k.name, k.same, k.run, k.sets, k.suited or bool(k.flush), k.bomb, k.wild and bool(wild),
                          frozenset(k.beats), k.lead_only, cards, k.longest, k.flush))
        _can_be(kinds[-1], rank, suit, source.pos(BASE + ("kinds", k.name)))
    made = [r for c, r in enumerate(rank) if plain[c] and c not in wild and isinstance(r, (int, float))]
    for c, r in enumerate(rank):
        if c not in wild and r is not None and not isinstance(r, (int, float)):
            raise SchemaError(f"a card's rank must be a number (or none: the card makes no play), got {r!r}",
                              source.pos(spec.rank))
    alone = spec.wild.alone if spec.wild is not None else None
    return Combinations(kinds, rank, suit, wild, wild_ranks, alone, float(min(made)) if made else 0.0, tie)


def _can_be(kind: Kind, rank: tuple[Any, ...], suit: tuple[Any, ...], pos: Any) -> None:
    """Refuse a kind whose cards cannot make it: a flush longer than its longest suit, sets of more ranks than its
    cards have."""
    if kind.flush:
        per_suit: dict[Any, int] = {}
        for c in kind.cards:
            per_suit[suit[c]] = per_suit.get(suit[c], 0) + 1
        most = max(per_suit.values(), default=0)
        if most < kind.flush:
            raise SchemaError(f"kind {kind.name!r} is a flush of {kind.flush} cards, but its cards have at most "
                              f"{most} of one suit", pos)
    if kind.sets:
        ranks = len({rank[c] for c in kind.cards})
        if ranks < len(kind.sets):
            raise SchemaError(f"kind {kind.name!r} is {len(kind.sets)} sets of different ranks, but its cards have "
                              f"{ranks} rank{'s' if ranks != 1 else ''}", pos)


def _wild_ranks(path: tuple[Any, ...], source: Any, compiler: Any) -> frozenset[Any]:
    expr = compiler.compile(str(source.get(path)), {}, source.locator(path))
    if not expr.is_constant:
        raise SchemaError("wild.ranks must be known before play (a list of ranks)", source.pos(path))
    ranks = expr({})
    if not isinstance(ranks, (list, tuple)):
        raise SchemaError(f"wild.ranks must be a list of ranks, got {ranks!r}", source.pos(path))
    return frozenset(ranks)
