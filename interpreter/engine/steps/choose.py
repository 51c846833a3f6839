"""``choose``: seats in an order given by data each pick values from a list given by an expression.

What the step does in play: it is entered, asked and applied through its written code (choose_code.py), which calls
back here for what is not worth writing out (its errors are made by engine/faults.py). Its parts: its reading
(choose_reading.py: the declaration, each option read and checked, the progress ``Choosing``), its words
(choose_words.py) and what search asks of it (choose_search.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiled, ExpressionFailed
from interpreter.engine.card_tables import hashable
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Choice
from interpreter.engine.steps.base import register
from interpreter.engine.steps.choose_reading import ChooseReading, Choosing
from interpreter.engine.steps.choose_search import ChooseSearch
from interpreter.engine.steps.choose_words import ChooseWords
from interpreter.engine.steps.writer import Found, Lines, ListWriter, bound_read

_KEPT = 1024  # values of a label's keys whose labels are kept, per step


def distinct(found: list[Choice]) -> list[Choice]:
    """The first choice of each label of ``found``, in order (two values with one label are one choice)."""
    choices, seen = [], set()
    for choice in found:
        if choice.label not in seen:
            seen.add(choice.label)
            choices.append(choice)
    return choices


@register
class Choose(ChooseReading):
    """A choose step in play: entered, asked and applied through its written code (choose_code.py), which calls
    back for what is not worth writing out."""

    words_part = ChooseWords
    search_part = ChooseSearch
    words: ChooseWords

    # ------------------------------------------------------------------ play (its code: choose_code.py)

    def outer_names(self) -> set[str]:
        return bound_read([self.who, self.options_expr, self.allowed, self.must, self.count, self.may_pass,
                           self.may_stop, self.until]) & set(self.bound)

    def write(self, x: ListWriter, w: Lines, k: int, found: Found, began: Found | None) -> None:
        """Entered through its written code, given the names of the holding step it reads (see steps_code.py); in
        a playout's loop written in place, taking its decisions as they come."""
        if x.playing:
            x.in_loop(w, k)
            return
        x.outer_dict(w)
        w(f"code = {x.shape.code_of(x.step_ref(k), x.ref)}")
        x.started(w, k, found, began, "code.start(state, o)", "code.decision(state, q, o)")

    def start(self, game: GameView, state: State) -> Choosing | None:
        return cast(Choosing | None, self.code(game).start(state, self.outer_values(state)))

    def decision(self, game: GameView, state: State, p: Choosing) -> Decision | None:
        return cast(Decision | None, self.code(game).decision(state, p, self.outer_values(state)))

    def apply(self, game: GameView, state: State, p: Choosing, action: Any) -> None:
        self.code(game).apply(state, p, action, self.outer_values(state))

    # what the written code calls for what is not worth writing out

    def _choices_of(self, env_of: Callable[[], dict[str, Any]], seat: int | None, options: Any,
                    label: Compiled | None) -> list[Choice]:
        """The choices of values that are not cards: each with its label, in a list of its own (``env_of()``: the
        state and the names an enclosing trick binds, asked for only when a label is to be worked out; ``label``:
        the label expression written for the state's shape, None for the step's own; the written code keeps one
        choice per label, see ``distinct``). A choice whose label reads only the value is made once (``_choices``),
        one whose label has keys once per key (see ``_keyed_choices``)."""
        if not options:
            return []
        label = self.label_expr if label is None else label
        made = self._choices
        if made is not None:
            found = self._made_choices(made, env_of, seat, options, label)
        else:
            env = env_of()
            keyed = self._keyed_choices(env, seat, options, label)
            if keyed is not None:
                found = keyed
            else:
                state = env["$s"]
                found = [Choice(v, self.words.label_of(state.game, state, seat, v, env, label)) for v in options]
        return found

    def _made_choices(self, made: dict[Any, Choice], env_of: Callable[[], dict[str, Any]], seat: int | None,
                      options: Any, label: Compiled | None) -> list[Choice]:
        """The choices of ``options`` whose labels read only the value, as made before (those not made yet made
        now and kept in ``made``; the written code looks the values made already up in ``made`` itself, and asks
        for this when one is not, see choose_code.py's ``choices``)."""
        found = []
        env = None
        for v in options:
            key = v
            try:
                choice = made.get(v)
            except TypeError:  # a list value
                key = hashable(v)
                choice = made.get(key)
            if choice is None:
                if env is None:
                    env = env_of()
                state = env["$s"]
                choice = made[key] = Choice(v, self.words.label_of(state.game, state, seat, v, env, label))
            found.append(choice)
        return found

    def _keyed_choices(self, env: dict[str, Any], seat: int | None, options: Any, label: Compiled | None
                       ) -> list[Choice] | None:
        """The choices of ``options`` for ``seat``, kept by the values of what the label reads beside the value (the
        seat, the round: its keys, see dsl/emit.py's key_parts), so that a bid's label is worked out once per
        seat and round, not at every turn; None when the label has no keys or they cannot be worked out before it
        is needed (each label is then worked out as it is written, which says where it fails, if it does)."""
        keyed = None if label is None else label.keyed
        if keyed is None:
            return None
        keys_of, judge = keyed
        env = dict(env)
        env["seat"] = seat
        try:
            hs = keys_of(env)
        except RUNTIME_ERRORS:
            return None
        key = hashable(hs)
        kept = self._labels.get(key)
        if kept is None:
            if len(self._labels) >= _KEPT:
                self._labels.clear()
            kept = self._labels[key] = {}
        try:  # every value kept already, as its own key (a number, a text, a tuple of them)
            return [kept[v] for v in options]
        except (KeyError, TypeError):
            pass
        keys = [hashable(v) for v in options]
        missing = {k: v for k, v in zip(keys, options) if k not in kept}
        if missing:
            try:
                found = judge(env, list(missing.values()), hs)
            except RUNTIME_ERRORS:
                return None
            for (k, v), text in zip(missing.items(), found):
                kept[k] = Choice(v, str(text))
        return [kept[k] for k in keys]

    def _not_in_zones(self, value: Any) -> ExpressionFailed:
        labels = self._card_choices
        return ExpressionFailed(f"{self.options_expr.position}: error: a swap needs two cards that lie in "
                                f"zones, got {[labels[c].label for c in value]}")
