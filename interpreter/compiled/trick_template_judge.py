"""A greedy agent's play in a ``tricks`` step written for the compiled backend (trick_template.py): each legal play
judged as engine/steps/trick_search.py's ``judge`` judges it, from the same declaration (the trick's ordering and its
``can_win``), and the pick harness/greedy.py's GreedyAgent makes of the judgements.

``NAME_greedy(arrays, p, out, n, pays)``: for each play of ``out[:n]`` (a card's kind, plus its zone's index times
the deck's size), the seat that would win the trick with it played (the ordering's best card, ``NAME_best0``, of
the plays so far and this one, the card that sets the suit found again) and the card's strength (the ordering's
keys of the card alone, the led card, or the card itself when none is led); a play puts the deciding seat's side
ahead when that winner is on its team. When taking cards pays (``pays``), the weakest of the plays that put the side
ahead, else the weakest of all; otherwise the strongest of those that do not, else the strongest of all (of equal
strengths: the first play listed when taking pays, the last otherwise, as a stable sort weakest first gives them).
It returns the index of its pick in ``out``, or -1 where GreedyAgent decides at random: a step the trick runs
deciding, or a taker choosing cards. The play is written into the trick's regions for the judging and taken out
again; the keys and the one-card trick are taken from the scratch space and given back.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, Writing
from interpreter.compiled.trick_progress import ASK, PLAYED, TAKING, TURN
from interpreter.runtime.layout import TEAM


def write(t: Any) -> list[str]:
    """``NAME_greedy`` of the trick step ``t`` writes (trick_template.TrickWriter)."""
    keys = t.strengths(0)
    width = max(len(keys), 1)
    regions, name = t.regions, t.name
    key = t.base + regions.key
    team = t.lay.value(TEAM, "", 0)
    lines = [f"def {name}_greedy({ARRAYS}, p, out, n, pays):"]
    if t.hooks:
        lines += [f"    if {t.hooks.at} >= 0:", "        return -1"]
    if not t.sole:
        lines += [f"    if {t.at(TAKING)} >= 0:", "        return -1"]
    card = "out[i]" if len(t.rows) == 1 else f"out[i] % {t.deck}"
    lines += [f"    mine = {t.at(ASK)}",
              f"    s = {t.at(TURN)}",
              f"    k = {t.at(PLAYED)}",
              f"    was_seat = {t.at_(regions.seats, 'k')}",
              f"    was_card = {t.at_(regions.cards, 'k')}",
              "    mark = h[0]",
              *("    " + line for line in Writing.scratch("tops", str(2 * width))),
              *("    " + line for line in Writing.scratch("trick", "1")),
              *("    " + line for line in Writing.scratch("trick_seats", "1")),
              "    side = -1",  # the pick among the plays that count first (ahead when taking pays, else behind)
              "    every = -1",  # the pick among all
              "    for i in range(n):",
              f"        c = {card}",
              f"        {t.at_(regions.seats, 'k')} = s",
              f"        {t.at_(regions.cards, 'k')} = c",
              f"        {t.at(PLAYED)} = k + 1",
              f"        led = {name}_led({ARRAYS}, p)",
              f"        w = {name}_best0({ARRAYS}, p, led)",
              f"        {t.at(PLAYED)} = k",
              f"        ahead = 1 if w >= 0 and v[{team} + w] == v[{team} + mine] else 0",
              "        if led == NONE:",
              "            led = c",
              "        trick[0] = c",
              "        trick_seats[0] = s",
              *(f"        p[{key + j}] = {src}" for j, src in enumerate(keys)),
              "        for which in range(2):",
              "            chosen = side if which == 0 else every",
              "            if which == 0 and ahead != pays:",
              "                continue",
              "            d = 0",
              "            if chosen >= 0:",
              f"                for j in range({len(keys)}):",
              f"                    if p[{key} + j] != tops[which * {width} + j]:",
              f"                        d = 1 if p[{key} + j] > tops[which * {width} + j] else -1",
              "                        break",
              "            if chosen < 0 or (pays == 1 and d < 0) or (pays == 0 and d >= 0):",
              f"                for j in range({len(keys)}):",
              f"                    tops[which * {width} + j] = p[{key} + j]",
              "                if which == 0:",
              "                    side = i",
              "                else:",
              "                    every = i",
              f"    {t.at_(regions.seats, 'k')} = was_seat",
              f"    {t.at_(regions.cards, 'k')} = was_card",
              "    h[0] = mark",
              "    return side if side >= 0 else every", ""]
    return lines
