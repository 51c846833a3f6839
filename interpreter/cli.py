"""The ``trickbook`` command: validate, list, play, simulate, replay.

Exit codes: 0 success, 1 a problem with the input (rule file, record, game) or an output that cannot be
written, 2 a usage error (bad command line), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

from interpreter import interrupts

_loading = interrupts.hold_while_loading()  # until this module is loaded (see its last lines)
try:
    import argparse
    import contextlib
    import errno
    import json
    import os
    import re
    import secrets
    import time
    from collections.abc import Callable
    from pathlib import Path

    from interpreter import __version__
    from interpreter.engine.compile import compile_game, rule_file_problems, supported_players
    from interpreter.errors import RuleError, RuleErrors, TrickbookError
    from interpreter.harness.players import AGENTS, ITERATIONS
    from interpreter.limits import AGENT_MEMORY_MB, AGENT_SECONDS, MAX_DIGITS, whole_number
    from interpreter.rules import options as declared_options
    from interpreter.rules.catalog import bundled_games, schema_path
    from interpreter.rules.loader import load_rules
except BaseException:
    interrupts.release(_loading)
    raise

# the harness (agents, records, simulation, conformance) is imported by the commands that use it, so that
# `validate` and `list` start without it

_POSITIONED = re.compile(r"^\S+:\d+:\d+: error: ")

MAX_WORKERS = 256  # --workers at most: a mistyped number must not start thousands of processes
MAX_GAMES = 10_000_000  # --games at most: the run's tasks are listed before the first game
MAX_AGENT_SECONDS = 86_400  # --agent-timeout at most: a day for one decision
MAX_AGENT_MEMORY_MB = 1 << 24  # --agent-memory at most (16 TB): more is no limit, which 0 says


class _UsageError(TrickbookError):
    """A command-line argument out of its range: one line, exit status 2 (as argparse's own errors)."""


class _OutputFailed(Exception):
    """Writing one of the command's outputs failed (not a TrickbookError, so that nothing on the way mistakes it
    for a problem of the game)."""

    def __init__(self, name: str, exc: OSError):
        super().__init__(f"cannot write {name}: {exc.strerror or exc}")
        self.name = name


class _Output:
    """A stream the command writes to (standard output, --record, --report): a write that fails is
    :class:`_OutputFailed` naming it; a closed pipe on standard output is left to :func:`main` (quiet). A closed
    standard output (None in Python) fails at the first write: what the command prints would be lost."""

    def __init__(self, stream: Any, name: str):
        self._stream, self._name = stream, name

    def _guard(self, method: str, *args: Any) -> Any:
        try:
            if self._stream is None:
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            return getattr(self._stream, method)(*args)
        except OSError as exc:
            if isinstance(exc, BrokenPipeError) and self._name == STDOUT:
                raise
            raise _OutputFailed(self._name, exc) from None

    def write(self, text: str) -> int:
        return self._guard("write", text) if text else 0

    def flush(self) -> None:
        if self._stream is not None:
            self._guard("flush")

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def close(self) -> None:
        self._guard("close")

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, ...: the stream's own
        return getattr(self._stream, name)


STDOUT = "standard output"


class _ErrorOutput:
    """Standard error while a command runs: a write that fails (a full disk, a closed pipe, a closed stream)
    loses its text, as nothing else can be told where errors go; :func:`main` still exits as it would have."""

    def __init__(self, stream: Any):
        self._stream = stream
        self.failed = False

    def _try(self, method: str, *args: Any) -> Any:
        try:
            if self._stream is None:
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            return getattr(self._stream, method)(*args)
        except (OSError, ValueError):  # ValueError: a closed file
            self.failed = True
            return None

    def write(self, text: str) -> int:
        self._try("write", text)
        return len(text)

    def flush(self) -> None:
        self._try("flush")

    def isatty(self) -> bool:
        return bool(self._try("isatty"))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors exit 2, as argparse does, with a hint
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="trickbook", description="Trick-taking card games written as data. "
                "'trickbook COMMAND --help' describes a command's arguments.")
    p.add_argument("--version", action="version", version=f"trickbook {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    v = sub.add_parser("validate", help="check rule files; print FILE:LINE:COL errors")
    v.add_argument("files", nargs="+", metavar="FILE", help="rule files (YAML) to check")

    sub.add_parser("list", help="list the bundled games")
    ex = sub.add_parser("explain", help="write a rule file out as a rulebook a player can read",
                        description="Write a rule file as a rulebook: players and cards, where cards lie, the "
                                    "terms it defines, each step of a round in order (what must be led and "
                                    "followed, what wins a trick, the scoring), the end of the game and every "
                                    "option, from the file's titles, descriptions and comments and its expressions "
                                    "in words. With --diff BASE: what the file changes in BASE.")
    ex.add_argument("game", metavar="GAME", help="a rule file, or a bundled game name")
    ex.add_argument("--format", choices=("md", "html"), default="md", help="Markdown (default) or HTML")
    ex.add_argument("--diff", metavar="BASE", help="say only what GAME changes in BASE (a rule file or bundled "
                    "game), e.g. a variant and the game it extends")
    sub.add_parser("schema", help="print the JSON Schema of rule files (for editors: docs/editor.md)",
                   description="Print the JSON Schema of rule files (draft-07, also valid 2020-12), e.g. "
                               "'trickbook schema > game.schema.json' for an editor that needs a local copy.")

    def game_args(q: argparse.ArgumentParser) -> None:
        q.add_argument("game", metavar="GAME", help="a rule file, or a bundled game name (see 'trickbook list')")
        q.add_argument("--players", "-p", type=int, required=True, metavar="N", help="how many players")
        q.add_argument("--seed", default=None, help="random seed: a number or any text; the same seed deals the "
                       "same game" + (" (default: a new one each time, printed so the game can be replayed)"
                                      if q is pl else " (default 0)"))
        q.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                       help="set a game option (repeatable)")

    pl = sub.add_parser("play", help="play one game with bots (and optionally you), told as it happens")
    si = sub.add_parser("simulate", help="play many games with bots and summarise them with 95%% confidence "
                        "intervals")
    game_args(pl)
    pl.add_argument("--human", metavar="SEAT", help="play this seat yourself (seat name or number from 1)")
    pl.add_argument("--record", metavar="FILE", help="write the game record (JSON Lines) to FILE")
    pl.add_argument("--quiet", "-q", action="store_true", help="print only the result")

    game_args(si)
    si.add_argument("--games", "-n", type=int, required=True, metavar="K",
                    help=f"how many games (at most {MAX_GAMES:,})")
    co = sub.add_parser("compare", help="play two rule files with the same seeds and agents and say which "
                        "differences are real", description="Play BASE and VARIANT with the same seeds and the same "
                        "agents in the same seats (paired games) and compare every statistic: the difference with "
                        "its 95%% interval, whether it is real at this number of games once the p-values are adjusted "
                        "for the number of figures compared (Holm's method by default), and how many games would "
                        "show it. The two files must seat alike (--force). (docs/agents.md, 'Comparing two rule "
                        "files')")
    for q in (pl, si):
        q.add_argument("--deal", metavar="FILE", help="start from a deal file (PBN, the portable deal notation, "
                       "read as the game's deck.notation says): the game starts at its board with its dealer, and "
                       "the first deal gives the hands it writes" + ("; every game of the run starts so"
                                                                    if q is si else ""))
        q.add_argument("--board", metavar="B", help="with --deal: the board to start from, by its Board tag "
                       "(default: the file's first)")
    for q in (pl, si, co):
        q.add_argument("--agents", "-a", default="random", metavar="A,B,...",
                       help="one agent per seat in seat order, the last repeated for the remaining seats"
                            + (" (your seat, with --human, is yours)" if q is pl else "") + ": "
                            + "; ".join(f"{k} ({v})" for k, v in AGENTS.items())
                            + "; or your own, as module:Class or path/to/file.py:Class, each seat in a process of its "
                              "own (docs/agents.md) (default random)")
        q.add_argument("--iterations", type=int, default=ITERATIONS, metavar="K",
                       help=f"ismcts: samples searched per move (default {ITERATIONS})")
        q.add_argument("--move-time", type=float, metavar="SECONDS",
                       help="ismcts: search each move for this long instead of a number of iterations")
        q.add_argument("--agent-timeout", type=float, default=AGENT_SECONDS, metavar="SECONDS",
                       help="agents of your own: the time each decision may take by the clock; one that takes "
                            f"longer stops the game, naming the agent (default {AGENT_SECONDS:g})")
        q.add_argument("--agent-memory", type=int, default=AGENT_MEMORY_MB, metavar="MB",
                       help="agents of your own: the address space of their processes, in megabytes; 0 for no "
                            f"limit (default {AGENT_MEMORY_MB:,})")
    for q in (si, co):
        q.add_argument("--rotate", action="store_true",
                       help="turn the agents one seat further each game, so every agent sits in every seat")
        q.add_argument("--workers", "-w", type=int, default=1, metavar="W",
                       help=f"processes to play on (default 1, at most {MAX_WORKERS}; never more than the games); "
                            "the results do not depend on it")
    si.add_argument("--backend", choices=("processes", "dask"), default="processes",
                    help="where the workers run: local processes (default) or Dask (pip install "
                         "'trickbook[dask]'), a local cluster of W workers or --scheduler")
    si.add_argument("--scheduler", metavar="ADDRESS", help="with --backend dask: a running Dask scheduler, "
                    "e.g. tcp://10.0.0.5:8786")
    si.add_argument("--report", metavar="FILE.html",
                    help="also write an HTML report with plots of the score distributions and seat advantage")
    si.add_argument("--json", action="store_true", help="print one JSON object (and no progress line)")
    si.add_argument("--verbose", action="store_true", help="with --backend dask: show the log of Dask and its "
                    "workers (e.g. the worker's traceback of a game that failed)")

    co.add_argument("base", metavar="BASE", help="a rule file or bundled game name")
    co.add_argument("variant", metavar="VARIANT", help="a rule file or bundled game name (the same may be "
                    "compared with other options: --variant-option)")
    co.add_argument("--players", "-p", type=int, required=True, metavar="N", help="how many players")
    co.add_argument("--games", "-n", type=int, default=200, metavar="K",
                    help=f"paired games: K of each file (default 200, at most {MAX_GAMES:,})")
    co.add_argument("--seed", default=None, help="random seed (default 0): game i of both files has seed SEED/i")
    co.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                    help="set an option of both files (repeatable)")
    co.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                    help="set an option of BASE only (repeatable)")
    co.add_argument("--variant-option", action="append", default=[], metavar="NAME=VALUE",
                    help="set an option of VARIANT only (repeatable)")
    co.add_argument("--detect", type=float, default=5.0, metavar="POINTS",
                    help="also say how many games would show a change of this many percentage points in a "
                         "seat's win share (default 5)")
    co.add_argument("--correction", choices=("holm", "bh"), default="holm",
                    help="how the p-values of all the figures are adjusted for their number: holm (Holm's method, "
                         "default: the chance that any figure without a difference is called real is at most "
                         "the error rate) or bh (Benjamini-Hochberg: of the differences called real, on average "
                         "at most the error rate are not)")
    co.add_argument("--error-rate", type=float, default=5.0, metavar="PERCENT",
                    help="the rate the correction holds (a percentage, default 5): the family-wise error rate "
                         "with holm, the false discovery rate with bh")
    co.add_argument("--force", action="store_true",
                    help="compare files whose seats differ (names, number or automatic seats): seats paired by "
                         "their place, or, when their numbers differ, only the figures of the whole game")
    co.add_argument("--report", metavar="FILE.html", help="also write an HTML report")
    co.add_argument("--json", action="store_true", help="print one JSON object (and no progress line)")

    r = sub.add_parser("replay", help="re-execute a game record and check it")
    r.add_argument("record", metavar="RECORD", help="a game record (JSON Lines) written by play --record")
    r.add_argument("--rules", metavar="FILE", help="use these rules instead of the ones the record names")

    c = sub.add_parser("conformance", help="play random games and check that they end, keep every card, give the "
                       "same record for the same seed and replay from their record")
    c.add_argument("games_to_check", nargs="*", metavar="GAME", help="rule files or bundled game names (default: "
                   "every bundled game)")
    c.add_argument("--games", "-n", type=int, default=100, metavar="K",
                   help=f"games per game file and player count (default 100, at most {MAX_GAMES:,})")
    c.add_argument("--players", "-p", type=int, action="append", metavar="N",
                   help="only this player count (repeatable; default: every count the file supports)")
    c.add_argument("--workers", "-w", type=int, default=1, metavar="W",
                   help=f"processes to play on (default 1, at most {MAX_WORKERS})")
    c.add_argument("--first", type=int, default=0, metavar="I", help="the number of the first game (its seed is "
                   "conformance/I; default 0), to continue a run")
    c.add_argument("--checks", choices=("ends", "records", "all"), default="records",
                   help="ends: only that each game ends and its scores add up; records (default): also every card "
                        "after every action, the same record for the same seed, the replay; all: also a clone at "
                        "every action, the state saved and read back, playout against the checked path, the records "
                        "of every driver (about ten times as long)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    sv = sub.add_parser("serve", help="start the web table: people and bots play any rule file in the browser",
                        description="Start the web table (pip install 'trickbook[web]'): open the address it prints, "
                                    "make a table of any bundled game or rule file of your own, and give each "
                                    "person their seat's link (docs/web.md). Each game's record is written to "
                                    "the records folder as it goes; tables found there are picked up again.")
    sv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                    "machine only; 0.0.0.0 lets other machines in)")
    sv.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    sv.add_argument("--records", metavar="DIR", default="trickbook-tables",
                    help="where the games' records and the rule files sent to the lobby are kept (default "
                         "./trickbook-tables)")
    sv.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                    help="a host name (or address) the server answers to besides 127.0.0.1, localhost and --host: "
                         "the name people type to reach it (repeatable; any other is refused)")
    sv.add_argument("--bot-workers", type=int, metavar="N", default=None,
                    help="worker processes searching bots (ismcts) search in (default: one a core)")
    sv.add_argument("--bot-timeout", type=float, metavar="SECONDS", default=None,
                    help="the longest one bot's decision may take before its worker is ended and its table stops "
                         "(default 600)")
    for q in (v, ex, pl, si, co, r, c):
        q.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                       help="let rule files and records name rule files under DIR too (repeatable); by default "
                            "they may name bundled games and files under their own folder only")
    return p


def main(argv: list[str] | None = None) -> int:
    stdout, stderr = sys.stdout, sys.stderr
    errors = _ErrorOutput(stderr)
    try:
        if argv is None:  # the trickbook program (not a call from Python, whose Ctrl-C is its own)
            interrupts.take_over()
        sys.stdout = _Output(stdout, STDOUT)  # a failed write names standard output
        sys.stderr = errors
        code = _run(_parser().parse_args(argv), program=argv is None)
        sys.stdout.flush()  # what is left in the buffer: a failure now is reported, not at Python's exit
        return code
    except _OutputFailed as exc:
        print(f"trickbook: error: {exc}", file=sys.stderr)
        if exc.name == STDOUT:
            _discard(stdout)
        return 1
    except BrokenPipeError:  # standard output read no further (e.g. piped into head): stop quietly
        _discard(stdout)
        return 0
    except KeyboardInterrupt:  # before or after the command (a command's own ends in _run)
        with interrupts.sigint_ignored(restore=argv is not None):
            print("interrupted", file=sys.stderr)
        return 130
    finally:
        errors.flush()
        if errors.failed:
            _discard(stderr)
        sys.stdout, sys.stderr = stdout, stderr
        if argv is None:
            interrupts.ignore_from_now()


def _discard(stream: Any) -> None:
    """Send what is still buffered for ``stream`` (and anything later) nowhere, so that Python's own flush at exit
    finds nothing to complain about."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _run(args: argparse.Namespace, program: bool = False) -> int:
    """Run the command; ``program``: this process is the ``trickbook`` program (it ends when the command does)."""
    try:
        return _COMMANDS[args.command](args)
    except _UsageError as exc:
        print(f"trickbook: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except RuleErrors as exc:
        for e in exc.errors:
            print(e.render(), file=sys.stderr)
        return 1
    except RuleError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except TrickbookError as exc:
        text = str(exc)
        print(text if _POSITIONED.match(text) else f"trickbook: error: {text}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # one line: the worker processes ignore SIGINT and are stopped by this one
        return _interrupted(restore=not program)
    except Exception as exc:  # raised while a Ctrl-C was being raised or handled: still that Ctrl-C
        if not interrupts.from_interrupt(exc):
            raise
        return _interrupted(restore=not program)


def _interrupted(restore: bool) -> int:
    with interrupts.sigint_ignored(restore):  # a second Ctrl-C now: the same line, not a traceback
        print(("\n" if sys.stderr.isatty() else "") + "interrupted", file=sys.stderr)
    return 130


MAX_SHOWN_ERRORS = 20  # per file: a file with hundreds of mistakes is reported in a screenful


def _validate(args: argparse.Namespace) -> int:
    bad = 0
    for f in args.files:
        errors = validate_file(f, _allowed(args))
        for e in errors[:MAX_SHOWN_ERRORS]:
            print(e, file=sys.stderr)
        if len(errors) > MAX_SHOWN_ERRORS:
            print(f"{f}: and {len(errors) - MAX_SHOWN_ERRORS} more errors", file=sys.stderr)
        if errors:
            bad += 1
        else:
            print(f"{f}: ok")
    return 1 if bad else 0


def _allowed(args: argparse.Namespace) -> tuple[Path, ...]:
    return tuple(Path(d) for d in getattr(args, "allow_path", None) or ())


def validate_file(name: str, allow: tuple[Path, ...] = ()) -> list[str]:
    """Every problem found in one rule file, as rendered error blocks."""
    return [e.render() for e in rule_file_problems(name, allow)]


def _explain(args: argparse.Namespace) -> int:
    from interpreter import explain

    source = load_rules(args.game, _allowed(args))
    blocks = explain.explain(source) if args.diff is None else explain.diff(source, load_rules(args.diff,
                                                                                                _allowed(args)))
    sys.stdout.write(explain.markdown(blocks) if args.format == "md" else explain.html(blocks))
    return 0


def _schema(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_path().read_text(encoding="utf-8"))
    return 0


def _list(args: argparse.Namespace) -> int:
    for name, path in bundled_games().items():
        try:
            source = load_rules(path, check=False)  # the bundled games are validated by the test suite
        except TrickbookError as exc:  # pragma: no cover - bundled games are tested
            print(f"{name}: broken ({exc})")
            continue
        counts = ", ".join(map(str, supported_players(source)))
        print(f"{name}  —  {source.data.get('title', name)}")
        print(f"    players: {counts}")
        for opt, spec in (source.data.get("options") or {}).items():
            print(f"    option {opt} (default {json.dumps(spec['default'])}): {spec['description']}")
    return 0


def _setup(args: argparse.Namespace, game: str | None = None, options: list[str] | None = None) -> tuple[Any, Any]:
    """The rule file ``game`` (default: the command's GAME) compiled for the players and options given."""
    source = load_rules(args.game if game is None else game, _allowed(args))
    return source, _compiled(args, source, args.option if options is None else options)


def _compiled(args: argparse.Namespace, source: Any, options: list[str]) -> Any:
    """The rule file read as ``source`` compiled for the command's players and the options given."""
    chosen = {}
    for item in options:
        if "=" not in item:
            raise TrickbookError(f"--option takes NAME=VALUE, not {item!r} "
                                 f"(options: {', '.join(declared_options.defaults(source.data)) or 'none'})")
        k, v = item.split("=", 1)
        chosen[k.strip()] = declared_options.parsed(source.data, k.strip(), v.strip())
    return compile_game(source, args.players, chosen)


def _seed(text: str) -> Any:
    """A seed is a whole number or any other text; a number too long to be one is refused, and so is text a
    record cannot hold (harness/record_reader.seed_problem)."""
    from interpreter.harness.record_reader import seed_problem

    number = whole_number(text)
    if number is None and text.lstrip("-").isascii() and text.lstrip("-").isdigit():
        raise TrickbookError(f"--seed takes a number of at most {MAX_DIGITS} digits (or any text)")
    seed = number if number is not None else text
    problem = seed_problem(seed)
    if problem:
        raise TrickbookError(f"--seed {problem}")
    return seed


def _play(args: argparse.Namespace) -> int:
    from interpreter.harness.agents import HumanAgent
    from interpreter.harness.players import agent_factory, parse_agents, play_command
    from interpreter.harness.records import write_record
    from interpreter.harness.runner import play_game

    _search_args(args)
    source, game = _setup(args)
    fresh = args.seed is None
    seed = secrets.randbelow(10**6) if fresh else _seed(args.seed)
    lineup = parse_agents(args.agents, game.players)
    agents = agent_factory(lineup, args.iterations, args.move_time, _agent_limits(args))(seed)
    viewer = None
    if args.human:
        viewer = _seat_index(game.seat_names, args.human)
        if viewer in game.automatic:
            raise TrickbookError(f"{game.seat_names[viewer]} plays automatically; choose another seat")
        agents[viewer] = HumanAgent(out=sys.stdout)
    deal = _deal(args, game)
    narrate = None if args.quiet else print
    rules_file = args.game if args.game.endswith((".yaml", ".yml")) else None
    if rules_file and args.record:  # replay looks for it beside the record
        rules_file = os.path.relpath(Path(rules_file).resolve(), Path(args.record).resolve().parent)
    events: list[dict[str, Any]] = []
    with _writing(args.record, "record") as record_file:
        try:
            out = play_game(game, agents, seed, record=bool(args.record), rules_file=rules_file, narrate=narrate,
                            viewer=viewer, deal=deal, events=events)
        except TrickbookError:  # the game stopped (an agent failed, a rule could not be worked out): its record so far
            if record_file is not None and events:
                write_record(record_file, events)
                print(f"the record of the game so far is written to {args.record}", file=sys.stderr)
            raise
        if record_file is not None:
            write_record(record_file, out.record)
    if record_file is not None:
        print(f"record written to {args.record}")
    if args.quiet:
        names = game.seat_names
        print("totals: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(out.totals)))
        print("winner(s): " + ", ".join(names[s] for s in out.winners))
    if fresh or args.human:
        given = {k: v for k, v in game.options.items() if any(o.split("=", 1)[0].strip() == k for o in args.option)}
        again = play_command(args.game, args.players, seed, given, lineup, args.iterations, args.move_time,
                             args.human, args.deal, args.board, _agent_limits(args))
        mine = " (your own moves are yours to make again)" if args.human else ""
        print(f"seed {seed}: play this game again with{mine}:\n  {again}")
    return 0


def _deal(args: argparse.Namespace, game: Any) -> Any:
    """The start ``--deal`` and ``--board`` give (a deal file read for ``game``), or None."""
    if args.deal is None:
        if args.board is not None:
            raise _UsageError("--board goes with --deal")
        return None
    from interpreter.harness.deal_files import fixed_deal

    return fixed_deal(game, args.deal, args.board)


def _search_args(args: argparse.Namespace) -> None:
    if args.iterations < 1:
        raise _UsageError("--iterations must be at least 1")
    if args.move_time is not None and not args.move_time > 0:
        raise _UsageError("--move-time must be a positive number of seconds")
    if not 0 < args.agent_timeout <= MAX_AGENT_SECONDS:
        raise _UsageError(f"--agent-timeout must be above 0 and at most {MAX_AGENT_SECONDS:,} seconds, not "
                          f"{args.agent_timeout:g}")
    if not 0 <= args.agent_memory <= MAX_AGENT_MEMORY_MB:
        raise _UsageError(f"--agent-memory must be from 0 (no limit) to {MAX_AGENT_MEMORY_MB:,} MB, not "
                          f"{args.agent_memory:,}")


def _agent_limits(args: argparse.Namespace) -> tuple[float, int]:
    """What agents of your own may take: seconds per decision, megabytes of memory."""
    return args.agent_timeout, args.agent_memory


@contextlib.contextmanager
def _writing(path: str | None, what: str) -> Any:
    """The file ``path`` opened for writing while the body runs, or None without a path: a file that cannot be
    opened is refused before any game is played, not after; a write that fails (a full disk) is one line,
    ``cannot write PATH: reason``, also when it comes at the close."""
    if not path:
        yield None
        return
    try:
        handle = _Output(open(path, "w", encoding="utf-8"), path)  # noqa: SIM115 - closed below
    except OSError as exc:
        raise TrickbookError(f"cannot write the {what} to {path}: {exc.strerror or exc}") from None
    try:
        yield handle
    except BaseException:
        with contextlib.suppress(_OutputFailed):  # the error on the way says more than a failed close
            handle.close()
        raise
    handle.close()


def _seat_index(names: list[str], text: str) -> int:
    number = whole_number(text)
    if number is not None and 1 <= number <= len(names):
        return number - 1
    folded = [n.casefold() for n in names]
    if text.casefold() in folded:
        return folded.index(text.casefold())
    raise TrickbookError(f"no seat {text!r}; seats are {', '.join(names)} (or 1-{len(names)})")


def _simulate(args: argparse.Namespace) -> int:
    from interpreter.harness.players import parse_agents
    from interpreter.harness.simulate import Setup, simulate

    if args.games < 1:
        raise _UsageError("--games must be at least 1")
    if args.games > MAX_GAMES:
        raise _UsageError(f"--games must be at most {MAX_GAMES:,}, not {args.games:,}")
    _search_args(args)
    if args.scheduler and args.backend != "dask":
        raise _UsageError("--scheduler goes with --backend dask")
    workers = min(_workers(args.workers), args.games)  # more processes than games would wait for nothing
    source, game = _setup(args)
    seed = _seed(args.seed or "0")
    deal = _deal(args, game)  # a deal file that does not fit is refused before any game is played
    setup = Setup(args.game, args.players, tuple(game.options.items()), tuple(parse_agents(args.agents, game.players)),
                  args.rotate, args.iterations, args.move_time, _allowed(args),
                  deal=None if deal is None else (args.deal, args.board), agent_limits=_agent_limits(args))
    progress = _progress(args.json)

    def run() -> Any:
        return simulate(game, args.games, seed, progress, setup, workers, args.backend, args.scheduler, args.verbose)

    from interpreter.harness.report import html_report

    return _reported(args, run, html_report)


def _reported(args: argparse.Namespace, run: Callable[[], Any], page: Callable[[Any], str]) -> int:
    """Run a command that plays games (``run``) and print what it found (``as_text()``, or ``as_json()`` with
    --json), with --report its HTML ``page`` too. The report's file is opened before any game is played, so a
    path that cannot be written fails at once."""
    with _writing(args.report, "report") as report:
        result = run()
        if report is not None:
            report.write(page(result))
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        print(result.as_text())
        if report is not None:
            print(f"report written to {args.report}")
    return 0


def _progress(quiet: bool, what: str = "games") -> Callable[[int, int], None]:
    """A progress line on a terminal only (not when ``quiet``), with the time left."""
    started = time.monotonic()
    shown = [started]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if sys.stderr.isatty() and not quiet and (now - shown[0] >= 0.5 or done == total):
            shown[0] = now
            left = (total - done) * (now - started) / max(done, 1)
            bar = "#" * (20 * done // total)
            print(f"\r  [{bar:<20}] {done:,}/{total:,} {what}, about {_duration(left)} left  ",
                  end="" if done < total else "\n", file=sys.stderr, flush=True)

    return progress


def _compare(args: argparse.Namespace) -> int:
    from interpreter.harness.compare import Correction, Seating, compare, forced_seats, seating_difference
    from interpreter.harness.players import parse_agents
    from interpreter.harness.simulate import Played, Setup, play_many, play_one

    if not 2 <= args.games <= MAX_GAMES:
        raise _UsageError(f"--games must be from 2 to {MAX_GAMES:,}, not {args.games:,} (a paired test needs two "
                          "games at least)")
    if not 0 < args.detect <= 100:
        raise _UsageError(f"--detect takes percentage points above 0 and at most 100, not {args.detect}")
    if not 0 < args.error_rate < 100:
        raise _UsageError(f"--error-rate takes a percentage above 0 and below 100, not {args.error_rate}")
    correction = Correction(args.correction, args.error_rate / 100)
    _search_args(args)
    workers = min(_workers(args.workers), args.games)
    files = []
    for given, options in ((args.base, args.option + args.base_option),
                           (args.variant, args.option + args.variant_option)):
        source = load_rules(given, _allowed(args))
        if args.players not in supported_players(source):
            counts = ", ".join(map(str, supported_players(source)))
            raise _UsageError(f"cannot compare with {args.players} players: {given} is for {counts} players, "
                              f"not {args.players} (both files must support the player count)")
        files.append(_compiled(args, source, options))
    base, variant = files
    seating = [Seating(given, tuple(g.seat_names), g.automatic) for given, g in ((args.base, base),
                                                                                 (args.variant, variant))]
    differ = seating_difference(seating[0], seating[1], args.players)
    if differ and not args.force:
        raise _UsageError(f"{differ}. compare pairs the seats of the two files, so their seats must be the same "
                          "(names, number and automatic seats); --force compares them anyway (docs/agents.md)")
    seats = forced_seats(seating[0], seating[1]) if differ else list(base.seat_names)
    forced = "" if not differ else differ + (
        "; seats compared by their place" if seats is not None else
        "; the figures of each seat are left out, games paired by their seed")
    seed = _seed(args.seed or "0")
    lineups = [tuple(parse_agents(args.agents, g.players)) for g in files]
    progress = _progress(args.json, "games of each file")

    def run() -> Any:
        played: list[list[Played]] = []
        for name, game, lineup in ((args.base, base, lineups[0]), (args.variant, variant, lineups[1])):
            setup = Setup(name, args.players, tuple(game.options.items()), lineup, args.rotate, args.iterations,
                          args.move_time, _allowed(args), agent_limits=_agent_limits(args))
            games = ((play_one(setup, seed, i, game) for i in range(args.games)) if workers <= 1
                     else play_many(setup, args.games, seed, workers))
            done: list[Played] = []
            try:
                for g in games:
                    done.append(g)
                    progress(len(done) + len(played) * args.games, 2 * args.games)
            finally:
                games.close()
            played.append(done)
        return compare(played[0], played[1], seats=seats,
                       base_name=_named(args.base, args.option + args.base_option),
                       variant_name=_named(args.variant, args.option + args.variant_option), seed=seed,
                       agents=list(lineups[0]), rotate=args.rotate, detect=args.detect / 100, correction=correction,
                       forced=forced, players=args.players)

    from interpreter.harness.report import compare_report

    return _reported(args, run, compare_report)


def _named(given: str, options: list[str]) -> str:
    """A file as the comparison names it: as given, with the options set for it."""
    return f"{given} ({', '.join(o.replace(' ', '') for o in options)})" if options else given


def _workers(workers: int) -> int:
    if not 1 <= workers <= MAX_WORKERS:
        raise _UsageError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")
    return workers


def _replay(args: argparse.Namespace) -> int:
    from interpreter.harness.records import replay

    out = replay(args.record, rules=args.rules, allow=_allowed(args))
    rounds = f"{out.rounds} round" + ("" if out.rounds == 1 else "s")
    print(f"{args.record}: replay matches ({rounds}, totals {out.totals})")
    return 0


def _serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise _UsageError("--port must be from 1 to 65535")
    if args.bot_workers is not None and not 1 <= args.bot_workers <= 256:
        raise _UsageError("--bot-workers must be from 1 to 256")
    if args.bot_timeout is not None and not 0 < args.bot_timeout <= 86400:
        raise _UsageError("--bot-timeout must be more than 0 and at most 86400 seconds")
    try:
        import uvicorn

        from interpreter.web.app import create_app
        from interpreter.web.bots import TIMEOUT, BotPool
        from interpreter.web.guard import allowed_hosts, host_name
    except ImportError as exc:
        raise TrickbookError(f"the web table needs the web extra: pip install 'trickbook[web]' ({exc})") from None
    for name in args.allowed_host:
        if name != "*" and host_name(name) is None:
            raise _UsageError(f"--allowed-host {name!r} is not a host name or address")
    hosts = allowed_hosts(args.host, args.allowed_host)
    app = create_app(args.records, hosts=hosts, bots=BotPool(args.bot_workers, args.bot_timeout or TIMEOUT))
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"listening on {args.host}: other machines that reach it can open the lobby and make tables "
              "(each seat's link still needs its token)", file=sys.stderr)
    print(f"answering to the host names {', '.join(sorted(hosts))} (add one with --allowed-host NAME)",
          file=sys.stderr)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Trickbook web table: http://{shown}:{args.port}/ (records in {Path(args.records).resolve()}; Ctrl-C "
          "stops it)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536)
    return 0


def _conformance(args: argparse.Namespace) -> int:
    from interpreter.conformance import battery, runs

    if args.games < 1 or args.first < 0:
        raise _UsageError("--games must be at least 1, --first at least 0")
    if args.games > MAX_GAMES:
        raise _UsageError(f"--games must be at most {MAX_GAMES:,}, not {args.games:,}")
    workers = _workers(args.workers)
    allow = _allowed(args)
    names = args.games_to_check or list(bundled_games())
    cases = []
    for name in names:
        counts = supported_players(load_rules(name, allow))  # a broken file is reported before any game
        wanted = args.players or counts
        for n in wanted:
            if n not in counts:
                raise TrickbookError(f"{name} is for {', '.join(map(str, counts))} players, not {n}")
        cases += [(name, n) for n in wanted]
    workers = min(workers, runs.task_count(len(cases), args.games))  # none waits for nothing
    started = time.monotonic()
    shown = [started]

    def progress(done: int, total: int, failed: int) -> None:
        now = time.monotonic()
        if sys.stderr.isatty() and not args.json and (now - shown[0] >= 1.0 or done == total):
            shown[0] = now
            left = (total - done) * (now - started) / max(done, 1)
            print(f"\r  {done:,}/{total:,} games, {failed} failures, about {_duration(left)} left  ",
                  end="" if done < total else "\n", file=sys.stderr, flush=True)

    checks = {"ends": battery.ENDS, "records": battery.RECORDS, "all": battery.ALL}[args.checks]
    tallies = runs.run(cases, args.games, workers, allow, progress, first=args.first, checks=checks)
    elapsed = time.monotonic() - started
    failures = sum(len(t.failures) for t in tallies)
    if args.json:
        print(json.dumps({"games": sum(t.games for t in tallies), "seconds": round(elapsed, 1), "workers": workers,
                          "checks": args.checks, "failures": failures, "cases": [
                              {"game": t.game, "players": t.players, "games": t.games, "rounds": t.rounds,
                               "actions": t.actions, "seconds": round(t.seconds, 2), "failures": t.failures}
                              for t in tallies]}))
    else:
        print(f"{'game':<28} {'players':>7} {'games':>8} {'rounds':>9} {'actions':>11} {'games/s':>8} {'failures':>8}")
        for t in tallies:
            rate = t.games / t.seconds if t.seconds else 0.0
            print(f"{t.game:<28} {t.players:>7} {t.games:>8,} {t.rounds:>9,} {t.actions:>11,} {rate:>8.1f} "
                  f"{len(t.failures):>8}")
        print(f"{sum(t.games for t in tallies):,} games in {_duration(elapsed)} on {workers} "
              f"process{'es' if workers > 1 else ''}, {failures} failures")
        for t in tallies:
            for problem, index in list(zip(t.failures, t.failed))[:5]:
                print(f"{problem}\n  (see it: trickbook play {t.game} -p {t.players} --seed {battery.seed_of(index)})")
    return 1 if failures else 0


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


_COMMANDS = {"validate": _validate, "list": _list, "play": _play, "simulate": _simulate, "replay": _replay,
             "conformance": _conformance, "schema": _schema, "compare": _compare,
             "explain": _explain, "serve": _serve}



if not interrupts.the_program(__name__):  # loaded by another program: Python's own handler again (the
    interrupts.release(_loading)  # command keeps the loading one until main() takes over)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
