"""Writing an expression of the subset: constants, names (a function's own, the module's tables and numbers),
arithmetic as Python does it (``//`` and ``%`` rounding down, ``/`` a float), comparisons (chained), ``and``/``or``
and ``if``-``else`` (only what is needed evaluated), returned tuples, and an array's items, rows and slices."""

from __future__ import annotations

import ast
from typing import Any

from interpreter.compiled.ir.types import BOOL, FLT, INT, LL, Arr, ArrayValue, SubsetError, Tup, Type, fconst, lltype
from interpreter.compiled.ir.writer import Writer

_INT_OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor",
            ast.LShift: "shl", ast.RShift: "ashr"}
_FLT_OPS = {ast.Add: "fadd", ast.Sub: "fsub", ast.Mult: "fmul", ast.Div: "fdiv"}
_INT_CMP = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "slt", ast.LtE: "sle", ast.Gt: "sgt", ast.GtE: "sge"}
_FLT_CMP = {ast.Eq: "oeq", ast.NotEq: "une", ast.Lt: "olt", ast.LtE: "ole", ast.Gt: "ogt", ast.GtE: "oge"}
Value = tuple[Any, Any]  # (its type, its operand: an ArrayValue for an array)


class Expressions(Writer):
    """The expressions of one function (its names' types: ``names``)."""

    names: dict[str, Type]
    module: Any
    node: ast.FunctionDef

    def type_of(self, e: ast.expr) -> Type | None:
        raise NotImplementedError

    def call(self, e: ast.Call) -> Value:
        raise NotImplementedError

    def number(self, e: ast.expr) -> str:
        t, v = self.expr(e)
        return self.conv(t, INT, v)

    def truth(self, e: ast.expr) -> str:
        t, v = self.expr(e)
        return self.conv(t, BOOL, v)

    def read(self, name: str) -> Value:
        t = self.names[name]
        if isinstance(t, Arr):
            ptr = self.op(f"load {LL[t.item]}*, {LL[t.item]}** %v_{name}")
            return t, ArrayValue(ptr, [self.op(f"load i64, i64* %v_{name}_d{k}") for k in range(t.ndim)], t.item)
        return t, self.op(f"load {lltype(t)}, {lltype(t)}* %v_{name}")

    def expr(self, e: ast.expr) -> Value:
        if isinstance(e, ast.Constant):
            return _constant(e.value)
        if isinstance(e, ast.Name):
            return self.read(e.id) if e.id in self.names else self.module.global_value(self, e.id)
        if isinstance(e, ast.BinOp):
            return self.arithmetic(e.op, self.expr(e.left), self.expr(e.right))
        if isinstance(e, ast.UnaryOp):
            return self.unary(e)
        if isinstance(e, ast.Compare):
            return self.compare(e)
        if isinstance(e, (ast.BoolOp, ast.IfExp)):
            return self.choice(e)
        if isinstance(e, ast.Tuple):
            t = self.type_of(e)
            assert isinstance(t, Tup)
            cur = "undef"
            for i, x in enumerate(e.elts):
                xt, xv = self.expr(x)
                cur = self.op(f"insertvalue {lltype(t)} {cur}, {t.items[i]} {self.conv(xt, t.items[i], xv)}, {i}")
            return t, cur
        if isinstance(e, ast.Subscript):
            return self.subscript(e)
        if isinstance(e, ast.Call):
            return self.call(e)
        raise SubsetError(f"{self.node.name}: {ast.unparse(e)[:60]}")

    def unary(self, e: ast.UnaryOp) -> Value:
        t, v = self.expr(e.operand)
        if isinstance(e.op, ast.Not):
            return BOOL, self.op(f"xor i1 {self.conv(t, BOOL, v)}, 1")
        if isinstance(e.op, ast.UAdd):
            return t, v
        if t == FLT and isinstance(e.op, ast.USub):
            return FLT, self.op(f"fneg double {v}")
        v = self.conv(t, INT, v)
        if v.lstrip("-").isdigit():  # (a constant: ``range(n, -1, -1)``'s step stays one)
            return INT, str(-int(v) if isinstance(e.op, ast.USub) else ~int(v))
        return INT, self.op(f"sub i64 0, {v}" if isinstance(e.op, ast.USub) else f"xor i64 {v}, -1")

    def arithmetic(self, op: ast.operator, a: Value, b: Value) -> Value:
        (ta, va), (tb, vb) = a, b
        if isinstance(op, ast.Div) or FLT in (ta, tb):
            if type(op) not in _FLT_OPS:
                raise SubsetError(f"{self.node.name}: {type(op).__name__} of floats")
            if isinstance(op, ast.Div):
                self.nonzero(vb, tb)  # (as written: a constant divisor needs no check)
            va, vb = self.conv(ta, FLT, va), self.conv(tb, FLT, vb)
            return FLT, self.op(f"{_FLT_OPS[type(op)]} double {va}, {vb}")
        if ta == BOOL and tb == BOOL and isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
            return BOOL, self.op(f"{_INT_OPS[type(op)]} i1 {va}, {vb}")
        va, vb = self.conv(ta, INT, va), self.conv(tb, INT, vb)
        if type(op) in _INT_OPS:
            return INT, self.op(f"{_INT_OPS[type(op)]} i64 {va}, {vb}")
        if not isinstance(op, (ast.Mod, ast.FloorDiv)):
            raise SubsetError(f"{self.node.name}: {type(op).__name__}")
        self.nonzero(vb, INT)
        r = self.op(f"srem i64 {va}, {vb}")  # (rounded towards zero; Python rounds down: one less where signs differ)
        signs = self.op(f"xor i64 {r}, {vb}")
        differ = self.op(f"icmp slt i64 {signs}, 0")
        fix = self.op(f"and i1 {differ}, {self.op(f'icmp ne i64 {r}, 0')}")
        if isinstance(op, ast.Mod):
            return INT, self.op(f"select i1 {fix}, i64 {self.op(f'add i64 {r}, {vb}')}, i64 {r}")
        q = self.op(f"sdiv i64 {va}, {vb}")
        return INT, self.op(f"select i1 {fix}, i64 {self.op(f'sub i64 {q}, 1')}, i64 {q}")

    def nonzero(self, v: str, t: str) -> None:
        raise NotImplementedError

    def compare(self, e: ast.Compare) -> Value:
        left = self.expr(e.left)
        if len(e.ops) == 1:
            return BOOL, self.comparison(e.ops[0], left, self.expr(e.comparators[0]))
        end, incoming = self.label(), []
        for k, (op, right) in enumerate(zip(e.ops, e.comparators)):
            r = self.expr(right)
            c = self.comparison(op, left, r)
            if k == len(e.ops) - 1:
                incoming.append((c, self.current()))
                self.term(f"br label %{end}")
            else:
                more = self.label()
                incoming.append(("0", self.current()))
                self.term(f"br i1 {c}, label %{more}, label %{end}")
                self.begin(more)
            left = r
        self.begin(end)
        return BOOL, self.op("phi i1 " + ", ".join(f"[{v}, %{at}]" for v, at in incoming))

    def comparison(self, op: ast.cmpop, a: Value, b: Value) -> str:
        (ta, va), (tb, vb) = a, b
        if FLT in (ta, tb):
            return self.op(f"fcmp {_FLT_CMP[type(op)]} double {self.conv(ta, FLT, va)}, {self.conv(tb, FLT, vb)}")
        if type(op) not in _INT_CMP:
            raise SubsetError(f"{self.node.name}: {type(op).__name__}")
        return self.op(f"icmp {_INT_CMP[type(op)]} i64 {self.conv(ta, INT, va)}, {self.conv(tb, INT, vb)}")

    def choice(self, e: ast.BoolOp | ast.IfExp) -> Value:
        """``a and b``, ``a or b`` (the value deciding, as Python gives it) and ``a if c else b``: each part evaluated
        only when needed."""
        rt = self.type_of(e)
        end, incoming = self.label(), []
        if isinstance(e, ast.IfExp):
            yes, no = self.label(), self.label()
            self.term(f"br i1 {self.truth(e.test)}, label %{yes}, label %{no}")
            for at, part in ((yes, e.body), (no, e.orelse)):
                self.begin(at)
                t, v = self.expr(part)
                incoming.append((self.conv(t, rt, v), self.current()))
                self.term(f"br label %{end}")
        else:
            for k, part in enumerate(e.values):
                t, v = self.expr(part)
                incoming.append((self.conv(t, rt, v), self.current()))
                if k == len(e.values) - 1:
                    self.term(f"br label %{end}")
                    break
                more, c = self.label(), self.conv(t, BOOL, v)
                self.term(f"br i1 {c}, label %{more}, label %{end}" if isinstance(e.op, ast.And)
                          else f"br i1 {c}, label %{end}, label %{more}")
                self.begin(more)
        self.begin(end)
        assert rt is not None
        return rt, self.op(f"phi {lltype(rt)} " + ", ".join(f"[{v}, %{at}]" for v, at in incoming))

    def subscript(self, e: ast.Subscript) -> Value:
        if isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
            _, av = self.expr(e.value.value)
            return INT, av.dims[_index(e.slice)]
        t, av = self.expr(e.value)
        if isinstance(t, Tup):
            k = _index(e.slice)
            return t.items[k], self.op(f"extractvalue {lltype(t)} {av}, {k}")
        if isinstance(e.slice, ast.Slice):
            return t, self.sliced(av, e.slice)
        at, rest = self.element(av, self.indexes(e.slice))
        if not rest:
            return self.load_item(at, av.item)
        return Arr(len(rest), av.item), ArrayValue(at, rest, av.item)

    def indexes(self, index: ast.expr) -> list[str]:
        return [self.number(i) for i in (index.elts if isinstance(index, ast.Tuple) else [index])]

    def sliced(self, av: ArrayValue, part: ast.Slice) -> ArrayValue:
        """``av[lower:upper]``: a view of its rows (no copy), its bounds taken as Python takes them."""
        if part.step is not None:
            raise SubsetError(f"{self.node.name}: a slice's step")
        size = av.dims[0]
        lower = self.clamped(self.number(part.lower), size) if part.lower is not None else "0"
        upper = self.clamped(self.number(part.upper), size) if part.upper is not None else size
        n = self.op(f"sub i64 {upper}, {lower}")
        n = self.op(f"select i1 {self.op(f'icmp slt i64 {n}, 0')}, i64 0, i64 {n}")
        offset = self.op(f"mul i64 {lower}, {self.stride(av.dims, 0)}")
        return ArrayValue(self.op(f"getelementptr inbounds {LL[av.item]}, {LL[av.item]}* {av.ptr}, i64 {offset}"),
                          [n, *av.dims[1:]], av.item)


def _constant(v: Any) -> Value:
    if isinstance(v, bool):
        return BOOL, "1" if v else "0"
    if isinstance(v, int):
        return INT, str(v)
    if isinstance(v, float):
        return FLT, fconst(v)
    raise SubsetError(f"the constant {v!r}")


def _index(e: ast.expr) -> int:
    if not (isinstance(e, ast.Constant) and isinstance(e.value, int)):
        raise SubsetError(f"{ast.unparse(e)[:60]}: a constant index is wanted")
    return e.value
