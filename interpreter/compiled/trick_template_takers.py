"""The sharing of a won trick among several takers (``takers``), written for the compiled backend (trick_template.py)
as engine/steps/trick_takers.py shares it: each taker after the winner found by its own ordering (none when no card
is eligible), then each in turn given its share: a taker that takes a number of cards (``takes``) chooses them one by
one (a decision of the step, its seat at ``ASK``, its action a card's kind), a taker of the rest takes every card
left; the cards nobody takes go to ``unclaimed``; then the next trick.

A card taken is the last of its kind in the trick; who played it (the route's ``player``), the last play of that
kind not taken yet (the plays' ``taken`` marks), as the Python backend finds the card and its player.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS
from interpreter.compiled.trick_progress import ASK, LEFT, PLAYED, TAKING, WINNER


def write(t: Any) -> list[str]:
    """``NAME_shares``, ``NAME_share``, ``NAME_settle`` and ``NAME_chosen`` of the trick step ``t`` writes
    (trick_template.TrickWriter)."""
    step, regions, name, trick = t.step, t.regions, t.name, t.trick
    count = len(step.takers)
    lines = [f"def {name}_shares({ARRAYS}, p, led):",  # the takers found, the first share
             *(f"    {t.at(regions.takers + i)} = {name}_best{i}({ARRAYS}, p, led)\n"
               f"    if {t.at(regions.takers + i)} < 0:\n"
               f"        {t.at(regions.takers + i)} = NONE" for i in range(1, count)),
             f"    for k in range({t.at(PLAYED)}):",
             f"        {t.at_(regions.taken, 'k')} = 0",
             f"    {t.at(TAKING)} = 0",
             f"    {t.at(LEFT)} = {name}_share({ARRAYS}, p, 0)",
             f"    return {name}_settle({ARRAYS}, p)", "",
             f"def {name}_share({ARRAYS}, p, i):",  # how many cards the i-th taker chooses (-1: the rest)
             "    k = NONE"]
    for i, taker in enumerate(step.takers):
        if taker.takes is not None:
            lines += [f"    if i == {i}:", f"        k = {t.call(taker.takes, {}, 'takes')}"]
    lines += ["    return -1 if k == NONE else k", "",
              f"def {name}_settle({ARRAYS}, p):",  # shares given until a taker chooses; then the next trick
              f"    winner = {t.at(WINNER)}",
              f"    while {t.at(TAKING)} < {count}:",
              f"        taker = {t.at_(regions.takers, t.at(TAKING))}",
              f"        if taker != NONE and zn[{trick}] > 0 and {t.at(LEFT)} != 0:",
              f"            if {t.at(LEFT)} > 0:",
              f"                {t.at(ASK)} = taker",
              "                return DECIDES",
              f"            for k in range({t.at(PLAYED)}):",  # the rest, in the trick's order
              f"                if {t.at_(regions.taken, 'k')} == 0:",
              f"                    {t.at_(regions.taken, 'k')} = 1",
              f"                    {name}_route({ARRAYS}, p, {t.play('k')}, taker, winner)",
              f"            zn[{trick}] = 0",
              f"        {t.at(TAKING)} += 1",
              f"        if {t.at(TAKING)} < {count}:",
              f"            {t.at(LEFT)} = {name}_share({ARRAYS}, p, {t.at(TAKING)})"]
    if step.unclaimed is not None:
        row = t.lay.layout.zone_slot(step.unclaimed)
        lines += [f"    for i in range(zn[{trick}]):",
                  f"        z[{row}, zn[{row}]] = z[{trick}, i]",
                  f"        zn[{row}] += 1"]
    lines += [f"    zn[{trick}] = 0",
              f"    {t.at(TAKING)} = -1",
              *t.closing(),
              f"def {name}_chosen({ARRAYS}, p, card):",  # the taker choosing takes a card of the trick
              f"    {name}_remove(z, zn, {trick}, card)",
              "    player = -1",
              f"    for k in range({t.at(PLAYED)} - 1, -1, -1):",
              f"        if {t.at_(regions.taken, 'k')} == 0 and {t.at_(regions.cards, 'k')} == card:",
              f"            {t.at_(regions.taken, 'k')} = 1",
              f"            player = {t.at_(regions.seats, 'k')}",
              "            break",
              f"    {name}_route({ARRAYS}, p, player, card, {t.at_(regions.takers, t.at(TAKING))}, {t.at(WINNER)})",
              f"    {t.at(LEFT)} -= 1",
              f"    if {t.at(LEFT)} == 0:",
              f"        {t.at(TAKING)} += 1",
              f"        if {t.at(TAKING)} < {count}:",
              f"            {t.at(LEFT)} = {name}_share({ARRAYS}, p, {t.at(TAKING)})",
              f"    return {name}_settle({ARRAYS}, p)", ""]
    return lines
