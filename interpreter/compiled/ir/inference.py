"""The types of a function's names and of what it returns, worked out from the types it is called with: each name
holds one type (numbers and floats assigned to one name: a float), repeated over the body until nothing changes."""

from __future__ import annotations

import ast
from typing import Any

from interpreter.compiled.ir.types import BOOL, FLT, INT, SCALAR, VOID, Arr, SubsetError, Tup, Type, passed, unify

FLOAT_CALLS = {"np.random.random": FLT, "np.sqrt": FLT, "np.log": FLT, "np.random.seed": VOID}
_ROUNDS = 20  # (a function's names settle in two or three passes)


class Inference:
    """The types of one function's names (``names``) and its result (``result``)."""

    module: Any  # (module.py's ModuleIR: the functions' module)
    node: ast.FunctionDef
    names: dict[str, Type]
    result: Type | None
    callees: set[Any]

    def infer(self) -> None:
        for _ in range(_ROUNDS):
            before = (dict(self.names), self.result)
            self._body_types(self.node.body)
            if (self.names, self.result) == before:
                break
        if self.result is None:
            self.result = VOID

    def _set(self, name: str, t: Type | None) -> None:
        if t is None:
            return
        old = self.names.get(name)
        if isinstance(t, Arr) or isinstance(old, Arr) or isinstance(t, Tup):
            if old is not None and old != t:
                raise SubsetError(f"{self.node.name}: {name} is {old} and {t}")
            self.names[name] = t
        else:
            self.names[name] = unify(old, t)  # type: ignore[assignment]

    def _body_types(self, body: list[ast.stmt]) -> None:
        for s in body:
            if isinstance(s, ast.Assign):
                self._assigned(s)
            elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
                self._set(s.target.id, arithmetic(s.op, self.names.get(s.target.id), self.type_of(s.value)))
            elif isinstance(s, ast.For):
                self._set(_name(s.target), INT)
                self._body_types(s.body)
            elif isinstance(s, (ast.While, ast.If)):
                self._body_types(s.body)
                self._body_types(s.orelse)
            elif isinstance(s, ast.Return) and s.value is not None:
                t = self.type_of(s.value)
                if t is not None:
                    self.result = unify(self.result, passed(t))

    def _assigned(self, s: ast.Assign) -> None:
        t = self.type_of(s.value)
        for target in s.targets:
            if isinstance(target, ast.Name):
                self._set(target.id, t)
            elif isinstance(target, ast.Tuple):
                if isinstance(s.value, ast.Tuple):
                    for e, v in zip(target.elts, s.value.elts):
                        self._set(_name(e), self.type_of(v))
                elif isinstance(t, Tup):
                    for e, x in zip(target.elts, t.items):
                        self._set(_name(e), x)

    def type_of(self, e: ast.expr) -> Type | None:
        """``e``'s type (None while a name it reads has none yet)."""
        if isinstance(e, ast.Constant):
            v = e.value
            return BOOL if isinstance(v, bool) else INT if isinstance(v, int) else FLT if isinstance(v, float) else None
        if isinstance(e, ast.Name):
            return self.names[e.id] if e.id in self.names else self.module.global_type(e.id)
        if isinstance(e, ast.BinOp):
            return arithmetic(e.op, self.type_of(e.left), self.type_of(e.right))
        if isinstance(e, ast.UnaryOp):
            t = self.type_of(e.operand)
            return BOOL if isinstance(e.op, ast.Not) else FLT if t == FLT else None if t is None else INT
        if isinstance(e, ast.Compare):
            return BOOL
        if isinstance(e, (ast.BoolOp, ast.IfExp)):
            parts = e.values if isinstance(e, ast.BoolOp) else [e.body, e.orelse]
            types = [self.type_of(v) for v in parts]
            if None in types:
                return None
            found: Type | None = None
            for t in types:
                found = unify(found, t)
            return found
        if isinstance(e, ast.Tuple):
            items = [self.type_of(x) for x in e.elts]
            return None if None in items else Tup(tuple(passed(t) for t in items))  # type: ignore[arg-type]
        if isinstance(e, ast.Subscript):
            return self._item_type(e)
        if isinstance(e, ast.Call):
            return self._call_type(e)
        raise SubsetError(f"{self.node.name}: {ast.unparse(e)[:60]}")

    def _item_type(self, e: ast.Subscript) -> Type | None:
        if isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
            return INT
        base = self.type_of(e.value)
        if base is None:
            return None
        if isinstance(base, Tup):
            return base.items[_constant(e.slice)]
        if not isinstance(base, Arr):
            raise SubsetError(f"{self.node.name}: {ast.unparse(e)} indexes a {base}")
        if isinstance(e.slice, ast.Slice):
            return base
        k = len(e.slice.elts) if isinstance(e.slice, ast.Tuple) else 1
        return SCALAR[base.item] if base.ndim == k else Arr(base.ndim - k, base.item)

    def _call_type(self, e: ast.Call) -> Type | None:
        f = e.func
        if isinstance(f, ast.Attribute):
            name = ast.unparse(f)
            if name not in FLOAT_CALLS:
                raise SubsetError(f"{self.node.name}: a call of {name}")
            return FLOAT_CALLS[name]
        name = _name(f)
        if name in ("len", "address", "int"):
            return INT
        if name in ("max", "min", "abs"):
            found: Type | None = None
            for a in e.args:
                t = self.type_of(a)
                if t is None:
                    return None
                found = unify(found, t)
            return passed(found) if found is not None and name != "abs" else found
        if name in self.module.views:
            return Arr(len(self.module.views[name]))
        if name in self.module.defs:
            args = [self.type_of(a) for a in e.args]
            if None in args:
                return None
            fn = self.module.function(name, tuple(passed(t) for t in args))  # type: ignore[arg-type]
            self.callees.add(fn)
            return fn.result
        raise SubsetError(f"{self.node.name}: a call of {name}")


def arithmetic(op: ast.operator, a: Type | None, b: Type | None) -> Type | None:
    """The type of ``a op b``."""
    if a is None or b is None:
        return None
    if isinstance(op, ast.Div) or FLT in (a, b):
        return FLT
    if a == BOOL and b == BOOL and isinstance(op, (ast.BitAnd, ast.BitOr, ast.BitXor)):
        return BOOL
    return INT


def _name(e: Any) -> str:
    if not isinstance(e, ast.Name):
        raise SubsetError(f"{ast.unparse(e)[:60]}: a name is wanted")
    return e.id


def _constant(e: ast.expr) -> int:
    if not (isinstance(e, ast.Constant) and isinstance(e.value, int)):
        raise SubsetError(f"{ast.unparse(e)[:60]}: a returned tuple is read by a constant index only")
    return e.value
