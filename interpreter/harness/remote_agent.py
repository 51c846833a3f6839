"""The agent's side of an agent of your own (harness/remote.py): the processes that run it, and what it is told.

* the *watcher* (``python -m interpreter.harness.remote SPEC MEMORY LIFELINE``, ``main``) runs no code of the
  agent's: it starts a session of its own, sets a limit on the address space (``RLIMIT_AS``) that every process it
  starts inherits, starts the loader and watches its *lifeline*, a pipe whose writing end only the game's side
  holds. When that end closes (the game's side ends the agent, or ends itself, however it ends) or the loader
  ends, it kills the loader's process group and every game's process group it was told of, and ends;
* the *loader* (``_load``), in a process group of its own, imports the agent's module once (``load_class``) and
  is kept from game to game; the agent gets /dev/null as standard input (the protocol comes on another
  descriptor) and what it prints goes to standard error;
* for each game the loader forks the *game's process* (``_play``), in a process group of its own, which makes the
  agent (``MyAgent(seed)``) and answers its decisions, each told as a ``View``. When the game is over that group
  is killed, so nothing the agent started outlives the game, and the next game starts from the module as loaded.

The agent's failures are told to the game's side with the agent's own traceback (the frames of this module
left out). This module imports nothing of the engine: the agents' processes load only it and the agent.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.util
import json
import os
import select
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

from interpreter.errors import GameError

SHOWN = 80  # characters shown of what an agent wrote that is not the protocol


class View:
    """What an agent is told at a decision: plain values only (harness/remote.py, docs/agents.md)."""

    __slots__ = ("game", "seat", "seat_name", "step", "kind", "prompt", "legal", "labels", "actions", "observation")

    def __init__(self, data: dict[str, Any]):
        self.game: dict[str, Any] = data["game"]  # name, players, seat_names, num_actions
        self.seat: int = data["seat"]
        self.seat_name: str = data["seat_name"]
        self.step: str = data["step"]
        self.kind: str = data["kind"]  # play, choose, cover or take
        self.prompt: str = data["prompt"]
        self.legal: list[int] = data["legal"]  # the legal actions' ids
        self.labels: list[str] = data["labels"]
        self.actions: list[dict[str, Any]] = data["actions"]  # each: id, kind, value, label
        self.observation: dict[str, Any] = data["observation"]


def load_class(spec: str) -> type:
    """The class ``module:Class`` or ``path/to/file.py:Class`` names."""
    where, _, name = spec.rpartition(":")
    if not where or not name.isidentifier():
        raise GameError(f"an agent of your own is given as module:Class or path/to/file.py:Class, not {spec!r}")
    if where.endswith(".py"):
        path = Path(where)
        found = importlib.util.spec_from_file_location(path.stem, path) if path.is_file() else None
        if found is None or found.loader is None:
            raise GameError(f"agent {spec!r}: no file {where}")
        module = importlib.util.module_from_spec(found)
        found.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    cls = getattr(module, name, None)
    if not isinstance(cls, type) or not callable(getattr(cls, "act", None)):
        raise GameError(f"agent {spec!r}: {where} has no class {name} with an act(view) method")
    return cls


def main() -> None:
    """``python -m interpreter.harness.remote SPEC MEMORY_MB LIFELINE``: the watcher (see the module's docstring).
    It starts the loader, gives up its own copies of the pipes, and ends the agent when the lifeline closes or the
    loader ends; it ends as the loader did. Ctrl-C is for the game's side, which ends the agent."""
    try:
        spec, memory_mb, lifeline = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        os.fstat(lifeline)
    except (IndexError, ValueError, OSError):
        sys.exit("interpreter.harness.remote is started by trickbook for an agent of your own (docs/agents.md)")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_mb > 0:
        _limit_memory(memory_mb)
    told_read, told_write = os.pipe()  # the loader tells the watcher of each game's process it starts
    wake_read, wake_write = os.pipe()  # a byte on it for every SIGCHLD: the loader ended
    os.set_blocking(wake_write, False)
    loader = os.fork()
    if loader == 0:
        code = 1
        try:
            os.setpgid(0, 0)
            for fd in (told_read, wake_read, wake_write, lifeline):
                os.close(fd)
            inbox = os.fdopen(os.dup(0), "rb")
            outbox = os.dup(1)
            nothing = os.open(os.devnull, os.O_RDONLY)
            os.dup2(nothing, 0)
            os.close(nothing)
            os.dup2(2, 1)
            sys.stdout = sys.stderr
            code = _load(spec, inbox, outbox, told_write)
        finally:
            os._exit(code)
    with contextlib.suppress(OSError):
        os.setpgid(loader, loader)
    os.close(told_write)
    nothing = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the pipes are the loader's: the game's side sees them end when the agent's processes do
        os.dup2(nothing, fd)
    os.close(nothing)
    signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    code = _watch(loader, lifeline, told_read, wake_read)
    if code < 0:  # the loader was killed by a signal: so is the watcher, for the game's side to say
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code & 0xFF)


def _watch(loader: int, lifeline: int, told: int, wake: int) -> int:
    """Wait until the lifeline closes (0) or the loader ends (its exit code); then kill the loader's process group
    (the loader is not reaped before, so that its number names nothing else meanwhile) and the game's process
    group it told of, if one is going on."""
    games: set[int] = set()  # the loader says "PID" when it starts a game's process, "-PID" once it is gone
    heard = b""
    watched = [lifeline, told, wake]
    code = 1
    try:
        while True:
            readable, _, _ = select.select(watched, [], [])
            if lifeline in readable:
                code = 0
                break
            if told in readable:
                chunk = os.read(told, 4096)
                if not chunk:
                    watched.remove(told)
                *lines, heard = (heard + chunk).split(b"\n")
                heard = heard[-32:]  # a pid is short: what else the pipe holds (the module loading wrote it) is not
                for line in lines:
                    if 0 < len(line) < 32 and line.lstrip(b"-").isdigit():
                        (games.discard if line.startswith(b"-") else games.add)(abs(int(line)))
            if wake in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake, 512)
                ended = os.waitid(os.P_PID, loader, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                if ended is not None:
                    code = ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status
                    break
    finally:  # whatever happened above
        session = os.getsid(0)
        for group in games:
            with contextlib.suppress(OSError):
                if os.getsid(group) == session:
                    os.killpg(group, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.killpg(loader, signal.SIGKILL)
        os.waitpid(loader, 0)
    return code


def _limit_memory(megabytes: int) -> None:
    """RLIMIT_AS for this process and every process it starts, where the platform has it."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    limit = megabytes << 20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _sender(outbox: int) -> Any:
    def send(kind: str, data: Any) -> None:
        message = memoryview((json.dumps([kind, data]) + "\n").encode("utf-8", "replace"))
        while message:
            message = message[os.write(outbox, message):]

    return send


def _receive(inbox: Any) -> list[Any] | None:
    """The next message from the game's side, or None at the end of the pipe."""
    line = inbox.readline()
    try:
        message = json.loads(line) if line else None
    except ValueError:
        return None
    return message if isinstance(message, list) and len(message) == 2 else None


def _load(spec: str, inbox: Any, outbox: int, told: int) -> int:
    """The loader: load the agent's class, then start a game's process for each game, until the pipe ends (the
    watcher then kills this process group: whatever loading the module started). Its exit code."""
    send = _sender(outbox)
    try:
        cls = load_class(spec)
    except BaseException as exc:  # noqa: BLE001 - told to the game's side, which stops with it
        send("error", str(exc) if isinstance(exc, GameError) else _agents_traceback(exc))
        return 0
    send("ready", None)
    while True:
        message = _receive(inbox)
        if message is None or message[0] != "new":
            return 0
        gc.freeze()  # what is loaded stays as it is: the game's process shares its pages rather than copying them
        go_read, go_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the game's process
            code = 1
            try:
                os.close(go_write)
                os.close(told)
                os.read(go_read, 1)  # until the loader has told who this process is
                os.close(go_read)
                code = _play(cls, message[1], inbox, send)
            except OSError as exc:  # the protocol's pipe closed under it (by the agent): said, and ended
                with contextlib.suppress(OSError):
                    os.write(2, f"the agent's process lost its pipe to the game: {exc.strerror}\n".encode())
            finally:
                os._exit(code)
        os.close(go_read)
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)
        with contextlib.suppress(OSError):
            os.write(told, f"{pid}\n".encode())
        send("game", pid)
        os.close(go_write)
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # ended, not yet reaped: its number names its group alone
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)  # what the game's process left behind
        _, status = os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            os.write(told, f"-{pid}\n".encode())
        send("ended", os.waitstatus_to_exitcode(status))


def _play(cls: type, seed: Any, inbox: Any, send: Any) -> int:
    """The game's process: make the agent, answer each view, until the game is over; the exit code."""
    try:
        try:
            agent = cls(seed)
        except TypeError:
            agent = cls()
    except BaseException as exc:  # noqa: BLE001 - the agent's own failure, told to the game's side
        send("error", _agents_traceback(exc))
        return 0
    send("ok", None)
    while True:
        message = _receive(inbox)
        if message is None or message[0] != "act":
            break
        try:
            answer = agent.act(View(message[1]))
        except BaseException as exc:  # noqa: BLE001 - the agent's own failure, told to the game's side
            send("error", _agents_traceback(exc))
            continue
        if isinstance(answer, bool) or not isinstance(answer, (int, str)):
            shown = repr(answer)
            shown = shown if len(shown) <= SHOWN else shown[:SHOWN] + "..."
            send("error", f"act returned {shown}: an action id of view.legal or a label of view.labels")
        else:
            try:
                send("ok", answer)
            except ValueError:  # a whole number longer than Python writes out
                send("error", "act returned a number too long for an action id")
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    return 0


def _agents_traceback(exc: BaseException) -> str:
    """The agent's traceback: the frames of its own code (those of this module and of Python's import machinery
    left out), at most 20 of each exception, at most 10,000 characters."""
    told = traceback.TracebackException.from_exception(exc, limit=-40)
    seen: set[int] = set()
    todo = [told]
    while todo:
        one = todo.pop()
        if id(one) in seen:
            continue
        seen.add(id(one))
        own = [f for f in one.stack if f.filename != __file__ and not f.filename.startswith("<frozen ")]
        one.stack = traceback.StackSummary.from_list(own[-20:])
        todo += [e for e in (one.__cause__, one.__context__) if e is not None]
    text = "".join(told.format()).rstrip()
    return text if len(text) <= 10_000 else "..." + text[-10_000:]
