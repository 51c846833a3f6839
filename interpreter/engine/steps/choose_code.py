"""The code of a ``choose`` step's play, written for each step from its options: one source for the checked path
and for playouts.

Once a game is compiled a choice's configuration is known: who chooses, what from, whether a seat may pass or
stop, what is set, what a pick moves. ``write`` writes Python functions specialised to it, each fragment written
once by a method of :class:`ChooseWriter` and placed wherever it runs:

* ``start(state)``: the order of the seats, the values set before any pick, the first turn (the step's
  ``start``: its progress, or None when nobody has anything to do);
* ``decision(state, q)``: the pending decision: the seat whose turn it is and its actions (a pass or a stop
  first, then the choices); seats with nothing to choose pass or are skipped, and a seat that has to take
  every option it has left takes them (``auto``) on the way; None when the step is over;
* ``apply(state, q, action)``: a pass, a stop or a pick (``take``), and the end of a turn (``end_turn``: until,
  then the next seat with something to do, ``begin_turn``);
* ``legal(state, q, seat)``: the choices of ``seat`` now (also for samples drawn for search);
* ``run(game, state, policy)``: for ``Game.playout``, the bodies of ``apply`` and ``decision`` in a loop of
  its own, without Decision objects, until the step is over or an automatic seat is to choose;
* ``in_loop``: a choice a trick or a repeat runs, in place in the playout loop of its list (``InLoop``; what it
  refers to there is named after its place in the list, see choose_names.py): no call, no lookup of its code.

The fragments of a turn (``begin_turn``, ``end_turn``, ``take``) are written in place wherever they run, not
called. Choices that are the same every time (constant options, no condition, labels that read only the value)
are made once and kept in ``FIXED`` with their actions (a pass first, when a seat may always pass): the checked
path and a policy get a copy, a playout loop without a policy picks from them as kept. Choices whose labels read
only the value are looked up in the step's kept choices (``MADE``) in place; the step makes one only for a value
seen first. A choice with nobody in ``who`` makes no progress object.

Expressions are written in place over locals (``seat``, ``picked``, ``passes``, ``history``, and the names an
enclosing trick binds); the conditions judged option by option (``allowed``, ``must``) are looked up in card
tables when they read only the card and round values, else run as one loop (``select``). What the checked
path adds, narration and what a Knowledge is told, is written in behind a test of the state.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, NamedTuple

from interpreter.dsl.codegen import Namespace
from interpreter.engine.card_values import only_cards
from interpreter.engine.faults import bad_who, round_and_round, unfinished
from interpreter.engine.game_view import GameView
from interpreter.engine.narration import tell_seat
from interpreter.engine.state_shape import STATE_SHAPE, StateShape
from interpreter.engine.steps.choose import Choose
from interpreter.engine.steps.choose_choices import ChoicesWriter
from interpreter.engine.steps.choose_names import OWN, Names, placed, values
from interpreter.engine.steps.steps_code import LOOPS
from interpreter.engine.steps.words import show
from interpreter.engine.steps.writer import Lines, Part, bound_read


class ChooseCode(NamedTuple):
    """The functions written for one choose step (see the module's docstring)."""

    start: Any
    decision: Any
    apply: Any
    legal: Any
    run: Any


class InLoop:
    """A choice written in place in the playout loop of its list (steps_code.py's ``run_NAME``, where it is ``ref``):
    what its code refers to there, by names of its own (``placed``), and its writer."""

    def __init__(self, step: Choose, game: GameView, gen: Namespace, shape: StateShape, ref: str):
        names = placed(ref)
        self.globals = values(step, game, shape, names)
        self.writer = ChooseWriter(step, game.players, gen, shape, names)
        self.read = list(self.writer.outer_read)  # the names of the holding step its expressions read
        self.reads_o = self.writer.selects and bool(step.bound)  # a condition judged in one loop takes them all

    def write(self, w: Lines, stopped: Callable[[], None], from_o: bool) -> None:
        self.writer.in_loop(w, stopped, from_o)


LOOPS[Choose] = InLoop


def part(step: Choose, game: GameView, gen: Namespace, shape: StateShape = STATE_SHAPE) -> Part:
    """The functions of ``step`` for ``game``; ``gen``: the namespace of the game's expressions (those written in
    place refer to its helpers)."""
    return Part(ChooseWriter(step, game.players, gen, shape).source(), values(step, game, shape),
                lambda f: ChooseCode(f["start"], f["decision"], f["apply"], f["legal"], f.get("run")))


class ChooseWriter(ChoicesWriter):
    """Writes the functions of one choose step; each method writes one fragment (see the module's docstring)."""

    def __init__(self, step: Choose, players: int, gen: Namespace, shape: StateShape = STATE_SHAPE,
                 names: Names = OWN):
        super().__init__(gen, shape)
        self.step = step
        self.g = names  # the names of what the code refers to (see Names)
        self.players = players
        self.own = self.names("seat", "picked", "passes", "history")
        self.outer = self.names(*step.bound)  # the names an enclosing trick binds
        read = step.outer_names()
        self.outer_read = [n for n in step.bound if n in read]
        # options written as a constant, none judged, labels that read only the value: the same choices each time
        part = step.options_expr.part
        self.fixed_choices = (part is not None and part.const and step.allowed is None and step.must is None
                              and step._choices is not None and not step._cards)
        # whether a seat may pass, known where it is written: True, False, or None (worked out at play)
        self.can_pass: bool | None = step.pass_label is not None
        if step.pass_label is not None and (step.may_pass is not None or step.stop_action is not None):
            self.can_pass = None
        # fixed choices and a fixed pass: the actions too are the same each time (made once, with the choices)
        self.fixed_actions = self.fixed_choices and self.can_pass is not None
        # a condition judged option by option runs as one loop, which takes every name in a dict
        self.selects = (step.allowed is not None and step._allowed_table is None) or \
            (step.must is not None and step._must_table is None)

    def source(self) -> str:
        w = Lines()
        with w.block("def start(state, o):"):
            self.prologue(w)
            self.start(w, lambda: w("return q"), lambda: w("return None"), lambda: w("return None"))
        with w.block("def legal(state, q, _v_seat, o):"):
            self.prologue(w)
            self.fresh(w)
            self.turn_names(w, self.legal_names())
            self.legal(w)
            w("return list(legal)" if self.fixed_choices else "return legal")  # the caller's own list
        with w.block("def decision(state, q, o):"):
            self.prologue(w)
            self.decision(w, lambda: w(f"return {self.made()}"), lambda: w("return None"))
        with w.block("def apply(state, q, action, o):"):
            self.prologue(w)
            w("_v_seat = q.order[q.pos]")
            self.apply(w)
        with w.block("def run(game, state, policy, random):"):
            self.run(w)
        return w.text()

    # ------------------------------------------------------------------ fragments

    def prologue(self, w: Lines) -> None:
        """The names an enclosing trick binds, as locals (those the step's expressions read), from ``o``: a dict
        of them the trick gives (see Choose.outer_names), None for a step of the round."""
        for name in self.outer_read:
            w(f"{self.outer[name]} = o[{name!r}]")

    @staticmethod
    def fresh(w: Lines) -> None:
        """A new environment for defines: what they work out is not kept from an earlier batch."""
        w("e = {'$s': state}")

    def turn_names(self, w: Lines, names: set[str]) -> None:
        """The locals of the turn in progress that ``names`` asks for (the seat is set already)."""
        if "picked" in names:
            w("_v_picked = q.picked")
        if "passes" in names:
            w("_v_passes = q.passes")
        if "history" in names:
            w("_v_history = [h for h in q.history if h['seat'] == _v_seat]" if self.step.simultaneous
              else "_v_history = q.history")

    def order(self, w: Lines, target: str) -> None:
        """``target``: the seats that choose, in order (``who``, or everyone from the dealer's left)."""
        step = self.step
        if step.who is None:
            w(f"first = ({self.shape.attribute('state', 'dealer')} + 1) % {self.players}",
              f"{target} = [(first + i) % {self.players} for i in range({self.players})]")
            return
        self.fresh(w)
        self.assign(w, "who", step.who, {**self.outer})
        w(f"{target} = list(who) if isinstance(who, (list, tuple)) else [who]")
        with w.block(f"for s in {target}:"):
            with w.block(f"if type(s) is not int or not 0 <= s < {self.players}:"):
                w(f"raise {self.ref(bad_who)}({str(step.who.position)!r}, who)")

    def start(self, w: Lines, found: Any, over: Any, nobody: Any) -> None:
        """The seats' order, the values set before any pick, the first turn: ``found()`` writes what is done with the
        progress ``q`` then, ``over()`` what is done when nobody has anything to do (both leave the loop finding the
        turn), ``nobody()`` what is done when who has no seat (no progress is made)."""
        step = self.step
        self.order(w, "order")
        shape = self.shape
        if step.set_history:
            w(f"{shape.round('state', step.set_history)} = []")
        if step.pass_final and step.set_chooser:  # all passed: nobody chose
            w(f"{shape.round('state', step.set_chooser)} = None")
        if step.counted:
            if step.set_round:
                w(f"{shape.round('state', step.set_round)} = []")
            if step.set_seat:
                with w.block("for s in order:"):
                    w(f"{shape.seat_value('state', step.set_seat, 's')} = []")
        if not step.repeat:  # nobody to choose: no progress (a repeat works who out again first, see begin_turn)
            with w.block("if not order:"):
                nobody()
        with w.block("else:") if not step.repeat else nullcontext():
            w(f"q = {self.g.Q}(order)")
            self.begin_turn(w, found, over)

    def idle(self, w: Lines) -> None:
        """A turn that asked nobody; going round every seat of who twice that way never ends."""
        w("q.idle += 1")
        if self.step.repeat:
            with w.block("if q.idle > 2 * max(len(q.order), 1):"):
                w(f"raise {self.ref(round_and_round)}({self.step.where!r}, {self.step.name!r})")

    def begin_turn(self, w: Lines, found: Any, over: Any) -> None:
        """Find the next seat with something to do, from ``q.pos`` (``_v_seat``), in a loop of its own: ``found()``
        writes what is done then (it leaves the loop: a ``break`` or a ``return``), ``over()`` what is done when the
        step is over (likewise)."""
        step = self.step
        with w.block("while True:"):
            with w.block("if q.pos >= len(q.order):"):
                if not step.repeat:
                    over()
                else:
                    self.order(w, "q.order")
                    w("q.pos = 0")
                    with w.block("if not q.order:"):
                        over()
                    if step.pass_final:  # (who worked out again may leave one seat in, or none)
                        self.auction_over(w, over)
            w("_v_seat = q.order[q.pos]")
            if step.pass_final:  # a seat that passed is not asked again
                with w.block("if _v_seat in q.out:"):
                    w("q.pos += 1", "continue")
            w("q.picked = []")
            if step._count_fixed is not None:
                w(f"q.left = {step._count_fixed!r}")
            elif step.count is not None:
                self.fresh(w)
                # a whole number: the expression's own check refuses anything else (a constant, when compiled)
                self.assign(w, "k", step.count, {"seat": "_v_seat", **self.outer}, "number")
                w("q.left = k")
            else:
                w("q.left = 1")
            if step.pass_label is not None:  # a seat with nothing to pick passes
                found()
            else:
                with w.block("if q.left > 0:"):
                    found()
                self.idle(w)
                w("q.pos += 1")

    def end_turn(self, w: Lines) -> None:
        """After the turn of ``_v_seat``: until, then the next seat with something to do (written in place: no
        return; ``_v_seat`` is that seat's afterwards)."""
        step = self.step

        def over() -> None:
            w("q.pos = len(q.order)", "q.order = []")

        def ended() -> None:
            over()
            w("break")

        def following() -> None:
            w("q.pos += 1")
            self.begin_turn(w, lambda: w("break"), ended)

        if step.pass_final:
            with w.block("while True:"):  # (a block to leave: the end of the auction, else until and the next turn)
                self.auction_over(w, ended)
                self.until_or_next(w, over, following)
                w("break")
            return
        self.until_or_next(w, over, following)

    def until_or_next(self, w: Lines, over: Callable[[], None], following: Callable[[], None]) -> None:
        """``until`` (when written): the step over when it holds, else the next seat's turn."""
        step = self.step
        if step.until is None:
            following()
            return
        self.fresh(w)
        self.turn_names(w, bound_read([step.until]))
        self.assign(w, "done", step.until, {**self.own, **self.outer})
        with w.block("if done:"):
            over()
        with w.block("else:"):
            following()

    def auction_over(self, w: Lines, over: Callable[[], None]) -> None:
        """With final passes: ``over()`` when every seat of the order has passed, or one is left after a choice (the
        history holds more records than passes)."""
        w("left = [s for s in q.order if s not in q.out]")
        with w.block("if not left or len(left) == 1 and len(q.history) > len(q.out):"):
            over()

    def passed(self, w: Lines) -> None:
        """``_v_seat`` passes: counted; with final passes, out of the step and recorded in the history."""
        step, shape = self.step, self.shape
        w("q.passes += 1")
        if not step.pass_final:
            return
        w("q.out.append(_v_seat)", "q.history.append({'seat': _v_seat, 'value': None, 'passed': True})")
        if step.set_history:
            w(f"{shape.round('state', step.set_history)} = list(q.history)")

    def take(self, w: Lines, action: str, quiet: bool) -> None:
        """``_v_seat`` picks ``action`` (a source): cards move or swap, the values are set, the turn may end; told to
        a Knowledge unless ``quiet`` (written in place: no return)."""
        step, shape = self.step, self.shape
        w(f"value = {action}.value")
        if step.swap:
            w(f"{self.ref(shape.moves.swapper(step))}(state, _v_seat, value)")
        if step.move_to is not None:
            w(f"{self.ref(shape.moves.remover(step.looks_in))}(state, value, _v_seat)")
            dest = shape.seat_zone("state", step.move_to, "_v_seat") if step.move_to_per_seat \
                else shape.zone("state", step.move_to)
            w(f"{dest}.append(value)")
        if shape.edges and not quiet:
            with w.block("if state.notes is not None:"):
                w(f"{self.ref(tell_seat)}(state, _v_seat, {self.said(action)})")
        if only_cards(step.option_type) and step.visible == "all" and not step.simultaneous and shape.edges:
            with w.block("if state.seen is not None:"):  # cards, in the open
                w(f"state.seen.cards.extend((None, c) for c in {self.g.cards_named}({self.ref(step.option_type)}, "
                  "value))")
        if step.pass_final:  # (passes are not in a row: passes counts the seats out)
            w("q.picked.append(value)", "q.history.append({'seat': _v_seat, 'value': value, 'passed': False})",
              "q.idle = 0")
        else:
            w("q.picked.append(value)", "q.history.append({'seat': _v_seat, 'value': value})", "q.passes = 0",
              "q.idle = 0")
        stored = "list(q.picked)" if step.counted else "value"
        if step.set_round:
            w(f"{shape.round('state', step.set_round)} = {stored}")
        if step.set_seat:
            w(f"{shape.seat_value('state', step.set_seat, '_v_seat')} = {stored}")
        if step.set_chooser:
            w(f"{shape.round('state', step.set_chooser)} = _v_seat")
        if step.set_history:
            w(f"{shape.round('state', step.set_history)} = list(q.history)")
        w("q.left -= 1")
        if step.may_stop is None:  # with may_stop, the turn's end waits for the decision (it may not end there)
            with w.block("if q.left <= 0:"):
                self.end_turn(w)

    def decision(self, w: Lines, decide: Any, done: Any, playing: bool = False) -> None:
        """Find the pending decision from ``q``: ``decide()`` writes what is done with it (``_v_seat`` chooses
        among ``actions``), ``done()`` what is done when the step is over. ``playing``: in a playout's loop
        (``policy`` in scope), where fixed actions are given as they are kept when there is no policy to give them
        to (see ``made``)."""
        step = self.step
        with w.block("while q.pos < len(q.order):"):
            w("_v_seat = q.order[q.pos]")
            self.fresh(w)
            self.turn_names(w, self.legal_names() | bound_read([step.may_pass, step.may_stop]))
            with w.block("if q.left > 0:"):
                self.legal(w)
            with w.block("else:"):
                w("legal = []")
            can_stop = "can_stop" if step.stop_action is not None else "False"
            picks = "picks" if step.stop_action is not None else "False"  # a seat that has picked may not pass
            if step.stop_action is not None:
                w("picks = bool(q.picked)")
                if step.may_stop is None:
                    w("can_stop = picks")
                else:
                    w("can_stop = False")
                    with w.block("if picks:"):
                        self.assign(w, "can_stop", step.may_stop, {**self.own, **self.outer})
            can_pass = "False"
            if self.can_pass:  # known: written as a constant
                can_pass = "True"
            elif step.pass_label is not None:
                can_pass = "can_pass"
                if step.may_pass is None:
                    w(f"can_pass = not {picks}")
                else:
                    with w.block(f"if {picks}:"):
                        w("can_pass = False")
                    with w.block("else:"):
                        self.assign(w, "can_pass", step.may_pass, {**self.own, **self.outer})
            if step.may_stop is not None:  # picks that may not stop there need a pick to go on with
                with w.block("if not legal and picks and not can_stop:"):
                    w(f"raise {self.ref(unfinished)}({step.where!r}, {step.name!r}, state.game.seat_names[_v_seat], "
                      f"[{self.ref(show)}(state.game, {self.ref(step.option_type)}, v) for v in q.picked])")
            with w.block("if not legal:"):  # nothing to choose: the seat is not asked (a pass, when it may pass)
                if can_pass != "False":
                    with w.block(f"if {can_pass}:") if can_pass != "True" else nullcontext():
                        self.passed(w)
                        if step.narrate_pass and self.shape.edges:
                            with w.block("if state.notes is not None:"):
                                said = f"{step.words.pass_said()} (nothing to choose)"
                                w(f"{self.ref(tell_seat)}(state, _v_seat, {said!r})")
                self.idle(w)
                self.end_turn(w)
                w("continue")
            if step.auto and can_pass != "True":
                with w.block(f"if not {can_pass} and not {can_stop} and len(legal) <= q.left:"):
                    self.take(w, "legal[0]", False)
                    w("continue")
            own = "list(legal)" if self.fixed_choices else "legal"  # fixed choices are kept: a copy to give
            if step.stop_action is not None:
                with w.block("if can_stop:"):
                    w(f"actions = [{self.ref(step.stop_action)}, *legal]")
                with w.block("elif can_pass:" if can_pass != "False" else "else:"):
                    w(f"actions = [{self.ref(step.pass_action)}, *legal]" if can_pass != "False"
                      else f"actions = {own}")
                if can_pass != "False":
                    with w.block("else:"):
                        w(f"actions = {own}")
            elif self.fixed_actions:
                # a list of its own for whoever is given it (a policy, a Decision); none in a loop without a policy
                fixed = self.g.FIXED
                w(f"actions = {fixed}[1] if policy is None else list({fixed}[1])" if playing
                  else f"actions = list({fixed}[1])")
            elif can_pass != "False":
                w(f"actions = [{self.ref(step.pass_action)}, *legal]" if can_pass == "True"
                  else f"actions = [{self.ref(step.pass_action)}, *legal] if {can_pass} else legal")
            else:
                w("actions = legal")
            decide()
        with w.block("else:"):
            done()

    def made(self, playing: bool = False) -> str:
        """The Decision of ``_v_seat`` choosing among ``actions`` (``playing``: in a playout's loop, where they may
        be the fixed actions as kept: the Decision gets a list of its own)."""
        step = self.step
        if step.count is not None and step.stop_action is None:  # with stop, count is only a bound
            verb = self.gen.literal(step.verb)
            prompt = f"{verb} + ' (' + str(q.left) + ' to go)' if q.left > 1 else {verb}"
        else:
            prompt = self.gen.literal(step.verb)
        actions = "list(actions)" if playing and self.fixed_actions else "actions"
        return self.shape.decision("_v_seat", actions, self.g.STEP, prompt, "'choose'")

    def apply(self, w: Lines) -> None:
        """The seat whose turn it is (``_v_seat``) takes ``action`` (a pass, a stop or a pick; no return: the
        fragment is placed in loops too)."""
        step = self.step
        w("q.idle = 0")
        if step.pass_label is not None or step.stop_action is not None:
            w("cls = type(action)")
        head = "if"
        if step.pass_label is not None:
            with w.block(f"if cls is {self.g.Pass}:"):
                self.passed(w)
                self.end_turn(w)
            head = "elif"
        if step.stop_action is not None:
            with w.block(f"{head} cls is {self.g.Stop}:"):
                self.end_turn(w)
            head = "elif"
        with w.block("else:") if head == "elif" else nullcontext():
            self.take(w, "action", True)

    def in_loop(self, w: Lines, stopped: Callable[[], None], from_o: bool) -> None:
        """In place in a playout's loop over the list holding the choice (steps_code.py's ``run_NAME``, whose
        ``taken`` and ``room`` it counts in): the body of ``start``, then those of ``decision`` and ``apply`` until
        the choice is over; at an automatic seat's decision ``stopped()`` writes what is done with ``d`` (``q`` its
        progress; it leaves). ``from_o``: the holding step's names are read from ``o`` (else the list made them)."""
        if from_o:
            self.prologue(w)
        self.start(w, lambda: w("break"), lambda: w("q = None", "break"), lambda: w("q = None"))
        with w.block("if q is not None:"):
            w("automatic = game.automatic")
            with w.block("while True:"):
                self.decision(w, lambda: w("break"), lambda: w("break"), True)
                with w.block("if _v_seat in automatic:"):
                    w(f"d = {self.made(True)}")
                    stopped()
                w(f"action = actions[{self.pick('_v_seat', 'actions')}]", "taken += 1")
                with w.block("if taken > room:"):
                    w(f"game.rounds.too_long({self.g.STEP})")
                w("BUDGET[0] = WORK  # as apply_fast: the expressions' budget is per action")
                self.apply(w)

    def run(self, w: Lines) -> None:
        """``apply`` and ``decision`` in a loop: the seats' decisions one after the other in this step."""
        w("o = None")
        def apply() -> None:
            w("_v_seat = q.order[q.pos]")
            self.apply(w)

        self.run_loop(w, "_v_seat", apply,
                      lambda: self.decision(w, lambda: w("break"), lambda: w("actions = None"), True), self.made(True))
