"""A ``set`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/values.py's written code): its values worked out in order and stored, each before the next is worked
out (a later one reads an earlier one; a value of each seat is stored seat by seat, as the Python backend does).
``PREFIX_start`` does it all and returns ``DONE``; the step owns no progress slot.

A value held as one value (arrays.py's ``v``) is stored as its whole number; a value held as a list (a row of
``l``) is stored as a copy of the list the expression gives (none: ``ln`` -1), a list written as a constant by its
items; a text made in play (engine/made_texts.py) as only whether there is one (compiled/made_texts.py). A set a
trick runs reads the names the trick binds (``Writing.outer``). Not written (NotWritten): a value the arrays do not
hold (the rounds' scores...), an expression the writer does not write (lower.py: a record made in play...), one
reading a name of a holding step when written without it, and a constant list of more items than a row holds (the
arrays' capacity: the deck's size, or the seats). A list worked out in play must fit in a row too: a limit of the
arrays, not checked. The narration of round values (``narrate``) and ``visible`` are the Python backend's: the
compiled backend tells nothing and shows nothing.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.made_texts import presence
from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NotWritten
from interpreter.dsl.types import SEAT
from interpreter.runtime.layout import GAME, ROUND
from interpreter.runtime.layout import SEAT as SEAT_VALUE

_PARTS = {"round": ROUND, "game": GAME, "seats": SEAT_VALUE, "game_seats": SEAT_VALUE}


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a set step (see the module's docstring)."""
    lines = [f"def {w.prefix}_start({ARRAYS}, p):"]
    for group, name, expr in step.assign:
        part = _PARTS[group]
        if part == SEAT_VALUE:
            lines += [f"    for s in range({w.players}):",
                      *("    " + line for line in _store(w, expr, part, name, 0, "s", {"seat": "s"}))]
        else:
            lines += _store(w, expr, part, name, None, "0", {})
    lines += ["    return DONE", ""]
    return StepCode(w.prefix, "\n".join(lines), 0, expressions=w.expressions)


def _store(w: Writing, expr: Any, part: str, name: str, seat: int | None, offset: str,
           names: dict[str, str]) -> list[str]:
    """The lines that store ``expr``'s value (``names`` bound) in the value ``name`` of ``part`` (of the seat
    ``offset`` after ``seat``)."""
    lay = w.lay
    slot = lay.layout.value_slot(part, name, seat)
    index, row = lay.value_index[slot], lay.list_row[slot]
    gives_list = expr.type.kind == "list" or (expr.part is not None and expr.part.const
                                              and isinstance(expr.part.value, (list, tuple)))
    if index is not None and slot in lay.made:  # (a text made in play: whether there is one)
        return [f"    v[{index} + {offset}] = {presence(w, expr, names, {'seat': SEAT})}"]
    if index is None and row is None:
        raise NotWritten(f"the value {name!r}, which the arrays do not hold")
    if index is not None:
        if gives_list:
            raise NotWritten(f"a list given to the value {name!r}, held as one value")
        return [f"    v[{index} + {offset}] = {w.call(expr, names, {'seat': SEAT}, 'value')}"]
    if not gives_list:
        raise NotWritten(f"one value given to the list {name!r}")
    assert expr.part is not None
    at = f"{row} + {offset}"
    if expr.part.const:  # a list written in the rule: its items
        items = [w.lowerer.values.encode(x) for x in expr.part.value]
        if len(items) > lay.capacity:
            raise NotWritten(f"a list of more items than a row of the arrays holds, for {name!r}")
        return [f"    ln[{at}] = {len(items)}", *(f"    l[{at}, {i}] = {x}" for i, x in enumerate(items))]
    call = w.call(expr, names, {"seat": SEAT}, "value", lists=True)
    return [*("    " + line for line in w.listed(call, "buf", "count")),
            f"    ln[{at}] = count",
            "    for i in range(count):",
            f"        l[{at}, i] = buf[i]"]
