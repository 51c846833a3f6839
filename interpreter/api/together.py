"""Choices made together, for a front end that asks several people at once: the answers of the seats of one step
whose choices are made together (``simultaneous``), gathered in any order and taken in the game in the engine's
one order, so that the record is the same as if they had been asked in turn (match/together.py).

A web table makes a ``Gathering`` when such a step is pending, asks each seat its decision in ``asked(seat)`` (a
copy of the game in which that seat is to act), takes each answer with ``answer``, and applies what ``due`` gives
until it gives nothing, as it applies any action; ``waiting`` names the seats that have not chosen yet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.errors import GameError
from interpreter.match.together import ahead, made_together, own_zones, same, together

if TYPE_CHECKING:
    from interpreter.api.game import GameState


def seats_together(state: GameState) -> list[int]:
    """The seats the pending step of ``state`` still asks (the seat to act first) when its choices are made
    together; [] when no such step is pending."""
    return together(state.game.engine, state._state)


class Gathering:
    """The answers of the seats of the step of ``state`` whose choices are made together (pending now), gathered
    from the seats in any order; ``due`` gives them back in the engine's order, each when its turn has come."""

    def __init__(self, state: GameState):
        self.state = state
        self._engine = state.game.engine
        self._step = made_together(self._engine, state._state)
        if self._step is None:
            raise GameError("no step whose choices are made together is pending")
        self.seats = together(self._engine, state._state)  # the seats it asks, in the engine's order
        # each seat's answers not taken in the game yet: the engine's action and its label
        self._answers: dict[int, list[tuple[Any, str]]] = {s: [] for s in self.seats}
        self._asked: dict[int, tuple[Any, GameState | None]] = {}  # each seat's copy, with what it was made of

    def open(self) -> bool:
        """Whether the step is still pending in the game (a gathering is for one run of one step)."""
        return made_together(self._engine, self.state._state) is self._step

    def asked(self, seat: int) -> GameState | None:
        """A copy of the game in which ``seat`` is to act in the step, its answers so far taken (the seats before
        it take stand-in choices, which change nothing it is asked): its labels, legal actions, prompt and its own
        zones are its decision. The stand-ins are the other seats' real cards: show nothing else of the copy. None
        when the seat has chosen (or the step does not ask it)."""
        if seat not in self._answers or not self.open():
            return None
        key = (self.state._state.actions_taken, len(self._answers[seat]))
        kept = self._asked.get(seat)
        if kept is not None and kept[0] == key:
            return kept[1]
        try:
            found = ahead(self._engine, self.state._state, seat, [a for a, _ in self._answers[seat]])
        except LookupError:  # (not independent after all: the seat is asked again in its turn)
            self._answers[seat] = []
            found = ahead(self._engine, self.state._state, seat, [])
        copy = None
        if found is not None:
            copy = self.state.clone()
            copy._put(found)
            copy._sample = True  # its history is not its own: it cannot be saved
        self._asked[seat] = ((self.state._state.actions_taken, len(self._answers[seat])), copy)
        return copy

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees of the game, its own cards as it has chosen so far when it is asked (those of its copy,
        ``asked``): the cards it chose lie where they go, and nothing else of the copy is shown."""
        seen = self.state.observation(seat)
        asked = self.asked(seat)
        return seen if asked is None else own_zones(seen, asked.observation(seat))

    def answered(self, seat: int) -> list[str]:
        """The labels of the answers of ``seat`` not taken in the game yet, in order."""
        return [label for _, label in self._answers.get(seat, [])]

    def answer(self, seat: int, action: int | str) -> None:
        """``seat`` takes ``action`` (an id or a label of its decision in ``asked(seat)``); anything else is an
        IllegalAction (or a GameError when the seat is not asked now), and nothing changes."""
        copy = self.asked(seat)
        if copy is None:
            who = self.state.game.seat_names[seat] if seat in self._answers else f"seat {seat!r}"
            raise GameError(f"{who} is not asked now")
        chosen = copy._chosen(action)
        d = copy._state.pending
        assert d is not None  # (the seat is to act in its copy)
        label = copy.labels()[next(i for i, a in enumerate(d.actions) if a is chosen)]
        self._answers[seat].append((chosen, label))

    def waiting(self) -> list[int]:
        """The seats that have not chosen all they choose in the step yet, in the engine's order."""
        return [s for s in self.seats if self.asked(s) is not None]

    def ready(self) -> bool:
        """Whether an answer's turn has come (``due`` gives it)."""
        return self._next() is not None

    def due(self) -> int | None:
        """The id of the next answer whose turn has come in the game (the seat to act answered ahead), taken off the
        answers kept: the caller applies it. None when the seat to act has no answer kept (or the step is over)."""
        found = self._next()
        if found is None:
            return None
        self._answers[found[0]].pop(0)
        return found[1]

    def _next(self) -> tuple[int, int] | None:
        """The seat to act and the id of its answer kept, when its turn has come."""
        if not self.open():
            return None
        d = self.state._state.pending
        kept = self._answers.get(d.actor) if d is not None else None
        if not kept or d is None:
            return None
        action = same(d.actions, kept[0][0])
        if action is None:  # (not independent after all: the seat is asked again, in its turn)
            kept.clear()
            return None
        return d.actor, self.state.legal_actions()[next(i for i, a in enumerate(d.actions) if a is action)]
