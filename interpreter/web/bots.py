"""Bots that search, in worker processes of their own: the web server's threads and event loop never search.

A searching bot's decision (``ismcts``) is sent to a worker process as plain data: the game (a bundled name or the
stored rule file's path, the players, the options and the rules' identity), the state as the API serializes it,
the agent's name and iterations and its random source's state; the worker plays the state again, searches, and
answers the action's id and the random source's state after the search (so a table of bots plays exactly the
game ``trickbook play`` plays with the same seed). The pool is bounded (``--bot-workers``, the machine's cores by
default), a worker searches for one table at a time, and a table has one decision in the pool at a time (its
share: one worker): with more tables than workers, tables waiting are served in the order they asked, so every
table moves in turn and none holds every worker. Workers run at a lower priority than the server (``nice``), so
a person's action is answered first.

A worker that dies, or takes longer than its time (``--bot-timeout``) over one decision, is ended and replaced by
a new one; the table is told (``BotFailed``) and stops there. A rule that fails while the bot searches comes
back as its error, as it would in play.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from interpreter.errors import GameError, TrickbookError

SEARCHING = frozenset({"ismcts"})  # the bots that search (the others take a move in a few milliseconds)
TIMEOUT = 600.0  # seconds one decision may take in a worker before the worker is taken for hung
STARTING = 120.0  # seconds a worker process may take to start (its imports) before it is taken for failed
NICE = 5  # how much lower a worker's priority is than the server's
GAMES_KEPT = 16  # compiled games a worker keeps (a table's decisions come to any worker)

Work = Callable[[dict[str, Any]], dict[str, Any]]


def default_workers() -> int:
    """The worker processes by default: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class BotFailed(TrickbookError):
    """A bot's worker died or hung (it was replaced), or its search failed: the message says which."""


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, work: Work, closing: threading.Event):
        self._ending = threading.Lock()
        spawn = multiprocessing.get_context("spawn")  # a fresh interpreter, not a fork of a server running threads
        ours, theirs = spawn.Pipe()
        self.process = spawn.Process(target=serve, args=(theirs, work), name="trickbook-bot", daemon=True)
        self.process.start()
        theirs.close()
        self.conn: Connection = ours
        ready = False
        began = time.monotonic()
        try:  # ready once its imports are done: a decision's time counts from there
            while not closing.is_set() and time.monotonic() - began < STARTING:
                if ours.poll(0.2):
                    ready = ours.recv() == "ready"
                    break
        except (EOFError, OSError):
            pass
        if not ready or closing.is_set():
            self.end()
            raise BotFailed("the server is stopping" if closing.is_set() else
                            f"a bot's worker process did not start ({_how(self.process.exitcode)})")

    def run(self, job: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The job's answer (called in a thread of the pool's own); BotFailed when the worker dies or takes too long
        (it is ended then) or the search fails."""
        try:
            self.conn.send(job)
            if not self.conn.poll(timeout):
                self.end()
                raise BotFailed(f"the bot took longer than {timeout:g} s over one decision (its worker process "
                                "was ended and another started)")
            answer = self.conn.recv()
        except (EOFError, OSError):  # the process ended (killed, out of memory) or the pool was closed
            self.end()
            raise BotFailed(f"the bot's worker process ended ({_how(self.process.exitcode)}); another was "
                            "started") from None
        if "error" in answer:
            raise BotFailed(answer["error"])
        result: dict[str, Any] = answer["ok"]
        return result

    @property
    def alive(self) -> bool:
        return not self.conn.closed and self.process.is_alive()

    def end(self) -> None:
        """End the worker's process and close its pipe, once: the pool's close and the thread waiting on the worker
        may both end it at the same time (two closes of one pipe close its number twice, the second perhaps a
        file another thread has opened since)."""
        with self._ending:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(5)
            if not self.conn.closed:
                self.conn.close()


def _how(code: int | None) -> str:
    if code is None:
        return "it stopped answering"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


class BotPool:
    """A bounded pool of worker processes for searching bots, each started when a decision first needs it (none
    while no searching bot plays). ``work`` is what a worker does with a job (``decide``; tests give others)."""

    def __init__(self, size: int | None = None, timeout: float = TIMEOUT, work: Work | None = None):
        self.size = default_workers() if size is None else size
        if self.size < 1:
            raise GameError("the bots need at least one worker process")
        self.timeout = timeout
        self.work = work or decide
        self.decisions = 0  # decisions answered (counted for tests and the benchmark)
        self.replaced = 0  # workers ended for dying or hanging
        self._slots = asyncio.Semaphore(self.size)  # first come, first served
        self._free: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._tables: dict[str, asyncio.Lock] = {}
        self._threads = ThreadPoolExecutor(self.size, thread_name_prefix="trickbook-bot")  # each waits on a pipe
        self._closing = threading.Event()
        self._closed = False

    async def decide(self, table: str, job: dict[str, Any]) -> dict[str, Any]:
        """The answer to one table's decision; BotFailed when its worker died or hung (and was replaced) or the
        search failed. A table waits for its own earlier decision first (one worker a table at a time)."""
        async with self._tables.setdefault(table, asyncio.Lock()):
            if self._closed:
                raise BotFailed("the server is stopping")
            await self._slots.acquire()
            try:
                worker = await self._take()
            except BaseException:
                self._slots.release()
                raise
            loop = asyncio.get_running_loop()
            done = loop.run_in_executor(self._threads, self._run, worker, job, loop)
            # a table that goes away (or a server that stops) leaves the worker to finish its decision, whose
            # answer or failure nobody reads then
            done.add_done_callback(lambda f: f.cancelled() or f.exception())
            answer = await asyncio.shield(done)
            self.decisions += 1
            return answer

    def forget(self, table: str) -> None:
        """A table that is gone (expired)."""
        self._tables.pop(table, None)

    async def _take(self) -> _Worker:
        while self._free:
            worker = self._free.pop()
            if worker.alive:
                return worker
            self._drop(worker)
        worker = await asyncio.to_thread(_Worker, self.work, self._closing)  # one that ended is replaced here
        self._all.add(worker)
        return worker

    def _run(self, worker: _Worker, job: dict[str, Any], loop: asyncio.AbstractEventLoop) -> dict[str, Any]:
        try:
            return worker.run(job, self.timeout)
        finally:
            with contextlib.suppress(RuntimeError):  # the loop closed: the pool is closed too
                loop.call_soon_threadsafe(self._give_back, worker)

    def _give_back(self, worker: _Worker) -> None:
        if worker.alive and not self._closed:
            self._free.append(worker)
        else:
            self._drop(worker)
        self._slots.release()

    def _drop(self, worker: _Worker) -> None:
        if worker in self._all:
            self._all.discard(worker)
            if not self._closed:
                self.replaced += 1
        worker.end()

    def close(self) -> None:
        """End every worker (a search in its middle too)."""
        self._closed = True
        self._closing.set()
        for worker in list(self._all):
            worker.end()
        self._threads.shutdown(wait=True)  # each thread's worker has ended: its wait is over


# ---------------------------------------------------------------------------------------------- in the worker


def serve(conn: Connection, work: Work) -> None:
    """A worker process: answer jobs one at a time until the server closes the pipe. Ctrl-C in the terminal is
    the server's to handle (it ends its workers); a failure is answered, never raised."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICE)
    except (AttributeError, OSError):
        pass
    import interpreter as tb  # the engine, the API and the search, imported before the worker is ready

    tb.agents(["ismcts"])

    try:
        conn.send("ready")
    except OSError:
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: dict[str, Any] = {"ok": work(job)}
        except TrickbookError as exc:
            answer = {"error": str(exc)}
        except Exception as exc:  # a bug in a search must not end the worker without an answer
            answer = {"error": f"the bot failed ({type(exc).__name__}: {exc})"}
        try:
            conn.send(answer)
        except OSError:
            return


_GAMES: collections.OrderedDict[tuple[Any, ...], Any] = collections.OrderedDict()


def decide(job: dict[str, Any]) -> dict[str, Any]:
    """A searching bot's decision: the job's game and state, the agent's search from its random source's state."""
    import interpreter as tb
    from interpreter.errors import show_file_as

    key = (job["rules"], job["players"], json.dumps(job["options"], sort_keys=True), job["identity"])
    game = _GAMES.get(key)
    if game is None:
        if job.get("shown"):
            show_file_as(job["rules"], job["shown"])  # errors name a stored rule file as the table does
        game = tb.load(job["rules"], players=job["players"], options=job["options"])
        if game.engine.identity != job["identity"]:
            raise GameError("the rule file has changed since the table was made")
        _GAMES[key] = game
        while len(_GAMES) > GAMES_KEPT:
            _GAMES.popitem(last=False)
    _GAMES.move_to_end(key)
    state = game.deserialize(job["state"])
    agent: Any = tb.agents([job["agent"]], None, job["iterations"])[0]  # the built-in agents keep an rng
    agent.rng.setstate(job["rng"])
    action = state.agent_choice(agent)
    return {"action": action, "rng": agent.rng.getstate()}
