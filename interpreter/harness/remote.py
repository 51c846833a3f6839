"""Your own agents, each in processes of its own: ``--agents mymodule:MyAgent`` (or ``path/to/file.py:MyAgent``).

An agent is a class with ``act(self, view)``; its constructor may take a seed (``MyAgent(seed)``), or nothing.
For each decision its process is sent plain data only (``View``: the seat, the step, the legal actions with
their ids, kinds, values and labels, and the seat's observation), never the state, so an agent can read nothing
its seat may not see and change nothing of the game; each seat's agent runs in processes of its own (two seats of
the same class too), so agents of different authors cannot reach each other either. ``act`` answers with one of
``view.legal`` (an action id) or one of ``view.labels``; anything else stops the game with a message naming
the agent. docs/agents.md describes the protocol and the limits.

The processes, and how they are contained (POSIX), for each seat's agent: a *watcher*, which runs no code of the
agent's and ends everything the agent started once the game's side lets go of it; a *loader*, which imports the
agent's module once and is kept from game to game; and for each game a *game's process*, forked from the loader,
which makes the agent and answers its decisions (harness/remote_agent.py, the agent's side, says how each is
contained). The game's side waits for each answer within the limits and reads what the agent writes a little at
a time; whatever is not the protocol, or the end of a process, stops the game with an AgentError that says what
the agent did, and ends the agent (harness/remote_link.py). This module: the agent as a seat's player
(``ProcessAgent``), the loaders kept from game to game, and the watcher's command, ``python -m
interpreter.harness.remote SPEC MEMORY LIFELINE``.

These modules import nothing of the engine at their top: the agents' processes load only them and the agent.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import weakref
from typing import Any

from interpreter.errors import AgentError
from interpreter.harness.remote_link import Failed, Limits, Loader, shown

__all__ = ["Limits", "ProcessAgent", "close_all"]


_idle: dict[tuple[str, int, Limits], list[Loader]] = {}  # loaders kept from game to game: (spec, seat, limits)


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
        self._loader: Loader | None = None  # the loader whose game's process plays this game, once started
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
        except Failed as exc:
            self.stop()
            raise AgentError(f"{who} {exc}") from None
        if type(answer) is int and answer in ids:
            return turn.legal[ids.index(answer)]
        if isinstance(answer, str):
            folded = [label.casefold() for label in labels]
            if answer.strip().casefold() in folded:
                return turn.legal[folded.index(answer.strip().casefold())]
        raise AgentError(f"{who} chose {shown(answer) if isinstance(answer, str) else shown(json.dumps(answer))}, "
                         f"which is not legal now ({step.name}); legal: {', '.join(labels[:40])}")

    def _start(self) -> None:
        try:
            loader: Loader | None = _idle.get((self.spec, self.seat, self.limits), []).pop()
        except IndexError:  # none kept (or another thread took it)
            loader = None
        if loader is not None and loader.process.poll() is not None:  # ended meanwhile: its pipes closed
            loader.kill()
            loader = None
        if loader is None:
            loader = Loader(self.spec, self.limits)
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
        except (Failed, OSError):
            loader.kill()
            return
        _idle.setdefault((self.spec, self.seat, self.limits), []).append(loader)

    def stop(self) -> None:
        """The game stops (it failed, or was interrupted): the game's process and the loader are killed."""
        loader, self._loader = self._loader, None
        if loader is not None:
            self._ending.detach()
            loader.kill()


def _kill(loader: Loader) -> None:
    with contextlib.suppress(Exception):
        loader.kill()


_spaces: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()  # a game's action ids, made once


def _described(info: Any) -> dict[str, Any]:
    """An action as plain data: its id, kind, value as people read it (cards by label, seats by name), label."""
    return {"id": info.id, "kind": info.kind, "value": info.shown, "label": info.label}


if __name__ == "__main__":  # the watcher of an agent's processes (harness/remote_agent.py)
    from interpreter.harness.remote_agent import main

    main()
