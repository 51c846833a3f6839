"""The search of one decision on the compiled backend (search_template.py's ``ismcts``): what the seat does not know
gathered once in Python (engine/samples.py's ``Unknown``) and handed to the compiled call as one array
(``sample_plan``), the tree's arrays, and the call.

A sample deals the unknown cards of each deal again among the spots they hold now, never to a place that a seat has
shown lacks the card: the places of a deal are the zones (a seat's hand...) whose cards it holds, each with a ban of
its own (engine/knowledge.py's ``excluded``) its own place, all others one place that takes any card; each card has
the mask of the places it may go to. A card's spot is found in the arrays by its kind (identical cards are one kind,
so any spot of that kind among the unknown is the same).

Where a sample must agree with public values worked out from hidden cards (engine/knowledge.py's checks), or
works hidden values or hidden teams out again from its cards, the compiled draw deals again until it agrees, each
such run of a set step (or teams step) worked out again compiled on the state before it, and the other seats'
hidden values and the teams written as its cards give them (checks_template.py; the plan's part for them:
search_checks.py); the choices the seat has not seen are drawn again on it (choose_redraw.py). Where a run is not
worked out so (its step read a value naming an unknown card, or is a trick's own), where a choice drawn again is not
written so (it may be passed, or keeps a history; or two are running), or where a deal's cards go to more than
``MOST_PLACES`` places, the samples are drawn in Python by engine/samples.py's own ``Unknown.draw`` (rejection
against the checks, each check's step worked out again on the draw) and handed to the compiled search as they are,
a batch for each call (``Drawn``); the tree and the playouts stay compiled.

Drawn in Python, the choices the seat has not seen (a simultaneous choice pending) are drawn again on that sample
too, their values written with it. Not written, so that the search runs on the Python backend (NotWritten says
which): such choices kept in a history the compiled choice holds, values or a step's progress naming an unknown
card (a choice made in secret), and a hidden value or a choice's value that the arrays do not hold as one number.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from interpreter.compiled.arrays import Arrays, heap
from interpreter.compiled.choose_choices import keeps_history
from interpreter.compiled.machine import Machine
from interpreter.compiled.search_checks import checks_part, column, held_as_one
from interpreter.compiled.search_template import AVAILABLE, GIVEN, MOST_PLACES, TREE_COLUMNS
from interpreter.compiled.values import INTERNED, NotWritten
from interpreter.engine.card_values import renamed
from interpreter.engine.samples import Unknown
from interpreter.engine.steps.running import running
from interpreter.runtime.layout import TEAM
from interpreter.runtime.slot_samples import Asked, naming_unknown


def refusal(unknown: Unknown) -> str | None:
    """Why the compiled search does not search ``unknown``'s decision (None: it does)."""
    if unknown.redraws and any(keeps_history(step) for step in _redrawing(unknown)):
        return "choices the seat has not seen, drawn again, in a history the compiled choice keeps"
    values, progress = naming_unknown(unknown)
    if values:
        return f"a value naming a card the seat does not know ({values[0][0][1]!r})"
    if progress and _held(unknown):
        return "a step's progress naming a card the seat does not know (a choice made in secret)"
    return None


def worked_out(unknown: Unknown) -> bool:
    """Whether a sample of ``unknown``'s decision must agree with public values worked out from hidden cards, or works
    hidden values or hidden teams out again, or draws unseen choices again: worked out by the compiled draw
    (search_checks.py) or, where it does not, drawn in Python (``Drawn``)."""
    return bool(unknown.checks or unknown.knowledge.derived or unknown.teams is not None or unknown.redraws)


def _redrawing(unknown: Unknown) -> list[Any]:
    """The running steps whose choices the seat has not seen a sample draws again (a simultaneous choice pending)."""
    return [step for step, _ in running(unknown.game.steps, unknown.state.step_index, unknown.state.progress)
            if step.search.redrawn()]


def _held(unknown: Unknown) -> bool:
    """Whether the compiled progress of a running step names a card the seat does not know, as today's does
    (``naming_unknown``): a step other than a choice, a choice's picks of the turn, or its history where the
    compiled template keeps it (choose_choices.py's ``keeps_history``; a choice made in secret, such as a pass of
    cards face down, holds its picks in the cards moved, which a sample deals again, and keeps no history)."""
    game, state = unknown.game, unknown.state
    cards = {c for true, _, _ in unknown.events for c in true}

    def names(t: Any, values: list[Any]) -> bool:
        asked = Asked()
        for value in values:
            renamed(t, value, asked)
        return asked.any_of(cards)

    for step, q in running(game.steps, state.step_index, state.progress):
        if step.kind != "choose":
            asked = Asked()
            step.search.relabel(q.copy(), asked)
            if asked.any_of(cards):
                return True
            continue
        choose: Any = step  # (a choose step: its options' type)
        t = choose.option_type
        if names(t, q.picked) or keeps_history(step) and names(t, [h["value"] for h in q.history]):
            return True
    return False


def sample_plan(machine: Machine, arrays: Arrays, unknown: Unknown, rng: Any = None) -> Any:
    """What a sample deals again (search_template.py's ``d``), from ``unknown``, at the state ``arrays`` holds, and
    the checks it must agree with (checks_template.py); or, where a sample works values out again in a way the
    compiled draw does not or is dealt to more places than the compiled deal takes, its samples drawn in Python from
    ``rng`` (``Drawn``)."""
    why = refusal(unknown)
    if why is not None:
        raise NotWritten(why)
    spots = _spots(machine, arrays, unknown)
    checks = [0]  # (the checks' part: none)
    if unknown.checks or unknown.knowledge.derived or unknown.teams is not None:
        found = checks_part(machine, unknown, spots)
        if found is None:
            return Drawn(machine, unknown, spots, rng)
        checks = found
    redraw = [-1, 0]  # (no choice drawn again; else the choose step by its number, and the seat asked)
    if unknown.redraws:
        steps = _redrawing(unknown)
        if len(steps) != 1 or id(steps[0]) not in machine.redrawing:
            return Drawn(machine, unknown, spots, rng)
        redraw = [machine.redrawing[id(steps[0])], unknown.seat]
    d = [len(unknown.events)]
    kind = machine.lay.layout.kind
    for (_, cards, bans), (rows, cols), spotted in zip(unknown.events, spots, unknown.spots, strict=True):
        places: dict[tuple[str, int], int] = {}
        banned: dict[int, int] = {}  # card -> the places (bits) that lack it
        for (where, _), ban in zip(spotted, bans, strict=True):
            if ban and where not in places:
                places[where] = q = len(places)
                for c in ban:
                    banned[c] = banned.get(c, 0) | 1 << q
        free = len(places)  # the place of every spot without a ban
        if free + 1 > MOST_PLACES:  # (more places than the compiled deal takes)
            return Drawn(machine, unknown, spots, rng)
        at = [places.get(where, free) for where, _ in spotted]
        everywhere = (1 << (free + 1)) - 1
        d += [len(cards), free + 1, *rows, *cols, *at, *(kind[c] for c in cards),
              *(everywhere & ~banned.get(c, 0) for c in cards)]
    return np.asarray([*d, *checks, *redraw], np.int64)


def _spots(machine: Machine, arrays: Arrays, unknown: Unknown) -> list[tuple[list[int], list[int]]]:
    """Where each unknown card of each deal of ``unknown`` lies in ``arrays`` (the rows and columns of its spots in
    ``z``, in the order of the deal's true cards): a column of its place's row holding a card of its kind."""
    layout = machine.lay.layout
    kind = layout.kind
    free_spots: dict[int, dict[int, list[int]]] = {}  # row -> kind -> its columns not taken by an unknown card yet
    out = []
    for (true, _, _), spotted in zip(unknown.events, unknown.spots, strict=True):
        rows, cols = [], []
        for ((zone, seat), _), c in zip(spotted, true, strict=True):
            row = layout.zone_slot(zone, None if seat < 0 else seat)
            rows.append(row)
            cols.append(_spot(free_spots, arrays, row, kind[c]))
        out.append((rows, cols))
    return out


class Drawn:
    """The samples of one decision drawn in Python (engine/samples.py's ``Unknown.draw``: the unknown cards dealt
    again until they agree with every public value worked out from hidden cards; the hidden values worked out
    again on them, hidden teams, and the choices the seat has not seen drawn again) and handed to the compiled
    search as they are, a batch a call (search_template.py's ``GIVEN``): each spot's kind, each seat's hidden value
    worked out again, where the teams are hidden each seat's team, and the values the choices drawn again set.
    NotWritten for such a value the arrays hold as a list or as a text made in play."""

    def __init__(self, machine: Machine, unknown: Unknown, spots: list[tuple[list[int], list[int]]], rng: Any):
        lay = machine.lay
        self.unknown, self.values, self.machine = unknown, machine.values, machine
        self.rng = random.Random(0) if rng is None else rng
        self.kind = lay.layout.kind
        players = lay.layout.players
        # each hidden value of each seat written, and each value a choice drawn again sets: (name, seat; None: a
        # round value)
        self.hidden = [(name, seat) for name in unknown.knowledge.derived for seat in range(players)]
        self.redrawn = [(name, who) for step in (_redrawing(unknown) if unknown.redraws else ())
                        for name in sorted(step.search.redrawn())
                        for who in (range(players) if name in unknown.state.seat_vars else (None,))]
        self.teams = unknown.teams is not None  # (each seat's team worked out again on the draw)
        indices = [held_as_one(lay, name, seat) for name, seat in self.hidden]
        indices += [lay.value(TEAM, "", seat) for seat in range(players)] if self.teams else []
        indices += [held_as_one(lay, name, who) for name, who in self.redrawn]
        rows = [r for rs, _ in spots for r in rs]
        cols = [c for _, cs in spots for c in cs]
        self.head = [GIVEN, len(rows), len(indices), 0, 0, *rows, *cols, *indices]

    def batch(self, count: int) -> Any:
        """``count`` samples drawn, as the compiled search takes them (``d``); NotWritten where a value drawn is one
        the compiled module's tables do not hold (a text or record interned only after the module was made)."""
        unknown, kind, values = self.unknown, self.kind, self.values
        types = unknown.game.value_types

        def number(name: str, value: Any) -> int:  # (its cards as their kinds)
            return values.encode(renamed(types.get(name), value, kind.__getitem__))

        out = list(self.head)
        out[4] = count
        for _ in range(count):
            draw = unknown.draw(self.rng)
            for dealt in draw.dealt:
                out.extend(kind[c] for c in dealt)
            if self.hidden:
                hidden = unknown.hidden(draw)
                out.extend(number(name, hidden[name][seat]) for name, seat in self.hidden)
            if self.teams:
                out.extend(unknown.teams_drawn(draw) or ())
            if self.redrawn:  # (the sample as a state: the choices drawn again on it)
                state = unknown.state_of(draw, self.rng)
                out.extend(number(name, state.vars.get(name) if who is None else state.seat_vars[name][who])
                           for name, who in self.redrawn)
        d = np.asarray(out, np.int64)
        if (d[len(self.head):] >= INTERNED + self.machine.held).any():
            raise NotWritten("a value worked out again on a sample that the compiled module has no number for")
        return d


def _spot(free: dict[int, dict[int, list[int]]], arrays: Arrays, row: int, k: int) -> int:
    """A column of ``row`` holding a card of kind ``k`` not taken yet (``free``: the columns left, by row and
    kind, made when a row is first asked for)."""
    col = column(free, arrays, row, k)
    if col is None:
        raise NotWritten("an unknown card the compiled machine does not hold where the Python backend does")
    return col


class CompiledSearch:
    """The compiled search of decisions of one game (``machine``'s), its work arrays made once and reused."""

    def __init__(self, machine: Machine):
        self.machine = machine
        box = machine.box()
        self.work = Arrays(box.z.copy(), box.zn.copy(), box.v.copy(), box.l.copy(), box.ln.copy(), heap())
        self.p = np.zeros(machine.size, np.int64)
        actions = machine.actions
        self.keys = np.zeros(actions, np.int64)
        self.visits = np.zeros(actions, np.int64)
        self.tree = np.zeros((0, TREE_COLUMNS), np.int64)
        self.wins = np.zeros(0, np.float64)
        self.checking = (*(a.copy() for a in box[:5]), self.p.copy())  # (checks_template.py's check arrays)

    def begin(self, position: tuple[Arrays, Any], plan: Any, seed: int) -> None:
        """A new tree for the decision at ``position`` (its arrays and progress), samples drawn by ``plan``, the
        random stream seeded with ``seed``."""
        self.position, self.plan = position, plan
        self.tree[:1] = 0
        self.machine.module.seed(seed)

    def run(self, iterations: int, explore: float, sign: int) -> dict[int, int]:
        """``iterations`` more of the search begun; each root action's visits so far, by its whole number."""
        nodes = int(self.tree[0, AVAILABLE]) if len(self.tree) else 0
        if len(self.tree) < nodes + iterations + 1:  # (room for a node an iteration)
            grown = max(2 * len(self.tree), nodes + iterations + 1)
            tree, wins = np.zeros((grown, TREE_COLUMNS), np.int64), np.zeros(grown, np.float64)
            tree[:len(self.tree)], wins[:len(self.wins)] = self.tree, self.wins
            if not len(self.tree):
                tree[0, AVAILABLE] = 0
            self.tree, self.wins = tree, wins
        (z0, zn0, v0, l0, ln0, _), p0 = self.position
        plan = self.plan.batch(iterations) if isinstance(self.plan, Drawn) else self.plan
        n = self.machine.module.ismcts(*self.work, self.p, z0, zn0, v0, l0, ln0, p0, plan, self.tree,
                                       self.wins, iterations, explore, sign, self.keys, self.visits, *self.checking)
        return {int(k): int(v) for k, v in zip(self.keys[:n], self.visits[:n], strict=True)}
