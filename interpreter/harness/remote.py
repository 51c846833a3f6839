"""Your own agents, each in processes of its own: ``--agents mymodule:MyAgent`` (or ``path/to/file.py:MyAgent``).

An agent is a class with ``act(self, view)``; its constructor may take a seed (``MyAgent(seed)``), or nothing.
For each decision its process is sent plain data only (``View``: the seat, the step, the legal actions with
their ids, kinds, values and labels, and the seat's observation), never the state, so an agent can read nothing
its seat may not see and change nothing of the game; each seat's agent runs in processes of its own (two seats of
the same class too), so agents of different authors cannot reach each other either. ``act`` answers with one of
``view.legal`` (an action id) or one of ``view.labels``; anything else stops the game with a message naming
the agent. docs/agents.md describes the protocol and the limits.

The processes, and how they are contained (POSIX), for each seat's agent:

* the *watcher* (``python -m interpreter.harness.remote SPEC MEMORY LIFELINE``) runs no code of the agent's: it
  starts a session of its own, sets a limit on the address space (``RLIMIT_AS``) that every process it starts
  inherits, starts the loader and watches its *lifeline*, a pipe whose writing end only the game's side holds.
  When that end closes (the game's side ends the agent, or ends itself, however it ends) or the loader ends, it
  kills the loader's process group and every game's process group it was told of, and ends;
* the *loader*, in a process group of its own, imports the agent's module once and is kept from game to game;
  the agent gets /dev/null as standard input (the protocol comes on another descriptor) and what it prints
  goes to standard error;
* for each game the loader forks the *game's process*, in a process group of its own, which makes the agent
  (``MyAgent(seed)``) and answers its decisions. When the game is over that group is killed, so nothing the
  agent started outlives the game, and the next game starts from the module as loaded;
* the game's side waits for each answer with a limit by the clock (``Limits.seconds``) and reads at most
  AGENT_MESSAGE bytes of one message, a little at a time; whatever it reads that is not the protocol, or the
  end of a process, stops the game with an AgentError that says what the agent did, and ends the agent.

This module imports nothing of the engine at its top: the agents' processes load only it and the agent.
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import gc
import importlib
import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import time
import traceback
import weakref
from pathlib import Path
from typing import Any, NamedTuple

from interpreter.errors import AgentError, GameError
from interpreter.limits import AGENT_LOAD_SECONDS, AGENT_MEMORY_MB, AGENT_MESSAGE, AGENT_SECONDS

GRACE = 2.0  # seconds the game's process has to end once the game is over, before its group is killed
TAIL = 4096  # bytes of an agent's standard error kept, to say its last lines when it fails
SHOWN = 80  # characters shown of what an agent wrote that is not the protocol
CHUNK = 65536  # bytes read from an agent's pipe at a time
PIPE_BUF = 4096  # bytes written to a pipe that said it has room, without waiting


class Limits(NamedTuple):
    """What an agent of your own may take: ``seconds`` by the clock for each decision (and for making the agent at
    a game's start), ``memory_mb`` megabytes of address space for its processes (0: no limit)."""

    seconds: float = AGENT_SECONDS
    memory_mb: int = AGENT_MEMORY_MB


class View:
    """What an agent is told at a decision: plain values only (see the module's docstring)."""

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


# ---------------------------------------------------------------- the game's side


class _Failed(Exception):
    """What an agent's process did wrong, in words that follow its name ("did not answer within 10 s")."""


class _Loader:
    """One agent's processes (its watcher, its loader with the module loaded) and the pipes to them; at most one
    game at a time."""

    def __init__(self, spec: str, limits: Limits):
        self.spec, self.limits = spec, limits
        self.game: int | None = None  # the process (and process group) id of the game's process, while one runs
        self.buffer = bytearray()  # what was read of the protocol and not yet taken
        self.tail = bytearray()  # the last bytes the agent wrote to standard error
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")  # standard error passed on as text
        if not hasattr(os, "fork") or not hasattr(os, "killpg"):  # pragma: no cover - Windows
            raise _Failed("cannot be run here: agents of your own need process groups and fork (Linux, macOS)")
        lifeline, self.lifeline = os.pipe()  # the writing end stays here (not inherited): closed, the agent ends
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "interpreter.harness.remote", spec, str(limits.memory_mb), str(lifeline)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                start_new_session=True, pass_fds=(lifeline,))
        except OSError as exc:
            os.close(self.lifeline)
            raise _Failed(f"cannot start its process: {exc.strerror or exc}") from None
        finally:
            os.close(lifeline)
        assert self.process.stdin and self.process.stdout and self.process.stderr, "the pipes asked for"
        self.inbox, self.answers, self.errors = (self.process.stdin.fileno(), self.process.stdout.fileno(),
                                                 self.process.stderr.fileno())
        self.open = [self.answers, self.errors]  # the pipes not yet at their end
        for fd in (self.inbox, self.answers, self.errors):
            os.set_blocking(fd, False)
        try:
            seconds = max(limits.seconds, AGENT_LOAD_SECONDS)
            kind, data = self.receive_by(time.monotonic() + seconds, f"did not load within {_seconds(seconds)}",
                                         ("ready", "error"))
            if kind == "error":
                raise _Failed(f"could not be loaded: {_memory_hint(data, limits)}")
        except BaseException:
            self.kill()
            raise

    # -- one game

    def new_game(self, seed: Any) -> None:
        """Start a game's process and make the agent in it (``MyAgent(seed)``)."""
        deadline = time.monotonic() + self.limits.seconds
        late = f"was not made within {_seconds(self.limits.seconds)} (its constructor; --agent-timeout)"
        self.send(["new", seed], deadline, late)
        _, pid = self.receive_by(deadline, late, ("game",))
        if not self._ours(pid):
            raise _Failed(f"wrote what is not the protocol: {_shown(json.dumps(pid))}")
        self.game = pid
        kind, data = self.receive_by(deadline, late, ("ok", "error"))
        if kind == "error":
            raise _Failed(f"failed when made: {_memory_hint(data, self.limits)}")

    def ask(self, view: dict[str, Any]) -> Any:
        """The agent's answer to one decision."""
        deadline = time.monotonic() + self.limits.seconds
        late = f"did not answer within {_seconds(self.limits.seconds)} (--agent-timeout)"
        self.send(["act", view], deadline, late)
        kind, data = self.receive_by(deadline, late, ("ok", "error"))
        if kind == "error":
            raise _Failed(f"failed: {_memory_hint(data, self.limits)}")
        return data

    def end_game(self) -> None:
        """The game is over: its process is told so, and its process group is gone once the loader says it
        ended (within GRACE seconds, or the loader is killed too)."""
        deadline = time.monotonic() + GRACE
        late = f"did not end within {_seconds(GRACE)}"
        self.send(["end", None], deadline, late)
        self.receive_by(deadline, late, ("ended",))
        self.game = None

    def _ours(self, pid: Any) -> bool:
        """Whether ``pid`` is a process of this agent's session (a game's process is): never anyone else's."""
        try:
            return type(pid) is int and pid > 1 and os.getsid(pid) == self.process.pid
        except OSError:
            return False

    def kill(self) -> None:
        """End the agent, whatever it is doing (the game failed or was stopped, or the program ends): the game's
        process group killed at once, and the lifeline closed, on which the watcher kills the rest and ends; what
        the agent wrote to standard error meanwhile is passed on."""
        if self.game is not None and self._ours(self.game):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.game, signal.SIGKILL)
        self.game = None
        if self.lifeline >= 0:
            os.close(self.lifeline)
            self.lifeline = -1
        try:
            self.process.wait(timeout=GRACE)
        except subprocess.TimeoutExpired:  # a watcher that does not end (stopped by a debugger, say): killed
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        with contextlib.suppress(OSError):
            self._drain()
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    # -- the pipes

    def send(self, message: Any, deadline: float, late: str) -> None:
        """Write ``message``, by the ``deadline``; ``late``: what the agent did when it is not read by then."""
        data = memoryview((json.dumps(message) + "\n").encode("ascii"))  # text escaped, lone surrogates too
        while data:
            try:
                data = data[os.write(self.inbox, data):]
            except BlockingIOError:  # the pipe is full: the agent's process reads no more for now
                self._wait(deadline, late, write=True)
            except OSError:  # the pipe's other end is closed: its processes have ended
                raise self._ended() from None

    def receive_by(self, deadline: float, late: str, expected: tuple[str, ...]) -> tuple[str, Any]:
        """The next message, one of the ``expected`` kinds ("ended" when the game's process ended is a failure
        unless expected), by the ``deadline``; ``late``: what the agent did when none came by then."""
        while True:
            line = self._line()
            if line is not None:
                return self._message(line, expected)
            self._wait(deadline, late)

    def _wait(self, deadline: float, late: str, write: bool = False) -> None:
        """Wait until a pipe is ready (with ``write``, the agent's input too), at most until the ``deadline``; read
        what is there (the protocol into the buffer, standard error passed on)."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Failed(late)
        readable, _, _ = select.select(self.open, [self.inbox] if write else [], [], remaining)
        if self.errors in readable:
            self._read_errors()
        if self.answers in readable:
            chunk = os.read(self.answers, CHUNK)
            if not chunk:
                self.open.remove(self.answers)
                raise self._ended()
            self.buffer += chunk

    def _line(self) -> bytes | None:
        """The next whole line of the protocol, or None; a line longer than AGENT_MESSAGE is a failure, found as
        soon as that much is read."""
        end = self.buffer.find(b"\n", 0, AGENT_MESSAGE + 1)
        if end < 0:
            if len(self.buffer) > AGENT_MESSAGE:
                raise _Failed(f"wrote more than {_size(AGENT_MESSAGE)} without a newline (a message of the "
                              f"protocol is one line, at most {_size(AGENT_MESSAGE)})")
            return None
        line = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        return line

    def _message(self, line: bytes, expected: tuple[str, ...]) -> tuple[str, Any]:
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        if not (isinstance(message, list) and len(message) == 2 and message[0] in expected + ("ended",)):
            raise _Failed(f"wrote what is not the protocol: {_shown(line.decode('utf-8', 'replace'))}")
        kind, data = message
        if kind == "ended" and "ended" not in expected:
            raise _Failed(f"{_how(data)} without answering{self._last_words()}")
        return kind, data

    def _read_errors(self) -> None:
        chunk = os.read(self.errors, CHUNK)
        if not chunk:
            self.open.remove(self.errors)
            return
        self.tail += chunk
        del self.tail[:-TAIL]
        _pass_on(chunk, self.decoder)

    def _drain(self) -> None:
        """Pass on what is left on standard error, without waiting."""
        while self.errors in self.open and select.select([self.errors], [], [], 0)[0]:
            self._read_errors()

    def _ended(self) -> _Failed:
        """The loader's pipes closed: it ended, and how."""
        with contextlib.suppress(OSError):
            self._drain()
        try:
            code = self.process.wait(timeout=GRACE)
        except subprocess.TimeoutExpired:
            return _Failed(f"closed its pipes without answering{self._last_words()}")
        return _Failed(f"{_how(code)} without answering{self._last_words()}")

    def _last_words(self) -> str:
        lines = [line.rstrip() for line in self.tail.decode("utf-8", "replace").splitlines() if line.strip()]
        if not lines:
            return ""
        shown = [line if len(line) <= 200 else line[:200] + "..." for line in lines[-5:]]
        return "; its last lines on standard error:\n  " + "\n  ".join(shown)


def _pass_on(chunk: bytes, decoder: Any) -> None:
    """What an agent wrote to standard error, passed on to this process's as it comes (it is for the agent's
    author to read), never waiting for it: what a pipe nobody reads cannot take now is left out, rather than
    holding up the game."""
    stream = sys.stderr
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):  # not a file (a test's capture): it takes everything
            stream.write(decoder.decode(chunk))
            return
        stream.flush()
        while chunk and select.select([], [fd], [], 0)[1]:
            chunk = chunk[os.write(fd, chunk[:PIPE_BUF]):]


def _how(code: Any) -> str:
    """How a process ended, from its exit code (negative: the signal that killed it)."""
    if type(code) is not int:
        return "ended"
    if code >= 0:
        return f"ended (exit code {code})"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"was killed by {name}"


def _memory_hint(text: Any, limits: Limits) -> str:
    text = str(text)
    if "MemoryError" in text and limits.memory_mb:
        text += f"\n(its processes may use {limits.memory_mb:,} MB of address space: --agent-memory)"
    return text


def _seconds(value: float) -> str:
    return f"{value:g} s"


def _size(n: int) -> str:
    return f"{n // (1 << 20)} MB" if n >= 1 << 20 else f"{n:,} bytes"


def _shown(text: str) -> str:
    """At most SHOWN characters of what an agent wrote, quoted (the rest cut off: ...)."""
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "...")


_idle: dict[tuple[str, int, Limits], list[_Loader]] = {}  # loaders kept from game to game: (spec, seat, limits)


@atexit.register
def close_all() -> None:
    """End every loader kept for another game (at the end of a program, or when a program wants them gone)."""
    for loaders in _idle.values():
        for loader in loaders:
            loader.kill()
    _idle.clear()


class ProcessAgent:
    """The game's side of an agent of your own: each decision is sent to its game's process as a ``View``."""

    def __init__(self, spec: str, seat: int, seed: Any, limits: Limits | None = None):
        self.spec, self.seat, self.seed = spec, seat, seed
        self.limits = limits or Limits()
        self._loader: _Loader | None = None  # the loader whose game's process plays this game, once started
        self._ending: Any = None  # the finalizer that ends the game's process if the game is dropped unfinished

    def act(self, turn: Any) -> Any:
        from interpreter.engine.actions import ActionSpace

        game, state = turn.game, turn._state
        space = _spaces.get(game)
        if space is None:
            space = _spaces[game] = ActionSpace(game)
        step = state.pending.step
        ids = space.ids(step, turn.legal)
        labels = turn.labels
        who = f"agent {self.spec!r} ({game.seat_names[turn.seat]})"
        try:
            if self._loader is None:
                self._start()
            assert self._loader is not None, "started above"
            answer = self._loader.ask({
                "game": {"name": game.name, "players": game.players, "seat_names": list(game.seat_names),
                         "num_actions": len(space)},
                "seat": turn.seat, "seat_name": turn.seat_name, "step": step.name, "kind": turn.kind,
                "prompt": turn.prompt, "legal": ids, "labels": list(labels),
                "actions": [_described(space.infos[i]) for i in ids],
                "observation": turn.observation(),
            })
        except _Failed as exc:
            self.stop()
            raise AgentError(f"{who} {exc}") from None
        if type(answer) is int and answer in ids:
            return turn.legal[ids.index(answer)]
        if isinstance(answer, str):
            folded = [label.casefold() for label in labels]
            if answer.strip().casefold() in folded:
                return turn.legal[folded.index(answer.strip().casefold())]
        raise AgentError(f"{who} chose {_shown(answer) if isinstance(answer, str) else _shown(json.dumps(answer))}, "
                         f"which is not legal now ({step.name}); legal: {', '.join(labels[:40])}")

    def _start(self) -> None:
        try:
            loader: _Loader | None = _idle.get((self.spec, self.seat, self.limits), []).pop()
        except IndexError:  # none kept (or another thread took it)
            loader = None
        if loader is not None and loader.process.poll() is not None:  # ended meanwhile: its pipes closed
            loader.kill()
            loader = None
        if loader is None:
            loader = _Loader(self.spec, self.limits)
        self._loader = loader
        self._ending = weakref.finalize(self, _kill, loader)  # a game dropped unfinished (no game_over)
        loader.new_game(self.seed)

    def game_over(self) -> None:
        """The game is over: the game's process ends (and everything it started); the loader is kept for the next
        game. A process that does not end in time is killed with its loader."""
        loader, self._loader = self._loader, None
        if loader is None:
            return
        self._ending.detach()
        try:
            loader.end_game()
        except (_Failed, OSError):
            loader.kill()
            return
        _idle.setdefault((self.spec, self.seat, self.limits), []).append(loader)

    def stop(self) -> None:
        """The game stops (it failed, or was interrupted): the game's process and the loader are killed."""
        loader, self._loader = self._loader, None
        if loader is not None:
            self._ending.detach()
            loader.kill()


def _kill(loader: _Loader) -> None:
    with contextlib.suppress(Exception):
        loader.kill()


_spaces: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()  # a game's action ids, made once


def _described(info: Any) -> dict[str, Any]:
    """An action as plain data: its id, kind, value as people read it (cards by label, seats by name), label."""
    return {"id": info.id, "kind": info.kind, "value": info.shown, "label": info.label}


# ---------------------------------------------------------------- the agent's side


def _main() -> None:
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


if __name__ == "__main__":
    _main()
