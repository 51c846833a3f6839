"""Trickbook's speed against the targets of issue 33 (item 5, "Speed"), measured in one run.

Every bundled game and player count, the hand-coded baselines, the simulate command's harness, OpenSpiel,
ismcts, the adapters (the public API, OpenSpiel, PettingZoo), the cold start of the command and the generation
of the compiled form; at the end a table of every target, each with its figure, its goal and whether it is met:

    python benchmarks/run.py --baselines ../shared/bench   # everything: 5 runs, 1 s per measurement
    python benchmarks/run.py --seconds 2 --runs 7 --markdown
    python benchmarks/run.py --only games          # or: baselines, simulate, openspiel, ismcts, cold, adapters,
                                                   #     generate, workers, agents, compact, compiled,
                                                   #     compiled-ismcts, batches, vector (--only may be repeated)

Every rate is CPU time of this process (``time.process_time``; the machines are shared and wall-clock figures
swing by 2-3x) and every ratio is taken pairwise: each of ``--runs`` runs measures the two sides of a pair back
to back, for ``--seconds`` each, in this process, the first side alternating from run to run; a ratio is shown
as the median of the runs' ratios with their minimum and maximum, a rate as the median over the runs.

* games: random games (every decision uniform among the legal ones, ``int(rng.random() * n)``) of every bundled
  game and player count through ``Game.playout``; rounds and decisions per second (chance events not counted),
  and the time per decision relative to NJET Rio Grande with 4 players (each game paired with its own
  measurement of NJET 4p). Target: every one within 2x.
* baselines: ``Game.playout`` against baseline_njet.py and baseline_meinz.py (hand-coded pure-Python NJET Rio
  Grande and Meinz for 4 players, kept outside the repository; ``--baselines DIR`` says where), imported and
  timed in this process (``play_round(rng, dealer)``); the ratio is interpreter rounds/s over baseline
  rounds/s. Targets: NJET >= 0.9, Meinz >= 0.6.
* simulate: what ``trickbook simulate GAME -p 4`` (random agents) spends per round: ``simulate()`` of
  interpreter/harness/simulate.py on this process (``play_game`` with a ``RandomAgent`` per seat, then the
  summary), in batches of games, against the same baselines. Targets: NJET >= 0.8, Meinz >= 0.5.
* openspiel: Hearts, Euchre, Spades and Oh Hell with 4 players, time per decision of ``Game.playout`` (and of a
  Python loop over ``state.pending`` / ``Game.apply_fast``, for the record) against OpenSpiel's Python loop
  (``legal_actions()``, a uniform pick, ``apply_action``; chance outcomes drawn from ``chance_outcomes()`` by
  their cumulative probabilities). Target: at most 1.0x OpenSpiel's time per decision. Skipped with a message
  when pyspiel is not installed (``pip install -e '.[bench]'``).
* ismcts: iterations per second of one ``IsmctsAgent`` (the command's default iterations a decision) deciding
  in fresh mid-game states of NJET Rio Grande, Meinz and Hearts with 4 players (the workload of
  ismcts_reference.py: states reached by random play through the harness's loop, the seat's ``Knowledge`` kept
  up to date, for a random number of decisions within the first two rounds; only ``act`` is timed). Target: at
  least 2x the search of the reference commit named in ismcts_reference.json (issue 33's day). That search is
  run again in every run, in child processes over a copy of the commit (``git archive``), interleaved with the
  current search, and the ratio taken run by run: the same machine under the same load, in the same minutes.
  A yardstick that does not change with the engine, baseline_njet.py's rounds per second, is measured next to
  each search too: iterations per yardstick round against the figure stored in ismcts_reference.json serves
  when the commit cannot be copied (no git), with the stored figures' date and machine as the caveat.
  ``--save-ismcts-reference`` keeps a run's figures as the reference (only from an engine as committed).
* adapters: random games of Hearts and NJET Rio Grande with 4 players, time per decision through each way of
  stepping a game from Python, against the engine's own loop (``Game.apply_fast`` over ``state.pending``, the
  "native path"): the public API (``GameState.legal_actions``/``apply`` by id, the deal drawn whole), OpenSpiel
  (``register``, then OpenSpiel's Python loop, the deals card by card) and PettingZoo (the AEC loop of
  ``TrickbookEnv``: ``last``, the mask, ``step``). Targets: the API at most 1.3x, OpenSpiel and PettingZoo at
  most 4x. Skipped with a message when a toolkit is not installed.
* cold: each command in a new process (bytecode allowed, PYTHONDONTWRITEBYTECODE unset), CPU time of the
  child: a bare ``python -c "import yaml, jsonschema, lark"``, ``trickbook validate games/njet-riogrande.yaml``
  (unchanged, found valid before), ``trickbook validate`` of a copy whose title changes every run (a file being
  written: the schema check runs for the changed parts), ``trickbook list``; one warm-up round, then
  ``--runs`` rounds, all with a cache folder of their own (filled by the warm-up round); ratios against the bare
  import of the same round. One more row: the unchanged validate with the user's own cache folder as it is.
  (No target in issue 33.)
* generate: the time to generate each bundled game's compiled form for 4 players (``load_rules`` and
  ``compile_game``, timed inside a child process by its CPU time): first with an empty cache (``XDG_CACHE_HOME``
  a fresh temporary folder: Lark's tables, expression trees, schema digests and generated code all made
  anew), then cached (a second child with the same folder).
* workers: the same simulation (Hearts, 4 players, ismcts against three random seats, 16 games) on 1 and
  on 2 processes, one after the other; the speed-up is the first wall time over the second (the summaries must
  be equal). Needs two free cores.
* compiled: issue 34's compiled backend (interpreter/compiled/, llvmlite: ``pip install -e '.[fast]'``): random games
  of every bundled game and player count it writes, ``COMPILED_BATCH`` games a call (``Machine.play_many``), against
  ``Game.playout`` (time per decision; target at least 5x) and against the hand-coded programs (rounds per second;
  target at least 5x); the first compile's CPU time of each (in an empty cache folder; target at most 10 s) and a
  later process's, from its start to its first game with the module loaded from the cache (target at most 1 s),
  and the games not written yet with the first part that is not.
* compiled-ismcts: issue 34's search on the compiled backend (``IsmctsAgent`` with ``engine="compiled"``, the game
  followed on the machine) against the same agent on the Python backend: iterations per second of ``act`` (the
  command's default iterations a decision) in the same fresh mid-game states of NJET Rio Grande, Meinz and Hearts
  with 4 players (the ismcts section's workload, reached through a Match so that the compiled side follows it),
  the two sides in pairs; target at least 10x. And a whole game of Hearts with 4 ismcts seats at 100 iterations a
  move on each side (CPU s; target at most 2 s compiled), and the first call's CPU time (the search compiled, or
  loaded from the user's cache). The same pairs, without a target, of the games whose samples must agree with
  public values worked out from hidden cards or hold hidden values worked out again (French Tarot, Tichu, Belote,
  Doppelkopf).
* batches: ``simulate()`` (interpreter/harness/simulate.py) on the compiled engine, one process, games per second
  of Hearts, NJET Rio Grande and Oh Hell with 4 players: random seats one game a compiled call
  (``Machine.play_seeded`` for each game, as simulate played them before batches) against the run's batches
  (``compiled_games``: many games a call), both through the same ``simulate()``, in pairs; and greedy seats
  (every seat; the same batches) against the Python backend's GreedyAgent, in pairs. The modules are compiled (or
  loaded from the user's cache) before anything is timed. (No target in issue 34 beyond "many games per compiled
  call".)
* vector: the vector environment (interpreter/toolkits/vector.py, docs/vector.md) of NJET Rio Grande with 4
  players, ``VECTOR_GAMES`` games a call: steps per second (a step is one action in one game), each step's actions
  drawn at random among the legal ones in NumPy outside the compiled call (``VectorEnv.random_actions``) and taken
  by ``step`` (the actions checked against the masks, every game moved on, its observation, mask and rewards
  written), both timed; the first compile's CPU time (an empty cache folder) of the module and the environment's
  entry points. Target: at least 1 M steps per second. Then ``VECTOR_OTHERS`` (Bridge and Doppelkopf, 4 players) at
  the first of ``VECTOR_GAMES`` games a call, each with its first compile (no target).
* agents: what an agent of one's own costs (harness/remote.py), in CPU time of a new process and of every process
  it started (each waited for): a game's process started, the agent made and the process ended (the game's
  side, the loader, the fork and its end) and one decision asked and answered (a tiny view, the answer at once),
  each the difference between a child that does it K times and one that only loads the agent and ends it.

Numbers from one machine are only comparable within one run: compare ratios, not rates.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import io
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ROOT.parent / "shared" / "bench"
SECTIONS = ("games", "baselines", "simulate", "openspiel", "ismcts", "adapters", "cold", "generate", "workers",
            "agents", "compact", "compiled", "compiled-ismcts", "batches", "vector")
COMPACT_GAMES = (("njet-riogrande", 4), ("meinz", 4), ("hearts", 4), ("doppelkopf", 4))
REFERENCE = ("njet-riogrande", 4)
SIMULATE_BATCH = 20  # games per simulate() call in the simulate section
ISMCTS_GAMES = ("njet-riogrande", "meinz", "hearts")
# games whose samples must agree with public values worked out from hidden cards, or hold hidden values worked out
# again (compiled/checks_template.py)
ISMCTS_DRAWN_GAMES = ("french-tarot", "tichu", "belote", "doppelkopf")
# OpenSpiel's game and the parameters closest to the bundled file's default options (see docs/performance.md)
OPENSPIEL = {
    "hearts": ("hearts", {"no_pts_on_first_trick": False, "qs_breaks_hearts": False}),
    "euchre": ("euchre", {"stick_the_dealer": False}),
    "spades": ("spades", {}),
    "oh-hell": ("oh_hell", {"players": 4}),
}

# issue 33's targets (item 5, "Speed")
GAMES_GOAL = 2.0  # every bundled game: time per decision at most this times NJET 4p's
BASELINE_GOALS = {("njet-riogrande", False): 0.9, ("meinz", False): 0.6,  # Game.playout vs the baselines
                  ("njet-riogrande", True): 0.8, ("meinz", True): 0.5}  # simulate (random agents) vs the baselines
OPENSPIEL_GOAL = 1.0  # Game.playout's time per decision at most this times OpenSpiel's Python loop's
ADAPTER_GOALS = {"public API (GameState)": 1.3, "OpenSpiel": 4.0, "PettingZoo (AEC)": 4.0}  # vs the native loop
ISMCTS_GOAL = 2.0  # ismcts iterations per second at least this times the reference search's (ISMCTS_REFERENCE)
# issue 34's targets (item 5): the compiled backend's random playouts against the hand-coded programs and against the
# Python backend's own
COMPILED_BASELINE_GOAL = 5.0
COMPILED_GOAL = 5.0
COMPILED_BATCH = 200  # games per compiled call (Machine.play_many)
FIRST_COMPILE_GOAL, LATER_PROCESS_GOAL = 10.0, 1.0  # s of CPU: a game compiled, a later process loading it
COMPILED_ISMCTS_GOAL = 10.0  # the compiled search's iterations per second at least this times the Python search's
HEARTS_GAME_ITERATIONS, HEARTS_GAME_GOAL = 100, 2.0  # a game of 4 ismcts seats at 100 iterations: s of CPU at most
BATCH_GAMES = (("hearts", 4), ("njet-riogrande", 4), ("oh-hell", 4))  # the batches section's games
VECTOR = ("njet-riogrande", 4)  # the vector environment's game (issue 34: at least 1 M steps/s on one core)
VECTOR_GAMES = (256, 1024)  # games a vector environment steps in one call
VECTOR_GOAL = 1e6  # steps per second (one step: one action in one game)
VECTOR_OTHERS = (("bridge", 4), ("doppelkopf", 4))  # more games, at the first of VECTOR_GAMES (no target)

Work = Callable[[], tuple[int, int]]  # one unit of work: (rounds, decisions) it played


# ---------------------------------------------------------------- measuring


def measure(work: Work, seconds: float) -> dict[str, float]:
    """Call ``work`` until ``seconds`` of CPU time have passed: rounds and decisions per second."""
    rounds = decisions = 0
    start = time.process_time()
    while True:
        r, d = work()
        rounds += r
        decisions += d
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return {"rounds_per_s": rounds / elapsed, "decisions_per_s": decisions / elapsed,
                    "decisions_per_round": decisions / rounds if rounds else 0.0}


def paired(first: Work, second: Work, seconds: float, run: int) -> tuple[dict[str, float], dict[str, float]]:
    """Both sides measured back to back, the first side alternating with the run's number."""
    if run % 2:
        b = measure(second, seconds)
        return measure(first, seconds), b
    a = measure(first, seconds)
    return a, measure(second, seconds)


def spread(values: Sequence[float], digits: int = 2) -> str:
    """``median (min-max)``."""
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def med(values: Sequence[float]) -> float:
    return statistics.median(values)


def table(headers: Sequence[str], rows: list[Sequence[Any]], markdown: bool) -> None:
    """A table: Markdown (the first column left-aligned, the others right-aligned) or plain text."""
    cells = [[str(c) for c in row] for row in rows]
    if markdown:
        print("| " + " | ".join(headers) + " |")
        print("|---|" + "---:|" * (len(headers) - 1))
        for row in cells:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
        print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths))))
        for row in cells:
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    print()


def note(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


_games: dict[tuple[str, int], Any] = {}


def compiled(name: str, players: int) -> Any:
    from interpreter.engine.compile import compile_game
    from interpreter.rules.loader import load_rules

    key = (name, players)
    if key not in _games:
        _games[key] = compile_game(load_rules(name), players)
    return _games[key]


# ---------------------------------------------------------------- the workloads


def playout_work(game: Any, rng: random.Random) -> Work:
    """One random game through ``Game.playout``."""
    new_state, playout = game.new_state, game.playout

    def work() -> tuple[int, int]:
        state = new_state()
        decisions = playout(state, rng)
        return len(state.round_results), decisions

    return work


def compact_work(game: Any, rng: random.Random) -> Work:
    """One random game through ``Game.playout`` on the compact layout (runtime/compact_game.py), from the slots of a
    new state."""
    from interpreter.runtime.compact_game import compact_game

    compact = compact_game(game)
    assert compact is not None, f"{game.name} is not written for the slots"
    new_state, start, playout = game.new_state, compact.start, compact.playout

    def work() -> tuple[int, int]:
        slots = start(new_state())
        decisions = playout(slots, rng)
        return len(slots.v[slots.results_slot]), decisions

    return work


def section_compact(args: argparse.Namespace, rep: Report) -> None:
    """The same game played on today's state and on the compact layout's slots (issue 33, the order of the work:
    the step kinds written through the state's shape): time per decision, slots against state, and the zones the
    slots hold as their kinds with a count per kind (runtime/zone_shapes.py)."""
    ratios, _ = paired_ratios(list(COMPACT_GAMES), lambda c, run: (
        playout_work(compiled(*c), random.Random(run)), compact_work(compiled(*c), random.Random(run))), args,
        "compact")
    from interpreter.runtime.zone_shapes import counted_zones

    rep.heading("The same random games on the compact layout's slots (time per decision vs today's state)")
    table(("game", "players", "slots vs state", "held by count"),
          [(c[0], c[1], spread(ratios[c]) + "x", ", ".join(sorted(counted_zones(compiled(*c)))) or "-")
           for c in COMPACT_GAMES], rep.markdown)



@contextlib.contextmanager
def empty_cache() -> Iterator[None]:
    """The user's cache folder an empty one of its own for the time of the block (XDG_CACHE_HOME), removed after."""
    kept = tempfile.mkdtemp(prefix="trickbook-bench-cache-")
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = kept
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = before
        shutil.rmtree(kept, ignore_errors=True)


def compiled_work(machine: Any) -> Work:
    """A batch of random games in one call of the compiled backend (``Machine.play_many``)."""

    def work() -> tuple[int, int]:
        return machine.play_many(COMPILED_BATCH)

    return work


def section_compiled(args: argparse.Namespace, rep: Report) -> None:
    """Issue 34: random games on the compiled backend against ``Game.playout`` on the Python backend (time
    per decision) and against the hand-coded programs (rounds per second), for every bundled game and player count
    the machine writes (the others say what is not written yet); the first compile's CPU time of each."""
    try:
        import llvmlite  # noqa: F401
    except ImportError:
        note("compiled: skipped (pip install -e '.[fast]')")
        return
    from interpreter.compiled.machine import Machine
    from interpreter.compiled.values import NotWritten
    from interpreter.engine.compile import supported_players
    from interpreter.rules.loader import load_rules

    machines: dict[tuple[str, int], Any] = {}
    compile_s: dict[tuple[str, int], float] = {}
    later_s: dict[tuple[str, int], float] = {}
    missing: list[tuple[str, str]] = []
    with empty_cache():  # (the first compile is one)
        chosen = {g.strip() for g in args.games.split(",") if g.strip()}
        for path in sorted((ROOT / "games").glob("*.yaml")):
            if chosen and path.stem not in chosen:
                continue
            counts = sorted(supported_players(load_rules(path)))
            for players in sorted({counts[0], 4} & set(counts)):
                try:
                    machine = Machine(compiled(path.stem, players), compiled=True)
                except NotWritten as exc:
                    missing.append((f"{path.stem} {players}p", str(exc)))
                    continue
                began = time.process_time()
                machine.module.seed(1)
                machine.play_many(1)
                compile_s[(path.stem, players)] = time.process_time() - began
                machines[(path.stem, players)] = machine
                later_s[(path.stem, players)] = _later_process(path.stem, players)
    configs = list(machines)
    ratios, rates = paired_ratios(configs, lambda c, run: (compiled_work(machines[c]),
                                                           playout_work(compiled(*c), random.Random(run))),
                                  args, "compiled")
    rep.heading("Random games on the compiled backend (time per decision: the Python backend's over the compiled)")
    rows = []
    for c in configs:
        met = med(ratios[c]) >= COMPILED_GOAL
        rows.append((c[0], c[1], f"{compile_s[c]:.1f} s", f"{later_s[c]:.2f} s", spread(ratios[c], 1) + "x",
                     f">= {COMPILED_GOAL:g}x", "yes" if met else "no"))
        rep.target(f"{c[0]} {c[1]}p: compiled vs Python backend (decisions/s)", ratios[c], f">= {COMPILED_GOAL:g}x",
                   met, 1)
        rep.target(f"{c[0]} {c[1]}p: first compile (CPU s)", [compile_s[c]], f"<= {FIRST_COMPILE_GOAL:g} s",
                   compile_s[c] <= FIRST_COMPILE_GOAL, 1)
        rep.target(f"{c[0]} {c[1]}p: a later process, its first game (CPU s)", [later_s[c]],
                   f"<= {LATER_PROCESS_GOAL:g} s", later_s[c] <= LATER_PROCESS_GOAL, 2)
    table(("game", "players", "first compile", "later process", "compiled vs Python", "target", "met"), rows,
          rep.markdown)
    if missing:
        table(("not written yet", "first part not written"), missing, rep.markdown)
    if ("hearts", 4) in machines:
        _against_openspiel_cpp(machines[("hearts", 4)], args, rep)
    baselines = {name: module for name, module in _baselines(args).items() if (name, 4) in machines}
    for name, module in baselines.items():
        pairs = [paired(compiled_work(machines[(name, 4)]), baseline_work(module, random.Random(run)), args.seconds,
                        run) for run in range(args.runs)]
        found = [a["rounds_per_s"] / b["rounds_per_s"] for a, b in pairs]
        met = med(found) >= COMPILED_BASELINE_GOAL
        rep.target(f"{name} 4p: compiled vs hand-coded (rounds/s)", found, f">= {COMPILED_BASELINE_GOAL:g}x", met, 1)


def section_batches(args: argparse.Namespace, rep: Report) -> None:
    """Games per second of simulate() on the compiled engine: one game a call against batches (random seats), and
    greedy seats compiled against the Python backend's (see the module's docstring)."""
    try:
        import llvmlite  # noqa: F401
    except ImportError:
        note("batches: skipped (pip install -e '.[fast]')")
        return
    from interpreter.harness import engines
    from interpreter.harness import simulate as simulation
    from interpreter.harness.simulate import Played, Setup, _outcomes, compiled_games, game_seed, simulate

    def setup_of(name: str, players: int, agents: tuple[str, ...], engine: str) -> Any:
        game = compiled(name, players)
        return Setup(name, players, tuple(game.options.items()), agents, engine=engine)

    def one_by_one(name: str, players: int) -> Work:  # (simulate() as it played a compiled run before batches)
        game, setup, calls = compiled(name, players), setup_of(name, players, (), "compiled"), [0]
        machine = engines.machine_for(name, players, setup.options, setup.allow)

        def games(setup: Any, seed: Any, start: int, stop: int, _game: Any = None) -> list[Any]:
            out = []
            for i in range(start, stop):
                s = game_seed(seed, i)
                done = machine.play_seeded(engines.stream_seed(s))
                out.append(Played(i, s, setup.lineup(i), done.totals, done.winners, done.rounds,
                                  _outcomes(game, done.ended)))
            return out

        def work() -> tuple[int, int]:
            calls[0] += 1
            batched, simulation.compiled_games = simulation.compiled_games, games
            try:
                return simulate(game, SIMULATE_BATCH * 10, f"one-{calls[0]}", None, setup).games, 0
            finally:
                simulation.compiled_games = batched

        return work

    def run_of(name: str, players: int, agents: tuple[str, ...], engine: str, games: int) -> Work:
        game, setup, calls = compiled(name, players), setup_of(name, players, agents, engine), [0]

        def work() -> tuple[int, int]:
            calls[0] += 1
            return simulate(game, games, f"run-{calls[0]}", None, setup).games, 0

        return work

    rows = []
    for name, players in BATCH_GAMES:
        for agents in ((), ("greedy",)):
            compiled_games(setup_of(name, players, agents, "compiled"), "warm", 0, 2)  # (compiled, or loaded)
        setup = setup_of(name, players, (), "compiled")
        engines.machine_for(name, players, setup.options, setup.allow).play_seeded(0)
        pairs = [paired(run_of(name, players, (), "compiled", 2000), one_by_one(name, players), args.seconds, run)
                 for run in range(args.runs)]
        batched = [a["rounds_per_s"] for a, _ in pairs]
        single = [b["rounds_per_s"] for _, b in pairs]
        greedy = [paired(run_of(name, players, ("greedy",), "compiled", 2000),
                         run_of(name, players, ("greedy",), "python", 4), args.seconds, run)
                  for run in range(args.runs)]
        rows.append((name, players, f"{med(single):,.0f}", f"{med(batched):,.0f}",
                     spread([a / b for a, b in zip(batched, single)], 1) + "x",
                     f"{med([a['rounds_per_s'] for a, _ in greedy]):,.0f}",
                     f"{med([b['rounds_per_s'] for _, b in greedy]):,.1f}",
                     spread([a["rounds_per_s"] / b["rounds_per_s"] for a, b in greedy], 0) + "x"))
        note(f"batches: {name} {players}p done")
    rep.heading("simulate() on the compiled engine, games per second (CPU time; ratios: median (min-max) of the runs)")
    table(("game", "players", "random, a game a call", "random, batches", "batches vs a game a call",
           "greedy, compiled", "greedy, Python", "greedy: compiled vs Python"), rows, rep.markdown)
def vector_work(env: Any, rng: Any) -> Work:
    """Ten steps of every game of a vector environment, random legal actions drawn in NumPy: (0, steps)."""

    def work() -> tuple[int, int]:
        for _ in range(10):
            env.step(env.random_actions(rng))
        return 0, 10 * env.num_envs

    return work


def section_vector(args: argparse.Namespace, rep: Report) -> None:
    """Issue 34: the vector environment's steps per second (NJET 4p, random legal actions chosen in NumPy)."""
    try:
        import llvmlite  # noqa: F401
        import numpy as np
    except ImportError:
        note("vector: skipped (pip install -e '.[fast]')")
        return
    from interpreter.toolkits.vector import VectorEnv

    with empty_cache():  # (the first compile is one)
        began = time.process_time()
        one = VectorEnv(VECTOR[0], VECTOR[1], n=1, seed=1)
        one.reset()
        one.step(one.random_actions(np.random.default_rng(0)))  # (every entry point compiled: reset and step)
        first = time.process_time() - began
        envs = {n: VectorEnv(VECTOR[0], VECTOR[1], n=n, seed=n) for n in VECTOR_GAMES}
        rates: dict[int, list[float]] = {n: [] for n in VECTOR_GAMES}
        for env in envs.values():
            env.reset()
        for run in range(args.runs):
            for n in (VECTOR_GAMES if run % 2 == 0 else VECTOR_GAMES[::-1]):
                rates[n].append(measure(vector_work(envs[n], np.random.default_rng(run)), args.seconds)[
                    "decisions_per_s"])
    rep.heading(f"The vector environment: {VECTOR[0]} {VECTOR[1]}p, steps per second (CPU time, one core)")
    rows = [(n, spread([r / 1e6 for r in rates[n]]) + " M", f">= {VECTOR_GOAL / 1e6:g} M",
             "yes" if med(rates[n]) >= VECTOR_GOAL else "no") for n in VECTOR_GAMES]
    table(("games a call", "steps/s: median (min-max)", "target", "met"), rows, rep.markdown)
    print(f"first compile of the module with the environment's entry points: {first:.1f} s of CPU\n")
    best = max(VECTOR_GAMES, key=lambda n: med(rates[n]))
    rep.target(f"vector environment, {VECTOR[0]} {VECTOR[1]}p, {best} games a call (M steps/s)",
               [r / 1e6 for r in rates[best]], f">= {VECTOR_GOAL / 1e6:g}", med(rates[best]) >= VECTOR_GOAL)
    n, rows = VECTOR_GAMES[0], []
    for name, players in VECTOR_OTHERS:
        with empty_cache():
            began = time.process_time()
            env = VectorEnv(name, players, n=n, seed=1)
            env.reset()
            env.step(env.random_actions(np.random.default_rng(0)))
            first = time.process_time() - began
            runs = [measure(vector_work(env, np.random.default_rng(run)), args.seconds)["decisions_per_s"]
                    for run in range(args.runs)]
        rows.append((f"{name} {players}p", spread([r / 1e6 for r in runs]) + " M", f"{first:.1f} s"))
    rep.heading(f"The vector environment, more games: steps per second at {n} games a call (CPU time, one core)")
    table(("game", "steps/s: median (min-max)", "first compile (CPU)"), rows, rep.markdown)


def _against_openspiel_cpp(machine: Any, args: argparse.Namespace, rep: Report) -> None:
    """Hearts 4p: the compiled backend's time per decision against OpenSpiel's C++ loop (``pyspiel.evaluate_bots``
    with uniform random bots: a whole hand, its deal card by card, played inside C++), in pairs."""
    try:
        import pyspiel
    except ImportError:
        note("compiled: OpenSpiel's C++ loop skipped (pip install open_spiel)")
        return
    game = pyspiel.load_game("hearts")
    count = openspiel_work(game, random.Random(0))
    per_hand = sum(count()[1] for _ in range(200)) / 200  # (its decisions per hand: evaluate_bots gives none)

    def cpp(run: int) -> Work:
        bots = [pyspiel.make_uniform_random_bot(p, run * 4 + p) for p in range(4)]
        seeds = iter(range(10**9))

        def work() -> tuple[int, int]:
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))
            return 1, round(per_hand)

        return work

    found = []
    for run in range(args.runs):
        a, b = paired(compiled_work(machine), cpp(run), args.seconds, run)
        found.append(a["decisions_per_s"] / b["decisions_per_s"])
    rep.target("hearts 4p: compiled vs OpenSpiel's C++ loop (decisions/s)", found, ">= 1x", med(found) >= 1, 2)


def _later_process(name: str, players: int) -> float:
    """The CPU time of a new process that loads the game's compiled module from the cache and plays a game: from
    its start (Python, numpy and llvmlite imported) to the game's end."""
    code = ("from interpreter.compiled.machine import Machine; from interpreter.engine.compile import compile_game; "
            "from interpreter.rules.loader import load_rules; "
            f"Machine(compile_game(load_rules({name!r}), {players}), compiled=True).play_many(1)")
    began = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:  # (said, and the figure left out: the run goes on)
        note(f"compiled: a later process of {name} {players}p failed: {done.stderr.strip().splitlines()[-1]}")
        return float("nan")
    return (ended.ru_utime - began.ru_utime) + (ended.ru_stime - began.ru_stime)


def paired_ratios(configs: list[tuple[str, int]], sides: Callable[[tuple[str, int], int], tuple[Work, Work]],
                  args: argparse.Namespace, label: str
                  ) -> tuple[dict[tuple[str, int], list[float]], dict[tuple[str, int], list[dict[str, float]]]]:
    """For each config, ``sides(config, run)``'s two works measured in pairs, run after run: the first's time per
    decision over the second's, and the second's rates."""
    ratios: dict[tuple[str, int], list[float]] = {c: [] for c in configs}
    rates: dict[tuple[str, int], list[dict[str, float]]] = {c: [] for c in configs}
    for run in range(args.runs):
        for c in configs:
            first, second = sides(c, run)
            a, b = paired(first, second, args.seconds, run)
            rates[c].append(b)
            ratios[c].append(a["decisions_per_s"] / b["decisions_per_s"])
        note(f"{label}: run {run + 1} of {args.runs} done")
    return ratios, rates


def step_loop_work(game: Any, rng: random.Random) -> Work:
    """One random game by a Python loop over ``state.pending`` and ``Game.apply_fast`` (as an API user would)."""
    from interpreter.engine.state import CHANCE

    new_state, apply_fast, rnd = game.new_state, game.apply_fast, rng.random

    def work() -> tuple[int, int]:
        state = new_state()
        decisions = 0
        while not state.finished:
            d = state.pending
            if d.actor == CHANCE:
                apply_fast(state, d.step.chance.sample(game, state, rng))
            else:
                actions = d.actions
                apply_fast(state, actions[int(rnd() * len(actions))])
                decisions += 1
        return len(state.round_results), decisions

    return work


def simulate_work(game: Any, name: str) -> Work:
    """A batch of games as ``trickbook simulate NAME -p 4`` plays them (random agents, one process)."""
    from interpreter.harness.simulate import Setup, simulate

    setup = Setup(name, game.players)
    batch = [0]

    def work() -> tuple[int, int]:
        batch[0] += 1
        return simulate(game, SIMULATE_BATCH, f"bench-{batch[0]}", None, setup).rounds_played, 0

    return work


def load_baseline(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"trickbook_bench_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def baseline_work(module: ModuleType, rng: random.Random) -> Work:
    """One round of a hand-coded baseline (``play_round(rng, dealer)``, the dealer turning as in its main)."""
    play_round = module.play_round
    n = [0]

    def work() -> tuple[int, int]:
        out = play_round(rng, n[0] % 4)
        n[0] += 1
        return 1, out[2] if len(out) > 2 else 0

    return work


def draw(outcomes: list[tuple[int, float]], r: float) -> int:
    """The outcome where the cumulative probability passes ``r`` (0 <= r < 1)."""
    total = 0.0
    for action, p in outcomes:
        total += p
        if r < total:
            return action
    return outcomes[-1][0]  # rounding


def openspiel_work(game: Any, rng: random.Random) -> Work:
    """One episode (a hand) of an OpenSpiel game by its Python loop. A chance outcome is drawn by walking the
    cumulative probabilities of ``chance_outcomes()`` (faster here than ``random.choices``, which takes about
    40% more time per decision in Hearts)."""
    rnd = rng.random

    def work() -> tuple[int, int]:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(draw(state.chance_outcomes(), rnd()))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rnd() * len(legal))])
                decisions += 1
        return 1, decisions

    return work


# ---------------------------------------------------------------- sections


class Report:
    """The figures of a run, for the summary of targets at the end."""

    def __init__(self, markdown: bool):
        self.markdown = markdown
        self.targets: list[tuple[str, str, str, str]] = []

    def target(self, what: str, ratios: Sequence[float], goal: str, met: bool, digits: int = 2) -> None:
        self.targets.append((what, spread(ratios, digits), goal, "yes" if met else "no"))

    def heading(self, text: str) -> None:
        print(f"### {text}" if self.markdown else f"== {text}")
        print()


def section_games(args: argparse.Namespace, rep: Report) -> None:
    from interpreter.engine.compile import supported_players
    from interpreter.rules.catalog import bundled_games
    from interpreter.rules.loader import load_rules

    configs = [(name, n) for name in bundled_games() for n in supported_players(load_rules(name))]
    ref = compiled(*REFERENCE)
    ratios, rates = paired_ratios(configs, lambda c, run: (
        playout_work(ref, random.Random(run)), playout_work(compiled(*c), random.Random(run))), args, "games")
    rep.heading("Random play through Game.playout (time per decision vs NJET Rio Grande 4p: target within "
                f"{GAMES_GOAL:g}x)")
    rows = []
    for c in configs:
        r = rates[c]
        rows.append((c[0], c[1], f"{med([x['rounds_per_s'] for x in r]):,.0f}",
                     f"{med([x['decisions_per_s'] for x in r]):,.0f}",
                     f"{med([x['decisions_per_round'] for x in r]):.1f}", spread(ratios[c]) + "x",
                     "yes" if med(ratios[c]) <= GAMES_GOAL else "no"))
    table(("game", "players", "rounds/s", "decisions/s", "decisions per round",
           "time per decision vs NJET 4p", f"within {GAMES_GOAL:g}x"), rows, rep.markdown)
    within = [c for c in configs if med(ratios[c]) <= GAMES_GOAL]
    worst = max(configs, key=lambda c: med(ratios[c]))
    rep.targets.append(("every bundled game: time per decision vs NJET 4p (worst: "
                        f"{worst[0]} {worst[1]}p)", spread(ratios[worst]) + "x", f"<= {GAMES_GOAL:g}x",
                        f"{len(within)} of {len(configs)}"))


def _baselines(args: argparse.Namespace) -> dict[str, ModuleType]:
    found = {}
    for name, script in (("njet-riogrande", "baseline_njet.py"), ("meinz", "baseline_meinz.py")):
        path = args.baselines / script
        if path.is_file():
            found[name] = load_baseline(path)
        else:
            print(f"{script}: not found at {path} (--baselines DIR)")
    return found


def section_against_baselines(args: argparse.Namespace, rep: Report, harness: bool) -> None:
    """Game.playout (``harness`` False) or the simulate command's harness (True) against the baselines."""
    titles = {"njet-riogrande": "NJET Rio Grande 4p", "meinz": "Meinz 4p"}
    baselines = _baselines(args)
    if not baselines:
        return
    results: dict[str, list[tuple[dict[str, float], dict[str, float]]]] = {n: [] for n in baselines}
    for run in range(args.runs):
        for name, module in baselines.items():
            game = compiled(name, 4)
            ours = simulate_work(game, name) if harness else playout_work(game, random.Random(run))
            results[name].append(paired(ours, baseline_work(module, random.Random(run)), args.seconds, run))
        note(f"{'simulate' if harness else 'baselines'}: run {run + 1} of {args.runs} done")
    what = "trickbook simulate (random agents, harness)" if harness else "Game.playout"
    rep.heading(f"{what} against the hand-coded baselines (rounds/s)")
    rows = []
    for name, pairs in results.items():
        ratios = [a["rounds_per_s"] / b["rounds_per_s"] for a, b in pairs]
        goal = BASELINE_GOALS[(name, harness)]
        rows.append((titles[name], f"{med([a['rounds_per_s'] for a, _ in pairs]):,.0f}",
                     f"{med([b['rounds_per_s'] for _, b in pairs]):,.0f}", spread(ratios, 3), f">= {goal}",
                     "yes" if med(ratios) >= goal else "no"))
        rep.target(f"{titles[name]}: {what} vs baseline", ratios, f">= {goal}", med(ratios) >= goal, 3)
    table(("game", "Trickbook rounds/s", "baseline rounds/s", "ratio", "target", "met"), rows, rep.markdown)


def section_openspiel(args: argparse.Namespace, rep: Report) -> None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        rep.heading("OpenSpiel")
        print("openspiel: skipped, pyspiel is not installed (pip install open_spiel, or pip install -e '.[bench]')")
        print()
        return
    games = {name: (compiled(name, 4), pyspiel.load_game(os_name, params))
             for name, (os_name, params) in OPENSPIEL.items()}
    res: dict[str, list[tuple[dict[str, float], dict[str, float], dict[str, float]]]] = {n: [] for n in games}
    for run in range(args.runs):
        for name, (game, spiel) in games.items():
            # OpenSpiel in the middle: each Trickbook figure is measured right before or after it
            a, b = step_loop_work(game, random.Random(run)), playout_work(game, random.Random(run))
            first = measure(a if run % 2 == 0 else b, args.seconds)
            theirs = measure(openspiel_work(spiel, random.Random(run)), args.seconds)
            second = measure(b if run % 2 == 0 else a, args.seconds)
            loop, ours = (first, second) if run % 2 == 0 else (second, first)
            res[name].append((ours, loop, theirs))
        note(f"openspiel: run {run + 1} of {args.runs} done")
    rep.heading("Against OpenSpiel's Python loop, 4 players (time per decision: target at most "
                f"{OPENSPIEL_GOAL:g}x OpenSpiel's)")
    rows = []
    for name, runs in res.items():
        playout = [o["decisions_per_s"] for o, _, _ in runs]
        loop = [lo["decisions_per_s"] for _, lo, _ in runs]
        spiel = [t["decisions_per_s"] for _, _, t in runs]
        ratio = [t / o for o, t in zip(playout, spiel)]
        ratio_loop = [t / lo for lo, t in zip(loop, spiel)]
        rows.append((name, f"{med(playout):,.0f}", f"{med(loop):,.0f}", f"{med(spiel):,.0f}",
                     f"{med([o['decisions_per_round'] for o, _, _ in runs]):.1f}",
                     f"{med([t['decisions_per_round'] for _, _, t in runs]):.1f}",
                     spread(ratio) + "x", spread(ratio_loop) + "x", "yes" if med(ratio) <= OPENSPIEL_GOAL else "no"))
        rep.target(f"{name} 4p: playout time per decision vs OpenSpiel's Python loop", ratio, f"<= {OPENSPIEL_GOAL:g}x",
                   med(ratio) <= OPENSPIEL_GOAL)
    table(("game", "playout decisions/s", "pending/apply_fast loop decisions/s", "OpenSpiel decisions/s",
           "Trickbook decisions per round", "OpenSpiel decisions per hand", "playout time per decision vs OpenSpiel",
           "loop vs OpenSpiel", f"at most {OPENSPIEL_GOAL:g}x"), rows, rep.markdown)


# ---------------------------------------------------------------- ismcts against the reference search

REFERENCE_SCRIPT = Path(__file__).with_name("ismcts_reference.py")
REFERENCE_FIGURES = Path(__file__).with_name("ismcts_reference.json")
ENGINE_PATHS = ("interpreter", "games", ":!interpreter/toolkits")  # what the search's speed depends on


def ismcts_rate(game: Any, rng: random.Random, seconds: float, reach: int) -> float:
    """The current search's iterations per second of CPU time (``act`` only), in this process, on the workload of
    ismcts_reference.py. While the engine is the one the reference was measured on, that file's code serves;
    when the engine's objects change, this is where the same workload is written for the new ones (the reference
    file stays as it is: it runs on the reference commit)."""
    return load_baseline(REFERENCE_SCRIPT).ismcts_rate(game, rng, seconds, reach)[0]


def git(*argv: str) -> subprocess.CompletedProcess[bytes] | None:
    """``git -C ROOT argv``; None when git cannot be run here."""
    try:
        return subprocess.run(["git", "-C", str(ROOT), *argv], capture_output=True)
    except OSError:
        return None


class ReferenceSearch:
    """The search of the reference commit, run by ismcts_reference.py in child processes, in a copy of that
    commit's files (``git archive``) with a cache folder of its own (the two engines' cached code never mix)."""

    def __init__(self, commit: str):
        self.commit = commit
        self.folder = Path(tempfile.mkdtemp(prefix="trickbook-bench-reference-"))
        self.tree = self.folder / "tree"
        archive = git("archive", "--format=tar", commit)
        if archive is None or archive.returncode:
            self.close()
            why = "git is not available" if archive is None else archive.stderr.decode(errors="replace").strip()
            raise LookupError(f"the reference commit {commit[:7]} cannot be copied ({why})")
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(self.tree, filter="data")
        self.env = dict(os.environ, PYTHONPATH=str(self.tree), XDG_CACHE_HOME=str(self.folder / "cache"))
        self.env.pop("TRICKBOOK_NO_CACHE", None)

    def rate(self, name: str, seed: int, seconds: float, reach: int) -> float:
        """Iterations per second of CPU time (``act`` only, timed in the child) of the reference search."""
        out = subprocess.run([sys.executable, str(REFERENCE_SCRIPT), name, str(seed), str(seconds), str(reach)],
                             env=self.env, cwd=self.tree, capture_output=True, text=True)
        if out.returncode:
            raise SystemExit(f"the reference search failed:\n{out.stderr}")
        result = json.loads(out.stdout)
        if not Path(result["package"]).resolve().is_relative_to(self.tree.resolve()):
            raise SystemExit(f"the reference search ran {result['package']}, not the copy of {self.commit[:7]}")
        return float(result["iterations_per_s"])

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def section_ismcts(args: argparse.Namespace, rep: Report) -> None:
    """The current search against the reference (ISMCTS_GOAL): measured in the same run where the reference commit
    can be copied, else through the yardstick (baseline_njet.py's rounds per second, measured next to each search)
    against the figures stored with the reference."""
    stored = json.loads(REFERENCE_FIGURES.read_text(encoding="utf-8")) if REFERENCE_FIGURES.is_file() else None
    reach = {}
    for name in ISMCTS_GAMES:  # two rounds' worth of decisions
        reach[name] = search_reach(compiled(name, 4))
    yardstick = _baselines(args).get("njet-riogrande")
    reference: ReferenceSearch | None = None
    if stored is None:
        print(f"{REFERENCE_FIGURES.name} not found: no reference to compare with")
    else:
        try:
            reference = ReferenceSearch(stored["commit"])
        except LookupError as e:
            print(f"{e}: comparing through the yardstick and the stored figures instead")
        if yardstick is not None and file_digest(args.baselines / "baseline_njet.py") != stored["yardstick_sha256"]:
            print("baseline_njet.py is not the yardstick the reference was measured with: no comparison through it")
            stored = dict(stored, games={})
    sides = ["now"] + (["then"] if reference else []) + (["yardstick"] if yardstick else [])

    def one(side: str, name: str, run: int) -> float:
        if side == "now":
            return ismcts_rate(compiled(name, 4), random.Random(run), args.seconds, reach[name])
        if side == "then":
            assert reference is not None
            return reference.rate(name, run, args.seconds, reach[name])
        assert yardstick is not None
        return measure(baseline_work(yardstick, random.Random(run)), args.seconds)["rounds_per_s"]

    res: dict[str, dict[str, list[float]]] = {n: {side: [] for side in sides} for n in ISMCTS_GAMES}
    try:
        for run in range(args.runs):
            for name in ISMCTS_GAMES:
                turn = run % len(sides)  # the side measured first turns from run to run
                for side in sides[turn:] + sides[:turn]:
                    res[name][side].append(one(side, name, run))
            note(f"ismcts: run {run + 1} of {args.runs} done")
    finally:
        if reference:
            reference.close()
    ismcts_report(args, rep, stored, res)


def ismcts_report(args: argparse.Namespace, rep: Report, stored: dict[str, Any] | None,
                  res: dict[str, dict[str, list[float]]]) -> None:
    commit = stored["commit"][:7] if stored else "the reference"
    rep.heading(f"ismcts: iterations per second of one agent, 4 players, against the search of {commit} "
                f"(target at least {ISMCTS_GOAL:g}x)")
    rows = []
    for name, got in res.items():
        now, then, yard = got["now"], got.get("then"), got.get("yardstick")
        kept = stored["games"].get(name, {}).get("per_yardstick_round") if stored else None
        by_yard = [a / b / kept for a, b in zip(now, yard)] if yard and kept else None
        ratios = [a / b for a, b in zip(now, then)] if then else by_yard
        rows.append((name, spread(now, 0), spread(then, 0) if then else "-", spread(ratios) + "x" if ratios else "-",
                     spread([a / b for a, b in zip(now, yard)], 3) if yard else "-", f"{kept:.3f}" if kept else "-",
                     spread(by_yard) + "x" if by_yard else "-",
                     "-" if not ratios else "yes" if med(ratios) >= ISMCTS_GOAL else "no"))
        if ratios:
            how = "in the same run" if then else "through the yardstick, against the stored figures"
            rep.target(f"ismcts {name} 4p: iterations/s vs the search of {commit} ({how})", ratios,
                       f">= {ISMCTS_GOAL:g}x", med(ratios) >= ISMCTS_GOAL)
    table(("game", "iterations/s", f"{commit}'s iterations/s", f"vs {commit}", "iterations per yardstick round",
           f"{commit}'s, stored", "vs stored", "met"), rows, rep.markdown)
    if args.save_ismcts_reference:
        save_ismcts_reference(args, res)


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_ismcts_reference(args: argparse.Namespace, res: dict[str, dict[str, list[float]]]) -> None:
    """Keep this run's figures as the reference (ismcts_reference.json): only from an engine as committed, the
    commit named being the last that changed it, so that a later run can copy it and run its search again."""
    dirty = git("status", "--porcelain", "--", *ENGINE_PATHS)
    last = git("log", "-1", "--format=%H %cs", "--", *ENGINE_PATHS)
    if dirty is None or last is None or dirty.returncode or last.returncode or dirty.stdout.strip():
        raise SystemExit("--save-ismcts-reference: the engine (interpreter/, games/) must be as committed in git")
    if any("yardstick" not in got for got in res.values()):
        raise SystemExit("--save-ismcts-reference needs the yardstick, baseline_njet.py (--baselines DIR)")
    commit, day = last.stdout.decode().split()
    yardstick = args.baselines / "baseline_njet.py"
    figures = {
        "commit": commit,
        "committed": day,
        "measured": time.strftime("%Y-%m-%d"),
        "how": " ".join(["python", "benchmarks/run.py", *sys.argv[1:]]),
        "python": sys.version.split()[0],
        "machine": f"{platform.platform()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
        "yardstick": "baseline_njet.py play_round, rounds per second of CPU time, measured next to each search",
        "yardstick_sha256": file_digest(yardstick),
        "games": {name: {"iterations_per_s": round(med(got["now"])),
                         "min": round(min(got["now"])), "max": round(max(got["now"])),
                         "per_yardstick_round": round(med([a / b for a, b in zip(got["now"], got["yardstick"])]), 4)}
                  for name, got in res.items()},
    }
    REFERENCE_FIGURES.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"kept as the reference: {REFERENCE_FIGURES}")


def api_work(name: str, rng: random.Random) -> Work:
    """One random game through the public API: legal action ids, ``apply`` by id, whole deals."""
    import interpreter as tb
    from interpreter.limits import MAX_NUMBER

    game = tb.load(name, 4)

    def work() -> tuple[int, int]:
        state = game.new_state(seed=rng.randrange(MAX_NUMBER + 1))  # a seed is a whole number (the API refuses others)
        decisions = 0
        while not state.is_over():
            if state.is_chance():
                state.apply_chance()
            else:
                legal = state.legal_actions()
                state.apply(legal[int(rng.random() * len(legal))])
                decisions += 1
        return state.round, decisions

    return work


def spiel_work(name: str, rng: random.Random) -> Work | None:
    """One random game of the rule file as an OpenSpiel game, by OpenSpiel's Python loop."""
    try:
        import pyspiel

        from interpreter.toolkits.openspiel import register
    except ImportError:
        return None
    return openspiel_work(pyspiel.load_game(register(name, 4)), rng)


def zoo_work(name: str, rng: random.Random) -> Work | None:
    """One random game of the rule file as a PettingZoo AEC environment."""
    try:
        import numpy as np

        from interpreter.toolkits.pettingzoo import TrickbookEnv
    except ImportError:
        return None
    env = TrickbookEnv(name, 4)

    def work() -> tuple[int, int]:
        env.reset(seed=int(rng.random() * 2**32))
        decisions = 0
        for _agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            decisions += 1
        assert env.state is not None
        return env.state.round, decisions

    return work


ADAPTER_GAMES = ("hearts", "njet-riogrande")


def section_adapters(args: argparse.Namespace, rep: Report) -> None:
    ways: dict[str, Callable[[str, random.Random], Work | None]] = {
        "public API (GameState)": api_work, "OpenSpiel": spiel_work, "PettingZoo (AEC)": zoo_work}
    rows = []
    for name in ADAPTER_GAMES:
        game = compiled(name, 4)
        for way, make in ways.items():
            work = make(name, random.Random(1))
            if work is None:
                note(f"adapters: {way} is not installed; skipped")
                continue
            native = step_loop_work(game, random.Random(2))
            ratios, rates, base = [], [], []
            for run in range(args.runs):
                a, b = paired(work, native, args.seconds, run)
                ratios.append(b["decisions_per_s"] / a["decisions_per_s"])
                rates.append(a["decisions_per_s"])
                base.append(b["decisions_per_s"])
            goal = ADAPTER_GOALS[way]
            met = med(ratios) <= goal
            rows.append((f"{name} 4p", way, f"{med(rates):,.0f}", f"{med(base):,.0f}", spread(ratios) + "x",
                         f"<= {goal:g}x", "yes" if met else "no"))
            rep.target(f"{name} 4p: {way}, time per decision vs the native loop", ratios, f"<= {goal:g}x", met)
        note(f"adapters: {name} done")
    rep.heading("Stepping a game from Python: decisions per second through each interface, 4 players")
    table(("game", "through", "decisions/s", "native decisions/s", "time per decision vs native", "target", "met"),
          rows, rep.markdown)


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold_times(runs: int = 5) -> dict[str, dict[str, list[float]]]:
    """CPU and wall time of each command in a new process, over ``runs`` rounds after one warm-up round.

    "validate" checks the same file every time (after the first run its digest is kept: the schema is not
    checked again); "validate, edited" checks a copy whose title changes every run, as when a file is being
    written (Lark's tables and the trees of unchanged expressions are kept; the schema check runs for the parts
    that changed). The bare import and the edited validate run back to back in every round.

    The commands use a cache folder of their own (``XDG_CACHE_HOME``, filled by the warm-up round), so that
    what other runs on the machine kept does not count; "validate, user's cache" is the unchanged validate
    with the user's own cache folder as it is (a cache holding the trees of many other files is read whole).
    """
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TRICKBOOK_NO_CACHE")}
    njet = ROOT / "games" / "njet-riogrande.yaml"
    folder = Path(tempfile.mkdtemp(prefix="trickbook-bench-"))
    edited = folder / "njet-edited.yaml"
    own = dict(env, XDG_CACHE_HOME=str(folder / "cache"))
    commands = {
        "bare import": ([sys.executable, "-c", "import yaml, jsonschema, lark"], own),
        "validate, edited": ([sys.executable, "-m", "interpreter.cli", "validate", str(edited)], own),
        "validate": ([sys.executable, "-m", "interpreter.cli", "validate", str(njet)], own),
        "list": ([sys.executable, "-m", "interpreter.cli", "list"], own),
        "validate, user's cache": ([sys.executable, "-m", "interpreter.cli", "validate", str(njet)], env),
    }
    text = njet.read_text(encoding="utf-8")
    out: dict[str, dict[str, list[float]]] = {k: {"cpu": [], "wall": []} for k in commands}
    try:
        for i in range(runs + 1):
            for key, (argv, child_env) in commands.items():
                if key == "validate, edited":
                    edited.write_text(text.replace("title: NJET (", f"title: NJET {time.time_ns()} ("),
                                      encoding="utf-8")
                cpu, wall = _child_cpu(), time.perf_counter()
                subprocess.run(argv, env=child_env, capture_output=True, check=True, cwd=ROOT)
                if i:  # the first round warms the caches (bytecode, parse tables)
                    out[key]["wall"].append(time.perf_counter() - wall)
                    out[key]["cpu"].append(_child_cpu() - cpu)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out


def section_cold(args: argparse.Namespace, rep: Report) -> None:
    times = cold_times(args.runs)
    bare = times["bare import"]["cpu"]
    labels = {
        "bare import": '`python -c "import yaml, jsonschema, lark"`',
        "validate, edited": "`trickbook validate` of a file edited since the last run (its title)",
        "validate": "`trickbook validate games/njet-riogrande.yaml` (checked before, unchanged)",
        "list": "`trickbook list`",
        "validate, user's cache": "`trickbook validate games/njet-riogrande.yaml`, the user's cache folder as found",
    }
    rep.heading("Cold start (CPU time of a new process)")
    rows = []
    for key, t in times.items():
        ratios = [a / b for a, b in zip(t["cpu"], bare)]
        rows.append((labels[key] if rep.markdown else key, f"{med(t['cpu']) * 1000:.0f} ms",
                     f"{min(t['wall']) * 1000:.0f} ms", spread(ratios) + "x"))
    table(("command", "CPU time (median)", "wall time (shortest)", "CPU vs the bare import"), rows, rep.markdown)


GENERATE = """\
import sys, time
from interpreter.engine.compile import compile_game
from interpreter.rules.loader import load_rules
start = time.process_time()
source = load_rules(sys.argv[1])
loaded = time.process_time()
compile_game(source, int(sys.argv[2]))
done = time.process_time()
print(loaded - start, done - loaded)
"""


def generate_times(name: str, players: int, cache: Path) -> tuple[float, float]:
    """CPU seconds of load_rules and of compile_game in a new process with ``cache`` as XDG_CACHE_HOME."""
    env = {k: v for k, v in os.environ.items() if k != "TRICKBOOK_NO_CACHE"}
    env["XDG_CACHE_HOME"] = str(cache)
    out = subprocess.run([sys.executable, "-c", GENERATE, name, str(players)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def section_generate(args: argparse.Namespace, rep: Report) -> None:
    from interpreter.rules.catalog import bundled_games

    names = list(bundled_games())
    res: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {n: [] for n in names}
    for run in range(args.runs):
        for name in names:
            cache = Path(tempfile.mkdtemp(prefix="trickbook-bench-cache-"))
            try:
                first = generate_times(name, 4, cache)
                res[name].append((first, generate_times(name, 4, cache)))
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        note(f"generate: run {run + 1} of {args.runs} done")
    rep.heading("Generating the compiled form, 4 players (CPU time in a new process: load_rules + compile_game)")
    rows = []
    for name, runs in res.items():
        first = [sum(f) for f, _ in runs]
        cached = [sum(c) for _, c in runs]
        rows.append((name, f"{med(first) * 1000:.0f} ms", f"{med([f[1] for f, _ in runs]) * 1000:.0f} ms",
                     f"{med(cached) * 1000:.0f} ms", f"{med([c[1] for _, c in runs]) * 1000:.0f} ms",
                     spread([c / f for f, c in zip(first, cached)])))
    table(("game", "first (empty cache)", "of which compile_game", "cached", "of which compile_game",
           "cached / first"), rows, rep.markdown)


def workers_speedup(games: int = 16) -> tuple[float, float, bool]:
    """Seconds for the same simulation on 1 and 2 processes, and whether the summaries are equal."""
    from interpreter.harness.simulate import Setup, simulate
    from interpreter.harness.simulate import compiled as simulate_compiled

    setup = Setup("hearts", 4, (), ("ismcts", "random"), True, iterations=20)
    game = simulate_compiled("hearts", 4, (), ())
    times, summaries = [], []
    for workers in (1, 2):
        began = time.perf_counter()
        summaries.append(simulate(game, games, "workers", None, setup, workers).as_json())
        times.append(time.perf_counter() - began)
    return times[0], times[1], summaries[0] == summaries[1]


def section_workers(args: argparse.Namespace, rep: Report) -> None:
    one, two, same = workers_speedup()
    rep.heading("Workers (wall time)")
    print(f"simulate on 1 process {one:.1f} s, on 2 processes {two:.1f} s: {one / two:.2f}x"
          + ("" if same else " (the summaries differ!)"))
    print()


AGENT_COSTS = """\
import resource, sys, time
from interpreter.harness import remote_link
what, times = sys.argv[1], int(sys.argv[2])
view = {"game": {}, "seat": 0, "seat_name": "A", "step": "s", "kind": "choose", "prompt": "", "legal": [0],
        "labels": ["x"], "actions": [], "observation": {}}
start = time.process_time()
loader = remote_link.Loader("tests.agents_for_tests:FirstLegal", remote_link.Limits())
loader.new_game(0)
for i in range(times):
    if what == "games":
        loader.end_game()
        loader.new_game(i)
    else:
        loader.ask(view)
loader.kill()
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.process_time() - start + used.ru_utime + used.ru_stime)
"""


def agent_costs(what: str, times: int) -> float:
    """CPU seconds (a new process and all it started) to load an agent, do ``what`` ``times`` times, end it."""
    out = subprocess.run([sys.executable, "-c", AGENT_COSTS, what, str(times)], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return float(out)


def section_agents(args: argparse.Namespace, rep: Report) -> None:
    counts = {"games": 200, "decisions": 2000}
    each: dict[str, list[float]] = {what: [] for what in counts}
    for _ in range(args.runs):
        for what, k in counts.items():  # each against a child that only loads and ends the agent, back to back
            each[what].append((agent_costs(what, k) - agent_costs(what, 0)) / k)
    rep.heading("Agents of one's own (CPU time of all the processes)")
    table(("what", "CPU time each: median (min-max)"),
          [("a game's process started, the agent made, the process ended", spread([s * 1000 for s in
                                                                                    each["games"]]) + " ms"),
           ("one decision asked and answered", spread([s * 1e6 for s in each["decisions"]], 0) + " µs")],
          rep.markdown)


# ---------------------------------------------------------------- ismcts on the compiled backend


def mid_match(game: Any, machine: Any, rng: random.Random, reach: int) -> tuple[Any, Any, Any]:
    """ismcts_reference.py's mid-game state (random play for a random number of decisions below ``reach``, at a
    decision with two or more actions), reached through a Match: the match, the seat's Knowledge and, given a
    compiled ``machine``, the game followed on it."""
    from interpreter.engine.state import CHANCE
    from interpreter.harness.following import Following
    from interpreter.match.driver import Match
    from interpreter.match.listeners import Knowing

    while True:
        match = Match(game, rng.random())
        knowing = Knowing(match)
        following = None if machine is None else Following(machine, match)
        match.listen(knowing, *(() if following is None else (following,)))
        match.begin()
        target, done = rng.randrange(reach), 0
        while not match.state.finished:
            d = match.state.pending
            if d.actor == CHANCE:
                match.chance()
            elif done >= target and len(d.actions) > 1:
                return match, knowing.knowledge, following
            else:
                match.act(d.actions[int(rng.random() * len(d.actions))])
                done += 1


def search_reach(game: Any) -> int:
    """How deep into a game ``mid_match`` goes for the ismcts sections: twice a round's decisions."""
    rate = measure(playout_work(game, random.Random(0)), 0.3)
    return max(2, round(2 * rate["decisions_per_round"]))


def decision_seconds(game: Any, machine: Any, seed: int, iterations: int, seconds: float, reach: int) -> float:
    """CPU time a decision of ``IsmctsAgent.act`` (only it timed) at ``iterations``, compiled where ``machine`` is
    given, in the states ``mid_match`` reaches from ``seed`` (the same for both sides), decisions until ``seconds``."""
    from interpreter.harness.agents import Turn
    from interpreter.harness.search import IsmctsAgent

    rng = random.Random(seed)
    spent, decisions = 0.0, 0
    while spent < seconds:
        match, knowledge, following = mid_match(game, machine, rng, reach)
        d = match.state.pending
        agent = IsmctsAgent(rng.random(), iterations, engine="python" if machine is None else "compiled")
        turn = Turn(game, match.state, d.actor, d.actions, d.prompt, knowledge, d.kind, following)
        start = time.process_time()
        agent.act(turn)
        spent += time.process_time() - start
        decisions += 1
    return spent / decisions


def search_rate(game: Any, machine: Any, seed: int, seconds: float, reach: int) -> float:
    """Iterations per second of CPU time of ``IsmctsAgent.act`` at the default iterations (decision_seconds)."""
    from interpreter.harness.search import ITERATIONS

    return ITERATIONS / decision_seconds(game, machine, seed, ITERATIONS, seconds, reach)


def search_game_seconds(game: Any, engine: str, seed: int, iterations: int) -> float:
    """CPU time of one game of ``game`` with an ismcts agent at every seat, searching on ``engine``."""
    from interpreter.harness.runner import play_game
    from interpreter.harness.search import IsmctsAgent

    agents = [IsmctsAgent(f"{seed}:{s}", iterations, engine=engine) for s in range(game.players)]
    start = time.process_time()
    play_game(game, agents, seed)
    return time.process_time() - start


def section_compiled_ismcts(args: argparse.Namespace, rep: Report) -> None:
    """Issue 34's search compiled against the Python backend's (COMPILED_ISMCTS_GOAL) and the game of Hearts it
    must play in HEARTS_GAME_GOAL s (see the module's docstring)."""
    try:
        import llvmlite  # noqa: F401
    except ImportError:
        note("compiled-ismcts: skipped (pip install -e '.[fast]')")
        return
    from interpreter.harness.engines import compiled_machine

    names = ISMCTS_GAMES + ISMCTS_DRAWN_GAMES
    machines = {name: compiled_machine(compiled(name, 4)) for name in names}
    reach, first = {}, {}
    for name in names:
        reach[name] = search_reach(compiled(name, 4))
        began = time.process_time()
        search_rate(compiled(name, 4), machines[name], 0, 1e-9, reach[name])  # (one decision: compiled or loaded)
        first[name] = time.process_time() - began
    rates: dict[str, dict[str, list[float]]] = {n: {"compiled": [], "python": []} for n in names}
    hearts = compiled("hearts", 4)
    games: dict[str, list[float]] = {"compiled": [], "python": []}
    for run in range(args.runs):
        sides = ["compiled", "python"] if run % 2 == 0 else ["python", "compiled"]
        for name in names:
            for side in sides:
                machine = machines[name] if side == "compiled" else None
                rates[name][side].append(search_rate(compiled(name, 4), machine, run, args.seconds, reach[name]))
        for side in sides:
            games[side].append(search_game_seconds(hearts, side, run, HEARTS_GAME_ITERATIONS))
        note(f"compiled-ismcts: run {run + 1} of {args.runs} done")
    rep.heading(f"ismcts on the compiled backend against the Python backend, 4 players (target at least "
                f"{COMPILED_ISMCTS_GOAL:g}x the iterations per second)")
    rows = []
    for name in ISMCTS_GAMES:
        got = rates[name]
        ratios = [a / b for a, b in zip(got["compiled"], got["python"], strict=True)]
        met = med(ratios) >= COMPILED_ISMCTS_GOAL
        rows.append((name, spread(got["compiled"], 0), spread(got["python"], 0), spread(ratios, 1) + "x",
                     f"{first[name]:.1f} s", "yes" if met else "no"))
        rep.target(f"ismcts {name} 4p: compiled vs Python search (iterations/s)", ratios,
                   f">= {COMPILED_ISMCTS_GOAL:g}x", met, 1)
    table(("game", "compiled iterations/s", "Python iterations/s", "compiled vs Python", "first call",
           "met"), rows, rep.markdown)
    rep.heading("ismcts where samples must agree with public values worked out from hidden cards or hold hidden "
                "values worked out again, against the Python backend, 4 players")
    table(("game", "compiled iterations/s", "Python iterations/s", "compiled vs Python", "first call"),
          [(name, spread(rates[name]["compiled"], 0), spread(rates[name]["python"], 0),
            spread([a / b for a, b in zip(rates[name]["compiled"], rates[name]["python"], strict=True)], 1) + "x",
            f"{first[name]:.1f} s") for name in ISMCTS_DRAWN_GAMES], rep.markdown)
    ratios = [b / a for a, b in zip(games["compiled"], games["python"], strict=True)]
    met = med(games["compiled"]) <= HEARTS_GAME_GOAL
    rep.heading(f"A game of Hearts, 4 ismcts seats at {HEARTS_GAME_ITERATIONS} iterations a move (CPU s)")
    table(("search", "CPU s a game", "Python over compiled"),
          [("compiled", spread(games["compiled"]), spread(ratios, 1) + "x"), ("python", spread(games["python"]), "")],
          rep.markdown)
    rep.target(f"Hearts 4p, 4 ismcts seats at {HEARTS_GAME_ITERATIONS} iterations a move, compiled (CPU s a game)",
               games["compiled"], f"<= {HEARTS_GAME_GOAL:g} s", met)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement (default 1)")
    ap.add_argument("--runs", type=int, default=5,
                    help="runs of every pair, for the medians (default 5; also the rounds of cold and generate)")
    ap.add_argument("--only", choices=SECTIONS, action="append", help="only this section (may be repeated)")
    ap.add_argument("--markdown", action="store_true", help="print tables for docs/performance.md")
    ap.add_argument("--games", metavar="NAME,...", default="",
                    help="the compiled section: only these bundled games (default: every one)")
    ap.add_argument("--save-ismcts-reference", action="store_true",
                    help="keep this run's ismcts figures as the reference (benchmarks/ismcts_reference.json)")
    ap.add_argument("--baselines", type=Path, default=BASELINES, metavar="DIR",
                    help="the folder of the hand-coded baseline_njet.py and baseline_meinz.py")
    args = ap.parse_args(argv)
    if args.runs < 1 or not args.seconds > 0:
        ap.error("--runs must be at least 1 and --seconds positive")
    parts = args.only or list(SECTIONS)
    rep = Report(args.markdown)
    began, cpu = time.perf_counter(), time.process_time()
    print(f"{args.runs} runs, {args.seconds:g} s of CPU time per measurement; Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores\n")
    sections: dict[str, Callable[[argparse.Namespace, Report], None]] = {
        "games": section_games,
        "baselines": lambda a, r: section_against_baselines(a, r, harness=False),
        "simulate": lambda a, r: section_against_baselines(a, r, harness=True),
        "openspiel": section_openspiel,
        "ismcts": section_ismcts,
        "adapters": section_adapters,
        "cold": section_cold,
        "generate": section_generate,
        "workers": section_workers,
        "agents": section_agents,
        "compact": section_compact,
        "compiled": section_compiled,
        "compiled-ismcts": section_compiled_ismcts,
        "batches": section_batches,
        "vector": section_vector,
    }
    for name in SECTIONS:
        if name in parts:
            sections[name](args, rep)
            sys.stdout.flush()
    if rep.targets:
        rep.heading("Targets")
        table(("target", "today: median (min-max) over the runs", "goal", "met"), rep.targets, rep.markdown)
    print(f"({time.perf_counter() - began:.0f} s wall, {time.process_time() - cpu:.0f} s CPU in this process)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
