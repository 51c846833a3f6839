"""The code of a ``board`` step's play, written for each step from its rows and options: one source for the
checked path and for playouts.

* ``start(state, o)``: the first seat, the spaces open at the start, the spaces it may cover; the board's result
  at once when it may cover none (the step's ``start``);
* ``decision(state, p, o)``: the seat to act covers one of ``p.choices``, or None once nothing may be covered;
* ``apply(state, p, action, o)``: the space is covered (who covered it kept in ``p.covers``), the turn passes
  (``next``), the spaces the next seat may cover are found (without ``coverable``: never a row's last open space,
  the list kept up to date), and the board's result once none is left;
* ``run(game, state, policy)``: for ``Game.playout``, the body of ``apply`` in a loop of its own.

``first``, ``next`` and ``coverable`` are written in place.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import RUNTIME_ERRORS
from interpreter.engine.faults import bad_next
from interpreter.engine.game_view import GameView
from interpreter.engine.narration import tell_board
from interpreter.engine.state import Decision
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps.board_reading import BoardProgress, BoardReading
from interpreter.engine.steps.writer import Lines, Part, Writer


class BoardCode(NamedTuple):
    """The functions written for one board step (see the module's docstring)."""

    start: Any
    decision: Any
    apply: Any
    run: Any


def part(step: BoardReading, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part:
    """The functions of ``step`` for ``game`` (see choose_code.part), over a state held as ``shape`` says (the
    playout loop ``run`` only over today's)."""
    opening = Opening.of(step)
    return Part(BoardWriter(step, game.players, gen, shape).source(), {
        "STEP": step, "P": BoardProgress, "Decision": Decision, "RUNTIME_ERRORS": RUNTIME_ERRORS,
        "COVERS": step._covers, "OPEN": opening.open, "START": opening.choices,
        "ROWS": [row.key for row in step.rows], "SPACES": [row.values for row in step.rows], **Writer.run_globals(),
    }, lambda f: BoardCode(f["start"], f["decision"], f["apply"], f.get("run")))


class Opening(NamedTuple):
    """A board before its first cover: each row's open spaces, and (without ``coverable``, the default: never a
    row's last open space) the spaces the first seat may cover, the same every round; None with ``coverable``."""

    open: list[list[bool]]
    choices: list[Any] | None

    @staticmethod
    def of(step: BoardReading) -> Opening:
        open_ = [[not c for c in row.covered] for row in step.rows]
        if step.coverable is not None:
            return Opening(open_, None)
        return Opening(open_, [step._covers[r][i] for r, row in enumerate(open_) if sum(row) > 1
                               for i, o in enumerate(row) if o])

    def fixed(self) -> bool:
        """Whether the board starts the same way every round with a seat to cover (a start written in place)."""
        return bool(self.choices)


def first_seat(w: Lines, step: BoardReading, assign: Any, shape: StateShape) -> None:
    """``first``: the seat that covers first (``assign``: the writer's, for the expression)."""
    if step.first is not None:
        w("e = {'$s': state}")
        assign(w, "first", step.first, {}, "seat")
    else:
        w(f"first = {shape.attribute('state', 'dealer')}")


def opened(progress: str, open_: str, choices: str) -> str:
    """The source of a board's progress (its class ``progress``) at its start, ``first`` to cover: each row's
    open spaces from ``open_`` and the spaces it may cover from ``choices`` (sources), in lists of its own."""
    return f"{progress}([list(row) for row in {open_}], first, {choices}, [])"


def covering(shape: StateShape, p: str, step: str) -> str:
    """The source of the decision of the seat to act in the board ``step`` (a source) with progress ``p``."""
    return shape.decision(f"{p}.turn", f"{p}.choices", step, "'cover a space'", "'cover'")


class BoardWriter(Writer):
    """Writes the functions of one board step; each method writes one fragment."""

    def __init__(self, step: BoardReading, players: int, gen: Namespace, shape: StateShape = STATE_SHAPE):
        super().__init__(gen, shape)
        self.step = step
        self.players = players

    def source(self) -> str:
        w = Lines()
        with w.block("def start(state, o):"):
            self.start(w)
        with w.block("def decision(state, p, o):"):
            w(f"return {self.made()} if p.choices else None")
        with w.block("def apply(state, p, action, o):"):
            self.apply(w)
        with w.block("def run(game, state, policy, random):"):
            self.run_loop(w, "seat", lambda: self.apply(w, "q", True),
                          lambda: w("seat = q.turn", "actions = q.choices or None"), self.made("q"))
        return w.text()

    def made(self, p: str = "p") -> str:
        return covering(self.shape, p, "STEP")

    def start(self, w: Lines) -> None:
        first_seat(w, self.step, self.assign, self.shape)
        if self.step.coverable is None:
            w(f"p = {opened('P', 'OPEN', 'START.copy()')}")
        else:
            w(f"p = {opened('P', 'OPEN', '[]')}")
            self.choices(w, "p")
        with w.block("if not p.choices:"):
            self.settle(w, "p")
        w("return p")

    def settle(self, w: Lines, p: str) -> None:
        """Nothing may be covered: each row's one open space sets its round value (none: several open)."""
        shape = self.shape
        for r, row in enumerate(self.step.rows):
            w(f"row = {p}.open[{r}]")
            w(f"{shape.round('state', row.key)} = SPACES[{r}][row.index(True)] if sum(row) == 1 else None")
        if shape.edges:
            rows = [(row.title, row.labels) for row in self.step.rows]
            with w.block("if state.notes is not None:"):
                w(f"{self.ref(tell_board)}(state, {self.ref(rows)}, {p}.open)")

    def choices(self, w: Lines, p: str) -> None:
        """``p.choices``: the spaces the seat to act may cover."""
        step = self.step
        if step.coverable is None:  # the default: never a row's last open space
            w(f"{p}.choices = [COVERS[r][i] for r, row in enumerate({p}.open) if sum(row) > 1 "
              "for i, o in enumerate(row) if o]")
            return
        names = self.names("seat", "open", "row", "space")
        w("e = {'$s': state}", f"{names['seat']} = {p}.turn", "out = []")
        with w.block(f"for r, row in enumerate({p}.open):"):
            w(f"{names['open']} = sum(row)", f"{names['row']} = ROWS[r]", "values = SPACES[r]")
            with w.block("for i, o in enumerate(row):"):
                with w.block("if o:"):
                    w(f"{names['space']} = values[i]")
                    self.assign(w, "ok", step.coverable, names)
                    with w.block("if ok:"):
                        w("out.append(COVERS[r][i])")
        w(f"{p}.choices = out")

    def apply(self, w: Lines, p: str = "p", loop: bool = False) -> None:
        """The seat to act covers the space ``action``; the next seat; what it may cover. The list of spaces it
        may cover is a fresh one where a decision or a policy may hold the last (the checked path; in the playout
        loop ``loop``, the first cover after a decision, or with a policy), else changed in place."""
        step = self.step
        w("r, i = action", f"row = {p}.open[r]", "row[i] = False", f"{p}.covers.append((r, i, {p}.turn))")
        if step.next is not None:
            names = self.names("seat")
            w("e = {'$s': state}", f"{names['seat']} = {p}.turn")
            self.assign(w, "nxt", step.next, names, "seat")
            with w.block(f"if not isinstance(nxt, int) or not 0 <= nxt < {self.players}:"):
                w(f"raise {self.ref(bad_next)}({str(step.next.position)!r}, nxt)")
            w(f"{p}.turn = nxt")
        else:
            w(f"{p}.turn = {p}.turn + 1 if {p}.turn + 1 < {self.players} else 0")
        if step.coverable is None:
            with w.block("if sum(row) == 1:"):
                w(f"{p}.choices = [c for c in {p}.choices if c[0] != r]")
            if loop:
                with w.block(f"elif policy is None and {p}.choices is not d.actions:"):
                    w(f"{p}.choices.remove(action)")
            with w.block("else:"):
                w(f"{p}.choices = choices = {p}.choices.copy()", "choices.remove(action)")
        else:
            self.choices(w, p)
        with w.block(f"if not {p}.choices:"):
            self.settle(w, p)
