"""Who knows where each card is, and the states search samples from one seat's knowledge (engine/knowledge.py).

A sample must look to its seat exactly like the real state (the same observation and the same legal actions),
keep every card the seat knows where it is, and be drawn without reading where the other cards really are:
two real states the seat cannot tell apart give the same sample.
"""

from __future__ import annotations

import copy
import random

import pytest

from interpreter.engine.compile import supported_players
from interpreter.engine.knowledge import Knowledge, determinize, places, places_of, relabel
from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError
from interpreter.rules.loader import load_rules

from .conftest import GAMES, game_of
from .test_steps import DEAL_3, TRICKS, N, S, W, deal, make

CASES = [(path.stem, supported_players(load_rules(path))[-1]) for path in GAMES]


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
        knowledge.update(state)
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


def _as_if(game, knowledge, state, other):
    """``knowledge`` as it would be had ``other`` been the real game: the states it keeps (from before a hidden
    value was worked out) with ``other``'s cards."""
    rename = {}
    for (_, cards), (_, twin) in zip(places(state), places(other)):
        rename.update(zip(cards, twin))
    twin = copy.copy(knowledge)
    twin.derived = {}
    for name, (step, before) in knowledge.derived.items():
        before = before.clone()
        relabel(game, before, rename.get)
        twin.derived[name] = (step, before)
    return twin


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_sample_does_not_depend_on_where_the_unknown_cards_really_are(name, players):
    game = game_of(name, players)
    differed = []

    def visit(state, knowledge, seat):
        other = determinize(game, state, seat, knowledge, random.Random(99))  # a state the seat cannot tell apart
        a = determinize(game, state, seat, knowledge, random.Random(5))
        b = determinize(game, other, seat, _as_if(game, knowledge, state, other), random.Random(5))
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
            knowledge.update(state)
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


def test_a_sample_is_refused_while_a_hidden_value_is_not_made_of_unknown_cards(tmp_path):
    # a secret bid (a number only its bidder sees) cannot be drawn again: refused, naming it, never copied
    game = make(tmp_path, DEAL_3, 'bid: {do: choose, options: "range(0, 3)", set_seat: bid, visible: owner}', TRICKS)
    refused = []

    def visit(state, knowledge, seat):
        try:
            determinize(game, state, seat, knowledge, random.Random(1))
        except GameError as exc:
            refused.append(str(exc))

    _play(game, "refused", visit, every=1)
    assert refused and "the value 'bid' is hidden from that seat" in refused[0]


def test_a_seat_that_did_not_follow_gets_no_card_of_the_led_suit_in_any_sample(tmp_path):
    game = make(tmp_path, DEAL_3, TRICKS.replace("strength:", 'follow: "card.suit == led.suit"\n  strength:'))
    state = game.new_state()
    knowledge = Knowledge(game, state)
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "y3"], ["z2", "z3", "z4"], ["x3", "x4", "y4"])
    knowledge.update(state)
    labels = game.cards.labels
    for play in ["x2", "z2", "x3"]:  # E leads x2; S has no x: plays z2 (W follows)
        game.apply(state, game.action_for_label(state, play))
        knowledge.update(state)
    assert {labels[c] for c in knowledge.excluded[("hand", S)]} == {"x1", "x2", "x3", "x4"}
    for k in range(40):  # as N sees it: S's two cards are two of the four unknown z3, x4, y4, ... never an x
        sample = determinize(game, state, N, knowledge, random.Random(k))
        assert not any(labels[c].startswith("x") for c in sample.per_seat["hand"][S])
    seen = set()
    for k in range(40):
        sample = determinize(game, state, N, knowledge, random.Random(k))
        seen.update(labels[c] for c in sample.per_seat["hand"][W])
    assert "x4" in seen  # the x that S cannot hold goes elsewhere


def test_the_trumps_the_start_player_saw_follow_the_cards_a_sample_puts_there():
    # Was sticht?: the start player's hidden view of the bottom trump cards is worked out again from the cards
    # the sample puts there; every place keeps cards of the kind the deal put there (number cards stay numbers)
    game = game_of("was-sticht", 4)
    kinds, trumps = game.cards.attributes["kind"], game.cards.attributes["trump"]
    checked = []

    def visit(state, knowledge, seat):
        dealer = state.dealer
        if seat == dealer or not state.per_seat["secret"][dealer]:
            return
        sample = determinize(game, state, seat, knowledge, random.Random(len(checked)))
        colour = next(trumps[c] for c in sample.per_seat["secret"][dealer] if kinds[c] == "trump colour")
        assert sample.seat_vars["sees_colour"][dealer] == colour
        for zone, hands in state.per_seat.items():
            for real, drawn in zip(hands, sample.per_seat[zone]):
                assert sorted(kinds[c] for c in real) == sorted(kinds[c] for c in drawn)
        checked.append(sample.per_seat["secret"][dealer] != state.per_seat["secret"][dealer])

    _play(game, "trumps", visit, every=3)
    assert len(checked) > 10 and any(checked)


def test_choices_made_in_secret_are_drawn_again_among_what_the_chooser_could_choose():
    game = game_of("was-sticht", 4)
    drawn = []

    def visit(state, knowledge, seat):
        if state.pending.step.name != "pick_function":
            return
        chosen = state.seat_vars["chosen"]
        for k in range(12):
            sample = determinize(game, state, seat, knowledge, random.Random(k))
            for s, value in enumerate(sample.seat_vars["chosen"]):
                if s == seat or value is None:
                    assert value == chosen[s]
                else:
                    assert value in state.per_seat["functions"][s]
                    drawn.append(value != chosen[s])

    _play(game, "secret", visit, every=1)
    assert drawn and any(drawn) and not all(drawn)


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
