"""A ``choose`` step written for the compiled backend: seats in turn pick values from a list, over the arrays
(arrays.py) and the progress array, as functions in the subset of Python numba compiles (the step kind's second
template, steps.py, beside engine/steps/choose_code.py's): the same turns, passes, stops, automatic picks, values
set and cards moved as the Python backend's, each fragment a function of its own.

An action is one whole number: for a choice of cards a card's kind (runtime/layout.py: a pick takes the last copy of
its kind, as the compact game does); for a choice of values the value as values.py makes it one (a seat its index, a
number itself, a text interned); a pass is ``PASS`` and a stop ``STOP``, two numbers no value is (just above
values.NONE). ``StepCode.action_of`` maps the Python backend's Choice, Pass and Stop to them. ``PREFIX_legal``
gives at most two more actions than the options have items (a pass or a stop first, then each value once, in the
options' order).

Its progress slots, from the step's base: ``SEAT`` the seat to choose, ``POS`` its place in the order, ``COUNT``
how many seats the order has (0 once the step is over), ``LEFT`` the picks left in the turn, ``PASSES`` passes in
a row, ``IDLE`` turns in a row that asked nobody, ``PICKED`` how many picks the turn has made, then the order (from
``ORDER``: as many slots as a row of the arrays holds) and the turn's picks (after it).

Written: ``who`` (a seat, a list of seats, or everyone from the dealer's left), ``options`` (values, seats or cards
an expression gives), ``allowed``, ``must``, ``count``, ``pass`` and ``may_pass``, ``stop`` and ``may_stop``,
``repeat`` and ``until``, ``set``, ``set_seat`` and ``set_chooser`` (one value, or the turn's picks as a list with
``count``), ``move_to``, ``auto``; the expressions see ``seat``, ``value``, ``picked`` and ``passes``. What only
tells or shows is not written (the compiled backend tells nothing): ``label``, ``describe``, ``verb``,
``narrate_pass``, ``visible``, ``domain``; nor what only search reads of ``simultaneous`` (a choice made in secret
plays the same). Two values that one ``label`` shows alike are one choice on the Python backend and two here: the
bundled games' labels tell their values apart.

Not yet (``NotWritten``, the step stays on the Python backend): ``history`` read by an expression, ``set_history``
(a list of records: not in the arrays yet), options that are lists or records (and so ``swap``), and the names an
enclosing trick binds (a choice between plays or after a trick).

Where the Python backend stops with a mistake of the rules (a ``who`` that names no seat, options that are not a
list, picks left unfinished with no pick to go on with, a ``repeat`` that goes round and round asking nobody), the
compiled backend ends the step: it plays only what the checked path has played.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, StepCode, Writing
from interpreter.compiled.values import NONE, NotWritten
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import Type
from interpreter.engine.steps.action_types import Pass, Stop
from interpreter.runtime.layout import DEALER, ROUND, SEAT as SEAT_VALUE
from interpreter.runtime.moves import search_orders

SEAT, POS, COUNT, LEFT, PASSES, IDLE, PICKED, ORDER = range(8)
PASS, STOP = NONE + 1, NONE + 2  # the actions of a pass and of a stop (no value is either)


def write(step: Any, w: Writing) -> StepCode:
    """The compiled template of ``step``, a choose step (see the module's docstring)."""
    return _ChooseWriter(step, w).code()


class _ChooseWriter:
    def __init__(self, step: Any, w: Writing):
        self.step, self.w, self.name = step, w, w.prefix
        self.players = w.players
        self._refuse()
        self.types: dict[str, Type] = step._names(step.option_type)
        self.cards = step.option_type.kind == "card"
        cap = w.lay.capacity
        self.order_size = max(cap, self.players)
        fixed = step._count_fixed if isinstance(step._count_fixed, int) else 0
        self.picks_size = max(cap, fixed, 1)
        self.picks = ORDER + self.order_size  # the first slot of the turn's picks
        # whether a seat may pass, known where it is written: 1, 0, or None (worked out at each decision)
        self.can_pass: int | None = 1 if step.pass_label is not None else 0
        if step.pass_label is not None and (step.may_pass is not None or step.stop_action is not None):
            self.can_pass = None

    def _refuse(self) -> None:
        step = self.step
        t = step.option_type
        for given, what in ((t.kind in ("list", "record"), f"options that are {t.kind}s"),  # (so swap, of pairs)
                            (step.set_history is not None, "set_history"),
                            (bool(step.outer_names()), "the names an enclosing trick binds")):
            if given:
                raise NotWritten(f"a choice's {what}")

    def at(self, slot: int) -> str:
        return self.w.at(slot)

    def call(self, expr: Compiled, names: dict[str, str], stem: str, listed: bool = False) -> str:
        if "history" in {d[4:] for d in expr.deps if d.startswith("ctx:")}:
            raise NotWritten("a choice's history read by an expression")
        return self.w.call(expr, names, self.types, stem, listed)

    def turn(self, seat: str = "seat") -> dict[str, str]:
        """The names of the turn in progress, as sources (``seat``: the source of the seat)."""
        first = self.w.base + self.picks
        return {"seat": seat, "passes": self.at(PASSES), "picked": f"p[{first}:{first} + {self.at(PICKED)}]"}

    def code(self) -> StepCode:
        lines = (self._order() + self._begin() + self._end_turn() + self._idle() + self._choices() + self._may()
                 + self._take() + self._find() + self._start() + self._legal() + self._apply())
        kind = self.w.lay.layout.kind
        values = self.w.lowerer.values
        cards = self.cards

        def action_of(action: Any) -> int:
            if type(action) is Pass:
                return PASS
            if type(action) is Stop:
                return STOP
            return kind[action.value] if cards else values.encode(action.value)

        return StepCode(self.name, "\n".join(lines), self.picks + self.picks_size, decides=True,
                        expressions=self.w.expressions, action_of=action_of)

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
            lines += [f"    buf, m = {self.call(step.who, {}, 'who', listed=True)}",
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
        else:
            lines += [f"            {self.at(COUNT)} = 0", f"            {self.at(POS)} = 0", "            return 0"]
        lines += [f"        seat = p[{self.w.base + ORDER} + {self.at(POS)}]",
                  f"        {self.at(SEAT)} = seat",
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
        if self.step.until is not None:
            seat = f"p[{self.w.base + ORDER} + {self.at(POS)}]"
            lines += [f"    seat = {seat}",
                      f"    if truth({self.call(self.step.until, self.turn(), 'until')}):",
                      f"        {self.at(COUNT)} = 0",
                      f"        {self.at(POS)} = 0",
                      "        return"]
        lines += [f"    {self.at(POS)} += 1", f"    {name}_begin({ARRAYS}, p)", ""]
        return lines

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

    def _choices(self) -> list[str]:
        """``PREFIX_choices``: the values ``seat`` may pick now (none when its turn has no pick left), each once
        in the options' order: an array and their number."""
        step = self.step
        names = {**self.turn(), "value": "x"}
        options = self.call(step.options_expr, self.turn(), "options", listed=True)
        lines = [f"def {self.name}_choices({ARRAYS}, p, seat):",
                 f"    if {self.at(LEFT)} <= 0:",
                 "        return np.empty(1, np.int64), 0",
                 f"    buf, m = {options}",
                 "    out = np.empty(max(m, 1), np.int64)",
                 "    n = 0",
                 "    for i in range(m):",
                 "        x = buf[i]"]
        if step.allowed is not None:
            lines += [f"        if not truth({self.call(step.allowed, names, 'allowed')}):", "            continue"]
        lines += ["        out[n] = x", "        n += 1"]
        if step.must is not None:  # those that meet it, when some do (in place: nothing is written when none do)
            lines += ["    k = 0",
                      "    for i in range(n):",
                      "        x = out[i]",
                      f"        if truth({self.call(step.must, names, 'must')}):",
                      "            out[k] = x",
                      "            k += 1",
                      "    if k > 0:",
                      "        n = k"]
        lines += ["    k = 0",  # each value once, where it first stands
                  "    for i in range(n):",
                  "        x = out[i]",
                  "        seen = 0",
                  "        for j in range(k):",
                  "            if out[j] == x:",
                  "                seen = 1",
                  "                break",
                  "        if seen == 0:",
                  "            out[k] = x",
                  "            k += 1",
                  "    return out, k", ""]
        return lines

    def _may(self) -> list[str]:
        """``PREFIX_can_pass`` and ``PREFIX_can_stop`` (1 or 0) of ``seat`` now, when not known where written."""
        step, lines = self.step, []
        picks = f"{self.at(PICKED)} > 0" if step.stop_action is not None else "False"  # one who picked may not pass
        if self.can_pass is None:
            lines += [f"def {self.name}_can_pass({ARRAYS}, p, seat):",
                      f"    if {picks}:",
                      "        return 0"]
            if step.may_pass is not None:
                lines += [f"    return 1 if truth({self.call(step.may_pass, self.turn(), 'may_pass')}) else 0"]
            else:
                lines += ["    return 1"]
            lines.append("")
        if step.stop_action is not None:
            lines += [f"def {self.name}_can_stop({ARRAYS}, p, seat):",
                      f"    if not {picks}:",
                      "        return 0"]
            if step.may_stop is not None:
                lines += [f"    return 1 if truth({self.call(step.may_stop, self.turn(), 'may_stop')}) else 0"]
            else:
                lines += ["    return 1"]
            lines.append("")
        return lines

    def can(self) -> list[str]:
        """The lines that set ``can_pass`` and ``can_stop`` for ``seat``."""
        lines = [f"    can_pass = {self.can_pass}" if self.can_pass is not None
                 else f"    can_pass = {self.name}_can_pass({ARRAYS}, p, seat)"]
        lines.append(f"    can_stop = {self.name}_can_stop({ARRAYS}, p, seat)" if self.step.stop_action is not None
                     else "    can_stop = 0")
        return lines

    def _take(self) -> list[str]:
        """``PREFIX_take``: the seat whose turn it is picks ``x``: a card moves, the values are set, the turn may
        end."""
        step, w, name = self.step, self.w, self.name
        lay = w.lay
        first = w.base + self.picks
        lines: list[str] = []
        if step.move_to is not None:
            lines += self._remove()
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
        lines += [f"    k = {self.at(PICKED)}",
                  f"    if k < {self.picks_size}:",
                  f"        p[{first} + k] = x",
                  f"        {self.at(PICKED)} = k + 1",
                  f"    {self.at(PASSES)} = 0",
                  f"    {self.at(IDLE)} = 0"]
        picked = f"p[{first}:{first} + {self.at(PICKED)}]"
        for part, value, at in ((ROUND, step.set_round, ""), (SEAT_VALUE, step.set_seat, " + seat")):
            if value is None:
                continue
            if step.counted:
                row = self._slot(lay.list_of, part, value)
                lines += [f"    n = min({self.at(PICKED)}, l.shape[1])",
                          f"    l[{row}{at}, :n] = {picked}[:n]",
                          f"    ln[{row}{at}] = n"]
            else:
                lines.append(f"    v[{self._slot(lay.value, part, value)}{at}] = x")
        if step.set_chooser is not None:
            lines.append(f"    v[{self._slot(lay.value, ROUND, step.set_chooser)}] = seat")
        lines.append(f"    {self.at(LEFT)} -= 1")
        if step.may_stop is None:  # (with may_stop, the turn's end waits for the decision)
            lines += [f"    if {self.at(LEFT)} <= 0:", f"        {name}_end_turn({ARRAYS}, p)"]
        return [*lines, ""]

    def _slot(self, where: Any, part: str, name: str) -> int:
        """Where a value the step sets is in the arrays (seat 0's, for a seat's)."""
        try:
            found: int = where(part, name, 0 if part == SEAT_VALUE else None)
        except (KeyError, ValueError):
            raise NotWritten(f"a choice that sets {name!r}, which the arrays do not hold") from None
        return found

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
                "                return", ""]

    def _find(self) -> list[str]:
        """``PREFIX_find``: the pending decision from the progress (DECIDES, ``SEAT`` the seat to choose) or DONE;
        seats with nothing to choose pass or are skipped, and a seat that has to take every option it has left
        takes them (``auto``) on the way."""
        step, name = self.step, self.name
        lines = [f"def {name}_find({ARRAYS}, p):",
                 f"    while {self.at(POS)} < {self.at(COUNT)}:",
                 f"        seat = p[{self.w.base + ORDER} + {self.at(POS)}]",
                 f"        {self.at(SEAT)} = seat",
                 f"        legal, n = {name}_choices({ARRAYS}, p, seat)",
                 *("    " + line for line in self.can())]
        if step.may_stop is not None:  # picks that may not stop there and no pick to go on with (a mistake)
            lines += [f"        if n == 0 and {self.at(PICKED)} > 0 and can_stop == 0:",
                      f"            {self.at(COUNT)} = 0",
                      "            return DONE"]
        lines += ["        if n == 0:",  # not asked: a pass, when it may pass
                  "            if can_pass == 1:",
                  f"                {self.at(PASSES)} += 1",
                  f"            if {name}_idle(p) == 0:",
                  f"                {name}_end_turn({ARRAYS}, p)",
                  "            continue"]
        if step.auto and self.can_pass != 1:
            lines += [f"        if can_pass == 0 and can_stop == 0 and n <= {self.at(LEFT)}:",
                      f"            {name}_take({ARRAYS}, p, legal[0])",
                      "            continue"]
        lines += ["        return DECIDES", "    return DONE", ""]
        return lines

    def _start(self) -> list[str]:
        step, name = self.step, self.name
        lines = [f"def {name}_start({ARRAYS}, p):",
                 f"    k = {name}_order({ARRAYS}, p)"]
        if step.counted:  # the lists set start empty
            if step.set_round is not None:
                lines.append(f"    ln[{self._slot(self.w.lay.list_of, ROUND, step.set_round)}] = 0")
            if step.set_seat is not None:
                row = self._slot(self.w.lay.list_of, SEAT_VALUE, step.set_seat)
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

    def _legal(self) -> list[str]:
        """``PREFIX_legal``: a pass or a stop when the seat may, then each value it may pick."""
        step = self.step
        lines = [f"def {self.name}_legal({ARRAYS}, p, out):",
                 f"    seat = {self.at(SEAT)}",
                 f"    legal, n = {self.name}_choices({ARRAYS}, p, seat)",
                 *self.can(),
                 "    k = 0"]
        if step.stop_action is not None:
            lines += ["    if can_stop == 1:", f"        out[0] = {STOP}", "        k = 1"]
        if step.pass_label is not None:
            lines += [f"    {'elif' if step.stop_action is not None else 'if'} can_pass == 1:",
                      f"        out[0] = {PASS}", "        k = 1"]
        lines += ["    for i in range(n):", "        out[k + i] = legal[i]", "    return k + n", ""]
        return lines

    def _apply(self) -> list[str]:
        step, name = self.step, self.name
        lines = [f"def {name}_apply({ARRAYS}, p, action):",
                 f"    {self.at(IDLE)} = 0"]
        head = "if"
        if step.pass_label is not None:
            lines += [f"    if action == {PASS}:", f"        {self.at(PASSES)} += 1",
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
