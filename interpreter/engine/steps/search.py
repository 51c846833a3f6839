"""What search and the heuristic players ask of a step: the values it fills in secret, how a sampled state's
cards are renamed in its progress and its hidden choices drawn again (engine/samples.py), and who would win a
trick after a card (harness/greedy.py).

Every step holds a part of this kind (``Step.search``); a kind with something to hide or to judge names its own
class (``Step.search_part``), made over the step's resolved options (its reading) and deriving from
:class:`Search`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from interpreter.engine.game_view import GameView
from interpreter.engine.state import State

S = TypeVar("S")  # the step (its kind's reading) searched


class Search(Generic[S]):
    """A step with nothing hidden in its progress and nothing to judge."""

    def __init__(self, step: S):
        self.step = step

    def filling(self) -> frozenset[str]:
        """Values this step fills in secret while it is pending (others see them once it is over)."""
        return frozenset()

    def redrawn(self) -> frozenset[str]:
        """The values hidden while this step is pending that ``redraw`` draws again for a sample."""
        return frozenset()

    def redraw(self, game: GameView, state: State, p: Any, seat: int, rng: Any) -> None:
        """In a state sampled for ``seat`` (see knowledge.py): draw again the choices made so far that
        ``seat`` has not seen, each at random among what its chooser could choose."""

    def relabel(self, p: Any, card: Callable[[int], int]) -> None:
        """Rename the cards progress ``p`` holds by ``card`` (for a state sampled by search; see knowledge.py);
        not those of a nested step's progress (``running`` gives each step its own)."""

    def judge(self, game: GameView, state: State, p: Any, action: Any) -> tuple[int | None, Any] | None:
        """For heuristic players: after ``action`` (a card played to a trick, this step's own decision), the
        seat that would win the trick so far and the card's strength in it; None for any other action."""
        return None

    def won_zones(self) -> tuple[str, ...]:
        """The per-seat zones this step puts the cards of won tricks in (for heuristic players)."""
        return ()
