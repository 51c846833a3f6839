"""Which zones the compact layout holds as their kinds with a count per kind (runtime/zone_shapes.py, counted.py):
the hand of trick play, where no step and no expression reads it by position past a first copy; a game whose hand is
held so plays on its slots the game it plays on today's state, and a wrong decision would not."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.rules.loader import load_rules
from interpreter.runtime import layout as layout_module
from interpreter.runtime.compact_game import compact_game
from interpreter.runtime.counted import Counted
from interpreter.runtime.layout import layout, pack
from interpreter.runtime.zone_shapes import counted_zones

from .conftest import ROOT, game_of
from .test_compact_steps import as_held, held, plain

# NJET's discard (options: seat.hand) read other ways: whether the hand may still be held by count
DISCARD = "    options: seat.hand\n    must:"
VARIANTS = {
    "[last(seat.hand)]": False,  # the last copy: where a later copy stands
    "[seat.hand[1]]": False,  # an index
    "seat.hand[0:4]": False,  # a slice
    "reverse(seat.hand)": False,
    "[first(reverse(sort(seat.hand)))]": False,  # reverse, however it is read after
    "[c for c in seat.hand if c.number > 0]": True,  # a filtered list made into choices
    "sort(seat.hand)": True,  # (identical cards are equal: sorted, they stand together either way)
    "[first(seat.hand)]": True,  # the first copy: where every kind's first copy stands is kept
    "[c for c in seat.hand if len(seat.hand) > 3 and c in seat.hand]": True,  # len, in
}


def variant(tmp_path: Path, options: str) -> Game:
    text = (ROOT / "games" / "njet-riogrande.yaml").read_text()
    assert DISCARD in text
    path = tmp_path / "njet-variant.yaml"
    path.write_text(text.replace(DISCARD, f'    options: "{options}"\n    must:', 1))
    return compile_game(load_rules(path), 4)


def plays_alike(game: Game, seeds: range, rounds: int = 3) -> bool:
    """Whether ``game`` played out on its slots is, round after round, the game played out on today's state."""
    compact = compact_game(game)
    assert compact is not None
    lay = layout(game)
    for seed in seeds:
        state = game.new_state()
        slots = compact.start(state)
        mine, theirs = random.Random(seed), random.Random(seed)
        for _ in range(rounds):
            if state.finished:
                break
            if compact.playout(slots, theirs, round_end=True) != game.playout(state, mine, round_end=True):
                return False
            after = pack(game, state)
            if held(slots) != as_held(lay, after.zones) or plain(slots.v) != plain(after.values):
                return False
    return True


@pytest.mark.parametrize(("name", "counted"), [("njet-riogrande", {"hand"}), ("doppelkopf", {"hand"}),
                                               ("hearts", set()),  # no two cards alike: nothing to gain
                                               ("was-sticht", set()),  # a deal of part of the pack
                                               ("mue", set())])  # a trick played from two zones
def test_the_hand_of_trick_play_is_held_by_count_where_its_reads_allow(name, counted):
    game = game_of(name, 4)
    assert counted_zones(game) == counted
    slots = compact_game(game).start(game.new_state())
    lay = layout(game)
    assert {lay.zones[slot][0] for slot, z in enumerate(slots.z) if isinstance(z, Counted)} == counted


@pytest.mark.parametrize("options", list(VARIANTS))
def test_a_hand_read_by_position_is_held_as_a_list(tmp_path, options):
    game = variant(tmp_path, options)
    assert (counted_zones(game) == {"hand"}) == VARIANTS[options]
    # the same game on both, whichever copy of identical cards a choice names (a card chosen leaves, the last copy
    # of its kind taking its place: State.take, as the slots take the last copy)
    assert plays_alike(game, range(8))


def test_a_hand_read_by_its_last_copy_would_play_another_game_if_held_by_count(tmp_path, monkeypatch):
    # the decision matters: forced to hold such a hand by count, the slots play another game than the state
    monkeypatch.setattr(layout_module, "counted_zones", lambda game: frozenset({"hand"}))
    game = variant(tmp_path, "[last(seat.hand)]")
    assert layout(game).counts
    assert not plays_alike(game, range(4))


def test_a_zone_held_by_count_answers_as_the_list_it_stands_for():
    rng = random.Random(3)
    for _ in range(200):
        cards = [rng.randrange(6) for _ in range(rng.randrange(12))]
        zone = Counted.of(cards, 6)
        assert zone.copies() == [k for k in dict.fromkeys(cards) for _ in range(cards.count(k))]
        assert (len(zone), bool(zone), [k in zone for k in range(7)]) == (len(cards), bool(cards),
                                                                          [k in cards for k in range(7)])
        if cards:
            k = rng.choice(cards)
            zone.copies()  # (kept, then kept up to date as the copy leaves)
            zone.take(k)
            cards.reverse()
            cards.remove(k)
            cards.reverse()
            assert zone.copies() == [k for k in dict.fromkeys(cards) for _ in range(cards.count(k))]
            assert zone.kinds == list(dict.fromkeys(cards))
        zone.append(5)
        cards.append(5)
        assert zone.copies() == [k for k in dict.fromkeys(cards) for _ in range(cards.count(k))]
    zone = Counted.of([1, 2, 1], 6)
    with pytest.raises(ValueError):
        zone.take(3)
    assert zone.copies() == [1, 1, 2]
    other = zone.copy()
    other.take(1)
    other.clear()
    assert (zone.copies(), other.copies(), bool(other)) == ([1, 1, 2], [], False)


def test_the_slots_give_and_take_a_zone_in_its_shape():
    game = game_of("njet-riogrande", 4)
    compact = compact_game(game)
    state = game.new_state()
    slots = compact.start(state)
    compact.playout(slots, random.Random(2), round_end=True)
    lay = layout(game)
    hand, aside = lay.zone_slot("hand", 1), lay.zone_slot("aside")
    assert hand in lay.counts and aside not in lay.counts
    cards = [3, 7, 3, 9, 7, 3]
    for slot in (hand, aside):
        slots.put(slot, cards)
        got = slots.cards(slot)
        assert got == ([3, 3, 3, 7, 7, 9] if slot == hand else cards)
        got.append(1)  # a new list: the zone is left as it is
        assert len(slots.cards(slot)) == len(cards)
    assert isinstance(slots.z[hand], Counted) and not isinstance(slots.z[aside], Counted)
    other = slots.copy()
    other.z[hand].take(3)
    assert (slots.cards(hand), other.cards(hand)) == ([3, 3, 3, 7, 7, 9], [3, 3, 7, 7, 9])


def test_a_card_taken_from_a_zone_of_identical_cards_leaves_the_first_copies_where_they_stood():
    game = game_of("njet-riogrande", 4)
    kinds = game.cards.kinds
    state = game.new_state()
    alike = next((a, b) for a in game.deck for b in game.deck if a < b and kinds[a] == kinds[b])
    other = next(c for c in game.deck if kinds[c] != kinds[alike[0]])
    zone = state.per_seat["hand"][0]
    zone[:] = [alike[0], other, alike[1]]
    assert state.take(alike[0], 0) is zone
    assert zone == [alike[1], other]  # the kinds in the order of their first copies, the named card gone
    zone[:] = [alike[0], other, alike[1]]
    state.take(alike[1], 0)
    assert zone == [alike[0], other]
    assert state.take(alike[1], 0) is None  # it lies nowhere now
