"""The actions of the step kinds that decide: each a small named tuple, its label given by the step's words."""

from __future__ import annotations

from typing import Any, NamedTuple


class Play(NamedTuple):
    """Play ``card`` from the step's ``zone``-th source zone."""

    card: int
    zone: int


class Choice(NamedTuple):
    """Choose ``value`` (text, number, seat, card, list or record), shown as ``label``."""

    value: Any
    label: str


class Pass(NamedTuple):
    """Decline to choose, shown as ``label``."""

    label: str


class Stop(NamedTuple):
    """End one's turn after at least one pick, shown as ``label``."""

    label: str


class Cover(NamedTuple):
    """Cover space ``space`` of board row ``row``."""

    row: int
    space: int


class Take(NamedTuple):
    """Take ``card`` from the trick on the table (a share of a trick)."""

    card: int


ACTION_TYPES = (Play, Choice, Pass, Stop, Cover, Take)
