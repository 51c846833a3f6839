"""The code that runs a list of steps (a round's, a repeat's, a trick's hooks), written for each list from its steps.

Entering a list from its ``i``-th step goes from step to step until one has a decision: a step whose ``when``
fails is passed over (its ``when`` written in place), a step without decisions does its work and the next one is
entered, a step with a decision stops the entering there. :class:`StepsWriter` writes, for one list:

* ``enter_NAME(game, state, p, i)``: the entering (base.enter's meaning). What is done with the step found is
  the list's own: a repeat's or a trick's list gives a ``Running`` (the step, its progress, its decision); the
  round keeps the step and its progress in the state and gives the decision;
* ``advance_NAME(game, state, p, r, action)``: for a list that gives a ``Running``: ``action`` taken in the step
  ``r`` runs, then its next decision, or the entering of the steps after it (base.advance's meaning);
* ``run_NAME(game, state, p, i, policy, random, room)``: for a list that gives a ``Running``, in a playout: the
  entering, and the decisions taken as they come.

A step kind writes its own part (``Step.write``): a step without decisions can do its work in place (``set``),
a step with written code is started through it (``choose``, ``board``); any other is started through its
methods. In ``run_NAME`` a step whose kind registered a writer in ``LOOPS`` (``choose``) is written in place,
entered and played there, with no call. ``p`` is the progress of the step holding the list (a trick's, for its
hooks): the names the trick binds are worked out from it (``sources``), as locals for expressions written in
place, and as a dict ``o`` for a step's written code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from interpreter.dsl.codegen import Namespace, local_name
from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps.base import Step
from interpreter.engine.steps.writer import Found, Lines, Part, Writer, bound_read


class LoopWriter(Protocol):
    """A step written in place in the loop of playouts of the list holding it: what its code there refers to (under
    names of its own, see StepsWriter.globals) and the writing of that code (``stopped()`` writes what is done at a
    decision of an automatic seat)."""

    globals: dict[str, Any]
    read: list[str]  # the names of the holding step its code reads
    reads_o: bool  # whether its code reads them in the dict ``o`` too (else as locals only)

    def write(self, w: Lines, stopped: Callable[[], None], from_o: bool) -> None: ...


# the step kinds written in place in a playout's loop, each with the maker of its writer there (a step kind's code
# writer registers its kind, the way base.register registers the kinds)
LOOPS: dict[type[Step], Callable[[Any, GameView, Namespace, StateShape, str], LoopWriter]] = {}


def in_loop_writer(step: Step) -> Callable[[Any, GameView, Namespace, StateShape, str], LoopWriter] | None:
    """The maker of ``step``'s writer in place in a playout's loop (by its kind's class, or a class its kind derives
    from), or None: it is played there through its written code's or its own methods."""
    for cls in type(step).__mro__:
        loop = LOOPS.get(cls)
        if loop is not None:
            return loop
    return None


class StepsWriter(Writer):
    """Writes the functions that run one list of steps (see the module's docstring).

    ``name``: the list's name in the written code (its functions are ``enter_NAME``, ``advance_NAME``; the list
    is the global ``NAME`` and its ``k``-th step the global ``NAME_k``, see ``globals``); ``sources``: the source of
    each name a step of the list may read that the step holding it binds, from ``p``; ``game``: the game.
    """

    def __init__(self, name: str, steps: list[Step], gen: Namespace, game: GameView,
                 sources: dict[str, str] | None = None, shape: StateShape = STATE_SHAPE, loops: bool = True):
        super().__init__(gen, shape)
        self.name = name
        self.steps = steps
        self.game = game
        self.sources = sources or {}
        self.read: set[str] = set()  # the names the written code of the steps reads (given in ``o``)
        self.playing = False  # writing ``run_NAME``: a step with a loop of its own for playouts writes it (see run)
        self.built = False  # whether ``o`` may be made already in the function being written (see outer_dict)
        # the steps written in place in the loop of playouts (``run_NAME``), by their index in the list (``loops``
        # False: a list that never writes one, the round's)
        self.loops = {k: loop(s, game, gen, shape, self.step_ref(k)) for k, s in enumerate(steps)
                      if loops and (loop := in_loop_writer(s)) is not None}
        for s in steps:
            names = s.outer_names()
            if names is not None:
                self.read |= names
        if not shape.edges:  # code for another shape gives its steps every name (a label may read any of them)
            self.read = set(self.sources)

    def globals(self) -> dict[str, Any]:
        """The list and its steps, by the names the written code gives them (and what ``run`` refers to)."""
        return {self.name: self.steps, **{f"{self.name}_{k}": s for k, s in enumerate(self.steps)},
                **self.run_globals(), **{n: v for loop in self.loops.values() for n, v in loop.globals.items()}}

    def step_ref(self, k: int) -> str:
        return f"{self.name}_{k}"

    # ------------------------------------------------------------------ names of the holding step

    def outer_locals(self, w: Lines, exprs: list[Any]) -> dict[str, str]:
        """Locals for the names of the holding step that ``exprs`` read, worked out now; the name -> local map."""
        names = {}
        for name in sorted(bound_read(exprs) & set(self.sources)):
            names[name] = local_name(name)
            w(f"{names[name]} = {self.sources[name]}")
        return names

    def outer_dict(self, w: Lines) -> None:
        """``o``: the names the steps' written code reads, as a dict, once per function (None: no name); made
        without a test where no step before it in the function can have made it."""
        if not self.read:
            return
        items = ", ".join(f"{name!r}: {self.sources[name]}" for name in self.sources if name in self.read)
        if not self.built:
            self.built = True
            w(f"o = {{{items}}}")
            return
        with w.block("if o is None:"):
            w(f"o = {{{items}}}")

    # ------------------------------------------------------------------ functions

    def enter(self, w: Lines, found: Found, began: Found | None = None) -> None:
        """``enter_NAME``: from the ``i``-th step until one has a decision; ``found(k)`` writes what is done when
        the ``k``-th has one (``q`` its progress, ``d`` its decision), ``began(k)`` what is done once it starts
        (before its decision is asked for). Nothing found: the function ends (the caller writes what follows)."""
        w("o = None")
        self.built = False
        for k, step in enumerate(self.steps):
            with w.block(f"if i <= {k}:"):
                conditions = [c for c in (step.guard, step.when) if c is not None]
                for condition in conditions:
                    names = self.outer_locals(w, [condition])
                    w("e = {'$s': state}")
                    self.assign(w, "ok", condition, names)
                    w("if ok:")
                    w.depth += 1
                step.write(self, w, k, found, began)
                w.depth -= len(conditions)

    def started(self, w: Lines, k: int, found: Found, began: Found | None, start: str, decision: str) -> None:
        """A step with decisions started by ``start`` (the source giving its progress, or None when it has nothing
        to decide), its decision asked for by ``decision``."""
        w(f"q = {start}")
        with w.block("if q is not None:"):
            if began is not None:
                began(k)
            w(f"d = {decision}")
            with w.block("if d is not None:"):
                found(k)

    def advance(self, w: Lines) -> None:
        """``advance_NAME``: ``action`` is taken in the step ``r`` runs; then its next decision (kept in ``r.d``,
        ``r`` given), or the entering of the steps after it."""
        deciding = [k for k, s in enumerate(self.steps) if s.decides]
        w("o = None", "k = r.index")
        for n, k in enumerate(deciding):
            step = self.steps[k]
            head = "if" if n == 0 else "elif"
            with w.block(f"{head} k == {k}:" if n < len(deciding) - 1 or n == 0 else "else:"):
                self.built = False  # one branch runs
                if step.outer_names() is not None or not self.shape.edges:  # written code, given the names it reads
                    self.outer_dict(w)
                    w(f"code = {self.shape.code_of(self.step_ref(k), self.ref)}", "code.apply(state, r.p, action, o)",
                      "r.d = code.decision(state, r.p, o)")
                else:
                    w(f"step = {self.step_ref(k)}",
                      "r.d = step.apply(game, state, r.p, action) or step.decision(game, state, r.p)")
        with w.block("if r.d is not None:"):
            w("return r")
        w(f"return enter_{self.name}(game, state, p, k + 1)")

    def running(self, w: Lines) -> None:
        """The functions of a list whose steps run inside another step (a Running for the step found): entering,
        advancing, and ``run_NAME`` for playouts."""
        with w.block(f"def enter_{self.name}(game, state, p, i):"):
            self.enter(w, lambda k: w(f"return Running({self.name}, {k}, q, d)"))
            w("return None")
        with w.block(f"def advance_{self.name}(game, state, p, r, action):"):
            self.advance(w)
        with w.block(f"def run_{self.name}(game, state, p, i, policy, random, room):"):
            self.run(w)

    def run(self, w: Lines) -> None:
        """``run_NAME``: the list entered from its ``i``-th step and its decisions taken by ``policy`` as they come,
        as ``enter_NAME`` and ``advance_NAME`` would take them, without Running objects, for ``Game.playout``;
        the number taken. At a decision of an automatic seat it stops: the step and its decision are left in
        ``p.hook`` for the engine (None once the list is done). At most ``room`` decisions."""
        w("taken = 0")

        def decide(k: int) -> None:  # a step not written in place (see in_loop): through its methods
            w("automatic = game.automatic")
            with w.block("while True:"):
                with w.block("if d.actor in automatic:"):
                    w(f"p.hook = Running({self.name}, {k}, q, d)", "return taken")
                w(f"action = d.actions[{self.pick('d.actor', 'd.actions')}]", "taken += 1")
                with w.block("if taken > room:"):
                    w(f"game.rounds.too_long({self.step_ref(k)})")
                w("BUDGET[0] = WORK  # as apply_fast: the expressions' budget is per action")
                w(f"step = {self.step_ref(k)}",
                  "d = step.apply(game, state, q, action) or step.decision(game, state, q)")
                with w.block("if d is None:"):
                    w("break")

        self.playing = True
        self.enter(w, decide)
        self.playing = False
        w("p.hook = None", "return taken")

    def in_loop(self, w: Lines, k: int) -> None:
        """In ``run_NAME``: the ``k``-th step written in place, entered and taking its decisions as they come; at an
        automatic seat's decision it stops, the step, its progress ``q`` and the decision ``d`` left in ``p.hook``
        for the engine. The names of the holding step it reads are made locals, from ``p``; in a dict ``o`` only
        where its code reads that (and for another shape, whose code gives a label every name, see __init__)."""
        loop = self.loops[k]
        from_o = loop.reads_o or not self.shape.edges
        if from_o:
            self.outer_dict(w)
        else:
            for name in loop.read:
                w(f"{local_name(name)} = {self.sources[name]}")
        loop.write(w, lambda: w(f"p.hook = Running({self.name}, {k}, q, d)", "return taken"), from_o)


def standalone(step: Step, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part:
    """``start(game, state)`` of a step that writes its work in place (``Step.write``), for what runs the step by
    itself (a Knowledge working a hidden value out again on a sample): the same code, the names of the step
    holding it read through ``Step.env``. For a state held another way (``shape``): ``start(game, state, O)``, the
    names of the holding step given."""
    x = StepsWriter("ONE", [step], gen, game, {name: f"O[{name!r}]" for name in step.bound}, shape)
    w = Lines()
    with w.block("def start(game, state):" if shape.edges else "def start(game, state, O):"):
        if step.bound and shape.edges:
            w("O = ONE_0.env(state)")
        w("o = None")
        step.write(x, w, 0, lambda k: w("return q"), None)
        w("return None")
    return Part(w.text(), {"RUNTIME_ERRORS": RUNTIME_ERRORS, **x.globals()}, lambda f: f["start"])


class InPlace(Step):
    """A step kind that does its work in place (``write``) and has no decisions: its ``start`` runs the same
    code, written as a function of its own (``standalone``, its writer in engine/module.py's WRITERS), for what
    runs the step by itself."""

    def start(self, game: GameView, state: State) -> None:
        """The step's work, as the code that runs its list does it (``write``)."""
        self.code(game)(game, state)
