"""The web table under load: a measurement, not a test. Two of them:

    python benchmarks/web.py                        # 50 tables of Hearts, 200 moves each, 3 runs
    python benchmarks/web.py --tables 50 --moves 200 --runs 5 --markdown
    python benchmarks/web.py --agents random,greedy,ismcts,greedy --iterations 50
    python benchmarks/web.py --person --runs 3 --markdown     # a person's card while 8 tables of bots search

**Many tables of bots** (the default). What runs is the server's own code, in one process, with no network: the
lobby makes the tables (``Lobby.create``), and each table's bots play through the task the server runs for a
table (the table's asyncio lock, the move worked out in a thread by ``asyncio.to_thread`` or, for a searching
bot, in a worker process of the bots' pool, then every watching page sent its view). All tables play at once on
one event loop, as on a busy server; deals are not counted as moves. For each move:

* latency: wall time from the table's task asking for the move to the move taken and its views sent (waiting for
  a thread, a worker process and the interpreter's lock among the other tables included): what a person at the
  table waits for a bot;
* CPU: the thread's CPU time for a move made in the server's process (``time.thread_time``; a searching bot's
  move is made in a worker process, and not counted here); and the whole server process's CPU time over the
  moves (the event loop, the locks, the views sent, the records written).

Two loads: bots only (nobody watching), and one page watching each table (its view made and encoded as JSON
after every move, as for a person at the table). Each run is a new server and new tables (their seeds differ
from run to run); a figure is the median over the runs, with the minimum and maximum.

**A person among searching tables** (``--person``): a real server (``trickbook serve`` in a process of its own,
``--bot-workers`` as given, by default one a core), ``--searching`` tables (8) of four ``ismcts`` bots at
``--iterations`` (5,000, the most a table may ask for), and one table of a person and three random bots, all made
through the lobby's HTTP API. The person plays through the seat's WebSocket, as a page does: each of ``--acts``
actions is timed from the message sent to the first view after it received (its answer), and the lobby's
``GET /api/games`` is timed after each. The figures: median, 95th percentile and maximum over the run's acts,
and the searching tables' moves made meanwhile (read from their records), median over the runs (min-max).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.web.app import Server  # noqa: E402
from interpreter.web.bots import BotPool  # noqa: E402
from interpreter.web.lobby import Lobby  # noqa: E402


class _Page:
    """A watching page that keeps nothing (the view is made and encoded; sending it costs nothing here)."""

    async def send_text(self, text: str) -> None:
        return None


class _Measured(Server):
    """The server, each table's moves timed where its task asks for them."""

    def __init__(self, lobby: Lobby, moves: int, workers: int | None):
        super().__init__(lobby, pace=0, bots=BotPool(workers))
        self.moves = moves
        self.latency: list[float] = []
        self.cpu: list[float] = []
        self.done: dict[str, int] = {}

    async def _play_on(self, table: Any) -> None:
        step = table.step

        def timed() -> bool:
            dealing = table.state.is_chance()
            start = time.thread_time()
            moved = step()
            if moved and not dealing:
                self.cpu.append(time.thread_time() - start)
            return moved

        while self.done.get(table.id, 0) < self.moves:
            asked = time.perf_counter()
            dealing = table.state.is_chance()
            moved = await self.run(table, timed) or await self._search(table)  # a searching bot's: in the pool
            if not moved or table.stopped:
                return
            await self.broadcast(table)
            if not dealing:
                self.latency.append(time.perf_counter() - asked)
                self.done[table.id] = self.done.get(table.id, 0) + 1


def one_run(args: argparse.Namespace, run: int, watched: bool) -> dict[str, float]:
    kinds = [k.strip() for k in args.agents.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        lobby = Lobby(folder)
        server = _Measured(lobby, args.moves, args.workers)
        tables = []
        for t in range(args.tables):
            table, _ = lobby.create({"rules": args.game, "players": len(kinds), "kinds": kinds,
                                     "iterations": [args.iterations] * len(kinds), "seed": run * 1000 + t})
            if watched:
                server.watchers[table.id] = {_Page(): (0, [0])}  # type: ignore[dict-item]
            tables.append(table)

        async def play() -> float:
            began = time.perf_counter()
            try:
                await asyncio.gather(*(server._play_on(table) for table in tables))
            finally:
                server.bots.close()
            return time.perf_counter() - began

        cpu0 = time.process_time()
        wall = asyncio.run(play())
        cpu = time.process_time() - cpu0
    lat, work = sorted(server.latency), sorted(server.cpu) or [0.0]
    return {"moves": len(lat), "lat_med": statistics.median(lat) * 1000, "lat_p95": _p95(lat) * 1000,
            "lat_max": lat[-1] * 1000, "cpu_med": statistics.median(work) * 1000, "cpu_p95": _p95(work) * 1000,
            "moves_per_s": len(lat) / wall, "cpu_per_move": cpu / len(lat) * 1000}


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]


def spread(values: list[float], digits: int = 2) -> str:
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


# ---------------------------------------------------------------------------------------------------- --person


class _Served:
    """``trickbook serve`` in a process of its own, on a free port, with its records in a folder of its own."""

    def __init__(self, folder: str, workers: int | None):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        argv = [sys.executable, "-m", "interpreter", "serve", "--port", str(self.port), "--records", folder]
        if workers is not None:
            argv += ["--bot-workers", str(workers)]
        self.folder = Path(folder)
        # in the records folder: the interpreter the environment gives (PYTHONPATH names another checkout to compare)
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
        for _ in range(600):
            try:
                self.get("/api/games")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=600) as answer:
            return json.loads(answer.read())

    def post(self, path: str, data: dict[str, Any]) -> Any:
        asked = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=json.dumps(data).encode(),
                                       headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(asked, timeout=600) as answer:
            return json.loads(answer.read())

    def moves(self, table: str) -> int:
        """The actions in a table's record so far."""
        try:
            text = (self.folder / f"{table}.jsonl").read_text(encoding="utf-8")
        except OSError:
            return 0
        return sum('"type": "action"' in line for line in text.splitlines())

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def person_run(args: argparse.Namespace, run: int) -> dict[str, float]:
    from websockets.sync.client import connect

    with tempfile.TemporaryDirectory() as folder:
        served = _Served(folder, args.workers)
        try:
            searching = [served.post("/api/tables", {
                "rules": args.game, "players": 4, "kinds": ["ismcts"] * 4, "iterations": [args.iterations] * 4,
                "seed": run * 100 + n})["table"] for n in range(args.searching)]
            made = served.post("/api/tables", {"rules": args.game, "players": 4,
                                               "kinds": ["person", "random", "random", "random"], "seed": run})
            acts: list[float] = []
            lobby: list[float] = []
            href = made["links"][0]["href"].replace("/table/", "/ws/")
            began = sum(served.moves(t) for t in searching)
            with connect(f"ws://127.0.0.1:{served.port}{href}", max_size=None, open_timeout=600) as ws:
                view = json.loads(ws.recv())
                while len(acts) < args.acts and not view["over"]:
                    if not view["your_turn"]:
                        view = json.loads(ws.recv())
                        continue
                    label = ([c["label"] for c in view["hand"] if c["legal"]] + view["actions"])[0]
                    sent = time.perf_counter()
                    ws.send(json.dumps({"type": "act", "seq": view["seq"], "label": label}))
                    answer = json.loads(ws.recv())
                    while answer.get("type") == "view" and answer["seq"] <= view["seq"]:
                        answer = json.loads(ws.recv())
                    if answer.get("type") != "view":
                        raise RuntimeError(f"the action was not taken: {answer}")
                    acts.append(time.perf_counter() - sent)
                    asked = time.perf_counter()
                    served.get("/api/games")
                    lobby.append(time.perf_counter() - asked)
                    view = answer
            searched = sum(served.moves(t) for t in searching) - began
        finally:
            served.stop()
    acts.sort()
    lobby.sort()
    return {"acts": len(acts), "act_med": statistics.median(acts) * 1000, "act_p95": _p95(acts) * 1000,
            "act_max": acts[-1] * 1000, "lobby_med": statistics.median(lobby) * 1000,
            "lobby_max": lobby[-1] * 1000, "searched": searched}


def person_main(args: argparse.Namespace) -> int:
    print(f"a person's actions at a table of {args.game} (with three random bots) while {args.searching} tables of "
          f"four ismcts bots at {args.iterations} iterations play; {args.acts} actions a run, {args.runs} runs; "
          f"bot workers: {args.workers or 'one a core'}; Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    runs = [person_run(args, r) for r in range(args.runs)]
    head = ("actions", "answered in: median ms", "p95 ms", "max ms", "GET /api/games: median ms", "max ms",
            "searching tables' moves meanwhile")
    line = (str(runs[0]["acts"]), spread([r["act_med"] for r in runs], 0), spread([r["act_p95"] for r in runs], 0),
            spread([r["act_max"] for r in runs], 0), spread([r["lobby_med"] for r in runs], 0),
            spread([r["lobby_max"] for r in runs], 0), spread([r["searched"] for r in runs], 0))
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---:|" * len(head))
        print("| " + " | ".join(line) + " |")
    else:
        print("\n".join(f"  {h}: {v}" for h, v in zip(head, line)))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--person", action="store_true", help="a person's actions while tables of searching bots play")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--moves", type=int, default=200, help="bots' moves a table (default 200)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--game", default="hearts")
    ap.add_argument("--agents", default="random,greedy,random,greedy", help="one kind a seat")
    ap.add_argument("--iterations", type=int, default=None, help="ismcts: iterations a move (default 50, with "
                    "--person 5000)")
    ap.add_argument("--workers", type=int, default=None, help="the bots' worker processes (default one a core)")
    ap.add_argument("--searching", type=int, default=8, help="--person: tables of searching bots (default 8)")
    ap.add_argument("--acts", type=int, default=40, help="--person: the person's actions timed a run (default 40)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    if args.iterations is None:
        args.iterations = 5000 if args.person else 50
    if args.person:
        return person_main(args)
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
