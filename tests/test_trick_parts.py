"""The parts a trick is made of, each on its own and composed, on tiny made-up games (no bundled game).

Obligations (follow, lead, {must, holding, otherwise}), several source zones, which card sets the
suit (led), who may win (can_win), claims (won_by, with a choice between plays), takers with
shares, routing of single cards (captures), routing while the trick is shared, steps after the
trick (an exchange), seats that sit out, who leads next; refusals of combinations that cannot
work; and random games of every composition that keep every card and replay from their record.
"""

from __future__ import annotations

import random

import pytest

from interpreter.conformance.battery import lockstep
from interpreter.engine.compile import compile_game
from interpreter.engine.state import CHANCE
from interpreter.engine.steps.action_types import Play, Take
from interpreter.harness.runner import play_game
from interpreter.match.records import replay, write_record
from interpreter.rules.loader import load_rules

from .conftest import at_step, card, random_decisions
from .test_steps import E, N, S, W, deal, indent, labels, line_of, make, names, play, refusal, rules, write

DEAL = "deal: {do: deal, hand: 3}"


def tricks(extra: str = "", follow: str = '"card.suit == led.suit"') -> str:
    """A tricks step: left of the dealer leads, follow suit, the highest card of the led suit wins."""
    return ("tricks:\n  do: tricks\n  leader: left(round.dealer)\n"
            f"  follow: {follow}\n" '  strength: ["card.suit == led.suit", "card.rank"]\n  to: won\n'
            + (indent(extra) if extra.strip() else ""))


def at_trick(game, hands: list[list[str]], **values):
    """A state at the first trick, N dealing (so E leads), with these hands for N, E, S, W."""
    return at_step(game, "tricks", dict(enumerate(hands)), dealer=N, **values)


def trick_labels(game, state) -> list[str]:
    return [game.cards.labels[c] for c in state.shared["trick"]]


# ====================================================================== obligations


def test_follow_as_a_condition_binds_only_a_seat_that_can_follow(tmp_path):
    game = make(tmp_path, DEAL, tricks())
    state = at_trick(game, [["y3", "z3", "z4"], ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "x4", "y4"]])
    play(game, state, "x1")
    assert labels(game, state) == ["x2"]                      # S holds x: it must follow
    play(game, state, "x2")
    assert labels(game, state) == ["x3", "x4"]
    play(game, state, "x4")
    assert labels(game, state) == ["y3", "z3", "z4"]          # N holds no x: anything
    play(game, state, "z3")
    assert state.progress.winner == W and game.current(state) == W


def test_must_holding_binds_only_a_seat_holding_the_trigger(tmp_path):
    follow = '{must: "card.suit == led.suit or card.rank == led.rank", holding: "card.suit == led.suit"}'
    game = make(tmp_path, DEAL, tricks(follow=follow))
    state = at_trick(game, [["y3", "z1", "z4"], ["x1", "y4", "z3"], ["x2", "y1", "z2"], ["y2", "x3", "x4"]])
    play(game, state, "x1")
    assert labels(game, state) == ["x2", "y1"]                # the led suit, or the led rank
    play(game, state, "y1")
    play(game, state, "x4")
    assert labels(game, state) == ["y3", "z1", "z4"]          # holds no x: may play anything, not only z1


def test_a_rule_with_otherwise_end_ends_trick_play_when_a_seat_cannot_play(tmp_path):
    follow = '{must: "card.suit != \'z\'", otherwise: end}'
    game = make(tmp_path, DEAL, tricks(follow=follow), 'score: {do: score, points: "len(seat.won)"}')
    state = at_trick(game, [["x3", "y3", "x4"], ["x1", "y1", "y4"], ["z1", "z2", "z3"], ["x2", "y2", "z4"]])
    play(game, state, "x1")
    assert state.finished                                     # S holds only z: trick play ends, the round is scored
    assert trick_labels(game, state) == ["x1"]                # the trick stays on the table
    assert state.round_results == [[0, 0, 0, 0]]
    assert names(game, state.per_seat["hand"][S]) == ["z1", "z2", "z3"]


def test_without_otherwise_end_a_seat_that_cannot_meet_the_rule_plays_anything(tmp_path):
    game = make(tmp_path, DEAL, tricks(follow='"card.suit != \'z\'"'))
    state = at_trick(game, [["x3", "y3", "x4"], ["x1", "y1", "y4"], ["z1", "z2", "z3"], ["x2", "y2", "z4"]])
    play(game, state, "x1")
    assert labels(game, state) == ["z1", "z2", "z3"]


def test_lead_rules_apply_in_order_to_the_card_that_leads(tmp_path):
    game = make(tmp_path, DEAL, tricks("lead: [\"card.suit != 'z'\", \"card.rank > 1\"]"))
    state = at_trick(game, [["x2", "y2", "z2"], ["x1", "x3", "z4"], ["z1", "y3", "y4"], ["y1", "x4", "z3"]])
    assert labels(game, state) == ["x3"]                      # not z if it can; then above 1 if it can
    play(game, state, "x3", "z1", "x4", "x2")
    assert game.current(state) == W
    assert labels(game, state) == ["y1"]                      # no card that is not z is above 1: that rule yields


# ====================================================================== where cards come from, what sets the suit


def test_cards_are_played_from_two_zones_with_labels_that_say_where_from(tmp_path):
    game = make(tmp_path, DEAL, """\
        reveal:
          do: choose
          options: seat.hand
          move_to: revealed
        """, tricks("from: [hand, revealed]"), zones="revealed: {per_seat: true, visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"], ["x4", "y4", "z4"])
    play(game, state, "x2", "y3", "z4", "x1")                 # E, S, W, N each reveal a card
    assert labels(game, state) == ["y2", "z2", "x2 from revealed"]
    assert state.pending.actions[-1] == Play(game.cards.by_label()["x2"][0], 1)
    play(game, state, "x2 from revealed")
    assert labels(game, state) == ["x3"]                      # follow suit looks at both zones
    play(game, state, "x3", "x4")
    assert labels(game, state) == ["x1 from revealed"]        # N's only x card lies open
    play(game, state, "x1 from revealed")
    assert state.per_seat["revealed"] == [[], [], [card(game, "y3")], [card(game, "z4")]]
    assert names(game, state.per_seat["won"][W]) == ["x1", "x2", "x3", "x4"]
    assert labels(game, state) == ["y4", "z4 from revealed"]


JESTERS = """\
deck:
  label: "{suit}{rank}"
  cards:
    - suit: [x, y]
      rank: [1, 2, 3, 4]
    - suit: [j]
      rank: [0, 0, 0, 0]
"""


def test_a_led_expression_lets_the_first_card_that_is_not_a_jester_set_the_suit(tmp_path):
    game = make(tmp_path, DEAL, """\
        tricks:
          do: tricks
          leader: left(round.dealer)
          led: "first([c for c in trick if c.suit != 'j'])"
          follow: "led == none or card.suit == led.suit or card.suit == 'j'"
          strength: ["card.suit != 'j'", "led != none and card.suit == led.suit", "card.rank"]
          to: won
        """, deck=JESTERS)
    state = at_trick(game, [["y1", "x4", "j0"], ["j0", "x1", "y4"], ["y2", "x2", "j0"], ["x3", "y3", "j0"]])
    play(game, state, "j0")
    assert labels(game, state) == ["y2", "x2", "j0"]          # no suit yet: anything
    play(game, state, "y2")
    assert labels(game, state) == ["y3", "j0"]                # the y2 set the suit
    play(game, state, "y3")
    assert labels(game, state) == ["y1", "j0"]
    play(game, state, "y1")
    assert state.progress.winner == W


def test_can_win_skips_seats_that_may_not_win_and_the_leader_takes_a_trick_nobody_may_win(tmp_path):
    game = make(tmp_path, DEAL, tricks('can_win: "seat.tricks < 1"'))
    state = at_trick(game, [["x3", "y3", "z3"], ["x1", "y1", "z1"], ["x4", "y4", "z4"], ["x2", "y2", "z2"]])
    state.counters["tricks"][S] = 1
    play(game, state, "x1", "x4", "x2", "x3")
    assert state.progress.winner == N                         # S played the best card but may not win
    state.counters["tricks"][:] = [1, 1, 1, 1]
    play(game, state, "y3", "y1", "y4", "y2")
    assert state.progress.winner == N                         # nobody may win: the leader takes it


# ====================================================================== claims


CLAIMS = """\
won_by: round.claimant
per_trick: [claimant]
between_plays:
  claim:                              # the seat that just played first, then the earlier ones
    do: choose
    when: "round.claimant == none"
    who: "[player] + [p for p in trick_seats if p != player]"
    options: "['mine']"
    pass: no
    set_chooser: claimant
    until: "round.claimant != none"
"""


def claims(game, state, claimer=None) -> list[int]:
    """Answer the claims now pending (``claimer`` claims, others pass); the seats asked, in order."""
    asked = []
    while state.pending.step.name == "claim":
        asked.append(game.current(state))
        play(game, state, "mine" if game.current(state) == claimer else "no")
    return asked


def test_claims_are_asked_after_each_card_but_the_last_the_player_first(tmp_path):
    game = make(tmp_path, DEAL, tricks(CLAIMS))
    state = at_trick(game, [["x4", "y4", "z4"], ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"]])
    asked = []
    for label in ("x1", "x2", "x3", "x4"):
        assert state.pending.kind == "play"
        play(game, state, label)
        asked.append(claims(game, state))
    assert asked == [[E], [S, E], [W, E, S], []]
    assert state.progress.winner == N and game.current(state) == N


def test_a_claim_wins_the_trick_whatever_is_played_and_ends_the_claims_of_that_trick(tmp_path):
    game = make(tmp_path, DEAL, tricks(CLAIMS))
    state = at_trick(game, [["x4", "y4", "z4"], ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"]])
    play(game, state, "x1")
    assert claims(game, state, claimer=E) == [E]
    play(game, state, "x2", "x3", "x4")                       # no more claims this trick
    assert state.progress.winner == E and game.current(state) == E
    assert state.counters["tricks"] == [0, 1, 0, 0]
    play(game, state, "y1")
    assert claims(game, state) == [E]                         # the claim went back to none: asked again


# ====================================================================== takers and routing


SHARES = """\
takers:
  - takes: 2                          # the winner chooses two cards
  - strength: ["- card.rank"]         # the lowest card of another suit takes the rest
    eligible: "card.suit != led.suit"
    equal_cards: first_wins
unclaimed: out
next_leader: "takers[1] if takers[1] != none else winner"
"""


def test_the_winner_chooses_its_share_and_a_second_taker_takes_the_rest_and_leads(tmp_path):
    game = make(tmp_path, DEAL, tricks(SHARES), zones="out: {visible: all}")
    state = at_trick(game, [["z2", "y4", "z4"], ["x3", "y1", "z1"], ["y2", "y3", "z3"], ["x4", "x1", "x2"]])
    play(game, state, "x3", "y2", "x4", "z2")
    d = state.pending
    assert (d.kind, d.actor) == ("take", W) and all(isinstance(a, Take) for a in d.actions)
    assert labels(game, state) == ["take x3", "take y2", "take x4", "take z2"]
    play(game, state, "take y2", "take x3")
    assert names(game, state.per_seat["won"][W]) == ["x3", "y2"]
    assert names(game, state.per_seat["won"][S]) == ["x4", "z2"]  # y2 and z2 tie: the first played is S's
    assert state.progress.takers == [W, S] and game.current(state) == S


def test_without_a_second_taker_the_rest_is_unclaimed_and_the_winner_leads(tmp_path):
    game = make(tmp_path, DEAL, tricks(SHARES), zones="out: {visible: all}")
    state = at_trick(game, [["x3", "y4", "z4"], ["x1", "y1", "z1"], ["x2", "y3", "z3"], ["x4", "y2", "z2"]])
    play(game, state, "x1", "x2", "x4", "x3", "take x4", "take x1")
    assert names(game, state.shared["out"]) == ["x2", "x3"]
    assert state.progress.takers == [W, None] and game.current(state) == W


ROUTE = """\
route:
  - when: "card.suit == 'z'"                    # z cards leave the game
    to: out
  - when: "card.rank == 1 and player != taker"  # other seats' 1s are captured, face up
    to: captured
"""


def test_route_sends_single_cards_to_the_first_matching_zone(tmp_path):
    game = make(tmp_path, DEAL, tricks(ROUTE, follow='"true"'),
                zones="out: {visible: all}\ncaptured: {per_seat: true, visible: all}")
    state = at_trick(game, [["y1", "y4", "z4"], ["x2", "y2", "z2"], ["x1", "y3", "z3"], ["x4", "z1", "x3"]])
    play(game, state, "x2", "x1", "x4", "z4")
    assert state.progress.winner == W
    assert names(game, state.per_seat["captured"][W]) == ["x1"]
    assert names(game, state.per_seat["won"][W]) == ["x2", "x4"]
    assert names(game, state.shared["out"]) == ["z4"]
    play(game, state, "z1", "y4", "y2", "y3")                 # W leads z1 and wins its own 1: not a capture
    assert names(game, state.shared["out"]) == ["z1", "z4"]
    assert names(game, state.per_seat["captured"][N]) == []


@pytest.mark.parametrize("chosen, captured", [("take x1", {W: ["x1"], S: []}), ("take x3", {W: [], S: ["x1"]})])
def test_cards_are_routed_while_the_trick_is_shared_for_whichever_seat_takes_them(tmp_path, chosen, captured):
    """The engine before the rewrite never captured when a trick was split between takers."""
    extra = "\n".join(SHARES.replace("takes: 2", "takes: 1").splitlines()[:5]) + "\nunclaimed: out\n" + ROUTE
    game = make(tmp_path, DEAL, tricks(extra), zones="out: {visible: all}\ncaptured: {per_seat: true, visible: all}")
    state = at_trick(game, [["x1", "y4", "z4"], ["x3", "y1", "z1"], ["y2", "y3", "z3"], ["x4", "x2", "z2"]])
    play(game, state, "x3", "y2", "x4", "x1", chosen)
    assert state.progress.takers == [W, S]
    for seat, cards in captured.items():
        assert names(game, state.per_seat["captured"][seat]) == cards
    assert sorted(names(game, state.per_seat["won"][W]) + names(game, state.per_seat["won"][S])) == \
        sorted({"x1", "x3", "x4", "y2"} - {c for cs in captured.values() for c in cs})


# ====================================================================== after the trick, who plays, who leads


EXCHANGE = """\
per_trick: [swap]
after_trick:
  exchange:                           # a hand card for a higher card of its suit from the trick
    do: choose
    who: winner
    options: "[p for p in pairs(winner.hand, last_trick) if p[0].suit == p[1].suit and p[0].rank < p[1].rank]"
    pass: no exchange
    label: "'swap ' + value[0].label + ' for ' + value[1].label"
    set: swap
  give: {do: move, when: "round.swap != none", cards: "round.swap[0]", to: won, owner: winner}
  take: {do: move, when: "round.swap != none", cards: "round.swap[1]", to: hand, owner: winner}
"""


def test_after_the_trick_the_winner_may_exchange_a_hand_card_for_a_card_of_the_trick(tmp_path):
    game = make(tmp_path, DEAL, tricks(EXCHANGE))
    state = at_trick(game, [["x3", "y4", "z4"], ["x1", "y1", "z1"], ["x4", "x2", "z2"], ["y2", "y3", "z3"]])
    play(game, state, "x1", "x4", "y2", "x3")
    assert (state.pending.kind, game.current(state)) == ("choose", S)
    assert labels(game, state) == ["no exchange", "swap x2 for x4", "swap x2 for x3"]
    play(game, state, "swap x2 for x3")
    assert names(game, state.per_seat["hand"][S]) == ["x3", "z2"]
    assert names(game, state.per_seat["won"][S]) == ["x1", "x2", "x4", "y2"]
    assert state.pending.kind == "play" and game.current(state) == S


def test_a_choice_with_swap_exchanges_the_two_cards_of_the_pair_in_one_step(tmp_path):
    swap = """\
after_trick:
  exchange:
    do: choose
    who: winner
    options: "[p for p in pairs(winner.hand, last_trick) if p[0].suit == p[1].suit and p[0].rank < p[1].rank]"
    pass: no exchange
    label: "'swap ' + value[0].label + ' for ' + value[1].label"
    swap: true
"""
    game = make(tmp_path, DEAL, tricks(swap))
    state = at_trick(game, [["x3", "y4", "z4"], ["x1", "y1", "z1"], ["x4", "x2", "z2"], ["y2", "y3", "z3"]])
    play(game, state, "x1", "x4", "y2", "x3")
    assert labels(game, state) == ["no exchange", "swap x2 for x4", "swap x2 for x3"]
    play(game, state, "swap x2 for x4")
    assert names(game, state.per_seat["hand"][S]) == ["x4", "z2"]
    assert names(game, state.per_seat["won"][S]) == ["x1", "x2", "x3", "y2"]


def test_no_exchange_is_offered_when_nothing_matches(tmp_path):
    game = make(tmp_path, DEAL, tricks(EXCHANGE))
    state = at_trick(game, [["x3", "y4", "z4"], ["x1", "y1", "z1"], ["x4", "y2", "z2"], ["x2", "y3", "z3"]])
    play(game, state, "x1", "x4", "x2", "x3")
    assert state.pending.kind == "play" and game.current(state) == S


def test_a_partner_sits_out_and_the_others_play_three_card_tricks(tmp_path):
    game = make(tmp_path, DEAL, """\
        sit_out:
          do: set
          round: {out: "left(left(round.dealer))"}     # the dealer's partner
        """, tricks('seats: "[s for s in seats if s != round.out]"'),
        'score: {do: score, points: "seat.tricks"}')
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"], ["x4", "y4", "z4"])
    asked, sizes = [], []
    while state.pending is not None and state.pending.kind == "play":
        asked.append(game.current(state))
        game.apply(state, state.pending.actions[0])
        if state.progress is not None and getattr(state.progress, "last", None):
            sizes.append(len(state.progress.last))
    assert S not in asked and len(asked) == 9
    assert set(sizes) == {3}
    assert names(game, state.per_seat["hand"][S]) == ["x3", "y3", "z3"]
    assert sum(state.round_results[0]) == 3


def test_next_leader_says_who_leads_the_next_trick(tmp_path):
    game = make(tmp_path, DEAL, tricks('next_leader: "left(winner)"'))
    state = at_trick(game, [["x4", "y4", "z4"], ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"]])
    play(game, state, "x1", "x2", "x3", "x4")
    assert state.progress.winner == N and game.current(state) == E


# ====================================================================== refusals


@pytest.mark.parametrize("extra, where, message", [
    ("takers: [{takes: 1}, {takes: 1}]\nunclaimed: out", "takers:",
     "a taker after the winner needs its own strength"),
    ("takers: [{takes: 1}, {strength: [\"card.rank\"]}]", "takers:",
     "a taker found by an ordering may be missing: say where its cards go with unclaimed: ZONE"),
    ("takers: [{strength: [\"card.rank\"]}]\nunclaimed: out", "takers:",
     "the first taker is the trick's winner (found by the trick's strength); give strength only to later takers"),
    ("takers: [{takes: 2}]", "takers:", "the last taker chooses a number of cards, so some may be left: take the "
     "rest with a later taker or say where they go with unclaimed: ZONE"),
    ("per_trick: [claimant]", "per_trick:", "unknown round value 'claimant'"),
    ("led: \"len(trick)\"", "led:", "expected a card or none, found a number"),
    ("route: [{when: \"card.rank == 1\", to: nowhere}]", "route:", "unknown zone 'nowhere' (zones: hand, out, "
     "trick, won)"),
    ("route: [{when: \"card.rank == 1\", to: out, owner: player}]", "route:",
     "zone 'out' is shared; owner: is only for per-seat zones"),
    ("route: [{when: \"card.rank == 1\", to: won, owner: card.rank}]", "route:",
     "expected a seat, found value"),
])
def test_trick_parts_that_cannot_work_together_are_refused_with_their_position(tmp_path, extra, where, message):
    text = rules(DEAL, tricks(extra), zones="out: {visible: all}")
    line, got = refusal(tmp_path, text)
    assert got == message
    assert line == line_of(text, where)


# ====================================================================== composed, random, replayed


COMPOSED = {
    "claims": CLAIMS,
    "shares": SHARES,
    "route": ROUTE,
    "shares+route": SHARES + ROUTE,
    "exchange": EXCHANGE,
    "claims+exchange": CLAIMS.replace("[claimant]", "[claimant, swap]") + EXCHANGE.replace("per_trick: [swap]\n", ""),
    "lead+can_win+next_leader": "lead: \"card.rank > 1\"\ncan_win: \"seat.tricks < 2\"\nnext_leader: left(winner)",
}


@pytest.mark.parametrize("name", sorted(COMPOSED))
def test_random_games_of_each_composition_keep_every_card_and_replay(tmp_path, name):
    text = rules(DEAL, tricks(COMPOSED[name]), 'score: {do: score, points: "len(seat.won)"}', game="rounds: 2",
                 zones="out: {visible: all}\ncaptured: {per_seat: true, visible: all}")
    path = write(tmp_path, text)
    game = compile_game(load_rules(path), 4)

    def conserved(state):
        assert sorted(state.all_cards()) == sorted(game.deck)

    for seed in range(8):
        out = play_game(game, seed=seed, record=True, after_each=conserved)
        record = tmp_path / f"{seed}.jsonl"
        write_record(record, out.record)
        assert replay(record, rules=str(path)).totals == out.totals


def test_a_clone_in_the_middle_of_a_shared_trick_or_a_claim_plays_on_by_itself(tmp_path):
    game = make(tmp_path, DEAL, tricks(CLAIMS + SHARES + ROUTE),
                zones="out: {visible: all}\ncaptured: {per_seat: true, visible: all}")
    rng = random.Random(4)
    state = game.new_state()
    kinds = set()
    while not state.finished:
        if state.pending.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        kinds.add(state.pending.kind)
        copy = state.clone()
        before = (copy.pending.kind, copy.pending.actor, game.labels(copy), repr(copy.shared), repr(copy.per_seat))
        game.apply(state, rng.choice(state.pending.actions))
        assert (copy.pending.kind, copy.pending.actor, game.labels(copy), repr(copy.shared),
                repr(copy.per_seat)) == before
        game.apply(copy, copy.pending.actions[0])
    assert kinds == {"play", "choose", "take"}


def test_a_play_rule_true_of_every_card_is_no_rule(tmp_path):
    """A rule that a constant makes true of every card allows every card: it is left out, so the follow rule
    before it is the trick's one rule: a seat follows suit when it can, else plays any card, on the checked path
    and in playouts alike."""
    game = make(tmp_path, DEAL, tricks(follow='["card.suit == led.suit", "not (players == 3 and card.rank > 1) '
                                              'or card.rank > 2"]'), game="rounds: 4")
    step = next(s for s in game.steps if s.kind == "tricks")
    assert [r.must.text for r in step.follow_rules] == ["card.suit == led.suit"]
    suit = {c: label[0] for c, label in enumerate(game.cards.labels)}
    rng, followed, free = random.Random(5), 0, 0
    state = game.new_state()
    for d in random_decisions(game, state, rng):
        hand, trick = state.per_seat["hand"][d.actor], state.shared["trick"]
        if trick:
            same = [c for c in hand if suit[c] == suit[trick[0]]]
            assert sorted(a.card for a in d.actions) == sorted(same or hand)
            followed += bool(same) and len(same) < len(hand)
            free += not same
        game.apply(state, rng.choice(d.actions))
    assert followed and free
    for seed in range(3):
        lockstep(game, seed)


def test_a_led_rule_may_read_round_values(tmp_path):
    """``led`` binds ``trick`` and reads the state like any expression: it was evaluated without the state and
    stopped with Python's words ("'$s'") as soon as it read a round value."""
    game = make(tmp_path, DEAL, tricks('led: "first([c for c in trick if c.rank != round.number])"',
                                       follow='"led == none or card.suit == led.suit"'))
    rng = random.Random(2)
    state = game.new_state()
    while not state.finished:
        if state.pending.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, rng.choice(game.legal_actions(state)))
    assert sum(len(w) for w in state.per_seat["won"]) == 12
