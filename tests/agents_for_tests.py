"""Agents of one's own for tests/test_own_agents.py, run in processes of their own (harness/remote.py)."""

from __future__ import annotations

import gc
import json
import os
import re

CARD = re.compile(r"^(?:[AKQJ]|10|[2-9]) of (?:clubs|diamonds|hearts|spades)$")  # a card of the standard pack
ENGINE = ("State", "GameState", "Game", "TrickGame", "Knowledge", "Turn", "Decision", "Module")


class FirstLegal:
    def act(self, view):
        return view.legal[0]


class FirstLabel:
    def act(self, view):
        return view.labels[0].upper()  # a label, case aside


class Hostile:
    """Tries what it can to learn or change more than its seat may, writes what it found, then plays as
    FirstLegal would."""

    def __init__(self, seed=None):
        self.decisions = 0

    def act(self, view):
        answer = view.legal[0]
        found = {"engine objects": [], "cards": []}
        todo, seen = [view], set()
        while todo:  # every object reachable from the view, through attributes, items and gc's referents
            obj = todo.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if type(obj).__name__ in ENGINE:
                found["engine objects"].append(type(obj).__name__)
            todo.extend(gc.get_referents(obj))
            for name in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, name):
                    todo.append(getattr(obj, name))
        strings = set()
        for obj in gc.get_objects():  # every object of this process
            if type(obj).__name__ in ENGINE or type(obj).__module__.startswith("interpreter.engine"):
                found["engine objects"].append(type(obj).__name__)
            items = obj.values() if isinstance(obj, dict) else obj if isinstance(obj, (list, tuple, set)) else ()
            strings.update(x for x in items if isinstance(x, str) and CARD.match(x))
        found["cards"] = sorted(strings)
        view.legal.clear()  # changing what it was told changes nothing of the game
        view.labels.clear()
        view.actions.clear()
        view.observation.clear()
        self.decisions += 1
        with open(os.environ["TRICKBOOK_HOSTILE_OUT"], "a", encoding="utf-8") as out:
            out.write(json.dumps({"decision": self.decisions, **found}) + "\n")
        return answer


class Broken:
    def act(self, view):
        raise ValueError("the agent's own mistake")


class Nonsense:
    def act(self, view):
        return 3.5


class Illegal:
    def act(self, view):
        return "joker"
