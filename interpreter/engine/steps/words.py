"""What a step says: the labels of its actions, a phrase for each in the narration, why a card is refused, what
everyone sees of its progress, the titles of the values it sets, and its actions listed before play.

Every step holds a part of this kind (``Step.words``); a kind that says more than the default names its own class
(``Step.words_part``), made over the step's resolved options (its reading) and deriving from :class:`Words`. Those
who drive or watch a game (the narrator, the record writer, the API, observations, the action ids) ask it; play
never needs it, but for the narration the written code tells as it goes.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from interpreter.dsl.types import VALUE, Type
from interpreter.engine.game_view import GameView
from interpreter.engine.state import Decision, State
from interpreter.engine.steps.action_types import Choice, Pass, Play, Stop, Take

S = TypeVar("S")  # the step (its kind's reading) the words are of


class Words(Generic[S]):
    """What a step says by default: a choice by its label, a card by the card's."""

    def __init__(self, step: S):
        self.step = step

    def label(self, game: GameView, action: Any) -> str:
        if isinstance(action, (Choice, Pass, Stop)):
            return action.label
        if isinstance(action, (Play, Take)):
            return game.cards.labels[action.card]
        raise NotImplementedError

    def describe(self, game: GameView, state: State, d: Decision, action: Any, viewer: int | None = None) -> str | None:
        """The action as a phrase for a readable account ("plays red 7"); None: not worth telling.

        ``viewer`` is the seat the account is told to (None: everything is shown).
        """
        return self.label(game, action)

    def describe_public(self, game: GameView, state: State, d: Decision, action: Any) -> str | None:
        """The action as everyone but the seat taking it is told it: what a spectator, who sees only what is public,
        may read. By default as ``describe`` tells it: a step kind whose actions some may not see says otherwise."""
        return self.describe(game, state, d, action)

    def refusal(self, game: GameView, state: State, card: int) -> str | None:
        """Why the seat to act may not choose ``card`` now, in the rule file's words; None when this step's kind
        does not say (or the card may be chosen)."""
        return None

    def public(self, game: GameView, state: State, p: Any, viewer: int | None = None) -> dict[str, Any]:
        """What everyone (and ``viewer``) sees of this step's own progress (for observations)."""
        return {}

    def titles(self) -> dict[str, str]:
        """How people call the round values this step sets, when not by their names (a board row's title)."""
        return {}

    def action_entries(self, game: GameView) -> list[tuple[str, Any, Any, str]]:
        """Every action this step can offer, known before play, as (kind, key, value, label): what the kind of
        its choice is, declared by each step kind that decides (see engine/actions.py). None: it decides nothing."""
        return []

    def shown(self, game: GameView, kind: str, value: Any) -> Any:
        """The value of one of its actions (as ``action_entries`` gives it) as people read it."""
        if kind == "card":
            return game.cards.labels[value]
        if kind == "seat":
            return game.seat_names[value]
        return list(value) if isinstance(value, tuple) else value

    def action_key(self, game: GameView, action: Any) -> Any:
        """The key ``action_entries`` gives ``action`` (one of this step's legal actions)."""
        raise NotImplementedError


def third_person(verb: str) -> str:
    """'pass on' -> 'passes on', 'discard' -> 'discards': the first word takes the s."""
    first, _, rest = verb.partition(" ")
    if first.endswith(("s", "sh", "ch", "x", "z")):
        first += "es"
    elif first.endswith("y") and len(first) > 1 and first[-2] not in "aeiou":
        first = first[:-1] + "ies"
    else:
        first += "s"
    return f"{first} {rest}" if rest else first


def show(game: GameView, t: Type, value: Any) -> str:
    """A value as people read it: card labels, seat names, a record's label."""
    if value is None:
        return "none"
    if t.kind == "card" and isinstance(value, int):
        return game.cards.labels[value]
    if t.kind == "seat" and isinstance(value, int):
        return game.seat_names[value]
    if isinstance(value, dict) and "label" in value:
        return str(value["label"])
    if isinstance(value, (list, tuple)):
        element = t.element if t.kind == "list" and t.element else VALUE
        return " + ".join(show(game, element, v) for v in value)
    if value is True or value is False:
        return "yes" if value else "no"
    return str(value)
