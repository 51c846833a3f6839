"""A ``choose`` step written for the compiled backend: seats in turn pick values from a list, over the arrays
(arrays.py) and the progress array, as functions in the subset of Python the compiled backend compiles (the step kind's
second template, steps.py, beside engine/steps/choose_code.py's): the same turns, passes, stops, automatic picks, values
set and cards moved as the Python backend's, each fragment a function of its own (what a seat may do now is written by
choose_choices.py, the turns here).

An action is one whole number: for a choice of cards a card's kind (runtime/layout.py: a pick takes the last copy of
its kind, as the compact game does); for a choice of values the value as values.py makes it one (a seat its index, a
number itself, a text interned, a list of cards, seats, numbers or texts interned, its cards as kinds:
choose_choices.py); a pass is ``PASS`` and a stop ``STOP``, two numbers no value is (just above
values.NONE). ``StepCode.action_of`` maps the Python backend's Choice, Pass and Stop to them. ``PREFIX_legal``
gives a pass or a stop first, then each value once, in the options' order: one more action than the options have
items at most, written as far as its ``out`` holds (the options can be longer than a row of the arrays: a game's
bids may outnumber its cards).

Its progress slots, from the step's base: ``CHOOSER`` the seat to choose, ``POS`` its place in the order, ``COUNT``
how many seats the order has (0 once the step is over), ``LEFT`` the picks left in the turn, ``PASSES`` passes in
a row, ``IDLE`` turns in a row that asked nobody, ``PICKED`` how many picks the turn has made, ``HELD`` how many
records the history holds, then the order (from ``ORDER``: as many slots as a row of the arrays holds), the turn's
picks (after it: as many, or the count when it is a larger constant) and, for a step whose history an expression
reads or ``set_history`` holds, the history (after them: the deck's cards times the seats, as a row of ``l`` holding
a list of records, arrays.py), the choices kept for the seat asked, and for final passes (``pass_is_final``) a
slot per seat (1 once it has passed: it is skipped) and the number of picks the step has made. A ``who`` of more
seats than that keeps its first ones, a turn of more picks (a count
worked out larger than the deck, of values that are not cards) keeps its first picks, a history of more records its
first records: no bundled game comes near (an auction of 35 bids, each doubled and redoubled, has 105 calls; a
52-card deck's arrays hold 208 for 4 seats).

The history is every pick of the step so far (passes and stops are not picks; final passes are kept too, above),
each the record ``{seat, value}``
interned (values.py) as the Python backend's would be: the records of every seat and every value of the step's
domain (the values its actions are listed by, engine/actions.py: cards, seats, constant options, numbers up to the
deck's size, texts...) are interned as the step is written, and ``PREFIX_record(seat, x)`` finds a pick's. A value
outside the domain (it has no action id either: the public API refuses it) is recorded as none. Expressions read the
history as a list of those records (their fields from the records' tables, as any record's); ``set_history`` keeps
the round value it names the history so far, from an empty list at the step's start.

Written: ``who`` (a seat, a list of seats, or everyone from the dealer's left), ``options`` (values, seats or cards
an expression gives), ``allowed``, ``must``, ``count``, ``pass`` and ``may_pass``, ``stop`` and ``may_stop``,
``repeat`` and ``until``, ``pass_is_final`` (a seat out once it passed; its pass a record ``{seat, value:
none, passed: true}`` interned per seat, ``PREFIX_passed``; the step over when one seat is left after a pick or none,
``PREFIX_over``), ``set``, ``set_seat`` and ``set_chooser`` (one value, a picked list's items, or the turn's
picks as a list with ``count``), ``set_history``, ``move_to``, ``swap`` (a pair's two cards change places, each
looked for as ``move_to``'s card is: runtime/moves.py's swapper), ``auto``; the expressions see ``seat``, ``value``,
``picked``, ``passes`` and ``history``. What only tells or shows is not written (the compiled backend tells
nothing): ``label``, ``describe``, ``verb``, ``narrate_pass``, ``visible``, ``domain`` (but that the lists of a
choice of lists are interned from it); nor what only search reads of ``simultaneous`` (a choice made in secret plays
the same). Two values that one ``label`` shows alike are one choice on the Python backend and two here: the bundled
games' labels tell their values apart.

Not yet (``NotWritten``, the step stays on the Python backend): the history read by an expression of a
``simultaneous`` choice (each seat sees only its own records there), options that are records or lists of lists or
records, and the names an enclosing trick binds (a choice between plays or after a trick).

Where the Python backend stops with a mistake of the rules (a ``who`` that names no seat, options that are not a
list, picks left unfinished with no pick to go on with, a ``repeat`` that goes round and round asking nobody), the
compiled backend ends the step: it plays only what the checked path has played.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.choose_choices import (
    CHOOSER,
    COUNT,
    HELD,
    IDLE,
    LEFT,
    ORDER,
    PASS,
    PASSES,
    PICKED,
    POS,
    STOP,
    ChoicesWriter,
)
from interpreter.compiled.choose_redraw import redraw
from interpreter.compiled.lower import Lowered
from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NONE, NotWritten
from interpreter.compiled.writer import encode_constant
from interpreter.runtime.layout import DEALER, ROUND, SEAT
from interpreter.runtime.moves import search_orders

__all__ = ["PASS", "STOP", "write"]


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a choose step (see the module's docstring)."""
    return _ChooseWriter(step, w).code()


class _ChooseWriter(ChoicesWriter):
    """Writes the functions of one choose step: what a seat may do (ChoicesWriter's), and the turns here."""

    def code(self) -> StepCode:
        some = self._some() if self.counts_only() else []
        lines = (self._order() + self._over() + self._begin() + self._end_turn() + self._idle() + self._choices()
                 + some + self._may() + self._record() + self._passed() + self._take() + self._find() + self._start()
                 + self._legal() + self._apply() + redraw(self))
        return StepCode(self.name, "\n".join(lines), self.size(), decides=True, expressions=self.w.expressions,
                        action_of=self.action_of())

    # ------------------------------------------------------------------------------------------------ the parts

    def _order(self) -> list[str]:
        """``PREFIX_order``: the seats that choose into the order (none when one is no seat), from its start."""
        name, n, step = self.name, self.players, self.step
        order = self.w.base + ORDER
        lines = [f"def {name}_order({ARRAYS}, p):"]
        if step.who is None:  # everyone, from the dealer's left
            dealer = self.w.lay.value(DEALER, "", None)
            lines += [f"    first = (v[{dealer}] + 1) % {n}",
                      f"    for i in range({n}):",
                      f"        p[{order} + i] = (first + i) % {n}",
                      f"    k = {n}"]
        elif step.who.type.kind == "list":
            who = self.call(step.who, {}, "who", listed=True)
            lines += [*("    " + line for line in self.w.listed(who, "buf", "m")),
                      f"    k = min(m, {self.order_size}) if m > 0 else 0",
                      "    for i in range(k):",
                      f"        p[{order} + i] = buf[i]"]
            lines += ["    if m < 0:", "        k = -1"]  # (none: no list of seats)
        else:
            lines += [f"    p[{order}] = {self.call(step.who, {}, 'who')}", "    k = 1"]
        lines += ["    for i in range(k):",
                  f"        if p[{order} + i] < 0 or p[{order} + i] >= {n}:",
                  "            k = -1",
                  "            break",
                  f"    {self.at(COUNT)} = max(k, 0)",
                  f"    {self.at(POS)} = 0",
                  "    return k", ""]
        return lines

    def _begin(self) -> list[str]:
        """``PREFIX_begin``: the next seat with something to do, from ``POS`` (1), or the step over (0)."""
        step, name = self.step, self.name
        lines = [f"def {name}_begin({ARRAYS}, p):",
                 "    while True:",
                 f"        if {self.at(POS)} >= {self.at(COUNT)}:"]
        if step.repeat:  # who again, from its first seat
            lines += [f"            if {name}_order({ARRAYS}, p) <= 0:",
                      f"                {self.at(COUNT)} = 0",
                      "                return 0"]
            if step.pass_final:  # (who worked out again may leave one seat in, or none)
                lines += [f"            if {name}_over(p) == 1:",
                          f"                {self.at(COUNT)} = 0",
                          f"                {self.at(POS)} = 0",
                          "                return 0"]
        else:
            lines += [f"            {self.at(COUNT)} = 0", f"            {self.at(POS)} = 0", "            return 0"]
        lines += [f"        seat = p[{self.w.base + ORDER} + {self.at(POS)}]"]
        if step.pass_final:  # a seat that passed is not asked again
            lines += [f"        if p[{self.w.base + self.outs} + seat] == 1:",
                      f"            {self.at(POS)} += 1",
                      "            continue"]
        lines += [f"        {self.at(CHOOSER)} = seat",
                  f"        {self.at(PICKED)} = 0"]
        if step._count_fixed is not None:
            count = str(step._count_fixed)
        elif step.count is not None:
            count = self.call(step.count, {"seat": "seat"}, "count")
        else:
            count = "1"
        lines.append(f"        {self.at(LEFT)} = {count}")
        if step.pass_label is not None:  # a seat with nothing to pick passes
            lines.append("        return 1")
        else:
            lines += [f"        if {self.at(LEFT)} > 0:",
                      "            return 1",
                      f"        if {name}_idle(p) == 1:",
                      "            return 0",
                      f"        {self.at(POS)} += 1"]
        return [*lines, ""]

    def _end_turn(self) -> list[str]:
        """``PREFIX_end_turn``: after a seat's turn, ``until``, then the next seat with something to do."""
        name = self.name
        lines = [f"def {name}_end_turn({ARRAYS}, p):"]
        if self.step.pass_final:  # one seat left after a pick, or none: the auction is over
            lines += [f"    if {name}_over(p) == 1:",
                      f"        {self.at(COUNT)} = 0",
                      f"        {self.at(POS)} = 0",
                      "        return"]
        if self.step.until is not None:
            seat = f"p[{self.w.base + ORDER} + {self.at(POS)}]"
            lines += [f"    seat = {seat}",
                      f"    if truth({self.call(self.step.until, self.turn(), 'until')}):",
                      f"        {self.at(COUNT)} = 0",
                      f"        {self.at(POS)} = 0",
                      "        return"]
        lines += [f"    {self.at(POS)} += 1", f"    {name}_begin({ARRAYS}, p)", ""]
        return lines

    def _over(self) -> list[str]:
        """``PREFIX_over(p)``: with final passes, 1 when every seat of the order has passed, or one is left after a
        pick of the step."""
        if not self.step.pass_final:
            return []
        outs, order = self.w.base + self.outs, self.w.base + ORDER
        return [f"def {self.name}_over(p):",
                "    left = 0",
                f"    for i in range({self.at(COUNT)}):",
                f"        if p[{outs} + p[{order} + i]] == 0:",
                "            left += 1",
                f"    if left == 0 or left == 1 and p[{outs + self.players}] > 0:",
                "        return 1",
                "    return 0", ""]

    def _passed(self) -> list[str]:
        """``PREFIX_passed``: ``seat`` passes: counted; with final passes, out of the step and its record kept."""
        step, w, name = self.step, self.w, self.name
        table: list[str] = []
        lines = [f"def {name}_passed({ARRAYS}, p, seat):", f"    {self.at(PASSES)} += 1"]
        if step.pass_final:
            lines.append(f"    p[{w.base + self.outs} + seat] = 1")
            if self.keeps_history:  # each seat's record of a pass, interned as the step is written
                passes = [w.lowerer.values.encode({"seat": s, "value": None, "passed": True})
                          for s in range(self.players)]
                table = [f"{name}_PASS_RECORDS = np.array({passes!r}, np.int64)", ""]
                lines += [f"    k = {self.at(HELD)}",
                          f"    if k < {self.history_size}:",
                          f"        p[{w.base + self.history} + k] = {name}_PASS_RECORDS[seat]",
                          f"        {self.at(HELD)} = k + 1"]
                lines += self._history_set("        ")
        return [*table, *lines, ""]

    def _history_set(self, indent: str) -> list[str]:
        """The round value ``set_history`` names, given the record just kept at ``k`` (none without it)."""
        if self.step.set_history is None:
            return []
        row = self._slot(self.w.lay.list_of, ROUND, self.step.set_history)
        return [f"{indent}if k < l.shape[1]:",
                f"{indent}    l[{row}, k] = p[{self.w.base + self.history} + k]",
                f"{indent}    ln[{row}] = k + 1"]

    def _idle(self) -> list[str]:
        """``PREFIX_idle(p)``: a turn that asked nobody; 1 when going round ``who`` twice that way ends the step
        (where the Python backend stops: it never ends)."""
        lines = [f"def {self.name}_idle(p):", f"    {self.at(IDLE)} += 1"]
        if self.step.repeat:
            lines += [f"    if {self.at(IDLE)} > 2 * max({self.at(COUNT)}, 1):",
                      f"        {self.at(COUNT)} = 0",
                      f"        {self.at(POS)} = 0",
                      "        return 1"]
        return [*lines, "    return 0", ""]

    def _take(self) -> list[str]:
        """``PREFIX_take``: the seat whose turn it is picks ``x``: a card moves, the values are set, the turn may
        end."""
        step, w, name = self.step, self.w, self.name
        lay = w.lay
        first = w.base + self.picks
        lines: list[str] = []
        lists = step.option_type.kind == "list"  # (a pick is an interned list: its items read by PREFIX_item)
        if step.move_to is not None or step.swap:
            lines += self._remove()
        if lists:
            lines += self._items()
        lines += [f"def {name}_take({ARRAYS}, p, x):",
                  f"    seat = p[{w.base + ORDER} + {self.at(POS)}]"]
        if step.move_to is not None:
            row = lay.layout.zone_slot(step.move_to, 0 if step.move_to_per_seat else None)
            dest = f"{row} + seat" if step.move_to_per_seat else str(row)
            lines += [f"    {name}_remove(z, zn, seat, x)",
                      f"    row = {dest}",
                      "    if zn[row] < z.shape[1]:",
                      "        z[row, zn[row]] = x",
                      "        zn[row] += 1"]
        if step.swap:  # the pair's two cards change places (runtime/moves.py's swapper)
            lines += [f"    a = {name}_item(x, 0)",
                      f"    b = {name}_item(x, 1)",
                      "    if a != b:",
                      f"        ra = {name}_remove(z, zn, seat, a)",
                      f"        rb = {name}_remove(z, zn, seat, b)",
                      "        if ra >= 0 and rb >= 0:",
                      "            z[ra, zn[ra]] = b",
                      "            zn[ra] += 1",
                      "            z[rb, zn[rb]] = a",
                      "            zn[rb] += 1"]
        lines += [f"    k = {self.at(PICKED)}",
                  f"    if k < {self.picks_size}:",
                  f"        p[{first} + k] = x",
                  f"        {self.at(PICKED)} = k + 1",
                  f"    {self.at(IDLE)} = 0"]
        if step.pass_final:  # (passes counts the seats out: not reset) one more pick of the step
            lines.append(f"    p[{w.base + self.outs + self.players}] += 1")
        else:
            lines.append(f"    {self.at(PASSES)} = 0")
        lines += self.sets()
        if self.keeps_history:  # the pick's record, kept (the first ones, when more than its slots hold)
            lines += [f"    k = {self.at(HELD)}",
                      f"    if k < {self.history_size}:",
                      f"        p[{w.base + self.history} + k] = {name}_record(seat, x)",
                      f"        {self.at(HELD)} = k + 1"]
            lines += self._history_set("        ")  # the round value holds the history so far
        lines.append(f"    {self.at(LEFT)} -= 1")
        if step.may_stop is None:  # (with may_stop, the turn's end waits for the decision)
            lines += [f"    if {self.at(LEFT)} <= 0:", f"        {name}_end_turn({ARRAYS}, p)"]
        return [*lines, ""]

    def sets(self) -> list[str]:
        """The lines that set the values a pick sets: ``x`` picked by ``seat`` (``PREFIX_take``'s and
        choose_redraw.py's)."""
        step, w, name = self.step, self.w, self.name
        lay, first = w.lay, w.base + self.picks
        lists = step.option_type.kind == "list"
        lines: list[str] = []
        picked = f"p[{first}:{first} + {self.at(PICKED)}]"
        for part, value, at in ((ROUND, step.set_round, ""), (SEAT, step.set_seat, " + seat")):
            if value is None:
                continue
            if step.counted:
                row = self._slot(lay.list_of, part, value)
                lines += [f"    n = min({self.at(PICKED)}, l.shape[1])",
                          "    for i in range(n):",
                          f"        l[{row}{at}, i] = {picked}[i]",
                          f"    ln[{row}{at}] = n"]
            elif lists:  # the picked list's items
                row = self._slot(lay.list_of, part, value)
                lines += [f"    n = min({name}_count(x), l.shape[1])",
                          "    for i in range(n):",
                          f"        l[{row}{at}, i] = {name}_item(x, i)",
                          f"    ln[{row}{at}] = n"]
            else:
                lines.append(f"    v[{self._slot(lay.value, part, value)}{at}] = x")
        if step.set_chooser is not None:
            lines.append(f"    v[{self._slot(lay.value, ROUND, step.set_chooser)}] = seat")
        return lines

    def _slot(self, where: Any, part: str, name: str) -> int:
        """Where a value the step sets is in the arrays (seat 0's, for a seat's)."""
        try:
            found: int = where(part, name, 0 if part == SEAT else None)
        except (KeyError, ValueError):
            raise NotWritten(f"a choice that sets {name!r}, which the arrays do not hold") from None
        return found

    def _record(self) -> list[str]:
        """``PREFIX_record(seat, x)``: the record of ``seat`` picking ``x`` (seat and value), interned: the records of
        every seat and every value of the step's domain (the values its actions are listed by, engine/actions.py) are
        interned as the step is written, in ``PREFIX_RECORDS`` (value by value, seat by seat); a value outside the
        domain (which has no action either) is recorded as none."""
        if not self.keeps_history:
            return []
        step, lay, values, n = self.step, self.w.lay, self.w.lowerer.values, self.players
        if lay.game is None:
            raise NotWritten("a choice's history, with no game to list the values of its domain")
        domain = list(dict.fromkeys(e[2] for e in step.words.action_entries(lay.game) if e[0] not in ("pass", "stop")))
        keys = [encode_constant(lay, values, x, step.option_type) for x in domain]
        final = {"passed": False} if step.pass_final else {}  # (a final pass's record: PREFIX_passed)
        records = [values.encode({"seat": s, "value": lay.layout.kind[x] if self.cards else x, **final})
                   for x in domain for s in range(n)]
        name = self.name
        return [f"{name}_VALUES = np.array({keys or [NONE]!r}, np.int64)",
                f"{name}_RECORDS = np.array({records or [NONE]!r}, np.int64)", "",
                f"def {name}_record(seat, x):",
                f"    for j in range({len(keys)}):",
                f"        if {name}_VALUES[j] == x:",
                f"            return {name}_RECORDS[j * {n} + seat]",
                "    return NONE", ""]

    def _remove(self) -> list[str]:
        """``PREFIX_remove``: the last copy of card ``x`` taken from the first zone the seat's search looks in that
        holds one (runtime/moves.py), the zones its options read (every zone when they read none)."""
        lay = self.w.lay.layout
        orders = search_orders(lay, self.step.looks_in)[:self.players]
        table = f"{self.name}_LOOK"
        return [f"{table} = np.array({orders!r}, np.int64)", "",
                f"def {self.name}_remove(z, zn, seat, x):",
                f"    for j in range({len(orders[0])}):",
                f"        row = {table}[seat, j]",
                "        for i in range(zn[row] - 1, -1, -1):",
                "            if z[row, i] == x:",
                "                for k in range(i, zn[row] - 1):",
                "                    z[row, k] = z[row, k + 1]",
                "                zn[row] -= 1",
                "                return row",
                "    return -1", ""]

    def _items(self) -> list[str]:
        """``PREFIX_count(x)`` and ``PREFIX_item(x, i)``: the count and the items of a pick that is an interned list
        (values.py), read from the tables of every interned list's items (written as a function of the module that
        reads them, so that the module links them: lower.Lowered)."""
        name = self.name
        source = "\n".join([
            f"def {name}_count(x):",
            "    k = x - INTERNED",
            "    return LI_COUNT[k] if 0 <= k < len(LI_COUNT) else -1", "",
            f"def {name}_item(x, i):",
            "    k = x - INTERNED",
            "    if 0 <= k < len(LI_COUNT) and 0 <= i < LI_COUNT[k]:",
            "        return LI_ITEMS[LI_START[k] + i]",
            "    return NONE", ""])
        self.w.expressions.append(Lowered(f"{name}_items", source, (), {}, (), False, lists_read=True))
        return []

    def _find(self) -> list[str]:
        """``PREFIX_find``: the pending decision from the progress (DECIDES, ``CHOOSER`` the seat to choose) or DONE;
        seats with nothing to choose pass or are skipped, and a seat that has to take every option it has left
        takes them (``auto``) on the way."""
        step, name = self.step, self.name
        lines = [f"def {name}_find({ARRAYS}, p):",
                 "    mark = h[0]",
                 f"    while {self.at(POS)} < {self.at(COUNT)}:",
                 "        h[0] = mark",  # (each turn's choices given back before the next's)
                 f"        seat = p[{self.w.base + ORDER} + {self.at(POS)}]",
                 f"        {self.at(CHOOSER)} = seat",
                 *(["        n = " + f"{name}_some({ARRAYS}, p, seat)"] if self.counts_only() else
                   ("        " + line for line in self.w.listed(f"{name}_choices({ARRAYS}, p, seat)", "legal", "n"))),
                 *("    " + line for line in self.can())]
        if step.may_stop is not None:  # picks that may not stop there and no pick to go on with (a mistake)
            lines += [f"        if n == 0 and {self.at(PICKED)} > 0 and can_stop == 0:",
                      f"            {self.at(COUNT)} = 0",
                      "            return DONE"]
        lines += ["        if n == 0:",  # not asked: a pass, when it may pass
                  "            if can_pass == 1:",
                  f"                {name}_passed({ARRAYS}, p, seat)",
                  f"            if {name}_idle(p) == 0:",
                  f"                {name}_end_turn({ARRAYS}, p)",
                  "            continue"]
        if step.auto and self.can_pass != 1:
            lines += [f"        if can_pass == 0 and can_stop == 0 and n <= {self.at(LEFT)}:",
                      f"            {name}_take({ARRAYS}, p, legal[0])",
                      "            continue"]
        if self.counts_only():  # (asked: the choices worked out, once, for legal)
            lines += ["        " + line for line in self.w.listed(f"{name}_choices({ARRAYS}, p, seat)", "legal", "n")]
        lines += [*self._kept(), "        return DECIDES", "    return DONE", ""]
        return lines

    def _start(self) -> list[str]:
        """``PREFIX_start``: the order, the lists set emptied, the first seat with something to do."""
        step, name = self.step, self.name
        lines = [f"def {name}_start({ARRAYS}, p):",
                 f"    k = {name}_order({ARRAYS}, p)"]
        if step.set_history is not None:  # the history set starts empty (as it is kept: from the take)
            lines.append(f"    ln[{self._slot(self.w.lay.list_of, ROUND, step.set_history)}] = 0")
        if self.keeps_history:
            lines.append(f"    {self.at(HELD)} = 0")
        if step.pass_final:  # nobody out, no pick yet, nobody chose
            lines += [f"    for i in range({self.players + 1}):", f"        p[{self.w.base + self.outs} + i] = 0"]
            if step.set_chooser is not None:
                lines.append(f"    v[{self._slot(self.w.lay.value, ROUND, step.set_chooser)}] = NONE")
        if step.counted:  # the lists set start empty
            if step.set_round is not None:
                lines.append(f"    ln[{self._slot(self.w.lay.list_of, ROUND, step.set_round)}] = 0")
            if step.set_seat is not None:
                row = self._slot(self.w.lay.list_of, SEAT, step.set_seat)
                lines += [f"    for i in range({self.at(COUNT)}):",
                          f"        ln[{row} + p[{self.w.base + ORDER} + i]] = 0"]
        lines += ["    if k < 0:",  # (who names no seat: the Python backend stops there)
                  "        return DONE"]
        if not step.repeat:
            lines += ["    if k == 0:", "        return DONE"]
        lines += [f"    {self.at(LEFT)} = 0", f"    {self.at(PASSES)} = 0", f"    {self.at(IDLE)} = 0",
                  f"    {self.at(PICKED)} = 0",
                  f"    if {name}_begin({ARRAYS}, p) == 0:",
                  "        return DONE",
                  f"    return {name}_find({ARRAYS}, p)", ""]
        return lines

    def _apply(self) -> list[str]:
        """``PREFIX_apply``: a pass, a stop or a pick of the seat whose turn it is, then the next decision."""
        step, name = self.step, self.name
        lines = [f"def {name}_apply({ARRAYS}, p, action):",
                 f"    {self.at(IDLE)} = 0"]
        head = "if"
        if step.pass_label is not None:
            lines += [f"    if action == {PASS}:", f"        {name}_passed({ARRAYS}, p, {self.at(CHOOSER)})",
                      f"        {name}_end_turn({ARRAYS}, p)"]
            head = "elif"
        if step.stop_action is not None:
            lines += [f"    {head} action == {STOP}:", f"        {name}_end_turn({ARRAYS}, p)"]
            head = "elif"
        if head == "elif":
            lines += ["    else:", f"        {name}_take({ARRAYS}, p, action)"]
        else:
            lines.append(f"    {name}_take({ARRAYS}, p, action)")
        return [*lines, f"    return {name}_find({ARRAYS}, p)", ""]
