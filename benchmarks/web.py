"""The web table under load: many tables of bots at once in one server process, each move's latency.

    python benchmarks/web.py                        # 50 tables of Hearts, 200 moves each, 3 runs
    python benchmarks/web.py --tables 50 --moves 200 --runs 5 --markdown
    python benchmarks/web.py --agents random,greedy,ismcts,greedy --iterations 50

What runs is the server's own code, in one process, with no network: the lobby makes the tables
(``Lobby.create``), and each table's bots play through ``Server._play_on``, the task the server runs for a table
(the table's asyncio lock, the move worked out in a worker thread by ``asyncio.to_thread``, then every watching
page sent its view). All tables play at once on one event loop, as on a busy server; deals are not counted as
moves. For each move:

* latency: wall time from the table's task asking for the move to the move taken and its views sent (waiting for
  a worker thread and for the interpreter's lock among the other tables included): what a person at the table
  waits for a bot;
* CPU: the worker thread's CPU time for the move itself (``time.thread_time``), the work a move costs; and the
  whole process's CPU time over the moves (the event loop, the locks, the views sent, the records written).

Two loads: bots only (nobody watching), and one page watching each table (its view made and encoded as JSON
after every move, as for a person at the table). Each run is a new server and new tables (their seeds differ
from run to run); a figure is the median over the runs, with the minimum and maximum.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.web.app import Server  # noqa: E402
from interpreter.web.lobby import Lobby  # noqa: E402


class _Page:
    """A watching page that keeps nothing (the view is made and encoded; sending it costs nothing here)."""

    async def send_text(self, text: str) -> None:
        return None


class _Measured(Server):
    """The server, each table's moves timed where its task asks for them."""

    def __init__(self, lobby: Lobby, moves: int):
        super().__init__(lobby, pace=0)
        self.moves = moves
        self.latency: list[float] = []
        self.cpu: list[float] = []
        self.done: dict[str, int] = {}

    async def _play_on(self, table: Any) -> None:
        step = table.step

        def timed() -> bool:
            if self.done.get(table.id, 0) >= self.moves:
                return False
            dealing = table.state.is_chance()
            start = time.thread_time()
            moved = step()
            if moved and not dealing:
                self.cpu.append(time.thread_time() - start)
                self.done[table.id] = self.done.get(table.id, 0) + 1
            return moved

        while True:
            asked = time.perf_counter()
            dealing = table.state.is_chance()
            moved = await self.run(table, timed)
            if not moved:
                return
            await self.broadcast(table)
            if not dealing:
                self.latency.append(time.perf_counter() - asked)


def one_run(args: argparse.Namespace, run: int, watched: bool) -> dict[str, float]:
    kinds = [k.strip() for k in args.agents.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        lobby = Lobby(folder)
        server = _Measured(lobby, args.moves)
        tables = []
        for t in range(args.tables):
            table, _ = lobby.create({"rules": args.game, "players": len(kinds), "kinds": kinds,
                                     "iterations": [args.iterations] * len(kinds), "seed": run * 1000 + t})
            if watched:
                server.watchers[table.id] = {_Page(): (0, [0])}  # type: ignore[dict-item]
            tables.append(table)

        async def play() -> float:
            began = time.perf_counter()
            await asyncio.gather(*(server._play_on(table) for table in tables))
            return time.perf_counter() - began

        cpu0 = time.process_time()
        wall = asyncio.run(play())
        cpu = time.process_time() - cpu0
    lat, work = sorted(server.latency), sorted(server.cpu)
    return {"moves": len(lat), "lat_med": statistics.median(lat) * 1000, "lat_p95": _p95(lat) * 1000,
            "lat_max": lat[-1] * 1000, "cpu_med": statistics.median(work) * 1000, "cpu_p95": _p95(work) * 1000,
            "moves_per_s": len(lat) / wall, "cpu_per_move": cpu / len(lat) * 1000}


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def spread(values: list[float], digits: int = 2) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--moves", type=int, default=200, help="bots' moves a table (default 200)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--game", default="hearts")
    ap.add_argument("--agents", default="random,greedy,random,greedy", help="one kind a seat")
    ap.add_argument("--iterations", type=int, default=50, help="ismcts: iterations a move")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    print(f"{args.tables} tables of {args.game} ({args.agents}), {args.moves} moves each, {args.runs} runs; "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    rows = []
    for watched in (False, True):
        runs = [one_run(args, r, watched) for r in range(args.runs)]
        rows.append(("one page watching each table" if watched else "bots only", runs))
    head = ("load", "moves", "latency median ms", "latency p95 ms", "latency max ms", "CPU/move median ms",
            "CPU/move p95 ms", "process CPU/move ms", "moves/s (all tables)")
    lines = []
    for name, runs in rows:
        lines.append((name, str(runs[0]["moves"]), spread([r["lat_med"] for r in runs]),
                      spread([r["lat_p95"] for r in runs]), spread([r["lat_max"] for r in runs], 0),
                      spread([r["cpu_med"] for r in runs], 3), spread([r["cpu_p95"] for r in runs], 3),
                      spread([r["cpu_per_move"] for r in runs], 3),
                      spread([r["moves_per_s"] for r in runs], 0)))
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        for line in lines:
            print("\n".join(f"  {h}: {v}" for h, v in zip(head, line)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
