"""A game the compiled backend played, played again by the Python backend from its draws (machine.Finished's
trace): each deal dealt in the compiled game's order, each decision the action the compiled game took. The Python
backend checks every one (an action it does not offer is an error naming the decision), tells the game, and
records it, so a game found in a compiled run is seen and kept as any other.

A deal's cards are kinds in the trace (identical cards are one kind: machine.py); each is given the next card of its
kind among the cards the Python backend deals there.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from interpreter.compiled.machine import Machine
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError

DECISION, DEAL = 0, 1  # the trace's tags (machine.Finished)


def follow(machine: Machine, match: Any, trace: list[int]) -> None:
    """Play ``match`` (a Match begun, on the same game) to its end with the draws of ``trace``."""
    draws = _draws(trace)
    state = match.state
    while not state.finished:
        d = state.pending
        if d is None:  # pragma: no cover - a game not finished always waits for something
            raise GameError("a game not finished waits for nothing")
        tag, value = next(draws, (-1, 0))
        if tag < 0:
            raise GameError(f"the compiled game's draws ran out at round {state.round_number}, before its end")
        if d.actor == CHANCE:
            if tag != DEAL:
                raise GameError(f"the compiled game decides where the Python backend deals, round {state.round_number}")
            match.chance(_cards(machine, state, value))
        else:
            if tag != DECISION:
                raise GameError(f"the compiled game dealt where the Python backend asks seat {d.actor}")
            step = state.step_index
            found = [a for a in d.actions if machine.action_of(step, a, d.step) == value]
            if len(found) != 1:
                raise GameError(f"the compiled game's action {value} is {len(found)} of the actions the Python backend "
                                f"offers in step {machine.game.steps[step].name!r} (round {state.round_number})")
            match.act(found[0])


def _draws(trace: list[int]) -> Iterator[tuple[int, Any]]:
    """Each draw of ``trace``: (DECISION, the action) or (DEAL, the kinds dealt)."""
    i = 1
    while i < len(trace):
        if trace[i] == DEAL:
            n = trace[i + 1]
            yield DEAL, trace[i + 2:i + 2 + n]
            i += 2 + n
        else:
            yield DECISION, trace[i + 1]
            i += 2


def _cards(machine: Machine, state: Any, kinds: Any) -> list[Any]:
    """The Python backend's deal of the cards of ``kinds`` in that order: each kind the next card of it among those
    the deal gives out."""
    kind_of = machine.lay.layout.kind
    dealt = machine.game.sample_chance(state, random.Random(0))  # (the cards dealt here, in any order)
    by_kind: dict[int, list[Any]] = {}
    for card in dealt:
        by_kind.setdefault(kind_of[card], []).append(card)
    out = []
    for kind in kinds:
        cards = by_kind.get(kind)
        if not cards:
            raise GameError(f"the compiled game deals a card of kind {kind} that the Python backend does not deal")
        out.append(cards.pop(0))
    if any(by_kind.values()):
        raise GameError("the compiled game deals fewer cards than the Python backend")
    return out
