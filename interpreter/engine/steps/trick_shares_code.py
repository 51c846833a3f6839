"""What the sharing of a trick among several takers (trick_takers.py) reads and changes, written for each trick step
through the state's shape (engine/state_shape.py), so that the sharing's Python reads today's state and the compact
layout's slots alike."""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.engine.state_shape import StateShape
from interpreter.engine.steps.tricks import Tricks
from interpreter.engine.steps.writer import Lines


class SharesCode(NamedTuple):
    """What the sharing of a trick among several takers (trick_takers.py) reads and changes, written for the state's
    shape: the trick, a taker's won pile, the zone of unclaimed cards, a card taken from the trick (of identical
    ones, the last, as the takes offer them), the later takers' orderings and how many cards each takes."""

    trick_of: Any  # (state) -> the trick's cards
    won_of: Any  # (state, seat) -> its won pile
    unclaimed_of: Any  # (state) -> the zone of cards nobody takes (None: there is none)
    take_from_trick: Any  # (state, card)
    later_best: Any  # (state, plays, led, i) -> the seat the i-th later taker's ordering finds (or None)
    takes_of: Any  # (state, i) -> how many cards the i-th taker chooses (None: the rest)


def write_shares(w: Lines, step: Tricks, shape: StateShape, ref: Any) -> None:
    """What the sharing of ``step``'s tricks among several takers reads and changes (see SharesCode), written for
    ``shape``; ``ref``: the name of a value in the written code."""
    with w.block("def trick_of(state):"):
        w(f"return {shape.zone('state', step.trick_zone)}")
    with w.block("def won_of(state, seat):"):
        w(f"return {shape.seat_zone('state', step.won, 'seat')}")
    with w.block("def unclaimed_of(state):"):
        w(f"return {shape.zone('state', step.unclaimed) if step.unclaimed is not None else None}")
    with w.block("def take_from_trick(state, card):"):
        w(f"trick = {shape.zone('state', step.trick_zone)}", shape.remove_card("trick", "card", True, ref))
    with w.block("def later_best(state, plays, led, i):"):
        w("return LATER[i].best(state, plays, led)")
    with w.block("def takes_of(state, i):"):
        w("takes = TAKES[i]", "return None if takes is None else takes({'$s': state})")
