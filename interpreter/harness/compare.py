"""``trickbook compare BASE VARIANT``: is a change to the rules better, and is the difference real?

Both rule files play the same games: game ``i`` of each has the same seed (so the same deal, where the two
files deal alike) and the same agents in the same seats. Every statistic is compared game by game (paired),
which takes out most of the luck of the deal: the difference of each statistic is the mean of the per-game
differences, with its 95% interval and its p-value from the same paired t test (Student's t distribution, so
the interval leaves out 0 exactly when the p-value is below 5%; at hundreds of games it is the normal
approximation).

Many figures are compared at once, so some would look real by chance alone: the p-values are adjusted for
all the figures of the comparison together (:class:`Correction`: Holm's method, which holds the chance of
calling any figure without a difference real to the error rate, or Benjamini-Hochberg's, which holds the
expected share of false ones among those called real to it), and a difference is *real* when its adjusted
p-value is below the rate. For each, the number of games that would show a difference of the size seen (or
of a size asked for) as real in 80% of runs is estimated from the spread of the per-game differences, at the
correction's strictest level (the rate divided by the number of figures).

Statistics: each seat's win share and mean total, the seat advantage (how far the seats' win shares lie from
the fair share, on average: its spread comes from resampling the games, pairs kept together), game length,
score spread, ties, and for each value a public round value ends rounds with, the share of a game's rounds it
ends (a per-game share, so rounds of one game are not counted as if independent)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from interpreter.harness import student_t
from interpreter.harness.played import Played

Z80 = 0.841621  # the normal quantile for 80% power (one-sided)
RESAMPLES = 400  # bootstrap resamples of the seat advantage's spread
MAX_NEEDED = 10_000_000  # beyond this, "more than" (a difference that small is not worth the games)
MAX_ROUND_VALUES = 6  # values of one round value compared by name (the most frequent in either file)
ERROR_RATE = 0.05  # the default rate of the correction

# the units of the figures, in full: a share's difference is shown in percentage points
SHARE, SCORE, ROUNDS = "share", "game points", "rounds"
UNITS = {SHARE: "a share from 0 to 1 (of games, or of a game's rounds), shown in %; the difference of two shares "
                "is shown in percentage points (100 times the difference)",
         SCORE: "the game's own score, as its totals count it",
         ROUNDS: "rounds (deals) per game"}


@dataclass(frozen=True)
class Correction:
    """How the p-values of the figures of one comparison are adjusted for their number: ``holm`` (Holm's
    step-down method: the chance of calling any difference real when the files play alike is at most
    ``rate``) or ``bh`` (Benjamini-Hochberg's: of the differences called real, on average at most ``rate`` are
    not)."""

    method: str = "holm"
    rate: float = ERROR_RATE

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"unknown correction {self.method!r}; known: {', '.join(METHODS)}")
        if not 0 < self.rate < 1:
            raise ValueError(f"the error rate of a correction is above 0 and below 1, not {self.rate}")

    @property
    def controls(self) -> str:
        return "family-wise error rate" if self.method == "holm" else "false discovery rate"

    @property
    def title(self) -> str:
        """The method and its rate, e.g. ``Holm's method (family-wise error rate 5%)``."""
        return f"{METHODS[self.method]} ({self.controls} {percent(self.rate)})"

    def promise(self) -> str:
        """What a reader may rely on, in one sentence."""
        if self.method == "holm":
            return f"the chance that any figure without a difference is called real is at most {percent(self.rate)}"
        return (f"of the differences called real, on average at most {percent(self.rate)} are not (for figures "
                "that are independent or move together)")

    def adjust(self, p: Sequence[float]) -> list[float]:
        """Each p-value adjusted for all of ``p``: real when the adjusted value is below the rate."""
        m = len(p)
        order = sorted(range(m), key=lambda i: p[i])
        out = [1.0] * m
        if self.method == "holm":  # step down: the k-th smallest is held to rate / (m - k)
            running = 0.0
            for k, i in enumerate(order):
                running = max(running, min(1.0, (m - k) * p[i]))
                out[i] = running
        else:  # step up: the k-th smallest is held to rate * (k + 1) / m
            running = 1.0
            for k in reversed(range(m)):
                i = order[k]
                running = min(running, m * p[i] / (k + 1))
                out[i] = min(1.0, running)
        return out

    def strictest(self, figures: int) -> float:
        """The level a lone real difference among ``figures`` is held to (both methods': rate / figures)."""
        return self.rate / max(figures, 1)


METHODS = {"holm": "Holm's method", "bh": "the Benjamini-Hochberg method"}


@dataclass
class Difference:
    """One statistic in both files, and the variant's minus the base's, with its 95% interval (of this figure
    alone) and its p-value, before and after the correction."""

    name: str
    unit: str  # SHARE, SCORE or ROUNDS
    base: float
    variant: float
    low: float
    high: float
    p: float  # two-sided p-value of "no difference", from the same t test as the interval
    spread: float  # the standard deviation of the per-game differences (0: every game differed alike)
    group: str = ""
    adjusted: float = 1.0  # p adjusted for every figure of the comparison (set by judge)
    real: bool = False  # the adjusted p-value is below the correction's rate (set by judge)
    needed: int | None = None  # games that would show a difference of this size as real in 80% of runs

    @property
    def difference(self) -> float:
        return self.variant - self.base

    @property
    def outside(self) -> bool:
        """The 95% interval of this figure alone leaves out 0 (before the correction)."""
        return self.low > 0 or self.high < 0

    def as_json(self) -> dict[str, Any]:
        return {"statistic": self.name, "group": self.group, "unit": self.unit, "base": round(self.base, 4),
                "variant": round(self.variant, 4), "difference": round(self.difference, 4),
                "low": round(self.low, 4), "high": round(self.high, 4), "p": _rounded_p(self.p),
                "p_adjusted": _rounded_p(self.adjusted), "real": self.real, "games_needed": self.needed}


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
    correction: Correction = field(default_factory=Correction)
    detect: float | None = None  # the size asked for, in the unit of shares (e.g. 0.05)
    detect_needed: int | None = None  # games to detect a change of that size in a seat's win share
    forced: str = ""  # with --force: how the seats of the two files differ (and what is compared then)
    per_seat: bool = True  # the figures of each seat are compared (the files have as many seats)
    asked: int | None = None  # the paired games asked for, when a Ctrl-C stopped the run before

    @property
    def real(self) -> list[Difference]:
        return [d for d in self.differences if d.real]

    def as_json(self) -> dict[str, Any]:
        c = self.correction
        return {"base": self.base, "variant": self.variant, "players": self.players, "games": self.games,
                "seed": self.seed, "agents": self.agents, "rotate": self.rotate,
                "paired": self.pairing().removeprefix("paired: "),
                "forced": self.forced or None,
                "identical_games": self.identical,
                "correction": {"method": c.method, "name": METHODS[c.method], "controls": c.controls,
                               "rate": c.rate, "figures": len(self.differences), "promise": c.promise()},
                "units": {u: UNITS[u] for u in dict.fromkeys(d.unit for d in self.differences)},
                "games_needed_assumes": self.needed_assumes(),
                "differences": [d.as_json() for d in self.differences],
                "real": [d.name for d in self.real],
                "detect": None if self.detect is None else {"share": self.detect,
                                                            "games_needed": self.detect_needed},
                "verdict": self.verdict(),
                "interrupted": None if self.asked is None else {"games": self.games, "asked": self.asked}}

    def needed_assumes(self) -> str:
        level = self.correction.strictest(len(self.differences))
        return (f"how many paired games would show a difference of the size seen as real in 80% of runs, held "
                f"to the correction's strictest level ({percent(self.correction.rate)} / {len(self.differences)} "
                f"figures = {level:.2g}, as a lone real difference is), the per-game differences spreading as "
                "here")

    def pairing(self) -> str:
        agents = " (turned one seat each game)" if self.rotate else f" ({', '.join(self.agents)})"
        if self.per_seat:
            return "paired: game i of both files has the same seed and the same agents in the same seats" + agents
        return ("paired: game i of both files has the same seed, and the same agents seated in each file's own "
                "seats" + agents)

    def verdict(self) -> str:
        real = self.real
        n = len(self.differences)
        c = self.correction
        if not any(d.difference or d.low or d.high for d in self.differences):
            return (f"No difference: the {self.games:,} games went exactly alike in both files (every total, "
                    "winner and round outcome).")
        if not real:
            text = (f"No difference is real at {self.games:,} games by {c.title}, across the {n} figures. This does "
                    "not show that the files play alike, only that a difference, if any, is too small to show at "
                    "this number of games.")
        else:
            names = ", ".join(f"{d.name} ({signed(d)})" for d in real)
            text = f"{len(real)} of {n} differences are real at {self.games:,} games by {c.title}: {names}."
        text += f" By this method {c.promise()}."
        near = [d for d in self.differences if d.outside and not d.real]
        if near:
            text += (f" {len(near)} more {'has' if len(near) == 1 else 'have'} a 95% interval that leaves out 0 "
                     f"but {'is' if len(near) == 1 else 'are'} not real after the correction: "
                     + ", ".join(d.name for d in near) + ".")
        if self.detect is not None and self.detect_needed is not None:
            text += (f" A change of {self.detect * 100:g} percentage points in a seat's win share would show as "
                     f"real in 80% of runs of about {self.detect_needed:,} games.")
        return text

    def as_text(self) -> str:
        c = self.correction
        lines = [f"compare: {self.base} (base) with {self.variant} (variant), {self.players} players, "
                 f"{self.games:,} paired games, seed {self.seed}"
                 + ("" if self.asked is None else f" (interrupted: {self.games:,} of the {self.asked:,} asked)"),
                 self.pairing()]
        if self.forced:
            lines.append(f"forced: {self.forced}")
        lines += [f"games that ended exactly alike (every total and winner): {self.identical:,} of {self.games:,}",
                  "every difference: the variant's figure minus the base's, with its 95% interval (of that figure "
                  "alone)",
                  f"p: the p-value of no difference, adjusted by {c.title} for the {len(self.differences)} figures "
                  f"compared; real when p < {c.rate:g}",
                  "units: " + "; ".join(_unit_shown(u) for u in dict.fromkeys(d.unit for d in self.differences)),
                  f"games: {self.needed_assumes()}"]
        width = max(len(d.name) for d in self.differences)
        span = max(len(interval_text(d)) for d in self.differences)
        head = (f"{'statistic':<{width}} {'base':>10} {'variant':>10}   {'difference (95% interval)':<{span}}   "
                f"{'p':>6}   verdict")
        group = None
        for d in self.differences:
            if d.group != group:
                group = d.group
                lines += ["", f"{group}:", head]
            lines.append(f"{d.name:<{width}} {value_text(d, d.base):>10} {value_text(d, d.variant):>10}   "
                         f"{interval_text(d):<{span}}   {p_text(d.adjusted):>6}   {verdict_word(d)}")
        lines += ["", "verdict: " + self.verdict()]
        return "\n".join(lines)


@dataclass(frozen=True)
class Seating:
    """How one file seats the players at the chosen count: its name, its seats in order, the automatic ones."""

    file: str
    seats: tuple[str, ...]
    automatic: frozenset[int] = frozenset()

    def text(self) -> str:
        return ", ".join(s + (" (automatic)" if i in self.automatic else "") for i, s in enumerate(self.seats))


def seating_difference(base: Seating, variant: Seating, players: int) -> str:
    """How the two files seat ``players`` players differently ("" when alike): the seats are paired by their
    name and place, automatic seats included."""
    if base.seats == variant.seats and base.automatic == variant.automatic:
        return ""

    def seats(s: Seating) -> str:
        return f"{len(s.seats)} seat{'' if len(s.seats) == 1 else 's'} ({s.text()})"

    return (f"{base.file} and {variant.file} do not seat alike with {players} players: {base.file} has "
            f"{seats(base)}, {variant.file} {seats(variant)}")


def forced_seats(base: Seating, variant: Seating) -> list[str] | None:
    """With --force, the names of the seats as compared: paired by place, named by both files where they
    differ ("North/turquoise"); None when the files have different numbers of seats (the figures of each
    seat are left out then)."""
    if len(base.seats) != len(variant.seats):
        return None
    return [a if a == b else f"{a}/{b}" for a, b in zip(base.seats, variant.seats)]


def compare(base: Sequence[Played], variant: Sequence[Played], *, seats: list[str] | None, base_name: str,
            variant_name: str, seed: Any, agents: list[str], rotate: bool, detect: float | None = 0.05,
            correction: Correction | None = None, forced: str = "", players: int | None = None) -> Comparison:
    """Compare the paired games ``base[i]`` and ``variant[i]`` (played with the same seed and agents).
    ``seats``: the seats' names (the same number in both files); None when the files have different numbers of
    seats (with --force): the figures of each seat are left out then, and games are paired by their seed alone.
    ``players``: the player count (default: the seats, automatic ones included)."""
    if len(base) != len(variant) or len(base) < 2:
        raise ValueError("compare needs the same number of games of both files, at least two")
    if any(a.index != b.index or a.seed != b.seed or (seats is not None and a.lineup != b.lineup)
           for a, b in zip(base, variant)):
        raise ValueError("the games of the two files are not paired (seed or agents differ)")
    out = Comparison(base_name, variant_name, players or len(base[0].totals), len(base), seed,
                     agents, rotate, sum(a.totals == b.totals and a.winners == b.winners
                                         for a, b in zip(base, variant)),
                     correction=correction or Correction(), forced=forced, per_seat=seats is not None)

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

    for s, seat in enumerate(seats or ()):
        add(f"win share {seat}", SHARE, "win share per seat (a shared win counts 1/k)", seat_share(s))
    advantage = seat_advantage([[share(g, s) for s in range(len(g.totals))] for g in base],
                               [[share(g, s) for s in range(len(g.totals))] for g in variant], seed)
    advantage.group = "seat advantage"
    out.differences.append(advantage)
    for s, seat in enumerate(seats or ()):
        add(f"mean total {seat}", SCORE, "final totals", seat_total(s))
    add("score spread (best minus worst)", SCORE, "final totals", lambda g: float(max(g.totals) - min(g.totals)))
    add("rounds per game", ROUNDS, "game length", lambda g: float(g.rounds))
    add("ties (games won by several sides)", SHARE, "ties", lambda g: 1.0 if g.tied else 0.0)
    for name, values in _round_values(base, variant):
        for value in values:
            add(f"{name}: {value}", SHARE, "round outcomes (share of a game's rounds)", outcome(name, value))
    judge(out.differences, out.correction)
    if detect is not None and seats:
        spreads = [_sd([share(b, s) - share(v, s) for b, v in zip(base, variant)]) for s in range(len(seats))]
        out.detect = detect
        out.detect_needed = games_needed(max(spreads), detect, out.correction.strictest(len(out.differences)))
    return out


def judge(differences: list[Difference], correction: Correction) -> None:
    """Adjust the p-values of all ``differences`` together, call real those below the rate, and work out the
    games each would need at the correction's strictest level."""
    level = correction.strictest(len(differences))
    for d, adjusted in zip(differences, correction.adjust([d.p for d in differences])):
        d.adjusted = adjusted
        d.real = adjusted < correction.rate
        d.needed = games_needed(d.spread, abs(d.difference), level)


def paired(name: str, unit: str, base: list[float], variant: list[float]) -> Difference:
    """The mean of ``variant[i] - base[i]`` with its 95% interval and its p-value (the paired t test; at least
    two games), before any correction."""
    diffs = [v - b for b, v in zip(base, variant)]
    n = len(diffs)
    sd = _sd(diffs)
    return _tested(name, unit, sum(base) / n, sum(variant) / n, sd / math.sqrt(n), sd, n - 1)


def _tested(name: str, unit: str, base: float, variant: float, error: float, spread: float, df: int) -> Difference:
    """A difference with its 95% interval and two-sided p-value from Student's t distribution with ``df``
    degrees of freedom, ``error`` the standard error of the difference: the interval leaves out 0 exactly when p
    is below 5%."""
    mean = variant - base
    if error > 0:
        p = student_t.two_sided_p(abs(mean) / error, df)
    else:  # nothing varies: every game differed by the same amount
        p = 0.0 if mean else 1.0
    half = student_t.quantile(0.95, df) * error
    return Difference(name, unit, base, variant, mean - half, mean + half, p, spread)


def seat_advantage(base: list[list[float]], variant: list[list[float]], seed: Any) -> Difference:
    """How far the seats' win shares lie from the fair share, on average (0: every seat wins as often), in
    both files; the standard error of the difference by resampling the games (pairs together, a fixed stream),
    the interval and p-value from it as for the other figures (t with n - 1 degrees of freedom)."""
    def spread(columns: Sequence[Sequence[float]], pick: Sequence[int]) -> float:
        seats = len(columns)
        shares = [sum(map(c.__getitem__, pick)) / len(pick) for c in columns]
        return sum(abs(x - 1 / seats) for x in shares) / seats

    n = len(base)
    b_columns, v_columns = list(zip(*base)), list(zip(*variant))  # each seat's share in every game
    everyone = range(n)
    b, v = spread(b_columns, everyone), spread(v_columns, everyone)
    rng = random.Random(f"compare/{seed}")
    draws = []
    for _ in range(RESAMPLES):
        pick = rng.choices(everyone, k=n)
        draws.append(spread(v_columns, pick) - spread(b_columns, pick))
    error = _sd(draws)
    return _tested("seat advantage (distance from fair)", SHARE, b, v, error, error * math.sqrt(n), n - 1)


def games_needed(sd: float, size: float, level: float = ERROR_RATE) -> int | None:
    """Paired games for a two-sided test at ``level`` to show a difference of ``size`` in 80% of runs, the
    per-game differences spreading by ``sd`` (the normal approximation's formula: the games are many); None
    when nothing varies or the size is 0."""
    if sd <= 0 or size <= 1e-12:
        return None
    z = NormalDist().inv_cdf(1 - level / 2)
    return min(MAX_NEEDED + 1, max(2, math.ceil(((z + Z80) * sd / size) ** 2)))


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


def percent(rate: float) -> str:
    return f"{rate * 100:g}%"


def _rounded_p(p: float) -> float:
    return float(f"{p:.3g}")


def _unit_shown(unit: str) -> str:
    return {SHARE: "shares in % (of games, or of a game's rounds), their differences in percentage points",
            SCORE: "totals and score spread in game points", ROUNDS: "game length in rounds"}[unit]


def unit_of_difference(d: Difference) -> str:
    """The unit a difference is said in: percentage points for shares, else the figure's own unit."""
    return "percentage points" if d.unit == SHARE else d.unit


def value_text(d: Difference, x: float) -> str:
    return f"{x:.1%}" if d.unit == SHARE else f"{x:.2f}"


def signed(d: Difference) -> str:
    if d.unit == SHARE:
        return f"{d.difference * 100:+.1f} percentage points"
    return f"{d.difference:+.2f} {d.unit}"


def interval_text(d: Difference) -> str:
    if d.unit == SHARE:
        return f"{d.difference * 100:+.1f} ({d.low * 100:+.1f} to {d.high * 100:+.1f}) percentage points"
    return f"{d.difference:+.2f} ({d.low:+.2f} to {d.high:+.2f}) {d.unit}"


def p_text(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def verdict_word(d: Difference) -> str:
    if d.real:
        return "real"
    if d.needed is None:
        return "none" if d.difference == 0 and d.low == d.high == 0 else "not shown"
    shown = "not real after the correction" if d.outside else "not shown"
    if d.needed > MAX_NEEDED:
        return f"{shown} (more than {MAX_NEEDED:,} games would be needed to show one this size)"
    return f"{shown} (about {d.needed:,} games would show one this size)"
