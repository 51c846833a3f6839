"""How strong the agents are: for every bundled game, ``ismcts`` against three ``random`` seats and ``greedy``
against three ``random`` seats, the agent turned one seat further each game (so seat advantage cancels out).

    python benchmarks/strength.py --games 200 --workers 2 --markdown     # the table in docs/agents.md
    python benchmarks/strength.py --games 20 --only oh-hell,hearts         # a quick look
    python benchmarks/strength.py --agents ismcts --engine compiled --only hearts,meinz,njet-riogrande   # compiled
    python benchmarks/strength.py --agents ismcts --engine compiled --same-cpu --games 100 --workers 2 --markdown

``--same-cpu`` gives the compiled search, game by game, the number of iterations a move that costs it the CPU time
the Python search spends on ``--iterations`` (measured first, in this process: both searches deciding in the same
mid-game states, CPU time, the compiled search at two iteration counts so that its fixed cost a decision counts;
decisions the compiled search does not write are searched on the Python backend with that same number).

For each game and agent: its win share (a shared win counts 1/k) against the fair share 1/players, and its
margin: its final total minus the mean of the others' (negated where the lowest total wins), each a mean with
its 95% confidence interval over the games. An agent is significantly better than random when the interval of
its margin lies above 0. Game i of a line has the seed strength/i, as `trickbook simulate --seed strength
--agents ismcts,random --rotate` would give it, so any game can be replayed with `trickbook play`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

PLAYERS = 4  # every bundled game plays with 4


def main() -> int:
    from interpreter.harness.engines import run_game
    from interpreter.harness.simulate import Setup, simulate
    from interpreter.rules.catalog import bundled_games

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per game and agent (default 200)")
    ap.add_argument("--iterations", type=int, default=25, help="ismcts samples per move (default 25)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--only", help="comma-separated bundled game names")
    ap.add_argument("--agents", default="ismcts,greedy", help="the agents to measure (default ismcts,greedy)")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--engine", choices=("python", "compiled"), default="python",
                    help="where ismcts searches: python (default) or compiled (llvmlite; issue 34)")
    ap.add_argument("--same-cpu", action="store_true",
                    help="with --engine compiled: as many iterations a move as cost the Python search's CPU time")
    args = ap.parse_args()
    if args.same_cpu and args.engine != "compiled":
        ap.error("--same-cpu needs --engine compiled")
    names = args.only.split(",") if args.only else list(bundled_games())
    rows = []
    began = time.monotonic()
    for name in names:
        game = run_game(name, PLAYERS, (), ())
        iterations = args.iterations
        if args.same_cpu and "ismcts" in args.agents.split(","):
            iterations, costs = same_cpu_iterations(game, args.iterations)
            print(f"{name:<22} ismcts {iterations} iterations compiled = {args.iterations} on Python ({costs})",
                  file=sys.stderr, flush=True)
        for agent in args.agents.split(","):
            setup = Setup(name, PLAYERS, (), (agent, "random"), True, iterations, search=args.engine)
            start = time.monotonic()
            s = simulate(game, args.games, "strength", None, setup, args.workers)
            e = s.by_agent[agent]
            seconds = time.monotonic() - start
            rows.append((name, agent, e["win_share"], e["margin"], seconds / args.games, iterations))
            print(f"{name:<22} {agent:<7} win share {e['win_share'].text(True):<26} margin "
                  f"{e['margin'].text():<28} {seconds / args.games:.2f} s/game", file=sys.stderr, flush=True)
    if args.markdown:
        print(f"| game | agent | iterations a move | win share (fair: {1 / PLAYERS:.0%}) | margin over the others | "
              "better than random | s/game |")
        print("|---|---|---:|---|---|---|---:|")
        for name, agent, w, m, per, k in rows:
            verdict = "yes" if m.low > 0 else "no (worse)" if m.high < 0 else "not shown"
            shown = k if agent == "ismcts" else ""
            print(f"| {name} | {agent} | {shown} | {w.text(True)} | {m.text()} | {verdict} | {per:.2f} |")
        budget = (f"as many iterations a move as cost the compiled search the Python search's CPU time at "
                  f"{args.iterations}" if args.same_cpu else f"{args.iterations} iterations a move")
        print(f"\n{args.games} games per line, {PLAYERS} players, ismcts searching on the {args.engine} backend with "
              f"{budget}, {args.workers} worker(s), {time.monotonic() - began:.0f} s in all.")
    return 0


def same_cpu_iterations(game: Any, iterations: int, seconds: float = 2.0) -> tuple[int, str]:
    """How many iterations a move cost the compiled search the CPU time the Python search spends on ``iterations``
    (both deciding in the same mid-game states, benchmarks/run.py's ``mid_match``), and the costs measured: the
    compiled search's CPU time a decision at ``iterations`` and at 16 times as many, fitted by a line (a fixed cost a
    decision, what each iteration adds)."""
    from run import decision_seconds, search_reach

    from interpreter.harness.engines import compiled_machine

    machine = compiled_machine(game)
    reach = search_reach(game)
    decision_seconds(game, machine, 0, iterations, 1e-9, reach)  # (compiled or loaded first)
    python = decision_seconds(game, None, 1, iterations, seconds, reach)
    few = decision_seconds(game, machine, 1, iterations, seconds, reach)
    many = decision_seconds(game, machine, 1, 16 * iterations, seconds, reach)
    each = max((many - few) / (15 * iterations), 1e-9)
    fixed = max(few - iterations * each, 0.0)
    chosen = max(iterations, round((python - fixed) / each))
    return chosen, (f"a decision: Python {python * 1e3:.2f} ms; compiled {fixed * 1e3:.2f} ms + "
                    f"{each * 1e6:.1f} µs an iteration")


if __name__ == "__main__":
    sys.exit(main())
