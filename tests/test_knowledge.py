"""Who knows where each card is, and the states search samples from one seat's knowledge (engine/knowledge.py).

A sample must look to its seat exactly like the real state (the same observation and the same legal actions),
keep every card the seat knows where it is, and be drawn without reading where the other cards really are:
two real states the seat cannot tell apart give the same sample.
"""

from __future__ import annotations

import random

import pytest

from interpreter.engine.compile import supported_players
from interpreter.engine.knowledge import Knowledge, determinize, places_of
from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError
from interpreter.rules.loader import load_rules

from .conftest import GAMES, game_of

# Was sticht? keeps values worked out from a seat's secret cards hidden from the others (which trump colour
# the dealer saw): a sample cannot draw those yet, so it is refused (see the last test)
CASES = [(path.stem, supported_players(load_rules(path))[-1]) for path in GAMES if path.stem != "was-sticht"]


def _cards(state):
    return (repr(state.per_seat), repr(state.shared))


def _play(game, seed, visit, every=7):
    """A random game followed by a Knowledge; ``visit(state, knowledge, seat)`` at every ``every``-th decision."""
    rng = random.Random(seed)
    state = game.new_state()
    knowledge = Knowledge(game, state)
    k = 0
    while not state.finished:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            if k % every == 0:
                visit(state, knowledge, d.actor)
            k += 1
            game.apply(state, d.actions[int(rng.random() * len(d.actions))])
        knowledge.update(state, d.actor == CHANCE)
    return k


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_sample_looks_to_its_seat_like_the_real_state(name, players):
    game = game_of(name, players)
    checked = []

    def visit(state, knowledge, seat):
        sample = determinize(game, state, seat, knowledge, random.Random(len(checked)))
        assert observe(game, sample, seat) == observe(game, state, seat)
        assert sample.pending.actions == state.pending.actions
        assert sorted(sample.all_cards()) == sorted(state.all_cards())
        where = places_of(game, sample)
        for c in range(len(game.cards.labels)):
            if knowledge.knows(seat, c) and knowledge.where[c] is not None:
                assert where[c] == knowledge.where[c]
        if len(checked) % 5 == 0:  # search plays on from samples
            game.playout(sample, random.Random(1))
            assert sample.finished
        checked.append(_cards(sample) != _cards(state))

    _play(game, f"sample/{name}", visit)
    assert checked and any(checked)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_sample_does_not_depend_on_where_the_unknown_cards_really_are(name, players):
    game = game_of(name, players)
    differed = []

    def visit(state, knowledge, seat):
        other = determinize(game, state, seat, knowledge, random.Random(99))  # a state the seat cannot tell apart
        a = determinize(game, state, seat, knowledge, random.Random(5))
        b = determinize(game, other, seat, knowledge, random.Random(5))
        assert _cards(a) == _cards(b)
        assert [observe(game, a, s) for s in range(game.players)] == [observe(game, b, s) for s in range(game.players)]
        differed.append(_cards(other) != _cards(state))

    _play(game, f"independent/{name}", visit)
    assert any(differed), "no decision had unknown cards to sample"


def test_njet_each_seat_knows_its_hand_the_cards_it_passed_and_every_trick():
    game = game_of("njet-riogrande", 4)
    seen = {}

    def visit(state, knowledge, seat):
        step = state.pending.step.name
        if step == "discard" and "deal" not in seen:  # just dealt: a seat knows its own hand and nothing else
            seen["deal"] = True
            for s in range(4):
                assert sorted(knowledge.unknown(s)) == sorted(c for o in range(4) if o != s
                                                              for c in state.per_seat["hand"][o])
        if step == "tricks" and state.progress.number == 3 and "tricks" not in seen:
            seen["tricks"] = True
            for s in range(4):  # every card of the tricks so far, face down in the won piles, is known
                for pile in state.per_seat["won"]:
                    assert all(knowledge.knows(s, c) for c in pile)

    rounds = 0
    seed = 0
    while rounds < 30 and len(seen) < 2:
        _play(game, f"njet/{seed}", visit, every=1)
        seed += 1
        rounds += 1
    assert seen == {"deal": True, "tricks": True}


def test_after_a_pass_the_passer_knows_where_its_cards_went():
    game = game_of("njet-riogrande", 4)
    state = game.new_state()
    knowledge = Knowledge(game, state)
    rng = random.Random(3)
    while True:  # random play until the board settles on passing two cards
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            knowledge.update(state, True)
            continue
        if d.step.name == "pass":
            break
        elif d.step.name == "tricks":  # another board: a new game
            state = game.new_state()
            knowledge = Knowledge(game, state)
            continue
        else:
            game.apply(state, d.actions[int(rng.random() * len(d.actions))])
        knowledge.update(state)
    passed = {}
    while state.pending.step.name == "pass":
        seat = state.pending.actor
        action = state.pending.actions[0]
        passed.setdefault(seat, []).append(action.value)
        game.apply(state, action)
        knowledge.update(state)
    for seat, cards in passed.items():
        right = (seat - 1) % 4
        for c in cards:
            assert c in state.per_seat["hand"][right]
            assert knowledge.knows(seat, c) and knowledge.knows(right, c)
            assert not any(knowledge.knows(o, c) for o in range(4) if o not in (seat, right))


def test_a_sample_is_refused_while_a_hidden_value_is_not_made_of_unknown_cards():
    game = game_of("was-sticht", 4)
    refused = []

    def visit(state, knowledge, seat):
        try:
            determinize(game, state, seat, knowledge, random.Random(1))
        except GameError as exc:
            refused.append(str(exc))

    _play(game, "refused", visit, every=1)
    assert refused and "the value 'sees_colour' is hidden from that seat" in refused[0]


def test_an_agent_that_asks_for_samples_gets_them_through_its_turn():
    from interpreter.harness.agents import RandomAgent
    from interpreter.harness.runner import play_game

    game = game_of("oh-hell", 4)

    class Sampling(RandomAgent):
        samples = True
        taken = 0

        def act(self, turn):
            sample = turn.sample(random.Random(Sampling.taken))
            assert observe(game, sample, turn.seat) == turn.observation()
            Sampling.taken += 1
            return super().act(turn)

    out = play_game(game, [Sampling(s) for s in range(4)], seed=2)
    assert Sampling.taken > 100 and len(out.totals) == 4

    class Plain(RandomAgent):
        def act(self, turn):
            with pytest.raises(GameError, match="samples = True"):
                turn.sample(random.Random(1))
            return super().act(turn)

    play_game(game, [Plain(s) for s in range(4)], seed=2)
