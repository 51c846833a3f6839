"""The items of a list gone through by a comprehension without the list being made (lower.py), part by part: a list
of lists made in play (``[[s, 'J'] for s in suits] + [[t, r] for r in ranks]``) would need each of its lists
interned, and only lists whose items are known when the game is written can be (values.py); a list joined of
others or made by a comprehension (``[player] + [s for s in trick_seats if s != player]``) would be copied into
the scratch space first. Its parts are gone through in turn instead, each item bound as it comes (a list's item to
its own list: an array and its count): a list written out, a comprehension, ``+`` of two lists, and for lists of
lists ``if``, a define's body and a constant too; any other list (a zone, one held in the state: a list of lists'
items interned) item by item in one loop as before."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from interpreter.compiled.values import NONE, NotWritten
from interpreter.compiled.writer import Listed, Writer, moved
from interpreter.dsl import runtime as R
from interpreter.dsl.ir import Part

Item = Any  # a list's item as the writer binds it: an interned number's source, or a list's (array, count)


def of_lists(part: Part) -> bool:
    """Whether ``part`` is a list of lists (gone through by ``each_item``, not made)."""
    element = part.type.element
    return part.type.kind == "list" and element is not None and element.kind == "list"


def in_parts(part: Part) -> bool:
    """Whether ``each_item`` goes through ``part``'s parts (see the module's docstring), not its items in one loop."""
    if part.type.kind != "list" or part.const and not of_lists(part):
        return False
    return (of_lists(part) or part.op == "list" or part.op == "for" and part.data[3] is None
            or _joined(part))


def _joined(part: Part) -> bool:
    return part.op == "call" and part.data[0] in (R.add, R.joined) and all(k.type.kind == "list" for k in part.kids[:2])


def each_item(w: Writer, source: Part, var: str, cond: Part | None, body: Callable[[], None]) -> None:
    """Writes ``body`` for each item of ``source`` that ``cond`` holds for, ``var`` bound to it: once per part where
    ``in_parts`` (its statements then appear once per part), else in one loop (writer.each)."""
    if not in_parts(source):
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
    if not of_lists(part):
        _walk_values(w, part, on_item)
    elif part.const:
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
    elif _joined(part):
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
        _one_loop(w, part, on_item)


def _walk_values(w: Writer, part: Part, on_item: Callable[[Item], None]) -> None:
    """``_walk`` of a list of values (each item bound to a local holding it)."""
    if part.op == "list" and not part.const:
        for kid in part.kids:
            on_item(w.temp(w.scalar(kid), "x"))
    elif part.op == "for" and part.data[3] is None:
        var, body, cond, _ = part.data
        with w.each(part.kids[0], var, cond):
            on_item(w.temp(item_of(w, body), "x"))
    elif _joined(part):
        for kid in part.kids[:2]:
            _walk(w, kid, on_item)
    else:
        _one_loop(w, part, on_item)


def _one_loop(w: Writer, part: Part, on_item: Callable[[Item], None]) -> None:
    """The items of ``part``, a list made as a whole (a list of lists' items interned), in one loop."""
    buf, count = w.listed(part)
    i, x = w.fresh("i"), w.fresh("x")
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
        moved(w, buf, grown)
    w.emit(f"{buf}[{count}] = {x}")
    w.emit(f"{count} += 1")


def item_of(w: Writer, body: Part) -> str:
    """The source of a comprehension's item: its value, or a list's interned number."""
    return seats_interned(w, body) if body.type.kind == "list" else w.scalar(body)


_MOST_SEATS = 3  # the longest list of seats made in play as an item of a list (its every value interned)
_MOST_CARDS = 2  # the longest list of cards made so (a pair: every pair of the deck's kinds interned)


def seats_interned(w: Writer, body: Part) -> str:
    """The interned number of a list of a few seats or cards written out (``[s, winner]``, ``[h, c]``), made in play
    as an item of a list: every list of as many seats (up to three) or cards (a pair; a card as its kind) is interned
    as the expression is written, and found by its items (none when one is not of its range). Other lists made in
    play are not written (a list's number exists only for values interned beforehand)."""
    kinds = {k.type.kind for k in body.kids}
    if body.op != "list" or len(kinds) != 1 or not kinds <= {"seat", "card"}:
        raise NotWritten("a comprehension of lists (but of a few seats or cards written out)")
    if len(body.kids) > (_MOST_SEATS if kinds == {"seat"} else _MOST_CARDS) or not body.kids:
        raise NotWritten("a comprehension of lists (but of a few seats or cards written out)")
    items = list(range(w.lay.layout.players)) if kinds == {"seat"} else list(w.lay.layout.kinds)
    size = max(items) + 1  # (a kind is the id of its first card: the table is indexed by ids)
    xs = [w.temp(w.scalar(k), "s") for k in body.kids]
    table = [NONE] * size ** len(xs)
    for c in itertools.product(items, repeat=len(xs)):
        table[sum(x * size ** (len(xs) - 1 - i) for i, x in enumerate(c))] = w.values.item(list(c))
    name = w.constant(table, "I")
    at = " + ".join(f"{x} * {size ** (len(xs) - 1 - i)}" for i, x in enumerate(xs))
    fits = " and ".join(f"0 <= {x} < {size}" for x in xs)
    return f"({name}[{at}] if {fits} else NONE)"
