"""A ``deal`` step written for the compiled backend (the step kind's second template, steps.py, beside
engine/steps/deal_code.py's): its number of cards worked out, chance's wait, and a deal dealt.

* ``PREFIX_start`` works the number of cards each seat gets out (``hand``: a constant or an expression) into the
  progress slot ``COUNT`` (an unequal deal, whose ``hand`` reads ``seat``: each seat's into the slots after
  ``DEALT``, ``COUNT`` their sum) and returns ``CHANCE``: the step waits for a deal. A number this pack cannot
  give is not refused here (the Python backend refuses it, faults.py's ``deal_problem``; the compiled one plays
  only what the Python backend has checked): more cards than the pack has deals none to the seats.
* ``PREFIX_deal(..., order)`` deals ``order`` (the pack's cards as their kinds, in the order the Python backend's
  chance outcome lists them, deal_chance.py): the pack gathered back from every zone first (every card, for a deal
  of the whole deck; else the kinds of the pack, for a deal with ``cards``), then ``COUNT`` cards to each seat's
  ``to`` zone in seat order, the rest to ``rest``. ``DEALT`` becomes 1; it returns ``DONE``.
* ``PREFIX_pack(..., out)`` writes the pack (its kinds, in the order of the deck the Python backend's sampler
  shuffles: ``DealReading.pack``) into ``out`` and returns how many: a shuffle of it is an ``order`` a deal takes.

Every option of the step kind is written (``hand``, ``to``, ``rest``, ``cards``); a deal whose ``cards`` picks some
copies of identical cards and not others cannot be told apart in kinds (NotWritten).
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing, table
from interpreter.compiled.values import NotWritten
from interpreter.dsl.types import SEAT

COUNT, DEALT = range(2)


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a deal step (see the module's docstring)."""
    lay = w.lay.layout
    name, n = w.prefix, w.players
    pack = [lay.kind[c] for c in step.pack]
    if step.packed is not None:
        kinds = set(pack)
        if any(lay.kind[c] in kinds and c not in step.packed for c in range(len(lay.kind))):
            raise NotWritten("a deal's cards that pick some copies of identical cards")
    hand = lay.zone_slot(step.hand_zone, 0)
    lines = [table(f"{name}_kinds", pack), *_tables(name, lay, step, pack), "", "",
             f"def {name}_start({ARRAYS}, p):", *_counted(step, w, n),
             f"    {w.at(DEALT)} = 0",
             "    return CHANCE", "",
             f"def {name}_pack({ARRAYS}, p, out):",
             f"    for i in range({len(pack)}):",
             f"        out[i] = {name}_kinds[i]",
             f"    return {len(pack)}", "",
             f"def {name}_deal({ARRAYS}, p, order):",
             *_gather(step, lay, name),
             f"    total = {w.at(COUNT)}" if step.per_seat else f"    total = {w.at(COUNT)} * {n}",
             "    at = 0",  # (a number the Python backend refuses deals no card)
             f"    for s in range({n}):",
             f"        row = {hand} + s",
             "        count = " + (f"p[{w.base} + {DEALT + 1} + s]" if step.per_seat else w.at(COUNT)),
             "        if count < 0 or total > len(order):",
             "            count = 0",
             "        for i in range(count):",
             "            z[row, zn[row] + i] = order[at + i]",
             "        zn[row] += count",
             "        at += count"]
    if step.rest is not None:
        rest = lay.zone_slot(step.rest)
        lines += ["    for i in range(at, len(order)):",
                  f"        z[{rest}, zn[{rest}]] = order[i]",
                  f"        zn[{rest}] += 1"]
    lines += [f"    {w.at(DEALT)} = 1", "    return DONE", ""]
    size = 2 + (n if step.per_seat else 0)
    return StepCode(name, "\n".join(lines), size, deals=True, expressions=w.expressions)


def _counted(step: Any, w: Writing, n: int) -> list[str]:
    """The lines of ``start`` that work the number of cards out: one for every seat (``COUNT``), or each seat's
    (an unequal deal: in the slots after ``DEALT``, their sum in ``COUNT``)."""
    if not step.per_seat:
        count = str(step.count({})) if step.count.is_constant else w.call(step.count, {}, {}, "hand")
        return [f"    {w.at(COUNT)} = {count}"]
    one = w.call(step.count, {"seat": "s"}, {"seat": SEAT}, "hand")
    return [f"    {w.at(COUNT)} = 0",
            f"    for s in range({n}):",
            f"        one = {one}",
            f"        p[{w.base} + {DEALT + 1} + s] = one",
            f"        {w.at(COUNT)} += one"]


def _tables(name: str, lay: Any, step: Any, pack: list[int]) -> list[str]:
    """The table ``_gather`` reads, where it reads one: which kinds the deal deals (``NAME_dealt``)."""
    if step.packed is None:
        return []
    dealt = [0] * len(lay.kind)
    for k in pack:
        dealt[k] = 1
    return [table(f"{name}_dealt", dealt)]


def _gather(step: Any, lay: Any, name: str) -> list[str]:
    """The pack gathered back: every zone emptied (a deal of the whole deck), or the pack's kinds taken out of
    every zone, the other cards kept in their order."""
    if step.packed is None:
        return ["    zn[:] = 0"]
    return [f"    for row in range({len(lay.zones)}):",
            "        m = 0",
            "        for i in range(zn[row]):",
            "            c = z[row, i]",
            f"            if {name}_dealt[c] == 0:",
            "                z[row, m] = c",
            "                m += 1",
            "        zn[row] = m"]
