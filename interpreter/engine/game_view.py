"""The game as the engine's lower modules see it: what a state, a step, its written code and the helpers of cards
and values read of the compiled game (engine/game.py's ``Game``).

``Game`` imports the state, the steps and the module written for them, so none of those may import it back (not
even for an annotation: tests/test_layers.py reads every import). They take a ``GameView`` instead, a protocol
that ``Game`` satisfies as it is (mypy checks it wherever a game is handed to them); a module above the game
(the API, the harness, knowledge.py) takes the ``Game`` itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from interpreter.dsl.types import Type
from interpreter.engine.cards import CardTable


class Zone(Protocol):
    """A zone's declaration (engine/game.py's ``ZoneSpec``)."""

    @property
    def per_seat(self) -> bool: ...

    @property
    def visible(self) -> str: ...  # "all", "owner", "nobody"


class Written(Protocol):
    """The game's written code (engine/module.py's ``Module``)."""

    def code(self, owner: Any) -> Any:
        """The code of ``owner`` (a step, or the game for its round): an object of functions of its own kind."""
        ...


class GameView(Protocol):
    """What the lower modules read of a compiled game (every member is ``Game``'s own, of the same meaning)."""

    @property
    def players(self) -> int: ...  # seats, automatic ones included

    @property
    def seat_names(self) -> list[str]: ...

    @property
    def automatic(self) -> frozenset[int]: ...  # the automatic seats

    @property
    def cards(self) -> CardTable: ...

    @property
    def deck(self) -> list[int]: ...  # the cards of this game (after removals)

    @property
    def zones(self) -> Mapping[str, Zone]: ...

    @property
    def shared_zones(self) -> list[str]: ...

    @property
    def seat_zones(self) -> list[str]: ...

    @property
    def counters(self) -> list[str]: ...

    @property
    def first_dealer(self) -> int: ...

    @property
    def value_types(self) -> dict[str, Type]: ...  # round and seat value name -> its static type

    @property
    def visibility(self) -> dict[str, str]: ...  # round/seat value name -> "all", "owner" or "nobody"

    @property
    def combinations(self) -> Any: ...  # the combinations section (engine/combinations.py), or None

    def cards_by_label(self, cards: list[int] | None = None) -> dict[str, list[int]]: ...

    def module(self) -> Written: ...
