"""The zones a ``set`` step reads only by how many cards they hold (``len``), never which: values worked out so are the
same on every sample of what a seat does not know, since a sample deals the unknown cards again into the same places,
as many to each (engine/samples.py). Knowledge (engine/knowledge.py) leaves those reads out of what a step read of
hidden things: a public value worked out from them needs no check that a sample agrees with it (a seat gone out when
its hand is empty), and a search need not work it out again on each sample.

Read from the step's checked expressions (dsl/ir.py), and only what they are known to read: a zone is counted only
when every part that names it is the argument of ``len``; an expression with a part of another kind than those
ir.Part lists, or a call of a builtin that reads the game and may read its zones (``Builtin.zones``), counts no zone
(its reads are taken as they come).
"""

from __future__ import annotations

import weakref
from typing import Any

from interpreter.dsl.builtins import REGISTRY
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.ir import Part

_OPS = frozenset({"const", "name", "zone", "round", "game", "attr", "seat", "field", "index", "list", "not", "neg",
                  "infix", "arith", "call", "if", "for", "define", "memo"})

_known: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()


def counted_only(zones: Any, step: Any) -> frozenset[str]:
    """The zones (of ``zones``, the game's by name) that ``step`` reads only by their number of cards: none for a step
    other than ``set`` (see the module's docstring)."""
    if step.kind != "set":
        return frozenset()
    found = _known.get(step)
    if found is None:
        found = _known[step] = _counted(zones, step)
    return found


def _counted(zones: Any, step: Any) -> frozenset[str]:
    counted: set[str] = set()
    whole: set[str] = set()
    free = tuple(b.impl for b in REGISTRY.values() if b.needs_state and not b.zones)
    length = REGISTRY["len"].impl
    stack: list[tuple[Part, bool]] = []
    for expression in _expressions(vars(step)):
        part = getattr(expression, "part", None)
        if not isinstance(part, Part):
            return frozenset()  # (an expression not checked by parts: what it reads is not known)
        stack.append((part, False))
    while stack:
        part, counting = stack.pop()
        if part.op not in _OPS:
            return frozenset()
        name = part.data if part.op == "zone" else part.data[4] if part.op == "seat" else None
        if isinstance(name, str) and name in zones:
            (counted if counting else whole).add(name)
        if part.op == "call" and part.data[1] and not any(part.data[0] is f for f in free):
            return frozenset()
        counts = part.op == "call" and part.data[0] is length
        stack.extend((kid, counts) for kid in part.kids)
        for item in part.data if isinstance(part.data, tuple) else (part.data,):
            inner = item if isinstance(item, Part) else getattr(item, "part", None)
            if isinstance(inner, Part):
                stack.append((inner, False))
            elif part.op == "define" and hasattr(item, "part"):
                return frozenset()  # (a define's body not checked by parts)
    return frozenset(counted - whole)


def _expressions(value: Any) -> list[Compiled]:
    """The compiled expressions among ``value``'s items (a step's attributes: lists, tuples, dicts of them)."""
    out: list[Compiled] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, Compiled):
            out.append(item)
    return out
