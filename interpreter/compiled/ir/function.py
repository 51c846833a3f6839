"""One function of the module written as an LLVM function for the types it is called with: its names' types
worked out (inference.py), each name a variable of its function (an array: its pointer and its sizes), then its
statements: assignments (to names, items, slices, several names from a tuple), ``if``, ``while``, ``for`` over a
``range``, ``break``, ``continue``, ``return`` and ``raise``."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from interpreter.compiled.ir.calls import Calls
from interpreter.compiled.ir.inference import Inference
from interpreter.compiled.ir.types import INT, LL, VOID, Arr, SubsetError, Type, lltype


class Function(Inference, Calls):
    """``node`` written for the argument types ``params`` as the LLVM function ``symbol``."""

    def __init__(self, module: Any, node: ast.FunctionDef, params: tuple[Type, ...], symbol: str):
        self.module, self.node, self.params, self.symbol = module, node, params, symbol
        self.args = [a.arg for a in node.args.args]
        if len(self.args) != len(params):
            raise SubsetError(f"{node.name} takes {len(self.args)} arguments, not {len(params)}")
        self.names: dict[str, Type] = dict(zip(self.args, params))
        self.result: Type | None = None
        self.failing = False  # (settled once its names' types are: ``settle``)
        self.callees: set[Any] = set()  # (the functions it calls, as inference finds them)
        self.counter = module.counter
        self.lines, self.allocas, self.dead = [], [], False
        self.loops: list[tuple[str, str]] = []  # (where ``continue`` goes, where ``break`` goes)

    def settle(self) -> None:
        """Whether a call of it may fail: it raises, divides by a number not written as a constant, or calls a
        function that may fail (the writer checks at each such place that this was known)."""
        self.callees = set()
        for c in ast.walk(self.node):  # (every call of the module's functions typed, its names' types settled)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in self.module.defs:
                self.type_of(c)
        self.failing = may_fail(self.node) or any(c.failing for c in self.callees)

    def write(self) -> str:
        """The function's LLVM IR."""
        params, first = [], []
        for n, t in self.names.items():
            if isinstance(t, Arr):
                first.append(f"  %v_{n} = alloca {LL[t.item]}*")
                first += [f"  %v_{n}_d{k} = alloca i64" for k in range(t.ndim)]
            else:
                first.append(f"  %v_{n} = alloca {lltype(t)}")
        for n, t in zip(self.args, self.params):
            if isinstance(t, Arr):
                params += [f"{LL[t.item]}* %a_{n}", *(f"i64 %a_{n}_d{k}" for k in range(t.ndim))]
                first.append(f"  store {LL[t.item]}* %a_{n}, {LL[t.item]}** %v_{n}")
                first += [f"  store i64 %a_{n}_d{k}, i64* %v_{n}_d{k}" for k in range(t.ndim)]
            else:
                params.append(f"{lltype(t)} %a_{n}")
                first.append(f"  store {lltype(t)} %a_{n}, {lltype(t)}* %v_{n}")
        self.body(self.node.body)
        self.leave()
        marks = "nounwind alwaysinline" if self.node.name in self.module.inlined else "nounwind noinline"
        return (f"define internal {self.returned_type()} @{self.symbol}({', '.join(params)}) {marks} {{\nentry:\n"
                + "\n".join(first + self.allocas + self.lines) + "\n}\n")

    def body(self, statements: list[ast.stmt]) -> None:
        for s in statements:
            try:
                self._STATEMENTS[type(s)](self, s)
            except KeyError:
                raise SubsetError(f"{self.node.name}: the statement {ast.unparse(s)[:60]}") from None

    def assign(self, s: ast.Assign) -> None:
        target = s.targets[0]
        if len(s.targets) == 1 and isinstance(target, ast.Tuple):
            if isinstance(s.value, ast.Tuple):  # (every value first: ``a, b = b, a``)
                for e, (t, v) in list(zip(target.elts, [self.expr(v) for v in s.value.elts])):
                    self.assign_name(e, t, v)
                return
            t, v = self.expr(s.value)
            for i, e in enumerate(target.elts):
                self.assign_name(e, t.items[i], self.op(f"extractvalue {lltype(t)} {v}, {i}"))
            return
        t, v = self.expr(s.value)
        for target in s.targets:
            if isinstance(target, ast.Subscript):
                self.assign_item(target, t, v)
            else:
                self.assign_name(target, t, v)

    def assign_name(self, target: ast.expr, t: Type, v: Any) -> None:
        if not isinstance(target, ast.Name):
            raise SubsetError(f"{self.node.name}: an assignment to {ast.unparse(target)}")
        name, nt = target.id, self.names[target.id]
        if isinstance(nt, Arr):
            self.put(f"store {LL[nt.item]}* {v.ptr}, {LL[nt.item]}** %v_{name}")
            for k, d in enumerate(v.dims):
                self.put(f"store i64 {d}, i64* %v_{name}_d{k}")
        else:
            self.put(f"store {lltype(nt)} {self.conv(t, nt, v)}, {lltype(nt)}* %v_{name}")

    def assign_item(self, target: ast.Subscript, t: Type, v: Any) -> None:
        _, av = self.expr(target.value)
        if isinstance(target.slice, ast.Slice):  # (every item of the slice set to one value)
            view = self.sliced(av, target.slice)
            i = self.slot()
            self.put(f"store i64 0, i64* {i}")
            item = LL[view.item]
            self.loop(i, view.dims[0], "1", lambda at: self.store_item(
                self.op(f"getelementptr inbounds {item}, {item}* {view.ptr}, i64 {at}"), view.item, t, v))
            return
        at, rest = self.element(av, self.indexes(target.slice))
        if rest:
            raise SubsetError(f"{self.node.name}: a row assigned: {ast.unparse(target)}")
        self.store_item(at, av.item, t, v)

    def augmented(self, s: ast.AugAssign) -> None:
        if isinstance(s.target, ast.Name):
            t, v = self.arithmetic(s.op, self.read(s.target.id), self.expr(s.value))
            self.assign_name(s.target, t, v)
            return
        if not isinstance(s.target, ast.Subscript):
            raise SubsetError(f"{self.node.name}: {ast.unparse(s)}")
        _, av = self.expr(s.target.value)
        at, _ = self.element(av, self.indexes(s.target.slice))
        t, v = self.arithmetic(s.op, self.load_item(at, av.item), self.expr(s.value))
        self.store_item(at, av.item, t, v)

    def returned(self, s: ast.Return) -> None:
        if s.value is None or self.result == VOID:
            if s.value is not None:
                self.expr(s.value)
            self.leave()
            return
        t, v = self.expr(s.value)
        self.give(self.conv(t, self.result, v))

    def branch(self, s: ast.If) -> None:
        yes, no, end = self.label(), self.label(), self.label()
        self.term(f"br i1 {self.truth(s.test)}, label %{yes}, label %{no}")
        self.begin(yes)
        self.body(s.body)
        self.term(f"br label %{end}")
        self.begin(no)
        self.body(s.orelse)
        self.begin(end)

    def repeat(self, s: ast.While) -> None:
        if s.orelse:
            raise SubsetError(f"{self.node.name}: a while loop's else")
        head, inside, end = self.label(), self.label(), self.label()
        self.begin(head)
        self.term(f"br i1 {self.truth(s.test)}, label %{inside}, label %{end}")
        self.begin(inside)
        self.loops.append((head, end))
        self.body(s.body)
        self.loops.pop()
        self.term(f"br label %{head}")
        self.begin(end)

    def counted(self, s: ast.For) -> None:
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range") or s.orelse:
            raise SubsetError(f"{self.node.name}: a for loop not over a range: {ast.unparse(it)}")
        args = [self.number(a) for a in it.args]
        start, stop, step = ("0", args[0], "1") if len(args) == 1 else (args[0], args[1], "1") if len(args) == 2 \
            else tuple(args)
        if not step.lstrip("-").isdigit() or int(step) == 0:
            raise SubsetError(f"{self.node.name}: a range's step must be a constant other than 0")
        i = self.slot()
        self.put(f"store i64 {start}, i64* {i}")

        def inside(at: str) -> None:
            self.assign_name(s.target, INT, at)
            self.body(s.body)

        self.loop(i, stop, step, inside)

    def loop(self, i: str, stop: str, step: str, inside: Callable[[str], Any]) -> None:
        """A loop of the counter ``i`` (a variable) by ``step`` (a constant) while before ``stop``."""
        head, body, latch, end = self.label(), self.label(), self.label(), self.label()
        self.begin(head)
        at = self.op(f"load i64, i64* {i}")
        within = self.op(f"icmp {'sgt' if int(step) < 0 else 'slt'} i64 {at}, {stop}")
        self.term(f"br i1 {within}, label %{body}, label %{end}")
        self.begin(body)
        self.loops.append((latch, end))
        inside(at)
        self.loops.pop()
        self.begin(latch)
        now = self.op(f"load i64, i64* {i}")
        self.put(f"store i64 {self.op(f'add i64 {now}, {step}')}, i64* {i}")
        self.term(f"br label %{head}")
        self.begin(end)

    def jump(self, s: ast.Break | ast.Continue) -> None:
        if not self.loops:
            raise SubsetError(f"{self.node.name}: {type(s).__name__.lower()} outside a loop")
        self.term(f"br label %{self.loops[-1][1 if isinstance(s, ast.Break) else 0]}")

    def raised(self, s: ast.Raise) -> None:
        e = s.exc
        if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and len(e.args) == 1
                and isinstance(e.args[0], ast.Constant) and isinstance(e.args[0].value, str)):
            raise SubsetError(f"{self.node.name}: a raise other than NAME('message')")
        self.fail(e.func.id, e.args[0].value)

    def evaluated(self, s: ast.Expr) -> None:
        if not isinstance(s.value, ast.Constant):  # (a docstring: nothing)
            self.expr(s.value)

    _STATEMENTS: dict[type, Callable[[Any, Any], None]] = {
        ast.Assign: assign, ast.AugAssign: augmented, ast.Return: returned, ast.If: branch, ast.While: repeat,
        ast.For: counted, ast.Break: jump, ast.Continue: jump, ast.Raise: raised, ast.Expr: evaluated,
        ast.Pass: lambda self, s: None}


def may_fail(node: ast.FunctionDef) -> bool:
    """Whether ``node`` raises or divides by what is not a constant other than 0 (a number it reads may be 0)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Raise):
            return True
        if isinstance(n, (ast.BinOp, ast.AugAssign)) and isinstance(n.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            by = n.right if isinstance(n, ast.BinOp) else n.value
            if not (isinstance(by, ast.Constant) and type(by.value) in (int, float) and by.value != 0):
                return True
    return False
