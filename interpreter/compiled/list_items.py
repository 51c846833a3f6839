"""The items of a list of lists gone through by a comprehension without the list of lists being made (lower.py):
a list of lists made in play (``[[s, 'J'] for s in suits] + [[t, r] for r in ranks]``) would need each of its
lists interned, and only lists whose items are known when the game is written can be (values.py). Its parts are
gone through in turn instead, each item bound to its own list (an array and its count): a list written out, a
comprehension giving lists, ``+`` of two, ``if``, a define's body, a constant; any other list of lists (one held
in the state: its items interned) item by item as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compiled.writer import Listed, Writer
from interpreter.dsl import runtime as R
from interpreter.dsl.ir import Part

Item = Any  # a list's item as the writer binds it: an interned number's source, or a list's (array, count)


def of_lists(part: Part) -> bool:
    """Whether ``part`` is a list of lists (gone through by ``each_item``, not made)."""
    element = part.type.element
    return part.type.kind == "list" and element is not None and element.kind == "list"


def each_item(w: Writer, source: Part, var: str, cond: Part | None, body: Callable[[], None]) -> None:
    """Writes ``body`` for each item of ``source`` that ``cond`` holds for, ``var`` bound to it: once per part of a
    list of lists (its statements then appear once per part), else in one loop (writer.each)."""
    if not of_lists(source):
        with w.each(source, var, cond):
            body()
        return

    def on_item(item: Item) -> None:
        with w.bound({var: item}):
            if cond is None:
                body()
            else:
                with w.block(f"if {w.truth(cond)}:"):
                    body()

    _walk(w, source, on_item)


def _walk(w: Writer, part: Part, on_item: Callable[[Item], None]) -> None:
    if part.const:
        element = part.type.element.element if part.type.element is not None else None
        for item in part.value:
            items = [w.encoded(x, element) for x in item]
            on_item((w.constant(items or [0], "K"), str(len(items))))
    elif part.op == "list":
        for kid in part.kids:
            on_item(w.copied(w.listed(kid)))
    elif part.op == "for" and part.data[3] is None:
        var, body, cond, _ = part.data
        with w.each(part.kids[0], var, cond):
            on_item(w.copied(w.listed(body)))
    elif part.op == "call" and part.data[0] in (R.add, R.joined) and all(of_lists(k) for k in part.kids[:2]):
        for kid in part.kids[:2]:
            _walk(w, kid, on_item)
    elif part.op == "if":
        test, yes, no = part.kids
        for head, kid in ((f"if {w.truth(test)}:", yes), ("else:", no)):
            with w.block(head):
                w.emit("pass")  # (a constant list of no lists writes nothing)
                _walk(w, kid, on_item)
    elif part.op == "memo":
        _walk(w, part.kids[0], on_item)
    elif part.op == "define":
        w.inline(part, lambda inner: _walk(w, inner, on_item))
    else:  # held as a list of interned lists
        x = w.fresh("x")
        buf, count = w.listed(part)
        i = w.fresh("i")
        with w.block(f"for {i} in range({count}):"):
            w.emit(f"{x} = {buf}[{i}]")
            on_item(x)


def appended(w: Writer, out: Listed, x: str) -> None:
    """``x`` added at the end of the list ``out`` (taken from the scratch space), which grows as it fills."""
    buf, count = out
    with w.block(f"if {count} >= len({buf}):"):
        grown, i = w.fresh("L"), w.fresh("i")
        w.scratch(grown, f"2 * {count} + 1")
        with w.block(f"for {i} in range({count}):"):
            w.emit(f"{grown}[{i}] = {buf}[{i}]")
        w.emit(f"{buf} = {grown}")
    w.emit(f"{buf}[{count}] = {x}")
    w.emit(f"{count} += 1")
