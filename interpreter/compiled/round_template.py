"""A game's round written for the compiled backend: the second template of engine/round_code.py's functions, over the
arrays: ``round_start`` (a round begins: its values none, counters at zero, each seat its own team and the teams
public, the round's number and dealer), ``game_begin`` (the game's values and each seat's), ``round_over`` (1 when
the game ends with the round just played: ``until``, ``rounds``), ``can_win`` (whether a seat may win:
``game.can_win``) and ``next_dealer``.

Not written (NotWritten): what the arrays do not hold (the rounds' results, the last round's values); the machine
keeps the game's end to its ``until`` and ``rounds``.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, Writing
from interpreter.compiled.values import NONE, NotWritten
from interpreter.dsl.types import SEAT, Type
from interpreter.runtime.layout import COUNTED, COUNTER, DEALER, GAME, KNOWN, NUMBER, ROUND, TEAM
from interpreter.runtime.layout import SEAT as SEAT_PART

_NAMES: dict[str, Type] = {"seat": SEAT}


def round_source(game: Any, w: Writing) -> str:
    """The round's functions (see the module's docstring) for ``game``, written with ``w``."""
    lay, players = w.lay, w.players
    number, dealer = lay.value(NUMBER), lay.value(DEALER)
    lines = [f"def round_start({ARRAYS}):", f"    v[{number}] += 1"]
    for name in game.round_fields:
        lines.append(_none(w, ROUND, name, None))
    lines += [f"    v[{lay.value(ROUND, 'number')}] = v[{number}]",
              f"    v[{lay.value(ROUND, 'dealer')}] = v[{dealer}]"]
    for name in game.seat_value_names:
        lines += [_none(w, SEAT_PART, name, s) for s in range(players)]
    team = lay.value(TEAM, "", 0)
    lines.append(f"    for s in range({players}):")
    for counter in game.counters:
        lines.append(f"        v[{lay.value(COUNTER, counter, 0)} + s] = 0")
    lines += [f"        v[{team} + s] = s",
              f"    ln[{lay.list_of(KNOWN)}] = -1",  # (the teams public again, their sizes not told)
              f"    v[{lay.value(COUNTED)}] = 0", ""]
    flow = game.flow
    lines.append(f"def game_begin({ARRAYS}):")
    for name, expr in flow.game_values.items():
        lines.append(f"    v[{_value(w, GAME, name, None)}] = {w.call(expr, {}, _NAMES, 'game')}")
    for name, expr in flow.game_seat_values.items():
        at = _value(w, SEAT_PART, name, 0)
        value = w.call(expr, {"seat": "s"}, _NAMES, "game")
        lines += [f"    for s in range({players}):", f"        v[{at} + s] = {value}"]
    lines += ["    return 0", "", f"def round_over({ARRAYS}):"]
    if flow.until is not None:
        lines += [f"    if truth({w.call(flow.until, {}, _NAMES, 'until')}):", "        return 1"]
    if flow.rounds is not None:
        lines += [f"    if v[{number}] >= {w.call(flow.rounds, {}, _NAMES, 'rounds')}:", "        return 1"]
    lines += ["    return 0", "", f"def can_win({ARRAYS}, s):"]  # (a seat that may win the game: game.can_win)
    if flow.can_win is None:
        lines.append("    return 1")
    else:
        lines.append(f"    return 1 if truth({w.call(flow.can_win, {'seat': 's'}, _NAMES, 'can_win')}) else 0")
    lines += ["", f"def next_dealer({ARRAYS}):"]
    if flow.next_dealer is None:
        lines.append(f"    return (v[{dealer}] + 1) % {players}")
    else:
        lines.append(f"    return {w.call(flow.next_dealer, {}, _NAMES, 'dealer')}")
    return "\n".join(lines) + "\n"


def _value(w: Writing, part: str, name: str, seat: int | None) -> int:
    try:
        return w.lay.value(part, name, seat)
    except KeyError:
        raise NotWritten(f"the {part} value {name!r}, which the arrays hold as a list or not at all") from None


def _none(w: Writing, part: str, name: str, seat: int | None) -> str:
    """The statement that makes a value none (a list slot's count -1)."""
    slot = w.lay.layout.value_slot(part, name, seat)
    index, row = w.lay.value_index[slot], w.lay.list_row[slot]
    if index is not None:
        return f"    v[{index}] = {NONE}"
    if row is not None:
        return f"    ln[{row}] = -1"
    return "    pass"  # (a value the arrays do not hold: nothing reads it in compiled code)
