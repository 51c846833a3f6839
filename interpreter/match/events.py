"""What a match tells its listeners: one typed event for each thing that happens in a game.

A :class:`~interpreter.match.driver.Match` emits, in this order for each change of the game:

* :class:`Chance` or :class:`Action`, before the change (the state is as the seat, or chance, found it);
* :class:`Applied`, once the change is made (the state as it is now);
* what the rules made happen meanwhile: :class:`Trick` (a trick won), :class:`Automatic` (a decision an automatic
  seat took by its rule), :class:`Note` (a line of narration);
* :class:`RoundEnd` for each round scored, and :class:`GameEnd` when the game is over.

:class:`Begin` comes once, first, when a driver starts the match. Listeners (the record writer, the narrator,
knowledge for search, the API's history, the web table, conformance checks) read the events and the match's state;
they never change either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.engine.state import Decision


@dataclass(slots=True)
class Begin:
    """The game begins (at its first decision); ``start``: the round it was picked up at, as a record's header
    writes it (None: a game from its start)."""

    seed: Any
    start: dict[str, Any] | None


@dataclass(slots=True)
class Chance:
    """A chance event (a deal) is about to be applied: ``outcome`` as the step draws it; ``given``: it was given
    (a deal file, a record, a caller) rather than drawn from the match's random source."""

    decision: Decision
    outcome: Any
    given: bool = False


@dataclass(slots=True)
class Action:
    """The seat ``decision.actor`` is about to take the legal action ``action``."""

    decision: Decision
    action: Any


@dataclass(slots=True)
class Applied:
    """The chance event or action of ``decision`` is applied."""

    decision: Decision


@dataclass(slots=True)
class Trick:
    """A trick was won: its record line (docs/records.md, ``"type": "trick"``)."""

    line: dict[str, Any]


@dataclass(slots=True)
class Automatic:
    """An automatic seat decided by its rule: its record line (``"type": "automatic"``)."""

    line: dict[str, Any]


@dataclass(slots=True)
class Note:
    """A line of narration the rules tell everyone (a trick won, scores explained, ...)."""

    text: str


@dataclass(slots=True)
class RoundEnd:
    """The ``played``-th round played in this match is scored (its number in the game: ``played + first - 1``);
    ``values``: the round values as the last round ended."""

    played: int
    values: dict[str, Any] | None


@dataclass(slots=True)
class GameEnd:
    """The game is over."""


Event = Begin | Chance | Action | Applied | Trick | Automatic | Note | RoundEnd | GameEnd
