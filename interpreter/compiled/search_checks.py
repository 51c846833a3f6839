"""The runs' part of a compiled search's plan (checks_template.py): for each run of a set step (or teams step)
that a sample works out again (engine/knowledge.py's checks, the runs that worked out the hidden values the seat
does not know, the teams step that hid the teams), the state before it packed into the arrays, each unknown card's
place there, the hidden values it reads and works out, and what it is compared with; or None where a run is not
worked out compiled (the samples are then drawn in Python: compiled/search.py's ``Drawn``).

A run is worked out compiled where its step is one the module can start on its own (``prefixed_steps``: one of the
round's steps, or of a repeat's, not a step a trick runs, which reads the trick's progress), no value it read that
the plan does not write names an unknown card by its id (the arrays would not rename it), what it told is held in
the arrays (one number, or a list's row), and the values it reads or works out are one number each.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.arrays import pack_arrays
from interpreter.compiled.kinds import REPEATS
from interpreter.compiled.values import INTERNED, NotWritten
from interpreter.engine.card_values import renamed
from interpreter.engine.knowledge import places
from interpreter.runtime.layout import GAME, ROUND, SEAT, TEAM, pack
from interpreter.runtime.slot_samples import Asked
from interpreter.runtime.slots import Slots


def prefixed_steps(game: Any, kinds: tuple[str, ...] = ("set", "teams")) -> list[tuple[Any, str]]:
    """The steps of ``kinds`` of ``game`` a run can be (set steps and teams steps; or a redraw's, choose steps),
    with the prefix of their compiled functions (compiled/machine.py and repeat_template.py name them so): the
    round's, and those of its repeats, a trick's own not among them."""
    found: list[tuple[Any, str]] = []

    def walk(steps: list[Any], prefix: str) -> None:
        for k, step in enumerate(steps):
            name = f"{prefix}{k}" if prefix == "s" else f"{prefix}i{k}"
            if step.kind in kinds and not getattr(step, "bound", None):
                found.append((step, name))
            elif step.kind in REPEATS:
                walk(step.inner, name)

    walk(list(game.steps), "s")
    return found


def checks_part(machine: Any, unknown: Any, spots: list[tuple[list[int], list[int]]]) -> list[int] | None:
    """The runs' part of the plan of ``unknown``'s decision (``spots``: each deal's unknown cards' rows and columns in
    ``z`` now; see checks_template.py), or None where a run is not worked out compiled (see the module's
    docstring)."""
    knowledge, seat, lay = unknown.knowledge, unknown.seat, machine.lay
    teams = unknown.teams  # (hidden teams worked out again: a run compared with what the seat knows of them)
    runs = _ordered([*unknown.checks, *knowledge.derived.values(), *([teams] if teams is not None else [])])
    number = {id(run): k for k, run in enumerate(runs)}
    checks = {id(run) for run in [*unknown.checks, *([teams] if teams is not None else [])]}  # (those compared)
    rows = [r for rs, _ in spots for r in rs]
    cols = [c for _, cs in spots for c in cs]
    true = [c for cards, _, _ in unknown.events for c in cards]
    out = [len(runs), len(true), *rows, *cols]
    try:
        for run in runs:
            part = _run(machine, unknown, run, number, true, id(run) in checks)
            if part is None:
                return None
            out += part
        writes = [(held_as_one(lay, name, s), number[id(run)], _worked(run, name, s, lay))
                  for name, run in knowledge.derived.items() for s in _others(unknown.game, name, seat, lay)]
        players = lay.layout.players
        writes += [(lay.value(TEAM, "", s), number[id(teams)], s) for s in range(players) if teams is not None]
    except NotWritten:
        return None
    return [*out, len(writes), *(x for w in writes for x in w)]


def _ordered(found: list[Any]) -> list[Any]:
    """The runs ``found`` and those whose hidden values they read, each after those it reads (once each)."""
    done: dict[int, Any] = {}

    def visit(run: Any) -> None:
        if id(run) not in done:
            for d in run.derived.values():
                visit(d)
            done[id(run)] = run

    for run in found:
        visit(run)
    return list(done.values())


def _others(game: Any, name: str, seat: int, lay: Any) -> range | list[int]:
    """The seats whose hidden value ``name`` a sample takes from a run (all but ``seat``, which knows its own, unless
    no seat sees its own)."""
    players = lay.layout.players
    return range(players) if game.visibility.get(name) == "nobody" else [s for s in range(players) if s != seat]


def _worked(run: Any, name: str, seat: int, lay: Any) -> int:
    """Which of ``run``'s values worked out is seat ``seat``'s ``name`` (its step's hidden values, each seat's)."""
    return list(getattr(run.step, "hidden", ())).index(name) * lay.layout.players + seat


def _run(machine: Any, unknown: Any, run: Any, number: dict[int, int], true: list[int], check: bool
         ) -> list[int] | None:
    """One run's part of the plan (see checks_template.py), or None where it is not worked out compiled."""
    which = machine.checked.get(id(run.step))
    if which is None or _names_unknown(unknown, run, set(true)):
        return None
    lay, game, seat = machine.lay, machine.game, unknown.seat
    players = lay.layout.players
    told: list[int] = []
    for group, name in run.outputs if check else ():
        for s in (range(players) if group not in ("round", "game") else (None,)):
            slot = lay.layout.value_slot({"round": ROUND, "game": GAME}.get(group, SEAT), name, s)
            index, row = lay.value_index[slot], lay.list_row[slot]
            if slot in lay.made or index is None and row is None:
                return None
            told += [0, index] if index is not None else [1, row]
    for name in run.mine if check else ():  # (the seat's own value, as it was worked out)
        told += [0, held_as_one(lay, name, seat)]
    teams = run is unknown.teams  # (each team the seat knows; all as a group where their sizes are public)
    known = unknown.view if teams else ()
    told += [x for s, t in enumerate(known) if t is not None for x in (0, lay.value(TEAM, "", s))]
    told += [x for s in range(players) if teams and unknown.state.team_counted for x in (2, lay.value(TEAM, "", s))]
    width = sum(1 + lay.width if kind == 1 else 1 for kind in told[::2])  # (their true values' room)
    reads = [x for name, d in run.derived.items() for s in _others(game, name, seat, lay)
             for x in (held_as_one(lay, name, s), number[id(d)], _worked(d, name, s, lay))]
    outs = [held_as_one(lay, name, s) for name in getattr(run.step, "hidden", ()) for s in range(players)]
    outs = [lay.value(TEAM, "", s) for s in range(players)] if teams else outs
    snap = pack_arrays(lay, Slots.of(game, pack(game, run.before)), machine.values)
    if any((a >= INTERNED + machine.held).any() for a in (snap.v, snap.l)):
        return None  # (a value interned after the module was made: its tables do not hold it)
    places_then = _places(lay, snap, run.before, true)
    if places_then is None:
        return None
    state = [*snap.zn, *snap.z.ravel(), *snap.v, *snap.ln, *snap.l.ravel()]
    head = [which, len(told) // 2, 0, 0, len(reads) // 3, len(outs)]
    body = [*places_then, *told, *reads, *outs, *([0] * width), *([0] * len(outs)), *state]
    head[3] = len(head) + len(body)
    return [*head, *body]


def _names_unknown(unknown: Any, run: Any, cards: set[int]) -> bool:
    """Whether a value ``run`` read that the plan does not write (a hidden value worked out by another run) names
    an unknown card by its id (the arrays would not rename it)."""
    types = unknown.game.value_types
    for part, name in run.reads:
        if part == "zone" or part == "seat" and name in run.derived:
            continue
        before = run.before
        held = before.seat_vars.get(name, ()) if part == "seat" else [
            (before.vars if part == "round" else before.game_vars).get(name)]
        asked = Asked()
        for value in held:
            renamed(types.get(name), value, asked)
        if asked.any_of(cards):
            return True
    return False


def _places(lay: Any, snap: Any, before: Any, true: list[int]) -> list[int] | None:
    """Each unknown card's row and column in ``snap`` (the arrays of ``before``): all rows, then all columns; -1
    for a card in no zone then; None where the arrays do not hold one where ``before`` does."""
    where = {c: place for place, cards in places(before) for c in cards}
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
    return [*srows, *scols]


def column(free: dict[int, dict[int, list[int]]], arrays: Any, row: int, k: int) -> int | None:
    """A column of ``row`` of ``arrays`` holding a card of kind ``k`` not taken yet (None: none left)."""
    columns = free.get(row)
    if columns is None:
        columns = free[row] = {}
        for col in range(int(arrays.zn[row]) - 1, -1, -1):
            columns.setdefault(int(arrays.z[row, col]), []).append(col)
    left = columns.get(k)
    return left.pop() if left else None


def held_as_one(lay: Any, name: str, seat: int | None) -> int:
    """The index in v of the value ``name`` (a seat's, or a round value where ``seat`` is None) a sample writes;
    NotWritten where the arrays do not hold it as one number."""
    slot = lay.layout.value_slot(ROUND if seat is None else SEAT, name, seat)
    index = lay.value_index[slot]
    if index is None or slot in lay.made:
        raise NotWritten(f"the value {name!r}, worked out or drawn again on a sample, not one number in the arrays")
    return index
