"""Python source of checked expressions (see ir.py): the one way an expression is evaluated, in play and when a
constant part is folded at load time.

Every part becomes a piece of Python source made only from the checked tree: names the grammar allows, mapped
to Python locals by codegen.local_name (comprehension variables, define parameters, the item of a judged
expression), constants written with ``repr`` or held in the namespace, and helpers of the engine (runtime.py,
the builtins, the tables of card attributes) referred to by generated names. Rule text is never pasted in.

What the stages before decided shows here:

* a define's body is one function per kind of arguments, called through a memo that keeps its values within
  one batch (codegen.define_caller); a short body without loops is called directly, and one without
  parameters is written in place;
* a part remembered per card (a ``memo`` part) is looked up in a table filled by a function of the cards;
* in a judged expression (compile(per=...)), a part that does not read the item, inside one that does, is
  lifted: worked out once per call, when first needed, and kept in ``_hs``, a list local to that call.

Python refuses source nested past 200 brackets; parts deeper than a few dozen levels are made functions of
their own (taking the locals in scope), and a function Python still refuses is made again with shallower
ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from interpreter.dsl.budget import number
from interpreter.dsl.builtins import _concat
from interpreter.dsl.codegen import Namespace, charged, charged_nested, charged_one, define_caller, local_name
from interpreter.dsl.ir import USES, Part
from interpreter.dsl.names import Define, DefineBody
from interpreter.dsl.part_shapes import SIMPLE, calls_defines, is_let, is_local, nested, same_for_each, works
from interpreter.dsl.runtime import UNSET, a_number, field, joined, keep, of_seat, once_per_batch, something
from interpreter.dsl.state_reads import STATE_READS, Reads

_DEPTHS = (40, 8, 2)  # parts nested in one function before the deeper ones get their own, tried in turn
_CHEAP = 400  # a define body of at most this much source and no loop is not worth remembering
# a short define's body of at most this much source, with the defines it calls written in place, is written in place of
# a call whose arguments are read without work (see _define): the source written at a call is bounded by it, so defines
# calling each other cannot make it grow without bound
_IN_PLACE = 800
_STATE = "e['$s']"  # the state, in generated code

_BOUND = r"e\['[A-Za-z_]\w*'\]"  # the source of a bound name read from the environment

Fn = Callable[[dict[str, Any]], Any]


class _Refused(Exception):
    """Python could not compile a generated function: made again with shallower functions."""


def function(gen: Namespace, part: Part, expect: str | None = None, reads: Reads = STATE_READS) -> Fn:
    """The generated function of an expression; ``expect``: its value refused at play when it is not a number
    (or is none where a seat or a card is needed); ``reads``: how the state it is given is held (state_reads.py)."""

    def make(emitter: _Emitter) -> Fn:
        src = emitter.source(part)
        if expect == "number":
            src = f"{gen.ref(a_number)}({src})"
        elif expect in ("seat", "card"):
            src = f"{gen.ref(something)}({src}, {expect!r})"
        return emitter.function((), src)

    return _shallower(gen, make, reads=reads)


def loops(gen: Namespace, part: Part, per: str, reads: Reads = STATE_READS
          ) -> tuple[Fn, Callable[..., list[Any]], Callable[..., bool]]:
    """For compile(per=...): the function of one item (read under ``per``), ``select(e, items)`` (the items for
    which the expression holds) and ``exists(e, items)`` (whether one does), each one loop in one function."""

    def make(emitter: _Emitter) -> tuple[Fn, Callable[..., list[Any]], Callable[..., bool]]:
        var = emitter.locals[per]
        if part.inv:  # the same for every item: worked out once, when there is one
            src = emitter.source(part)
            lifted = f"[{gen.ref(UNSET)}] * {len(emitter.slots)}"
            return (emitter.function((), f"(lambda {var}, _hs: {src})(e[{per!r}], {lifted})"),
                    emitter.function(("_items",), f"(lambda _hs: ({gen.ref(list)}(_items) if {src} else []) "
                                                  f"if _items else [])({lifted})"),
                    emitter.function(("_items",), f"(lambda _hs: (True if {src} else False) if _items else False)"
                                                  f"({lifted})"))
        src = emitter.source(part)
        lifted = f"[{gen.ref(UNSET)}] * {len(emitter.slots)}"  # each lifted part's value, once it is worked out
        return (emitter.function((), f"(lambda {var}, _hs: {src})(e[{per!r}], {lifted})"),
                emitter.function(("_items",), f"(lambda _hs: [{var} for {var} in _items if {src}])({lifted})"),
                emitter.function(("_items",), f"(lambda _hs: {gen.ref(any)}({src} for {var} in _items))({lifted})"))

    return _shallower(gen, make, per, reads=reads)


# the parts that may read the item of a judged expression when it is split into keys and a judge (see key_parts):
# what they read beside the item is what their kids give them (a call of a builtin that reads the state, a seat's
# attribute, a loop over a list that depends on the item are not among them)
_JUDGED = frozenset({"name", "attr", "field", "index", "list", "not", "neg", "infix", "arith", "call", "if", "define",
                     "memo"})


def key_parts(part: Part, per: str) -> list[Part] | None:
    """The keys of a judged expression (compiled with per=): its largest parts that do not read the item and are
    no constants, in the order they are written; None when a part that reads the item reads anything else (the
    state through a builtin or a define, a seat's attribute, a loop), or when the whole does not read it.

    The expression's value for an item is then a function of the item and its keys' values alone, which may be
    kept for each value of the keys (a choice's labels while the seat and the round stay the same)."""
    keys: list[Part] = []
    item = f"ctx:{per}"

    def walk(p: Part) -> bool:
        if p.const:
            return True
        if p.inv:
            keys.append(p)
            return True
        if p.op not in _JUDGED or p.op == "call" and p.data[1]:
            return False
        own = p.deps.difference(*(k.deps for k in p.kids))
        return all(d == item or d.startswith(USES) for d in own) and all(walk(k) for k in p.kids)

    return keys if not part.inv and walk(part) else None


def keyed(gen: Namespace, part: Part, per: str, keys: list[Part], reads: Reads = STATE_READS
          ) -> tuple[Fn, Callable[..., list[Any]]]:
    """For a judged expression with ``keys`` (key_parts): ``keys(e)``, the tuple of their values, and
    ``judge(e, items, hs)``, the expression's value for each of ``items`` given ``hs``, those values."""

    def keys_of(emitter: _Emitter) -> Fn:
        return emitter.function((), "(" + "".join(f"{emitter.source(k)}, " for k in keys) + ")")

    def judge(emitter: _Emitter) -> Callable[..., list[Any]]:
        src = emitter.source(part)
        var = emitter.locals[per]
        return emitter.function(("_items", "_hs"), f"[{src} for {var} in _items]")

    fixed = {id(k): f"_hs[{i}]" for i, k in enumerate(keys)}
    return _shallower(gen, keys_of, reads=reads), _shallower(gen, judge, per, fixed=fixed, reads=reads)


def inline(gen: Namespace, part: Part, names: dict[str, str], expect: str | None = None,
           reads: Reads = STATE_READS) -> str:
    """The source of an expression written in place, in code the engine writes (engine/steps/trick_code.py):
    the names the expression binds are the Python locals ``names`` gives, the state is the local ``state``,
    and ``e``, a dict holding the state under ``'$s'``, is in scope (a define's body and a remembered part take
    it). ``expect`` as for ``function``."""
    for local in names.values():
        if not local.startswith("_v_"):  # pragma: no cover - the engine names its locals so (codegen.local_name)
            raise ValueError(f"not a local of a rule name: {local!r}")

    def make(emitter: _Emitter) -> str:
        emitter.locals.update(names)
        src = emitter.source(part)
        if expect == "number":
            src = f"{gen.ref(a_number)}({src})"
        elif expect in ("seat", "card"):
            src = f"{gen.ref(something)}({src}, {expect!r})"
        emitter.function(tuple(dict.fromkeys(names.values())), src)  # Python takes it (else: shallower parts)
        return src

    return _shallower(gen, make, state="state", reads=reads)


def evaluate(gen: Namespace, part: Part) -> Any:
    """The value of a part that reads nothing (its parts are constants): folded at load time by its source."""
    return function(gen, part)({})


def _shallower(gen: Namespace, make: Callable[[_Emitter], Any], per: str | None = None,
               params: tuple[str, ...] = (), state: str = _STATE, fixed: dict[int, str] | None = None,
               reads: Reads = STATE_READS) -> Any:
    """``make(emitter)``, made again with shallower functions while Python refuses one."""
    for depth in _DEPTHS:
        try:
            return make(_Emitter(gen, depth, per, params, state, fixed, reads))
        except _Refused:
            continue
    raise RecursionError("the expression is nested too deeply for Python")  # pragma: no cover - see _DEPTHS


class _Emitter:
    """Source for the parts of one generated function (and the functions split off it)."""

    def __init__(self, gen: Namespace, limit: int, per: str | None = None, params: tuple[str, ...] = (),
                 state: str = _STATE, fixed: dict[int, str] | None = None, reads: Reads = STATE_READS):
        self.gen, self.ref, self.limit, self.depth = gen, gen.ref, limit, 0
        self.reads = reads  # how the state is held: where a zone, a value, a seat's attribute is read
        self.state = state  # the source of the state: e['$s'], or a local of the code it is written into
        self.locals = {p: local_name(p) for p in params}  # names that are Python locals here -> the local
        # the keys of a judged expression split (see keyed): id of the part -> where its value is, worked out before
        self.fixed = fixed or {}
        self.lifting = per is not None and not self.fixed  # a judged expression: parts not reading the item lifted
        if per is not None:
            self.locals[per] = local_name(per)
        self.lifted: dict[int, str] = {}  # id of a lifted part -> its source (see lift)
        # the source of a lifted part as written -> its source lifted: parts written alike are worked out once
        self.slots: dict[str, str] = {}
        self.in_place = True  # a short define written in place of its call (see _define)

    def function(self, params: tuple[str, ...], src: str) -> Any:
        made = self.gen.function(params, src)
        if made is None:
            raise _Refused
        return made

    def source(self, part: Part) -> str:
        if part.const:
            return self.gen.literal(part.value)
        fixed = self.fixed.get(id(part))
        if fixed is not None:
            return fixed
        if self.depth >= self.limit:  # a function of its own, taking the locals in scope
            params = tuple(dict.fromkeys(v for v in self.locals.values() if is_local(v))) + self.passed()
            depth, self.depth = self.depth, 0
            try:
                made = self.function(params, self.source(part))
            finally:
                self.depth = depth
            return f"{self.ref(made)}({', '.join(('e', *params))})"
        self.depth += 1
        try:
            src: str = getattr(self, "_" + part.op)(part)
        finally:
            self.depth -= 1
        if self.lifting and part.inv:  # a part written alike is lifted already: its value, once worked out
            return self.slots.get(src, src)
        return src

    def passed(self) -> tuple[str, ...]:
        """Locals of this function besides the rule's names that a function split off it takes: the lifted
        parts, and the state when it is a local (written in place, see inline)."""
        return (("_hs",) if self.lifting or self.fixed else ()) + (() if self.state == _STATE else (self.state,))

    def kids(self, part: Part) -> list[str]:
        """The sources of a part's kids; in a judged expression, those that do not read the item are lifted
        when the part reads it."""
        outer = self.lifting and not part.inv
        return [self.lift(k) if outer and k.inv and not k.cheap else self.source(k) for k in part.kids]

    def lift(self, part: Part) -> str:
        """The source of ``part`` worked out once per call of the judged expression, when first needed, and
        kept in ``_hs``, a list local to that call (see loops); parts written alike (the same source in the same
        function: they read the same, and nothing changes the state while an expression is worked out) share
        one place."""
        src = self.lifted.get(id(part))
        if src is None:
            inner = self.source(part)  # a part written alike and lifted before: that one's (see source)
            src = self.slots.get(inner)
            if src is None and inner not in self.slots.values():
                i, unset, keep_ = len(self.slots), self.ref(UNSET), self.ref(keep)
                src = self.slots[inner] = f"(_hs[{i}] if _hs[{i}] is not {unset} else {keep_}(_hs, {i}, {inner}))"
            self.lifted[id(part)] = src = src or inner
        return src

    # ------------------------------------------------------------------ parts (see ir.Part)

    def _name(self, part: Part) -> str:
        return self.locals.get(part.data) or f"e[{part.data!r}]"

    def _zone(self, part: Part) -> str:
        return self.reads.zone(self.state, part.data)

    def _round(self, part: Part) -> str:
        return self.reads.round(self.state, part.data)

    def _game(self, part: Part) -> str:
        return self.reads.game(self.state, part.data)

    def _attr(self, part: Part) -> str:
        (b,) = self.kids(part)
        return f"{self.ref(part.data)}[{b}]"  # the values by card id (none of none, when it may be none)

    def _seat(self, part: Part) -> str:
        """A seat's attribute read in place (``state.counters['tricks'][s]``), none of none; a seat given by a
        longer source than a name or a round value is read once, through the attribute's getter."""
        (b,) = self.kids(part)
        getter, sure, stateful, source, name = part.data
        if stateful:
            getter, source = self.reads.seat(name, getter, source)
        if sure:
            return source(self.state, b, self.ref)
        if re.fullmatch(SIMPLE, b) or re.fullmatch(self.reads.simple, b):  # read twice, no call
            return f"({source(self.state, b, self.ref)} if {b} is not None else None)"
        get, state = self.ref(getter), self.state if stateful else "None"
        return f"{self.ref(of_seat)}({get}, {state}, {b})"

    def _field(self, part: Part) -> str:
        (b,) = self.kids(part)
        return f"{self.ref(field)}({b}, {part.data!r})"

    def _index(self, part: Part) -> str:
        base = part.kids[0]
        if is_let(part) and not (self.lifting and not part.inv and base.inv and not base.cheap):
            return self._let(base)
        b, x = self.kids(part)
        return f"{b}[{x}]"

    def _let(self, one: Part) -> str:
        """``let x = value in body`` (the parser's ``[body for x in [value]][0]``) as a call of a function of x: no
        list made and none gone through; the one item charged as the list's (codegen.charged_one)."""
        items = one.kids[0]
        (value,) = self.kids(items) if items.op == "list" else (self.gen.literal(items.value[0]),)
        var, body = one.data[0], one.data[1]
        had = self.locals.get(var)
        self.locals[var] = py = local_name(var)  # the variable is a local (hiding a bound name of its name)
        try:
            src = self.source(body)
        finally:
            if had is None:
                del self.locals[var]
            else:
                self.locals[var] = had
        return f"(lambda {py}: {src})({self.ref(charged_one)}({value}))"

    def _list(self, part: Part) -> str:
        return f"({', '.join(self.kids(part))},)"

    def _not(self, part: Part) -> str:
        return f"(not {self.kids(part)[0]})"

    def _neg(self, part: Part) -> str:
        return f"(-{self.kids(part)[0]})"

    def _infix(self, part: Part) -> str:
        a, b = self.kids(part)
        return f"({a} {part.data} {b})"

    def _arith(self, part: Part) -> str:
        """Python's own operator on two numbers (see resolve._arithmetic), the value kept within the bounds."""
        a, b = self.kids(part)
        return f"{self.ref(number)}({a} {part.data} {b})"

    def _call(self, part: Part) -> str:
        fn, state, negated = part.data
        if fn is _concat and not negated and len(part.kids) == 1 and nested(part.kids[0]):
            return self._flat(part.kids[0])
        src = f"{self.ref(fn)}({', '.join((self.state, *self.kids(part)) if state else self.kids(part))})"
        return f"(not {src})" if negated else src

    def _flat(self, outer: Part) -> str:
        """A comprehension of several ``for``s (which the parser writes as ``concat`` of the lists each outer item
        makes, ``nested``) as Python's own: one list, its loops one inside the other, each list charged."""
        clauses: list[str] = []
        hidden: list[tuple[str, str | None]] = []
        first: tuple[str, str] | None = None  # the first for's variable and source, while no condition follows it
        part = outer
        try:
            while True:
                (s,) = self.kids(part)
                var, body, cond, _ = part.data
                if first is not None and len(clauses) == 1 and same_for_each(part.kids[0], first[0], s):
                    # the second list is the same for every item of the first, and gone through for each: charged
                    # once for all with the first (codegen.charged_nested)
                    clauses[0] = f"for {local_name(first[0])} in {self.ref(charged_nested)}({first[1]}, {s})"
                    clauses.append(f"for {local_name(var)} in {s}")
                else:
                    clauses.append(f"for {local_name(var)} in {self.through(part.kids[0], s)}")
                first = (var, s) if not hidden and cond is None else None
                hidden.append((var, self.locals.get(var)))
                self.locals[var] = local_name(var)
                if cond is not None:
                    clauses.append(f"if {self.source(cond)}")
                if body.op == "call" and body.data[0] is _concat and nested(body.kids[0]):
                    part = body.kids[0]
                elif nested(part):
                    part = body
                else:
                    return f"[{self.source(body)} {' '.join(clauses)}]"
        finally:
            for var, had in reversed(hidden):
                if had is None:
                    del self.locals[var]
                else:
                    self.locals[var] = had

    def through(self, source: Part, src: str) -> str:
        """The source of a list a comprehension goes through, written ``src``, charged for each of its items: two
        lists joined are charged for it as they are joined (runtime.joined), others by codegen.charged."""
        join = f"{self.ref(joined)}("
        if source.op == "call" and source.data[0] is joined and src.startswith(join) and src.endswith(")"):
            return f"{src[:-1]}, 2)"
        return f"{self.ref(charged)}({src})"

    def _if(self, part: Part) -> str:
        t, a, b = self.kids(part)
        return f"({a} if {t} else {b})"

    def _for(self, part: Part) -> str:
        (s,) = self.kids(part)
        var, body, cond, fn = part.data
        had = self.locals.get(var)
        self.locals[var] = py = local_name(var)  # the variable is a local (hiding a bound name of its name)
        try:
            test = f" if {self.source(cond)}" if cond is not None else ""
            listed = f"[{self.source(body)} for {py} in {self.through(part.kids[0], s)}{test}]"
        finally:
            if had is None:
                del self.locals[var]
            else:
                self.locals[var] = had
        return listed if fn is None else f"{self.ref(fn)}({listed})"

    def _define(self, part: Part) -> str:
        d, sig, body = part.data
        made = self.reads.defines.made(body) or _define_functions(self.gen, d, sig, body, self.reads)
        fn, short, once, caller = made
        if not part.kids:  # no parameters: the state alone, once per batch (a short body written in place)
            return f"({short})" if short is not None else f"{self.ref(once)}(e)"
        args = self.kids(part)
        if self.in_place and short is not None and len(short) <= _IN_PLACE and all(
                k.const or a in self.locals.values() or re.fullmatch(_BOUND, a) or re.fullmatch(self.reads.simple, a)
                for k, a in zip(part.kids, args, strict=True)):
            return self._in_place(body, args)
        return f"{self.ref(caller)}({', '.join(('e', *args))})"

    def _in_place(self, body: DefineBody, args: list[str]) -> str:
        """A short define's body written in place of its call, its parameters read where the arguments are (each a
        local, a bound name, a round value or a constant: read again, it gives the same and cannot fail: a round's
        values are all there, none until set), so no call is made."""
        had = [(k, self.locals.get(k)) for k in body.keys]
        self.locals.update(zip(body.keys, args, strict=True))
        try:
            return f"({self.source(body.part)})"
        finally:
            for k, v in had:
                if v is None:
                    del self.locals[k]
                else:
                    self.locals[k] = v

    def _memo(self, part: Part) -> str:
        """The table looked up inline, filled by a generated function of the cards."""
        (inner,) = part.kids
        src = self.source(inner)
        names = part.data
        keys = [self.locals.get(n) or f"e[{n!r}]" for n in names]
        key = keys[0] if len(keys) == 1 else f"({', '.join(keys)})"
        params = tuple(self.locals[n] for n in names if is_local(self.locals.get(n, ""))) + self.passed()
        fill, t = self.ref(self.function(("_t", "_k", *params), f"_t.setdefault(_k, {src})")), self.ref({})
        return f"({t}[{key}] if {key} in {t} else {fill}({', '.join(('e', t, key, *params))}))"


def _define_functions(gen: Namespace, d: Define, sig: Any, body: DefineBody, reads: Reads) -> Any:
    """A define's body for one kind of arguments as a function of ``e`` and its parameters, and how it is
    called: the memo of the batch (shared by every call site), unless short and without loops."""

    def make(emitter: _Emitter) -> tuple[str, Fn]:
        src = emitter.source(body.part)
        return src, emitter.function(tuple(emitter.locals.values()), src)

    def as_written(emitter: _Emitter) -> str:
        emitter.in_place = False
        return emitter.source(body.part)

    src, fn = _shallower(gen, make, params=body.keys, reads=reads)
    # short or not as written with its calls (the defines it calls written in place do not make it longer)
    plain = _shallower(gen, as_written, params=body.keys, reads=reads) if calls_defines(body.part) else src
    short = src if len(plain) <= _CHEAP and " for " not in plain else None
    if not body.keys and works(body.part):  # written in place, its work would be done at every place it is read
        short = None
    memo = reads.defines.memo(d, sig)
    once = once_per_batch(fn, memo) if not body.keys else None
    # arguments of which one is a list or a record are never remembered (define_caller): the body is called
    kept = short is None and not any(t.kind in ("list", "record") for t in sig)
    caller = None if not body.keys else define_caller(fn, memo, len(body.keys)) if kept else fn
    made = (fn, short, once, caller)
    reads.defines.keep(body, made)
    return made
