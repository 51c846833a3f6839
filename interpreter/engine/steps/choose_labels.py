"""The choices a ``choose`` step offers when its values are not cards, each with its label: made for its written code
(choose_code.py) from plain data the writer gives it (the step's label expression, the kind of its values, the
choices made before), so that the code calls no step for them.

A choice whose label reads only the value is made once and kept (``made``: the written code looks the values made
already up itself and asks for the others); one whose label has keys (what it reads beside the value: the seat, the
round, see dsl/emit.py's key_parts) is made once per key; any other is worked out as it is asked for. Two values with
one label are one choice: the written code keeps the first (``distinct``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiled
from interpreter.dsl.types import Type
from interpreter.engine.card_tables import hashable
from interpreter.engine.steps.action_types import Choice
from interpreter.engine.steps.words import show

KEPT = 1024  # values of a label's keys whose labels are kept, per step

Env = Callable[[], dict[str, Any]]  # the state and the names an enclosing trick binds that the label reads


def distinct(found: list[Choice]) -> list[Choice]:
    """The first choice of each label of ``found``, in order (two values with one label are one choice)."""
    choices, seen = [], set()
    for choice in found:
        if choice.label not in seen:
            seen.add(choice.label)
            choices.append(choice)
    return choices


def label_of(label: Compiled | None, kind: Type, env: dict[str, Any], seat: int | None, value: Any) -> str:
    """How ``value`` is shown to ``seat`` choosing it: by ``label``, else as people read a value of ``kind``
    (``env``: the state, under ``'$s'``, and the names the label reads)."""
    if label is not None:
        env = dict(env)
        env["seat"], env["value"] = seat, value
        return str(label(env))
    return show(env["$s"].game, kind, value)


class ChoiceLabels:
    """The choices of one step's values (``choices``), with what it keeps of those made before: ``made``, each
    value's choice when the label reads only the value (None otherwise); ``keyed``, each key's labels. ``label``:
    the label expression (as written for the state's shape), None where values are shown as people read them
    (``kind``: what they are)."""

    __slots__ = ("label", "kind", "made", "keyed")

    def __init__(self, label: Compiled | None, kind: Type, made: dict[Any, Choice] | None):
        self.label = label
        self.kind = kind
        self.made = made
        self.keyed: dict[Any, dict[Any, Choice]] = {}

    def choices(self, env_of: Env, seat: int | None, options: Any) -> list[Choice]:
        """The choices of ``options`` for ``seat`` (None: the same for every seat), each in a list of its own
        (``env_of()``: asked for only when a label is to be worked out)."""
        if not options:
            return []
        if self.made is not None:
            return self._made(env_of, seat, options)
        env = env_of()
        keyed = self._keyed(env, seat, options)
        if keyed is not None:
            return keyed
        label, kind = self.label, self.kind
        return [Choice(v, label_of(label, kind, env, seat, v)) for v in options]

    def _made(self, env_of: Env, seat: int | None, options: Any) -> list[Choice]:
        """The choices of ``options`` whose labels read only the value, as made before (those not made yet made
        now and kept)."""
        made = self.made
        assert made is not None  # (asked only then)
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
                choice = made[key] = Choice(v, label_of(self.label, self.kind, env, seat, v))
            found.append(choice)
        return found

    def _keyed(self, env: dict[str, Any], seat: int | None, options: Any) -> list[Choice] | None:
        """The choices of ``options`` for ``seat``, kept by the values of what the label reads beside the value (its
        keys), so that a bid's label is worked out once per seat and round, not at every turn; None when the label
        has no keys or they cannot be worked out before it is needed (each label is then worked out as it is
        written, which says where it fails, if it does)."""
        keyed = None if self.label is None else self.label.keyed
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
        kept = self.keyed.get(key)
        if kept is None:
            if len(self.keyed) >= KEPT:
                self.keyed.clear()
            kept = self.keyed[key] = {}
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
