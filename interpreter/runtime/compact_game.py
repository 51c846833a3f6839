"""A game played on the compact layout: the same compiled game, its code written again for the slots (every step
kind's writer and the round's, through runtime/compact_reads.py), driven by the same rounds (engine/rounds.py) and
the same steps' playout loops, over a ``Slots`` in place of a ``State``.

``compact_game(game)`` gives it, or None when a part of the game is not written for the slots yet (its automatic
seats' policies are written for them too). ``start(state)`` gives the slots of a state; ``playout``,
``apply_fast``, ``apply_chance`` and ``sample_chance`` are the game's own, over the slots; ``write(slots, state)``
puts the game the slots hold back into a state of the original game. tests/test_compact_game.py plays every such
bundled game out on both from the same point with the same random source and finds the same game.
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
from interpreter.runtime.layout import Packed, layout, pack, unpack
from interpreter.runtime.slots import Slots

_GAMES: weakref.WeakKeyDictionary[Game, Any] = weakref.WeakKeyDictionary()  # each game's, or why there is none
# what ``write`` puts into a state: all it holds but its game and its channels (narration, what a Knowledge and the
# match's listeners are told), which stay the state's own
_WRITTEN = tuple(name for name in State.__slots__ if name not in ("game", "players", "notes", "seen", "told"))


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

    def write(self, slots: Slots, state: State) -> None:
        """Put the game ``slots`` hold into ``state``, a state of the original game (the same object, so whoever
        holds it sees the game as the slots have it; its narration and what it tells a Knowledge stay as they
        were): the same game at the same point, each card the first of its kind (``unpack``'s). The slots go on
        as they were: the state's zones, rounds' results, progress and pending decision are copies, and the values
        it shares with them are shared as a copy of the slots shares them (a playout replaces a value, never
        changes it in place)."""
        original = self.original
        zones = [slots.cards(slot) for slot in range(len(layout(original).zones))]
        rest = (slots.step_index, slots.progress, slots.pending, slots.ended, slots.finished, slots.actions_taken)
        made = unpack(original, Packed(zones, slots.v, rest))
        for name in _WRITTEN:
            setattr(state, name, getattr(made, name))


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
