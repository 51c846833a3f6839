"""``trickbook compare BASE VARIANT``: is a change to the rules better, and is the difference real?

Both rule files play the same games: game ``i`` of each has the same seed (so the same deal, where the two
files deal alike) and the same agents in the same seats. Every statistic is compared game by game (paired),
which takes out most of the luck of the deal: the difference of each statistic is the mean of the per-game
differences, with its 95% interval (normal approximation); it is called real when the interval leaves out
0. For each, the number of games that would show a difference of the size seen (or of a size asked for) in
80% of runs is estimated from the spread of the per-game differences.

Statistics: each seat's win share and mean total, the seat advantage (how far the seats' win shares lie from
the fair share, on average: its interval comes from resampling the games, pairs kept together), game length,
score spread, ties, and for each value a public round value ends rounds with, the share of a game's rounds it
ends (a per-game share, so rounds of one game are not counted as if independent)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.harness.simulate import Z95, Played

Z80 = 0.841621  # the normal quantile for 80% power (one-sided)
RESAMPLES = 400  # bootstrap resamples of the seat advantage's interval
MAX_NEEDED = 10_000_000  # beyond this, "more than" (a difference that small is not worth the games)
MAX_ROUND_VALUES = 6  # values of one round value compared by name (the most frequent in either file)


@dataclass
class Difference:
    """One statistic in both files, and the variant's minus the base's, with its 95% interval."""

    name: str
    unit: str  # "share" (shown in points of percentage), "points", "rounds"
    base: float
    variant: float
    low: float
    high: float
    needed: int | None  # games that would show a difference of this size in 80% of runs (None: no spread)
    group: str = ""

    @property
    def difference(self) -> float:
        return self.variant - self.base

    @property
    def real(self) -> bool:
        return self.low > 0 or self.high < 0

    def as_json(self) -> dict[str, Any]:
        return {"statistic": self.name, "group": self.group, "unit": self.unit, "base": round(self.base, 4),
                "variant": round(self.variant, 4), "difference": round(self.difference, 4),
                "low": round(self.low, 4), "high": round(self.high, 4), "real": self.real,
                "games_needed": self.needed}


@dataclass
class Comparison:
    base: str
    variant: str
    players: int
    games: int
    seed: Any
    agents: list[str]
    rotate: bool
    identical: int  # games in which every seat's total and the winners were the same in both files
    differences: list[Difference] = field(default_factory=list)
    detect: float | None = None  # the size asked for, in the unit of shares (e.g. 0.05)
    detect_needed: int | None = None  # games to detect a change of that size in a seat's win share

    def as_json(self) -> dict[str, Any]:
        return {"base": self.base, "variant": self.variant, "players": self.players, "games": self.games,
                "seed": self.seed, "agents": self.agents, "rotate": self.rotate,
                "paired": "game i of both files: the same seed and the same agents in the same seats",
                "identical_games": self.identical, "differences": [d.as_json() for d in self.differences],
                "real": [d.name for d in self.differences if d.real],
                "detect": None if self.detect is None else {"share": self.detect,
                                                            "games_needed": self.detect_needed},
                "verdict": self.verdict()}

    def verdict(self) -> str:
        real = [d for d in self.differences if d.real]
        n = len(self.differences)
        if not any(d.difference or d.low or d.high for d in self.differences):
            return (f"No difference: the {self.games} games went exactly alike in both files (every total, "
                    "winner and round outcome).")
        by_chance = n / 20
        if not real:
            text = (f"No difference is real at {self.games} games: every 95% interval includes 0. This does not "
                    "show that the files play alike, only that a difference, if any, is too small to show at "
                    "this sample size.")
        else:
            names = ", ".join(f"{d.name} ({_signed(d)})" for d in real[:8]) + (", ..." if len(real) > 8 else "")
            text = f"{len(real)} of {n} differences are real at {self.games} games: {names}."
            if len(real) <= max(1, round(by_chance)):
                text += (f" With {n} statistics compared, about {by_chance:.1f} would look real by chance alone; "
                         "play more games before trusting a lone one.")
        if self.detect is not None and self.detect_needed is not None:
            text += (f" A change of {self.detect * 100:g} points in a seat's win share would show in 80% of runs "
                     f"of about {self.detect_needed:,} games.")
        return text

    def as_text(self) -> str:
        lines = [f"compare: {self.base} (base) with {self.variant} (variant), {self.players} players, "
                 f"{self.games} paired games, seed {self.seed}",
                 "paired: game i of both files has the same seed and the same agents in the same seats"
                 + (" (turned one seat each game)" if self.rotate else f" ({', '.join(self.agents)})"),
                 f"games that ended exactly alike (every total and winner): {self.identical} of {self.games}",
                 "every difference: the variant's figure minus the base's, with its 95% interval; real when "
                 "the interval leaves out 0"]
        width = max(len(d.name) for d in self.differences)
        span = max(len(interval_text(d)) for d in self.differences)
        head = f"{'statistic':<{width}} {'base':>10} {'variant':>10}   {'difference (95% interval)':<{span}}   verdict"
        group = None
        for d in self.differences:
            if d.group != group:
                group = d.group
                lines += ["", f"{group}:", head]
            lines.append(f"{d.name:<{width}} {value_text(d, d.base):>10} {value_text(d, d.variant):>10}   "
                         f"{interval_text(d):<{span}}   {verdict_word(d)}")
        lines += ["", "verdict: " + self.verdict()]
        return "\n".join(lines)


def compare(base: Sequence[Played], variant: Sequence[Played], *, seats: list[str], base_name: str,
            variant_name: str, seed: Any, agents: list[str], rotate: bool, detect: float | None = 0.05) -> Comparison:
    """Compare the paired games ``base[i]`` and ``variant[i]`` (played with the same seed and agents)."""
    if len(base) != len(variant) or not base:
        raise ValueError("compare needs the same number of games of both files, at least one")
    if any(a.index != b.index or a.seed != b.seed or a.lineup != b.lineup for a, b in zip(base, variant)):
        raise ValueError("the games of the two files are not paired (seed or agents differ)")
    n = len(seats)
    out = Comparison(base_name, variant_name, n, len(base), seed, agents, rotate,
                     sum(a.totals == b.totals and a.winners == b.winners for a, b in zip(base, variant)))

    def share(g: Played, s: int) -> float:
        return 1 / len(g.winners) if s in g.winners else 0.0

    def add(name: str, unit: str, group: str, value: Callable[[Played], float]) -> None:
        d = paired(name, unit, [value(g) for g in base], [value(g) for g in variant])
        d.group = group
        out.differences.append(d)

    def seat_share(s: int) -> Callable[[Played], float]:
        return lambda g: share(g, s)

    def seat_total(s: int) -> Callable[[Played], float]:
        return lambda g: float(g.totals[s])

    def outcome(name: str, value: str) -> Callable[[Played], float]:
        return lambda g: g.outcomes.get(name, Counter()).get(value, 0) / max(g.rounds, 1)

    for s, seat in enumerate(seats):
        add(f"win share {seat}", "share", "win share per seat (a shared win counts 1/k)", seat_share(s))
    advantage = seat_advantage([[share(g, s) for s in range(n)] for g in base],
                               [[share(g, s) for s in range(n)] for g in variant], seed)
    advantage.group = "seat advantage"
    out.differences.append(advantage)
    for s, seat in enumerate(seats):
        add(f"mean total {seat}", "points", "final totals", seat_total(s))
    add("score spread (best minus worst)", "points", "final totals", lambda g: float(max(g.totals) - min(g.totals)))
    add("rounds per game", "rounds", "game length", lambda g: float(g.rounds))
    add("ties (games with several winners)", "share", "ties", lambda g: 1.0 if len(g.winners) > 1 else 0.0)
    for name, values in _round_values(base, variant):
        for value in values:
            add(f"{name}: {value}", "share", "round outcomes (share of a game's rounds)", outcome(name, value))
    if detect is not None:
        spreads = [_sd([share(b, s) - share(v, s) for b, v in zip(base, variant)]) for s in range(n)]
        out.detect = detect
        out.detect_needed = games_needed(max(spreads), detect)
    return out


def paired(name: str, unit: str, base: list[float], variant: list[float]) -> Difference:
    """The mean of ``variant[i] - base[i]`` with its 95% interval (normal approximation), and the games that
    would show a difference of that size in 80% of runs."""
    diffs = [v - b for b, v in zip(base, variant)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = _sd(diffs)
    half = Z95 * sd / math.sqrt(n) if n > 1 else 0.0
    return Difference(name, unit, sum(base) / n, sum(variant) / n, mean - half, mean + half,
                      games_needed(sd, abs(mean)))


def seat_advantage(base: list[list[float]], variant: list[list[float]], seed: Any) -> Difference:
    """How far the seats' win shares lie from the fair share, on average (0: every seat wins as often), in
    both files; the interval of the difference by resampling the games (pairs together, a fixed stream)."""
    def spread(rows: list[list[float]]) -> float:
        seats = len(rows[0])
        shares = [sum(r[s] for r in rows) / len(rows) for s in range(seats)]
        return sum(abs(x - 1 / seats) for x in shares) / seats

    b, v = spread(base), spread(variant)
    rng = random.Random(f"compare/{seed}")
    n = len(base)
    draws = []
    for _ in range(RESAMPLES if n > 1 else 0):
        pick = [rng.randrange(n) for _ in range(n)]
        draws.append(spread([variant[i] for i in pick]) - spread([base[i] for i in pick]))
    draws.sort()
    low = draws[int(0.025 * len(draws))] if draws else v - b
    high = draws[min(len(draws) - 1, int(0.975 * len(draws)))] if draws else v - b
    sd = _sd(draws) * math.sqrt(n) if draws else 0.0
    return Difference("seat advantage (distance from fair)", "share", b, v, low, high,
                      games_needed(sd, abs(v - b)))


def games_needed(sd: float, size: float) -> int | None:
    """Paired games for a two-sided 95% test to show a difference of ``size`` in 80% of runs, the per-game
    differences spreading by ``sd``; None when nothing varies or the size is 0."""
    if sd <= 0 or size <= 1e-12:
        return None
    return min(MAX_NEEDED + 1, max(2, math.ceil(((Z95 + Z80) * sd / size) ** 2)))


def _round_values(base: Sequence[Played], variant: Sequence[Played]) -> list[tuple[str, list[str]]]:
    """The round values both files report, each with its most frequent values (in either file)."""
    counts: dict[str, dict[str, int]] = {}
    for g in (*base, *variant):
        for name, values in g.outcomes.items():
            into = counts.setdefault(name, {})
            for value, k in values.items():
                into[value] = into.get(value, 0) + k
    out = []
    for name, seen in counts.items():
        if len(seen) < 2:
            continue  # a value that never changes tells nothing
        out.append((name, sorted(seen, key=lambda v: (-seen[v], v))[:MAX_ROUND_VALUES]))
    return out


def _sd(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1))


def value_text(d: Difference, x: float) -> str:
    return f"{x:.1%}" if d.unit == "share" else f"{x:.2f}"


def _signed(d: Difference) -> str:
    if d.unit == "share":
        return f"{d.difference * 100:+.1f} points"
    return f"{d.difference:+.2f} {d.unit}"


def interval_text(d: Difference) -> str:
    if d.unit == "share":
        return f"{d.difference * 100:+.1f} ({d.low * 100:+.1f} to {d.high * 100:+.1f}) points"
    return f"{d.difference:+.2f} ({d.low:+.2f} to {d.high:+.2f}) {d.unit}"


def verdict_word(d: Difference) -> str:
    if d.real:
        return "real"
    if d.needed is None:
        return "none" if d.difference == 0 and d.low == d.high == 0 else "not shown"
    if d.needed > MAX_NEEDED:
        return f"not shown (more than {MAX_NEEDED:,} games would be needed to show one this size)"
    return f"not shown (about {d.needed:,} games would show one this size)"
