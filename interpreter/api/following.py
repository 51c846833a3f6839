"""What a GameState follows of its match, each from the first time it is asked for: its history (the lines of a
record) and its narration, what each seat saw (its information state) and who knows which card (the knowledge
search samples from).

Each is followed from the game's start the first time it is asked for: the state's chance outcomes and actions are
played again on a new match (``replayed``), and from then on listeners of the state's match (the record writer,
``Following``) keep it up to date after each change. Until then the match has no listener, and a change costs
what the engine's own step costs.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.observation import observe
from interpreter.engine.state import State
from interpreter.match.driver import Each, Handler, Listener, Match
from interpreter.match.events import Action, Applied, Chance, Note
from interpreter.match.writer import RecordWriter


class Followed(Protocol):
    """What the listener and the replays read and keep of a GameState (api/core.py)."""

    _match: Match  # the match played; its game is the engine's
    _moves: list[Any]  # each action and chance outcome (as a Dealt) applied
    _knowledge: Knowledge | None  # who knows which card, once followed
    _seen: list[list[str]] | None  # what each seat saw after each event, once followed
    _last: list[dict[str, Any]]  # each seat's last observation


class Dealt(NamedTuple):
    """A chance outcome among a state's moves (its actions are kept as they are, the very objects, so that they
    are played again exactly: identical cards stay the same cards)."""

    outcome: Any


class Moves:
    """A listener that keeps the chance outcomes and actions applied in ``moves`` (as a state keeps them), while
    something other than the state's own changes drives its match (a game played by agents, a record read)."""

    def __init__(self, moves: list[Any]):
        self.moves = moves
        self.hears: dict[type, Handler] = {Chance: self.chance, Action: self.action}

    def chance(self, match: Match, event: Chance) -> None:
        self.moves.append(Dealt(event.outcome))

    def action(self, match: Match, event: Action) -> None:
        self.moves.append(event.action)


class Following:
    """The listener of a GameState's match that, once ``follow`` is called, keeps the knowledge and the seats'
    information states up to date after each change (where the state keeps them)."""

    def __init__(self, state: Followed):
        self.of = state
        self.hears: dict[type, Handler] = {}

    def follow(self) -> None:
        """From now on, after each change: the knowledge and the seats' information states (where kept)."""
        if Applied not in self.hears:
            self.hears[Applied] = self.applied
            self.of._match.listen()

    def applied(self, match: Match, event: Applied) -> None:
        of = self.of
        if of._knowledge is not None:
            of._knowledge.update(match.state)
        if of._seen is not None:
            _saw(match.game, match.state, of._seen, of._last)


def _changed(before: dict[str, Any], now: dict[str, Any], depth: int) -> dict[str, Any]:
    """What differs in ``now`` from ``before``: changed keys (within mappings, down to ``depth`` levels, only
    what changed in them), and keys gone as None."""
    out: dict[str, Any] = {}
    for k, v in now.items():
        old = before.get(k, _GONE)
        if old != v:
            out[k] = _changed(old, v, depth - 1) if depth > 1 and isinstance(old, dict) and isinstance(v, dict) \
                else v
    out.update({k: None for k in before if k not in now})
    return out


_GONE = object()


def replayed(state: Followed, watch: Callable[[State], None] | None, *listeners: Listener) -> State:
    """A new state that plays ``state``'s chance events and actions again from its start, ``watch`` told of it
    at the start and after each, ``listeners`` told of it as a match tells (to follow what ``state`` did not follow
    from the start). The very outcomes and actions are applied again, not their labels: the same cards in the same
    places, identical cards too."""
    again = state._match.again()
    if watch is not None:
        watch(again.state)
        again.listen(Each(watch))
    again.listen(*listeners)
    again.begin()
    for move in state._moves:
        if type(move) is Dealt:
            again.chance(move.outcome)
        else:
            again.act(move)
    return again.state


class Narration:
    """A listener that keeps the narration: each line the rules tell, added to ``notes``."""

    def __init__(self, notes: list[str]):
        self.notes = notes
        self.hears: dict[type, Handler] = {Note: self.note}

    def note(self, match: Match, event: Note) -> None:
        self.notes.append(event.text)


def history_of(state: Followed, writer: RecordWriter) -> list[str]:
    """Write ``state``'s history so far with ``writer`` (new); its narration so far."""
    notes: list[str] = []
    replayed(state, None, writer, Narration(notes))
    return notes


def _saw(engine: Game, state: State, seen: list[list[str]], last: list[dict[str, Any]]) -> None:
    """Add what each seat sees now to its information state (the keys of its observation that changed)."""
    for s in range(engine.players):
        now = observe(engine, state, s)
        seen[s].append(json.dumps(_changed(last[s], now, 3), sort_keys=True, ensure_ascii=False))
        last[s] = now


def seen_of(state: Followed) -> list[list[str]]:
    """What each seat saw after each event of ``state`` (and, in ``state._last``, what it sees now)."""
    engine = state._match.game
    seen: list[list[str]] = [[] for _ in range(engine.players)]
    last: list[dict[str, Any]] = [{} for _ in range(engine.players)]
    replayed(state, lambda again: _saw(engine, again, seen, last))
    state._last = last
    return seen


def knowledge_of(state: Followed) -> tuple[Knowledge, Any]:
    """Who knows which card in ``state``, and what the state is to keep for it to follow (``State.seen``)."""
    engine = state._match.game
    made: list[Knowledge] = []

    def watch(again: State) -> None:
        if made:
            made[0].update(again)
        else:
            made.append(Knowledge(engine, again))

    again = replayed(state, watch)
    return made[0], again.seen
