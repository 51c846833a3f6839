"""Rule expressions compiled to plain Python functions, with name and type checks done once at load time.

A compiled expression is a function ``f(env)`` where ``env`` is a dict holding the values of the names the
calling rule binds (``card``, ``led``, ``seat``...) and the current state under ``"$s"``. Constants
(``players``, ``options``, ``setup``) are folded in at compile time.

The compiler works in stages, each its own module:

1. parser.py: the text as a tree (ast.py), with the offset of every part;
2. resolve.py: names and types (with checks.py, the checks of operands and their messages): the tree as
   typed parts (ir.py) that record what each reads;
3. passes.py: which parts are constants (folded), remembered per card, or lifted out of a judged
   expression's loop;
4. emit.py: the Python source of the parts, made functions by codegen.py; the one way an expression is
   evaluated (runtime.py holds the helpers that source calls).

This module is the face the engine sees: :class:`Compiler`, :class:`Compiled` and the errors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.dsl import ast, budget, emit
from interpreter.dsl import checks as check
from interpreter.dsl.codegen import Namespace
from interpreter.dsl.ir import Part, constant, split
from interpreter.dsl.names import Define, Globals, Locate
from interpreter.dsl.passes import remember
from interpreter.dsl.resolve import Resolver, parse_checked
from interpreter.dsl.runtime import RUNTIME_ERRORS, explain, shown
from interpreter.dsl.state_reads import STATE_READS, Reads
from interpreter.dsl.types import NONE, Type, type_of_plain
from interpreter.errors import ExpressionError, GameError, Position

__all__ = ["RUNTIME_ERRORS", "Compiled", "Compiler", "Define", "ExpressionFailed", "Fn", "Globals", "Locate",
           "explain"]

Fn = Callable[[dict[str, Any]], Any]


class ExpressionFailed(GameError):
    """A rule expression could not be evaluated while playing (e.g. 1 // 0)."""


@dataclass(frozen=True)
class Compiled:
    """A compiled expression: the function, its type, and what it reads."""

    fn: Fn
    type: Type
    deps: frozenset[str]  # "ctx:NAME", "round:FIELD", or "state" for anything else
    text: str
    position: Position | None
    # compiled with per=: the items of a list for which it holds, and whether one does (one loop in one
    # function each, see emit.loops)
    select: Callable[[dict[str, Any], Any], list[Any]] | None = None
    exists: Callable[[dict[str, Any], Any], bool] | None = None
    # compiled with per=, when every part that reads the item reads nothing else but card attributes: the values of
    # the parts that do not read it (``keys(env)``, a tuple) and the value for each of some items given those
    # (``judge(env, items, keys)``), so that values may be kept by the keys' values (see emit.key_parts)
    keyed: tuple[Callable[[dict[str, Any]], tuple[Any, ...]], Callable[..., list[Any]]] | None = None
    # how it reads bound cards: "attr:led.colour" (an attribute), "bare:led" (the card itself: compared,
    # passed to a define...); a table keyed by the led card needs only the attributes when nothing is bare
    uses: frozenset[str] = frozenset()
    # the checked parts (ir.py), for code that writes the expression in place (see emit.inline)
    part: Part | None = field(default=None, repr=False, compare=False)
    # what its value is refused at play for not being (emit.function's expect: "number", "seat", "card" or None)
    expect: str | None = field(default=None, repr=False, compare=False)
    per: str | None = field(default=None, repr=False, compare=False)  # the item a judged expression is judged for
    # ``fn`` with errors turned into ExpressionFailed (set in __post_init__; not part of equality, hash or repr)
    run: Fn = field(init=False, repr=False, compare=False)

    def failure(self, exc: Exception) -> ExpressionFailed:
        """The error of a mistake of the rules (one of RUNTIME_ERRORS) met while evaluating this expression."""
        where = f"{self.position}: " if self.position else ""
        return ExpressionFailed(f"{where}error: expression {self.text!r} failed: {explain(exc)}")

    def __post_init__(self) -> None:
        fails = self.failure

        def named(fn: Callable[..., Any]) -> Callable[..., Any]:
            def run(env: dict[str, Any]) -> Any:
                try:
                    return fn(env)
                except RUNTIME_ERRORS as exc:
                    raise fails(exc) from None

            return run

        def named2(fn: Callable[..., Any]) -> Callable[..., Any]:
            def loop(env: dict[str, Any], items: Any) -> Any:
                try:
                    return fn(env, items)
                except RUNTIME_ERRORS as exc:
                    raise fails(exc) from None

            return loop

        # the functions with errors turned into ExpressionFailed naming the expression;
        # hot loops keep ``run`` (one call) rather than calling the object
        object.__setattr__(self, "run", named(self.fn))
        if self.select is not None:
            assert self.exists is not None, "select and exists are given together"
            object.__setattr__(self, "select", named2(self.select))
            object.__setattr__(self, "exists", named2(self.exists))

    def __call__(self, env: dict[str, Any]) -> Any:
        return self.run(env)

    @property
    def is_constant(self) -> bool:
        return not self.deps


class Compiler:
    """Compiles expression text against :class:`Globals` and a set of bound names.

    ``generate``: make every expression's function now (through the code kept under ``key`` between runs,
    see codegen.py). False is for checking only (validate): the checks are the same, and a function is made
    only if it is called (a constant the rules need before play, a rule judged card by card at load time).
    """

    def __init__(self, globals_: Globals, generate: bool = True, key: str | None = None):
        self.g = globals_
        self.generate = generate
        self.gen = Namespace(key)
        self._resolver = Resolver(globals_, self.gen)

    def compile(self, text: Any, bound: dict[str, Type], locate: Locate, expect: str | None = None,
                per: str | None = None) -> Compiled:
        """Compile ``text``; ``bound`` maps the names the caller provides to their types.

        ``per`` names the bound name that changes from call to call in a loop (``card`` when the
        caller judges every card of a hand). Such an expression also gets ``select(env, items)`` (the
        items for which it holds) and ``exists(env, items)`` (whether one does): one loop in one function,
        the parts that do not depend on the item worked out once per call, when first needed.
        """
        budget.reset()  # constant parts are worked out now, within the budget
        if isinstance(text, bool) or isinstance(text, int) or text is None:
            if expect in _TAKES:
                _given(expect, type_of_plain(text) if text is not None else NONE, None, locate)
            elif expect is not None and not (expect == "number" and type(text) is int) \
                    and not (expect == "truth" and type(text) is bool):
                raise ExpressionError(f"expected {_EXPECTED.get(expect, 'a ' + expect)}, found "
                                      f"{shown_plain(text)}", locate(0))
            return self._made(constant(text, type_of_plain(text) if text is not None else NONE), repr(text),
                              locate, None, per)
        if not isinstance(text, str):
            raise ExpressionError(f"expected an expression (text), found {type(text).__name__}", locate(0))
        tree = parse_checked(str(text), locate)
        try:
            return self._checked(tree, str(text), bound, locate, expect, per)
        except ExpressionError as exc:
            raise self._blamed(exc) from None

    def _blamed(self, exc: ExpressionError) -> ExpressionError:
        """``exc``, shown at the value of a constant the expression read (``setup.hand``) when a file that extends
        the expression's file wrote that value: the user's line, not the line of the file their file extends."""
        where = exc.position
        for name in self._resolver.reads:
            place = self.g.places.get(name)
            if place is not None and where is not None and self.g.derived(place.file, where.file):
                return ExpressionError(f"{name}: {exc.message} (where {where} reads it)", place)
        return exc

    def _checked(self, tree: ast.Node, text: str, bound: dict[str, Type], locate: Locate, expect: str | None,
                 per: str | None) -> Compiled:
        try:
            part = self._resolver.resolve(tree, bound, locate, per)
        except RecursionError:
            raise ExpressionError("the expression is nested too deeply (through its defines)", locate(0)) from None
        if expect == "card" and part.type.kind != "card":
            raise ExpressionError(f"expected a card, found {part.type}", locate(0))
        if expect in ("seat", "seat or none") and part.type.kind != "seat":
            raise ExpressionError(f"expected a seat, found {part.type}", locate(0))
        if expect == "number" and part.type.kind != "value":
            hint = {"seat": " (a seat is not a number: seat.index is)", "card": " (a card is not a number: "
                    "card.number is)"}.get(part.type.kind, "")
            raise ExpressionError(f"expected a number, found {part.type}{hint}", locate(0))
        if expect == "number" and part.type.plain in ("text", "truth") and not part.const:
            raise ExpressionError(f"expected a number, found {check.noun(part.type)}", locate(0))
        if expect == "truth":
            part = self._resolver.test(part, tree, locate)
        if expect in _TAKES:
            _given(expect, part.type, tree, locate)
        if part.const:
            if expect == "number" and type(part.value) is not int:
                raise ExpressionError(f"expected a number, found {shown(part.value)}", locate(0))
            if expect in ("seat", "card") and part.value is None:
                raise ExpressionError(f"this gives none where a {expect} is needed", locate(0))
            if expect == "truth" and part.value is not True and part.value is not False and part.value is not None:
                raise ExpressionError(f"expected true or false, found {shown(part.value)}", locate(0))
            expect = None
        else:
            part = remember(part, tree, bound)
        return self._made(part, text, locate, expect, per)

    def _made(self, part: Part, text: str, locate: Locate, expect: str | None, per: str | None) -> Compiled:
        """The Compiled of checked parts: their functions made now, or (not generating) when first called."""

        def make() -> tuple[Any, Any, Any]:
            if per is not None:
                return emit.loops(self.gen, part, per)
            # a round value not set yet, a first() of nothing...: refused at play where it is needed
            return emit.function(self.gen, part, refused), None, None

        refused = expect if expect in _REFUSED and per is None else None

        if self.generate:
            try:
                fn, select, exists = make()
            except RecursionError:
                raise ExpressionError("the expression is nested too deeply (through its defines)",
                                      locate(0)) from None
        else:
            fn, select, exists = _later(make, per is not None)
        deps, uses = split(part.deps)
        keys = emit.key_parts(part, per) if per is not None else None
        keyed = None if per is None or keys is None else _keyed_later(self.gen, part, per, keys)
        return Compiled(fn, part.type, deps, text, locate(0), select, exists, keyed, uses, part, refused, per)

    def constant_value(self, text: Any, locate: Locate) -> Any:
        """Compile and evaluate an expression that may only use constants."""
        compiled = self.compile(text, {}, locate)
        if compiled.deps:
            raise ExpressionError("this value must be known before play starts (it may use only players, "
                                  "options and setup)", locate(0))
        return compiled({})

    @staticmethod
    def _parse(text: str, locate: Locate) -> ast.Node:
        """The tree of ``text`` (a define nobody calls is still checked for its syntax)."""
        return parse_checked(text, locate)


_REFUSED = ("seat", "card", "number")  # the expected kinds a value is refused at play for not being (emit.function)
# what an expected kind is called in a message
_EXPECTED = {"truth": "true or false (a condition)", "number": "a number", "seat": "a seat", "card": "a card",
             "seats": "a seat or a list of seats", "seat or none": "a seat or none", "list": "a list",
             "cards": "a card or a list of cards", "card or none": "a card or none",
             "shown": "text (or a number) to show"}
# the kinds (checks.kind) an expected kind takes, for those checked alike; a value whose kind the compiler cannot
# tell is let through (it is used as it comes while playing), but where a card or a seat is wanted (the compiler
# always knows one); a list's items, where the expected kind says what they are
_TAKES = {"list": ("list",), "cards": ("card", "list", "none"), "card or none": ("card", "none"),
          "seats": ("seat", "list"), "shown": ("text", "number", "none")}
_KNOWN = ("card or none", "seats")
_ITEMS = {"cards": "card", "seats": "seat"}


def _given(expect: str, t: Type, tree: ast.Node | None, locate: Locate) -> None:
    """Refuse an expression that gives what ``expect`` does not take (see _TAKES)."""
    k = check.kind(t, tree)
    if k is None and expect in _KNOWN and not t.literal_none:
        k = "value"
    item = _ITEMS.get(expect)
    if k is not None and k not in _TAKES[expect] or item and k == "list" and t.element is not None \
            and check.kind(t.element) not in (None, item):
        raise ExpressionError(f"expected {_EXPECTED[expect]}, found {check.noun(t, tree)}", locate(0))


def shown_plain(value: Any) -> str:
    """A value written in the rule file, as a message names it (YAML's true, false and null)."""
    return "true" if value is True else "false" if value is False else "null" if value is None else repr(value)


def _lazily(make: Callable[[], Any], count: int) -> list[Callable[..., Any]]:
    """``count`` functions standing for those ``make()`` gives (in order), made when one is first called:
    checking a rule file runs few of its expressions."""
    made: list[Any] = []

    def stand_in(i: int) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            if not made:
                made.extend(make())
            return made[i](*args)

        return call

    return [stand_in(i) for i in range(count)]


def _keyed_later(gen: Any, part: Part, per: str, keys: list[Part], reads: Reads = STATE_READS) -> tuple[Any, Any]:
    """``emit.keyed``'s two functions, made when one is first called (few expressions are judged by their keys)."""
    keys_of, judge = _lazily(lambda: emit.keyed(gen, part, per, keys, reads), 2)
    return keys_of, judge


def written_for(c: Compiled, gen: Namespace, reads: Reads, at_once: bool = False) -> Compiled:
    """``c`` written again for a state held another way (``reads``, dsl/state_reads.py): the same checked parts, its
    functions made now with ``at_once`` (for a game made to be played: no stand-in between a caller and them), else
    when one is first called."""
    part, per = c.part, c.per
    if part is None or part.const:
        return c

    def make() -> tuple[Any, Any, Any]:
        if per is not None:
            return emit.loops(gen, part, per, reads)
        return emit.function(gen, part, c.expect, reads), None, None

    fn, select, exists = make() if at_once else _later(make, per is not None)
    keys = emit.key_parts(part, per) if per is not None and c.keyed is not None else None
    keyed = None if per is None or keys is None else _keyed_later(gen, part, per, keys, reads)
    return Compiled(fn, c.type, c.deps, c.text, c.position, select, exists, keyed, c.uses, part, c.expect, per)


def _later(make: Callable[[], tuple[Any, Any, Any]], judged: bool) -> tuple[Any, Any, Any]:
    """``fn`` (and ``select`` and ``exists`` when ``judged``) that make the generated functions when one is
    first called."""
    fn, select, exists = _lazily(make, 3)
    return (fn, select, exists) if judged else (fn, None, None)


