"""Each op of an expression's checked parts (dsl/ir.py) as the compiled backend writes it: ``SCALARS`` for a part
that is one value, ``LISTS`` for one that is a list, each an entry ``op -> function(writer, part)`` giving the
part's source (its statements written before it by the writer). dsl/emit.py writes the same ops for the Python
backend."""

from __future__ import annotations

from typing import Any

from interpreter.compiled.calls import LIST_CALLS, LIST_REDUCERS, REDUCERS, SCALAR_CALLS, equal_lists
from interpreter.compiled.list_items import appended, each_item, in_parts, item_of
from interpreter.compiled.values import NONE, NotWritten
from interpreter.compiled.writer import PARAMS, Listed, Writer, interned_list
from interpreter.dsl.ir import Part
from interpreter.dsl.part_shapes import is_let

_COMPARE = {"==", "!=", "<", "<=", ">", ">="}


def _name(w: Writer, part: Part) -> str:
    found = w.locals.get(part.data)
    if found is None or isinstance(found, tuple):
        raise NotWritten(f"the name {part.data!r}")
    return str(found)


def _round(w: Writer, part: Part) -> str:
    return f"v[{w.value_index('round', part.data)}]"


def _game(w: Writer, part: Part) -> str:
    return f"v[{w.value_index('game', part.data)}]"


def _attr(w: Writer, part: Part) -> str:
    (card,) = part.kids
    table = part.data  # the values by card id (a dict with none too, when the card may be none)
    if isinstance(table, dict):
        table = [table[c] for c in range(len(table) - (None in table))]
    if any(isinstance(x, (list, tuple)) for x in table):
        raise NotWritten("a card attribute that is a list")
    name = w.constant([w.values.encode(x) for x in table] or [NONE], "A")
    c = w.temp(w.scalar(card))
    return f"{name}[{c}]" if card.sure else f"({name}[{c}] if {c} != NONE else NONE)"


def _seat(w: Writer, part: Part) -> str:
    (seat,) = part.kids
    getter, sure, stateful, _, name = part.data
    if not stateful:  # fixed for the whole game (its index, name, role): a table by seat
        return _fixed_seat(w, seat, getter, sure)
    base = w.seat_base(name, stateful)
    if isinstance(base, tuple):
        raise NotWritten(f"a seat's list {name!r} where one value is needed")
    s = w.temp(w.scalar(seat))
    at = f"v[{base} + {s}]" if base else f"v[{s}]"
    return at if sure or seat.sure else f"({at} if {s} != NONE else NONE)"


def _fixed_seat(w: Writer, seat: Part, getter: Any, sure: bool) -> str:
    """A seat's attribute fixed for the whole game (``getter(None, seat)``: its index, its name, its role), read from
    a constant table of the seats' (the seat itself where the table is the seats' indexes)."""
    table = [w.values.encode(getter(None, s)) for s in range(w.lay.layout.players)]
    s = w.temp(w.scalar(seat))
    at = s if table == list(range(len(table))) else f"{w.constant(table, 'S')}[{s}]"
    return at if sure or seat.sure else f"({at} if {s} != NONE else NONE)"


def _field(w: Writer, part: Part) -> str:
    (record,) = part.kids
    w.fields.add(part.data)
    r = w.temp(w.scalar(record))
    return f"(F_{part.data}[{r} - INTERNED] if {r} >= INTERNED and {r} - INTERNED < len(F_{part.data}) else NONE)"


def _index(w: Writer, part: Part) -> str:
    if is_let(part):
        return w.let(part.kids[0], w.scalar)
    buf, count = w.listed(part.kids[0])
    i = w.temp(w.scalar(part.kids[1]))
    return f"({buf}[{i}] if {i} >= 0 else {buf}[{count} + {i}])"


def _not(w: Writer, part: Part) -> str:
    return f"(0 if {w.truth(part.kids[0])} else 1)"


def _neg(w: Writer, part: Part) -> str:
    return f"(-{w.scalar(part.kids[0])})"


def _arith(w: Writer, part: Part) -> str:
    a, b = (w.temp(w.scalar(k)) for k in part.kids)
    return f"({a} {part.data} {b})"


def _infix(w: Writer, part: Part) -> str:
    op = part.data
    a_part, b_part = part.kids
    if op in ("and", "or"):
        out = w.fresh("b")
        w.emit(f"{out} = {w.scalar(a_part)}")
        test = f"{out} != 0 and {out} != NONE"
        with w.block(f"if {test}:" if op == "and" else f"if not ({test}):"):
            w.emit(f"{out} = {w.scalar(b_part)}")
        return out
    if op in ("in", "not in"):
        return w.contains(a_part, b_part, op == "not in")
    if op in ("==", "!=") and any(k.type.kind == "list" for k in part.kids):
        return equal_lists(w, a_part, b_part, op == "!=")
    if op in _COMPARE:
        a, b = (w.temp(w.scalar(k)) for k in part.kids)
        return f"(1 if {a} {op} {b} else 0)"
    raise NotWritten(f"the operator {op!r}")


def _if(w: Writer, part: Part) -> str:
    test, yes, no = part.kids
    out = w.fresh("y")
    with w.block(f"if {w.truth(test)}:"):
        w.emit(f"{out} = {w.scalar(yes)}")
    with w.block("else:"):
        w.emit(f"{out} = {w.scalar(no)}")
    return out


def _memo(w: Writer, part: Part) -> str:
    return w.scalar(part.kids[0])


def _define(w: Writer, part: Part) -> str:
    """The value of a define called: a call of the function of its body (``Writer.defines``, lower.Lowerer.defined)."""
    made, args = w.defines(w, part)
    if made.returns_list:
        raise NotWritten("a list where one value is needed")
    w.called[made.name] = made
    return w.temp(f"{made.name}({', '.join((*PARAMS, *args))})", "x")


def _builtin(table: dict[Any, Any], part: Part, what: str) -> Any:
    """The writer of the builtin ``part`` calls, from ``table`` (calls.py's), or NotWritten naming it."""
    fn = part.data[0]
    made = table.get(fn)
    if made is None:
        raise NotWritten(f"the builtin {getattr(fn, '__name__', fn)!r}{what}")
    return made


def _call(w: Writer, part: Part) -> str:
    src: str = _builtin(SCALAR_CALLS, part, "")(w, part)
    return f"(0 if {src} != 0 else 1)" if part.data[2] else src


def _for(w: Writer, part: Part) -> str:
    var, body, cond, fn = part.data
    reduce = REDUCERS.get(fn)
    if reduce is None:
        raise NotWritten(f"a comprehension given to {getattr(fn, '__name__', fn)!r}")
    start, step, stop = reduce
    out = w.fresh("a")
    w.emit(f"{out} = {start}")
    done = w.fresh("b") if stop and in_parts(part.kids[0]) else ""  # (gone through in parts: each part stops)
    if done:
        w.emit(f"{done} = 0")

    def item() -> None:
        if done:
            w.emit(f"if {done} == 0:")
            w.scope.depth += 1
        x = w.temp(w.scalar(body))
        w.emit(step.format(out=out, x=x))
        if stop:
            with w.block(f"if {stop.format(out=out)}:"):
                w.emit(f"{done} = 1" if done else "break")
        if done:
            w.scope.depth -= 1

    each_item(w, part.kids[0], var, cond, item)
    return out


def _list_name(w: Writer, part: Part) -> Listed:
    found = w.locals.get(part.data)
    if isinstance(found, str):  # an item of a list of lists (a comprehension's variable): an interned list
        return interned_list(w, found)
    if not isinstance(found, tuple):
        raise NotWritten(f"the name {part.data!r}")
    return found


def _list_zone(w: Writer, part: Part) -> Listed:
    row = w.lay.layout.zone_slot(part.data)
    return f"z[{row}]", f"zn[{row}]"


def _list_round(w: Writer, part: Part) -> Listed:
    return _list_value(w, "round", part.data)


def _list_game(w: Writer, part: Part) -> Listed:
    return _list_value(w, "game", part.data)


def _list_value(w: Writer, where: str, name: str) -> Listed:
    try:
        row = w.lay.list_of(where, name)
    except (KeyError, ValueError):
        raise NotWritten(f"the {where} list {name!r}") from None
    return f"l[{row}]", f"ln[{row}]"


def _list_seat(w: Writer, part: Part) -> Listed:
    (seat,) = part.kids
    _, _, stateful, _, name = part.data
    base = w.seat_base(name, stateful)
    if not isinstance(base, tuple):
        raise NotWritten(f"the seat value {name!r} read as a list")
    s = w.temp(w.scalar(seat))
    held, row = base
    if seat.sure:
        return f"{held}[{row} + {s}]", f"{held}n[{row} + {s}]"
    count = w.temp(f"{held}n[{row} + {s}] if {s} != NONE else -1", "n")  # none of none
    return f"{held}[{row} + {s} if {s} != NONE else {row}]", count


def _list_list(w: Writer, part: Part) -> Listed:
    items = [w.temp(w.scalar(k)) for k in part.kids]
    buf, count = w.new_list(str(len(items)))
    for x in items:
        w.emit(f"{buf}[{count}] = {x}")
        w.emit(f"{count} += 1")
    return buf, count


def _list_index(w: Writer, part: Part) -> Listed:
    if is_let(part):
        found: Listed = w.let(part.kids[0], w.listed)
        return found
    return interned_list(w, _index(w, part))  # (an item of a list of lists: an interned list)


def _list_if(w: Writer, part: Part) -> Listed:
    test, yes, no = part.kids
    buf, count = w.fresh("L"), w.fresh("n")
    for head, kid in ((f"if {w.truth(test)}:", yes), ("else:", no)):
        with w.block(head):
            b, n = w.listed(kid)
            w.emit(f"{count} = {n}")
            w.scratch(buf, n)
            i = w.fresh("i")
            with w.block(f"for {i} in range({count}):"):
                w.emit(f"{buf}[{i}] = {b}[{i}]")
    return buf, count


def _list_memo(w: Writer, part: Part) -> Listed:
    return w.listed(part.kids[0])


def _list_define(w: Writer, part: Part) -> Listed:
    """The list a define called gives: its items where the function of its body put them in the scratch space (the
    caller gives the room back), and their count."""
    made, args = w.defines(w, part)
    if not made.returns_list:
        raise NotWritten("one value where a list is needed")
    w.called[made.name] = made
    w.takes = True
    at, buf, count = w.fresh("at"), w.fresh("L"), w.fresh("n")
    w.emit(f"{at}, {count} = {made.name}({', '.join((*PARAMS, *args))})")
    w.emit(f"{buf} = h[{at}:{at} + max({count}, 1)]")
    return buf, count


def _list_for(w: Writer, part: Part) -> Listed:
    var, body, cond, fn = part.data
    if fn is not None:
        reduce = LIST_REDUCERS.get(fn) if body.type.kind == "list" else None
        if reduce is None:
            raise NotWritten(f"a list given to {getattr(fn, '__name__', fn)!r}")
        found: Listed = reduce(w, part)
        return found
    if in_parts(part.kids[0]):  # (not made: its parts gone through, list_items.py)
        made = w.new_list(str(w.lay.capacity))
        each_item(w, part.kids[0], var, cond, lambda: appended(w, made, w.temp(item_of(w, body))))
        return made
    items = w.copied(w.listed(part.kids[0]))  # (worked out once: its count is the new list's room)
    out, count = w.new_list(items[1])
    with w.each(part.kids[0], var, cond, items):
        w.emit(f"{out}[{count}] = {item_of(w, body)}")
        w.emit(f"{count} += 1")
    return out, count


def _list_call(w: Writer, part: Part) -> Listed:
    found: Listed = _builtin(LIST_CALLS, part, " giving a list")(w, part)
    return found


SCALARS: dict[str, Any] = {
    "name": _name, "round": _round, "game": _game, "attr": _attr, "seat": _seat, "field": _field, "index": _index,
    "not": _not, "neg": _neg, "arith": _arith, "infix": _infix, "if": _if, "memo": _memo, "define": _define,
    "call": _call, "for": _for,
}
LISTS: dict[str, Any] = {
    "name": _list_name, "zone": _list_zone, "round": _list_round, "game": _list_game, "seat": _list_seat,
    "list": _list_list, "index": _list_index, "if": _list_if, "memo": _list_memo, "define": _list_define,
    "for": _list_for, "call": _list_call,
}
