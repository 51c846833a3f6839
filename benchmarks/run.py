"""Trickbook's speed, measured in one run: every bundled game and player count, the hand-coded baselines, and
the cold start of the command.

    python benchmarks/run.py                       # everything, 3 s per measurement
    python benchmarks/run.py --seconds 10 --markdown
    python benchmarks/run.py --only games          # or: baselines, cold, workers

* games: random games (every decision uniform among the legal ones, drawn as the baselines draw) through
  ``Game.playout``; rounds per second and decisions per second (chance events not counted), and the
  time per decision relative to NJET Rio Grande with 4 players.
* baselines: baseline_njet.py and baseline_meinz.py (hand-coded pure-Python NJET Rio Grande and Meinz for
  4 players, kept outside the repository; ``--baselines DIR`` says where) run for as long as the
  interpreter's measurement of the same game, right after it; the ratio is interpreter rounds/s over
  baseline rounds/s.
* cold: the shortest of several alternating runs of a bare ``python -c "import yaml, jsonschema, lark"``
  and of ``trickbook validate games/njet-riogrande.yaml`` and ``trickbook list``, each in a new process
  with bytecode allowed (PYTHONDONTWRITEBYTECODE unset), after one warm-up run of each.

* workers: the same simulation (Hearts, 4 players, ismcts against three random seats, 16 games) on 1 and
  on 2 processes, one after the other; the speed-up is the first time over the second (the summaries must
  be equal). Needs two free cores.

Numbers from one machine are only comparable within one run: compare ratios, not rates.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ROOT.parent / "shared" / "bench"


def game_rate(name: str, players: int, seconds: float, seed: int = 1) -> dict[str, float]:
    """Rounds and decisions per second of random play of one game."""
    from interpreter.engine.compile import compile_game
    from interpreter.rules.loader import load_rules

    game = compile_game(load_rules(name), players)
    rng = random.Random(seed)
    rounds = decisions = 0
    playout = game.playout
    start = time.perf_counter()
    while True:
        state = game.new_state()
        decisions += playout(state, rng)
        rounds += state.round_number
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return {"rounds_per_s": rounds / elapsed, "decisions_per_s": decisions / elapsed,
                    "decisions_per_round": decisions / rounds}


def baseline_rate(script: Path, seconds: float) -> float:
    out = subprocess.run([sys.executable, str(script), "--seconds", str(seconds)], capture_output=True,
                         text=True, check=True).stdout
    found = re.search(r"rounds_per_s=([0-9.]+)", out)
    if not found:
        raise SystemExit(f"could not read the rate of {script.name} from: {out!r}")
    return float(found.group(1))


def cold_times(runs: int = 7) -> dict[str, float]:
    """The shortest wall time of each command over ``runs`` alternating runs.

    "validate" checks the same file every time (after the first run its digest is kept: the schema is not
    checked again); "validate, edited" checks a copy whose title changes every run, as when a file is being
    written (Lark's tables and the trees of unchanged expressions are kept; the schema check runs).
    """
    import tempfile

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    njet = ROOT / "games" / "njet-riogrande.yaml"
    folder = Path(tempfile.mkdtemp(prefix="trickbook-bench-"))
    edited = folder / "njet-edited.yaml"
    commands = {
        "bare import": [sys.executable, "-c", "import yaml, jsonschema, lark"],
        "validate": [sys.executable, "-m", "interpreter.cli", "validate", str(njet)],
        "validate, edited": [sys.executable, "-m", "interpreter.cli", "validate", str(edited)],
        "list": [sys.executable, "-m", "interpreter.cli", "list"],
    }
    text = njet.read_text(encoding="utf-8")
    best = {k: float("inf") for k in commands}
    for i in range(runs + 1):
        for key, argv in commands.items():
            if key == "validate, edited":
                edited.write_text(text.replace("title: NJET (", f"title: NJET {time.time_ns()} ("), encoding="utf-8")
            start = time.perf_counter()
            subprocess.run(argv, env=env, capture_output=True, check=True)
            if i:  # the first round warms the caches (bytecode, parse tables)
                best[key] = min(best[key], time.perf_counter() - start)
    return best


def workers_speedup(games: int = 16) -> tuple[float, float, bool]:
    """Seconds for the same simulation on 1 and 2 processes, and whether the summaries are equal."""
    from interpreter.harness.simulate import Setup, compiled, simulate

    setup = Setup("hearts", 4, (), ("ismcts", "random"), True, iterations=20)
    game = compiled("hearts", 4, (), ())
    times, summaries = [], []
    for workers in (1, 2):
        began = time.perf_counter()
        summaries.append(simulate(game, games, "workers", None, setup, workers).as_json())
        times.append(time.perf_counter() - began)
    return times[0], times[1], summaries[0] == summaries[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="per measurement (default 3)")
    ap.add_argument("--only", choices=("games", "baselines", "cold", "workers"), action="append")
    ap.add_argument("--markdown", action="store_true", help="print tables for docs/performance.md")
    ap.add_argument("--baselines", type=Path, default=BASELINES, metavar="DIR",
                    help="the folder of the hand-coded baseline_njet.py and baseline_meinz.py")
    args = ap.parse_args(argv)
    parts = args.only or ["games", "baselines", "cold", "workers"]

    if "games" in parts:
        from interpreter.engine.compile import supported_players
        from interpreter.rules.catalog import bundled_games
        from interpreter.rules.loader import load_rules

        results = []
        for name in bundled_games():
            for n in supported_players(load_rules(name)):
                results.append((name, n, game_rate(name, n, args.seconds)))
                print(f"  {name} {n}p done", file=sys.stderr)
        ref = next(r for g, n, r in results if (g, n) == ("njet-riogrande", 4))
        print("| game | players | rounds/s | decisions/s | decisions per round | time per decision vs NJET 4p |"
              if args.markdown else f"{'game':<22} {'players':>7} {'rounds/s':>9} {'decisions/s':>12} "
              f"{'per round':>9} {'vs NJET 4p':>10}")
        if args.markdown:
            print("|---|---:|---:|---:|---:|---:|")
        for name, n, r in results:
            slower = ref["decisions_per_s"] / r["decisions_per_s"]
            if args.markdown:
                print(f"| {name} | {n} | {r['rounds_per_s']:.1f} | {r['decisions_per_s']:,.0f} | "
                      f"{r['decisions_per_round']:.1f} | {slower:.2f}x |")
            else:
                print(f"{name:<22} {n:>7} {r['rounds_per_s']:>9.1f} {r['decisions_per_s']:>12,.0f} "
                      f"{r['decisions_per_round']:>9.1f} {slower:>9.2f}x")
        print()

    if "baselines" in parts:
        for name, script in (("njet-riogrande", "baseline_njet.py"), ("meinz", "baseline_meinz.py")):
            path = args.baselines / script
            if not path.is_file():
                print(f"{script}: not found at {path}")
                continue
            ours = game_rate(name, 4, args.seconds)["rounds_per_s"]
            theirs = baseline_rate(path, args.seconds)
            print(f"{name} 4p: interpreter {ours:.1f} rounds/s, {script} {theirs:.1f} rounds/s, "
                  f"ratio {ours / theirs:.3f}")
        print()

    if "workers" in parts:
        one, two, same = workers_speedup()
        print(f"simulate on 1 process {one:.1f} s, on 2 processes {two:.1f} s: {one / two:.2f}x"
              + ("" if same else " (the summaries differ!)"))
        print()

    if "cold" in parts:
        best = cold_times()
        bare = best["bare import"]
        for key, t in best.items():
            print(f"cold {key:<16} {t * 1000:7.0f} ms  ({t / bare:.2f}x the bare import)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
