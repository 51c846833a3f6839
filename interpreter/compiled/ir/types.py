"""The types of the subset's values as the IR writer knows them, and how each is written in LLVM IR.

A value is a whole number (``INT``, LLVM's ``i64``: numbers, interned values, addresses), a float (``FLT``,
``double``: the search's statistics, random draws), a truth (``BOOL``, ``i1``: comparisons; a whole number where
stored or passed), an array (``Arr``: its number of dimensions and the type of its items, C-contiguous, its data a
pointer and each dimension's size a number) or several values returned at once (``Tup``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import TrickbookError

INT, FLT, BOOL, VOID = "i64", "double", "i1", "void"


class SubsetError(TrickbookError):
    """The module's text uses Python the IR writer does not write (the templates and lower.py write only the subset:
    interpreter/compiled/ir/__init__.py): a fault of the engine, never of a rule file."""


@dataclass(frozen=True)
class Arr:
    """An array: its dimensions' count and its items' type (a key of ``LL``)."""

    ndim: int
    item: str = "i64"


@dataclass(frozen=True)
class Tup:
    """Several values returned at once."""

    items: tuple[Any, ...]


Type = str | Arr | Tup

# an array's items, by numpy's dtype code -> the item's name here; its type in LLVM; the value read from it
ITEMS = {"i8": "i64", "f8": "f64", "f4": "f32", "i4": "i32", "i2": "i16", "i1": "i8", "u1": "u8", "b1": "b1",
         "u2": "u16", "u4": "u32"}
LL = {"i64": "i64", "f64": "double", "f32": "float", "i32": "i32", "i16": "i16", "i8": "i8", "u8": "i8", "b1": "i8",
      "u16": "i16", "u32": "i32"}
SCALAR = {"i64": INT, "f64": FLT, "f32": FLT, "b1": BOOL, "i32": INT, "i16": INT, "i8": INT, "u8": INT, "u16": INT,
          "u32": INT}


@dataclass
class ArrayValue:
    """An array in the IR being written: its data's pointer and each dimension's size (operands)."""

    ptr: str
    dims: list[str] = field(default_factory=list)
    item: str = "i64"


def unify(a: Type | None, b: Type | None) -> Type | None:
    """The type holding both (a truth and a number: a number; a number and a float: a float)."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if {a, b} <= {INT, BOOL}:
        return INT
    if {a, b} <= {INT, BOOL, FLT}:
        return FLT
    if isinstance(a, Tup) and isinstance(b, Tup) and len(a.items) == len(b.items):
        return Tup(tuple(unify(x, y) for x, y in zip(a.items, b.items)))
    raise SubsetError(f"a value is {a} in one place and {b} in another")


def passed(t: Type) -> Type:
    """The type a value is passed and returned as (a truth as a number: fewer forms of a function)."""
    return INT if t == BOOL else t


def lltype(t: Type) -> str:
    """The LLVM type of a value of type ``t`` (not an array's: an array is its pointer and sizes)."""
    if isinstance(t, Tup):
        return "{" + ", ".join(lltype(x) for x in t.items) + "}"
    if isinstance(t, Arr):
        raise SubsetError("an array where a single value is wanted")
    return t


def fconst(x: float) -> str:
    """A float constant as LLVM reads it exactly (its bits)."""
    return f"0x{struct.unpack('<Q', struct.pack('<d', x))[0]:016X}"


def kind_of(value: Any) -> Type:
    """The type of a value Python passes to a compiled function."""
    import numpy as np

    if isinstance(value, np.ndarray):
        code = value.dtype.str[1:]
        if code not in ITEMS or not value.flags.c_contiguous:
            raise SubsetError(f"an array of {value.dtype} (contiguous: {value.flags.c_contiguous}) cannot be passed")
        return Arr(value.ndim, ITEMS[code])
    if isinstance(value, (float, np.floating)):
        return FLT
    return INT
