"""One game of a simulated run as its summary needs it (harness/simulate.py, compare.py): its seed, seating, totals,
winners, rounds, round outcomes, and which seats were one side (partners at the end of every round), by which a
game won by partners together is no tie."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Played:
    """One game of a run, as the summary needs it."""

    index: int
    seed: str
    lineup: list[str]
    totals: list[int]
    winners: list[int]
    rounds: int
    outcomes: dict[str, Counter] = field(default_factory=dict)  # round value -> its value at each round's end
    digest: str = ""  # with Setup.digest: the SHA-256 of the game's record
    sides: list[int] = field(default_factory=list)  # each seat's side (``sides_of``); none given: each its own

    @property
    def tied(self) -> bool:
        """Whether the winners are of more than one side (partners in every round are one side)."""
        sides = self.sides or list(range(len(self.totals)))
        return len({sides[s] for s in self.winners}) > 1


def sides_of(teams: list[list[int]], players: int) -> list[int]:
    """Each seat's side in a game whose teams at each round's end were ``teams``: the lowest seat that was on its
    team at the end of every round (no rounds known: each seat its own)."""
    if not teams:
        return list(range(players))
    return [next(t for t in range(players) if all(r[t] == r[s] for r in teams)) for s in range(players)]
