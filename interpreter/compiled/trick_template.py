"""A ``tricks`` step written for the compiled backend: its start, its legal cards and a card played, over the arrays
(arrays.py) and the progress array, as functions in the subset of Python numba compiles (the step kind's second
template, steps.py, beside engine/steps/trick_code.py's).

Its progress slots, from the step's base: ``TURN`` the seat to play, ``LEADER``, ``PLAYED`` the cards played to this
trick, ``NUMBER`` the tricks finished, ``OVER`` 1 once trick play is over, ``WINNER`` the last trick's winner, and
from ``PLAYS`` the trick's plays as (seat, card) pairs. An action is a card's kind (runtime/layout.py): a play takes
the last copy of its kind from the hand, as the compact game does.

Written so far: one zone played from, every seat playing clockwise, ``lead`` and ``follow`` obligations (with
``holding`` and ``otherwise``), ``led``, ``strength`` and ``equal_cards``, ``can_win``, ``won_by``, ``route``, ``to``,
``next_leader`` and ``count``. Not yet (``NotWritten``, the step stays on the Python backend): ``from`` several zones,
``seats``, ``decided_by``, ``takers``, ``unclaimed``, ``per_trick``, and the steps run between plays and after a
trick.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NotWritten
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import CARD, CARDS, SEAT, SEATS, Type
from interpreter.runtime.layout import COUNTER

TURN, LEADER, PLAYED, NUMBER, OVER, WINNER, PLAYS = range(7)
_ARRAYS = ARRAYS
_NAMES: dict[str, Type] = {"card": CARD, "led": CARD, "seat": SEAT, "trick": CARDS, "player": SEAT,
                           "taker": SEAT, "winner": SEAT, "takers": SEATS}


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a tricks step (see the module's docstring)."""
    return _TrickWriter(step, w).code()


class _TrickWriter:
    def __init__(self, step: Any, w: Writing):
        self.step, self.w, self.lay, self.name = step, w, w.lay, w.prefix
        self.base, self.players = w.base, w.players
        self._refuse()
        lay = w.lay
        self.hand = lay.layout.zone_slot(step.zones[0], 0)
        self.trick = lay.layout.zone_slot(step.trick_zone)
        self.won = lay.layout.zone_slot(step.won, 0)
        self.counter = lay.value(COUNTER, step.counter, 0)

    def at(self, slot: int) -> str:
        return self.w.at(slot)

    def call(self, expr: Compiled, names: dict[str, str], stem: str) -> str:
        return self.w.call(expr, names, _NAMES, stem)

    def code(self) -> StepCode:
        lines = self._start() + self._led() + self._legal() + self._apply()
        kind = self.lay.layout.kind
        return StepCode(self.name, "\n".join(lines), PLAYS + 2 * self.players, decides=True,
                        expressions=self.w.expressions, action_of=lambda action: kind[action.card])

    def _refuse(self) -> None:
        step = self.step
        for given, what in ((len(step.zones) != 1, "from several zones"), (step.active is not None, "seats"),
                            (step.decided_by is not None, "decided_by"), (step.unclaimed is not None, "unclaimed"),
                            (len(step.takers) != 1 or step.takers[0].takes is not None, "takers"),
                            (bool(step.per_trick), "per_trick"), (bool(step.between), "between_plays"),
                            (bool(step.after), "after_trick")):
            if given:
                raise NotWritten(f"a trick's {what}")

    # ------------------------------------------------------------------------------------------------ the parts

    def _start(self) -> list[str]:
        leader = self.call(self.step.leader, {}, "leader")
        return [f"def {self.name}_start({_ARRAYS}, p):",
                f"    leader = {leader}",
                f"    {self.at(TURN)} = leader", f"    {self.at(LEADER)} = leader",
                f"    {self.at(PLAYED)} = 0", f"    {self.at(NUMBER)} = 0",
                f"    {self.at(OVER)} = 0", f"    {self.at(WINNER)} = NONE",
                f"    {self.name}_new_trick({_ARRAYS}, p)",
                f"    return DONE if {self.at(OVER)} == 1 else DECIDES", "",
                f"def {self.name}_new_trick({_ARRAYS}, p):",
                f"    for s in range({self.players}):",
                f"        if zn[{self.hand} + s] == 0:",
                f"            {self.at(OVER)} = 1", ""]

    def _led(self) -> list[str]:
        trick = f"z[{self.trick}, :zn[{self.trick}]]"
        if self.step.led is None:
            first = f"p[{self.base + PLAYS + 1}]"  # the first card played
            body = [f"    return {first} if {self.at(PLAYED)} > 0 else NONE"]
        else:
            body = [f"    return {self.call(self.step.led, {'trick': trick}, 'led')}"]
        return [f"def {self.name}_led({_ARRAYS}, p):", *body, ""]

    def _legal(self) -> list[str]:
        """The cards the seat to play may play (identical cards once, in the hand's order) into ``out``; their
        number, or -1 when an ``otherwise: end`` obligation leaves none (trick play is over)."""
        hand = f"{self.hand} + seat"
        lines = [f"def {self.name}_legal({_ARRAYS}, p, out):",
                 f"    seat = {self.at(TURN)}",
                 "    n = 0",
                 f"    for i in range(zn[{hand}]):",  # the kinds of the hand, each once where it first stands
                 f"        c = z[{hand}, i]",
                 "        seen = 0",
                 "        for j in range(n):",
                 "            if out[j] == c:",
                 "                seen = 1",
                 "                break",
                 "        if seen == 0:",
                 "            out[n] = c",
                 "            n += 1",
                 f"    led = {self.name}_led({_ARRAYS}, p)",
                 f"    trick = z[{self.trick}, :zn[{self.trick}]]"]
        names = {"card": "c", "led": "led", "seat": "seat", "trick": "trick"}
        lead = [line for rule in self.step.lead_rules for line in self._rule(rule, names)]
        follow = [line for rule in self.step.follow_rules for line in self._rule(rule, names)]
        if lead:
            lines += [f"    if {self.at(PLAYED)} == 0:", *("    " + b for b in lead)]
        if follow:
            lines += ["    else:" if lead else f"    if {self.at(PLAYED)} != 0:", *("    " + b for b in follow)]
        return [*lines, "    return n", ""]

    def _rule(self, rule: Any, names: dict[str, str]) -> list[str]:
        """One obligation narrowing ``out[:n]`` (see trick_parts.narrowing)."""
        must = self.call(rule.must, names, "must")
        lines = []
        if rule.holding is not None:
            holding = self.call(rule.holding, names, "holding")
            lines += ["    binds = 0",
                      "    for i in range(n):",
                      "        c = out[i]",
                      f"        if {holding} != 0:",
                      "            binds = 1",
                      "            break",
                      "    if binds == 1:"]
            pad = "    "
        else:
            pad = ""
        lines += [f"{pad}    k = 0",
                  f"{pad}    for i in range(n):",
                  f"{pad}        c = out[i]",
                  f"{pad}        if {_true(must)}:",
                  f"{pad}            k += 1",
                  f"{pad}    if k > 0:",
                  f"{pad}        m = 0",
                  f"{pad}        for i in range(n):",
                  f"{pad}            c = out[i]",
                  f"{pad}            if {_true(must)}:",
                  f"{pad}                out[m] = c",
                  f"{pad}                m += 1",
                  f"{pad}        n = m"]
        if rule.end:
            lines += [f"{pad}    else:", f"{pad}        return -1"]
        return lines

    def _apply(self) -> list[str]:
        n = self.players
        hand = f"{self.hand} + seat"
        return [f"def {self.name}_apply({_ARRAYS}, p, card):",
                f"    seat = {self.at(TURN)}",
                f"    for i in range(zn[{hand}] - 1, -1, -1):",  # the last copy of the card's kind
                f"        if z[{hand}, i] == card:",
                f"            for j in range(i, zn[{hand}] - 1):",
                f"                z[{hand}, j] = z[{hand}, j + 1]",
                f"            zn[{hand}] -= 1",
                "            break",
                f"    z[{self.trick}, zn[{self.trick}]] = card",
                f"    zn[{self.trick}] += 1",
                f"    k = {self.at(PLAYED)}",
                f"    p[{self.base + PLAYS} + 2 * k] = seat",
                f"    p[{self.base + PLAYS} + 2 * k + 1] = card",
                f"    {self.at(PLAYED)} = k + 1",
                f"    if k + 1 < {n}:",
                f"        {self.at(TURN)} = (seat + 1) % {n}",
                "        return DECIDES",
                f"    winner = {self.name}_winner({_ARRAYS}, p)",
                f"    {self.at(WINNER)} = winner",
                f"    v[{self.counter} + winner] += 1",
                f"    {self.name}_take({_ARRAYS}, p, winner)",
                f"    zn[{self.trick}] = 0",
                f"    {self.at(PLAYED)} = 0",
                f"    {self.at(NUMBER)} += 1",
                f"    leader = {self._next_leader()}",
                f"    {self.at(LEADER)} = leader",
                f"    {self.at(TURN)} = leader",
                f"    {self.name}_new_trick({_ARRAYS}, p)",
                f"    return DONE if {self.at(OVER)} == 1 else DECIDES",
                "",
                *self._winner(), *self._take()]

    def _next_leader(self) -> str:
        if self.step.next_leader is None:
            return "winner"
        takers = "np.array([winner], np.int64)"
        return self.call(self.step.next_leader, {"winner": "winner", "takers": takers}, "next")

    def _winner(self) -> list[str]:
        """The seat of the best card by the strength (later or first of equal ones wins), among the seats can_win
        allows (the leader when it allows none); the seat won_by names, when it names one."""
        ordering, step = self.step.ordering, self.step
        names = {"card": "c", "led": "led", "seat": "s", "trick": "trick"}
        keys = [self.call(e, names, "strength") for e in ordering.exprs]
        better = ">=" if ordering.later_wins else ">"
        lines = [f"def {self.name}_winner({_ARRAYS}, p):",
                 f"    led = {self.name}_led({_ARRAYS}, p)",
                 f"    trick = z[{self.trick}, :zn[{self.trick}]]"]
        if step.won_by is not None:
            lines += [f"    claimed = {self.call(step.won_by, {}, 'won_by')}",
                      "    if claimed != NONE:",
                      "        return claimed"]
        lines += [f"    best = np.empty({max(len(keys), 1)}, np.int64)",
                  f"    key = np.empty({max(len(keys), 1)}, np.int64)",
                  "    winner = -1",
                  f"    for k in range({self.at(PLAYED)}):",
                  f"        s = p[{self.base + PLAYS} + 2 * k]",
                  f"        c = p[{self.base + PLAYS} + 2 * k + 1]"]
        if step.can_win is not None:
            lines += [f"        if not {_true(self.call(step.can_win, {'seat': 's'}, 'can_win'))}:",
                      "            continue"]
        lines += [f"        key[{i}] = {src}" for i, src in enumerate(keys)]
        lines += ["        if winner < 0:",
                  "            best[:] = key",
                  "            winner = s",
                  "            continue",
                  "        d = 0",  # key against best, part by part: 1 above, -1 below, 0 equal
                  f"        for i in range({len(keys)}):",
                  "            if key[i] != best[i]:",
                  "                d = 1 if key[i] > best[i] else -1",
                  "                break",
                  f"        if d {better} 0:" if better == ">" else "        if d >= 0:",
                  "            best[:] = key",
                  "            winner = s",
                  f"    return winner if winner >= 0 else {self.at(LEADER)}",
                  ""]
        return lines

    def _take(self) -> list[str]:
        """The trick's cards to the winner: each to the first route whose ``when`` holds, else to ``to``."""
        lines = [f"def {self.name}_take({_ARRAYS}, p, winner):",
                 f"    for k in range({self.at(PLAYED)}):",
                 f"        player = p[{self.base + PLAYS} + 2 * k]",
                 f"        c = p[{self.base + PLAYS} + 2 * k + 1]",
                 f"        row = {self.won} + winner"]
        names = {"card": "c", "player": "player", "taker": "winner", "winner": "winner"}
        for i, route in enumerate(self.step.routes):
            row = self.lay.layout.zone_slot(route.zone, 0 if route.per_seat else None)
            when = self.call(route.when, names, "route")
            lines += [f"        {'if' if i == 0 else 'elif'} {_true(when)}:",
                      f"            row = {row}{' + winner' if route.per_seat else ''}"]
        lines += ["        z[row, zn[row]] = c", "        zn[row] += 1", ""]
        return lines


def _true(src: str) -> str:
    """A truth test of a written value (not 0, not none: module.py's ``truth``)."""
    return f"truth({src})"
