"""The game's fixed action ids (engine/actions.py: the ids the API, PettingZoo and OpenSpiel number actions by) and
the compiled machine's actions (the whole numbers its step templates take, steps.py), each way.

An id belongs to one step (``ActionSpace``: a block of ids per deciding step, nested ones too); on the compiled
backend an action is a whole number given to the round's step that runs (a trick's own play, or the action of a
step it holds: a hook's choice, a repeat's step). So an id is a round step and a number (``number``, ``step_of``).
The other way, a number is an id by the table of the part of the round's step that decides now: a step whose parts
decide in turn (a trick's plays, a taker's choice of cards, the steps a trick runs, a repeat's steps) says which
part decides by a test over its progress (``StepCode.deciders``), since their numbers may be the same (a play of a
card and a taker's choice of it); ``source`` writes ``action_table(arrays, p)`` (which table) and ``action_id(t,
number)``, a binary search in the table's numbers, sorted (-1 for a number no id has). The Python backend's action
of each id is made from the id's entry (``action_entries``: its kind, key and value), and the machine's
``action_of`` gives its number. Two ids of one part with the same number are refused: ``NotWritten``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from interpreter.compiled.machine import STEP
from interpreter.compiled.steps import ARRAYS
from interpreter.compiled.values import NotWritten
from interpreter.engine.actions import ActionSpace
from interpreter.engine.steps.action_types import Choice, Cover

TABLES = ("ACT_NUMBER", "ACT_KEYS", "ACT_IDS", "ACT_START", "ACT_FIRST")  # the constants ``source`` writes


@dataclass(frozen=True)
class ActionIds:
    """Each id's round step and number, and by round step its numbers (sorted) with their ids."""

    step_of: np.ndarray  # id -> the index of the round step that takes it
    number: np.ndarray  # id -> the number the round step's template takes
    keys: np.ndarray  # the numbers of table t, sorted: keys[start[t]:start[t + 1]]
    ids: np.ndarray  # the id of each number of ``keys``
    start: np.ndarray  # where each table's numbers start (one more item: the end)
    first: np.ndarray  # round step i's first table; then one table for each of its parts (StepCode.deciders)
    tests: list[list[str]]  # round step i's parts: the source of each one's test (the first that holds decides)

    def source(self) -> str:
        """The tables as the module's constants, ``action_table(arrays, p)`` (the table of the part of the round's
        step deciding now) and ``action_id(t, number)``."""
        tables = [f"{name} = np.array({array.tolist()!r}, np.int64)"
                  for name, array in zip(TABLES, (self.number, self.keys, self.ids, self.start, self.first),
                                         strict=True)]
        lines = [f"def action_table({ARRAYS}, p):", f"    i = p[{STEP}]"]
        for i, tests in enumerate(self.tests):
            if len(tests) > 1:
                lines.append(f"    if i == {i}:")
                lines += [f"        if {test}:\n            return {int(self.first[i]) + d}" for d, test in
                          enumerate(tests[:-1])]
                lines.append(f"        return {int(self.first[i]) + len(tests) - 1}")
        lines += ["    return ACT_FIRST[i]", ""]
        return "\n".join([*tables, "", "", *lines,
                          "def action_id(t, number):",
                          "    lo = ACT_START[t]",
                          "    end = ACT_START[t + 1]",
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
    deciders = [code.deciders or [("True", None, None)] for code in machine.codes]
    step_of = np.zeros(len(space), np.int64)
    number = np.zeros(len(space), np.int64)
    by_part: list[list[dict[int, int]]] = [[{} for _ in parts] for parts in deciders]
    for step in game.every_step():
        i = round_step[id(step)]
        for kind, key, value, label in step.words.action_entries(game):
            action = _action(step, kind, key, value, label)
            found = space.id_of(step, action)  # (the id of the entry's key: the action made is the entry's)
            n = machine.action_of(i, action, step)
            d = next((d for d, (_, s, accepts) in enumerate(deciders[i])
                      if (s is None or s is step) and (accepts is None or accepts(action))), None)
            if d is None:
                raise NotWritten(f"the action ids of step {step.name!r}: no part of step {game.steps[i].name!r} "
                                 f"takes {label!r}")
            other = by_part[i][d].get(n)
            if other is not None and other != found:
                raise NotWritten(f"the action ids of step {game.steps[i].name!r}: ids {other} and {found} are one "
                                 "action of its template")
            by_part[i][d][n] = found
            step_of[found], number[found] = i, n
    keys: list[int] = []
    ids: list[int] = []
    start = [0]
    first = []  # each round step's first table (of its first part)
    for tables in by_part:
        first.append(len(start) - 1)
        for table in tables:
            for n in sorted(table):
                keys.append(n)
                ids.append(table[n])
            start.append(len(keys))
    return ActionIds(step_of, number, np.array(keys, np.int64), np.array(ids, np.int64), np.array(start, np.int64),
                     np.array(first, np.int64), [[test for test, _, _ in parts] for parts in deciders])


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
