"""The commands that play many games: ``simulate`` (one rule file, summarised with confidence intervals) and
``compare`` (two rule files with the same seeds and agents, their differences tested), with a progress line on a
terminal and an HTML report with --report."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from interpreter.commands.common import (
    MAX_GAMES,
    UsageError,
    agent_limits,
    allowed,
    compiled,
    deal,
    duration,
    players,
    search_args,
    seed,
    setup,
    workers,
)
from interpreter.commands.output import writing
from interpreter.engine.compile import supported_players
from interpreter.harness.engine_choice import chosen_engine
from interpreter.harness.engines import why_not
from interpreter.rules.loader import load_rules


def simulate(args: argparse.Namespace) -> int:
    from interpreter.harness import simulate as simulation
    from interpreter.harness.players import parse_agents

    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES:,}, not {args.games:,}")
    search_args(args)
    if args.scheduler and args.backend != "dask":
        raise UsageError("--scheduler goes with --backend dask")
    processes = min(workers(args.workers), args.games)  # more processes than games would wait for nothing
    source, game = setup(args)
    first = seed(args.seed or "0")
    start = deal(args, game)  # a deal file that does not fit is refused before any game is played
    lineup = tuple(parse_agents(args.agents, game.players))
    engine = chosen_engine(args.engine, game, list(lineup), deal=start is not None, say=said, games=args.games)
    run_setup = simulation.Setup(args.game, args.players, tuple(game.options.items()), lineup, args.rotate,
                                 args.iterations, args.move_time, allowed(args),
                                 deal=None if start is None else (args.deal, args.board),
                                 agent_limits=agent_limits(args), engine=engine, search=args.engine)
    progress = progress_line(args.json)

    def run() -> Any:
        return simulation.simulate(game, args.games, first, progress, run_setup, processes, args.backend,
                                   args.scheduler, args.verbose)

    from interpreter.harness.report import html_report

    return reported(args, run, html_report)


def said(line: str) -> None:
    """A line about how the games are played, on standard error (the summary stays alone on standard output)."""
    print(line, file=sys.stderr)


def reported(args: argparse.Namespace, run: Callable[[], Any], page: Callable[[Any], str]) -> int:
    """Run a command that plays games (``run``) and print what it found (``as_text()``, or ``as_json()`` with
    --json), with --report its HTML ``page`` too. The report's file is opened before any game is played, so a
    path that cannot be written fails at once."""
    with writing(args.report, "report") as report:
        result = run()
        if report is not None:
            report.write(page(result))
    asked = getattr(result, "asked", None)
    if asked is not None:  # a Ctrl-C stopped the run: what was played is shown, and the run said to be a part
        print(("\n" if sys.stderr.isatty() else "") + f"interrupted: the figures are of the {result.games:,} games "
              f"played of the {asked:,} asked", file=sys.stderr)
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        print(result.as_text())
        if report is not None:
            print(f"report written to {args.report}")
    return 0 if asked is None else 130


def progress_line(quiet: bool, what: str = "games") -> Callable[[int, int], None]:
    """A progress line on a terminal only (not when ``quiet``), with the time left."""
    started = time.monotonic()
    shown = [started]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if sys.stderr.isatty() and not quiet and (now - shown[0] >= 0.5 or done in (0, total)):
            shown[0] = now
            left = (total - done) * (now - started) / max(done, 1)
            bar = "#" * (20 * done // total)
            when = f"about {duration(left)} left" if done else "the first under way"
            print(f"\r  [{bar:<20}] {done:,}/{total:,} {what}, {when}  ",
                  end="" if done < total else "\n", file=sys.stderr, flush=True)

    return progress


def compare(args: argparse.Namespace) -> int:
    from interpreter.harness import compare as comparison
    from interpreter.harness.compare import Correction, Seating, forced_seats, seating_difference
    from interpreter.harness.players import parse_agents
    from interpreter.harness.simulate import Setup

    if not 2 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be from 2 to {MAX_GAMES:,}, not {args.games:,} (a paired test needs two "
                         "games at least)")
    if not 0 < args.detect <= 100:
        raise UsageError(f"--detect takes percentage points above 0 and at most 100, not {args.detect}")
    if not 0 < args.error_rate < 100:
        raise UsageError(f"--error-rate takes a percentage above 0 and below 100, not {args.error_rate}")
    correction = Correction(args.correction, args.error_rate / 100)
    search_args(args)
    processes = min(workers(args.workers), args.games)
    files = []
    sources = [load_rules(given, allowed(args)) for given in (args.base, args.variant)]
    players(args, *sources)
    for given, options, source in ((args.base, args.option + args.base_option, sources[0]),
                                   (args.variant, args.option + args.variant_option, sources[1])):
        if args.players not in supported_players(source):
            counts = ", ".join(map(str, supported_players(source)))
            raise UsageError(f"cannot compare with {args.players} players: {given} is for {counts} players, "
                             f"not {args.players} (both files must support the player count)")
        files.append(compiled(args, source, options))
    base, variant = files
    seating = [Seating(given, tuple(g.seat_names), g.automatic) for given, g in ((args.base, base),
                                                                                 (args.variant, variant))]
    differ = seating_difference(seating[0], seating[1], args.players)
    if differ and not args.force:
        raise UsageError(f"{differ}. compare pairs the seats of the two files, so their seats must be the same "
                         "(names, number and automatic seats); --force compares them anyway (docs/agents.md)")
    seats = forced_seats(seating[0], seating[1]) if differ else list(base.seat_names)
    forced = "" if not differ else differ + (
        "; seats compared by their place" if seats is not None else
        "; the figures of each seat are left out, games paired by their seed")
    first = seed(args.seed or "0")
    lineups = [tuple(parse_agents(args.agents, g.players)) for g in files]
    # one engine for both files (a game of each is paired by its seed, so both draw from the same stream)
    engine = chosen_engine(args.engine, files[0], list(lineups[0]), games=2 * args.games,
                           say=None if why_not(files[1], list(lineups[1])) else said)
    if engine == "compiled" and (reason := why_not(files[1], list(lineups[1]))) is not None:
        if args.engine == "compiled":
            raise UsageError(f"--engine compiled cannot play {args.variant}'s games: {reason}")
        engine = "python"
        said(f"engine: python ({args.variant}: {reason})")
    progress = progress_line(args.json, "games of each file")

    def run() -> Any:
        setups = [Setup(name, args.players, tuple(game.options.items()), lineup, args.rotate, args.iterations,
                        args.move_time, allowed(args), agent_limits=agent_limits(args), engine=engine,
                        search=args.engine)
                  for name, game, lineup in ((args.base, base, lineups[0]), (args.variant, variant, lineups[1]))]
        played = _both(setups, (base, variant), args.games, first, processes, progress)
        paired = min(len(p) for p in played)
        result = comparison.compare(played[0][:paired], played[1][:paired], seats=seats,
                                  base_name=named(args.base, args.option + args.base_option),
                                  variant_name=named(args.variant, args.option + args.variant_option), seed=first,
                                  agents=list(lineups[0]), rotate=args.rotate, detect=args.detect / 100,
                                  correction=correction, forced=forced, players=args.players)
        if paired < args.games:
            result.asked = args.games
        return result

    from interpreter.harness.report import compare_report

    return reported(args, run, compare_report)


def _both(setups: list[Any], games: tuple[Any, Any], count: int, first: Any, processes: int,
          progress: Callable[[int, int], None]) -> list[list[Any]]:
    """``count`` games of each file (the base's, then the variant's), on ``processes``; a Ctrl-C among the variant's
    games keeps the games of each played so far (two at least), for the pairs finished to be compared."""
    from interpreter.harness.simulate import games_of, ready

    played: list[list[Any]] = []
    progress(0, 2 * count)
    for run_setup, game in zip(setups, games, strict=True):
        ready(run_setup)
        made = games_of(run_setup, count, first, game, processes)
        done: list[Any] = []
        try:
            for g in made:
                done.append(g)
                progress(len(done) + len(played) * count, 2 * count)
        except KeyboardInterrupt:  # the games paired so far are compared, said to be a part of the run
            if len(played) == 0 or len(done) < 2:
                raise
            played.append(done)
            break
        finally:
            made.close()
        played.append(done)
    return played


def named(given: str, options: list[str]) -> str:
    """A file as the comparison names it: as given, with the options set for it."""
    return f"{given} ({', '.join(o.replace(' ', '') for o in options)})" if options else given
