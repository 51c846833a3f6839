"""Your own agents, each in a process of its own: ``--agents mymodule:MyAgent`` (or ``path/to/file.py:MyAgent``).

An agent is a class with ``act(self, view)``; its constructor may take a seed (``MyAgent(seed)``), or nothing.
For each decision its process is sent plain data only (``View``: the seat, the step, the legal actions with
their ids, kinds, values and labels, and the seat's observation), never the state, so an agent can read nothing
its seat may not see and change nothing of the game; each seat's agent runs in its own process (two seats of
the same class too), so agents of different authors cannot reach each other either. ``act`` answers with one of
``view.legal`` (an action id) or one of ``view.labels``; anything else stops the game with a message naming
the agent. docs/agents.md describes the protocol.

This module imports nothing of the engine at its top: the agents' processes load only it and the agent.
"""

from __future__ import annotations

import atexit
import importlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import traceback
import weakref
from pathlib import Path
from typing import Any

from interpreter.errors import GameError, IllegalAction


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


def _serve(spec: str, inbox: Any, outbox: Any) -> None:
    """The agent's process: make the agent for each game, answer each view (JSON lines both ways)."""

    def send(kind: str, data: Any) -> None:
        outbox.write(json.dumps([kind, data]) + "\n")
        outbox.flush()

    agent: Any = None
    try:
        cls = load_class(spec)
    except BaseException as exc:  # noqa: BLE001 - told to the game's process, which stops with it
        send("error", f"{exc}" if isinstance(exc, GameError) else traceback.format_exc(limit=-2))
        return
    send("ready", None)
    for line in inbox:
        kind, data = json.loads(line)
        try:
            if kind == "new":
                try:
                    agent = cls(data)
                except TypeError:
                    agent = cls()
                send("ok", None)
            else:
                answer = agent.act(View(data))
                if isinstance(answer, bool) or not isinstance(answer, (int, str)):
                    send("error", f"act returned {answer!r}: an action id of view.legal or a label of view.labels")
                else:
                    send("ok", answer)
        except BaseException:  # noqa: BLE001 - the agent's own failure, told to the game's process
            send("error", traceback.format_exc(limit=-2))


class _Child:
    """One agent's process (``python -m interpreter.harness.remote SPEC``, so also from a worker of a pool)
    and the pipes to it."""

    def __init__(self, spec: str):
        self.spec = spec
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        try:
            self.process = subprocess.Popen([sys.executable, "-m", "interpreter.harness.remote", spec],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
                                            encoding="utf-8")
        except OSError as exc:
            raise GameError(f"agent {spec!r}: cannot start its process: {exc.strerror or exc}") from None
        kind, data = self._recv()
        if kind != "ready":
            raise GameError(f"agent {self.spec!r} could not be loaded: {data}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def call(self, kind: str, data: Any) -> Any:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps([kind, data]) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise GameError(f"agent {self.spec!r}: its process has stopped") from None
        answer, value = self._recv()
        if answer == "error":
            raise GameError(f"agent {self.spec!r} failed: {value}")
        return value

    def _recv(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise GameError(f"agent {self.spec!r}: its process has stopped (exit code {self.process.wait()})")
        return json.loads(line)

    def close(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()


_children: dict[tuple[str, int], _Child] = {}  # (spec, seat): kept from game to game in this process
_spaces: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()  # a game's action ids, made once


@atexit.register
def _close_all() -> None:
    for child in _children.values():
        child.close()
    _children.clear()


class ProcessAgent:
    """The game's side of an agent of your own: each decision is sent to its process as a ``View``."""

    def __init__(self, spec: str, seat: int, seed: Any):
        self.spec, self.seat, self.seed = spec, seat, seed
        self._started = False

    def act(self, turn: Any) -> Any:
        from interpreter.engine.actions import ActionSpace

        game, state = turn.game, turn._state
        child = _children.get((self.spec, self.seat))
        if child is None or not child.alive():
            child = _children[(self.spec, self.seat)] = _Child(self.spec)
            self._started = False
        if not self._started:
            child.call("new", self.seed)
            self._started = True
        space = _spaces.get(game)
        if space is None:
            space = _spaces[game] = ActionSpace(game)
        step = state.pending.step
        ids = space.ids(step, turn.legal)
        labels = turn.labels
        answer = child.call("act", {
            "game": {"name": game.name, "players": game.players, "seat_names": list(game.seat_names),
                     "num_actions": len(space)},
            "seat": turn.seat, "seat_name": turn.seat_name, "step": step.name, "kind": turn.kind,
            "prompt": turn.prompt, "legal": ids, "labels": list(labels),
            "actions": [_described(space.infos[i]) for i in ids],
            "observation": turn.observation(),
        })
        if isinstance(answer, int) and answer in ids:
            return turn.legal[ids.index(answer)]
        if isinstance(answer, str):
            folded = [label.casefold() for label in labels]
            if answer.strip().casefold() in folded:
                return turn.legal[folded.index(answer.strip().casefold())]
        raise IllegalAction(f"agent {self.spec!r} ({game.seat_names[turn.seat]}) chose {answer!r}, which is not "
                            f"legal now ({step.name}); legal: {', '.join(labels[:40])}")


def _described(info: Any) -> dict[str, Any]:
    """An action as plain data: its id, kind, value as people read it (cards by label, seats by name), label."""
    return {"id": info.id, "kind": info.kind, "value": info.shown, "label": info.label}


def _main() -> None:
    """``python -m interpreter.harness.remote SPEC``: the protocol on the process's own stdin and stdout; what the
    agent prints goes to stderr. Ctrl-C is for the game's process, which ends this one by closing the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    inbox = os.fdopen(os.dup(0), "r", encoding="utf-8")
    outbox = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _serve(sys.argv[1], inbox, outbox)


if __name__ == "__main__":
    _main()
