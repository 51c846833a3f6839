"""``Game.playout`` (the rollout path for bots and simulation) against the checked path, decision by decision, on
tricks with every part a trick may have.

Playout may take runs of plain decisions in a step's own loop, without Decision objects; the checked path
(``Game.apply``, one Decision per action) must see the same seat, the same legal actions in the same order, the same
state, and end in the same state. The conformance battery (interpreter/conformance/battery.py, ``lockstep``) checks
it; tests/test_conformance.py runs it on every bundled game, player count and docs example, this file on each
way through the trick loop.
"""

from __future__ import annotations

import random

import pytest

from interpreter.conformance.battery import lockstep
from interpreter.engine.fingerprint import fingerprint
from interpreter.rules.loader import load_rules

from .conftest import game_of

# Every trick plays in the step's own loop (trick_code.py), its code written from the trick's parts: each of
# these tricks has a different part, so a different piece of that code runs (or the loop stops for the engine).
TRICK_VARIANTS = {
    "no rules": "",
    "follow": 'follow: "card.suit == led.suit"',
    "lead and follow": 'lead: "card.rank != 1 or len(seat.won) > 0"\nfollow: "card.suit == led.suit"',
    "follow by seat": 'follow: "card.suit == led.suit or seat.tricks > 1"',
    "otherwise end": 'follow: {must: "card.suit == led.suit", otherwise: end}',
    "can win": 'can_win: "seat.tricks < 2"',
    "next leader": "next_leader: left(winner)",
    "seats": 'seats: "[s for s in seats if s != round.dealer]"',
    "per trick": "per_trick: [mark]",
    "after trick": 'after_trick: {note: {do: set, round: {mark: "winner"}}}',
    "first wins": 'equal_cards: first_wins\nstrength: ["card.suit == led.suit"]',
    "later wins": 'strength: ["card.suit == led.suit"]',
    "led rule": 'led: "first([c for c in trick if c.rank != round.number])"\n'
                'follow: "led == none or card.suit == led.suit"',
    "between plays": 'between_plays: {note: {do: set, round: {mark: "player"}}}',
    "claim": 'won_by: "round.dealer if round.number == 2 else none"',
    "route": 'route: [{when: "card.rank == 1", to: out}]',
    "takers": 'takers: [{takes: rest}, {strength: ["- card.rank"], eligible: "card.suit != led.suit"}]\n'
              'unclaimed: out',
    "two zones": "from: [hand, open]",
    "choice between plays": 'between_plays: {call: {do: choose, when: "round.called == none", who: "[player] + '
                            '[s for s in trick_seats if s != player]", options: "[\'call\']", pass: no call, '
                            'set_chooser: called, until: "round.called != none"}}\nwon_by: round.called\n'
                            'per_trick: [called]',
    "choice after trick": 'after_trick: {give: {do: choose, who: winner, options: "[c for c in winner.hand if '
                          'c.suit == \'x\']", pass: keep all, move_to: out}}',
    # the dealer decides the cards of the seat across, as a declarer plays dummy's (the automatic seat's too)
    "decided by another": 'decided_by: "round.dealer if seat == left(left(round.dealer)) else seat"',
}
# the automatic seat's policy for the choices of the variants above (a choice it may be asked)
HOOK_POLICIES = {"choice between plays": "call: \"last(legal)\"", "choice after trick": "give: \"last(legal)\""}


@pytest.mark.parametrize("variant", list(TRICK_VARIANTS))
@pytest.mark.parametrize("automatic", [False, True])
def test_every_way_through_the_trick_loop_takes_the_checked_path_s_decisions(tmp_path, variant, automatic):
    from interpreter.engine.compile import compile_game

    from .test_steps import indent, rules, write

    extra = TRICK_VARIANTS[variant]
    if "strength" not in extra.split("takers")[0]:
        extra += '\nstrength: ["card.suit == led.suit", "card.rank"]'
    tricks = "tricks:\n" + indent("do: tricks\nleader: left(round.dealer)\nto: won\n" + extra)
    deal = "deal: {do: deal, hand: 3}"
    if variant == "two zones":  # one card of each hand laid open
        deal += '\nshow: {do: move, each: seats, cards: "first(seat.hand)", to: open}'
    text = rules(deal, 'mark: {do: set, round: {mark: "round.dealer"}}', tricks,
                 "score: {do: score, points: seat.tricks}", game="rounds: 3",
                 zones="out: {visible: all}\nopen: {per_seat: true, visible: all}",
                 players='3:\n  automatic: [{name: bot, policy: {tricks: "last(legal)"'
                         + (", " + HOOK_POLICIES[variant] if variant in HOOK_POLICIES else "") + '}}]\n4: {}')
    game = compile_game(load_rules(write(tmp_path, text)), 3 if automatic else 4)
    for seed in range(3):
        lockstep(game, seed)  # raises ConformanceError, naming the decision
    lockstep(game, 3, notes=True)  # narrated: the same code, with its notes


def test_the_default_policy_plays_uniformly_at_random_from_the_rng():
    game = game_of("njet-riogrande", 4)
    a, b = game.new_state(), game.new_state()
    assert game.playout(a, random.Random(5)) == game.playout(b, random.Random(5)) > 100
    assert fingerprint(a) == fingerprint(b)
    c = game.new_state()
    game.playout(c, random.Random(6))
    assert fingerprint(c) != fingerprint(a)


def test_a_deal_shuffles_a_random_random_as_its_shuffle_does():
    """The deal's shuffle of a ``random.Random`` (its draws in one loop) gives the order ``rng.shuffle`` gives and
    leaves the generator where it leaves it, so a seed plays the same games; another source of randomness shuffles
    by its own ``shuffle``."""
    from interpreter.engine.steps.deal_chance import shuffle

    for seed in range(50):
        for n in (0, 1, 2, 17, 60, 110):
            ours, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b and ours.random() == theirs.random(), (seed, n)

    class Reversing(random.Random):
        def shuffle(self, x):  # type: ignore[override]
            x.reverse()

    cards = list(range(5))
    shuffle(Reversing(0), cards)
    assert cards == [4, 3, 2, 1, 0]


def test_a_board_s_playout_loop_changes_no_list_a_decision_a_policy_or_another_state_holds():
    """The board's playout loop takes the covered spaces out of a list of its own: the pending decision of the state
    it came from, the state a clone was made of, and the lists a policy was given stay as they were."""
    game = game_of("njet-riogrande", 4)
    state = game.new_state()
    rng = random.Random(3)
    game.apply_chance(state, game.sample_chance(state, rng))
    d = state.pending
    assert d.step.kind == "board"
    before = list(d.actions)
    other = state.clone()
    assert other.progress.choices == before and other.progress.choices is not state.progress.choices
    game.playout(other, rng, round_end=True)
    assert d.actions == before and state.progress.choices == before and state.pending is d
    given = []

    def policy(_state, _seat, actions):
        given.append((actions, list(actions)))
        return len(actions) - 1

    game.playout(state, rng, policy, round_end=True)
    boards = [(held, copy) for held, copy in given if copy and type(copy[0]).__name__ == "Cover"]
    assert len(boards) > 10 and all(held == copy for held, copy in boards)
    assert d.actions == before
