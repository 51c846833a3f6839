"""``trickbook conformance``: random games of rule files, each checked (it ends, keeps every card, gives the same
record for the same seed, replays from its record), on several processes, with a table of what was played."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from interpreter.commands.common import MAX_GAMES, UsageError, allowed, chosen_options, duration, workers
from interpreter.engine.compile import supported_players
from interpreter.errors import TrickbookError
from interpreter.rules.catalog import bundled_games
from interpreter.rules.loader import load_rules

if TYPE_CHECKING:
    from interpreter.conformance.runs import Tally


def conformance(args: argparse.Namespace) -> int:
    from interpreter.conformance import battery, runs

    if args.games < 1 or args.first < 0:
        raise UsageError("--games must be at least 1, --first at least 0")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES:,}, not {args.games:,}")
    processes = workers(args.workers)
    allow = allowed(args)
    names = args.games_to_check or list(bundled_games())
    cases = []
    for name in names:
        source = load_rules(name, allow)  # a broken file is reported before any game
        counts = supported_players(source)
        wanted = args.players or counts
        for n in wanted:
            if n not in counts:
                raise TrickbookError(f"{name} is for {', '.join(map(str, counts))} players, not {n}")
        try:  # each file must declare every option given
            options = tuple(chosen_options(source, args.option).items())
        except TrickbookError as exc:
            raise TrickbookError(f"{name}: {exc}") from None
        cases += [(name, n, options) for n in wanted]
    processes = min(processes, runs.task_count(len(cases), args.games))  # none waits for nothing
    started = time.monotonic()
    shown = [started]

    def progress(done: int, total: int, failed: int) -> None:
        now = time.monotonic()
        if sys.stderr.isatty() and not args.json and (now - shown[0] >= 1.0 or done == total):
            shown[0] = now
            left = (total - done) * (now - started) / max(done, 1)
            print(f"\r  {done:,}/{total:,} games, {failed} failures, about {duration(left)} left  ",
                  end="" if done < total else "\n", file=sys.stderr, flush=True)

    checks = {"ends": battery.ENDS, "records": battery.RECORDS, "all": battery.ALL}[args.checks]
    tallies = runs.run(cases, args.games, processes, allow, progress, first=args.first, checks=checks)
    _told(args, tallies, time.monotonic() - started, processes)
    return 1 if sum(len(t.failures) for t in tallies) else 0


def _told(args: argparse.Namespace, tallies: list[Tally], elapsed: float, processes: int) -> None:
    """What the run found: one JSON object with --json, else a table of the cases and the first failures of
    each, with the command that plays a failed game again."""
    failures = sum(len(t.failures) for t in tallies)
    if args.json:
        print(json.dumps({"games": sum(t.games for t in tallies), "seconds": round(elapsed, 1), "workers": processes,
                          "checks": args.checks, "failures": failures, "cases": [
                              {"game": t.game, "players": t.players, "options": dict(t.options), "games": t.games,
                               "rounds": t.rounds,
                               "actions": t.actions, "seconds": round(t.seconds, 2), "failures": t.failures}
                              for t in tallies]}))
        return
    given = sorted({f"{k}={str(v).lower() if isinstance(v, bool) else v}" for t in tallies for k, v in t.options})
    if given:
        print(f"options: {', '.join(given)}")
    print(f"{'game':<28} {'players':>7} {'games':>8} {'rounds':>9} {'actions':>11} {'games/s':>8} {'failures':>8}")
    for t in tallies:
        rate = t.games / t.seconds if t.seconds else 0.0
        print(f"{t.game:<28} {t.players:>7} {t.games:>8,} {t.rounds:>9,} {t.actions:>11,} {rate:>8.1f} "
              f"{len(t.failures):>8}")
    print(f"{sum(t.games for t in tallies):,} games in {duration(elapsed)} on {processes} "
          f"process{'es' if processes > 1 else ''}, {failures} failures")
    from interpreter.conformance.battery import seed_of

    for t in tallies:
        for problem, index in list(zip(t.failures, t.failed))[:5]:
            said = "".join(f" -o {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in t.options)
            print(f"{problem}\n  (see it: trickbook play {t.game} -p {t.players}{said} --seed {seed_of(index)})")
