"""Conformance: random games of a rule file terminate, conserve cards after every action, give the same record
for the same seed, and replay identically from their record.

The test suite runs it on every bundled game (tests/test_conformance.py); ``trickbook conformance`` runs it on
any rule file, as many games as asked, on several processes.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.errors import TrickbookError
from interpreter.harness.records import replay, write_record
from interpreter.harness.runner import play_game, process_pool
from interpreter.rules.loader import load_rules

CHUNK = 50  # games per task of a worker process


class ConformanceError(TrickbookError):
    """A game broke an invariant (the message names the seed and what went wrong)."""


def seed_of(index: int) -> str:
    """The seed of conformance game ``index`` (the same in the test suite and the command)."""
    return f"conformance/{index}"


@dataclass
class Played:
    rounds: int
    actions: int


def check_game(game: Game, index: int, folder: Path, fully: bool = True) -> Played:
    """Play conformance game ``index``; with ``fully`` check every invariant. Raise ConformanceError."""
    seed = seed_of(index)
    deck = sorted(game.deck)
    actions = [0]

    def conserved(state) -> None:  # every card of the deck is in exactly one place, after every action
        actions[0] += 1
        cards = sorted(state.all_cards())
        if cards != deck:
            raise ConformanceError(f"seed {seed}: after action {actions[0]} (round {state.round_number}) "
                                   f"{len(cards)} cards of {len(deck)} are in play, or a card is in two places")

    def count(_state) -> None:
        actions[0] += 1

    try:
        first = play_game(game, seed=seed, record=fully, after_each=conserved if fully else count)
    except ConformanceError:
        raise
    except TrickbookError as exc:  # a rule error in play, or a game that does not end
        raise ConformanceError(f"seed {seed}: {exc}") from None
    if len(first.round_results) != first.rounds or sum(map(sum, zip(*first.round_results))) != sum(first.totals):
        raise ConformanceError(f"seed {seed}: the round scores do not add up to the totals")
    if fully:
        again = play_game(game, seed=seed, record=True)
        if again.record != first.record:
            raise ConformanceError(f"seed {seed}: the same seed gave a different record")
        path = folder / f"{index}.jsonl"
        try:
            write_record(path, first.record)
        except OSError as exc:  # a full disk: not a failure of the game, the run cannot go on
            raise TrickbookError(f"cannot write {path}: {exc.strerror or exc}") from None
        try:
            replayed = replay(path, game=game)
        except TrickbookError as exc:
            raise ConformanceError(f"seed {seed}: the record does not replay: {exc}") from None
        if (replayed.totals, replayed.winners, replayed.rounds) != (first.totals, first.winners, first.rounds):
            raise ConformanceError(f"seed {seed}: the replay ended differently from the game")
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        if lines[0]["type"] != "game" or lines[-1]["type"] != "result":
            raise ConformanceError(f"seed {seed}: the record does not begin with the game and end with the result")
        path.unlink()
    return Played(first.rounds, actions[0])


@dataclass
class Tally:
    """What a run of conformance games of one rule file and player count found."""

    game: str
    players: int
    games: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.rounds += other.rounds
        self.actions += other.actions
        self.seconds += other.seconds
        self.failures += other.failures


@lru_cache(maxsize=4)  # a worker keeps the few games of its runs, not every game it was ever given
def _compiled(name: str, players: int, allow: tuple[Path, ...]) -> Game:
    return compile_game(load_rules(name, allow), players)


def run_chunk(task: tuple[str, int, int, int, tuple[Path, ...]]) -> Tally:
    """Games ``start`` .. ``stop - 1`` of one rule file and player count (one task of a worker process)."""
    name, players, start, stop, allow = task
    tally = Tally(name, players)
    game = _compiled(name, players, allow)
    began = time.perf_counter()
    try:
        tmp = tempfile.mkdtemp(prefix="trickbook-conformance-")
    except OSError as exc:
        raise TrickbookError(f"cannot write {tempfile.gettempdir()}: {exc.strerror or exc}") from None
    try:
        for index in range(start, stop):
            try:
                played = check_game(game, index, Path(tmp))
            except ConformanceError as exc:
                tally.failures.append(str(exc))
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


def run(cases: list[tuple[str, int]], games: int, workers: int = 1, allow: tuple[Path, ...] = (),
        progress: Callable[[int, int, int], None] | None = None, chunk: int = CHUNK, first: int = 0) -> list[Tally]:
    """``games`` conformance games for each (rule file, player count), from game number ``first`` on (so a
    long run can be continued); one tally per case, in order. At most one worker process per task is started."""
    stop = first + games
    tasks = [(name, n, start, min(start + chunk, stop), allow)
             for name, n in cases for start in range(first, stop, chunk)]
    workers = min(workers, len(tasks))
    tallies = {case: Tally(*case) for case in cases}
    done = failed = 0
    total = games * len(cases)
    for tally in _results(tasks, workers):
        tallies[(tally.game, tally.players)].add(tally)
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
