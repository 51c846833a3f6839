"""A ``tricks`` step written for the compiled backend: its start, its legal actions and an action taken, over the arrays
(arrays.py) and the progress array, as functions in the subset of Python the compiled backend compiles (the step kind's
second template, steps.py, beside engine/steps/trick_code.py's). The seat's legal plays are written by
trick_template_plays.py, the sharing of a trick among several takers by trick_template_takers.py, the steps the trick
runs (``between_plays``, ``after_trick``) by trick_template_hooks.py.

Its progress slots are trick_progress.py's, then, for a trick that runs steps, theirs (trick_template_hooks.py).

An action is a whole number: a play is its card's kind (runtime/layout.py) plus its zone's index among those
``from`` names times the deck's size (a play from the first zone is its kind); a taker's choice of a card from the
trick is its kind; while a step the trick runs decides, an action is that step's. A play takes the copy of its kind
the Python backend's play names: from one zone the last, from several the first of the zone.

Written: every option of the step: one zone played from or several (``from``), ``seats``, ``lead`` and ``follow``
obligations (with ``holding`` and ``otherwise``), ``led`` (``trick`` the plays' cards), ``strength`` and
``equal_cards``, ``can_win``, ``won_by``, ``decided_by``, ``takers`` (later takers found by their orderings, a taker
choosing a number of cards: decisions of kind "take"), ``unclaimed``, ``route`` (with ``owner``), ``to``,
``next_leader``, ``count``, ``trick``, ``per_trick``, and the steps it runs: ``between_plays`` (after every card but the
last, the next seat to play known; they see ``player``, ``trick``, ``trick_seats`` and ``led``) and ``after_trick``
(once every taker has its cards, before the next leader is found; they see ``winner``, ``takers``, ``last_trick`` and
``trick_seats``), each step written by its own kind's template, entered with its ``when``; while one decides, the
trick's legal actions and action taken are its own. A trick without such steps has no code for them (nothing more per
card). Not written (``NotWritten``, the step stays on the Python backend): a step it runs of a kind, or with an
expression, the compiled backend does not write yet (the message names the step and the option). What the Python backend
refuses as a mistake of the rules at play (a seat out of range from ``seats``, ``decided_by`` or ``next_leader``, a
``takes`` below 0, a seat left without a card to play by a step between plays) is not checked here: the compiled backend
plays what the Python backend has played."""

from __future__ import annotations

from typing import Any

from interpreter.compiled import trick_template_judge, trick_template_plays, trick_template_takers
from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.trick_progress import (
    ASK,
    LEADER,
    LEFT,
    NUMBER,
    OVER,
    PLAYED,
    SIZE,
    TAKING,
    TURN,
    WINNER,
    Regions,
    Shown,
)
from interpreter.compiled.trick_template_hooks import Hooks
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import CARD, CARDS, SEAT, SEATS, Type
from interpreter.engine.steps.action_types import Play, Take
from interpreter.runtime.layout import COUNTER, ROUND

_NAMES: dict[str, Type] = {"card": CARD, "led": CARD, "seat": SEAT, "trick": CARDS, "trick_seats": SEATS,
                           "player": SEAT, "taker": SEAT, "winner": SEAT, "takers": SEATS}


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a tricks step (see the module's docstring)."""
    return TrickWriter(step, w).code()


class TrickWriter:
    """Writes one tricks step's template (see the module's docstring)."""

    def __init__(self, step: Any, w: Writing):
        self.step, self.w, self.lay, self.name = step, w, w.lay, w.prefix
        self.base, self.players = w.base, w.players
        lay = w.lay.layout
        self.deck = len(lay.kind)  # the card ids: every kind is one of them
        self.rows = [lay.zone_slot(zone, 0) for zone in step.zones]  # each zone played from (seat 0's row)
        self.trick = lay.zone_slot(step.trick_zone)
        self.won = lay.zone_slot(step.won, 0)
        self.counter = w.lay.value(COUNTER, step.counter, 0)
        self.sole = len(step.takers) == 1 and step.takers[0].takes is None  # the winner takes every card
        keys = max(len(o.exprs) for o in [step.ordering, *step.later_orderings])
        self.regions = Regions.of(self.players, len(step.takers), max(keys, 1), self.deck)
        self.hooks = Hooks(self, self.base + self.regions.size)  # the steps it runs (between plays, after a trick)
        self._strengths: dict[int, list[str]] = {}

    def at(self, slot: int) -> str:
        """The source of the progress slot ``slot`` (from the step's base)."""
        return self.w.at(slot)

    def at_(self, slot: int, index: str) -> str:
        """The source of the progress slot ``index`` slots after ``slot``."""
        return f"p[{self.base + slot} + {index}]"

    def span(self, slot: int, count: str) -> str:
        """The source of ``count`` progress slots from ``slot``, as an array."""
        return f"p[{self.base + slot}:{self.base + slot} + {count}]"

    def play(self, k: str) -> str:
        """The source of the ``k``-th play's seat and card, as two arguments."""
        return f"{self.at_(self.regions.seats, k)}, {self.at_(self.regions.cards, k)}"

    def cards(self) -> str:
        """The trick's cards so far, in playing order: the ``trick`` its expressions read."""
        return self.span(self.regions.cards, self.at(PLAYED))

    def call(self, expr: Compiled, names: dict[str, str], stem: str, lists: bool = False) -> str:
        return self.w.call(expr, names, _NAMES, stem, lists)

    def code(self) -> StepCode:
        lines = (self._start() + self._new_trick() + self._ask() + self._led() + trick_template_plays.write(self)
                 + self._apply() + self._remove() + self._close() + self._route()
                 + [line for i in range(1 + len(self.step.later_orderings)) for line in self._best(i)])
        if not self.sole:
            lines += trick_template_takers.write(self)
        lines += trick_template_judge.write(self)
        lines += self.hooks.source()
        kind, deck = self.lay.layout.kind, self.deck

        def action_of(action: Any) -> int:
            return kind[action.card] if isinstance(action, Take) else kind[action.card] + action.zone * deck

        return StepCode(self.name, "\n".join(lines), self.regions.size + self.hooks.size, decides=True,
                        expressions=self.w.expressions, action_of=self.hooks.action_of(action_of, (Play, Take)),
                        judges=True, shown=Shown.of(self.base, self.regions), deciders=_deciders(self))

    # ------------------------------------------------------------------------------------------------ the parts

    def _start(self) -> list[str]:
        """The first leader, the seats that play, and the first trick."""
        n, active = self.players, self.regions.active
        lines = [f"def {self.name}_start({ARRAYS}, p):",
                 f"    leader = {self.call(self.step.leader, {}, 'leader')}",
                 f"    {self.at(TURN)} = leader", f"    {self.at(LEADER)} = leader",
                 f"    {self.at(PLAYED)} = 0", f"    {self.at(NUMBER)} = 0",
                 f"    {self.at(OVER)} = 0", f"    {self.at(WINNER)} = NONE",
                 f"    {self.at(TAKING)} = -1", f"    {self.at(LEFT)} = 0"]
        if self.hooks:
            lines += [f"    {self.hooks.at} = -1"]
        if self.step.active is None:
            lines += [f"    for s in range({n}):", f"        {self.at_(active, 's')} = 1", f"    {self.at(SIZE)} = {n}"]
        else:  # a list of seats, or one seat; each once
            lines += [f"    for s in range({n}):", f"        {self.at_(active, 's')} = 0"]
            if self.step.active.part.type.kind == "list":
                lines += ["    " + line for line in self.w.listed(self.call(self.step.active, {}, 'seats', lists=True),
                                                                 "seats", "k")]
            else:
                lines += [*("    " + line for line in Writing.scratch("seats", "1")),
                          f"    seats[0] = {self.call(self.step.active, {}, 'seats')}", "    k = 1"]
            lines += ["    for i in range(k):",
                      f"        if 0 <= seats[i] < {n}:",
                      f"            {self.at_(active, 'seats[i]')} = 1",
                      f"    {self.at(SIZE)} = 0",
                      f"    for s in range({n}):",
                      f"        {self.at(SIZE)} += {self.at_(active, 's')}"]
        return [*lines, f"    return {self.name}_new_trick({ARRAYS}, p)", ""]

    def _new_trick(self) -> list[str]:
        """Before a lead: the round values ``per_trick`` names back to none; trick play ends when a seat that plays
        has no card in the zones it plays from; else the seat to act."""
        lines = [f"def {self.name}_new_trick({ARRAYS}, p):"]
        for name in self.step.per_trick:
            lines += [f"    {self._round(name)}"]
        held = " + ".join(f"zn[{row} + s]" for row in self.rows)
        lines += [f"    for s in range({self.players}):",
                  f"        if {self.at_(self.regions.active, 's')} == 1 and {held} == 0:",
                  f"            {self.at(OVER)} = 1",
                  f"    if {self.at(OVER)} == 1:",
                  "        return DONE",
                  f"    {self.name}_ask({ARRAYS}, p)",
                  "    return DECIDES", ""]
        return lines

    def _round(self, name: str) -> str:
        """The source that sets the round value ``name`` to none."""
        lay = self.lay
        try:
            return f"v[{lay.value(ROUND, name)}] = NONE"
        except KeyError:
            return f"ln[{lay.list_of(ROUND, name)}] = -1"

    def _ask(self) -> list[str]:
        """The seat to act: the seat to play, or the seat ``decided_by`` names for it."""
        seat = self.at(TURN)
        if self.step.decided_by is not None:
            seat = self.call(self.step.decided_by, {"seat": seat}, "decided_by")
        return [f"def {self.name}_ask({ARRAYS}, p):", f"    {self.at(ASK)} = {seat}", ""]

    def _led(self) -> list[str]:
        """The card that sets the suit: the first card played, or as ``led`` says (none before a card)."""
        lines = [f"def {self.name}_led({ARRAYS}, p):",
                 f"    if {self.at(PLAYED)} == 0:",
                 "        return NONE"]
        if self.step.led is None:
            return [*lines, f"    return {self.at(self.regions.cards)}", ""]
        return [*lines, f"    return {self.call(self.step.led, {'trick': self.cards()}, 'led')}", ""]

    def _apply(self) -> list[str]:
        """A card played (or, while a taker chooses, a card taken: trick_template_takers.py); after the last card of
        a trick, its winner, who takes its cards, and the next trick."""
        regions, n, name = self.regions, self.players, self.name
        lines = [f"def {name}_apply({ARRAYS}, p, action):"]
        if self.hooks.deciding:
            lines += [f"    if {self.hooks.at} >= 0:", f"        return {name}_hook_apply({ARRAYS}, p, action)"]
        if not self.sole:
            lines += [f"    if {self.at(TAKING)} >= 0:", f"        return {name}_chosen({ARRAYS}, p, action)"]
        lines += [f"    seat = {self.at(TURN)}"]
        if len(self.rows) == 1:
            lines += ["    card = action", f"    row = {self.rows[0]} + seat"]
        else:
            lines += [f"    zone = action // {self.deck}", f"    card = action - zone * {self.deck}",
                      f"    row = {self.rows[0]} + seat"]
            lines += [f"    if zone == {i}:\n        row = {row} + seat" for i, row in enumerate(self.rows) if i]
        lines += [f"    {name}_remove(z, zn, row, card)",
                  f"    z[{self.trick}, zn[{self.trick}]] = card",
                  f"    zn[{self.trick}] += 1",
                  f"    k = {self.at(PLAYED)}",
                  f"    {self.at_(regions.seats, 'k')} = seat",
                  f"    {self.at_(regions.cards, 'k')} = card",
                  f"    {self.at(PLAYED)} = k + 1",
                  f"    if k + 1 < {self.at(SIZE)}:"]
        if self.step.active is None:
            lines += [f"        {self.at(TURN)} = (seat + 1) % {n}"]
        else:  # the next seat clockwise that plays
            lines += ["        s = seat",
                      f"        for i in range({n}):",
                      f"            s = (s + 1) % {n}",
                      f"            if {self.at_(regions.active, 's')} == 1:",
                      "                break",
                      f"        {self.at(TURN)} = s"]
        lines += [*self.hooks.entry("between", "        "),
                  f"        {name}_ask({ARRAYS}, p)",
                  "        return DECIDES",
                  f"    led = {name}_led({ARRAYS}, p)"]
        best = [f"winner = {name}_best0({ARRAYS}, p, led)",
                "if winner < 0:",  # no seat may win: the leader wins
                f"    winner = {self.at(regions.seats)}"]
        if self.step.won_by is None:
            lines += ["    " + line for line in best]
        else:  # a claim, else the best card
            lines += [f"    winner = {self.call(self.step.won_by, {}, 'won_by')}",
                      "    if winner == NONE:", *("        " + line for line in best)]
        lines += [f"    {self.at(WINNER)} = winner",
                  f"    v[{self.counter} + winner] += 1",
                  f"    {self.at(regions.takers)} = winner"]
        if not self.sole:
            return [*lines, f"    return {name}_shares({ARRAYS}, p, led)", ""]
        return [*lines,
                f"    for k in range({self.at(PLAYED)}):",
                f"        {name}_route({ARRAYS}, p, {self.play('k')}, winner, winner)",
                f"    zn[{self.trick}] = 0",
                *self.closing()]

    def closing(self) -> list[str]:
        """The end of a function that has given out a trick's cards: the steps after a trick entered (a step that
        decides returns DECIDES), then the trick closed."""
        return [*self.hooks.entry("after", "    "), f"    return {self.name}_close({ARRAYS}, p)", ""]

    def _remove(self) -> list[str]:
        """A copy of a card's kind taken from a zone's row: played from one zone, the last copy (the one the Python
        backend's play names); from several, the first of the zone (likewise)."""
        order = "range(zn[row] - 1, -1, -1)" if len(self.step.zones) == 1 else "range(zn[row])"
        return [f"def {self.name}_remove(z, zn, row, card):",
                f"    for i in {order}:",
                "        if z[row, i] == card:",
                "            for j in range(i, zn[row] - 1):",
                "                z[row, j] = z[row, j + 1]",
                "            zn[row] -= 1",
                "            return", ""]

    def _close(self) -> list[str]:
        """The trick taken: who leads next (``next_leader``; the winner when it gives none), then a new trick."""
        lines = [f"def {self.name}_close({ARRAYS}, p):", f"    winner = {self.at(WINNER)}"]
        if self.step.next_leader is None:
            lines += ["    leader = winner"]
        else:
            takers = self.span(self.regions.takers, str(len(self.step.takers)))
            leader = self.call(self.step.next_leader, {"winner": "winner", "takers": takers}, "next")
            lines += [f"    leader = {leader}",
                      "    if leader == NONE:",
                      "        leader = winner"]
        lines += [f"    for k in range({self.at(PLAYED)}):",  # the last trick, kept for what is shown (Shown)
                  f"        {self.at_(self.regions.last_seats, 'k')} = {self.at_(self.regions.seats, 'k')}",
                  f"        {self.at_(self.regions.last_cards, 'k')} = {self.at_(self.regions.cards, 'k')}"]
        return [*lines, f"    {self.at(PLAYED)} = 0", f"    {self.at(NUMBER)} += 1",
                f"    {self.at(LEADER)} = leader", f"    {self.at(TURN)} = leader",
                f"    return {self.name}_new_trick({ARRAYS}, p)", ""]

    def strengths(self, index: int) -> list[str]:
        """The calls of the strength expressions of an ordering (0: the trick's, then each later taker's), each
        reading the card ``c`` played by the seat ``s``, ``led`` and the cards ``trick`` (written once each)."""
        if index not in self._strengths:
            ordering = self.step.ordering if index == 0 else self.step.later_orderings[index - 1]
            names = trick_template_plays.CARD_RULE_NAMES
            self._strengths[index] = [self.call(e, names, "strength") for e in ordering.exprs]
        return self._strengths[index]

    def _best(self, index: int) -> list[str]:
        """``NAME_best<index>``: the seat of the best card by an ordering (0: the trick's, with ``can_win``; then
        each later taker's, with its ``eligible``), later or first of equal ones as it says; -1 when no card may
        win."""
        step, regions = self.step, self.regions
        ordering = step.ordering if index == 0 else step.later_orderings[index - 1]
        names = trick_template_plays.CARD_RULE_NAMES
        keys = self.strengths(index)
        best, key = self.base + regions.best, self.base + regions.key
        lines = [f"def {self.name}_best{index}({ARRAYS}, p, led):",
                 f"    trick = {self.cards()}",
                 f"    trick_seats = {trick_template_plays.seats(self)}",
                 "    winner = -1",
                 f"    for k in range({self.at(PLAYED)}):",
                 f"        s = {self.at_(regions.seats, 'k')}",
                 f"        c = {self.at_(regions.cards, 'k')}"]
        for test in ([ordering.eligible] if ordering.eligible is not None else []) + (
                [step.can_win] if index == 0 and step.can_win is not None else []):
            lines += [f"        if not truth({self.call(test, names, 'may_win')}):", "            continue"]
        lines += [f"        p[{key + i}] = {src}" for i, src in enumerate(keys)]
        lines += ["        d = 1",  # the card's key against the best's, part by part: 1 above, -1 below, 0 equal
                  "        if winner >= 0:",
                  "            d = 0",
                  f"            for i in range({len(keys)}):",
                  f"                if p[{key} + i] != p[{best} + i]:",
                  f"                    d = 1 if p[{key} + i] > p[{best} + i] else -1",
                  "                    break",
                  f"        if d {'>=' if ordering.later_wins else '>'} 0:",
                  f"            for i in range({len(keys)}):",
                  f"                p[{best} + i] = p[{key} + i]",
                  "            winner = s",
                  "    return winner", ""]
        return lines

    def _route(self) -> list[str]:
        """A card to the zone of the first route whose ``when`` holds (the taker's, for a per-seat zone), else to
        the taker's ``to`` zone."""
        lines = [f"def {self.name}_route({ARRAYS}, p, player, c, taker, winner):",
                 f"    row = {self.won} + taker"]
        names = {"card": "c", "player": "player", "taker": "taker", "winner": "winner"}
        for i, route in enumerate(self.step.routes):
            row = self.lay.layout.zone_slot(route.zone, 0 if route.per_seat else None)
            when = self.call(route.when, names, "route")
            lines.append(f"    {'if' if i == 0 else 'elif'} truth({when}):")
            if route.owner is None:
                lines.append(f"        row = {row}{' + taker' if route.per_seat else ''}")
            else:  # of the seat owner gives (the Python backend refuses one that is not a seat)
                lines += [f"        whose = {self.call(route.owner, names, 'route_owner')}",
                          f"        row = {row} + (whose if 0 <= whose < {self.players} else taker)"]
        return [*lines, "    z[row, zn[row]] = c", "    zn[row] += 1", ""]


def _deciders(t: TrickWriter) -> list[tuple[str, Any, Any]]:
    """Which part of the trick ``t`` writes decides (steps.StepCode.deciders): a step it runs, a taker choosing, else
    the seat to play."""
    out: list[tuple[str, Any, Any]] = []
    for h in t.hooks.deciding:
        running = f"{t.hooks.at} == {h.index}"
        out += [(f"{running} and {test}", step, accepts) for test, step, accepts in h.code.deciders]
        out.append((running, h.step, None))
    if not t.sole:
        out.append((f"{t.at(TAKING)} >= 0", t.step, lambda action: isinstance(action, Take)))
    return [*out, ("True", t.step, lambda action: isinstance(action, Play))] if len(out) else []
