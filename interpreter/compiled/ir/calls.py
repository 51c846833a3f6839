"""Writing a call: of the module's functions (each written once for the types it is called with), of Python's
builtins the subset uses (``len``, ``int``, ``max``, ``min``, ``abs``), of numpy's random stream and math, of
``address`` and ``view_NAME`` (an array's data as a number, and an array of a known shape at one: pointers.py); and
the errors: a raise, or a division by zero, leaves every function up to the one Python called, which raises it."""

from __future__ import annotations

import ast

from interpreter.compiled.ir.expressions import Expressions, Value
from interpreter.compiled.ir.types import (
    BOOL,
    FLT,
    INT,
    LL,
    VOID,
    Arr,
    ArrayValue,
    SubsetError,
    Type,
    lltype,
    passed,
    unify,
)

ERROR_AT = 625  # the error's slot in the runtime state (after the random stream's: mt19937.py)


class Calls(Expressions):
    """The calls of one function."""

    def call(self, e: ast.Call) -> Value:
        f = e.func
        if isinstance(f, ast.Attribute):
            return self.numpy_call(ast.unparse(f), e.args)
        if not isinstance(f, ast.Name):
            raise SubsetError(f"{self.node.name}: a call of {ast.unparse(f)}")
        name = f.id
        if name in self.module.defs:
            return self.function_call(name, [self.expr(a) for a in e.args])
        if name in self.module.views:
            shape = self.module.views[name]
            ptr = self.op(f"inttoptr i64 {self.number(e.args[0])} to i64*")
            return Arr(len(shape)), ArrayValue(ptr, [str(d) for d in shape])
        if name in ("len", "address"):
            _, av = self.expr(e.args[0])
            return INT, av.dims[0] if name == "len" else self.op(f"ptrtoint {LL[av.item]}* {av.ptr} to i64")
        if name == "int":
            return INT, self.number(e.args[0])
        if name in ("max", "min"):
            return self.extreme(name, [self.expr(a) for a in e.args])
        if name == "abs":
            t, v = self.expr(e.args[0])
            t, v = (INT, self.conv(t, INT, v)) if t not in (INT, FLT) else (t, v)
            minus = self.op(f"fneg double {v}" if t == FLT else f"sub i64 0, {v}")
            below = self.op(f"fcmp olt double {v}, 0.0" if t == FLT else f"icmp slt i64 {v}, 0")
            return t, self.op(f"select i1 {below}, {t} {minus}, {t} {v}")
        raise SubsetError(f"{self.node.name}: a call of {name}")

    def numpy_call(self, name: str, args: list[ast.expr]) -> Value:
        if name == "np.random.random":
            return self.function_call("mt_random", [])
        if name == "np.random.seed":
            return self.function_call("mt_seed", [self.expr(args[0])])
        if name in ("np.sqrt", "np.log"):
            t, v = self.expr(args[0])
            return FLT, self.op(f"call double @llvm.{name[3:]}.f64(double {self.conv(t, FLT, v)})")
        raise SubsetError(f"{self.node.name}: a call of {name}")

    def extreme(self, name: str, values: list[Value]) -> Value:
        rt: Type | None = None
        for t, _ in values:
            rt = unify(rt, t)
        rt = passed(rt)  # type: ignore[arg-type]
        cur = self.conv(values[0][0], rt, values[0][1])
        for t, v in values[1:]:
            v = self.conv(t, rt, v)
            if rt == FLT:
                better = self.op(f"fcmp {'ogt' if name == 'max' else 'olt'} double {v}, {cur}")
            else:
                better = self.op(f"icmp {'sgt' if name == 'max' else 'slt'} i64 {v}, {cur}")
            cur = self.op(f"select i1 {better}, {rt} {v}, {rt} {cur}")
        return rt, cur

    def function_call(self, name: str, values: list[Value]) -> Value:
        types = tuple(passed(t) for t, _ in values)
        fn = self.module.function(name, types)
        args = []
        for (t, v), pt in zip(values, types):
            if isinstance(pt, Arr):
                args += [f"{LL[pt.item]}* {v.ptr}", *(f"i64 {d}" for d in v.dims)]
            else:
                args.append(f"{lltype(pt)} {self.conv(t, pt, v)}")
        text = f"call {fn.returned_type()} @{fn.symbol}({', '.join(args)})"
        if not fn.failing:
            if fn.result == VOID:
                self.put(text)
                return VOID, None
            return fn.result, self.op(text)
        if not self.failing:
            raise SubsetError(f"{self.node.name} calls {name}, which may fail, and was not known to")
        both = self.op(text)  # (its status beside its value: failed, this function leaves too)
        failed = both if fn.result == VOID else self.op(f"extractvalue {fn.returned_type()} {both}, 1")
        bad, ok = self.label(), self.label()
        self.term(f"br i1 {failed}, label %{bad}, label %{ok}")
        self.begin(bad)
        self.leave(failed=True)
        self.begin(ok)
        if fn.result == VOID:
            return VOID, None
        return fn.result, self.op(f"extractvalue {fn.returned_type()} {both}, 0")

    def error_slot(self) -> str:
        state = self.op("load i64*, i64** @RT")
        return self.op(f"getelementptr i64, i64* {state}, i64 {ERROR_AT}")

    def fail(self, name: str, message: str) -> None:
        """The error ``name(message)`` set for Python to raise, and the function left, failed."""
        if not self.failing:
            raise SubsetError(f"{self.node.name} fails, and was not known to")
        self.put(f"store i64 {self.module.error_code(name, message)}, i64* {self.error_slot()}")
        self.leave(failed=True)

    def nonzero(self, v: str, t: str) -> None:
        """A division by ``v`` (of type ``t``) checked: by zero, Python's ZeroDivisionError."""
        if v.lstrip("-").isdigit() and int(v) != 0 or v.startswith("0x") and int(v, 16) & ~(1 << 63):
            return  # (a constant other than 0)
        v = self.conv(t, INT, v) if t == BOOL else v
        zero = self.op(f"fcmp oeq double {v}, 0.0" if t == FLT else f"icmp eq i64 {v}, 0")
        bad, ok = self.label(), self.label()
        self.term(f"br i1 {zero}, label %{bad}, label %{ok}")
        self.begin(bad)
        self.fail("ZeroDivisionError", "division by zero")
        self.begin(ok)
