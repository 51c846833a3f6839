"""AST → Python closures, with name and type checks done once at load time.

A compiled expression is a function ``f(env)`` where ``env`` is a dict holding
the values of the names the calling rule binds (``card``, ``led``, ``seat``...)
and the current state under ``"$s"``. Constants (``players``, ``options``,
``setup``) are folded in at compile time.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.dsl import ast, budget
from interpreter.dsl.budget import charge, list_size, number
from interpreter.dsl.builtins import REGISTRY
from interpreter.dsl.codegen import Namespace, charged, define_caller, local_name
from interpreter.dsl.parser import DslSyntaxError, parse
from interpreter.dsl.types import NONE, NUMBER, TEXT, TRUTH, VALUE, Type, join, list_of, type_of_plain, unrefined
from interpreter.errors import ExpressionError, GameError, Position
from interpreter.limits import MAX_CALLS, MAX_SIGNATURES

Fn = Callable[[dict[str, Any]], Any]
Locate = Callable[[int], Position | None]

RUNTIME_ERRORS = (TypeError, ValueError, ZeroDivisionError, KeyError, IndexError, AttributeError, OverflowError,
                   RecursionError)


class ExpressionFailed(GameError):
    """A rule expression could not be evaluated while playing (e.g. 1 // 0)."""


def _mul(a: Any, b: Any) -> Any:
    if type(a) is not int or type(b) is not int:
        raise TypeError(f"'*' needs two numbers, got {a!r} and {b!r}")
    return number(a * b)


def _add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return number(a + b)
    if isinstance(a, str) and isinstance(b, str) and len(a) + len(b) > 10_000:
        raise ValueError("string too long")
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        list_size(len(a) + len(b))
        return [*a, *b]  # lists come as tuples (literals, seats) or lists (zones, comprehensions)
    return a + b


def _sub(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return number(a - b)
    return a - b


def _same(a: Any, b: Any) -> bool:
    """``==`` where a tuple and a list with the same items are the same list."""
    if isinstance(a, (list, tuple)):
        charge(len(a))
        if a.__class__ is not b.__class__ and isinstance(b, (list, tuple)):
            return list(a) == list(b)
    return a == b


def _contains(x: Any, xs: Any) -> bool:
    if len(xs) > 16:  # a hand or a trick costs nothing worth counting
        charge(len(xs))
    return x in xs


def _ordering(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    """``<`` and friends, comparing two lists item by item whether they are tuples or lists."""

    def compare(a: Any, b: Any) -> bool:
        if a.__class__ is not b.__class__ and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return op(list(a), list(b))
        return op(a, b)

    return compare


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": _add, "-": _sub, "*": _mul, "//": operator.floordiv, "%": operator.mod,
    "==": _same, "!=": lambda a, b: not _same(a, b),
    "<": _ordering(operator.lt), "<=": _ordering(operator.le),
    ">": _ordering(operator.gt), ">=": _ordering(operator.ge),
}

# comparisons with a constant that is not a list: plain Python operators give the same answers
_SCALAR: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}

_STATE = "e['$s']"  # the state, in generated code
_USES = ("attr:", "bare:")  # deps that say how a bound card is read (see Compiled.uses)
_CHEAP = 400  # a define body of at most this much generated source and no loop is not worth remembering

# builtins that test each item for truth (see Compiler._truth)
_TRUTH_BUILTINS = ("count", "any", "all")
# builtins that take one list, so also ``f(x for x in xs)``
_LIST_BUILTINS = ("sum", "count", "max", "min", "any", "all", "len", "distinct", "sort", "first", "last")


@dataclass
class Define:
    """A named helper from the rule file's ``define`` section."""

    name: str
    params: tuple[str, ...]
    text: str
    locate: Locate
    tree: ast.Node | None = None
    # per kind of arguments: the body's closure, type and deps, its generated function and, when short and
    # without loops, its source (written in place), and how it reads each parameter (see _call_define)
    compiled: dict[tuple[Type, ...], tuple[Fn, Type, frozenset[str], Callable[..., Any] | None, str | None,
                                           list[tuple[bool, set[str]]]]] = field(default_factory=dict)
    compiling: bool = False
    memos: dict[tuple[Type, ...], list[Any]] = field(default_factory=dict)  # see _call_define
    calls: dict[tuple[Type, ...], int] = field(default_factory=dict)  # define calls one call makes, at most


@dataclass
class Globals:
    """Everything an expression may name besides its own bound names."""

    constants: dict[str, tuple[Type, Any]] = field(default_factory=dict)
    card_attrs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    card_attr_types: dict[str, Type] = field(default_factory=dict)
    # name -> (type, getter(state, seat)[, fixed]): fixed attributes never change, so they read no state
    seat_attrs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    round_fields: dict[str, Type] = field(default_factory=dict)
    game_fields: dict[str, Type] = field(default_factory=dict)
    zones: dict[str, Type] = field(default_factory=dict)  # shared zones, read by name
    defines: dict[str, Define] = field(default_factory=dict)


@dataclass(frozen=True)
class Compiled:
    """A compiled expression: the function, its type, and what it reads."""

    fn: Fn
    type: Type
    deps: frozenset[str]  # "ctx:NAME", "round:FIELD", or "state" for anything else
    text: str
    position: Position | None
    # compiled with per=: the items of a list for which it holds, and whether one does (generated: one
    # loop in one function; else the closure run for each item, the item bound under the per name)
    select: Callable[[dict[str, Any], Any], list[Any]] | None = None
    exists: Callable[[dict[str, Any], Any], bool] | None = None
    # how it reads bound cards: "attr:led.colour" (an attribute), "bare:led" (the card itself: compared,
    # passed to a define...); a table keyed by the led card needs only the attributes when nothing is bare
    uses: frozenset[str] = frozenset()
    # ``fn`` with errors turned into ExpressionFailed (set in __post_init__; not part of equality, hash or repr)
    run: Fn = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        where, text = f"{self.position}: " if self.position else "", self.text

        def fails(exc: Exception) -> ExpressionFailed:
            return ExpressionFailed(f"{where}error: expression {text!r} failed: {explain(exc)}")

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


class _Result:
    """A compiled part: its closure, type, what it reads, its value when constant, and its Python source.

    ``src`` is None when the part has no source of its own (see codegen.py): it is then called
    through its closure.
    """

    __slots__ = ("fn", "type", "deps", "const", "value", "src", "scalar", "inv", "cheap", "lifted", "attr")

    def __init__(self, fn: Fn, type_: Type, deps: frozenset[str], const: bool = False, value: Any = None,
                 src: str | None = None):
        self.fn, self.type, self.deps, self.const, self.value, self.src = fn, type_, deps, const, value, src
        self.scalar = False  # known never to be a list (a card attribute whose values are all plain)
        self.inv = False  # in a judged expression (compile(per=...)): does not read the item
        self.cheap = False  # a name or an attribute: not worth lifting out of a loop
        self.lifted: str | None = None  # its source as a part lifted out of the loop (see _lift)
        self.attr: str | None = None  # a card attribute read from a card (see _check_card_values)


def _constant(value: Any, type_: Type) -> _Result:
    return _Result(_const_fn(value), type_, frozenset(), True, value)


def _const_fn(value: Any) -> Fn:
    """A function of the env giving ``value`` (kept as a default: a local read, not a closure's cell)."""

    def const(e: dict[str, Any], v: Any = value) -> Any:
        return v

    return const


class Compiler:
    """Compiles expression text against :class:`Globals` and a set of bound names."""

    def __init__(self, globals_: Globals, generate: bool = True, key: str | None = None):
        self.g = globals_
        self.generate = generate  # False: closures only (the reference the generated functions are tested against)
        self.gen = Namespace(key)  # key: what the generated code is kept under between runs (see codegen.py)
        self._py: dict[str, str] = {}  # names that are Python locals in the code being generated -> the local
        self._card_values: dict[str, set[tuple[type, Any]]] = {}  # attribute -> its values (see there)
        self._unreached = 0  # > 0 while compiling a part that a constant test skips (see _fold)
        self._invariant: frozenset[str] | None = None  # see compile(per=...)
        self._per: str | None = None  # in generated code: the loop's variable (see compile(per=...))
        self._lifted: int | None = None  # in generated code: parts lifted out of the loop so far
        self._calls = 0  # define calls made by the define being compiled (see _call_define)
        self._sure: frozenset[str] = frozenset()  # bound names that are never none here (see _attribute)
        self._by_card: dict[str, dict[Any, Any]] = {}  # card attribute -> its values by card id, and none: none

    def compile(self, text: Any, bound: dict[str, Type], locate: Locate, expect: str | None = None,
                per: str | None = None) -> Compiled:
        """Compile ``text``; ``bound`` maps the names the caller provides to their types.

        ``per`` names the bound name that changes from call to call in a loop (``card`` when the
        caller judges every card of a hand). Parts that do not depend on it are worked out once
        per loop: the caller marks a loop by putting a fresh object under ``"$batch"`` in the env.
        Generated, such an expression also gets ``select(env, items)`` (the items for which it holds)
        and ``exists(env, items)`` (whether one does): one loop in one function, the parts that do not
        depend on the item worked out once per call, when first needed.
        """
        self._invariant = None
        budget.reset()  # constant parts are worked out now, within the budget
        self._calls = 0
        self._sure = frozenset()
        if per is not None:
            if bound.get(per, VALUE).kind == "card":  # the card judged: one of a seat's cards, never none
                self._sure = frozenset({per})
            self._invariant = frozenset("ctx:" + k for k in bound if k != per)
            if self.generate:
                self._per, self._lifted = per, 0
                self._py[per] = local_name(per)
        try:
            compiled = self._compile(text, bound, locate, expect)
        finally:
            self._invariant = self._per = self._lifted = None
            self._sure = frozenset()
            self._py.clear()
        if per is not None and compiled.select is None:
            select, exists = _item_loops(compiled.fn, per)
            compiled = Compiled(compiled.fn, compiled.type, compiled.deps, compiled.text, compiled.position, select,
                                exists, compiled.uses)
        return compiled

    def _compile(self, text: Any, bound: dict[str, Type], locate: Locate, expect: str | None) -> Compiled:
        if isinstance(text, bool) or isinstance(text, int) or text is None:
            if expect is not None and not (expect == "number" and type(text) is int):
                raise ExpressionError(f"expected an expression giving a {expect}, found {text!r}", locate(0))
            return Compiled(_const_fn(text), type_of_plain(text) if text is not None else NONE, frozenset(),
                            repr(text), locate(0))
        if not isinstance(text, str):
            raise ExpressionError(f"expected an expression (text), found {type(text).__name__}", locate(0))
        tree = self._parse(str(text), locate)
        try:
            result = self._expr(tree, dict(bound), locate)
        except RecursionError:
            raise ExpressionError("the expression is nested too deeply (through its defines)", locate(0)) from None
        if expect == "card" and result.type.kind != "card":
            raise ExpressionError(f"expected a card, found {result.type}", locate(0))
        if expect in ("seat", "seat or none") and result.type.kind != "seat":
            raise ExpressionError(f"expected a seat, found {result.type}", locate(0))
        if expect == "number" and result.type.kind != "value":
            hint = {"seat": " (a seat is not a number: seat.index is)", "card": " (a card is not a number: "
                    "card.number is)"}.get(result.type.kind, "")
            raise ExpressionError(f"expected a number, found {result.type}{hint}", locate(0))
        if expect == "number" and result.type.plain == "text" and not result.const:
            raise ExpressionError("expected a number, found text", locate(0))
        fn = result.fn
        if result.const:
            fn = _constant(result.value, result.type).fn
            if expect == "number" and type(result.value) not in (int, bool):
                raise ExpressionError(f"expected a number, found {_shown(result.value)}", locate(0))
            if expect in ("seat", "card") and result.value is None:
                raise ExpressionError(f"this gives none where a {expect} is needed", locate(0))
        else:
            result = self._memo(result, tree, bound)
            if self._per is not None:  # generated, its source reads the loop's locals: loops, or closures
                loops = self._loops(result)
                if loops is not None:
                    deps, uses = _split(result.deps)
                    return Compiled(loops[0], result.type, deps, str(text), locate(0), loops[1], loops[2], uses)
                fn = result.fn
            else:
                fn = self._function(result)
            if expect in ("seat", "card", "number"):  # a round value not set yet, a first() of nothing...
                fn = _checked(fn, expect)
        deps, uses = _split(result.deps)
        return Compiled(fn, result.type, deps, str(text), locate(0), uses=uses)

    def _loops(self, result: _Result) -> tuple[Fn, Callable[..., Any], Callable[..., Any]] | None:
        """For compile(per=...): the generated function, ``select`` and ``exists`` (None: closures only)."""
        src = self._lift(result) if result.inv and not result.cheap else self._s(result)
        if src is None:
            return None
        per, gen = self._per, self.gen
        assert per is not None, "only for compile(per=...)"
        var = self._py[per]
        lifted = f"[{gen.ref(_UNSET)}] * {self._lifted}"  # each lifted part's value, once it is worked out
        fn = gen.function((), f"(lambda {var}, _hs: {src})(e[{per!r}], {lifted})")
        select = gen.function(("_items",), f"(lambda _hs: [{var} for {var} in _items if {src}])({lifted})")
        exists = gen.function(("_items",), f"(lambda _hs: {gen.ref(any)}({src} for {var} in _items))({lifted})")
        if fn is None or select is None or exists is None:
            return None
        return fn, select, exists

    def constant_value(self, text: Any, locate: Locate) -> Any:
        """Compile and evaluate an expression that may only use constants."""
        compiled = self.compile(text, {}, locate)
        if compiled.deps:
            raise ExpressionError("this value must be known before play starts (it may use only players, "
                                  "options and setup)", locate(0))
        return compiled({})

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _parse(text: str, locate: Locate) -> ast.Node:
        try:
            return parse(text)
        except DslSyntaxError as exc:
            raise ExpressionError(f"syntax error: {exc.message}", locate(exc.offset)) from None

    def _s(self, part: _Result) -> str | None:
        """The Python source of ``part``; None when it has none and reads a local of the code being generated."""
        if part.const:
            return self.gen.literal(part.value)
        if part.src is not None:
            return part.src
        for d in part.deps:
            if d.startswith("ctx:") and d[4:] in self._py:
                return None
        return f"{self.gen.ref(part.fn)}(e)"

    def _src(self, res: _Result, parts: list[_Result], make: Callable[..., str]) -> _Result:
        """Give ``res`` the source ``make(*sources of parts)`` when every part has one; in a judged
        expression, parts that do not read the item are lifted out of the loop when ``res`` reads it."""
        if self.generate:
            outer = self._lifted is not None and not self._is_invariant(res)
            srcs = [self._lift(p) if outer and p.inv and not p.cheap else self._s(p) for p in parts]
            if None not in srcs:
                res.src = make(*srcs)
        return res

    def _is_invariant(self, res: _Result) -> bool:
        """True when ``res`` reads none of the names that change from item to item (see compile(per=...))."""
        invariant = self._invariant
        return (invariant is not None and not res.const and bool(res.deps)
                and all(d in invariant or d == "state" or d.startswith(("round:", *_USES)) for d in res.deps))

    def _lift(self, part: _Result) -> str | None:
        """The source of ``part`` worked out once per call of the judged expression, when first needed, and
        kept in ``_hs``, a list local to that call (see _loops)."""
        if part.lifted is None:
            src = self._s(part)
            if src is None:
                return None
            i, unset, keep = self._lifted, self.gen.ref(_UNSET), self.gen.ref(_keep)
            assert i is not None, "parts are lifted only in generated code of compile(per=...)"
            self._lifted = i + 1
            part.lifted = f"(_hs[{i}] if _hs[{i}] is not {unset} else {keep}(_hs, {i}, {src}))"
        return part.lifted

    def _function(self, res: _Result) -> Fn:
        """The generated function of ``res`` (its closure when it has no source)."""
        if not self.generate or res.src is None:
            return res.fn
        return self.gen.function((), res.src) or res.fn

    def _expr(self, n: ast.Node, scope: dict[str, Type], loc: Locate) -> _Result:
        method = getattr(self, "_" + type(n).__name__.lower())
        res = method(n, scope, loc)
        if self._is_invariant(res):
            cheap = isinstance(n, (ast.Name, ast.Attribute, ast.Const))
            if not cheap:  # the closures work it out once per batch (marked by the object under "$batch")
                once = _Result(_once_per_batch(res.fn, [None, None]), res.type, res.deps, src=res.src)
                once.scalar = res.scalar
                res = once
            # generated, it is lifted by the first part that reads the item (see _src)
            res.inv, res.cheap = True, cheap
        return res

    # ------------------------------------------------------------------ nodes

    def _const(self, n: ast.Const, scope: dict[str, Type], loc: Locate) -> _Result:
        return _constant(n.value, NONE if n.value is None else type_of_plain(n.value))

    def _name(self, n: ast.Name, scope: dict[str, Type], loc: Locate) -> _Result:
        name = n.name
        if name in scope:
            return _Result(lambda e: e[name], scope[name], frozenset({"ctx:" + name, "bare:" + name}),
                           src=self._py.get(name) or f"e[{name!r}]")
        if name in self.g.constants:
            type_, value = self.g.constants[name]
            return _constant(value, type_)
        if name in self.g.zones:
            return _Result(lambda e: e["$s"].shared[name], self.g.zones[name], frozenset({"state"}),
                           src=f"e['$s'].shared[{name!r}]")
        if name in ("round", "game"):
            raise ExpressionError(f"'{name}' is a group of values; name one, e.g. {name}.start", loc(n.offset))
        if name in REGISTRY or name in self.g.defines:
            raise ExpressionError(f"{name!r} is a function; call it as {name}(...)", loc(n.offset))
        raise ExpressionError(f"unknown name {name!r}{self._suggest(name, scope)}", loc(n.offset))

    def _suggest(self, name: str, scope: dict[str, Type]) -> str:
        known = sorted({k.rsplit(".", 1)[-1] for k in scope} | set(self.g.constants) | set(self.g.zones)
                       | {"round", "game"})
        import difflib

        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return f"{hint} (names here: {', '.join(known)})"

    def _attribute(self, n: ast.Attribute, scope: dict[str, Type], loc: Locate) -> _Result:
        if isinstance(n.base, ast.Name) and n.base.name in ("round", "game") and n.base.name not in scope:
            return self._round_field(n, n.base.name, loc)
        base = self._expr(n.base, scope, loc)
        name = n.name
        t = base.type
        if t.kind == "card":
            table = self.g.card_attrs.get(name)
            if table is None:
                raise ExpressionError(
                    f"cards have no attribute {name!r} (they have: {', '.join(sorted(self.g.card_attrs))})",
                    loc(n.name_offset))
            bf = base.fn
            rtype = self.g.card_attr_types.get(name)
            if rtype is None:  # worked out once per attribute: a deck may have 10,000 cards
                rtype = self.g.card_attr_types[name] = _plain_type(table)
            if base.const:
                return _constant(None if base.value is None else table[base.value], rtype)
            ref = self.gen.ref
            named = n.base.name if isinstance(n.base, ast.Name) and n.base.name in scope else None  # a bound name
            # an attribute of none (first() of nothing, a led card that is none) is none: looked up in a dict
            # with none in it, except for the item a judged expression is judged for (a card, never none)
            sure = named is not None and named in self._sure
            lookup: Any = table if sure else self._none_reads_none(name)
            if named is not None:  # card.colour: one step, not two
                key = named
                deps = frozenset({"ctx:" + key, f"attr:{key}.{name}"})  # an attribute of the card, not the card
                res = self._src(_Result(lambda e: lookup[e[key]], rtype, deps), [base],
                                lambda b: f"{ref(lookup)}[{b}]")
            else:
                res = self._src(_Result(lambda e: lookup[bf(e)], rtype, base.deps), [base],
                                lambda b: f"{ref(lookup)}[{b}]")
            res.scalar = all(v is None or type(v) in (str, int, bool) for v in table)
            res.attr = name
            return res
        if t.kind == "seat":
            entry = self.g.seat_attrs.get(name)
            if entry is None:
                raise ExpressionError(
                    f"seats have no attribute {name!r} (they have: {', '.join(sorted(self.g.seat_attrs))})",
                    loc(n.name_offset))
            rtype, getter = entry[0], entry[1]
            bf = base.fn
            get = self.gen.ref(getter) if self.generate else ""
            named = n.base.name if isinstance(n.base, ast.Name) and n.base.name in scope else None
            sure = named is not None and named in self._sure
            of_seat = self.gen.ref(_of_seat) if self.generate else ""

            def read(state: str) -> Callable[[str], str]:  # an attribute of none (no seat) is none
                if sure:
                    return lambda b: f"{get}({state}, {b})"
                return lambda b: (f"({get}({state}, {b}) if {b} is not None else None)" if _SIMPLE.fullmatch(b)
                                  else f"{of_seat}({get}, {state}, {b})")

            if len(entry) > 2 and entry[2]:  # fixed for the whole game (a seat's name, index, role)
                if base.const:
                    return _constant(None if base.value is None else getter(None, base.value), rtype)
                return self._src(_Result(lambda e: None if (s := bf(e)) is None else getter(None, s), rtype,
                                         base.deps), [base], read("None"))
            if named is not None:  # seat.tricks: one step, not two
                key = named
                fn: Fn = (lambda e: getter(e["$s"], e[key])) if sure else \
                    (lambda e: None if (s := e[key]) is None else getter(e["$s"], s))
                return self._src(_Result(fn, rtype, base.deps | {"state"}), [base], read("e['$s']"))
            return self._src(_Result(lambda e: None if (s := bf(e)) is None else getter(e["$s"], s), rtype,
                                     base.deps | {"state"}), [base], read("e['$s']"))
        if t.kind == "record":
            ftype = t.field_type(name)
            if ftype is None:
                fields = ", ".join(f for f, _ in t.fields) or "none"
                raise ExpressionError(f"no field {name!r} here (fields: {fields})", loc(n.name_offset))
            if base.const:
                return _constant(base.value[name], ftype)
            bf = base.fn
            return self._src(_Result(lambda e: _field(bf(e), name), ftype, base.deps), [base],
                             lambda b: f"{self.gen.ref(_field)}({b}, {name!r})")
        raise ExpressionError(f"a {t} has no attribute {name!r}", loc(n.name_offset))

    def _check_card_values(self, name: str, nodes: Any, loc: Locate) -> None:
        """Refuse a literal compared with a card attribute that no card of the deck has (``card.colour ==
        'rde'``), naming the values there are."""
        if self._unreached:  # a branch a constant test skips (an option this game is not played with)
            return
        have = self._card_values.get(name)
        if have is None:  # once per attribute, not per comparison
            have = self._card_values[name] = {(type(v), v) for v in self.g.card_attrs[name]
                                              if v is not None and v.__hash__ is not None}
        for node in nodes:
            if not isinstance(node, ast.Const) or node.value is None or (type(node.value), node.value) in have:
                continue
            values = sorted({v for _, v in have}, key=lambda v: (0, v, "") if type(v) in (int, float) else
                            (1, 0, _shown_plain(v)))
            listed = ", ".join(_shown_plain(v) for v in values[:40]) + (", ..." if len(values) > 40 else "")
            value = node.value
            hint = ""
            if type(value) is int and str(value) in values:
                hint = f" (the {_plural(name)} are texts: write '{value}')"
            elif type(value) is str and value.lstrip("-").isdigit() and int(value) in values:
                hint = f" (the {_plural(name)} are numbers: write {int(value)})"
            raise ExpressionError(f"no card has {name} {value!r}{hint}; {_plural(name)}: {listed or 'none'}"
                                  if type(value) is not bool else
                                  f"no card has {name} {_shown_plain(value)}; {_plural(name)}: {listed or 'none'}",
                                  loc(node.offset))

    def _none_reads_none(self, name: str) -> dict[Any, Any]:
        """The values of a card attribute by card id, and none for none: one lookup, no test."""
        table = self._by_card.get(name)
        if table is None:
            table = self._by_card[name] = dict(enumerate(self.g.card_attrs[name]))
            table[None] = None
        return table

    def _round_field(self, n: ast.Attribute, group: str, loc: Locate) -> _Result:
        """``round.NAME`` or ``game.NAME`` (``group``)."""
        name = n.name
        fields = self.g.round_fields if group == "round" else self.g.game_fields
        ftype = fields.get(name)
        if ftype is None:
            known = ", ".join(sorted(fields)) or "none"
            raise ExpressionError(f"unknown {group} value {name!r} (known: {known})", loc(n.name_offset))
        if group == "game":
            return _Result(lambda e: e["$s"].game_vars[name], ftype, frozenset({"state"}),
                           src=f"e['$s'].game_vars[{name!r}]")
        return _Result(lambda e: e["$s"].vars[name], ftype, frozenset({"round:" + name}), src=f"e['$s'].vars[{name!r}]")

    def _index(self, n: ast.Index, scope: dict[str, Type], loc: Locate) -> _Result:
        base = self._expr(n.base, scope, loc)
        idx = self._expr(n.index, scope, loc)
        if base.type.kind != "list":
            raise ExpressionError(f"only lists can be indexed, not a {base.type}", loc(n.offset))
        if _kind(idx.type, n.index) not in (None, "number"):
            raise ExpressionError(f"a list index must be a number, found {_noun(idx.type, n.index)}",
                                  loc(n.index.offset))
        bf, xf = base.fn, idx.fn
        return self._src(_Result(lambda e: bf(e)[xf(e)], base.type.element or VALUE, base.deps | idx.deps),
                         [base, idx], lambda b, x: f"{b}[{x}]")

    def _listexpr(self, n: ast.ListExpr, scope: dict[str, Type], loc: Locate) -> _Result:
        items = [self._expr(i, scope, loc) for i in n.items]
        t = NONE
        for i in items:
            t = join(t, i.type)
        # an empty list's items are of no type yet (none): joined with a typed list it takes that list's type
        ltype = list_of(t if not items else VALUE if t.literal_none else t)
        if all(i.const for i in items):
            return _constant(tuple(i.value for i in items), ltype)
        fns = [i.fn for i in items]
        deps = frozenset().union(*(i.deps for i in items))
        return self._src(_Result(lambda e: tuple(f(e) for f in fns), ltype, deps), items,
                         lambda *xs: f"({', '.join(xs)},)")

    def _unary(self, n: ast.Unary, scope: dict[str, Type], loc: Locate) -> _Result:
        operand = self._expr(n.operand, scope, loc)
        of = operand.fn
        if n.op == "not":
            self._truth(operand.type, n.operand, loc)
            fn: Fn = lambda e: not of(e)  # noqa: E731
        else:
            if operand.type.kind in ("card", "seat"):
                raise ExpressionError(f"'-' needs a number, and a {operand.type.kind} is not one; use an "
                                      "attribute, e.g. -card.number", loc(n.offset))
            if _kind(operand.type, n.operand) not in (None, "number"):
                raise ExpressionError(f"'-' needs a number, found {_noun(operand.type, n.operand)}", loc(n.offset))
            fn = lambda e: -of(e)  # noqa: E731
        op = "not " if n.op == "not" else "-"
        rtype = TRUTH if n.op == "not" else NUMBER
        return self._fold(self._src(_Result(fn, rtype, operand.deps), [operand], lambda x: f"({op}{x})"),
                          [operand], n, loc)

    def _binary(self, n: ast.Binary, scope: dict[str, Type], loc: Locate) -> _Result:
        left = self._expr(n.left, scope, loc)
        skipped = left.const and n.op in ("and", "or") and bool(left.value) == (n.op == "or")
        right = self._maybe_skipped(n.right, scope, loc, skipped)
        op = n.op
        if op in ("and", "or"):
            self._truth(left.type, n.left, loc)
            self._truth(right.type, n.right, loc)
            left, right = self._memo(left, n.left, scope), self._memo(right, n.right, scope)
        lf, rf = left.fn, right.fn
        deps = left.deps | right.deps
        parts = [left, right]
        ref = self.gen.ref
        if op == "and":
            return self._fold(self._src(_Result(lambda e: lf(e) and rf(e), join(left.type, right.type), deps),
                                        parts, lambda a, b: f"({a} and {b})"), parts, n, loc)
        if op == "or":
            return self._fold(self._src(_Result(lambda e: lf(e) or rf(e), join(left.type, right.type), deps),
                                        parts, lambda a, b: f"({a} or {b})"), parts, n, loc)
        if op in ("in", "not in"):
            if right.type.kind != "list":
                raise ExpressionError(f"'{op}' needs a list on its right, found a {right.type}", loc(n.offset))
            if right.type.element is not None:
                why = _unequal(left.type, right.type.element, n.left)
                if why is not None:
                    raise ExpressionError(f"'{op}' looks for {_noun(left.type, n.left)} in {_noun(right.type)}: "
                                          f"{why or 'no item can be equal to it'}", loc(n.offset))
            if left.attr is not None and isinstance(n.right, ast.ListExpr):  # card.colour in ['red', 'blue']
                self._check_card_values(left.attr, n.right.items, loc)
            if right.const and not left.const:  # a list written in the rule: its length is no work to count
                items = right.value
                if op == "in":
                    return self._src(_Result(lambda e: lf(e) in items, TRUTH, deps), parts,
                                     lambda a, b: f"({a} in {b})")
                return self._src(_Result(lambda e: lf(e) not in items, TRUTH, deps), parts,
                                 lambda a, b: f"({a} not in {b})")
            if op == "in":
                return self._fold(self._src(_Result(lambda e: _contains(lf(e), rf(e)), TRUTH, deps), parts,
                                            lambda a, b: f"{ref(_contains)}({a}, {b})"), parts, n, loc)
            return self._fold(self._src(_Result(lambda e: not _contains(lf(e), rf(e)), TRUTH, deps), parts,
                                        lambda a, b: f"(not {ref(_contains)}({a}, {b}))"), parts, n, loc)
        if op in ("==", "!="):
            self._check_comparable(left.type, right.type, n, loc)
            why = _unequal(left.type, right.type, n.left, n.right)
            if why is not None:
                a, b = _noun(left.type, n.left), _noun(right.type, n.right)
                raise ExpressionError(f"comparing {a} with {b}: {why}" if why else
                                      f"comparing {a} with {b} is always false", loc(n.offset))
            for part, other in ((left, n.right), (right, n.left)):  # card.colour == 'red'
                if part.attr is not None:
                    self._check_card_values(part.attr, (other,), loc)
            ids = ("seat", "card")
            if left.type.kind in ids and (right.type.kind in ids or right.type.literal_none) \
                    or left.scalar or right.scalar:  # no list to compare: a plain ==
                g = _SCALAR[op]  # seats and cards are numbers inside (or none): no list to compare
                return self._fold(self._src(_Result(lambda e: g(lf(e), rf(e)), TRUTH, deps), parts,
                                            lambda a, b: f"({a} {op} {b})"), parts, n, loc)
        for side, t in ((n.left, left.type), (n.right, right.type)) if op not in ("==", "!=") else ():
            if t.kind in ("card", "seat"):  # numbers inside, but their order and sums mean nothing
                hint = "card.number < led.number" if t.kind == "card" else "seat.index + 1"
                raise ExpressionError(f"'{op}' needs numbers, and a {t.kind} is not one; use an attribute, "
                                      f"e.g. {hint}", loc(side.offset))
        if op in _ORDER and _unordered(left.type, right.type, n.left, n.right):
            raise ExpressionError(f"'{op}' needs two numbers or two texts, found {_noun(left.type, n.left)} and "
                                  f"{_noun(right.type, n.right)}", loc(n.offset))
        if op in _ARITHMETIC and _no_sum(op, left.type, right.type, n.left, n.right):
            needs = "adds two numbers or joins two texts or two lists" if op == "+" else "needs two numbers"
            raise ExpressionError(f"'{op}' {needs}, found {_noun(left.type, n.left)} and "
                                  f"{_noun(right.type, n.right)}", loc(n.offset))
        f = _BINARY[op]
        lists = op == "+" and left.type.kind == "list" and right.type.kind == "list"
        rtype = join(left.type, right.type) if lists else TRUTH if op in _SCALAR else NUMBER if op != "+" \
            else NUMBER if NUMBER in (left.type, right.type) else TEXT if TEXT in (left.type, right.type) else VALUE
        if right.const and not left.const:  # x == 0, n - 1: one call less
            c = right.value
            if op in _SCALAR and not isinstance(c, (list, tuple)):
                g = _SCALAR[op]
                return self._src(_Result(lambda e: g(lf(e), c), rtype, deps), parts, lambda a, b: f"({a} {op} {b})")
            return self._src(_Result(lambda e: f(lf(e), c), rtype, deps), parts,
                             lambda a, b: f"{ref(f)}({a}, {b})")
        return self._fold(self._src(_Result(lambda e: f(lf(e), rf(e)), rtype, deps), parts,
                                    lambda a, b: f"{ref(f)}({a}, {b})"), parts, n, loc)

    @staticmethod
    def _truth(t: Type, n: ast.Node, loc: Locate, what: str = "") -> None:
        """Cards and seats are numbers inside (card 0, seat 0), so they never stand for true or false."""
        kind = t.element.kind if what and t.kind == "list" and t.element is not None else t.kind
        if kind in ("card", "seat"):
            example = "winner == seat" if kind == "seat" else "card.number > 0"
            raise ExpressionError(f"{what}a {kind} is not true or false; compare it, e.g. {example}", loc(n.offset))

    @staticmethod
    def _check_comparable(a: Type, b: Type, n: ast.Node, loc: Locate) -> None:
        kinds = {a.kind, b.kind}
        if "card" in kinds and kinds != {"card"} and not (a.literal_none or b.literal_none):
            raise ExpressionError(f"comparing a {a} with a {b} is always false; compare attributes, "
                                  "e.g. card.colour == led.colour", loc(n.offset))

    def _conditional(self, n: ast.Conditional, scope: dict[str, Type], loc: Locate) -> _Result:
        test = self._expr(n.test, scope, loc)
        self._truth(test.type, n.test, loc)
        then = self._maybe_skipped(n.then, scope, loc, test.const and not test.value)
        other = self._maybe_skipped(n.otherwise, scope, loc, test.const and bool(test.value))
        test, then, other = (self._memo(r, x, scope) for r, x in
                             ((test, n.test), (then, n.then), (other, n.otherwise)))
        if test.const:
            return then if test.value else other
        tf, af, bf = test.fn, then.fn, other.fn
        return self._src(_Result(lambda e: af(e) if tf(e) else bf(e), join(then.type, other.type),
                                 test.deps | then.deps | other.deps), [test, then, other],
                         lambda t, a, b: f"({a} if {t} else {b})")

    def _comprehension(self, n: ast.Comprehension, scope: dict[str, Type], loc: Locate) -> _Result:
        source = self._expr(n.source, scope, loc)
        if source.type.kind != "list":
            raise ExpressionError(f"'for ... in' needs a list, found a {source.type}", loc(n.source.offset))
        inner = dict(scope)
        inner[n.var] = source.type.element or VALUE
        had = self._py.get(n.var)
        self._py[n.var] = var_py = local_name(n.var)  # in generated code the variable is a local
        # the variable hides a bound name of the same name: inside, that name changes from item to item
        invariant, sure = self._invariant, self._sure
        if invariant is not None:
            self._invariant = invariant - {"ctx:" + n.var}
        self._sure = sure - {n.var}
        try:
            body = self._expr(n.body, inner, loc)
            cond = self._expr(n.condition, inner, loc) if n.condition is not None else None
            parts = [body] if cond is None else [body, cond]
            srcs: list[str | None] = [self._s(p) for p in parts] if self.generate else [None]
        finally:
            self._invariant, self._sure = invariant, sure
            if had is None:
                del self._py[n.var]
            else:
                self._py[n.var] = had
        if cond is not None:
            assert n.condition is not None, "cond is the condition compiled"
            self._truth(cond.type, n.condition, loc)
        if n.function in _TRUTH_BUILTINS:
            self._truth(body.type, n.body, loc, f"{n.function}() tests each item, and ")
        var, sf, bf = n.var, source.fn, body.fn
        cf = cond.fn if cond else None
        deps = source.deps | _without(body.deps | (cond.deps if cond else frozenset()), (var,))

        # [s for s in seats if ...]: the items themselves, kept by the condition
        keep = cf if cf is not None and isinstance(n.body, ast.Name) and n.body.name == var else None

        def items(e: dict[str, Any]) -> list[Any]:
            had = var in e
            old = e.get(var)
            out = []
            source = sf(e)
            charge(len(source))
            try:
                if keep is not None:  # [s for s in seats if ...]: the items themselves
                    for x in source:
                        e[var] = x
                        if keep(e):
                            out.append(x)
                else:
                    for x in source:
                        e[var] = x
                        if cf is None or cf(e):
                            out.append(bf(e))
            finally:
                if had:
                    e[var] = old
                else:
                    e.pop(var, None)
            return out

        def listed(s: str) -> str:  # [body for var in source if cond], the source counted
            test = f" if {srcs[1]}" if cond is not None else ""
            return f"[{srcs[0]} for {var_py} in {self.gen.ref(charged)}({s}){test}]"

        # a part only its closure evaluates reads the variable: the comprehension stays a closure
        generated = None not in srcs
        if n.function is None:
            res = _Result(items, list_of(body.type), deps)
            return self._fold(self._src(res, [source], listed) if generated else res, [source], n, loc)
        builtin = REGISTRY.get(n.function)
        if builtin is None or n.function not in _LIST_BUILTINS:
            raise ExpressionError(f"{n.function!r} cannot take a 'for' expression "
                                  f"(try {', '.join(_LIST_BUILTINS)})", loc(n.offset))
        impl = builtin.impl
        _check_args(builtin, [list_of(body.type)], (n,), loc)
        rtype = builtin.result([list_of(body.type)])
        res = _Result(lambda e: impl(items(e)), rtype, deps)
        if generated:
            self._src(res, [source], lambda s: f"{self.gen.ref(impl)}({listed(s)})")
        return self._fold(res, [source], n, loc)

    def _call(self, n: ast.Call, scope: dict[str, Type], loc: Locate) -> _Result:
        args = [self._expr(a, scope, loc) for a in n.args]
        if n.name in self.g.defines:
            return self._call_define(self.g.defines[n.name], args, n, loc)
        builtin = REGISTRY.get(n.name)
        if builtin is None:
            known = sorted(set(REGISTRY) | set(self.g.defines))
            import difflib

            close = difflib.get_close_matches(n.name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ExpressionError(f"unknown function {n.name!r}{hint}", loc(n.offset))
        if len(args) < builtin.min_args or (builtin.max_args is not None and len(args) > builtin.max_args):
            want = str(builtin.min_args) if builtin.min_args == builtin.max_args else f"at least {builtin.min_args}"
            raise ExpressionError(f"{n.name}() takes {want} argument(s), got {len(args)}", loc(n.offset))
        if n.name in _TRUTH_BUILTINS:
            self._truth(args[0].type, n.args[0], loc, f"{n.name}() tests each item, and ")
        _check_args(builtin, [a.type for a in args], n.args, loc)
        rtype = builtin.result([a.type for a in args])
        fns = [a.fn for a in args]
        impl = builtin.impl
        deps = frozenset().union(*(a.deps for a in args)) if args else frozenset()
        call = self.gen.ref(impl) if self.generate else ""
        if builtin.needs_state:
            if len(fns) == 1:
                (f0,) = fns
                res = _Result(lambda e: impl(e["$s"], f0(e)), rtype, deps | {"state"})
            else:
                res = _Result(lambda e: impl(e["$s"], *[f(e) for f in fns]), rtype, deps | {"state"})
            return self._src(res, args, lambda *xs: f"{call}({', '.join((_STATE, *xs))})")
        if len(fns) == 1:
            (f0,) = fns
            res = _Result(lambda e: impl(f0(e)), rtype, deps)
        else:
            res = _Result(lambda e: impl(*[f(e) for f in fns]), rtype, deps)
        return self._fold(self._src(res, args, lambda *xs: f"{call}({', '.join(xs)})"), args, n, loc)

    def _call_define(self, d: Define, args: list[_Result], n: ast.Call, loc: Locate) -> _Result:
        if len(args) != len(d.params):
            raise ExpressionError(f"{d.name}() takes {len(d.params)} argument(s), got {len(args)}", loc(n.offset))
        # compiled once for each kind of arguments (card, seat, list, record, value): not once more for a number
        # and once for text, so a parameter is a value of any kind inside (checked while playing)
        sig = tuple(unrefined(a.type) for a in args)
        if sig not in d.compiled:
            if d.compiling:
                raise ExpressionError(f"{d.name}() calls itself (directly or through other defines); "
                                      "recursion is not allowed", loc(n.offset))
            if len(d.compiled) >= MAX_SIGNATURES:  # each kind of arguments compiles the body again
                raise ExpressionError(f"{d.name}() is called with more than {MAX_SIGNATURES} kinds of arguments (each "
                                      "compiles it again)", loc(n.offset))
            if d.tree is None:
                d.tree = self._parse(d.text, d.locate)
            d.compiling, unreached, self._unreached = True, self._unreached, 0
            invariant, self._invariant = self._invariant, None
            sure, self._sure = self._sure, frozenset()  # a parameter may be none
            calls, self._calls = self._calls, 0
            keys = {p: f"{d.name}.{p}" for p in d.params}
            py, self._py = self._py, {k: local_name(k) for k in keys.values()}  # parameters are locals
            lifted, per, self._lifted, self._per = self._lifted, self._per, None, None
            try:
                inner = {keys[p]: t for p, t in zip(d.params, sig, strict=True)}
                body = self._expr(_rename(d.tree, keys), inner, d.locate)
                src = self._s(body) if self.generate else None
            finally:
                d.compiling, self._unreached = False, unreached
                self._invariant, self._sure = invariant, sure
                d.calls[sig], self._calls = self._calls, calls
                params, self._py = tuple(self._py.values()), py
                self._lifted, self._per = lifted, per
            gen = None if src is None else self.gen.function(params, src)
            # no loop: no memo needed (gen is made of src)
            short = gen is not None and src is not None and len(src) <= _CHEAP and " for " not in src
            # how the body reads each parameter: a call passing a card reads what the body reads of it
            reads = [(f"bare:{k}" in body.deps, {u[len(k) + 6:] for u in body.deps if u.startswith(f"attr:{k}.")})
                     for k in inner]
            d.compiled[sig] = (body.fn, body.type, _without(body.deps, inner), gen, src if short else None, reads)
        # a define calling another twice, which calls another twice...: 2**n calls for one; refused here
        self._calls += 1 + d.calls[sig]
        if self._calls > MAX_CALLS:
            raise ExpressionError(f"one evaluation here calls defines more than {MAX_CALLS:,} times ({d.name}() "
                                  f"alone makes {d.calls[sig]:,} calls); defines that call others several "
                                  "times multiply", loc(n.offset))
        body_fn, rtype, body_deps, gen, cheap, reads = d.compiled[sig]
        keys_list = [f"{d.name}.{p}" for p in d.params]
        fns = [a.fn for a in args]
        deps = body_deps
        for a, node, (bare, attrs) in zip(args, n.args, reads, strict=True):
            arg_deps = a.deps
            if isinstance(node, ast.Name) and not bare and "bare:" + node.name in arg_deps:  # suit(led)
                arg_deps = (arg_deps - {"bare:" + node.name}) | {f"attr:{node.name}.{x}" for x in attrs}
            deps = deps | arg_deps
        # within one batch the state stays as it is: same arguments, same value (shared by every call site)
        memo: list[Any] = d.memos.setdefault(sig, [None, {}])
        if not args:
            once = _once_per_batch(body_fn if gen is None else gen, memo)
            src = f"{self.gen.ref(once)}(e)" if gen is not None else None
            if cheap is not None:  # a short body without loops: written in place
                src = f"({cheap})"
            return self._fold(_Result(once, rtype, deps, src=src), [], n, loc, always=True)

        def with_params(e: dict[str, Any], *values: Any) -> Any:  # the closure body reads them from env
            saved = [e.get(k, _UNSET) for k in keys_list]
            for k, v in zip(keys_list, values, strict=True):
                e[k] = v
            try:
                return body_fn(e)
            finally:
                for k, v in zip(keys_list, saved, strict=True):
                    if v is _UNSET:
                        del e[k]
                    else:
                        e[k] = v

        remembered = define_caller(with_params, memo)

        def call(e: dict[str, Any]) -> Any:
            return remembered(e, *[f(e) for f in fns])

        res = _Result(call, rtype, deps)
        if gen is not None:  # a short body without loops is called directly, else through the batch memo
            caller = self.gen.ref(gen if cheap is not None else define_caller(gen, memo))
            self._src(res, args, lambda *xs: f"{caller}({', '.join(('e', *xs))})")
        return self._fold(res, args, n, loc)

    def _memo(self, res: _Result, node: ast.Node, scope: dict[str, Type]) -> _Result:
        """Remember the value of a part that depends only on cards (card attributes never change).

        Only worth it for composite parts; a bare name or attribute is already one lookup.
        """
        if res.const or not res.deps or isinstance(node, (ast.Name, ast.Attribute, ast.Const)):
            return res
        names = []
        for d in res.deps:
            if d.startswith(_USES):
                continue
            if not d.startswith("ctx:") or scope.get(d[4:]) is None or scope[d[4:]].kind != "card":
                return res
            names.append(d[4:])
        names.sort()
        f = res.fn
        table: dict[Any, Any] = {}
        if len(names) == 1:
            (key,) = names

            def memo(e: dict[str, Any]) -> Any:
                c = e[key]
                try:
                    return table[c]
                except KeyError:
                    v = table[c] = f(e)
                    return v
        else:
            def memo(e: dict[str, Any]) -> Any:
                k = tuple(e[n] for n in names)
                try:
                    return table[k]
                except KeyError:
                    v = table[k] = f(e)
                    return v

        out = _Result(memo, res.type, res.deps)
        out.inv, out.cheap = res.inv, res.cheap
        src = self._s(res) if self.generate else None
        if src is not None:  # the table looked up inline, filled by a generated function of the cards
            ref = self.gen.ref
            keys = [self._py.get(n) or f"e[{n!r}]" for n in names]
            key = keys[0] if len(keys) == 1 else f"({', '.join(keys)})"
            params = tuple(self._py[n] for n in names if n in self._py)
            if self._lifted is not None:  # the part may use lifted parts
                params += ("_hs",)
            made = self.gen.function(("_t", "_k", *params), f"_t.setdefault(_k, {src})")
            if made is not None:
                fill, t = ref(made), ref(table)
                out.src = f"({t}[{key}] if {key} in {t} else {fill}({', '.join(('e', t, key, *params))}))"
        return out

    def _fold(self, res: _Result, parts: list[_Result], n: ast.Node, loc: Locate, always: bool = False) -> _Result:
        """Evaluate now when every part is a constant (``always``: also when there are no parts)."""
        if (parts or always) and all(p.const for p in parts) and not res.deps:
            try:
                value = res.fn({})
            except RUNTIME_ERRORS as exc:
                if self._unreached:
                    return res  # never evaluated: a constant test skips it
                raise ExpressionError(f"this expression fails: {explain(exc)}", loc(n.offset)) from None
            return _constant(value, res.type)
        return res

    def _maybe_skipped(self, n: ast.Node, scope: dict[str, Type], loc: Locate, skipped: bool) -> _Result:
        """Compile ``n``; when ``skipped`` (a constant test never takes it), constant failures inside are fine."""
        if not skipped:
            return self._expr(n, scope, loc)
        self._unreached += 1
        try:
            return self._expr(n, scope, loc)
        finally:
            self._unreached -= 1


def _item_loops(fn: Fn, per: str) -> tuple[Callable[..., list[Any]], Callable[..., bool]]:
    """``select`` and ``exists`` of a judged expression evaluated by ``fn``, one item at a time."""

    def select(e: dict[str, Any], items: Any) -> list[Any]:
        kept = []
        for x in items:
            e[per] = x
            if fn(e):
                kept.append(x)
        return kept

    def exists(e: dict[str, Any], items: Any) -> bool:
        for x in items:
            e[per] = x
            if fn(e):
                return True
        return False

    return select, exists


def _checked(fn: Fn, expect: str) -> Fn:
    """``fn``, refusing at play a value that is not what the rule needs (none where a seat must be)."""
    if expect == "number":
        def number_of(e: dict[str, Any]) -> Any:
            value = fn(e)
            if value.__class__ is not int and value.__class__ is not bool:
                raise ValueError(f"it gave {_shown(value)} where a number is needed")
            return value

        return number_of

    def something(e: dict[str, Any]) -> Any:
        value = fn(e)
        if value is None:
            raise ValueError(f"it gave none where a {expect} is needed")
        return value

    return something


def _split(deps: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """A part's deps as Compiled's deps and uses (see Compiled.uses)."""
    uses = frozenset(d for d in deps if d.startswith(_USES))
    return deps - uses, uses


def _without(deps: frozenset[str], names: Any) -> frozenset[str]:
    """``deps`` without those of the bound ``names`` (a comprehension's variable, a define's parameters)."""
    gone = {p + n for n in names for p in ("ctx:", "bare:")}
    return frozenset(d for d in deps if d not in gone and not (d.startswith("attr:")
                                                                and d[5:].rsplit(".", 1)[0] in names))


_ORDER = ("<", "<=", ">", ">=")
_ARITHMETIC = ("+", "-", "*", "//", "%")
_NOUNS = {"card": "a card", "seat": "a seat", "record": "a record", "number": "a number", "text": "text",
          "truth": "true/false", "none": "none", "list": "a list", None: "a value"}
_PLURALS = {"card": "cards", "seat": "seats", "record": "records", "number": "numbers", "text": "texts",
            "truth": "true/false values", "list": "lists"}


def _kind(t: Type, node: ast.Node | None = None) -> str | None:
    """What a part is, for the checks of operands: card, seat, list, record, number, text, truth, none (the
    literal none), or None when the compiler cannot tell (a value of any kind, or one not typed yet)."""
    if isinstance(node, ast.Const) and node.value is None:
        return "none"
    if t.kind != "value":
        return t.kind
    return t.plain or None


def _noun(t: Type, node: ast.Node | None = None) -> str:
    kind = _kind(t, node)
    if kind == "list" and t.element is not None:
        inner = _kind(t.element)
        return "a list" if inner is None else f"a list of {_PLURALS[inner]}"
    return _NOUNS[kind]


def _unequal(a: Type, b: Type, na: ast.Node | None = None, nb: ast.Node | None = None) -> str | None:
    """None when values of these types may be equal; else why not: "" (they never are) or a reason."""
    ka, kb = _kind(a, na), _kind(b, nb)
    if ka is None or kb is None or "none" in (ka, kb):
        return None
    if ka == kb == "list":
        return None if a.element is None or b.element is None else _unequal(a.element, b.element)
    if ka == kb:
        return None
    if {ka, kb} == {"seat", "number"}:
        return "a seat is not a number; compare seat.index, e.g. round.dealer.index == 1, or two seats"
    if {ka, kb} == {"truth", "number"}:
        return "true/false is not a number"
    return ""


def _unordered(a: Type, b: Type, na: ast.Node | None = None, nb: ast.Node | None = None) -> bool:
    """True when ``<`` cannot order values of these types (two numbers, two texts, or two lists of such)."""
    ka, kb = _kind(a, na), _kind(b, nb)
    if ka in ("truth", "none", "record", "card", "seat") or kb in ("truth", "none", "record", "card", "seat"):
        return True
    if ka is None or kb is None:
        return False
    if ka != kb:
        return True
    return ka == "list" and a.element is not None and b.element is not None and _unordered(a.element, b.element)


def _no_sum(op: str, a: Type, b: Type, na: ast.Node, nb: ast.Node) -> bool:
    """True when ``op`` cannot combine values of these types: numbers, or with '+' two texts or two lists."""
    ka, kb = _kind(a, na), _kind(b, nb)
    can = ("number", "text", "list") if op == "+" else ("number",)
    if any(k is not None and k not in can for k in (ka, kb)):
        return True
    return ka is not None and kb is not None and ka != kb


def _check_args(builtin: Any, types: list[Type], nodes: Any, loc: Locate) -> None:
    """Refuse an argument a builtin cannot take (see Builtin.args), e.g. ``len(seat)`` or ``sum(['a'])``."""
    for want, t, node in zip(builtin.args, types, nodes):
        kind = _kind(t, node)
        if not want or kind is None:
            continue
        if want in ("list", "numbers") and kind != "list":
            needs = "a list"
        elif want == "numbers" and t.element is not None and _kind(t.element) not in (None, "number"):
            needs = "a list of numbers"
        elif want in ("number", "text") and kind != want:
            needs = _NOUNS[want]
        else:
            continue
        raise ExpressionError(f"{builtin.name}() needs {needs}, found {_noun(t, node)}", loc(node.offset))


def _plural(name: str) -> str:
    if name.endswith("y") and name[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return name[:-1] + "ies"
    return name + ("es" if name.endswith(("s", "x", "z", "ch", "sh")) else "s")


def _shown_plain(value: Any) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def _shown(value: Any) -> str:
    return "none" if value is None else "text " + repr(value) if isinstance(value, str) else "a list" \
        if isinstance(value, (list, tuple)) else repr(value)


_UNSET = object()  # a lifted part not worked out yet (see Compiler._lift)


def _keep(values: list[Any], i: int, value: Any) -> Any:
    values[i] = value
    return value


def _once_per_batch(f: Fn, cache: list[Any]) -> Fn:
    """``f`` worked out once per batch (the object under ``"$batch"``), kept in ``cache`` as [batch, value]."""

    def once(e: dict[str, Any]) -> Any:
        batch = e.get("$batch")
        if batch is None:
            return f(e)
        if cache[0] is batch:
            return cache[1]
        value = f(e)
        cache[0], cache[1] = batch, value
        return value

    return once


def _field(record: Any, name: str) -> Any:
    if record is None:
        return None
    return record[name]


def _of_seat(getter: Callable[[Any, Any], Any], state: Any, seat: Any) -> Any:
    """A seat attribute, none of none (``round.partner.total`` while there is no partner)."""
    return None if seat is None else getter(state, seat)


# the source of a local or of a bound name (read twice rather than passed to a helper, see _attribute)
_SIMPLE = re.compile(r"[A-Za-z_]\w*|e\['[A-Za-z_]\w*'\]")


def _plain_type(values: Any) -> Type:
    """NUMBER, TEXT or TRUTH when every value that is not none is one (a card attribute's values)."""
    kinds = {type_of_plain(v) for v in values if v is not None}
    return kinds.pop() if len(kinds) == 1 else VALUE


_PYTHON_TYPES = {"NoneType": "none", "int": "a number", "str": "text", "bool": "true/false", "tuple": "a list",
                 "list": "a list", "dict": "a record"}
_EXPLAINED = [  # Python's messages for mistakes only play can show, in the words of the rule language
    (re.compile(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'"),
     "'{0}' cannot combine {1} and {2}"),
    (re.compile(r"can only concatenate (\w+) \(not \"(\w+)\"\) to \w+"), "'+' cannot combine {0} and {1}"),
    (re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'"),
     "'{0}' cannot compare {1} with {2}"),
    (re.compile(r"bad operand type for unary (\S+): '(\w+)'"), "'{0}' needs a number, not {1}"),
    (re.compile(r"(?:tuple|list) indices must be integers or slices, not (\w+)"),
     "a list index must be a number, not {0}"),
    (re.compile(r"'(\w+)' object is not subscriptable"), "{0} cannot be indexed (only lists can)"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"), "{0} is not a list"),
    (re.compile(r"'(\w+)' object is not iterable"), "{0} is not a list"),
    (re.compile(r"(?:tuple|list|string) index out of range"), "an index past the end of the list"),
]


def explain(exc: BaseException) -> str:
    """What went wrong in an expression while playing, said without Python's names of its types."""
    message = str(exc)
    if isinstance(exc, (TypeError, IndexError)):
        for pattern, text in _EXPLAINED:
            m = pattern.fullmatch(message)
            if m is not None:
                return text.format(*(_PYTHON_TYPES.get(g, g) for g in m.groups()))
    return message


def _rename(node: ast.Node, keys: dict[str, str]) -> ast.Node:
    """Rename a define's parameters to private keys so they cannot clash."""
    if isinstance(node, ast.Name):
        return ast.Name(node.offset, keys.get(node.name, node.name))
    if isinstance(node, ast.Comprehension) and node.var in keys:
        # the loop variable hides a parameter in the body and the filter, not in the source
        inner = {k: v for k, v in keys.items() if k != node.var}
        return node.replace(body=_rename(node.body, inner), source=_rename(node.source, keys),
                            condition=None if node.condition is None else _rename(node.condition, inner))
    changes: dict[str, ast.Node | tuple[ast.Node, ...]] = {}
    for name in node.fields:
        v = getattr(node, name)
        if isinstance(v, ast.Node):
            changes[name] = _rename(v, keys)
        elif isinstance(v, tuple) and v and isinstance(v[0], ast.Node):
            changes[name] = tuple(_rename(x, keys) for x in v)
    return node.replace(**changes) if changes else node
