"""Where a card is looked for on the compact slots (a card is its kind there, so a card moved or swapped is looked
for in the zones its expression reads: dsl.ir.places_read). A card an expression gives from a name the engine
binds (a trick's ``last_trick``) or from a value may lie in any zone: such an expression reads no place that says
where, and the card is looked for everywhere.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.dsl.ir import places_read
from interpreter.engine.compile import compile_game
from interpreter.rules.loader import load_rules
from interpreter.runtime.compact_game import compact_game
from interpreter.runtime.layout import pack

from .test_compact_steps import plain

EXCHANGE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "exchange.yaml"


def test_a_card_from_the_last_trick_may_lie_anywhere_but_a_hand_read_says_where():
    game = compile_game(load_rules(EXCHANGE), 4)
    swap = next(s for s in game.every_step() if getattr(s, "swap", False))
    assert places_read(swap.options_expr.part) is None  # [[h, c] for h in winner.hand for c in last_trick ...]
    assert swap.looks_in == ()  # every zone


def test_a_choice_of_cards_of_the_hand_looks_in_the_hand():
    game = compile_game(load_rules("hearts"), 4)
    passing = next(s for s in game.every_step() if s.name == "pass")
    assert places_read(passing.options_expr.part) == {"hand"}
    assert passing.looks_in == ("hand",)


@pytest.mark.parametrize("seed", range(10))
def test_a_swap_with_a_won_card_plays_on_the_slots_as_on_the_state(seed):
    game = compile_game(load_rules(EXCHANGE), 4)
    compact = compact_game(game)
    assert compact is not None
    state = game.new_state()
    slots = compact.start(state)
    mine, theirs = random.Random(seed), random.Random(seed)
    for _ in range(3):
        if state.finished:
            break
        taken = game.playout(state, mine, round_end=True)
        assert compact.playout(slots, theirs, round_end=True) == taken
        after = pack(game, state)
        assert [slots.cards(i) for i in range(len(after.zones))] == after.zones
        assert plain(slots.v) == plain(after.values)
