"""How strong the agents are: for every bundled game, ``ismcts`` against three ``random`` seats and ``greedy``
against three ``random`` seats, the agent turned one seat further each game (so seat advantage cancels out).

    python benchmarks/strength.py --games 200 --workers 2 --markdown     # the table in docs/agents.md
    python benchmarks/strength.py --games 20 --only oh-hell,hearts         # a quick look
    python benchmarks/strength.py --agents ismcts --engine compiled --only hearts,meinz,njet-riogrande   # compiled

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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

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
                    help="where ismcts searches: python (default) or compiled (numba; issue 34)")
    args = ap.parse_args()
    names = args.only.split(",") if args.only else list(bundled_games())
    rows = []
    began = time.monotonic()
    for name in names:
        for agent in args.agents.split(","):
            setup = Setup(name, PLAYERS, (), (agent, "random"), True, args.iterations, search=args.engine)
            game = run_game(name, PLAYERS, (), ())
            start = time.monotonic()
            s = simulate(game, args.games, "strength", None, setup, args.workers)
            e = s.by_agent[agent]
            seconds = time.monotonic() - start
            rows.append((name, agent, e["win_share"], e["margin"], seconds / args.games))
            print(f"{name:<22} {agent:<7} win share {e['win_share'].text(True):<26} margin "
                  f"{e['margin'].text():<28} {seconds / args.games:.2f} s/game", file=sys.stderr, flush=True)
    if args.markdown:
        print(f"| game | agent | win share (fair: {1 / PLAYERS:.0%}) | margin over the others | better than "
              "random | s/game |")
        print("|---|---|---|---|---|---|")
        for name, agent, w, m, per in rows:
            verdict = "yes" if m.low > 0 else "no (worse)" if m.high < 0 else "not shown"
            print(f"| {name} | {agent} | {w.text(True)} | {m.text()} | {verdict} | {per:.2f} |")
        print(f"\n{args.games} games per line, {PLAYERS} players, ismcts with {args.iterations} iterations per move "
              f"searching on the {args.engine} backend, "
              f"{args.workers} worker(s), {time.monotonic() - began:.0f} s in all.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
