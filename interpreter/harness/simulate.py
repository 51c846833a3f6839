"""Many games with chosen agents, on one or more processes, summarised with 95% confidence intervals.

Game ``i`` of a run has the seed ``game_seed(seed, i)`` and its agents are seeded from it, so a run gives the
same games and the same summary on any number of workers or backends; results are gathered in game order. On the
compiled backend (engines.py) many games are played in one compiled call (``compiled_games``), each from its own
stream seed: the same games in whatever batches and on whatever workers.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from interpreter.dsl.types import VALUE
from interpreter.engine.card_values import readable
from interpreter.engine.game import Game
from interpreter.errors import AgentError
from interpreter.harness.deal_files import FixedDeal, fixed_deal
from interpreter.harness.distributed import on_dask
from interpreter.harness.engines import machine_for, run_game, searched_compiled, stream_seed
from interpreter.harness.greedy import takes_pay
from interpreter.harness.played import Played, sides_of
from interpreter.harness.players import ITERATIONS, agent_factory, play_command
from interpreter.harness.runner import play_game, process_pool
from interpreter.limits import AGENT_MEMORY_MB, AGENT_SECONDS

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
MAX_VALUES = 8  # values of one round value listed by name; the rest are counted together
CHUNK = 10  # games per task of a worker, at most (of quick agents; a game of a search or of agents of one's own is
QUICK = {"random", "greedy"}  # a task of its own, so that progress shows as each game ends)
COMPILED_CHUNK = 500  # games per task of a worker on the compiled backend, at most (one compiled call)
FIRST_BATCH = 8  # games of the first compiled call of a run on this process; each next one twice as many, at most:
BATCH = 500  # (so that the progress line moves soon, and Ctrl-C is heard between calls)


def game_seed(seed: Any, index: int) -> str:
    """The seed of game ``index`` in a simulation: replay one with ``play --seed``."""
    return f"{seed}/{index}"


@dataclass(frozen=True)
class Setup:
    """Everything a worker needs to play games of a run (plain data: it travels to other processes)."""

    rules: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    agents: tuple[str, ...] = ()  # one per seat (default: random)
    rotate: bool = False  # game i seats the agents turned by i places, so each agent sits everywhere
    iterations: int = ITERATIONS
    seconds: float | None = None
    allow: tuple[Path, ...] = ()
    digest: bool = False  # record each game and keep a digest of its record (to compare runs)
    deal: tuple[str, str | None] | None = None  # every game starts from this deal file's board (deal_files.py)
    agent_limits: tuple[float, int] = (AGENT_SECONDS, AGENT_MEMORY_MB)  # agents of your own: s a decision, MB
    engine: str = "python"  # or "compiled": random and greedy agents on the compiled backend (engines.py)
    search: str | None = None  # the engine asked for ismcts's searches (engines.search_machine; None: the default)

    def lineup(self, index: int) -> list[str]:
        names = list(self.agents) or ["random"]
        names += [names[-1]] * (self.players - len(names))
        if self.rotate:
            k = index % self.players
            names = names[-k:] + names[:-k] if k else names
        return names


def _replayed(setup: Setup, lineup: list[str]) -> str:
    """The engine a game of the run is played again with (its play command's): compiled where its random agents or
    its searches ran compiled."""
    return "compiled" if setup.engine == "compiled" or searched_compiled(setup.search, lineup) else "python"


def play_one(setup: Setup, seed: Any, index: int, game: Game | None = None) -> Played:
    game = game or run_game(setup.rules, setup.players, setup.options, setup.allow)
    if setup.engine == "compiled":
        return compiled_games(setup, seed, index, index + 1, game)[0]
    names = setup.lineup(index)
    s = game_seed(seed, index)
    ended: list[dict[str, Any]] = []
    teams: list[list[int]] = []
    deal = None if setup.deal is None else _fixed(game, *setup.deal)
    try:
        agents = agent_factory(names, setup.iterations, setup.seconds, setup.agent_limits, setup.search)(s)
        out = play_game(game, agents, seed=s,
                        round_values=ended, round_teams=teams, record=setup.digest, deal=deal)
    except AgentError as exc:  # which game of the run, and how to see it again
        again = play_command(setup.rules, game.player_count, s, game.options, names, setup.iterations, setup.seconds,
                             deal=None if setup.deal is None else setup.deal[0],
                             board=None if setup.deal is None else setup.deal[1], limits=setup.agent_limits,
                             engine=_replayed(setup, names))
        raise AgentError(f"{exc}\n(game {index} of the run, seed {s}; play it again: {again})") from None
    digest = hashlib.sha256(json.dumps(out.record).encode()).hexdigest() if setup.digest else ""
    return Played(index, s, names, out.totals, out.winners, out.rounds, _outcomes(game, ended), digest,
                  sides_of(teams, game.players))


def compiled_games(setup: Setup, seed: Any, start: int, stop: int, game: Game | None = None) -> list[Played]:
    """Games ``start`` .. ``stop - 1`` of a run on the compiled backend, in one compiled call (compiled/batch.py):
    each from the compiled random stream seeded from its game seed, its seats played by its lineup's agents."""
    from interpreter.compiled.batch import play_batch

    game = game or run_game(setup.rules, setup.players, setup.options, setup.allow)
    machine = machine_for(setup.rules, setup.players, setup.options, setup.allow)
    lineups = [setup.lineup(i) for i in range(start, stop)]
    seeds = [game_seed(seed, i) for i in range(start, stop)]
    pays = takes_pay(game) if any("greedy" in names for names in lineups) else True
    done = play_batch(machine, [stream_seed(s) for s in seeds], lineups, pays)
    memo: dict[tuple[str, type, Any], str | None] = {}
    return [Played(i, s, names, d.totals, d.winners, d.rounds, _outcomes(game, d.ended, memo),
                   sides=sides_of(d.teams, game.players))
            for i, s, names, d in zip(range(start, stop), seeds, lineups, done)]


@lru_cache(maxsize=4)
def _fixed(game: Game, path: str, board: str | None) -> FixedDeal:
    """A deal file read once in a worker for the games of its runs."""
    return fixed_deal(game, path, board)


def _outcomes(game: Game, ended: list[dict[str, Any]], memo: dict[tuple[str, type, Any], str | None] | None = None
              ) -> dict[str, Counter]:
    """The public round values at the end of each round, as people read them (seats and cards by name,
    records by label); lists are left out. ``memo``: each value's text found before (for many games of one run)."""
    counts: dict[str, dict[str, int]] = {}
    for values in ended:
        for name, value in values.items():
            text = _outcome_text(game, name, value) if memo is None else _remembered(memo, game, name, value)
            if text is not None:
                into = counts.setdefault(name, {})
                into[text] = into.get(text, 0) + 1
    return {name: Counter(c) for name, c in counts.items()}


def _remembered(memo: dict[tuple[str, type, Any], str | None], game: Game, name: str, value: Any) -> str | None:
    """``_outcome_text``, found once for each value (by its type too: true and 1 are equal keys, not equal texts);
    a value that cannot be a key (a list, a record) each time."""
    key = (name, type(value), value)
    try:
        hash(key)
    except TypeError:
        return _outcome_text(game, name, value)
    if key not in memo:
        memo[key] = _outcome_text(game, name, value)
    return memo[key]


def _outcome_text(game: Game, name: str, value: Any) -> str | None:
    """A round value as a summary's round outcomes name it (None: left out)."""
    if isinstance(value, (list, tuple)) or name in ("number", "dealer") \
            or game.visibility.get(name, "all") != "all":  # a list is read as a list: left out at once
        return None
    value = readable(game, game.value_types.get(name, VALUE), value)
    if isinstance(value, (list, dict)):
        return None
    return "none" if value is None else _option(value)


def run_chunk(task: tuple[Setup, Any, int, int]) -> list[Played]:
    """Games ``start`` .. ``stop - 1`` of a run (one task of a worker)."""
    setup, seed, start, stop = task
    if setup.engine == "compiled":
        return compiled_games(setup, seed, start, stop)
    return [play_one(setup, seed, i) for i in range(start, stop)]


def games_of(setup: Setup, games: int, seed: Any, game: Game | None = None, workers: int = 1,
             backend: str = "processes", scheduler: str | None = None, verbose: bool = False
             ) -> Generator[Played, None, None]:
    """The games of a run in game order: on this process (``game``: its rules compiled already), one by one, or on
    the compiled backend many a call (the first calls small, so that progress shows at once); else as
    ``play_many`` plays them."""
    if workers > 1 or backend != "processes":
        yield from play_many(setup, games, seed, workers, backend, scheduler, verbose)
        return
    if setup.engine != "compiled":
        for i in range(games):
            yield play_one(setup, seed, i, game)
        return
    start, size = 0, FIRST_BATCH
    while start < games:
        stop = min(games, start + size)
        yield from compiled_games(setup, seed, start, stop, game)
        start, size = stop, min(BATCH, 2 * size)


def play_many(setup: Setup, games: int, seed: Any, workers: int = 1, backend: str = "processes",
              scheduler: str | None = None, verbose: bool = False) -> Generator[Played, None, None]:
    """The games of a run in game order: on this process, on ``workers`` processes, or on Dask (``dask``: a local
    cluster of processes or the ``scheduler`` given; ``dask-local``: Dask's threads in this process). No more
    processes are started than there are tasks. ``verbose``: Dask's log (and its workers') is shown."""
    workers = max(1, min(workers, games))
    most = COMPILED_CHUNK if setup.engine == "compiled" else CHUNK if set(setup.lineup(0)) <= QUICK else 1
    chunk = max(1, min(most, games // (4 * workers)))  # small enough to keep every worker busy to the end
    tasks = [(setup, seed, start, min(start + chunk, games)) for start in range(0, games, chunk)]
    workers = min(workers, len(tasks))
    if backend in ("dask", "dask-local"):
        for done in on_dask(run_chunk, tasks, workers, scheduler, backend == "dask", verbose):
            yield from done
        return
    if workers <= 1:
        for task in tasks:
            yield from run_chunk(task)
        return
    with process_pool(workers) as pool:
        for done in pool.imap(run_chunk, tasks):
            yield from done


# ---------------------------------------------------------------- statistics


@dataclass
class Estimate:
    """A mean with its 95% confidence interval: for a mean of any values the normal approximation; for a
    share (values from 0 to 1: a game won, a round ended so) Wilson's score interval, which stays inside 0 to
    1 and does not collapse to a point when every game or none went one way."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, values: list[float]) -> Estimate:
        """The mean of ``values`` with the normal approximation's interval."""
        n = len(values)
        if n == 0:
            return cls(0.0, 0.0, 0.0, 0)
        mean = sum(values) / n
        if n == 1:
            return cls(mean, mean, mean, 1)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        half = Z95 * sd / math.sqrt(n)
        return cls(mean, mean - half, mean + half, n)

    @classmethod
    def share(cls, values: list[float]) -> Estimate:
        """The share of games (or rounds) that went one way, each value from 0 to 1 (a shared win counts 1/k):
        the mean with Wilson's score interval. For fractional values the interval is conservative (a value's
        variance is at most that of a win or loss with the same mean)."""
        n = len(values)
        if n == 0:
            return cls(0.0, 0.0, 0.0, 0)
        low, high = wilson(sum(values), n)
        return cls(sum(values) / n, low, high, n)

    def as_json(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 4), "low": round(self.low, 4), "high": round(self.high, 4), "n": self.n}

    def text(self, percent: bool = False) -> str:
        if percent:
            return f"{self.mean:.1%} ({self.low:.1%} to {self.high:.1%})"
        return f"{self.mean:.2f} ({self.low:.2f} to {self.high:.2f})"


@dataclass
class Summary:
    game: str
    players: int
    games: int
    seed: Any
    options: dict[str, Any]
    seats: list[str]
    agents: list[str]  # the lineup of game 0
    rotate: bool
    score: list[Estimate]  # per seat
    wins: list[Estimate]  # a shared win counts 1/k for each of k winners
    by_agent: dict[str, dict[str, Estimate]]  # agent -> score, win share, margin
    ties: Estimate
    rounds: Estimate
    spread: Estimate  # best total minus worst total, per game
    totals: list[list[int]]  # per seat, every game's total (for distributions and plots)
    lengths: list[int]
    outcomes: dict[str, Counter]
    rounds_played: int
    extremes: dict[str, tuple[str, Any]]  # what -> (seed, value)
    replays: dict[str, str] = field(default_factory=dict)  # what -> the command that plays that game again
    asked: int | None = None  # the games asked for, when a Ctrl-C stopped the run before (``games`` were played)

    @property
    def mean_total(self) -> list[float]:
        return [e.mean for e in self.score]

    @property
    def win_share(self) -> list[float]:
        return [e.mean for e in self.wins]

    def options_text(self) -> str:
        return ", ".join(f"{k}={_option(v)}" for k, v in self.options.items())

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "options": self.options, "agents": dict(zip(self.seats, self.agents)), "rotate": self.rotate,
            "mean_total": {s: round(e.mean, 4) for s, e in zip(self.seats, self.score)},
            "win_share": {s: round(e.mean, 4) for s, e in zip(self.seats, self.wins)},
            "mean_rounds": round(self.rounds.mean, 4),
            "seats": {s: {"score": sc.as_json(), "win_share": w.as_json(), "totals": _quantiles(t)}
                      for s, sc, w, t in zip(self.seats, self.score, self.wins, self.totals)},
            "by_agent": {a: {k: e.as_json() for k, e in v.items()} for a, v in self.by_agent.items()},
            "tie_rate": self.ties.as_json(), "rounds": self.rounds.as_json(),
            "game_length": _quantiles(self.lengths), "score_spread": self.spread.as_json(),
            "outcomes": {name: {"rounds": self.rounds_played, "values": dict(c.most_common())}
                         for name, c in self.outcomes.items()},
            "extremes": {k: {"seed": s, "value": v, "replay": self.replays.get(k)}
                         for k, (s, v) in self.extremes.items()},
            "interrupted": None if self.asked is None else {"games": self.games, "asked": self.asked},
        }

    def as_text(self) -> str:
        head = f"{self.game}, {self.players} players, {self.games} games, seed {self.seed}"
        if self.asked is not None:
            head += f" (interrupted: {self.games:,} of the {self.asked:,} games asked)"
        if self.options:
            head += f", options {self.options_text()}"
        lines = [head, "every figure: the mean, then its 95% confidence interval", "",
                 f"{'seat':<12} {'agent':<8} {'mean score':>30} {'win share':>28}"]
        for s, a, sc, w in zip(self.seats, self.agents if not self.rotate else ["(turns)"] * self.players,
                               self.score, self.wins):
            lines.append(f"{s:<12} {a:<8} {sc.text():>30} {w.text(True):>28}")
        if len(self.by_agent) > 1 or self.rotate:
            lines += ["", f"{'agent':<8} {'mean score':>30} {'win share':>28} {'margin over the others':>30}"]
            for a, e in self.by_agent.items():
                lines.append(f"{a:<8} {e['score'].text():>30} {e['win_share'].text(True):>28} "
                             f"{e['margin'].text():>30}")
        lines += ["",
                  f"ties: {self.ties.text(True)} of games",
                  f"rounds per game: {self.rounds.text()}; " + _quantile_text(self.lengths),
                  f"score spread (best total minus worst): {self.spread.text()}"]
        for s, t in zip(self.seats, self.totals):
            lines.append(f"  {s} totals: " + _quantile_text(t))
        if self.outcomes:
            lines += ["", f"round outcomes ({self.rounds_played} rounds):"]
            for name, counts in self.outcomes.items():
                shown = counts.most_common(MAX_VALUES)
                rest = sum(counts.values()) - sum(c for _, c in shown)
                parts = [f"{v} {_share(c, self.rounds_played)}" for v, c in shown]
                if rest:
                    parts.append(f"{len(counts) - len(shown)} other values {_share(rest, self.rounds_played)}")
                lines.append(f"  {name}: " + ", ".join(parts))
        lines += ["", "extreme games (each with the command that plays it again, agents included):"]
        for what, (seed, value) in self.extremes.items():
            lines.append(f"  {what}: {value} (seed {seed})")
            if what in self.replays:
                lines.append(f"    {self.replays[what]}")
        return "\n".join(lines)


def summarise(game: Game, setup: Setup, seed: Any, played: list[Played]) -> Summary:
    n = game.players
    sign = 1 if game.flow.higher_wins else -1
    shares: list[list[float]] = [[] for _ in range(n)]
    totals: list[list[int]] = [[] for _ in range(n)]
    per_agent: dict[str, dict[str, list[float]]] = {}
    ties, lengths, spreads = [], [], []
    outcomes: dict[str, Counter] = {}
    for g in played:
        for s in range(n):
            won = 1 / len(g.winners) if s in g.winners else 0.0
            shares[s].append(won)
            totals[s].append(g.totals[s])
        for name in dict.fromkeys(g.lineup):  # each agent: the mean over the seats it held in this game
            mine = [s for s in range(n) if g.lineup[s] == name]
            others = [s for s in range(n) if g.lineup[s] != name] or [s for s in range(n)]
            mean_others = sum(g.totals[s] for s in others) / len(others)
            a = per_agent.setdefault(name, {"score": [], "win_share": [], "margin": []})
            a["score"].append(sum(g.totals[s] for s in mine) / len(mine))
            a["win_share"].append(sum(1 / len(g.winners) for s in mine if s in g.winners) / len(mine))
            a["margin"].append(sign * (sum(g.totals[s] for s in mine) / len(mine) - mean_others))
        ties.append(1.0 if g.tied else 0.0)
        lengths.append(g.rounds)
        spreads.append(max(g.totals) - min(g.totals))
        for name, counts in g.outcomes.items():
            outcomes.setdefault(name, Counter()).update(counts)
    extremes: dict[str, tuple[str, Any]] = {}
    replays: dict[str, str] = {}
    if played:
        best = max(played, key=lambda g: (sign * max(g.totals, key=lambda t: sign * t), -g.index))
        worst = min(played, key=lambda g: (sign * min(g.totals, key=lambda t: sign * t), g.index))
        longest = max(played, key=lambda g: (g.rounds, -g.index))
        shortest = min(played, key=lambda g: (g.rounds, g.index))
        widest = max(played, key=lambda g: (max(g.totals) - min(g.totals), -g.index))
        chosen = {"best total": (best, _best(best.totals, sign)),
                  "worst total": (worst, _best(worst.totals, -sign)),
                  "widest spread": (widest, max(widest.totals) - min(widest.totals)),
                  "longest game": (longest, f"{longest.rounds} rounds"),
                  "shortest game": (shortest, f"{shortest.rounds} rounds")}
        extremes = {what: (g.seed, value) for what, (g, value) in chosen.items()}
        deal, board = setup.deal or (None, None)
        replays = {what: play_command(setup.rules, game.player_count, g.seed, game.options, g.lineup,
                                      setup.iterations, setup.seconds, deal=deal, board=board,
                                      limits=setup.agent_limits, engine=_replayed(setup, g.lineup))
                   for what, (g, _) in chosen.items()}
    return Summary(
        game.name, game.player_count, len(played), seed, dict(game.options), list(game.seat_names),
        setup.lineup(0), setup.rotate, [Estimate.of([float(t) for t in ts]) for ts in totals],
        [Estimate.share(s) for s in shares],
        {a: {k: Estimate.share(v) if k == "win_share" else Estimate.of(v) for k, v in d.items()}
         for a, d in per_agent.items()},
        Estimate.share(ties), Estimate.of([float(r) for r in lengths]), Estimate.of([float(s) for s in spreads]),
        totals, lengths, outcomes, sum(lengths), extremes, replays)


def ready(setup: Setup) -> None:
    """A run on the compiled backend: its game compiled (or loaded) here once, so that workers load it from the
    user's cache instead of each compiling it."""
    if setup.engine == "compiled":
        compiled_games(setup, "ready", 0, 1)


def simulate(game: Game, games: int, seed: Any = 0, progress: Callable[[int, int], None] | None = None,
             setup: Setup | None = None, workers: int = 1, backend: str = "processes",
             scheduler: str | None = None, verbose: bool = False) -> Summary:
    """Play ``games`` games and summarise them. ``setup`` names the rule file other processes load and the
    agents (default: random agents, games played here); ``verbose``: show Dask's log."""
    played: list[Played] = []
    if setup is None:
        setup = Setup(game.name, game.players)
    ready(setup)
    if progress is not None:
        progress(0, games)  # (shown at once: the first games may take a while)
    source = games_of(setup, games, seed, game, workers, backend, scheduler, verbose)
    try:
        for g in source:
            played.append(g)
            if progress is not None:
                progress(len(played), games)
    except KeyboardInterrupt:  # the games finished so far are summarised, said to be a part of the run
        if not played:
            raise
    finally:  # a Ctrl-C here, between games: the workers are stopped now (quietly), not when the frame is freed
        source.close()
    summary = summarise(game, setup, seed, played)
    if len(played) < games:
        summary.asked = games
    return summary


def _best(totals: list[int], sign: int) -> int:
    return max(totals) if sign > 0 else min(totals)


def _quantiles(values: list[int]) -> dict[str, float]:
    if not values:
        return {}
    v = sorted(values)

    def q(p: float) -> float:
        return v[min(len(v) - 1, int(p * (len(v) - 1) + 0.5))]

    return {"min": v[0], "q1": q(0.25), "median": q(0.5), "q3": q(0.75), "max": v[-1]}


def _quantile_text(values: list[int]) -> str:
    q = _quantiles(values)
    return f"min {q['min']}, quartiles {q['q1']} / {q['median']} / {q['q3']}, max {q['max']}" if q else "none"


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion of ``successes`` in ``n`` (95% by default): never outside 0..1,
    and wider than zero at 0 and at n (4 of 4 gives 51% to 100%, not 100% to 100%)."""
    if n <= 0:
        return 0.0, 0.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n)))
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    return low, 1.0 if successes >= n else min(1.0, centre + half)


def _share(count: int, total: int) -> str:
    p = count / total if total else 0.0
    low, high = wilson(count, total)
    return f"{p:.1%} ({low:.1%} to {high:.1%})"


def _option(value: Any) -> str:
    """An option's or outcome's value as written in a rule file: true/false, numbers and texts as they are."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
