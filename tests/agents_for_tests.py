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


# ---------------------------------------------------------------- hostile agents: each misbehaves at its first decision


def protocol_out() -> int:
    """The file descriptor of the agent's process that writes the protocol's answers: the one pipe open for writing
    that is not standard output or error (an agent has no business finding it; these ones look for it)."""
    import fcntl
    import stat

    mine = {os.fstat(fd).st_ino for fd in (1, 2)}
    for fd in range(3, 256):
        try:
            info = os.fstat(fd)
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        except OSError:
            continue
        if stat.S_ISFIFO(info.st_mode) and flags & os.O_ACCMODE == os.O_WRONLY and info.st_ino not in mine:
            return fd
    raise LookupError("no protocol pipe found")


class Sleeper:
    """Sleeps at its first decision (having said so in the file TRICKBOOK_AGENT_ACTING names, if any)."""

    def act(self, view):
        import time

        if os.environ.get("TRICKBOOK_AGENT_ACTING"):
            with open(os.environ["TRICKBOOK_AGENT_ACTING"], "w", encoding="utf-8") as told:
                told.write(str(os.getpid()))
        time.sleep(10**6)


class SlowMaker:
    def __init__(self, seed=None):
        import time

        time.sleep(10**6)

    def act(self, view):
        return view.legal[0]


class Spinner:
    def act(self, view):
        while True:
            pass


class ReadsStdin:
    def act(self, view):
        import sys

        return sys.stdin.readline() or view.legal[0]


class Hog:
    """Asks for 64 MB after 64 MB, up to 2 GB (untouched, so a machine without a limit lends it without effort)."""

    def act(self, view):
        kept = [bytes(64 << 20) for _ in range(32)]
        return view.legal[0] if kept else None


class Forker:
    """Leaves a child behind at every decision, asleep, in the agent's process group."""

    def act(self, view):
        import time

        if os.fork() == 0:
            time.sleep(10**6)
            os._exit(0)
        return view.legal[0]


class HandsOver:
    """Leaves a child that holds the agent's pipes, and ends its own process without answering."""

    def act(self, view):
        import time

        if os.fork() == 0:
            time.sleep(10**6)
            os._exit(0)
        os._exit(0)


class Garbage:
    def act(self, view):
        os.write(protocol_out(), b"this is not JSON\n")
        return view.legal[0]


class WrongShape:
    def act(self, view):
        os.write(protocol_out(), b'{"answer": 1}\n')
        return view.legal[0]


class HugeLine:
    """Writes 2 MB on the protocol's pipe without a newline (in pieces, as a pipe takes them), then answers."""

    def act(self, view):
        out = protocol_out()
        for _ in range(32):
            os.write(out, b"x" * 65536)
        return view.legal[0]


class ClosesPipe:
    def act(self, view):
        os.close(protocol_out())
        return view.legal[0]


class Exits:
    def act(self, view):
        import sys

        print("giving up", file=sys.stderr, flush=True)
        os._exit(3)


class Counting:
    """Counts the games made in its process, and plays by that count: a game's process that began where the last
    one ended would play otherwise."""

    made = 0

    def __init__(self, seed=None):
        Counting.made += 1

    def act(self, view):
        return view.legal[Counting.made % len(view.legal)]


class Floods:
    """Writes 5 MB to standard error at its first decision, then plays as FirstLegal."""

    def __init__(self, seed=None):
        self.flooded = False

    def act(self, view):
        import sys

        if not self.flooded:
            self.flooded = True
            for _ in range(80):
                sys.stderr.write("y" * 65535 + "\n")
        return view.legal[0]
