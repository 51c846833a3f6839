"""Runs of the conformance battery (battery.py) over many games of rule files and player counts, on several
processes: ``trickbook conformance``. The test suite runs the battery itself (tests/test_conformance.py).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from interpreter.conformance.battery import RECORDS, Checks, ConformanceError, Played, check_game
from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.errors import TrickbookError
from interpreter.harness.runner import process_pool
from interpreter.rules.loader import load_rules

CHUNK = 50  # games per task of a worker process
Options = tuple[tuple[str, Any], ...]  # the options given to a run, as (name, value) pairs


@dataclass
class Tally:
    """What a run of conformance games of one rule file and player count found."""

    game: str
    players: int
    options: Options = ()
    games: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)  # what broke, each naming its seed
    failed: list[int] = field(default_factory=list)  # the numbers of the games that failed, in the same order

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.actions += other.actions
        self.seconds += other.seconds
        self.failures += other.failures
        self.failed += other.failed


@lru_cache(maxsize=4)  # a worker keeps the few games of its runs, not every game it was ever given
def _compiled(name: str, players: int, allow: tuple[Path, ...], options: Options) -> Game:
    return compile_game(load_rules(name, allow), players, dict(options))


def run_chunk(task: tuple[str, int, Options, int, int, tuple[Path, ...], Checks]) -> Tally:
    """Games ``start`` .. ``stop - 1`` of one rule file, player count and options, checked as ``checks`` ask (one
    task of a worker process)."""
    name, players, options, start, stop, allow, checks = task
    tally = Tally(name, players, options)
    game = _compiled(name, players, allow, options)
    rules_file = name if name.endswith((".yaml", ".yml")) else None  # a bundled game is named by its name
    began = time.perf_counter()
    try:
        tmp = tempfile.mkdtemp(prefix="trickbook-conformance-")
    except OSError as exc:
        raise TrickbookError(f"cannot write {tempfile.gettempdir()}: {exc.strerror or exc}") from None
    try:
        for index in range(start, stop):
            try:
                played = check_game(game, index, Path(tmp), checks, rules_file)
            except ConformanceError as exc:
                tally.failures.append(str(exc))
                tally.failed.append(index)
                played = Played(0, 0)
            tally.games += 1
            tally.rounds += played.rounds
            tally.actions += played.actions
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    tally.seconds = time.perf_counter() - began
    return tally


def task_count(cases: int, games: int, chunk: int = CHUNK) -> int:
    """How many tasks :func:`run` makes of ``games`` games of each of ``cases`` cases: more worker processes
    than that would wait for nothing."""
    return cases * -(-games // chunk)


def run(cases: list[tuple[str, int, Options]], games: int, workers: int = 1, allow: tuple[Path, ...] = (),
        progress: Callable[[int, int, int], None] | None = None, chunk: int = CHUNK, first: int = 0,
        checks: Checks = RECORDS) -> list[Tally]:
    """``games`` conformance games for each (rule file, player count, options), from game number ``first`` on (so a
    long run can be continued), each checked as ``checks`` ask; one tally per case, in order. At most one worker
    process per task is started."""
    stop = first + games
    tasks = [(name, n, options, start, min(start + chunk, stop), allow, checks)
             for name, n, options in cases for start in range(first, stop, chunk)]
    workers = min(workers, len(tasks))
    tallies = {case: Tally(*case) for case in cases}
    done = failed = 0
    total = games * len(cases)
    for tally in _results(tasks, workers):
        tallies[(tally.game, tally.players, tally.options)].add(tally)
        done += tally.games
        failed += len(tally.failures)
        if progress is not None:
            progress(done, total, failed)
    return list(tallies.values())


def _results(tasks: list[tuple], workers: int) -> Iterator[Tally]:
    if workers <= 1:
        yield from map(run_chunk, tasks)
        return
    with process_pool(workers) as pool:
        yield from pool.imap_unordered(run_chunk, tasks)
