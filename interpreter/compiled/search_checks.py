"""The checks' part of a compiled search's plan (checks_template.py): for each check of engine/knowledge.py that a
sample must agree with, the state before its step packed into the arrays, each unknown card's place there, and
where the values it told are held; or None where a check is not worked out compiled (the samples are then drawn in
Python: compiled/search.py's ``Drawn``).

A check is worked out compiled where its step is a set step the module can start on its own (``set_steps``: one of
the round's steps, or of a repeat's, not a step a trick runs, which reads the trick's progress), what it read that
is hidden is zones only (a value read would name the unknown cards by their ids, which the arrays do not rename),
what it told is held in the arrays (one number, or a list's row), and it tells no seat a value of its own
(``mine``: the Python sampler compares those).
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.arrays import pack_arrays
from interpreter.compiled.kinds import REPEATS
from interpreter.compiled.values import INTERNED
from interpreter.engine.knowledge import places
from interpreter.runtime.layout import GAME, ROUND, SEAT, pack
from interpreter.runtime.slots import Slots


def set_steps(game: Any) -> list[tuple[Any, str]]:
    """The set steps of ``game`` a check can be, with the prefix of their compiled functions (compiled/machine.py
    and repeat_template.py name them so): the round's, and those of its repeats, a trick's own not among them."""
    found: list[tuple[Any, str]] = []

    def walk(steps: list[Any], prefix: str) -> None:
        for k, step in enumerate(steps):
            name = f"{prefix}{k}" if prefix == "s" else f"{prefix}i{k}"
            if step.kind == "set" and not getattr(step, "bound", None):
                found.append((step, name))
            elif step.kind in REPEATS:
                walk(step.inner, name)

    walk(list(game.steps), "s")
    return found


def checks_part(machine: Any, unknown: Any, spots: list[tuple[list[int], list[int]]]) -> list[int] | None:
    """The checks' part of the plan of ``unknown``'s decision (``spots``: each deal's unknown cards' rows and
    columns in ``z`` now; see checks_template.py), or None where a check is not worked out compiled (see the
    module's docstring)."""
    rows = [r for rs, _ in spots for r in rs]
    cols = [c for _, cs in spots for c in cs]
    true = [c for cards, _, _ in unknown.events for c in cards]
    out = [len(unknown.checks), len(true), *rows, *cols]
    for run in unknown.checks:
        part = _check(machine, run, true)
        if part is None:
            return None
        out += part
    return out


def _check(machine: Any, run: Any, true: list[int]) -> list[int] | None:
    """One check's part of the plan (see checks_template.py), or None where it is not worked out compiled."""
    which = machine.checked.get(id(run.step))
    if which is None or run.mine or any(part != "zone" for part, _ in run.reads):
        return None
    lay = machine.lay
    told: list[int] = []
    width = 0
    for group, name in run.outputs:
        for seat in (range(lay.layout.players) if group not in ("round", "game") else (None,)):
            slot = lay.layout.value_slot({"round": ROUND, "game": GAME}.get(group, SEAT), name, seat)
            index, row = lay.value_index[slot], lay.list_row[slot]
            if slot in lay.made or index is None and row is None:
                return None
            told += [0, index] if index is not None else [1, row]
            width += 1 if index is not None else 1 + lay.width
    game = machine.game
    snap = pack_arrays(lay, Slots.of(game, pack(game, run.before)), machine.values)
    if any((a >= INTERNED + machine.held).any() for a in (snap.v, snap.l)):
        return None  # (a value interned after the module was made: its tables do not hold it)
    where = {c: place for place, cards in places(run.before) for c in cards}
    layout, kind = lay.layout, lay.layout.kind
    free: dict[int, dict[int, list[int]]] = {}
    srows, scols = [], []
    for c in true:
        place = where.get(c)
        if place is None:
            srows.append(-1)
            scols.append(-1)
            continue
        zone, seat = place
        row = layout.zone_slot(zone, None if seat < 0 else seat)
        col = column(free, snap, row, kind[c])
        if col is None:
            return None
        srows.append(row)
        scols.append(col)
    state = [*snap.zn, *snap.z.ravel(), *snap.v, *snap.ln, *snap.l.ravel()]
    head = [which, len(told) // 2, 0]
    body = [*srows, *scols, *told, *([0] * width), *state]
    return [*head, len(head) + 1 + len(body), *body]


def column(free: dict[int, dict[int, list[int]]], arrays: Any, row: int, k: int) -> int | None:
    """A column of ``row`` of ``arrays`` holding a card of kind ``k`` not taken yet (None: none left)."""
    columns = free.get(row)
    if columns is None:
        columns = free[row] = {}
        for col in range(int(arrays.zn[row]) - 1, -1, -1):
            columns.setdefault(int(arrays.z[row, col]), []).append(col)
    left = columns.get(k)
    return left.pop() if left else None
