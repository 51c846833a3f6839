"""The compiled backend's first compile of a game, a later process that loads it, and the compiled code's speed,
each game in new processes (issue 34: at most 10 s of CPU the first time, at most 1 s for a later process):

    python benchmarks/first_compile.py hearts:4 doppelkopf:4 --runs 3
    python benchmarks/first_compile.py hearts:4 --runs 3 --against main   # the same, and a commit's, in turn
    python benchmarks/first_compile.py hearts:4 --python /tmp/fast/bin/python   # in a `pip install '.[fast]'` venv

For each game and run: a new process whose ``XDG_CACHE_HOME`` is an empty folder times, by ``time.process_time``,
``Machine(game, compiled=True)`` through its first ``play_seeded(1)`` (the first compile), then, after a first call,
``play_many(300)`` (the compiled code's decisions per second); a second new process with the same folder loads the
kept module and plays a game (its CPU time from its start, Python and llvmlite imported, to the game's end: the later
process). With ``--against REV`` the commit's tree (``git archive``) is measured too, each of its runs right after
the same run of the working tree's. Medians with min and max; ``--markdown`` for a table. ``--later K`` runs the
later process K times a run (its median counts). ``--python`` runs the new processes with another interpreter: a
virtualenv with only ``trickbook[fast]`` installed, as a user has it. Each tree's modules
are compiled to bytecode first (``compileall``), as an installed package's are: without it a later process
compiles the engine's sources, 0.1-0.25 s more.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent

FIRST = """
import json, time
from interpreter.compiled.machine import Machine
from interpreter.engine.compile import compile_game
from interpreter.rules.loader import load_rules
game = compile_game(load_rules({name!r}), {players})
began = time.process_time()
machine = Machine(game, compiled=True)
machine.play_seeded(1)
first = time.process_time() - began
machine.play_many(1)  # (its own entry point, compiled on its first call)
began = time.process_time()
rounds, taken = machine.play_many(300)
print(json.dumps({{"first": first, "rate": taken / (time.process_time() - began)}}))
"""

LATER = """
from interpreter.compiled.machine import Machine
from interpreter.engine.compile import compile_game
from interpreter.rules.loader import load_rules
Machine(compile_game(load_rules({name!r}), {players}), compiled=True).play_seeded(1)
"""


PYTHON = sys.executable  # the interpreter of the new processes (--python)


def child(code: str, root: Path, cache: str) -> tuple[str, float]:
    """``code`` run by a new Python in ``root`` with ``cache`` as its cache folder: its output and CPU time."""
    env = {**os.environ, "XDG_CACHE_HOME": cache, "PYTHONPATH": str(root)}
    env.pop("TRICKBOOK_NO_CACHE", None)
    began = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([PYTHON, "-c", code], cwd=root, env=env, capture_output=True, text=True)
    ended = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{root}: {done.stderr.strip()}")
    return done.stdout, (ended.ru_utime - began.ru_utime) + (ended.ru_stime - began.ru_stime)


def measure(name: str, players: int, root: Path, later: int = 1) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as cache:
        out, _ = child(FIRST.format(name=name, players=players), root, cache)
        found = json.loads(out.strip().splitlines()[-1])
        found["later"] = median(child(LATER.format(name=name, players=players), root, cache)[1] for _ in range(later))
    return found


def summary(xs: list[float], unit: str, scale: float = 1.0) -> str:
    xs = [x / scale for x in xs]
    if len(xs) == 1:
        return f"{xs[0]:.{2 if unit == ' M' else 1}f}{unit}"
    d = 2 if unit == " M" else 1
    return f"{median(xs):.{d}f}{unit} ({min(xs):.{d}f}-{max(xs):.{d}f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+", help="NAME:PLAYERS")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--against", help="a commit measured in turn with the working tree")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--later", type=int, default=1, help="later processes a run (their median counts)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter of the new processes")
    args = ap.parse_args()
    global PYTHON
    PYTHON = args.python
    configs = [(g.split(":")[0], int(g.split(":")[1])) for g in args.games]
    sides: dict[str, Path] = {"this": ROOT}
    with tempfile.TemporaryDirectory() as other:
        if args.against:
            archive = subprocess.run(["git", "archive", args.against], cwd=ROOT, capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", other], input=archive.stdout, check=True)
            sides = {args.against: Path(other), "this": ROOT}
        for root in sides.values():  # (bytecode compiled, as an installed package has it: else a later process
            subprocess.run([PYTHON, "-m", "compileall", "-q", str(root / "interpreter")],  # compiles every module)
                           env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""}, capture_output=True, check=True)
        results: dict[tuple[str, int, str], list[dict[str, float]]] = {}
        for run in range(args.runs):
            for name, players in configs:
                for side, root in sides.items():
                    found = measure(name, players, root, args.later)
                    results.setdefault((name, players, side), []).append(found)
                    print(f"run {run + 1} {name} {players}p {side}: first {found['first']:.1f} s, later "
                          f"{found['later']:.2f} s, {found['rate'] / 1e6:.2f} M decisions/s", file=sys.stderr,
                          flush=True)
    rows = []
    for (name, players, side), found in results.items():
        rows.append((f"{name} {players}", side, summary([f["first"] for f in found], " s"),
                     summary([f["later"] for f in found], " s"), summary([f["rate"] for f in found], " M", 1e6)))
    if args.markdown:
        print("| game | code | first compile | later process | decisions/s |")
        print("|---|---|---:|---:|---:|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for row in rows:
            print("  ".join(row))


if __name__ == "__main__":
    main()
