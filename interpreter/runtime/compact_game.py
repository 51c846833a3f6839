"""A game played on the compact layout: the same compiled game, its code written again for the slots (every step
kind's writer and the round's, through runtime/compact_reads.py), driven by the same rounds (engine/rounds.py) and
the same steps' playout loops, over a ``Slots`` in place of a ``State``.

``compact_game(game)`` gives it, or None when a part of the game is not written for the slots yet (its automatic
seats' policies are written for them too). ``start(state)`` gives the slots of a state; ``playout``,
``apply_fast``, ``apply_chance`` and ``sample_chance`` are the game's own, over the slots.
tests/test_compact_game.py plays every such bundled game out on both from the same point with the same random
source and finds the same game.
"""

from __future__ import annotations

import copy
import dataclasses
import weakref
from typing import Any, cast

from interpreter.engine.game import Game
from interpreter.engine.module import Module
from interpreter.engine.rounds import Policy, Rounds
from interpreter.engine.state import State
from interpreter.runtime.compact_reads import CompactReads
from interpreter.runtime.layout import layout, pack
from interpreter.runtime.slots import Slots

_GAMES: weakref.WeakKeyDictionary[Game, Any] = weakref.WeakKeyDictionary()  # each game's, or why there is none


class CompactGame(Game):
    """``game`` over the compact layout (see the module's docstring): a copy of the compiled game whose module is
    written for the slots."""

    original: Game

    def start(self, state: State) -> Slots:
        """The slots of ``state`` (a state of the original game; left as it is), its pending decision asked again of
        the code written for them (its actions name cards by kind)."""
        slots = Slots.of(self, pack(self.original, state))
        if slots.pending is not None:
            slots.pending = self.steps[slots.step_index].decision(self, slots, slots.progress)
        return slots

    def playout(self, state: State | Slots, rng: Any, policy: Policy | None = None, round_end: bool = False) -> int:
        """``Game.playout`` over the slots (``state``: slots of this game)."""
        return self.rounds.playout(cast(State, state), rng, policy, round_end)


def compact_game(game: Game) -> CompactGame | None:
    """``game`` over the compact layout (made once a game), or None when it cannot be (see the module's docstring;
    ``why_not`` says why)."""
    made = _GAMES.get(game)
    if made is None:
        made = _GAMES[game] = _made(game)
    return made if isinstance(made, CompactGame) else None


def why_not(game: Game) -> str | None:
    """Why ``game`` cannot be played on the compact layout, or None when it can."""
    compact_game(game)
    made = _GAMES[game]
    return made if isinstance(made, str) else None


def _made(game: Game) -> CompactGame | str:
    reads = CompactReads(layout(game), at_once=True)  # made to be played: its expressions made now
    other = copy.copy(game)
    other.__class__ = CompactGame
    assert isinstance(other, CompactGame)
    other.original = game
    other.rounds = Rounds(other)
    # an automatic seat's policies, written for the slots
    other.seats = [seat if seat.policy is None else dataclasses.replace(seat, policy={
        name: reads.compiled(policy) for name, policy in seat.policy.items()}) for seat in game.seats]
    try:
        module = Module(other, reads.gen, False, reads)
    except NotImplementedError as exc:
        return str(exc)
    other._module, other._round = module, None
    reads.codes.update((step, module.code(step)) for step in game.every_step() if module.has(step))
    return other
