"""Writing one function's LLVM IR: fresh names, blocks and their ends, values changed from one type to another,
and an array's items read and written (each index counted from the end when negative, as Python does)."""

from __future__ import annotations

from interpreter.compiled.ir.types import BOOL, FLT, INT, LL, SCALAR, VOID, ArrayValue, SubsetError, Tup, Type, lltype


class Writer:
    """The lines of one function's body; after a block's end (``term``) nothing is written until a new block."""

    lines: list[str]
    allocas: list[str]
    dead: bool
    result: Type | None
    failing: bool  # (whether it may fail: a raise, a division by a number not known, or a call of one that may)
    counter: list[int]  # (the module's: names unique in the module)

    def tmp(self) -> str:
        self.counter[0] += 1
        return f"%t{self.counter[0]}"

    def label(self) -> str:
        self.counter[0] += 1
        return f"L{self.counter[0]}"

    def put(self, line: str) -> None:
        if not self.dead:
            self.lines.append("  " + line)

    def term(self, line: str) -> None:
        """The block ended by ``line`` (a branch or a return)."""
        self.put(line)
        self.dead = True

    def begin(self, label: str) -> None:
        """A new block (the one before it, if not ended, going on into it)."""
        if not self.dead:
            self.lines.append(f"  br label %{label}")
        self.lines.append(f"{label}:")
        self.dead = False

    def slot(self, t: str = INT) -> str:
        """A new variable in the function's first block (LLVM makes registers of them)."""
        name = self.tmp()
        self.allocas.append(f"  {name} = alloca {t}")
        return name

    def current(self) -> str:
        """The block being written (the one a value reaching a ``phi`` comes from)."""
        for line in reversed(self.lines):
            if line.endswith(":") and not line.startswith(" "):
                return line[:-1]
        return "entry"

    def zero(self, t: Type | None) -> str:
        if t == VOID or t is None:
            return "void"
        if isinstance(t, Tup):
            return f"{lltype(t)} zeroinitializer"
        return f"{t} {'0.0' if t == FLT else '0'}"

    def returned_type(self) -> str:
        """The function's LLVM result: its value's, and where it may fail a status beside it (1: it failed)."""
        if not self.failing:
            return lltype(self.result)  # type: ignore[arg-type]
        return "i1" if self.result == VOID else f"{{{lltype(self.result)}, i1}}"  # type: ignore[arg-type]

    def give(self, v: str | None, failed: bool = False) -> None:
        """The function left with ``v`` (a value of its result's type; None: zero, or nothing), and, where it may
        fail, whether it failed (its caller then leaves too: the error's kind is in the runtime state)."""
        if self.result == VOID:
            self.term(f"ret i1 {int(failed)}" if self.failing else "ret void")
            return
        value = self.zero(self.result) if v is None else f"{lltype(self.result)} {v}"  # type: ignore[arg-type]
        if not self.failing:
            self.term(f"ret {value}")
            return
        kind = self.returned_type()
        whole = self.op(f"insertvalue {kind} undef, {value}, 0")
        self.term(f"ret {kind} {self.op(f'insertvalue {kind} {whole}, i1 {int(failed)}, 1')}")

    def leave(self, failed: bool = False) -> None:
        """The function left with a zero result (``failed``: after an error)."""
        self.give(None, failed)

    def op(self, text: str) -> str:
        """``text`` written as a new value's definition: its name."""
        x = self.tmp()
        self.put(f"{x} = {text}")
        return x

    def conv(self, t: Type, to: Type | None, v: str) -> str:
        """``v``, of type ``t``, as a value of type ``to`` (Python's conversions: a float to a number truncates)."""
        if t == to or to is None:
            return v
        if isinstance(t, Tup) and isinstance(to, Tup):
            cur = "undef"
            for i, (a, b) in enumerate(zip(t.items, to.items)):
                item = self.conv(a, b, self.op(f"extractvalue {lltype(t)} {v}, {i}"))
                cur = self.op(f"insertvalue {lltype(to)} {cur}, {b} {item}, {i}")
            return cur
        if t == BOOL and to == FLT:
            return self.conv(INT, FLT, self.conv(BOOL, INT, v))
        written = {(BOOL, INT): f"zext i1 {v} to i64", (INT, FLT): f"sitofp i64 {v} to double",
                   (FLT, INT): f"fptosi double {v} to i64", (INT, BOOL): f"icmp ne i64 {v}, 0",
                   (FLT, BOOL): f"fcmp une double {v}, 0.0"}.get((t, to))  # type: ignore[arg-type]
        if written is None:
            raise SubsetError(f"a {t} used as a {to}")
        return self.op(written)

    def load_item(self, at: str, item: str) -> tuple[Type, str]:
        """The item at the pointer ``at`` of an array of ``item``s, as a value."""
        x = self.op(f"load {LL[item]}, {LL[item]}* {at}")
        if item in ("i64", "f64"):
            return SCALAR[item], x
        if item == "b1":
            return BOOL, self.op(f"icmp ne i8 {x}, 0")
        if item == "f32":
            return FLT, self.op(f"fpext float {x} to double")
        return INT, self.op(f"{'zext' if item.startswith('u') else 'sext'} {LL[item]} {x} to i64")

    def store_item(self, at: str, item: str, t: Type, v: str) -> None:
        """``v`` (of type ``t``) written at the pointer ``at`` of an array of ``item``s."""
        v = self.conv(t, SCALAR[item], v)
        if item == "b1":
            v = self.op(f"zext i1 {v} to i8")
        elif item == "f32":
            v = self.op(f"fptrunc double {v} to float")
        elif item not in ("i64", "f64"):
            v = self.op(f"trunc i64 {v} to {LL[item]}")
        self.put(f"store {LL[item]} {v}, {LL[item]}* {at}")

    def from_end(self, v: str, size: str) -> str:
        """An index, counted from the end when negative."""
        if v.lstrip("-").isdigit():
            return v if int(v) >= 0 else self.op(f"add i64 {size}, {v}")
        negative = self.op(f"icmp slt i64 {v}, 0")
        return self.op(f"select i1 {negative}, i64 {self.op(f'add i64 {v}, {size}')}, i64 {v}")

    def clamped(self, v: str, size: str) -> str:
        """A slice's bound as Python takes it: from the end when negative, then within 0 and ``size``."""
        x = self.from_end(v, size)
        low = self.op(f"select i1 {self.op(f'icmp slt i64 {x}, 0')}, i64 0, i64 {x}")
        return self.op(f"select i1 {self.op(f'icmp sgt i64 {low}, {size}')}, i64 {size}, i64 {low}")

    def stride(self, dims: list[str], k: int) -> str:
        """The items between two of dimension ``k``'s (the product of the later dimensions' sizes)."""
        s = "1"
        for d in dims[k + 1:]:
            s = d if s == "1" else self.op(f"mul i64 {s}, {d}")
        return s

    def element(self, av: ArrayValue, indexes: list[str]) -> tuple[str, list[str]]:
        """The pointer to ``av``'s item (or row) at ``indexes`` (values), and the dimensions left."""
        total = "0"
        for k, i in enumerate(indexes):
            v = self.from_end(i, av.dims[k])
            s = self.stride(av.dims, k)
            part = v if s == "1" else self.op(f"mul i64 {v}, {s}")
            total = part if total == "0" else self.op(f"add i64 {total}, {part}")
        at = self.op(f"getelementptr inbounds {LL[av.item]}, {LL[av.item]}* {av.ptr}, i64 {total}")
        return at, av.dims[len(indexes):]
