"""Stable integer ids for every action a compiled game can offer, and what each action is.

Outside programs (the public API, OpenSpiel, PettingZoo, a learning agent) need a fixed action space: the same
id for the same action in every state of a game (a rule file, a player count and options), known before play.
Every deciding step has a block of ids, in the order of ``Game.every_step``; the step kind says what its actions
are (``Step.action_entries``: the kind and value of each, which every step kind declares) and which entry a
legal action is (``Step.action_key``). Identical cards are one action (as they are one choice at the table), so a
card's entry is its kind (the first of the identical cards).

Kinds of action: ``card``, ``seat``, ``number``, ``text``, ``truth``, ``list``, ``record``, ``pass``, ``stop``
and ``space`` (a board's space). A list's value is a tuple of its items' values; a card's value is its id (the
first of its kind) and its label says which card it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from interpreter.engine.game import Game
from interpreter.engine.state import Deciding
from interpreter.errors import GameError


class ActionInfo(NamedTuple):
    """What the action with id ``id`` is: the step that offers it, its kind, its value, a label, and the value as
    people read it (``shown``: cards by their labels, seats by their names, in lists too)."""

    id: int
    step: str
    kind: str
    value: Any
    label: str
    shown: Any


class ActionSpace:
    """The ids of a game's actions (see the module's docstring)."""

    def __init__(self, game: Game):
        self.game = game
        self.infos: list[ActionInfo] = []
        self._ids: dict[tuple[int, Any], int] = {}  # (id of the step, its key of the action) -> id
        self._base: dict[int, int] = {}  # id of a step -> its first id
        self._known: dict[int, dict[Any, int]] = {}  # id of a step -> each action of it seen before -> its id
        self._labels: dict[int, dict[Any, str]] = {}  # id of a step -> each action of it seen before -> its label
        for step in game.every_step():
            self._base[id(step)] = len(self.infos)
            for kind, key, value, label in step.words.action_entries(game):
                k = (id(step), key)
                if k in self._ids:  # a domain that lists a value twice: one id
                    continue
                self._ids[k] = len(self.infos)
                self.infos.append(ActionInfo(len(self.infos), step.name, kind, value, label,
                                             step.words.shown(game, kind, value)))

    def __len__(self) -> int:
        return len(self.infos)

    def id_of(self, step: Deciding, action: Any) -> int:
        """The id of ``action``, an action ``step`` offers."""
        found = self._ids.get((id(step), step.words.action_key(self.game, action)))
        if found is None:
            raise GameError(f"{step.where}: error: step {step.name!r} offered {step.words.label(self.game, action)!r}, "
                            "which is not among the actions its domain gives ids to (give the step a domain: "
                            "that lists every value it may offer)")
        return found

    def table(self, step: Deciding) -> dict[Any, int]:
        """The ids of the actions of ``step`` seen so far, by the action itself (filled by ``ids``): a caller that
        looks up many decisions of one step may read it directly, and call ``ids`` for an action it lacks (or one
        that cannot be a key: a choice of a list)."""
        known = self._known.get(id(step))
        if known is None:
            known = self._known[id(step)] = {}
        return known

    def ids(self, step: Deciding, actions: list[Any]) -> list[int]:
        """The ids of ``actions`` (legal actions of ``step``), in their order (each action found once by its key,
        then by itself)."""
        return _looked_up(self.table(step), actions, lambda a: self.id_of(step, a))

    def labels(self, step: Deciding, actions: list[Any]) -> list[str]:
        """The labels of ``actions`` (legal actions of ``step``) as the step's words give them, in their order:
        each worked out once, then found by the action itself (a label is made from the action alone)."""
        table = self._labels.get(id(step))
        if table is None:
            table = self._labels[id(step)] = {}
        words, game = step.words, self.game
        return _looked_up(table, actions, lambda a: words.label(game, a))


def _looked_up(table: dict[Any, Any], actions: list[Any], make: Callable[[Any], Any]) -> list[Any]:
    """What ``table`` holds for each of ``actions``, in their order; ``make`` makes what it lacks, kept in it (an
    action that cannot be a key, a choice of a list, is made every time)."""
    try:
        return [table[a] for a in actions]  # each action seen before
    except (KeyError, TypeError):
        pass
    out = []
    for a in actions:
        try:
            found = table.get(a)
        except TypeError:  # a choice of a list: made every time
            out.append(make(a))
            continue
        if found is None:
            found = table[a] = make(a)
        out.append(found)
    return out
