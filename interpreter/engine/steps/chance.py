"""Chance's decisions at a step: the outcome drawn, the cards it puts in an order, and the outcome as a record
writes it and reads it back.

Every step holds a part of this kind (``Step.chance``); a step whose decisions are chance's (a deal) names its own
class (``Step.chance_part``), made over the step's resolved options (its reading) and deriving from
:class:`Chance`. Only a decision of ``CHANCE`` asks it.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from interpreter.engine.game_view import GameView
from interpreter.engine.state import State
from interpreter.engine.steps.words import Words

S = TypeVar("S")  # the step (its kind's reading) whose chance this is


class Chance(Generic[S]):
    """A step whose decisions are never chance's."""

    def __init__(self, step: S):
        self.step = step

    def chance_cards(self, game: GameView, state: State) -> list[int]:  # pragma: no cover
        """The cards a chance event of this step puts in an order (its outcome is an order of them, every order
        equally likely), for dealing them one at a time (the public API's ``chance_outcomes``)."""
        raise NotImplementedError

    def sample(self, game: GameView, state: State, rng: Any) -> Any:  # pragma: no cover
        """An outcome drawn with ``rng``."""
        raise NotImplementedError

    def outcome_to_record(self, game: GameView, state: State, outcome: Any) -> dict[str, Any]:  # pragma: no cover
        """The outcome as a record's ``chance`` line holds it (cards by their labels)."""
        raise NotImplementedError

    def outcome_from_record(self, game: GameView, state: State, data: dict[str, Any]) -> Any:  # pragma: no cover
        """The outcome a record's ``chance`` line holds, checked against this step."""
        raise NotImplementedError


class ChanceWords(Words[Any]):
    """The words of a step whose decisions are chance's: its outcome is labelled by the step's kind ("deal")."""

    def label(self, game: GameView, action: Any) -> str:
        return str(self.step.kind)
