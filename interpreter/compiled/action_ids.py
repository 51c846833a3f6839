"""The game's fixed action ids (engine/actions.py: the ids the API, PettingZoo and OpenSpiel number actions by) and
the compiled machine's actions (the whole numbers its step templates take, steps.py), each way.

An id belongs to one step (``ActionSpace``: a block of ids per deciding step, nested ones too); on the compiled
backend an action is a whole number given to the round's step that runs (a trick's own play, or the action of a
step it holds: a hook's choice, a repeat's step). So an id is a round step and a number (``number``, ``step_of``),
and a number offered while round step ``i`` runs is an id again through that step's table, sorted by number
(``source`` writes ``action_id(i, number)``, a binary search, -1 for a number no id has). The Python backend's action
of each id is made from the id's entry (``action_entries``: its kind, key and value) and checked to give the entry's
key back; the machine's ``action_of`` gives its number. Two ids of one round step with the same number (which step
decides is not in the number) are refused: ``NotWritten``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from interpreter.compiled.values import NotWritten
from interpreter.engine.actions import ActionSpace
from interpreter.engine.steps.action_types import Choice, Cover

TABLES = ("ACT_NUMBER", "ACT_KEYS", "ACT_IDS", "ACT_START")  # the constants ``source`` writes


@dataclass(frozen=True)
class ActionIds:
    """Each id's round step and number, and by round step its numbers (sorted) with their ids."""

    step_of: np.ndarray  # id -> the index of the round step that takes it
    number: np.ndarray  # id -> the number the round step's template takes
    keys: np.ndarray  # the numbers of round step i, sorted: keys[start[i]:start[i + 1]]
    ids: np.ndarray  # the id of each number of ``keys``
    start: np.ndarray  # where each round step's numbers start (one more item: the end)

    def source(self) -> str:
        """The tables as the module's constants, and ``action_id(i, number)``."""
        tables = [f"{name} = np.array({array.tolist()!r}, np.int64)"
                  for name, array in zip(TABLES, (self.number, self.keys, self.ids, self.start), strict=True)]
        return "\n".join([*tables, "", "",
                          "def action_id(i, number):",
                          "    lo = ACT_START[i]",
                          "    end = ACT_START[i + 1]",
                          "    hi = end",
                          "    while lo < hi:",
                          "        mid = (lo + hi) // 2",
                          "        if ACT_KEYS[mid] < number:",
                          "            lo = mid + 1",
                          "        else:",
                          "            hi = mid",
                          "    if lo < end and ACT_KEYS[lo] == number:",
                          "        return ACT_IDS[lo]",
                          "    return -1", ""])


def action_ids(machine: Any, space: ActionSpace) -> ActionIds:
    """The tables of ``machine`` (compiled/machine.py) for the ids of ``space`` (see the module's docstring)."""
    game = machine.game
    round_step = {}  # every step -> the index of the round step holding it (itself for a round step)
    for i, step in enumerate(game.steps):
        todo = [step]
        while todo:
            s = todo.pop()
            round_step[id(s)] = i
            todo.extend(s.inner_steps())
    step_of = np.zeros(len(space), np.int64)
    number = np.zeros(len(space), np.int64)
    by_step: list[dict[int, int]] = [{} for _ in game.steps]
    for step in game.every_step():
        i = round_step[id(step)]
        for kind, key, value, label in step.words.action_entries(game):
            action = _action(step, kind, key, value, label)
            found = space.id_of(step, action)  # (the id of the entry's key: the action made is the entry's)
            n = machine.action_of(i, action, step)
            other = by_step[i].get(n)
            if other is not None and other != found:
                raise NotWritten(f"the action ids of step {game.steps[i].name!r}: ids {other} and {found} are one "
                                 "action of its template")
            by_step[i][n] = found
            step_of[found], number[found] = i, n
    keys: list[int] = []
    ids: list[int] = []
    start = [0]
    for table in by_step:
        for n in sorted(table):
            keys.append(n)
            ids.append(table[n])
        start.append(len(keys))
    return ActionIds(step_of, number, np.array(keys, np.int64), np.array(ids, np.int64), np.array(start, np.int64))


def _action(step: Any, kind: str, key: Any, value: Any, label: str) -> Any:
    """The Python backend's action of one of ``step``'s action entries (its kind, key, value and label)."""
    if kind == "pass":
        return step.pass_action
    if kind == "stop":
        return step.stop_action
    if step.kind == "board":
        return Cover(*key)
    if step.kind == "tricks":
        return step.play_actions[key[1]][key[2]] if key[0] == "play" else step.take_actions[key[1]]
    return Choice(list(value) if isinstance(value, tuple) else value, label)
