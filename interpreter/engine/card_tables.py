"""Per-card lookup tables for rule expressions evaluated in the hot loop.

Card attributes never change, so an expression that reads only ``card``,
``led`` and round values has one value per (round values, led card, card).
A :class:`CardTable` computes, for each such key it meets, a list indexed by
card id (identical cards share one evaluation) and then only looks it up.
Expressions that read anything else (a seat's tricks, teams) are evaluated
every time, transparently.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from interpreter.dsl.compiler import Compiled
from interpreter.engine.state import State

_LIMIT = 4096  # distinct keys kept per table before it starts afresh


def hashable(value: Any) -> Any:
    """A value as a dictionary key: lists as tuples, records as sorted items (a list and a tuple are one key)."""
    if isinstance(value, dict):
        return tuple(sorted((k, hashable(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(hashable(v) for v in value)
    return value


def memo_fields(exprs: list[Compiled], allowed: tuple[str, ...] = ("card", "led")) -> tuple[str, ...] | None:
    """Round fields the expressions read, or None when they read something else."""
    ok = {"ctx:" + a for a in allowed}
    fields: set[str] = set()
    for e in exprs:
        for d in e.deps:
            if d in ok:
                continue
            if d.startswith("round:"):
                fields.add(d[6:])
            else:
                return None
    return tuple(sorted(fields))


class CardTable:
    """Values of ``combine(e1(env), e2(env), ...)`` for every card, keyed by round values and led card."""

    def __init__(self, exprs: list[Compiled], kinds: tuple[int, ...], combine: Callable[[list[Any]], Any],
                 uses_led: bool, lazy: bool = False, var: str = "card", led_classes: tuple[int, ...] | None = None):
        self.exprs = exprs
        self.runs = [e.run for e in exprs]
        self.kinds = kinds
        self.led_classes = kinds if led_classes is None else led_classes  # led cards alike for the expressions
        self.combine = combine
        self.uses_led = uses_led
        self.var = var  # the name the card is bound to in the expressions
        self.fields = memo_fields(exprs, (var, "led") if uses_led else (var,))
        self.lazy = lazy  # lazy tables hold None until ``fill`` computes a card
        # the round values a table is keyed by, read at once (one value, or a tuple of several), from where the state
        # keeps them (today's State: its round values by name; see written_for)
        self._where: Callable[[Any], Any] = _round_values
        self._keys: tuple[Any, ...] = self.fields or ()
        self._read: Callable[[Any], Any] = itemgetter(*self._keys) if self._keys else dict
        self._tables: dict[Any, list[Any]] = {}
        copies: dict[int, list[int]] = {}
        for c, k in enumerate(kinds):
            copies.setdefault(k, []).append(c)
        self.copies = [copies[k] for k in kinds]  # per card: the ids of the identical cards

    @property
    def static(self) -> bool:
        """True when values depend only on round values and cards (so tables apply)."""
        return self.fields is not None

    @property
    def made(self) -> dict[Any, list[Any]]:
        """The tables made so far, by key (see ``table``); for code that looks a table up in place (see
        trick_plays_code.look_up): the same dictionary for the table's life."""
        return self._tables

    def table(self, state: State, led: int | None = None) -> list[Any]:
        """Values by card id for the current round values (and led card)."""
        led_kind = None if led is None else self.led_classes[led]
        if self.fields:
            values = self._where(state)
            key: Any = (self._read(values), led_kind)
            try:
                t = self._tables.get(key)
            except TypeError:  # a record value (a dict): use its items
                key = (tuple(hashable(values[f]) for f in self._keys), led_kind)
                t = self._tables.get(key)
        else:
            key = led_kind
            t = self._tables.get(key)
        if t is None:
            if len(self._tables) >= _LIMIT:
                self._tables.clear()
            t = self._tables[key] = [None] * len(self.kinds) if self.lazy else self._build(state, led)
        return t

    def written_for(self, exprs: list[Compiled], where: Callable[[Any], Any], keys: tuple[Any, ...]) -> CardTable:
        """This table over a state held another way: its expressions written for it (``exprs``, in order), its
        round values read from ``where(state)`` under ``keys`` (in the order of ``fields``)."""
        other = copy.copy(self)
        other.exprs, other.runs = exprs, [e.run for e in exprs]
        other._where, other._keys, other._tables = where, keys, {}
        other._read = itemgetter(*keys) if keys else dict
        return other

    def fill(self, values: list[Any], state: State, led: int | None, card: int) -> Any:
        """Compute one card's value into a lazy table (and share it with identical cards)."""
        env: dict[str, Any] = {"$s": state, "led": led, self.var: card}
        value = self.combine([r(env) for r in self.runs])
        for c in self.copies[card]:
            values[c] = value
        return value

    def _build(self, state: State, led: int | None) -> list[Any]:
        env: dict[str, Any] = {"$s": state, "led": led}
        kinds = self.kinds
        runs, combine = self.runs, self.combine
        values: list[Any] = [None] * len(kinds)
        for c, k in enumerate(kinds):
            if k == c:
                env[self.var] = c
                values[c] = combine([r(env) for r in runs])
            else:
                values[c] = values[k]
        return values

    def value(self, env: dict[str, Any]) -> Any:
        """One evaluation with the caller's bindings (for expressions that are not static)."""
        return self.combine([r(env) for r in self.runs])


def _round_values(state: State) -> dict[str, Any]:
    return state.vars


def as_bool(values: list[Any]) -> bool:
    return bool(values[0])


def as_tuple(values: list[Any]) -> tuple[Any, ...]:
    return tuple(values)
