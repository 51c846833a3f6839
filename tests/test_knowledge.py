"""Who knows where each card is, and the states search samples from one seat's knowledge (engine/knowledge.py).

A sample must look to its seat exactly like the real state (the same observation and the same legal actions),
keep every card the seat knows where it is, and be drawn without reading where the other cards really are:
two real states the seat cannot tell apart give the same sample.
"""

from __future__ import annotations

import copy
import random

import pytest

from interpreter.engine.knowledge import Knowledge, Run, places, places_of
from interpreter.engine.observation import observe
from interpreter.engine.samples import determinize, relabel
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError

from .conftest import GAMES, SHORTER, game_of, suite_counts
from .test_steps import DEAL_3, TRICKS, E, N, S, W, deal, make

CASES = [(path.stem, n) for path in GAMES for n in suite_counts(path)]


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
    game = game_of(name, players, **SHORTER.get(name, {}))  # the long games played shorter
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
    value or hidden teams were worked out) with ``other``'s cards."""
    rename = {}
    for (_, cards), (_, twin) in zip(places(state), places(other)):
        rename.update(zip(cards, twin))
    twin = copy.copy(knowledge)
    runs = {}  # each run of a set step kept, once, with other's cards (a run is shared by the runs after it)

    def moved(run):
        if id(run) not in runs:
            before = run.before.clone()
            relabel(game, before, rename.get)
            runs[id(run)] = new = Run(run.step, before, {name: moved(r) for name, r in run.derived.items()})
            new.read(run.reads)
            new.outputs, new.told, new.mine = run.outputs, run.told, run.mine
        return runs[id(run)]

    twin.derived = {name: moved(run) for name, run in knowledge.derived.items()}
    twin.checks = [moved(run) for run in knowledge.checks]
    twin.teams = None if knowledge.teams is None else moved(knowledge.teams)
    return twin


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_sample_does_not_depend_on_where_the_unknown_cards_really_are(name, players):
    game = game_of(name, players, **SHORTER.get(name, {}))  # the long games played shorter
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


FOLLOW = TRICKS.replace("strength:", 'follow: "card.suit == led.suit"\n  strength:')


def test_an_automatic_seat_that_does_not_follow_shows_nothing_of_its_hand(tmp_path):
    # a card monster plays its top card whatever the rules of play say: not following proves no void (Meinz with 3)
    game = make(tmp_path, DEAL_3, FOLLOW, count=3, players="""\
        3:
          automatic:
            - {name: bot, policy: {tricks: "first(seat.hand)"}}""")
    state = game.new_state()
    knowledge = Knowledge(game, state)
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "y3"], ["x3", "z3", "z4"], ["y4", "x4", "z2"])
    knowledge.update(state)
    for play in ["x2", "x3"]:  # E leads x2, S follows; the bot turns y4 though it holds x4
        game.apply(state, game.action_for_label(state, play))
        knowledge.update(state)
    labels = game.cards.labels
    assert [labels[c] for c in state.shared["trick"]] == ["x2", "x3", "y4"]
    assert ("hand", 3) not in knowledge.excluded
    held = set()
    for k in range(30):  # as N sees it, the bot may hold x4
        held.update(labels[c] for c in determinize(game, state, N, knowledge, random.Random(k)).per_seat["hand"][3])
    assert "x4" in held


def test_a_play_from_several_zones_shows_nothing_of_what_the_seat_holds(tmp_path):
    game = make(tmp_path, DEAL_3, "reveal: {do: choose, options: seat.hand, move_to: revealed}",
                FOLLOW.replace("to: won", "from: [hand, revealed]\n  to: won"),
                zones="revealed: {per_seat: true, visible: all}")
    state = game.new_state()
    knowledge = Knowledge(game, state)
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "y3"], ["z2", "z3", "z4"], ["x3", "x4", "y4"])
    knowledge.update(state)
    for play in ["y2", "z2", "y4", "y1", "x2", "z3"]:  # each reveals a card; E leads x2, S (no x) plays z3
        game.apply(state, game.action_for_label(state, play))
        knowledge.update(state)
    assert not knowledge.excluded


BIG = 10_000  # cards


def test_a_sample_of_a_deck_of_ten_thousand_cards_takes_work_linear_in_the_cards(tmp_path):
    # a seat that did not follow: drawing the others' 7,500 cards again around its void takes no recursion and a
    # few random draws per card (a matching by augmenting paths took a recursion per card moved, and more)
    deck = (f'deck:\n  label: "{{suit}}{{hi}}.{{lo}}"\n  cards:\n    - suit: [x, y]\n'
            f'      hi: [{", ".join(map(str, range(100)))}]\n      lo: [{", ".join(map(str, range(BIG // 200)))}]\n')
    game = make(tmp_path, f"deal: {{do: deal, hand: {BIG // 4}}}",
                FOLLOW.replace('"card.rank"', '"card.hi", "card.lo"'), deck=deck)
    assert len(game.deck) == BIG
    suit = game.cards.attributes["suit"]
    xs, ys = [c for c in game.deck if suit[c] == "x"], [c for c in game.deck if suit[c] == "y"]
    q = BIG // 8
    state = game.new_state()
    knowledge = Knowledge(game, state)
    game.apply_chance(state, xs[:q] + ys[:q] + xs[q:2 * q] + ys[q:2 * q] + ys[2 * q:] + xs[2 * q:])  # S: no x
    knowledge.update(state)
    while not (state.pending.actor == S and state.progress.plays):  # E leads an x
        game.apply(state, next(a for a in state.pending.actions if suit[a.card] == "x"))
        knowledge.update(state)
    game.apply(state, state.pending.actions[0])
    knowledge.update(state)
    assert len(knowledge.excluded[("hand", S)]) == BIG // 2

    class Counting(random.Random):
        draws = 0

        def random(self):
            Counting.draws += 1
            return super().random()

        def getrandbits(self, k):
            Counting.draws += 1
            return super().getrandbits(k)

    unknown = len(knowledge.unknown(N))
    for k in range(3):
        sample = determinize(game, state, N, knowledge, Counting(k))
        assert observe(game, sample, N) == observe(game, state, N)
        assert sorted(sample.all_cards()) == sorted(state.all_cards())
        assert not any(suit[c] == "x" for c in sample.per_seat["hand"][S])
        assert sample.per_seat["hand"][E] != state.per_seat["hand"][E]
    assert Counting.draws < 3 * 40 * unknown  # 20 plain shuffles, then one draw per card and a shuffle


def test_samples_in_was_sticht_tell_the_hints_everyone_was_told():
    # the hints (who would win each row) depend on the trumps only the start player saw: a sample's cards must give
    # the same hints. Checked by playing the round again with the sample's cards: the same actions must lead to
    # the same public values and the same observation.
    game = game_of("was-sticht", 4)
    rng = random.Random("hints")
    state = game.new_state()
    knowledge = Knowledge(game, state)
    start, history, checked = None, [], 0
    while checked < 60:
        d = state.pending
        if d.actor == CHANCE:
            if d.step.name == "numbers":  # the round's cards are shuffled: play it again from here
                start, history = state.clone(), []
            outcome = game.sample_chance(state, rng)
            history.append((True, outcome))
            game.apply_chance(state, outcome)
        else:
            seat = (state.dealer + 1 + checked % 3) % 4  # one of those who did not see the trumps
            if state.vars.get("hints") and not state.shared["trumps"]:
                sample = determinize(game, state, seat, knowledge, random.Random(checked))
                rename = {}
                for (_, real), (_, drawn) in zip(places(state), places(sample)):
                    rename.update(zip(real, drawn))
                again = start.clone()
                for chance, what in history:
                    if chance:
                        game.apply_chance(again, [rename.get(c, c) for c in what])
                    else:
                        game.apply(again, game.action_for_label(again, what))
                assert again.vars["hints"] == state.vars["hints"]
                assert observe(game, again, seat) == observe(game, state, seat)
                assert _cards(again) == _cards(sample)
                checked += 1
            action = d.actions[int(rng.random() * len(d.actions))]
            history.append((False, game.label(state, action)))
            game.apply(state, action)
        knowledge.update(state)
    assert knowledge.disagreed == 0


def test_a_sample_gives_the_values_worked_out_from_hidden_cards_as_the_seat_was_told_them(tmp_path):
    # everyone is told whether the stock's top card is high; each seat is told (as its own value) how many 1s the
    # stock holds: every sample's stock must give both
    game = make(tmp_path, "deal: {do: deal, hand: 2, rest: stock}", """\
        told: {do: set, round: {high: "first(stock).rank >= 3"}}
        own: {do: set, visible: owner, seats: {ones: "len([c for c in stock if c.rank == 1])"}}""", TRICKS,
                zones="stock: {visible: nobody}")
    rank = game.cards.attributes["rank"]
    seen = set()
    for deal_seed in range(6):
        state = game.new_state()
        knowledge = Knowledge(game, state)
        game.apply_chance(state, game.sample_chance(state, random.Random(deal_seed)))
        knowledge.update(state)
        assert len(knowledge.checks) == 2
        high, ones = state.vars["high"], state.seat_vars["ones"][N]
        for k in range(20):
            sample = determinize(game, state, N, knowledge, random.Random(k))
            stock = sample.shared["stock"]
            assert (rank[stock[0]] >= 3) == high and sum(rank[c] == 1 for c in stock) == ones
            assert observe(game, sample, N) == observe(game, state, N)
            seen.add(tuple(stock))
    assert knowledge.disagreed == 0 and len(seen) > 20


def test_a_sample_that_no_draw_makes_agree_is_the_draw_that_agreed_most(monkeypatch):
    import interpreter.engine.samples as samples_module

    monkeypatch.setattr(samples_module, "_AGREE_TRIES", 1)
    game = game_of("was-sticht", 4)
    drawn = []

    def visit(state, knowledge, seat):
        if knowledge.checks and seat != state.dealer and not state.shared["trumps"]:
            sample = determinize(game, state, seat, knowledge, random.Random(len(drawn)))
            assert observe(game, sample, seat) == observe(game, state, seat)
            drawn.append(knowledge.disagreed)

    _play(game, "disagree", visit, every=1)
    assert drawn and drawn[-1] > 0  # one draw often tells other hints: counted, and the search goes on


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


def test_a_check_worked_out_again_renames_only_the_parts_it_reads():
    """A check's step worked out again on a draw renames the cards only in the zones and values it reads (and the
    running steps' progress): the rest cannot change what it gives. ``relabel`` with ``parts`` leaves every other
    zone and value as it was."""
    game = game_of("tichu", 4)
    state = game.new_state()
    rng = random.Random(3)
    while state.pending.actor == CHANCE or state.round_number < 1 or not state.per_seat["hand"][0]:
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, d.actions[0])
    hands = [list(h) for h in state.per_seat["hand"]]
    everyone = sorted(c for h in hands for c in h)
    swap = dict(zip(everyone, reversed(everyone)))
    only_hands = state.clone()
    relabel(game, only_hands, swap.get, frozenset({("zone", "hand")}))
    assert [list(h) for h in only_hands.per_seat["hand"]] == [[swap[c] for c in h] for h in hands]
    nothing = state.clone()
    relabel(game, nothing, swap.get, frozenset({("zone", "won")}))
    assert [list(h) for h in nothing.per_seat["hand"]] == hands
