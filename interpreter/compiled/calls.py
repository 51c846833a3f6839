"""The builtins (dsl/builtins.py) and the runtime's operators on values (dsl/runtime.py) as the compiled backend
writes them: ``SCALAR_CALLS`` (a call that gives one value), ``LIST_CALLS`` (one that gives a list), each keyed by
the function the Python backend calls, and ``REDUCERS``, a comprehension given straight to a builtin, written as one
loop (``LIST_REDUCERS``: a comprehension of lists given to one that picks one of them, ``max`` or ``min``). ``==``
and ``!=`` of lists are ``equal_lists``, for the call and for Python's own operator alike. ``sort`` orders texts by
their ranks (values.text_ranks: an interned text's number is only the order it was met in); ``<``, ``max`` and
``min`` of texts are not ranked yet (no bundled game compares texts so). ``combinations`` gives interned lists found
among those interned as the game is written, and is written only where they are (a choice's options, its domain
interned: choose_choices.py). A builtin that is not here is not written yet (its expression's game is played
by the Python backend)."""

from __future__ import annotations

import operator
from typing import Any

from interpreter.compiled import combination_calls
from interpreter.compiled.list_items import appended, item_of
from interpreter.compiled.values import NotWritten
from interpreter.compiled.writer import Listed, Writer, found, moved, team_slot
from interpreter.dsl import builtins as B
from interpreter.dsl import runtime as R
from interpreter.dsl.ir import Part


def _args(w: Writer, part: Part) -> list[str]:
    return [w.temp(w.scalar(k)) for k in part.kids]


def _binary(op: str, shape: str = "({a} {op} {b})") -> Any:
    """Python's own operator ``op`` on two values (never lists), written as ``shape`` says (a comparison as 1 or 0)."""

    def made(w: Writer, part: Part) -> str:
        if any(k.type.kind == "list" for k in part.kids):
            raise NotWritten(f"{op!r} of lists")
        a, b = _args(w, part)
        return shape.format(a=a, b=b, op=op)

    return made


def _arith(op: str) -> Any:
    return _binary(op)


def _compare(op: str) -> Any:
    return _binary(op, "(1 if {a} {op} {b} else 0)")


def _equal(negated: bool) -> Any:
    values = _compare("!=" if negated else "==")

    def made(w: Writer, part: Part) -> str:
        if all(k.type.kind != "list" for k in part.kids):
            return str(values(w, part))
        a, b = part.kids
        return equal_lists(w, a, b, negated)

    return made


def equal_lists(w: Writer, a: Part, b: Part, negated: bool) -> str:
    """``==`` (``!=`` when ``negated``) where one side is a list: two lists the same with the same items in the same
    order (none the same as none only); a list and none, the list none."""
    if a.type.kind != "list":
        a, b = b, a
    if b.type.kind != "list" and not (b.const and isinstance(b.value, (list, tuple))):
        if not (b.const and b.value is None):
            raise NotWritten(f"{'!=' if negated else '=='} of a list and a value")
        n = w.temp(w.listed(a)[1], "n")
        return f"(1 if {n} {'>=' if negated else '<'} 0 else 0)"
    (ab, an), (bb, bn) = (w.listed(k) for k in (a, b))
    an, bn = w.temp(an, "n"), w.temp(bn, "n")
    out, i = w.fresh("b"), w.fresh("i")
    w.emit(f"{out} = 1 if {an} == {bn} else 0")
    with w.block(f"if {out} == 1:"):
        with w.block(f"for {i} in range({an}):"):
            with w.block(f"if {ab}[{i}] != {bb}[{i}]:"):
                w.emit(f"{out} = 0")
                w.emit("break")
    return f"(1 - {out})" if negated else out


def _len(w: Writer, part: Part) -> str:
    (kid,) = part.kids
    if kid.type.kind != "list":
        raise NotWritten("len of a text")
    return w.listed(kid)[1]


def _end(first: bool) -> Any:
    def made(w: Writer, part: Part) -> str:
        buf, count = w.listed(part.kids[0])
        n = w.temp(count, "n")
        return f"({buf}[{'0' if first else f'{n} - 1'}] if {n} > 0 else NONE)"

    return made


def _contains(w: Writer, part: Part) -> str:
    item, items = part.kids
    if items.type.kind != "list":
        raise NotWritten("'in' of a text")
    return w.contains(item, items, False)


def _seat_step(step: int) -> Any:
    def made(w: Writer, part: Part) -> str:
        (s,) = _args(w, part)
        return f"(({s} + {step}) % {w.lay.layout.players})"

    return made


def _same_team(w: Writer, part: Part) -> str:
    a, b = _args(w, part)
    t = team_slot(w)
    return f"(1 if v[{t} + {a}] == v[{t} + {b}] else 0)"


def _truthy(w: Writer, part: Part) -> str:
    return w.scalar(part.kids[0])


def _extreme(op: str) -> Any:
    def made(w: Writer, part: Part) -> str:
        if len(part.kids) > 1:
            items = _args(w, part)
            out = w.fresh("m")
            w.emit(f"{out} = {items[0]}")
            for x in items[1:]:
                w.emit(f"{out} = {x} if {x} {op} {out} else {out}")
            return out
        buf, count = w.listed(part.kids[0])
        out = w.fresh("m")
        w.emit(f"{out} = NONE")
        i = w.fresh("i")
        with w.block(f"for {i} in range({count}):"):
            w.emit(f"{out} = {buf}[{i}] if {i} == 0 or {buf}[{i}] {op} {out} else {out}")
        return out

    return made


def _folded(start: str, step: str) -> Any:
    def made(w: Writer, part: Part) -> str:
        buf, count = w.listed(part.kids[0])
        out = w.fresh("a")
        w.emit(f"{out} = {start}")
        i = w.fresh("i")
        with w.block(f"for {i} in range({count}):"):
            w.emit(step.format(out=out, x=f"{buf}[{i}]"))
        return out

    return made


def _team_list(same: bool) -> Any:
    def made(w: Writer, part: Part) -> Listed:
        (s,) = _args(w, part)
        t = team_slot(w)
        return w.seats_where(f"v[{t} + s] {'==' if same else '!='} v[{t} + {s}]")

    return made


def _seats_from(w: Writer, part: Part) -> Listed:
    (s,) = _args(w, part)
    n = w.lay.layout.players
    buf, count = w.new_list(str(n))
    with w.block(f"for k in range({n}):"):
        w.emit(f"{buf}[k] = ({s} + k) % {n}")
    w.emit(f"{count} = {n}")
    return buf, count


def _joined(w: Writer, part: Part) -> Listed:
    (ab, an), (bb, bn) = (w.listed(k) for k in part.kids[:2])
    buf, count = w.new_list(f"{an} + {bn}")
    i = w.fresh("i")
    with w.block(f"for {i} in range({an}):"):
        w.emit(f"{buf}[{i}] = {ab}[{i}]")
    with w.block(f"for {i} in range({bn}):"):
        w.emit(f"{buf}[{an} + {i}] = {bb}[{i}]")
    w.emit(f"{count} = {an} + {bn}")
    return buf, count


def _add_lists(w: Writer, part: Part) -> Listed:
    if not all(k.type.kind == "list" for k in part.kids):
        raise NotWritten("'+' of a list and a value")
    return _joined(w, part)


def _concat(w: Writer, part: Part) -> Listed:
    """The items of a list of lists, one list after the other: of a comprehension giving lists, or of a list written
    of lists (a list that is none adds nothing: the Python backend refuses it)."""
    (lists,) = part.kids
    buf, count = w.new_list(str(w.lay.capacity))

    def append(items: Listed) -> None:
        b, m = items
        m = w.temp(m, "m")
        with w.block(f"if {m} > 0:"):
            i = w.fresh("i")
            with w.block(f"if {count} + {m} > len({buf}):"):  # (grown as needed: a list may be longer than a row)
                grown = w.fresh("L")
                w.scratch(grown, f"2 * ({count} + {m})")
                with w.block(f"for {i} in range({count}):"):
                    w.emit(f"{grown}[{i}] = {buf}[{i}]")
                moved(w, buf, grown)
            with w.block(f"for {i} in range({m}):"):
                w.emit(f"{buf}[{count} + {i}] = {b}[{i}]")
            w.emit(f"{count} += {m}")

    if lists.op == "for" and lists.data[3] is None and lists.data[1].type.kind == "list":
        var, body, cond, _ = lists.data
        with w.each(lists.kids[0], var, cond):
            if body.op == "for" and body.data[3] is None:  # a comprehension in a comprehension: its items added
                # (one at a time, no list of its own made)
                inner, item, test, _ = body.data
                with w.each(body.kids[0], inner, test):
                    appended(w, (buf, count), w.temp(item_of(w, item)))
            else:
                append(w.listed(body))
    elif lists.op == "list" and not lists.const:
        for kid in lists.kids:
            append(w.listed(kid))
    else:
        raise NotWritten("concat of a list of lists held as a value")
    return buf, count


def _distinct(w: Writer, part: Part) -> Listed:
    src, n = w.listed(part.kids[0])
    buf, count = w.new_list(n)
    i, j, seen = w.fresh("i"), w.fresh("j"), w.fresh("b")
    with w.block(f"for {i} in range({n}):"):
        w.emit(f"{seen} = 0")
        with w.block(f"for {j} in range({count}):"):
            with w.block(f"if {buf}[{j}] == {src}[{i}]:"):
                w.emit(f"{seen} = 1")
                w.emit("break")
        with w.block(f"if {seen} == 0:"):
            w.emit(f"{buf}[{count}] = {src}[{i}]")
            w.emit(f"{count} += 1")
    return buf, count


def _sorted(w: Writer, part: Part) -> Listed:
    """The items from the least up (an insertion sort in place: lists are short, and nothing is allocated); texts
    by their ranks (values.text_ranks: an interned text's number is the order it was met in)."""
    buf, count = _copied(w, part)
    i, j, x = w.fresh("i"), w.fresh("j"), w.fresh("x")
    element = part.kids[0].type.element
    texts = element is not None and element.plain == "text"
    w.ranks_read = w.ranks_read or texts
    def key(a: str) -> str:
        return f"TX_RANK[{a} - INTERNED]" if texts else a
    with w.block(f"for {i} in range(1, {count}):"):
        w.emit(f"{x} = {buf}[{i}]")
        w.emit(f"{j} = {i} - 1")
        with w.block(f"while {j} >= 0 and {key(f'{buf}[{j}]')} > {key(x)}:"):
            w.emit(f"{buf}[{j} + 1] = {buf}[{j}]")
            w.emit(f"{j} -= 1")
        w.emit(f"{buf}[{j} + 1] = {x}")
    return buf, count


def _combinations(w: Writer, part: Part) -> Listed:
    """Every choice of k items of a list, in its order (builtins.py), each an interned list (values.py): found among
    the lists interned when the game was written; written only where they are all interned already (the options of a
    choice, whose ``domain`` lists every value they may give: choose_choices.py); one that is not there is none."""
    src, n = w.listed(part.kids[0])
    n = w.temp(n, "n")
    k = w.temp(w.scalar(part.kids[1]), "k")
    c, i, j, t, x, s, same = (w.fresh(stem) for stem in ("c", "i", "j", "t", "x", "s", "b"))
    if not w.interned:
        raise NotWritten("combinations (but the options of a choice, whose domain interns them)")
    w.lists_read = True
    w.emit(f"{c} = 1 if 0 <= {k} <= {n} else 0")
    with w.block(f"for {i} in range(min(max({k}, 0), max({n}, 0))):"):
        w.emit(f"{c} = {c} * ({n} - {i}) // ({i} + 1)")
    buf, count = w.new_list(c)
    idx, tmp = w.fresh("I"), w.fresh("T")
    w.scratch(idx, k)
    w.scratch(tmp, k)
    with w.block(f"if {c} > 0:"):
        with w.block(f"for {i} in range({k}):"):
            w.emit(f"{idx}[{i}] = {i}")
        with w.block("while True:"):
            with w.block(f"for {i} in range({k}):"):
                w.emit(f"{tmp}[{i}] = {src}[{idx}[{i}]]")
            w.emit(f"{x} = NONE")
            with w.block(f"for {j} in range(len(LI_COUNT)):"):
                with w.block(f"if LI_COUNT[{j}] == {k}:"):
                    w.emit(f"{s} = LI_START[{j}]")
                    w.emit(f"{same} = 1")
                    with w.block(f"for {t} in range({k}):"):
                        with w.block(f"if LI_ITEMS[{s} + {t}] != {tmp}[{t}]:"):
                            w.emit(f"{same} = 0")
                            w.emit("break")
                    with w.block(f"if {same} == 1:"):
                        w.emit(f"{x} = INTERNED + {j}")
                        w.emit("break")
            w.emit(f"{buf}[{count}] = {x}")
            w.emit(f"{count} += 1")
            w.emit(f"{i} = {k} - 1")
            with w.block(f"while {i} >= 0 and {idx}[{i}] == {i} + {n} - {k}:"):
                w.emit(f"{i} -= 1")
            with w.block(f"if {i} < 0:"):
                w.emit("break")
            w.emit(f"{idx}[{i}] += 1")
            with w.block(f"for {j} in range({i} + 1, {k}):"):
                w.emit(f"{idx}[{j}] = {idx}[{j} - 1] + 1")
    return buf, count


def _reversed(w: Writer, part: Part) -> Listed:
    return _copied(w, part, backwards=True)


def _copied(w: Writer, part: Part, backwards: bool = False) -> Listed:
    """The items of a list in a list of its own (``backwards``: the last first)."""
    src, n = w.listed(part.kids[0])
    buf, count = w.new_list(n)
    i = w.fresh("i")
    w.emit(f"{count} = {n}")
    with w.block(f"for {i} in range({count}):"):
        w.emit(f"{buf}[{i}] = {src}[{f'{count} - 1 - {i}' if backwards else i}]")
    return buf, count


def _sliced(w: Writer, part: Part) -> Listed:
    src, n = w.listed(part.kids[0])
    n = w.temp(n, "n")
    start, end = (w.temp(w.scalar(k)) for k in part.kids[1:])
    lo, hi = w.fresh("lo"), w.fresh("hi")
    for name, given, default in ((lo, start, "0"), (hi, end, n)):  # Python's slice bounds, none as the ends
        w.emit(f"{name} = {default} if {given} == NONE else ({given} + {n} if {given} < 0 else {given})")
        w.emit(f"{name} = 0 if {name} < 0 else ({n} if {name} > {n} else {name})")
    buf, count = w.new_list(n)
    w.emit(f"{count} = {hi} - {lo} if {hi} > {lo} else 0")
    i = w.fresh("i")
    with w.block(f"for {i} in range({count}):"):
        w.emit(f"{buf}[{i}] = {src}[{lo} + {i}]")
    return buf, count


def _range(w: Writer, part: Part) -> Listed:
    """The whole numbers from ``low`` up to, not including, ``high`` (none when ``high`` is not above ``low``)."""
    low, high = _args(w, part)
    n = w.temp(f"{high} - {low} if {high} > {low} else 0", "n")
    buf, count = w.new_list(n)
    i = w.fresh("i")
    with w.block(f"for {i} in range({n}):"):
        w.emit(f"{buf}[{i}] = {low} + {i}")
    w.emit(f"{count} = {n}")
    return buf, count


def _index_of(w: Writer, part: Part) -> str:
    buf, count = w.listed(part.kids[0])
    return found(w, buf, count, w.temp(w.scalar(part.kids[1])), "{i}", "NONE")


def _abs(w: Writer, part: Part) -> str:
    (x,) = _args(w, part)
    return f"abs({x})"


def _place_award(w: Writer, part: Part) -> str:
    """The award for a value's place among values, highest first; 0 for a value tied with another (builtins.py)."""
    x = w.temp(w.scalar(part.kids[0]), "x")
    buf, count = w.listed(part.kids[1])
    awards, n = w.listed(part.kids[2])
    ties, place, i = w.fresh("t"), w.fresh("k"), w.fresh("i")
    w.emit(f"{ties} = 0")
    w.emit(f"{place} = 0")
    with w.block(f"for {i} in range({count}):"):
        w.emit(f"{ties} += 1 if {buf}[{i}] == {x} else 0")
        w.emit(f"{place} += 1 if {buf}[{i}] > {x} else 0")
    return f"(0 if {ties} > 1 else ({awards}[{place}] if {place} < {n} else 0))"


def _value_op(op: str) -> Any:
    """A runtime helper of two values (runtime.add...): Python's own operator on two numbers (never texts)."""
    numbers = _arith(op)

    def made(w: Writer, part: Part) -> str:
        if "text" in (part.type.plain, *(k.type.plain for k in part.kids)):
            raise NotWritten(f"{op!r} of texts")
        return numbers(w, part)

    return made


SCALAR_CALLS: dict[Any, Any] = {
    R.add: _value_op("+"), R.subtract: _value_op("-"), R.multiply: _value_op("*"),
    operator.mod: _arith("%"), operator.floordiv: _arith("//"),
    R.same: _equal(False), R.different: _equal(True),
    R.contains: _contains, R.a_truth: _truthy, len: _len, abs: _abs,
    B._first: _end(True), B._last: _end(False), B._left: _seat_step(1), B._right: _seat_step(-1),
    B._same_team: _same_team, B._max: _extreme(">"), B._min: _extreme("<"),
    B._sum: _folded("0", "{out} += {x}"), B._count: _folded("0", "{out} += 1 if ({x} != 0 and {x} != NONE) else 0"),
    B._any: _folded("0", "{out} = 1 if ({out} or ({x} != 0 and {x} != NONE)) else 0"),
    B._all: _folded("1", "{out} = 1 if ({out} and ({x} != 0 and {x} != NONE)) else 0"),
    B._index: _index_of, B._place_award: _place_award,
}
LIST_CALLS: dict[Any, Any] = {
    B._team: _team_list(True), B._opponents: _team_list(False), B._seats_from: _seats_from,
    R.joined: _joined, R.add: _add_lists, B._distinct: _distinct, B._sort: _sorted, B._reverse: _reversed,
    B._slice: _sliced, B._range: _range, B._concat: _concat, B._combinations: _combinations,
}
SCALAR_CALLS.update(combination_calls.SCALARS)  # (the climb's: next_picks, is_play, must_play, combination)
LIST_CALLS.update(combination_calls.LISTS)


def _list_extreme(op: str) -> Any:
    """The greatest (``op`` ">") or least list of numbers a comprehension gives, as Python orders lists: by their first
    item that differs, a list before a longer one it begins; the first of equal ones (none when there is none:
    Python's mistake). The best so far is kept in the scratch space, in room taken again when a longer one is."""

    def made(w: Writer, part: Part) -> Listed:
        var, body, cond, _ = part.data
        if body.type.element is None or body.type.element.plain != "number":
            raise NotWritten("the greatest or least of lists of what is not a number")
        at, room, count = w.fresh("at"), w.fresh("room"), w.fresh("n")
        w.emit(f"{at} = 0")
        w.emit(f"{room} = 0")
        w.emit(f"{count} = -1")
        with w.each(part.kids[0], var, cond):
            b, n = w.listed(body)
            n = w.temp(n, "n")
            order, j = w.fresh("c"), w.fresh("j")
            w.emit(f"{order} = 0")
            with w.block(f"for {j} in range(min({n}, {count})):"):
                with w.block(f"if {b}[{j}] != h[{at} + {j}]:"):
                    w.emit(f"{order} = 1 if {b}[{j}] {op} h[{at} + {j}] else -1")
                    w.emit("break")
            with w.block(f"if {order} == 0:"):
                w.emit(f"{order} = 1 if {n} {op} {count} else -1")
            with w.block(f"if {count} == -1 or {order} == 1:"):
                with w.block(f"if {n} > {room}:"):
                    w.emit(f"{at} = grab(h, {n})")
                    w.emit(f"{room} = {n}")
                with w.block(f"for {j} in range({n}):"):
                    w.emit(f"h[{at} + {j}] = {b}[{j}]")
                w.emit(f"{count} = {n}")
        buf = w.fresh("L")
        w.emit(f"{buf} = h[{at}:{at} + max({count}, 1)]")
        return buf, count

    return made


# a comprehension of lists given to a builtin that gives one of them
LIST_REDUCERS: dict[Any, Any] = {B._max: _list_extreme(">"), B._min: _list_extreme("<")}
_TRUE = "({x} != 0 and {x} != NONE)"
# a comprehension given to a builtin: (its start, the statement for each item, when to stop early)
REDUCERS: dict[Any, tuple[str, str, str]] = {
    B._sum: ("0", "{out} += {x}", ""),
    B._count: ("0", "{out} += 1 if " + _TRUE + " else 0", ""),
    B._any: ("0", "{out} = 1 if " + _TRUE + " else 0", "{out} == 1"),
    B._all: ("1", "{out} = 1 if " + _TRUE + " else 0", "{out} == 0"),
    B._max: ("NONE", "{out} = {x} if {out} == NONE or {x} > {out} else {out}", ""),
    B._min: ("NONE", "{out} = {x} if {out} == NONE or {x} < {out} else {out}", ""),
    len: ("0", "{out} += 1", ""),
}
