"""Names and types: the parsed tree (ast.py) checked against the game's names (names.Globals) and the names a
rule binds, as a tree of typed parts (ir.py).

Every name is resolved here (bound names, constants, card and seat attributes, round and game values, zones,
defines, builtins) and every operand checked (checks.py), so that a mistake in a rule file shows when it is
loaded, with its position. Constants are folded as the parts are made (see passes.py).
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl import ast
from interpreter.dsl import checks as check
from interpreter.dsl.builtins import REGISTRY
from interpreter.dsl.card_attributes import CardAttributes, attribute_of
from interpreter.dsl.codegen import Namespace
from interpreter.dsl.ir import Part, constant, without
from interpreter.dsl.names import Define, DefineBody, Globals, Locate
from interpreter.dsl.parser import DslSyntaxError, parse
from interpreter.dsl.passes import fold, invariant, remember
from interpreter.dsl.runtime import BINARY, COMPARISONS, a_truth, contains, joined, truths
from interpreter.dsl.types import NONE, NUMBER, TEXT, TRUTH, VALUE, Type, join, list_of, type_of_plain, unrefined
from interpreter.errors import ExpressionError
from interpreter.limits import MAX_CALLS, MAX_SIGNATURES

# builtins that test each item for truth (see checks.truth)
_TRUTH_BUILTINS = ("count", "any", "all")
# builtins that take one list, so also ``f(x for x in xs)``
_LIST_BUILTINS = ("sum", "count", "max", "min", "any", "all", "len", "distinct", "sort", "first", "last")


def parse_checked(text: str, locate: Locate) -> ast.Node:
    """The tree of ``text``; a syntax error as an ExpressionError at its place in the rule file."""
    try:
        return parse(text)
    except DslSyntaxError as exc:
        raise ExpressionError(f"syntax error: {exc.message}", locate(exc.offset)) from None


class Resolver:
    """Checks trees against :class:`Globals`; ``gen`` is the namespace constant parts are folded in."""

    def __init__(self, globals_: Globals, gen: Namespace):
        self.g, self.gen = globals_, gen
        self._card_values = check.CardValues(globals_)
        self._unreached = 0  # > 0 while checking a part that a constant test skips (see passes.fold)
        self._invariant: frozenset[str] | None = None  # the deps that do not change from item to item
        self._calls = 0  # define calls made by the define being checked (see DefineCalls)
        self._sure: frozenset[str] = frozenset()  # bound names that are never none here (see _attribute)
        self._cards = CardAttributes(globals_)  # the parts reading cards' attributes (card_attributes.py)
        self._defines = DefineCalls(self)  # the calls of defines, each body checked once per signature
        self.reads: list[str] = []  # the fields of constants read ("setup.hand"), for Compiler.compile's errors

    def resolve(self, tree: ast.Node, bound: dict[str, Type], locate: Locate, per: str | None = None) -> Part:
        """The checked parts of ``tree``; ``per``: the name a judged expression changes from item to item."""
        self._calls, self._sure, self._invariant = 0, frozenset(), None
        self.reads = []
        if per is not None:
            if bound.get(per, VALUE).kind == "card":  # the card judged: one of a seat's cards, never none
                self._sure = frozenset({per})
            self._invariant = frozenset("ctx:" + k for k in bound if k != per)
        try:
            return self._expr(tree, dict(bound), locate)
        finally:
            self._invariant, self._sure = None, frozenset()

    def _fold(self, part: Part, n: ast.Node, loc: Locate, always: bool = False) -> Part:
        return fold(part, n, loc, self.gen, bool(self._unreached), always)

    def test(self, part: Part, n: ast.Node, loc: Locate, what: str = "") -> Part:
        """``part`` where true or false is meant (a test): refused when it is known to be anything else, and
        checked while playing when its kind is not known (a define's parameter, a value of mixed kinds), so a
        number or a text is never silently true or false. ``what`` says which test, for the message."""
        if what:  # an item of a list tested item by item: check.truth words the message so for a list's items
            check.truth(list_of(part.type), n, loc, what)
        else:
            check.truth(part.type, n, loc)
        if check.kind(part.type, n) is not None:
            return part
        return self._checked_by(a_truth, TRUTH, part, n, loc)

    def _tests(self, part: Part, n: ast.Node, loc: Locate, what: str) -> Part:
        """A list whose items are tested (count, any, all): see test."""
        check.truth(part.type, n, loc, what)
        if part.type.kind != "list" or part.type.element is None or check.kind(part.type.element) is not None:
            return part
        return self._checked_by(truths, list_of(TRUTH), part, n, loc)

    def _checked_by(self, fn: Any, t: Type, part: Part, n: ast.Node, loc: Locate) -> Part:
        checked = Part("call", t, part.deps, (part,), (fn, False, False))
        checked.inv, checked.cheap = part.inv, False
        return self._fold(checked, n, loc)

    def _expr(self, n: ast.Node, scope: dict[str, Type], loc: Locate) -> Part:
        res: Part = getattr(self, "_" + type(n).__name__.lower())(n, scope, loc)
        if invariant(res, self._invariant):  # lifted by the first part that reads the item (see emit.py)
            res.inv, res.cheap = True, isinstance(n, (ast.Name, ast.Attribute, ast.Const))
        return res

    def _maybe_skipped(self, n: ast.Node, scope: dict[str, Type], loc: Locate, skipped: bool) -> Part:
        """Check ``n``; when ``skipped`` (a constant test never takes it), constant failures inside are fine."""
        if not skipped:
            return self._expr(n, scope, loc)
        self._unreached += 1
        try:
            return self._expr(n, scope, loc)
        finally:
            self._unreached -= 1

    # ------------------------------------------------------------------ names

    def _const(self, n: ast.Const, scope: dict[str, Type], loc: Locate) -> Part:
        return constant(n.value, NONE if n.value is None else type_of_plain(n.value))

    def _name(self, n: ast.Name, scope: dict[str, Type], loc: Locate) -> Part:
        name = n.name
        if name in scope:
            part = Part("name", scope[name], frozenset({"ctx:" + name, "bare:" + name}), data=name)
            part.sure = name in self._sure  # an item of a list none of whose items is none (see _comprehension)
            return part
        if name in self.g.constants:
            type_, value = self.g.constants[name]
            return constant(value, type_)
        if name in self.g.zones:
            part = Part("zone", self.g.zones[name], frozenset({"state"}), data=name)
            part.sure = part.full = True  # a zone's cards
            return part
        if name in ("round", "game"):
            raise ExpressionError(f"'{name}' is a group of values; name one, e.g. {name}.start", loc(n.offset))
        if name in REGISTRY or name in self.g.defines:
            raise ExpressionError(f"{name!r} is a function; call it as {name}(...)", loc(n.offset))
        known = sorted({k.rsplit(".", 1)[-1] for k in scope} | set(self.g.constants) | set(self.g.zones)
                       | {"round", "game"})
        raise ExpressionError(f"unknown name {name!r}{check.suggest(name, known)} (names here: {', '.join(known)})",
                              loc(n.offset))

    def _attribute(self, n: ast.Attribute, scope: dict[str, Type], loc: Locate) -> Part:
        if isinstance(n.base, ast.Name) and n.base.name in ("round", "game") and n.base.name not in scope:
            return _round_field(self.g, n, n.base.name, loc)
        base = self._expr(n.base, scope, loc)
        name, t = n.name, base.type
        named = n.base.name if isinstance(n.base, ast.Name) and n.base.name in scope else None  # a bound name
        sure = base.sure  # never none: no test for none before the attribute is read
        if t.kind == "card":
            return self._cards.part(base, name, named, sure, loc(n.name_offset))
        if t.kind == "seat":
            entry = attribute_of("seats", self.g.seat_attrs, name, loc(n.name_offset))
            rtype, getter, fixed, source = entry
            if fixed:  # fixed for the whole game (a seat's name, index, role)
                if base.const:
                    return constant(None if base.value is None else getter(None, base.value), rtype)
                return Part("seat", rtype, base.deps, (base,), (getter, sure, False, source, name))
            return Part("seat", rtype, base.deps | {"state"}, (base,), (getter, sure, True, source, name))
        if t.kind == "record":
            ftype = t.field_type(name)
            if ftype is None:
                fields = ", ".join(f for f, _ in t.fields) or "none"
                raise ExpressionError(f"no field {name!r} here (fields: {fields})", loc(n.name_offset))
            if base.const:
                if isinstance(n.base, ast.Name) and n.base.name not in scope:
                    self.reads.append(f"{n.base.name}.{name}")
                return constant(base.value[name], ftype)
            return Part("field", ftype, base.deps, (base,), name)
        raise ExpressionError(f"a {t} has no attribute {name!r}{_declare_hint(n.base, t)}", loc(n.name_offset))

    def _check_card_values(self, name: str, nodes: Any, loc: Locate) -> None:
        if not self._unreached:  # not in a branch a constant test skips (an option this game is not played with)
            self._card_values.check(name, nodes, loc)

    # ------------------------------------------------------------------ operators

    def _index(self, n: ast.Index, scope: dict[str, Type], loc: Locate) -> Part:
        base = self._expr(n.base, scope, loc)
        idx = self._expr(n.index, scope, loc)
        if base.type.kind != "list":
            raise ExpressionError(f"only lists can be indexed, not a {base.type}", loc(n.offset))
        if check.kind(idx.type, n.index) not in (None, "number"):
            raise ExpressionError(f"a list index must be a number, found {check.noun(idx.type, n.index)}",
                                  loc(n.index.offset))
        return Part("index", base.type.element or VALUE, base.deps | idx.deps, (base, idx))

    def _listexpr(self, n: ast.ListExpr, scope: dict[str, Type], loc: Locate) -> Part:
        items = tuple(self._expr(i, scope, loc) for i in n.items)
        t = NONE
        for i in items:
            t = join(t, i.type)
        # an empty list's items are of no type yet (none): joined with a typed list it takes that list's type
        ltype = list_of(t if not items else VALUE if t.literal_none else t)
        if all(i.const for i in items):
            return constant(tuple(i.value for i in items), ltype)
        part = Part("list", ltype, frozenset().union(*(i.deps for i in items)), items)
        part.sure, part.full = True, all(i.sure for i in items)
        return part

    def _unary(self, n: ast.Unary, scope: dict[str, Type], loc: Locate) -> Part:
        operand = self._expr(n.operand, scope, loc)
        if n.op == "not":
            operand = self.test(operand, n.operand, loc)
        else:
            if operand.type.kind in ("card", "seat"):
                raise ExpressionError(f"'-' needs a number, and a {operand.type.kind} is not one; use an "
                                      "attribute, e.g. -card.number", loc(n.offset))
            if check.kind(operand.type, n.operand) not in (None, "number"):
                raise ExpressionError(f"'-' needs a number, found {check.noun(operand.type, n.operand)}",
                                      loc(n.offset))
        part = Part("not" if n.op == "not" else "neg", TRUTH if n.op == "not" else NUMBER, operand.deps, (operand,))
        part.sure = True  # true or false; a whole number (or an error)
        return self._fold(part, n, loc)

    def _binary(self, n: ast.Binary, scope: dict[str, Type], loc: Locate) -> Part:
        left = self._expr(n.left, scope, loc)
        skipped = left.const and n.op in ("and", "or") and bool(left.value) == (n.op == "or")
        right = self._maybe_skipped(n.right, scope, loc, skipped)
        op = n.op
        if op in ("and", "or"):
            left, right = self.test(left, n.left, loc), self.test(right, n.right, loc)
            left, right = remember(left, n.left, scope), remember(right, n.right, scope)
        deps = left.deps | right.deps
        parts = (left, right)
        if op in ("and", "or"):
            if left.const:  # a constant left side decides (false and ..., true or ...) or gives way to the right
                return constant(left.value, left.type) if skipped else right
            return self._fold(Part("infix", TRUTH, deps, parts, op), n, loc)
        if op in ("in", "not in"):
            if right.type.kind != "list":
                raise ExpressionError(f"'{op}' needs a list on its right, found a {right.type}", loc(n.offset))
            if right.type.element is not None:
                why = check.unequal(left.type, right.type.element, n.left)
                if why is not None:
                    raise ExpressionError(f"'{op}' looks for {check.noun(left.type, n.left)} in "
                                          f"{check.noun(right.type)}: {why or 'no item can be equal to it'}",
                                          loc(n.offset))
            if left.attr is not None and isinstance(n.right, ast.ListExpr):  # card.colour in ['red', 'blue']
                self._check_card_values(left.attr, n.right.items, loc)
            if right.const and not left.const:  # a list written in the rule: its length is no work to count
                return Part("infix", TRUTH, deps, parts, op)
            return self._fold(Part("call", TRUTH, deps, parts, (contains, False, op == "not in")), n, loc)
        if op in ("==", "!="):
            check.comparable(left.type, right.type, n, loc)
            why = check.unequal(left.type, right.type, n.left, n.right)
            if why is not None:
                a, b = check.noun(left.type, n.left), check.noun(right.type, n.right)
                raise ExpressionError(f"comparing {a} with {b}: {why}" if why else
                                      f"comparing {a} with {b} is always false", loc(n.offset))
            for part, other in ((left, n.right), (right, n.left)):  # card.colour == 'red'
                if part.attr is not None:
                    self._check_card_values(part.attr, (other,), loc)
            ids = ("seat", "card")
            if left.type.kind in ids and (right.type.kind in ids or right.type.literal_none) \
                    or left.scalar or right.scalar:  # seats and cards are numbers inside (or none): a plain ==
                return self._fold(Part("infix", TRUTH, deps, parts, op), n, loc)
        for side, t in ((n.left, left.type), (n.right, right.type)) if op not in ("==", "!=") else ():
            if t.kind in ("card", "seat"):  # numbers inside, but their order and sums mean nothing
                hint = "card.number < led.number" if t.kind == "card" else "seat.index + 1"
                raise ExpressionError(f"'{op}' needs numbers, and a {t.kind} is not one; use an attribute, "
                                      f"e.g. {hint}", loc(side.offset))
        if op in check.ORDER and check.unordered(left.type, right.type, n.left, n.right):
            raise ExpressionError(f"'{op}' needs two numbers or two texts, found {check.noun(left.type, n.left)} "
                                  f"and {check.noun(right.type, n.right)}", loc(n.offset))
        if op in check.ARITHMETIC and check.no_sum(op, left.type, right.type, n.left, n.right):
            needs = "adds two numbers or joins two texts or two lists" if op == "+" else "needs two numbers"
            raise ExpressionError(f"'{op}' {needs}, found {check.noun(left.type, n.left)} and "
                                  f"{check.noun(right.type, n.right)}", loc(n.offset))
        # two lists joined; or a list and a value not typed yet (a seat value read while the steps' types are still
        # being worked out, which is a list once they are): the list's type
        lists = op == "+" and (left.type.kind == "list" or left.type.literal_none) \
            and (right.type.kind == "list" or right.type.literal_none)
        rtype = join(left.type, right.type) if lists else TRUTH if op in COMPARISONS else NUMBER if op != "+" \
            else NUMBER if NUMBER in (left.type, right.type) else TEXT if TEXT in (left.type, right.type) else VALUE
        if right.const and not left.const and op in COMPARISONS and not isinstance(right.value, (list, tuple)):
            return Part("infix", rtype, deps, parts, op)  # x == 0: a constant that is not a list needs no helper
        if op in COMPARISONS and (_never_a_list(left) or op in check.ORDER and _never_a_list(right)):
            # the helpers (runtime.same, runtime._ordering) treat a list apart, and charge it, only on their left (an
            # order: when both sides are): with one side that is never a list they are Python's own operator
            return self._fold(Part("infix", rtype, deps, parts, op), n, loc)
        part = _arithmetic(op, rtype, deps, left, right)
        return part if right.const and not left.const else self._fold(part, n, loc)

    def _conditional(self, n: ast.Conditional, scope: dict[str, Type], loc: Locate) -> Part:
        test = self.test(self._expr(n.test, scope, loc), n.test, loc)
        then = self._maybe_skipped(n.then, scope, loc, test.const and not test.value)
        other = self._maybe_skipped(n.otherwise, scope, loc, test.const and bool(test.value))
        test, then, other = (remember(r, x, scope) for r, x in
                             ((test, n.test), (then, n.then), (other, n.otherwise)))
        if test.const:
            return then if test.value else other
        part = Part("if", join(then.type, other.type), test.deps | then.deps | other.deps, (test, then, other))
        part.sure, part.full = then.sure and other.sure, then.full and other.full
        return part

    def _comprehension(self, n: ast.Comprehension, scope: dict[str, Type], loc: Locate) -> Part:
        source = self._expr(n.source, scope, loc)
        if source.type.kind != "list":
            raise ExpressionError(f"'for ... in' needs a list, found a {source.type}", loc(n.source.offset))
        inner = dict(scope)
        inner[n.var] = source.type.element or VALUE
        # the variable hides a bound name of the same name: inside, that name changes from item to item
        invariant_, sure = self._invariant, self._sure
        if invariant_ is not None:
            self._invariant = invariant_ - {"ctx:" + n.var}
        # never none when no item of the list is (the source's own mistakes, none for a list, fail before)
        self._sure = sure | {n.var} if source.full else sure - {n.var}
        try:
            body = self._expr(n.body, inner, loc)
            cond = self._expr(n.condition, inner, loc) if n.condition is not None else None
        finally:
            self._invariant, self._sure = invariant_, sure
        if cond is not None:
            assert n.condition is not None, "cond is the condition checked"
            cond = self.test(cond, n.condition, loc)
        if n.function in _TRUTH_BUILTINS:
            body = self.test(body, n.body, loc, f"{n.function}() tests each item, and ")
        deps = source.deps | without(body.deps | (cond.deps if cond else frozenset()), (n.var,))
        if n.function is None:
            part = Part("for", list_of(body.type), deps, (source,), (n.var, body, cond, None))
            part.sure, part.full = True, body.sure
            return self._fold(part, n, loc)
        builtin = REGISTRY.get(n.function)
        if builtin is None or n.function not in _LIST_BUILTINS:
            raise ExpressionError(f"{n.function!r} cannot take a 'for' expression "
                                  f"(try {', '.join(_LIST_BUILTINS)})", loc(n.offset))
        check.check_args(builtin, [list_of(body.type)], (n,), loc)
        rtype = builtin.result([list_of(body.type)])
        part = Part("for", rtype, deps, (source,), (n.var, body, cond, builtin.impl))
        part.sure = builtin.sure
        return self._fold(part, n, loc)

    # ------------------------------------------------------------------ calls

    def _call(self, n: ast.Call, scope: dict[str, Type], loc: Locate) -> Part:
        args = tuple(self._expr(a, scope, loc) for a in n.args)
        if n.name in self.g.defines:
            return self._defines.call(self.g.defines[n.name], args, n, loc)
        builtin = REGISTRY.get(n.name)
        if builtin is None:
            known = sorted(set(REGISTRY) | set(self.g.defines))
            raise ExpressionError(f"unknown function {n.name!r}{check.suggest(n.name, known)}", loc(n.offset))
        if len(args) < builtin.min_args or (builtin.max_args is not None and len(args) > builtin.max_args):
            want = str(builtin.min_args) if builtin.min_args == builtin.max_args else f"at least {builtin.min_args}"
            raise ExpressionError(f"{n.name}() takes {want} argument(s), got {len(args)}", loc(n.offset))
        if n.name in _TRUTH_BUILTINS:
            args = (self._tests(args[0], n.args[0], loc, f"{n.name}() tests each item, and "),) + args[1:]
        check.check_args(builtin, [a.type for a in args], n.args, loc)
        rtype = builtin.result([a.type for a in args])
        deps = frozenset().union(*(a.deps for a in args)) if args else frozenset()
        if builtin.needs_state:  # reads the game: never folded
            part = Part("call", rtype, deps | {"state"}, args, (builtin.impl, True, False))
            part.sure, part.full = builtin.sure, builtin.full
            return part
        part = Part("call", rtype, deps, args, (builtin.impl, False, False))
        part.sure, part.full = builtin.sure, builtin.full
        return self._fold(part, n, loc)


class DefineCalls:
    """The calls of defines that one resolver checks: a define's body is checked once for each kind of arguments
    (its signature) and kept; the calls a define makes are counted, so that defines calling each other several
    times cannot multiply without bound."""

    def __init__(self, resolver: Resolver):
        self.resolver = resolver

    def call(self, d: Define, args: tuple[Part, ...], n: ast.Call, loc: Locate) -> Part:
        """The call of ``d`` with ``args``: its body for their kinds (checked the first time), the names it reads."""
        r = self.resolver
        if len(args) != len(d.params):
            raise ExpressionError(f"{d.name}() takes {len(d.params)} argument(s), got {len(args)}", loc(n.offset))
        # checked once for each kind of arguments (card, seat, list, record, value): not once more for a number
        # and once for text, so a parameter is a value of any kind inside (checked while playing)
        sig = tuple(unrefined(a.type) for a in args)
        body = d.compiled.get(sig)
        if body is None:
            body = d.compiled[sig] = self._body(d, sig, n, loc)
        # a define calling another twice, which calls another twice...: 2**n calls for one; refused here
        r._calls += 1 + body.calls
        if r._calls > MAX_CALLS:
            raise ExpressionError(f"one evaluation here calls defines more than {MAX_CALLS:,} times ({d.name}() "
                                  f"alone makes {body.calls:,} calls); defines that call others several "
                                  "times multiply", loc(n.offset))
        deps = body.deps
        for a, node, (bare, attrs) in zip(args, n.args, body.reads, strict=True):
            arg_deps = a.deps
            if isinstance(node, ast.Name) and not bare and "bare:" + node.name in arg_deps:  # suit(led)
                arg_deps = (arg_deps - {"bare:" + node.name}) | {f"attr:{node.name}.{x}" for x in attrs}
            deps = deps | arg_deps
        part = Part("define", body.part.type, deps, args, (d, sig, body))
        return r._fold(part, n, loc, always=not args)

    def _body(self, d: Define, sig: tuple[Type, ...], n: ast.Call, loc: Locate) -> DefineBody:
        """The body of ``d`` checked for arguments of the kinds ``sig``, as a fresh expression of its own (a
        parameter may be none whoever calls it), and the calls it makes."""
        r = self.resolver
        if d.compiling:
            raise ExpressionError(f"{d.name}() calls itself (directly or through other defines); "
                                  "recursion is not allowed", loc(n.offset))
        if len(d.compiled) >= MAX_SIGNATURES:  # each kind of arguments checks the body again
            raise ExpressionError(f"{d.name}() is called with more than {MAX_SIGNATURES} kinds of arguments (each "
                                  "compiles it again)", loc(n.offset))
        if d.tree is None:
            d.tree = parse_checked(d.text, d.locate)
        keys = {p: f"{d.name}.{p}" for p in d.params}  # parameters under private names, so they cannot clash
        saved = r._unreached, r._invariant, r._sure, r._calls
        # a parameter may be none; the body is the same whoever calls it
        d.compiling, r._unreached, r._invariant, r._sure, r._calls = True, 0, None, frozenset(), 0
        try:
            inner = {keys[p]: t for p, t in zip(d.params, sig, strict=True)}
            tree = _rename(d.tree, keys)
            # a body that reads only cards given to it (and constants) is remembered per card: card attributes never
            # change (passes.remember)
            part = remember(r._expr(tree, inner, d.locate), tree, inner)
            calls = r._calls
        finally:
            d.compiling = False
            r._unreached, r._invariant, r._sure, r._calls = saved
        # how the body reads each parameter: a call passing a card reads what the body reads of it
        reads = [(f"bare:{k}" in part.deps, {u[len(k) + 6:] for u in part.deps if u.startswith(f"attr:{k}.")})
                 for k in inner]
        return DefineBody(part, tuple(inner), without(part.deps, inner), reads, calls)


def _arithmetic(op: str, rtype: Type, deps: frozenset[str], left: Part, right: Part) -> Part:
    """``left OP right`` for an operator Python's own does not write alike in every case (runtime.BINARY), written
    as Python's own where the types make them alike:

    * ``+`` and ``-`` of two numbers: the helpers' meaning is Python's, but for the bound on numbers (kept, see
      emit.py), whatever they are at play (a number not set yet fails alike: Python's message is theirs);
    * ``*`` of two numbers never none (the helper names what it was given);
    * ``+`` of two lists never none joins them (runtime.joined: the list's size charged and bounded, as ever).

    Whatever its operands, an arithmetic result is a whole number (or an error); two lists joined, a list."""
    numbers = all(p.type.kind == "value" and p.type.plain == "number" for p in (left, right))
    if op in ("+", "-") and numbers or op == "*" and numbers and left.sure and right.sure:
        part = Part("arith", NUMBER, deps, (left, right), op)
    elif op == "+" and left.sure and right.sure and left.type.kind == right.type.kind == "list":
        part = Part("call", rtype, deps, (left, right), (joined, False, False))
        part.sure, part.full = True, left.full and right.full
        return part
    else:
        part = Part("call", rtype, deps, (left, right), (BINARY[op], False, False))
    part.sure = op in ("+", "-", "*") and rtype == NUMBER
    return part


def _never_a_list(part: Part) -> bool:
    """Whether the checker proves ``part`` is never a list at play: a number, a text, true or false (or none), a
    card or a seat (a number inside, or none), a card attribute none of whose values is a list."""
    t = part.type
    return part.scalar or t.kind in ("card", "seat") or t.kind == "value" and (bool(t.plain) or t.literal_none)


def _round_field(g: Globals, n: ast.Attribute, group: str, loc: Locate) -> Part:
    """``round.NAME`` or ``game.NAME`` (``group``)."""
    name = n.name
    fields = g.round_fields if group == "round" else g.game_fields
    ftype = fields.get(name)
    if ftype is None:
        known = ", ".join(sorted(fields)) or "none"
        raise ExpressionError(f"unknown {group} value {name!r} (known: {known})", loc(n.name_offset))
    return Part(group, ftype, frozenset({"state" if group == "game" else "round:" + name}), data=name)


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


def _declare_hint(base: ast.Node, t: Type) -> str:
    """For an attribute of a round or game value whose kind the engine cannot tell (one that starts as none, or an
    item of a list that starts empty): the hint to declare it in ``types:``."""
    if t.kind != "value" or t.plain is not None and not t.literal_none:
        return ""
    kind = "seat"
    while isinstance(base, ast.Index):
        base, kind = base.base, f"list of {kind}s"
    if isinstance(base, ast.Attribute) and isinstance(base.base, ast.Name) and base.base.name in ("round", "game"):
        group = base.base.name
        return (f"; {group}.{base.name} starts as none or an empty list, so its kind is not known: declare it in "
                f"types:, e.g. types: {{{group}: {{{base.name}: {kind}}}}}")
    return ""

