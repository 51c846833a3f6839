"""Search's samples drawn into the compact slots (runtime/slot_samples.py).

A sample on the slots is the sample of today's state packed: with the same random source, the same cards in every
zone slot and the same values (hidden values and teams worked out again included), and the random source left at
the same point, for every bundled game and player count. It agrees with what its seat knows: every card the seat
knows stays in its place, every place keeps its number of cards, no place gets a card its seat has shown not to
hold, the public values stay as told. And the search decides the same on the slots as on today's state.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter.engine.knowledge import Knowledge
from interpreter.engine.samples import StateSamples, Unknown
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError
from interpreter.harness.agents import Turn
from interpreter.harness.search import IsmctsAgent
from interpreter.runtime.compact_game import compact_game
from interpreter.runtime.layout import ROUND, SEAT, TEAM, layout, pack
from interpreter.runtime.slot_samples import SlotSamples, samples_of

from .conftest import GAMES, SHORTER, counts_of, game_of
from .test_compact_steps import plain
from .test_steps import DEAL_3, TRICKS, make

FEWEST = [(path.stem, min(counts_of(path))) for path in GAMES]  # (a sample is drawn alike for any
# number of seats: each game's fewest keeps the default run short)


def _decisions(game, seed, every, most=120):
    """A random game followed by a Knowledge: (state, knowledge, seat) at every ``every``-th decision with a choice,
    within the first ``most`` decisions."""
    rng = random.Random(seed)
    state = game.new_state()
    knowledge = Knowledge(game, state)
    k = 0
    while not state.finished and k < most:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            if len(d.actions) > 1 and k % every == 0:
                yield state, knowledge, d.actor
            k += 1
            game.apply(state, d.actions[int(rng.random() * len(d.actions))])
        knowledge.update(state)


def _agrees_with_what_the_seat_knows(game, state, knowledge, seat, sample):
    lay = layout(game)
    kind = lay.kind
    everyone = Counter()
    for slot, (zone, owner) in enumerate(lay.zones):
        real = state.shared[zone] if owner is None else state.per_seat[zone][owner]
        drawn = Counter(sample.cards(slot))
        everyone.update(drawn)
        assert drawn.total() == len(real)
        known = Counter(kind[c] for c in real if knowledge.knows(seat, c))
        assert not known - drawn, f"a card {game.seat_names[seat]} knows left {zone}"
        banned = {kind[c] for c in knowledge.excluded.get((zone, -1 if owner is None else owner), ())}
        assert not banned & set(drawn - known), f"{zone} got a card its seat showed it does not hold"
    assert everyone == Counter(kind[c] for c in state.all_cards())
    root = pack(game, state).values
    for i, (part, name, _) in enumerate(lay.values):  # the round's public values as they were told
        if part == ROUND and game.visibility.get(name, "all") == "all":
            assert plain(sample.v[i]) == plain(root[i])


@pytest.mark.parametrize(("name", "players"), FEWEST)
def test_a_sample_on_the_slots_is_today_s_sample_packed(name, players):
    game = game_of(name, players, **SHORTER.get(name, {}))
    compact = compact_game(game)
    assert compact is not None
    seen = 0
    for k, (state, knowledge, seat) in enumerate(_decisions(game, f"slots/{name}", every=9)):
        unknown = Unknown(game, state, seat, knowledge)
        drawn = SlotSamples(compact, unknown)
        mine, theirs = random.Random(k), random.Random(k)
        sample = drawn.draw(mine)
        today = unknown.sample(theirs)
        assert mine.random() == theirs.random()  # the same draws taken
        _the_same(game, sample, today)
        assert sample.step_index == state.step_index
        _agrees_with_what_the_seat_knows(game, state, knowledge, seat, sample)
        seen += _zones(sample) != _zones(drawn.root)
        compact.playout(sample, random.Random(k), round_end=True)  # the progress too: the round goes on the same
        compact.playout(played := compact.start(today), random.Random(k), round_end=True)
        assert (_zones(sample), plain(sample.v)) == (_zones(played), plain(played.v))
    assert seen, "no decision had unknown cards to deal again"


@pytest.mark.parametrize("name", ["hearts", "was-sticht"])
def test_a_sample_leaves_the_decisions_slots_as_they_were(name):
    game = game_of(name, 4)
    for state, knowledge, seat in _decisions(game, "root", every=5, most=40):
        drawn = samples_of(game, state, seat, knowledge)
        assert isinstance(drawn, SlotSamples)
        before = (_zones(drawn.root), plain(drawn.root.v))
        for k in range(3):
            sample = drawn.draw(random.Random(k))
            drawn.game.playout(sample, random.Random(k), round_end=True)
        assert (_zones(drawn.root), plain(drawn.root.v)) == before


class _TodaysTurn(Turn):
    """A turn whose samples are today's state (the search as it was before the slots)."""

    __slots__ = ()

    def samples(self):
        return StateSamples(Unknown(self._game, self._state, self.seat, self._knowledge))


@pytest.mark.parametrize("name", ["njet-riogrande", "meinz", "hearts", "was-sticht", "doppelkopf"])
def test_the_search_decides_on_the_slots_as_on_the_state(name):
    game = game_of(name, 4, **SHORTER.get(name, {}))
    decided = []
    for k, (state, knowledge, seat) in enumerate(_decisions(game, f"search/{name}", every=11)):
        d = state.pending
        chosen = []
        for kind in (Turn, _TodaysTurn):
            turn = kind(game, state, seat, d.actions, d.prompt, knowledge, d.kind)
            chosen.append(turn.labels[turn.legal.index(IsmctsAgent(k, 20).act(turn))])
        decided.append(chosen)
    assert len(decided) > 3 and all(a == b for a, b in decided)
    assert len({a for a, _ in decided}) > 1


def _same_as_today(game, state, knowledge, seat, k):
    """The sample on the slots and today's packed, from the same random source; the sample on the slots."""
    unknown = Unknown(game, state, seat, knowledge)
    sample = SlotSamples(compact_game(game), unknown).draw(random.Random(k))
    _the_same(game, sample, unknown.sample(random.Random(k)))
    return sample


def _the_same(game, sample, today):
    """``sample`` (slots) holds what ``today`` (a sample of today's state) does."""
    packed = compact_game(game).start(today)
    assert _zones(sample) == _zones(packed)
    assert plain(sample.v) == plain(packed.v)
    assert _fields(sample.progress) == _fields(packed.progress)  # a choice's picks and history named as drawn


def _zones(slots):
    """Every zone slot's cards (kinds), as ``Slots.cards`` gives them whatever the zone's shape."""
    return [slots.cards(slot) for slot in range(len(layout(slots.game).zones))]


def _fields(value, depth=0):
    """A progress object as plain data: its fields (slots or attributes), lists as lists, steps by name."""
    if isinstance(value, (list, tuple)):
        return [_fields(v, depth) for v in value]
    if isinstance(value, dict):
        return {k: _fields(v, depth) for k, v in value.items()}
    if value is None or isinstance(value, (int, str, float)) or depth > 4:
        return value
    names = [n for c in type(value).__mro__ for n in getattr(c, "__slots__", ())] or list(vars(value))
    if "where" in names:  # a step: by its name
        return getattr(value, "name", None)
    return {n: _fields(getattr(value, n, None), depth + 1) for n in names if not n.startswith("__")}


def test_a_value_naming_a_card_the_seat_does_not_know_names_the_card_drawn_in_its_place(tmp_path):
    # each seat keeps one of its cards in a value only it sees: in a sample, another seat's value names a card of the
    # hand the sample gives that seat (the card drawn where the real one was)
    game = make(tmp_path, DEAL_3, 'keep: {do: choose, options: "seat.hand", set_seat: keep, visible: owner}', TRICKS)
    lay = layout(game)
    keep = [lay.values.index((SEAT, "keep", s)) for s in range(4)]
    moved = []
    for k, (state, knowledge, seat) in enumerate(_decisions(game, "keep", every=1, most=12)):
        try:
            sample = _same_as_today(game, state, knowledge, seat, k)
        except GameError:  # once a seat plays its kept card, the value names a known card: refused (test_knowledge)
            continue
        for s in range(4):
            if s != seat and state.seat_vars["keep"][s] is not None:  # chosen
                assert sample.v[keep[s]] in sample.cards(lay.zone_slot("hand", s))
                moved.append(sample.v[keep[s]] != lay.kind[state.seat_vars["keep"][s]])
    assert moved and any(moved)


def test_hidden_teams_are_worked_out_again_into_the_team_slots():
    game = game_of("doppelkopf", 4)
    lay = layout(game)
    teams = lay.values.index((TEAM, "", 0))
    differed = []
    for seed in range(6):  # the teams are hidden in some rounds only (no "re" announced before the tricks)
        if len(differed) > 10:
            break
        for k, (state, knowledge, seat) in enumerate(_decisions(game, f"c{seed}", every=1, most=220)):
            if state.team_known is None or knowledge.teams is None:
                continue
            sample = _same_as_today(game, state, knowledge, seat, k)
            drawn = sample.v[teams:teams + 4]
            assert all(drawn[s] == state.teams[s] for s in range(4) if state.known_teams(seat)[s] is not None)
            differed.append(drawn != state.teams)
    assert differed and any(differed)


def test_a_game_without_a_compact_form_is_searched_on_today_s_state(monkeypatch):
    import interpreter.runtime.slot_samples as slot_samples

    game = game_of("hearts", 4)
    state, knowledge, seat = next(_decisions(game, "plain", every=4, most=20))
    d = state.pending
    on_slots = Turn(game, state, seat, d.actions, d.prompt, knowledge, d.kind)
    assert isinstance(on_slots.samples(), SlotSamples)
    chosen = on_slots.labels[on_slots.legal.index(IsmctsAgent(3, 30).act(on_slots))]
    monkeypatch.setattr(slot_samples, "compact_game", lambda game: None)  # as for a game the slots cannot play
    today = Turn(game, state, seat, d.actions, d.prompt, knowledge, d.kind)
    drawn = today.samples()
    assert isinstance(drawn, StateSamples) and drawn.game is game
    assert type(drawn.draw(random.Random(1))) is type(state)
    assert today.labels[today.legal.index(IsmctsAgent(3, 30).act(today))] == chosen


def test_a_turn_gives_samples_only_to_an_agent_that_asked_for_them():
    game = game_of("hearts", 4)
    state, _, seat = next(_decisions(game, "asked", every=4, most=20))
    d = state.pending
    with pytest.raises(GameError, match="samples = True"):
        Turn(game, state, seat, d.actions, d.prompt, None, d.kind).samples()
