"""The command line of ``trickbook``: every command and its arguments, as ``trickbook COMMAND --help`` tells them.

The arguments several commands share are added by one function each (the game and its seed, a deal file, the
agents and their limits, the run's seats and workers, --allow-path), so they read the same in every command.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, TypeAlias

from interpreter import __version__
from interpreter.commands.common import MAX_GAMES, MAX_WORKERS
from interpreter.harness.players import AGENTS, ITERATIONS, PLAY_AGENT, RUN_AGENT
from interpreter.limits import AGENT_MEMORY_MB, AGENT_SECONDS

Commands: TypeAlias = "argparse._SubParsersAction[Parser]"  # the parsers of the commands


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # usage errors exit 2, as argparse does, with a hint
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)


def parser() -> argparse.ArgumentParser:
    """The command line of every command, in the order ``trickbook --help`` lists them."""
    p = Parser(prog="trickbook", description="Trick-taking card games written as data. "
               "'trickbook COMMAND --help' describes a command's arguments.")
    p.add_argument("--version", action="version", version=f"trickbook {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND")
    for add in (_rule_file_commands, _play, _simulate, _compare, _replay, _conformance, _serve):
        add(sub)
    return p


def _rule_file_commands(sub: Commands) -> None:
    v = sub.add_parser("validate", help="check rule files; print FILE:LINE:COL errors and warnings",
                       description="Check rule files: every error, as FILE:LINE:COL: error: with the source line and "
                                   "a caret, and the warnings of a file without errors (a value, status line or "
                                   "narration that shows a seat a card it cannot see). Exit 1 when a file has "
                                   "errors; warnings alone exit 0 unless --strict.")
    v.add_argument("files", nargs="+", metavar="FILE", help="rule files (YAML) to check")
    v.add_argument("--strict", action="store_true", help="a file with warnings fails too (exit 1)")
    _allow_path(v)

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
    _allow_path(ex)
    sub.add_parser("schema", help="print the JSON Schema of rule files (for editors: docs/editor.md)",
                   description="Print the JSON Schema of rule files (draft-07, also valid 2020-12), e.g. "
                               "'trickbook schema > game.schema.json' for an editor that needs a local copy.")


def _play(sub: Commands) -> None:
    pl = sub.add_parser("play", help="play one game with bots (and optionally you), told as it happens")
    _game_args(pl, " (default: a new one each time, printed so the game can be replayed)")
    pl.add_argument("--human", metavar="SEAT", help="play this seat yourself (seat name or number from 1)")
    pl.add_argument("--record", metavar="FILE", help="write the game record (JSON Lines) to FILE")
    pl.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    _deal_args(pl, "")
    _agent_args(pl, " (your seat, with --human, is yours)", PLAY_AGENT)
    _engine_arg(pl, "python (a game played with --engine compiled: the game a compiled run played with that seed)")
    _allow_path(pl)


def _engine_arg(p: argparse.ArgumentParser, default: str) -> None:
    p.add_argument("--engine", choices=("auto", "compiled", "python"), default=None,
                   help=f"the backend that plays: compiled (llvmlite, pip install 'trickbook[fast]'; random agents, "
                        f"and ismcts's searches), "
                        f"python, or auto: {default} (default; or TRICKBOOK_ENGINE)")


def _simulate(sub: Commands) -> None:
    si = sub.add_parser("simulate", help="play many games with bots and summarise them with 95%% confidence "
                        "intervals")
    _game_args(si, " (default 0)")
    si.add_argument("--games", "-n", type=int, required=True, metavar="K",
                    help=f"how many games (at most {MAX_GAMES:,})")
    _deal_args(si, "; every game of the run starts so")
    _agent_args(si, "")
    _run_args(si)
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
    _engine_arg(si, "compiled where it can play the games, else python")
    _allow_path(si)


def _compare(sub: Commands) -> None:
    co = sub.add_parser("compare", help="play two rule files with the same seeds and agents and say which "
                        "differences are real", description="Play BASE and VARIANT with the same seeds and the same "
                        "agents in the same seats (paired games) and compare every statistic: the difference with "
                        "its 95%% interval, whether it is real at this number of games once the p-values are adjusted "
                        "for the number of figures compared (Holm's method by default), and how many games would "
                        "show it. The two files must seat alike (--force). (docs/agents.md, 'Comparing two rule "
                        "files')")
    _agent_args(co, "")
    _run_args(co)
    co.add_argument("base", metavar="BASE", help="a rule file or bundled game name")
    co.add_argument("variant", metavar="VARIANT", help="a rule file or bundled game name (the same may be "
                    "compared with other options: --variant-option)")
    co.add_argument("--players", "-p", type=int, metavar="N", help=PLAYERS_HELP.replace("the game", "both files"))
    co.add_argument("--games", "-n", type=int, default=200, metavar="K",
                    help=f"paired games: K of each file (default 200, at most {MAX_GAMES:,})")
    co.add_argument("--seed", default=None, help="random seed (default 0): game i of both files has seed SEED/i")
    co.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                    help="set an option of both files (repeatable)")
    co.add_argument("--base-option", action="append", default=[], metavar="NAME=VALUE",
                    help="set an option of BASE only (repeatable)")
    co.add_argument("--variant-option", action="append", default=[], metavar="NAME=VALUE",
                    help="set an option of VARIANT only (repeatable)")
    _compare_figures(co)
    co.add_argument("--force", action="store_true",
                    help="compare files whose seats differ (names, number or automatic seats): seats paired by "
                         "their place, or, when their numbers differ, only the figures of the whole game")
    co.add_argument("--report", metavar="FILE.html", help="also write an HTML report")
    co.add_argument("--json", action="store_true", help="print one JSON object (and no progress line)")
    _engine_arg(co, "compiled where it can play both files' games, else python")
    _allow_path(co)


def _compare_figures(co: argparse.ArgumentParser) -> None:
    """How compare tells a real difference: the change it sizes, the correction and its error rate."""
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


def _replay(sub: Commands) -> None:
    r = sub.add_parser("replay", help="re-execute a game record and check it")
    r.add_argument("record", metavar="RECORD", help="a game record (JSON Lines) written by play --record")
    r.add_argument("--rules", metavar="FILE", help="use these rules instead of the ones the record names")
    _allow_path(r)


def _conformance(sub: Commands) -> None:
    c = sub.add_parser("conformance", help="play random games and check that they end, keep every card, give the "
                       "same record for the same seed and replay from their record")
    c.add_argument("games_to_check", nargs="*", metavar="GAME", help="rule files or bundled game names (default: "
                   "every bundled game)")
    c.add_argument("--games", "-n", type=int, default=100, metavar="K",
                   help=f"games per game file and player count (default 100, at most {MAX_GAMES:,})")
    c.add_argument("--players", "-p", type=int, action="append", metavar="N",
                   help="only this player count (repeatable; default: every count the file supports)")
    c.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="set a game option of every file checked (repeatable; each file must declare it)")
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
    _allow_path(c)


def _serve(sub: Commands) -> None:
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


# ---------------------------------------------------------------- arguments several commands share


PLAYERS_HELP = "how many players (may be left out where the game has one player count)"


def _game_args(q: argparse.ArgumentParser, seed_default: str) -> None:
    """GAME, --players, --seed (``seed_default``: what no seed means, in the help) and --option."""
    q.add_argument("game", metavar="GAME", help="a rule file, or a bundled game name (see 'trickbook list')")
    q.add_argument("--players", "-p", type=int, metavar="N", help=PLAYERS_HELP)
    q.add_argument("--seed", default=None, help="random seed: a number or any text; the same seed deals the "
                   "same game" + seed_default)
    q.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                   help="set a game option (repeatable)")


def _deal_args(q: argparse.ArgumentParser, every_game: str) -> None:
    """--deal and --board (``every_game``: what the help adds for a command that plays many games)."""
    q.add_argument("--deal", metavar="FILE", help="start from a deal file (PBN, the portable deal notation, "
                   "read as the game's deck.notation says): the game starts at its board with its dealer, and "
                   "the first deal gives the hands it writes" + every_game)
    q.add_argument("--board", metavar="B", help="with --deal: the board to start from, by its Board tag "
                   "(default: the file's first)")


def _agent_args(q: argparse.ArgumentParser, human: str, default: str = RUN_AGENT) -> None:
    """--agents (``human``: what the help adds where a person may take a seat; ``default``: the agent of the seats
    it does not name), the search's --iterations and --move-time, and the limits of agents of one's own."""
    q.add_argument("--agents", "-a", default=default, metavar="A,B,...",
                   help="one agent per seat in seat order, the last repeated for the remaining seats"
                        + human + ": "
                        + "; ".join(f"{k} ({v})" for k, v in AGENTS.items())
                        + "; or your own, as module:Class or path/to/file.py:Class, each seat in a process of its "
                          f"own (docs/agents.md) (default {default})")
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


def _run_args(q: argparse.ArgumentParser) -> None:
    """--rotate and --workers: the seats and the processes of a run of many games."""
    q.add_argument("--rotate", action="store_true",
                   help="turn the agents one seat further each game, so every agent sits in every seat")
    q.add_argument("--workers", "-w", type=int, default=1, metavar="W",
                   help=f"processes to play on (default 1, at most {MAX_WORKERS}; never more than the games); "
                        "the results do not depend on it")


def _allow_path(q: argparse.ArgumentParser) -> None:
    q.add_argument("--allow-path", action="append", default=[], metavar="DIR",
                   help="let rule files and records name rule files under DIR too (repeatable); by default "
                        "they may name bundled games and files under their own folder only")
