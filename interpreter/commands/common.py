"""What the commands share: the bounds of their numbers, a usage error, and the reading of the arguments several
commands take (the game compiled for its players and options, the seed, a deal file, the agents' limits, the
workers, --allow-path) and the time left as people read it."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.engine.compile import compile_game, supported_players
from interpreter.errors import TrickbookError
from interpreter.limits import MAX_DIGITS, whole_number
from interpreter.rules import options as declared_options
from interpreter.rules.loader import load_rules

if TYPE_CHECKING:
    from interpreter.engine.game import Game
    from interpreter.harness.deal_files import FixedDeal
    from interpreter.rules.source import RuleSource

MAX_WORKERS = 256  # --workers at most: a mistyped number must not start thousands of processes
MAX_GAMES = 10_000_000  # --games at most: the run's tasks are listed before the first game
MAX_AGENT_SECONDS = 86_400  # --agent-timeout at most: a day for one decision
MAX_AGENT_MEMORY_MB = 1 << 24  # --agent-memory at most (16 TB): more is no limit, which 0 says


class UsageError(TrickbookError):
    """A command-line argument out of its range: one line, exit status 2 (as argparse's own errors)."""


def allowed(args: argparse.Namespace) -> tuple[Path, ...]:
    return tuple(Path(d) for d in getattr(args, "allow_path", None) or ())


def setup(args: argparse.Namespace, game: str | None = None,
          options: list[str] | None = None) -> tuple[RuleSource, Game]:
    """The rule file ``game`` (default: the command's GAME) compiled for the players and options given."""
    source = load_rules(args.game if game is None else game, allowed(args))
    return source, compiled(args, source, args.option if options is None else options)


def compiled(args: argparse.Namespace, source: RuleSource, options: list[str]) -> Game:
    """The rule file read as ``source`` compiled for the command's players and the options given."""
    return compile_game(source, players(args, source), chosen_options(source, options))


def chosen_options(source: RuleSource, options: list[str]) -> dict[str, Any]:
    """The ``--option NAME=VALUE`` items given, each read as the rule file declares the option (one it does not
    declare, or a value of another kind, is refused naming what it takes)."""
    chosen = {}
    for item in options:
        if "=" not in item:
            raise TrickbookError(f"--option takes NAME=VALUE, not {item!r} "
                                 f"(options: {', '.join(declared_options.defaults(source.data)) or 'none'})")
        k, v = item.split("=", 1)
        chosen[k.strip()] = declared_options.parsed(source.data, k.strip(), v.strip())
    return chosen


def players(args: argparse.Namespace, source: RuleSource, *others: RuleSource) -> int:
    """The player count: ``-p``, or else the one count ``source`` (and ``others``: the files compared with it) all
    support, kept in ``args``; with several, a UsageError listing them."""
    if args.players is None:
        counts = [n for n in supported_players(source) if all(n in supported_players(o) for o in others)]
        if len(counts) != 1:
            said = " or ".join(", ".join(map(str, counts)).rsplit(", ", 1)) if counts else "no common count of"
            what = "both files" if others else str(source.data.get("name") or source.file)
            raise UsageError(f"{what} can be played by {said} players: say how many with -p N")
        args.players = counts[0]
    return int(args.players)


def seed(text: str) -> Any:
    """A seed is a whole number or any other text; a number too long to be one is refused, and so is text a
    record cannot hold (harness/record_reader.seed_problem)."""
    from interpreter.match.record_reader import seed_problem

    number = whole_number(text)
    if number is None and text.lstrip("-").isascii() and text.lstrip("-").isdigit():
        raise TrickbookError(f"--seed takes a number of at most {MAX_DIGITS} digits (or any text)")
    value = number if number is not None else text
    problem = seed_problem(value)
    if problem:
        raise TrickbookError(f"--seed {problem}")
    return value


def deal(args: argparse.Namespace, game: Game) -> FixedDeal | None:
    """The start ``--deal`` and ``--board`` give (a deal file read for ``game``), or None."""
    if args.deal is None:
        if args.board is not None:
            raise UsageError("--board goes with --deal")
        return None
    from interpreter.harness.deal_files import fixed_deal

    return fixed_deal(game, args.deal, args.board)


def search_args(args: argparse.Namespace) -> None:
    if args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    if args.move_time is not None and not args.move_time > 0:
        raise UsageError("--move-time must be a positive number of seconds")
    if not 0 < args.agent_timeout <= MAX_AGENT_SECONDS:
        raise UsageError(f"--agent-timeout must be above 0 and at most {MAX_AGENT_SECONDS:,} seconds, not "
                         f"{args.agent_timeout:g}")
    if not 0 <= args.agent_memory <= MAX_AGENT_MEMORY_MB:
        raise UsageError(f"--agent-memory must be from 0 (no limit) to {MAX_AGENT_MEMORY_MB:,} MB, not "
                         f"{args.agent_memory:,}")


def agent_limits(args: argparse.Namespace) -> tuple[float, int]:
    """What agents of your own may take: seconds per decision, megabytes of memory."""
    return args.agent_timeout, args.agent_memory


def workers(count: int) -> int:
    if not 1 <= count <= MAX_WORKERS:
        raise UsageError(f"--workers must be from 1 to {MAX_WORKERS}, not {count}")
    return count


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
