"""The part of a ``choose`` step's written code that works out what a seat may choose now (``legal``: the options,
the conditions judged on them, each value's choice with its label) and how a choice made for it is told; written in
place by choose_code.py's ChooseWriter, which derives from :class:`ChoicesWriter`."""

from __future__ import annotations

from typing import Any

from interpreter.engine.faults import not_a_list
from interpreter.engine.steps.choose import Choose
from interpreter.engine.steps.choose_names import Names
from interpreter.engine.steps.writer import Lines, Writer, bound_read


class ChoicesWriter(Writer):
    """Writes the choices of one choose step (``legal``) and the telling of a choice; the writer of the whole step
    (choose_code.ChooseWriter) sets what these read."""

    step: Choose
    g: Names  # the names of what the code refers to
    own: dict[str, str]  # the locals of the turn's names (seat, picked, passes, history)
    outer: dict[str, str]  # the locals of the names an enclosing trick binds
    fixed_choices: bool  # the same choices every time: made once, kept in FIXED
    can_pass: bool | None  # whether a seat may pass, known where it is written (None: worked out at play)
    selects: bool  # a condition judged option by option runs as one loop

    def legal_names(self) -> set[str]:
        """The names of the turn the choices are worked out from."""
        step = self.step
        names = bound_read([step.options_expr])
        if self.selects:
            names |= {"picked", "passes", "history"}
        return names

    def legal(self, w: Lines) -> None:
        """``legal``: the choices of ``_v_seat`` now (``e`` is a fresh environment); fixed choices are made once and
        kept in ``FIXED`` with their actions (``legal`` is then that list: not to be changed)."""
        if not self.fixed_choices:
            self.choices(w)
            return
        with w.block(f"if not {self.g.FIXED}:"):
            self.choices(w)
        w(f"legal = {self.g.FIXED}[0]")

    def choices(self, w: Lines) -> None:
        """``legal``, worked out (see ``legal``)."""
        step, g = self.step, self.g
        env = f"{{'$s': state{self.outer_items(step.label_expr)}}}"  # what a label is worked out over
        if step._batch:  # parts of allowed and must that do not read value, defines: once per decision
            w("e['$batch'] = object()")
        self.assign(w, "options", step.options_expr, {**self.own, **self.outer})
        with w.block("if not isinstance(options, (list, tuple)):"):
            w(f"raise {self.ref(not_a_list)}({str(step.options_expr.position)!r}, options)")
        if step.allowed is not None:
            self.judge(w, step.allowed, step._allowed_table, False)
        if step.must is not None:
            with w.block("if options:"):
                self.judge(w, step.must, step._must_table, True)
        if step._cards:  # identical cards are one choice
            w(f"choices = {g.CARD_CHOICES}",
              f"legal = list({{{g.KINDS}[c]: choices[c] for c in options}}.values())")
            return
        if self.fixed_choices:  # the same choices every time: made once, with the actions (see fixed_actions)
            w(f"legal = {g.LABELS}.choices(lambda: {env}, None, options)")
        elif step._choices is not None:  # labels that read only the value: each value's choice made once, in MADE
            with w.block("try:"):
                w(f"legal = [{g.MADE}[v] for v in options]")
            with w.block(f"except {g.UNMADE}:  # a value not seen yet (its label made now), a list value"):
                w(f"legal = {g.LABELS}.choices(lambda: {env}, _v_seat, options)")
        else:
            w(f"legal = {g.LABELS}.choices(lambda: {env}, _v_seat, options)")
        # one choice per label (two values with one label are one choice)
        with w.block(f"if len(legal) > 1 and len(set(map({g.LABEL_OF}, legal))) < len(legal):"):
            w(f"legal = {g.DISTINCT}(legal)")
        if self.fixed_choices:
            actions = f"[{self.ref(step.pass_action)}, *legal]" if self.can_pass else "legal"
            w(f"{g.FIXED}[:] = legal, {actions}")

    def outer_items(self, expr: Any) -> str:
        """The source of the items of a dict of the names of an enclosing trick ``expr`` reads (its locals here)."""
        return "".join(f", {n!r}: {self.outer[n]}" for n in bound_read([expr]) if n in self.outer)

    def said(self, action: str) -> str:
        """The source of how the choice ``action`` (a source) made for ``_v_seat`` is told (ChooseWords.describe)."""
        step = self.step
        if step.describe_expr is None:
            return f"{step.words.verb_said() + ' '!r} + {action}.label"
        env = f"{{'$s': state{self.outer_items(step.describe_expr)}, 'seat': _v_seat, 'value': {action}.value}}"
        return f"str({self.ref(step.describe_expr)}({env}))"

    def judge(self, w: Lines, cond: Any, table: Any, soft: bool) -> None:
        """``options``: those the condition keeps; with ``soft`` (an obligation), all of them when it keeps none."""
        if table is not None:
            w(f"ok = {self.ref(self.shape.table(table))}.table(state)", "kept = [v for v in options if ok[v]]")
        else:
            outer = "**o, " if self.step.bound else ""
            w(f"env = {{{outer}'$s': state, '$batch': e['$batch'], 'seat': _v_seat, 'picked': _v_picked, "
              "'passes': _v_passes, 'history': _v_history}",
              f"kept = {self.ref(self.shape.compiled(cond))}.select(env, options)")
        w("options = kept if kept else list(options)" if soft else "options = kept")
