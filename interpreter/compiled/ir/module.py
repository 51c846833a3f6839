"""A module's text written as one LLVM module for one function Python calls (an entry) and the argument types it
is called with: the entry and every function it reaches, each written once for each list of argument types it is
called with; the module's tables as constants; a wrapper Python calls with two pointers (its arguments, packed,
where the results are written back; and the runtime state: the random stream's and the error's slots)."""

from __future__ import annotations

import ast
from typing import Any

from interpreter.compiled.ir.calls import ERROR_AT
from interpreter.compiled.ir.function import Function
from interpreter.compiled.ir.mt19937 import SOURCE as RANDOM
from interpreter.compiled.ir.types import (
    BOOL,
    FLT,
    INT,
    ITEMS,
    LL,
    VOID,
    Arr,
    ArrayValue,
    SubsetError,
    Tup,
    Type,
    fconst,
    lltype,
)

STATE_SIZE = ERROR_AT + 1  # the runtime state: the random stream's (mt19937.py), then the error's
STATE_NAME = "MT"  # (the name the random stream's source reads the runtime state by)
HEADER = """@RT = internal global i64* null
declare double @llvm.sqrt.f64(double)
declare double @llvm.log.f64(double)
"""


class ModuleIR:
    """The functions of ``text`` (parsed once: ``defs``), its constants in ``space`` (arrays: tables; numbers),
    the shapes ``view_NAME`` makes arrays of (``views``), the functions marked to be inlined (``inlined``)."""

    def __init__(self, defs: dict[str, ast.FunctionDef], space: dict[str, Any], views: dict[str, tuple[int, ...]],
                 inlined: frozenset[str]):
        self.defs, self.space, self.views = defs, space, views
        self.written: dict[tuple[str, tuple[Type, ...]], Function] = {}
        self.bodies: list[str] = []
        self.tables: dict[str, tuple[str, Arr, list[str], int]] = {}
        self.constants: list[str] = []
        self.errors: list[tuple[str, str]] = []
        self.counter = [0]
        self.inlined = inlined  # (``small(defs)``, worked out once for the module's functions)

    def function(self, name: str, params: tuple[Type, ...]) -> Function:
        """``name`` written for ``params`` (once)."""
        key = (name, params)
        if key not in self.written:
            fn = self.written[key] = Function(self, self.defs[name], params, f"f{len(self.written)}.{name}")
            fn.infer()
            fn.settle()
            self.bodies.append(fn.write())
        fn = self.written[key]
        if fn.result is None:
            raise SubsetError(f"{name} calls itself")
        return fn

    def global_type(self, name: str) -> Type | None:
        if name == STATE_NAME:
            return Arr(1)
        value: Any = self.space.get(name)
        if hasattr(value, "dtype") and hasattr(value, "ndim"):
            return Arr(value.ndim, ITEMS[value.dtype.str[1:]])
        if isinstance(value, (bool, int)) or type(value).__name__.startswith("int"):
            return INT
        return None

    def global_value(self, writer: Any, name: str) -> tuple[Type, Any]:
        """A name of the module read by ``writer``: a table, a number, or the runtime state."""
        if name == STATE_NAME:
            return Arr(1), ArrayValue(writer.op("load i64*, i64** @RT"), [str(STATE_SIZE)])
        t = self.global_type(name)
        if t is None:
            raise SubsetError(f"{writer.node.name}: the name {name}")
        if t == INT:
            return INT, str(int(self.space[name]))
        symbol, at, dims, size = self.table(name)
        item = LL[at.item]
        return at, ArrayValue(writer.op(f"getelementptr [{size} x {item}], [{size} x {item}]* {symbol}, i64 0, i64 0"),
                              dims, at.item)

    def table(self, name: str) -> tuple[str, Arr, list[str], int]:
        if name not in self.tables:
            import numpy as np

            value = np.ascontiguousarray(self.space[name])
            at = self.global_type(name)
            assert isinstance(at, Arr)
            flat = value.reshape(-1)
            item = LL[at.item]
            if at.item in ("f64", "f32"):
                items = ", ".join(f"{item} {fconst(float(x))}" for x in flat)
            else:
                items = ", ".join(f"{item} {int(x)}" for x in flat)
            symbol = f"@T.{name}"
            self.constants.append(f"{symbol} = internal constant [{len(flat)} x {item}] [{items}]")
            self.tables[name] = (symbol, at, [str(d) for d in value.shape], len(flat))
        return self.tables[name]

    def error_code(self, name: str, message: str) -> int:
        """The number the runtime state's error slot is set to for ``name(message)`` (its place in ``errors``,
        from 1)."""
        if (name, message) not in self.errors:
            self.errors.append((name, message))
        return self.errors.index((name, message)) + 1

    def text(self, entry: Function, symbol: str) -> str:
        """The LLVM module: every function written, the tables, and ``entry``'s wrapper for Python as ``symbol``."""
        return "\n".join([HEADER, *self.constants, *self.bodies, wrapper(entry, symbol)])


def wrapper(fn: Function, symbol: str) -> str:
    """``symbol(args, state)``: ``fn`` called with the arguments packed in ``args`` (a number each, a float by its
    bits, an array as its address then its sizes), its results written back at ``args``' start."""
    lines = ["  store i64* %state, i64** @RT"]
    args, k = [], 0

    def word() -> str:
        nonlocal k
        lines.append(f"  %p{k} = getelementptr i64, i64* %args, i64 {k}")
        lines.append(f"  %w{k} = load i64, i64* %p{k}")
        k += 1
        return f"%w{k - 1}"

    for t in fn.params:
        if isinstance(t, Arr):
            at = word()
            lines.append(f"  %a{k} = inttoptr i64 {at} to {LL[t.item]}*")
            args += [f"{LL[t.item]}* %a{k}", *(f"i64 {word()}" for _ in range(t.ndim))]
        elif t == FLT:
            at = word()
            lines.append(f"  %f{k} = bitcast i64 {at} to double")
            args.append(f"double %f{k}")
        else:
            args.append(f"i64 {word()}")
    call = f"call {fn.returned_type()} @{fn.symbol}({', '.join(args)})"  # (failed: the state's error slot says)
    if fn.result == VOID:
        lines.append("  " + call)
    else:
        lines.append(f"  %r = {call}" if not fn.failing else f"  %s = {call}")
        if fn.failing:
            lines.append(f"  %r = extractvalue {fn.returned_type()} %s, 0")
        items = fn.result.items if isinstance(fn.result, Tup) else (fn.result,)
        for i, t in enumerate(items):
            v = "%r"
            if isinstance(fn.result, Tup):
                lines.append(f"  %e{i} = extractvalue {lltype(fn.result)} %r, {i}")
                v = f"%e{i}"
            if t == FLT:
                lines.append(f"  %b{i} = bitcast double {v} to i64")
                v = f"%b{i}"
            elif t == BOOL:
                lines.append(f"  %b{i} = zext i1 {v} to i64")
                v = f"%b{i}"
            lines.append(f"  %o{i} = getelementptr i64, i64* %args, i64 {i}")
            lines.append(f"  store i64 {v}, i64* %o{i}")
    return f"define void @{symbol}(i64* %args, i64* %state) {{\nentry:\n" + "\n".join(lines) + "\n  ret void\n}\n"


INLINED = 50  # the most lines a function always written into its callers holds, with those it calls
NOT_INLINED = {"mt_twist"}  # (small, but a loop run once every 624 draws: kept out of every caller of a draw)


def small(defs: dict[str, ast.FunctionDef]) -> frozenset[str]:
    """The functions LLVM is told to write into every caller (``alwaysinline``): those that, with the ones of these
    they call, hold at most ``INLINED`` lines (a call of one counted each time). A decision goes through a dozen such
    functions (the machine's dispatch, the step's, the hook's, the choice's turn); left to its own judgement LLVM kept
    many of them called, and a game's random play ran up to a tenth slower."""
    calls = {name: [c.func.id for c in ast.walk(node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                    and c.func.id in defs and c.func.id != name] for name, node in defs.items()}
    size: dict[str, int] = {}

    def total(name: str, seen: frozenset[str]) -> int:
        if name in seen:
            return INLINED + 1
        if name not in size:
            node = defs[name]
            size[name] = (node.end_lineno or node.lineno) - node.lineno + 1 + sum(
                n for c in calls[name] if (n := total(c, seen | {name})) <= INLINED)
        return size[name]

    return frozenset(name for name in defs if total(name, frozenset()) <= INLINED and name not in NOT_INLINED)


def parsed(text: str) -> dict[str, ast.FunctionDef]:
    """The functions of ``text`` and of the random stream's source."""
    tree = ast.parse(text + "\n\n" + RANDOM)
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}

