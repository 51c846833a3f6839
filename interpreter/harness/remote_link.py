"""The game's side of the processes of an agent of your own (harness/remote.py): its watcher started, each message
sent and each answer read within the limits, the agent ended however the game ends.

The game's side waits for each answer with a limit by the clock (``Limits.seconds``) and reads at most
AGENT_MESSAGE bytes of one message, a little at a time; whatever it reads that is not the protocol, or the end of
a process, is a :class:`Failed` that says what the agent did, and ends the agent. What the agent writes to
standard error is passed on as it comes, and its last lines are told when it fails.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from typing import Any, NamedTuple

from interpreter.harness.remote_agent import SHOWN
from interpreter.limits import AGENT_LOAD_SECONDS, AGENT_MEMORY_MB, AGENT_MESSAGE, AGENT_SECONDS

GRACE = 2.0  # seconds the game's process has to end once the game is over, before its group is killed
TAIL = 4096  # bytes of an agent's standard error kept, to say its last lines when it fails
CHUNK = 65536  # bytes read from an agent's pipe at a time
PIPE_BUF = 4096  # bytes written to a pipe that said it has room, without waiting


class Limits(NamedTuple):
    """What an agent of your own may take: ``seconds`` by the clock for each decision (and for making the agent at
    a game's start), ``memory_mb`` megabytes of address space for its processes (0: no limit)."""

    seconds: float = AGENT_SECONDS
    memory_mb: int = AGENT_MEMORY_MB


class Failed(Exception):
    """What an agent's process did wrong, in words that follow its name ("did not answer within 10 s")."""


class Loader:
    """One agent's processes (its watcher, its loader with the module loaded) and the pipes to them; at most one
    game at a time."""

    def __init__(self, spec: str, limits: Limits):
        self.spec, self.limits = spec, limits
        self.game: int | None = None  # the process (and process group) id of the game's process, while one runs
        self.buffer = bytearray()  # what was read of the protocol and not yet taken
        self.tail = bytearray()  # the last bytes the agent wrote to standard error
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")  # standard error passed on as text
        if not hasattr(os, "fork") or not hasattr(os, "killpg"):  # pragma: no cover - Windows
            raise Failed("cannot be run here: agents of your own need process groups and fork (Linux, macOS)")
        lifeline, self.lifeline = os.pipe()  # the writing end stays here (not inherited): closed, the agent ends
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "interpreter.harness.remote", spec, str(limits.memory_mb), str(lifeline)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                start_new_session=True, pass_fds=(lifeline,))
        except OSError as exc:
            os.close(self.lifeline)
            raise Failed(f"cannot start its process: {exc.strerror or exc}") from None
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
                raise Failed(f"could not be loaded: {_memory_hint(data, limits)}")
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
            raise Failed(f"wrote what is not the protocol: {shown(json.dumps(pid))}")
        self.game = pid
        kind, data = self.receive_by(deadline, late, ("ok", "error"))
        if kind == "error":
            raise Failed(f"failed when made: {_memory_hint(data, self.limits)}")

    def ask(self, view: dict[str, Any]) -> Any:
        """The agent's answer to one decision."""
        deadline = time.monotonic() + self.limits.seconds
        late = f"did not answer within {_seconds(self.limits.seconds)} (--agent-timeout)"
        self.send(["act", view], deadline, late)
        kind, data = self.receive_by(deadline, late, ("ok", "error"))
        if kind == "error":
            raise Failed(f"failed: {_memory_hint(data, self.limits)}")
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
            raise Failed(late)
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
                raise Failed(f"wrote more than {_size(AGENT_MESSAGE)} without a newline (a message of the "
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
            raise Failed(f"wrote what is not the protocol: {shown(line.decode('utf-8', 'replace'))}")
        kind, data = message
        if kind == "ended" and "ended" not in expected:
            raise Failed(f"{_how(data)} without answering{self._last_words()}")
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

    def _ended(self) -> Failed:
        """The loader's pipes closed: it ended, and how."""
        with contextlib.suppress(OSError):
            self._drain()
        try:
            code = self.process.wait(timeout=GRACE)
        except subprocess.TimeoutExpired:
            return Failed(f"closed its pipes without answering{self._last_words()}")
        return Failed(f"{_how(code)} without answering{self._last_words()}")

    def _last_words(self) -> str:
        lines = [line.rstrip() for line in self.tail.decode("utf-8", "replace").splitlines() if line.strip()]
        if not lines:
            return ""
        kept = [line if len(line) <= 200 else line[:200] + "..." for line in lines[-5:]]
        return "; its last lines on standard error:\n  " + "\n  ".join(kept)


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


def shown(text: str) -> str:
    """At most SHOWN characters of what an agent wrote, quoted (the rest cut off: ...)."""
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "...")
