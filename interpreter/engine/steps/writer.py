"""What every piece of code the engine writes for a step shares: lines at an indentation, expressions written in
place, and the names those expressions bind as Python locals.

A step kind whose play is written as code (a trick's card play, trick_code.py; a choice, choose_code.py) has a
writer: a class whose methods each write one fragment of Python source, placed wherever it runs (the checked
``decision`` and ``apply``, and the loop ``Game.playout`` runs), so the checked path and the playout loop are one
source. The source is made only from the step's compiled parts, referred to by names of the namespace the code
runs in; no rule text is pasted in (an expression's source comes from dsl/emit.py, made from its checked parts).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple, Protocol

from interpreter.dsl import budget
from interpreter.dsl.codegen import Namespace, local_name
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.emit import inline
from interpreter.engine.game_view import GameView
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.limits import MAX_ACTIONS, WORK_LIMIT

Found = Callable[[int], None]  # writes what is done with the k-th step of a list (see steps_code.StepsWriter.enter)

# the builtins written code may call (expressions written in place call none: they refer to their helpers by name)
BUILTINS = {f.__name__: f for f in (len, list, dict, all, any, range, isinstance, type, int, str, map, bool, tuple, max,
                                     sum, enumerate, set, sorted, zip, object, TypeError)}


class Part(NamedTuple):
    """What a step kind (or the round) writes into the game's module (engine/module.py): its functions' source,
    the names that source refers to besides the helpers of the game's expressions, and how its functions become
    its code (``build``: the functions by name -> the step's code object)."""

    source: str
    globals: dict[str, Any]
    build: Any


# lines a writer places before it knows whether what follows reads them: a value of the bound names ``o`` and the
# dict ``e`` expressions and defines may take; each is pure, so a function that never reads its name loses it
_SETUP = re.compile(r"^ *(?:(?P<name>_v_\w+) = o\['\w+'\]|(?P<e>e) = \{'\$s': state(?:, '\$batch': object\(\))?\}"
                    r"|(?P<batch>e)\['\$batch'\] = object\(\))$")


def prune(source: str) -> str:
    """``source`` (functions at its top level) without the setup lines (``_SETUP``) of a name the function that
    holds them never reads; a block left empty gets ``pass``."""
    out: list[str] = []
    body: list[str] = []
    for line in source.splitlines():
        if line and not line[0].isspace():
            out.extend(_pruned(body))
            body = []
        body.append(line)
    out.extend(_pruned(body))
    return "\n".join(out) + "\n"


def _pruned(body: list[str]) -> list[str]:
    setup = {i: m.group("name") or m.group("e") or m.group("batch")
             for i, line in enumerate(body) if (m := _SETUP.match(line))}
    rest = "\n".join(line for i, line in enumerate(body) if i not in setup)
    dead = {n for n in set(setup.values()) if not re.search(rf"(?<![\w'.]){n}(?![\w'])", rest)}
    kept = [line for i, line in enumerate(body) if setup.get(i) not in dead]
    out: list[str] = []
    for i, line in enumerate(kept):
        out.append(line)
        if line.endswith(":"):
            depth = len(line) - len(line.lstrip())
            after = next((k for k in kept[i + 1:] if k.strip()), "")
            if len(after) - len(after.lstrip()) <= depth:
                out.append(" " * (depth + 4) + "pass")
    return out


def functions(source: str) -> list[str]:
    """The names of the functions ``source`` defines at its top level."""
    return [line[4:line.index("(")] for line in source.splitlines() if line.startswith("def ")]


class Lines:
    """Lines of Python source at an indentation that ``block`` deepens."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.depth = 0

    def __call__(self, *lines: str) -> None:
        self.out.extend("    " * self.depth + line for line in lines)

    @contextmanager
    def block(self, head: str) -> Iterator[None]:
        self(head)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def text(self) -> str:
        return "\n".join(self.out) + "\n"


def bound_read(exprs: Iterable[Compiled | None]) -> set[str]:
    """The bound names (``seat``, ``player``...) that any of ``exprs`` reads."""
    out: set[str] = set()
    for e in exprs:
        if e is not None:
            out.update(d[4:] for d in e.deps if d.startswith("ctx:"))
    return out


class Writer:
    """The part of every step's writer that writes expressions: each compiled expression's source in place, over
    the Python locals that stand for the names it binds (``local_name``), in code where ``state`` (the state) and
    ``e`` (a dict holding it under ``'$s'``, which a define's body and a remembered part take) are in scope."""

    def __init__(self, gen: Namespace, shape: StateShape = STATE_SHAPE):
        self.gen = gen
        self.shape = shape  # how the state is held: where the written code reads and changes it
        self.written: dict[tuple[int, str | None], str] = {}  # (id of an expression, expect) -> its source

    def names(self, *names: str) -> dict[str, str]:
        return {name: local_name(name) for name in names}

    def expr(self, compiled: Compiled, names: dict[str, str], expect: str | None = None) -> str:
        """The source of ``compiled`` in place over the locals ``names``; the same text wherever it is placed
        (a remembered part's table is one table). ``expect``: as the expression was compiled with (a number, a
        seat), checked where its value is given."""
        if compiled.part is not None and compiled.part.const:
            expect = None  # checked when it was folded
        key = (id(compiled), expect)
        src = self.written.get(key)
        if src is None:
            assert compiled.part is not None  # compiled expressions keep their parts
            src = self.written[key] = inline(self.gen, compiled.part, names, expect, self.shape)
        return src

    def assign(self, w: Lines, target: str, compiled: Compiled, names: dict[str, str],
               expect: str | None = None) -> None:
        """``target = <compiled>``; a mistake of the rules fails naming the expression and its position."""
        if compiled.part is not None and compiled.part.const:
            w(f"{target} = {self.expr(compiled, names, expect)}")
            return
        with w.block("try:"):
            w(f"{target} = {self.expr(compiled, names, expect)}")
        with w.block("except RUNTIME_ERRORS as exc:"):
            w(f"raise {self.gen.ref(compiled)}.failure(exc) from None")

    def ref(self, obj: Any) -> str:
        """The name ``obj`` has in the written code."""
        return self.gen.ref(obj)

    @staticmethod
    def pick(seat: str, actions: str, shown: str | None = None) -> str:
        """The source of the index of the action ``seat`` takes among ``actions`` in a playout: the policy's, or,
        with no policy, a uniform draw written in place (``Game.playout``'s default: ``random`` is the rng's).
        ``shown``: the source of the actions as the policy is shown them, where ``actions`` holds them otherwise (a
        trick's loop holds the cards its plays play)."""
        return f"int(random() * len({actions})) if policy is None else policy(state, {seat}, {shown or actions})"

    @staticmethod
    def run_loop(w: Lines, seat: str, apply: Callable[[], None], find: Callable[[], None], made: str) -> None:
        """The body of a step's ``run(game, state, policy, random)``, for ``Game.playout``: the pending decision and
        those after it taken in a loop, without Decision objects, as ``apply_fast`` would take them (each by
        ``pick``). ``apply()`` writes
        the taking of ``action``; ``find()`` writes the finding of the next decision (``seat`` chooses among
        ``actions``; ``actions`` None when the step is over); ``made`` is the source of that decision as a
        Decision, for the engine once the loop stops (the step is over, or an automatic seat is to choose)."""
        w("q = state.progress", "d = state.pending", f"{seat}, actions = d.actor, d.actions")
        w("automatic = game.automatic", "room = MAX_ACTIONS - state.actions_taken", "taken = 0")
        with w.block("while True:"):
            w(f"action = actions[{Writer.pick(seat, 'actions')}]", "taken += 1")
            with w.block("if taken > room:"):
                w("state.actions_taken += taken", "game.rounds.too_long(STEP)")
            w("BUDGET[0] = WORK  # as apply_fast: the expressions' budget is per action")
            apply()
            find()
            with w.block(f"if actions is None or {seat} in automatic:"):
                w("break")
        w("state.actions_taken += taken")
        w(f"game.rounds.go_on(state, None if actions is None else {made})", "return taken")

    @staticmethod
    def run_globals() -> dict[str, Any]:
        """What ``run_loop``'s code refers to, besides ``STEP``."""
        return {"BUDGET": budget.left, "WORK": WORK_LIMIT, "MAX_ACTIONS": MAX_ACTIONS}


class ListWriter(Protocol):
    """What a step's ``write`` (base.Step.write) asks of the writer of the list of steps it is in (steps_code.py's
    ``StepsWriter``: the round's, a repeat's, a trick's hooks): the names the written code gives the step and the
    holding step's names, the writing of its expressions and of its start."""

    @property
    def game(self) -> GameView: ...

    @property
    def playing(self) -> bool: ...  # writing the loop for playouts (``run_NAME``), not the checked path

    @property
    def shape(self) -> StateShape: ...  # how the state is held (engine/state_shape.py)

    def step_ref(self, k: int) -> str: ...

    def ref(self, obj: Any) -> str: ...

    def assign(self, w: Lines, target: str, compiled: Compiled, names: dict[str, str],
               expect: str | None = None) -> None: ...

    def outer_locals(self, w: Lines, exprs: list[Any]) -> dict[str, str]: ...

    def outer_dict(self, w: Lines) -> None: ...

    def started(self, w: Lines, k: int, found: Found, began: Found | None, start: str, decision: str) -> None: ...

    def in_loop(self, w: Lines, k: int) -> None: ...
