"""A zone held as its kinds with a count per kind (docs/architecture.md, "Zones keep their order"): ``kinds``, each
kind of card the zone holds once, in the order of its first copy, and ``n``, the number of copies of each kind (by
kind; 0 for a kind it does not hold).

Since a play takes the last copy of its kind and a card that comes is put at the end, the first copy of each kind
stays where it was: the kinds are the zone's cards as a seat's actions list them (identical cards once, where the
first copy stands), and the count answers how many. What the shape drops is where the later copies of a kind
stand: ``copies()`` gives each kind repeated by its count, at its first copy. runtime/zone_shapes.py says which
zones a game may hold so (none read by position past a first copy); the written code reads ``kinds`` and ``n``,
and the code that only adds or clears (a deal, a card moved in) calls the methods below."""

from __future__ import annotations

from collections.abc import Iterable


class Counted:
    """A zone's kinds once each, in the order of their first copies, and the copies of each (see the module)."""

    __slots__ = ("kinds", "n", "held")

    def __init__(self, kinds: list[int], n: list[int]):
        self.kinds = kinds
        self.n = n
        # its copies (``copies``) once asked, kept as a copy leaves (a copy taken out of them: its copies stand
        # together, so which one is alike), made again when asked after a card comes or the zone is cleared (None)
        self.held: list[int] | None = None

    @classmethod
    def of(cls, cards: Iterable[int], size: int) -> Counted:
        """The zone holding ``cards`` (kinds, in their order; each kind below ``size``)."""
        made = cls([], [0] * size)
        made.extend(cards)
        return made

    def copies(self) -> list[int]:
        """The zone's cards: each kind repeated by its count, at its first copy (a list the zone keeps, as today's
        state gives an expression the zone's own list: not to be changed by the caller)."""
        out = self.held
        if out is not None:
            return out
        n = self.n
        out = []
        for k in self.kinds:
            if n[k] == 1:
                out.append(k)
            else:
                out += [k] * n[k]
        self.held = out
        return out

    def copy(self) -> Counted:
        return Counted(self.kinds.copy(), self.n.copy())

    def append(self, kind: int) -> None:
        """A card comes: put at the end (a kind the zone holds already keeps its place)."""
        n = self.n
        if not n[kind]:
            self.kinds.append(kind)
        n[kind] += 1
        self.held = None

    def extend(self, kinds: Iterable[int]) -> None:
        """Cards come, in turn (as ``append``)."""
        n, first = self.n, self.kinds
        for k in kinds:
            if n[k]:
                n[k] += 1
            else:
                n[k] = 1
                first.append(k)
        self.held = None

    def take(self, kind: int) -> None:
        """The last copy of ``kind`` leaves; ValueError (the zone unchanged) when it holds none."""
        n = self.n
        left = n[kind] - 1
        if left < 0:
            raise ValueError(f"no card of kind {kind} in the zone")
        n[kind] = left
        if self.held is not None:
            self.held.remove(kind)
        if not left:
            self.kinds.remove(kind)

    def clear(self) -> None:
        n = self.n
        for k in self.kinds:
            n[k] = 0
        self.kinds.clear()
        self.held = None

    def __contains__(self, kind: object) -> bool:
        return isinstance(kind, int) and 0 <= kind < len(self.n) and self.n[kind] > 0

    def __bool__(self) -> bool:
        return bool(self.kinds)

    def __len__(self) -> int:
        n = self.n
        return sum(n[k] for k in self.kinds)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counted) and self.kinds == other.kinds and self.n == other.n

    __hash__ = None  # type: ignore[assignment]  # (changes in place, as a list does)

    def __repr__(self) -> str:
        return f"Counted({self.copies()!r})"
