"""What a seat of a ``choose`` step may do now, written for the compiled backend (choose_template.py writes the
rest of the step, and its module's docstring says what it writes): the values it may pick (``PREFIX_choices``),
whether it may pass or stop (``PREFIX_can_pass``, ``PREFIX_can_stop``) and its legal actions (``PREFIX_legal``),
beside engine/steps/choose_choices.py's; and the progress slots and actions of the step.

An action is a card's kind, a value as values.py makes it one (a list of cards, seats, numbers or texts interned, a
card as its kind: the same number the list has wherever it is held, so that a pick is set as it is; the lists of the
step's domain are interned as the step is written, so that ``combinations`` finds them), ``PASS`` or ``STOP`` (two
numbers no value is);
the progress slots are named below (choose_template.py's docstring says what each holds, and how the history is
kept: its records are what the expressions see as ``history``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compiled.steps import ARRAYS, Writing
from interpreter.compiled.values import NONE, NotWritten
from interpreter.dsl import runtime as R
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.ir import Part, split
from interpreter.dsl.types import Type
from interpreter.engine.steps.action_types import Pass, Stop

CHOOSER, POS, COUNT, LEFT, PASSES, IDLE, PICKED, HELD, ORDER = range(9)
PASS, STOP = NONE + 1, NONE + 2  # the actions of a pass and of a stop (no value is either)


def keeps_history(step: Any) -> bool:
    """Whether a choose step's compiled progress keeps its history (its picks, every seat's): when an expression
    reads it or ``set_history`` holds it."""
    return step.set_history is not None or any(
        e is not None and "ctx:history" in e.deps for e in (step.options_expr, step.allowed, step.must,
                                                            step.may_pass, step.may_stop, step.until))


class ChoicesWriter:
    """Writes what a seat of one choose step may do now; the writer of the whole step (choose_template.py)
    derives from it and writes the rest (``code`` joins the parts)."""

    def __init__(self, step: Any, w: Writing):
        self.step, self.w, self.name = step, w, w.prefix
        self.players = w.players
        self._refuse()
        self.types: dict[str, Type] = step._names(step.option_type, step.pass_final)
        self.cards = step.option_type.kind == "card"
        self.domain_interned = step.option_type.kind == "list" and self._intern_domain()
        cap = w.lay.capacity
        self.order_size = max(cap, self.players)
        fixed = step._count_fixed if isinstance(step._count_fixed, int) else 0
        self.picks_size = max(cap, fixed, 1)
        self.picks = ORDER + self.order_size  # the first slot of the turn's picks
        # the history (its records, choose_template.py), kept when an expression reads it or set_history holds it
        self.history = self.picks + self.picks_size  # its first slot
        self.history_size = w.lay.capacity * self.players
        self.keeps_history = keeps_history(step)
        # whether a seat may pass, known where it is written: 1, 0, or None (worked out at each decision)
        self.can_pass: int | None = 1 if step.pass_label is not None else 0
        if step.pass_label is not None and (step.may_pass is not None or step.stop_action is not None):
            self.can_pass = None

    def _refuse(self) -> None:
        step = self.step
        t = step.option_type
        listed = t.kind == "list" and t.element is not None and t.element.kind in ("card", "seat", "number", "text",
                                                                                          "value")
        for given, what in ((t.kind in ("list", "record") and not listed, f"options that are {t.kind}s"),
                            (bool(step.outer_names()) and not self.w.outer, "the names an enclosing trick binds")):
            if given:
                raise NotWritten(f"a choice's {what}")

    def _intern_domain(self) -> bool:
        """Options that are lists: every list of the step's domain (the values its actions are listed by,
        engine/actions.py) interned as the step is written, so that a list made in play (``combinations``) is found
        among them (calls.py); whether they were (a step with no game to list them has none)."""
        lay = self.w.lay
        if lay.game is None or self.step.domain is None:
            return False
        for entry in self.step.words.action_entries(lay.game):
            if entry[0] not in ("pass", "stop") and isinstance(entry[2], (list, tuple)):
                self.list_number(entry[2])
        return True

    def list_number(self, value: Any) -> int:
        """A pick that is a list as its whole number: interned (values.py), a card as its kind."""
        kind = self.w.lay.layout.kind
        of_cards = self.step.option_type.element is not None and self.step.option_type.element.kind == "card"
        return self.w.lowerer.values.item([kind[c] for c in value] if of_cards else list(value))

    def at(self, slot: int) -> str:
        return self.w.at(slot)

    def call(self, expr: Compiled, names: dict[str, str], stem: str, listed: bool = False) -> str:
        if self.step.simultaneous and "ctx:history" in expr.deps:  # (each seat would see only its own records)
            raise NotWritten("a simultaneous choice's history read by an expression")
        # (the options of lists: every list of the domain is interned, _intern_domain, so combinations finds them)
        interned = expr is self.step.options_expr and self.step.option_type.kind == "list" and self.domain_interned
        return self.w.call(expr, names, self.types, stem, lists=listed, interned=interned)

    def turn(self) -> dict[str, str]:
        """The names of the turn in progress, as sources (over the local ``seat``)."""
        first, history = self.w.base + self.picks, self.w.base + self.history
        return {"seat": "seat", "passes": self.at(PASSES), "picked": f"p[{first}:{first} + {self.at(PICKED)}]",
                "history": f"p[{history}:{history} + {self.at(HELD)}]"}

    def action_of(self) -> Callable[[Any], int]:
        """What maps the Python backend's action (a Choice, a Pass, a Stop) to this step's action."""
        kind = self.w.lay.layout.kind
        values = self.w.lowerer.values
        cards = self.cards

        def action_of(action: Any) -> int:
            if type(action) is Pass:
                return PASS
            if type(action) is Stop:
                return STOP
            if isinstance(action.value, (list, tuple)):  # interned (values.py), a card as its kind
                return self.list_number(action.value)
            return kind[action.value] if cards else values.encode(action.value)

        return action_of

    def size(self) -> int:
        """The progress slots the step owns (with final passes: the seats out and the picks made, after the
        choices kept)."""
        return self.outs + (self.players + 1 if self.step.pass_final else 0)

    @property
    def outs(self) -> int:
        """With final passes (pass_is_final): the first of a slot per seat, 1 once it has passed, followed by the
        number of picks the step has made."""
        return self.kept + 1 + self.kept_size

    @property
    def kept(self) -> int:
        """The slot of how many choices the seat asked has (-1: too many to keep; they follow it): found when it
        was asked, read by ``PREFIX_legal`` (the state changes only by the step's apply, which asks again)."""
        return self.history + (self.history_size if self.keeps_history else 0)

    @property
    def kept_size(self) -> int:
        return max(self.w.lay.capacity, 1)

    def _kept(self) -> list[str]:
        """The lines of ``PREFIX_find`` that keep the choices ``legal[:n]`` of the seat asked."""
        at = self.w.base + self.kept
        return [f"        if n <= {self.kept_size}:",
                f"            p[{at}] = n",
                "            for i in range(n):",
                f"                p[{at + 1} + i] = legal[i]",
                "        else:",
                f"            p[{at}] = -1"]

    def _choices(self) -> list[str]:
        """``PREFIX_choices``: the values ``seat`` may pick now (none when its turn has no pick left), each once
        in the options' order: an array and their number."""
        step = self.step
        names = {**self.turn(), "value": "x"}
        options = self.call(step.options_expr, self.turn(), "options", listed=True)
        lines = [f"def {self.name}_choices({ARRAYS}, p, seat):",
                 f"    if {self.at(LEFT)} <= 0:",
                 "        return 0, 0",
                 *("    " + line for line in self.w.listed(options, "buf", "m")),
                 *("    " + line for line in self.w.scratch("out", "m"))]
        among = _among(self.step)
        if among is not None:  # (the list the values must be in, worked out once)
            lines += ["    " + line for line in self.w.listed(self.call(among, self.turn(), "allowed", listed=True),
                                                               "among", "k")]
        lines += ["    n = 0",
                  "    for i in range(m):",
                  "        x = buf[i]"]
        if among is not None:
            lines += ["        if choose_holds(among, k, x) == 0:",
                      "            continue"]
        elif step.allowed is not None:
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
        return [*lines, "    return out_at, choose_distinct(out, n)", "", *_shared()]

    def counts_only(self) -> bool:
        """Whether a seat has something to pick exactly when the options have an item (no ``allowed`` or ``must`` to
        narrow them, no ``auto`` to take them) and the options are a constant list: then the search for the seat to
        ask reads ``PREFIX_some``, known where it is written, and works the choices out only for the seat asked."""
        step = self.step
        options = step.options_expr.part
        return (step.allowed is None and step.must is None and not (step.auto and self.can_pass != 1)
                and options.const and isinstance(options.value, (list, tuple)))

    def _some(self) -> list[str]:
        """``PREFIX_some``: 1 when ``seat`` has something to pick now, else 0 (``counts_only``)."""
        return [f"def {self.name}_some({ARRAYS}, p, seat):", f"    if {self.at(LEFT)} <= 0:", "        return 0",
                f"    return {1 if self.step.options_expr.part.value else 0}", ""]

    def _may(self) -> list[str]:
        """``PREFIX_can_pass`` and ``PREFIX_can_stop`` (1 or 0) of ``seat`` now, when not known where written."""
        step, lines = self.step, []
        picks = f"{self.at(PICKED)} > 0" if step.stop_action is not None else "False"  # one who picked may not pass
        if self.can_pass is None:
            lines += self._permission("can_pass", picks, step.may_pass)
        if step.stop_action is not None:
            lines += self._permission("can_stop", f"not {picks}", step.may_stop)
        return lines

    def _permission(self, what: str, refused: str, may: Any) -> list[str]:
        """``PREFIX_WHAT(arrays, p, seat)``: 0 where ``refused`` holds, else whether ``may`` (none: always) holds."""
        stem = what.replace("can", "may")
        allowed = "1" if may is None else f"1 if truth({self.call(may, self.turn(), stem)}) else 0"
        return [f"def {self.name}_{what}({ARRAYS}, p, seat):", f"    if {refused}:", "        return 0",
                f"    return {allowed}", ""]

    def can(self) -> list[str]:
        """The lines that set ``can_pass`` and ``can_stop`` for ``seat``."""
        lines = [f"    can_pass = {self.can_pass}" if self.can_pass is not None
                 else f"    can_pass = {self.name}_can_pass({ARRAYS}, p, seat)"]
        lines.append(f"    can_stop = {self.name}_can_stop({ARRAYS}, p, seat)" if self.step.stop_action is not None
                     else "    can_stop = 0")
        return lines

    def _legal(self) -> list[str]:
        """``PREFIX_legal``: a pass or a stop when the seat may, then each value it may pick (as many as ``out``
        holds: one more than the options have items)."""
        step = self.step
        at = self.w.base + self.kept
        choices = self.w.listed(f"{self.name}_choices({ARRAYS}, p, seat)", "legal", "n")
        lines = [f"def {self.name}_legal({ARRAYS}, p, out):",
                 f"    seat = {self.at(CHOOSER)}",
                 f"    n = p[{at}]",  # (kept when the seat was asked)
                 "    if n >= 0:",
                 f"        legal = p[{at + 1}:{at + 1} + max(n, 1)]",
                 "    else:",
                 *("        " + line for line in choices),
                 *self.can(),
                 "    k = 0"]
        if step.stop_action is not None:
            lines += ["    if can_stop == 1:", f"        out[0] = {STOP}", "        k = 1"]
        if step.pass_label is not None:
            lines += [f"    {'elif' if step.stop_action is not None else 'if'} can_pass == 1:",
                      f"        out[0] = {PASS}", "        k = 1"]
        lines += ["    n = min(n, len(out) - k)",
                  "    for i in range(n):", "        out[k + i] = legal[i]", "    return k + n", ""]
        return lines


class _Expression:
    """A part of a checked expression as ``Writing.call`` writes one (its parts and what it reads)."""

    def __init__(self, part: Part, deps: frozenset[str]):
        self.part, self.deps = part, deps


def _among(step: Any) -> Any:
    """For an ``allowed`` that is ``value in LIST``, LIST not reading ``value`` (a climb's turn: ``value in
    next_picks(...)``), LIST as an expression of its own, worked out once for the seat asked rather than once
    per value (the same values: it reads nothing a value changes); else None."""
    allowed = step.allowed
    part: Part | None = None if allowed is None else allowed.part
    if part is None or part.op != "call" or part.data[0] is not R.contains or part.data[2]:
        return None
    item, items = part.kids
    if item.op != "name" or item.data != "value" or "ctx:value" in items.deps or items.type.kind != "list":
        return None
    return _Expression(items, split(items.deps)[0])


def _shared() -> list[str]:
    """The functions every choice's ``PREFIX_choices`` calls, the same for all (written by each, kept once in the
    module: module.source_of): whether ``x`` is among ``a[:k]``, and ``a[:n]`` with each value once, where it first
    stands (its number)."""
    return ["def choose_holds(a, k, x):",
            "    for j in range(k):",
            "        if a[j] == x:",
            "            return 1",
            "    return 0", "",
            "def choose_distinct(a, n):",
            "    k = 0",
            "    for i in range(n):",
            "        if choose_holds(a, k, a[i]) == 0:",
            "            a[k] = a[i]",
            "            k += 1",
            "    return k", ""]
