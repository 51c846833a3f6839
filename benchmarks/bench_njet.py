"""Speed of the interpreter against the hand-coded baseline, measured in one run.

Plays random NJET (Rio Grande, 4 players) rounds through the interpreter for
--seconds, then runs ../shared/bench/baseline_njet.py for as long, and prints
both rates and their ratio (interpreter / baseline; the goal is >= 0.5).

usage: python benchmarks/bench_njet.py [--seconds 5] [--baseline PATH]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from interpreter.engine.compile import compile_game
from interpreter.engine.state import CHANCE
from interpreter.rules.loader import load_rules

DEFAULT_BASELINE = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "baseline_njet.py"


def interpreter_rate(seconds: float, seed: int = 1) -> tuple[float, int]:
    """Rounds per second of random 4-player Rio Grande NJET, every decision uniform among legal ones."""
    game = compile_game(load_rules("njet-riogrande"), 4)
    rng = random.Random(seed)
    rounds = 0
    start = time.perf_counter()
    apply_fast = game.apply_fast
    while True:
        state = game.new_state()
        while not state.finished:
            d = state.pending
            if d.actor == CHANCE:
                apply_fast(state, d.step.sample(game, state, rng))
            else:
                actions = d.actions
                apply_fast(state, actions[rng.randrange(len(actions))])
        rounds += state.round_number
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return rounds / elapsed, rounds


def baseline_rate(seconds: float, path: Path) -> float:
    out = subprocess.run([sys.executable, str(path), "--seconds", str(seconds)], capture_output=True, text=True,
                         check=True).stdout
    m = re.search(r"rounds_per_s=([0-9.]+)", out)
    if not m:
        raise SystemExit(f"could not read the baseline's rate from: {out!r}")
    return float(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--baseline", type=Path, default=DEFAULT_BASELINE)
    a = ap.parse_args()
    if not a.baseline.is_file():
        raise SystemExit(f"baseline not found at {a.baseline} (pass --baseline PATH)")
    ours, rounds = interpreter_rate(a.seconds)
    base = baseline_rate(a.seconds, a.baseline)
    print(f"interpreter: {ours:8.1f} rounds/s ({rounds} rounds)")
    print(f"baseline:    {base:8.1f} rounds/s")
    print(f"ratio:       {ours / base:8.3f}  (goal >= 0.5)")


if __name__ == "__main__":
    main()
