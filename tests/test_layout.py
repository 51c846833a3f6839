"""The compact layout (interpreter/runtime/layout.py): at every decision of random games of every bundled game,
a state packed into its slots and unpacked is the same game at the same point; identical cards are one kind."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.fingerprint import difference, fingerprint
from interpreter.engine.state import CHANCE
from interpreter.runtime.layout import DEALER, ROUND, TOTAL, layout, pack, unpack

from .conftest import GAMES, SHORTER, counts_of, game_of

# every bundled game at its fewest players (tests/test_compact_game.py packs every player count and plays it on)
CASES = [(path.stem, min(counts_of(path))) for path in GAMES]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_state_packed_and_unpacked_is_the_same_game_at_every_decision(name, players):
    game = game_of(name, players, **SHORTER.get(name, {}))
    lay = layout(game)
    rng = random.Random(players)
    state = game.new_state()
    checked = 0
    while not state.finished and checked < 120:  # a round and more of most games
        packed = pack(game, state)
        back = unpack(game, packed)
        a, b = fingerprint(state, kinds=True), fingerprint(back, kinds=True)
        assert a == b, difference(a, b, ("in the state", "packed and unpacked"))
        again = pack(game, back)  # the slots of the state unpacked are the same slots
        assert (again.zones, again.values) == (packed.zones, packed.values)
        # every card of the deck, as its kind, in one zone slot or another
        kinds = sorted(c for cards in packed.zones for c in cards)
        assert kinds == sorted(lay.kind[c] for c in state.all_cards())
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, d.actions[rng.randrange(len(d.actions))])
        checked += 1
    assert checked > 20


def test_identical_cards_are_one_kind_and_the_values_have_their_slots():
    game = game_of("njet-riogrande", 4)  # three 0s and four 7s of each colour
    lay = layout(game)
    assert len(lay.kinds) == 40 and len(lay.kind) == 60
    labels = game.cards.labels
    assert all(labels[c] == labels[lay.kind[c]] for c in range(60))
    assert sorted(lay.copies[k] for k in lay.kinds).count(4) == 4  # the 7s
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(3)))
    packed = pack(game, state)
    assert packed.values[lay.value_slot(DEALER)] == state.dealer
    assert packed.values[lay.value_slot(ROUND, "dealer")] == state.vars["dealer"]
    assert [packed.values[lay.value_slot(TOTAL, "", s)] for s in range(4)] == state.totals
    hand = lay.zone_slot("hand", 2)
    assert packed.zones[hand] == [lay.kind[c] for c in state.per_seat["hand"][2]]  # in the hand's order
