"""What every step kind's compiled template gives, and how it is written: the second template of each step kind
(the first is its Python writer, engine/module.py's WRITERS), keyed by the kind in ``TEMPLATES``.

A step's template is source of functions named ``PREFIX_start``, and for a step that decides ``PREFIX_legal`` and
``PREFIX_apply``, for a step dealt by chance ``PREFIX_deal``, each taking the arrays (``z, zn, v, l, ln, h``) and
``p``, the progress array of the game, of which the step owns ``p[base:base + size]``:

* ``PREFIX_start(z, zn, v, l, ln, h, p)`` enters the step (its ``when`` is the machine's): it returns ``DONE`` (0) when
  the step has nothing to decide (it did its work), ``DECIDES`` (1) when a seat is to decide (``p[base]`` is that
  seat: every deciding template keeps the seat to act at its first progress slot), ``CHANCE`` (2) when the step
  waits for a deal;
* ``PREFIX_legal(z, zn, v, l, ln, h, p, out)`` writes the actions the seat may take into ``out`` (whole numbers: a
  card's kind, a value, ...) and returns how many, or -1 when the step ends without one (an ``otherwise: end``);
* ``PREFIX_apply(z, zn, v, l, ln, h, p, action)`` takes an action and returns ``DONE`` or ``DECIDES`` as start does;
* ``PREFIX_deal(z, zn, v, l, ln, h, p, order)`` deals ``order`` (the pack's cards as their kinds, in the order the
  Python backend's chance outcome lists them) and returns as start does.

``Writing`` is what a template is written with: the game's array layout, the expression writer, and ``call``,
which writes an expression of the step as a function of its own and gives the call's source. A step run inside
another (a trick's hooks) is written with a ``Writing`` of its own base in the holding step's progress, whose
``outer`` gives the names the holding step binds (each as its source over the arrays and ``p``, and its type); the
holding step's template writes it with ``inner``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.compiled.arrays import ArrayLayout
from interpreter.compiled.lower import PARAMS, Lowered, Lowerer
from interpreter.compiled.values import NotWritten
from interpreter.compiled.writer import encode_constant
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import Type

DONE, DECIDES, CHANCE = 0, 1, 2
ARRAYS = ", ".join(PARAMS)  # the arrays' parameters, as every written function takes them first


@dataclass
class StepCode:
    """One step's compiled template (see the module's docstring)."""

    prefix: str
    source: str
    size: int  # the progress slots it owns
    decides: bool = False
    # the most actions a decision of it offers, where its size is no bound of them that is close (a repeat's: its held
    # steps' most); None: at most its size (a board's spaces, a choice's options)
    actions: int | None = None
    deals: bool = False
    expressions: list[Lowered] = field(default_factory=list)
    # the Python backend's action of this step (a Play, a choice...) as the whole number the template takes
    action_of: Callable[..., int] | None = None  # (action) -> int; a step holding others also takes (action, step)
    # ``PREFIX_greedy(arrays, p, out, n, pays)`` written: a greedy agent's pick among the legal ``out[:n]`` (a trick's
    # play judged by its ordering, trick_template_judge.py), or -1 where it decides at random
    judges: bool = False
    # where its progress holds what the Python backend's step shows of it (its ``public``), for a reader outside the
    # step (an observation): a tricks step's trick_progress.Shown; None: it shows nothing the observation reads
    shown: Any = None
    # for a step whose parts decide in turn with actions of the same numbers (a trick's plays, a taker's choice, the
    # steps it runs; a repeat's steps): which part decides now, each as (the source of a test over ``p`` that holds
    # while it decides, the Python backend's step whose actions it takes, which of them: a test of an action or
    # None), the first whose test holds; none: the step decides alone (compiled/action_ids.py reads them)
    deciders: list[tuple[str, Any, Callable[[Any], bool] | None]] = field(default_factory=list)


@dataclass
class Writing:
    """What a template is written with (see the module's docstring): ``base``, the first progress slot of the step;
    ``outer``, the names the step holding it binds (name -> the source of its value and its type)."""

    lay: ArrayLayout
    lowerer: Lowerer
    prefix: str
    base: int
    expressions: list[Lowered] = field(default_factory=list)
    outer: dict[str, tuple[str, Type]] = field(default_factory=dict)
    # the writer of a step a template's step runs (kinds.step_code, which sets it: a template cannot import it)
    inner: Callable[[Any, Writing], StepCode] | None = None

    @property
    def players(self) -> int:
        return self.lay.layout.players

    def call(self, expr: Compiled, names: dict[str, str], types: dict[str, Type], stem: str,
             lists: bool = False, interned: bool = False) -> str:
        """A call of ``expr`` written as a function of its own, its bound names given from ``names`` (rule name ->
        the source of its value), each of the type ``types`` gives; a constant written in place. With ``lists``, an
        expression that gives a list may be written (a constant list too): its call gives the list's array and count
        (-1: none); ``interned``: the lists it makes by ``combinations`` are interned already (lower.py). The names of
        the holding step (``outer``) are bound too, under those of the step itself."""
        assert expr.part is not None
        if self.outer:
            names = {**{n: src for n, (src, _) in self.outer.items()}, **names}
            types = {**{n: t for n, (_, t) in self.outer.items()}, **types}
        if expr.part.const and not (lists and isinstance(expr.part.value, (list, tuple))):
            return str(encode_constant(self.lay, self.lowerer.values, expr.part.value, expr.part.type))
        reads = [n for n in names if f"ctx:{n}" in expr.deps]
        missing = {d[4:] for d in expr.deps if d.startswith("ctx:")} - set(reads)
        if missing:
            raise NotWritten(f"the name {sorted(missing)[0]!r} in an expression of a step")
        fn = f"{self.prefix}_{stem}{len(self.expressions)}"
        lowered = self.lowerer.lower(expr.part, {n: types[n] for n in reads}, fn, interned)
        if lowered.returns_list and not lists:
            raise NotWritten("an expression of a step that gives a list")
        self.expressions.append(lowered)
        return f"{fn}({ARRAYS}{''.join(', ' + names[n] for n in reads)})"

    def listed(self, call: str, items: str, count: str) -> list[str]:
        """The statements that read the list a call of ``call(..., lists=True)`` gives into ``items`` (a view of the
        scratch space, lower.Lowered) and ``count`` (-1: none)."""
        return [f"{items}_at, {count} = {call}", f"{items} = h[{items}_at:{items}_at + max({count}, 1)]"]

    @staticmethod
    def scratch(items: str, capacity: str) -> list[str]:
        """The statements that make ``items`` room for ``capacity`` whole numbers in the scratch space (compiled code
        allocates nothing: arrays.HEAP); the machine's entry points give it back."""
        return [f"{items}_at = grab(h, {capacity})", f"{items} = h[{items}_at:{items}_at + max({capacity}, 1)]"]

    def at(self, slot: int) -> str:
        """The source of the step's progress slot ``slot``."""
        return f"p[{self.base + slot}]"


def held_legal(name: str, which: str, deciding: list[tuple[int, str]], otherwise: str) -> list[str]:
    """``def NAME(arrays, p, out)`` for a step that runs others (a repeat's steps, a trick's hooks): the legal actions
    of the held step deciding, the one whose index (``deciding``: index, its prefix) the source ``which`` gives;
    ``otherwise`` when none is."""
    lines = [f"def {name}({ARRAYS}, p, out):", f"    k = {which}"]
    for n, (index, prefix) in enumerate(deciding):
        lines += [f"    {'if' if n == 0 else 'elif'} k == {index}:", f"        return {prefix}_legal({ARRAYS}, p, out)"]
    return [*lines, f"    return {otherwise}", ""]


def held_actions(held: dict[str, Callable[[Any], int] | None], what: str, own: Callable[[Any], int] | None = None,
                 own_types: tuple[type, ...] = ()) -> Callable[..., int]:
    """``action_of`` for a step that runs others (a repeat's steps, a trick's hooks): an action of ``own_types`` is
    its own (``own``); another is that of the step held that decides it, ``held`` by name -- the step given, or
    else the one number every held step that can take the action agrees on (NotWritten when they differ: which step
    decides is not in the action)."""

    def action_of(action: Any, step: Any = None) -> int:
        if own is not None and isinstance(action, own_types):
            return own(action)
        if step is not None and held.get(step.name) is not None:
            return held[step.name](action)  # type: ignore[misc]
        found: set[int] = set()
        for mapped in held.values():
            if mapped is None:
                continue
            try:
                found.add(mapped(action))
            except (LookupError, TypeError, ValueError, NotWritten):  # (an action this step cannot take: another's)
                continue
        if len(found) != 1:
            raise NotWritten(f"the action {action!r} of {what}, without the step it is of")
        return found.pop()

    return action_of


def table(name: str, items: list[int]) -> str:
    """A template's constant table, the line that makes it a constant array of the module named ``name`` (the compiled
    code holds it as a constant, frozen at compile time). Not a tuple in the function's lines: a tuple indexed by a
    number known only in play is compiled to a branch for each of its items (a deck's 32 to 110), each time."""
    return f"{name} = np.array({list(items)!r}, np.int64)"


Template = Callable[[Any, Writing], StepCode]  # a step and what it is written with -> its template
