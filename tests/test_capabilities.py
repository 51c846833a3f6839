"""Each general trick capability on its own, on a tiny made-up game (no bundled game involved)."""

from __future__ import annotations

import pytest

from interpreter.engine.compile import compile_game
from interpreter.harness.records import replay, write_record
from interpreter.harness.runner import play_game
from interpreter.rules.loader import load_rules

from .conftest import at_step

BASE = """\
trickbook: 1
name: tiny
seats: [N, E, S, W]
deck:
  cards:
    - suit: [x, y, z, w]
      rank: [1, 2, 3, 4, 5, 6]
players:
  PLAYERS
zones:
  hand: {per_seat: true, visible: owner}
  trick: {visible: all}
  won: {per_seat: true, visible: all}
  rest: {per_seat: true, visible: nobody}
  out: {visible: all}
game: {rounds: 2}
round:
  deal: {do: deal, hand: 6}
  tricks:
    do: tricks
    leader: left(round.dealer)
    strength: ["card.suit == led.suit", "card.rank"]
    to: won
EXTRA
  score: {do: score, points: "len(seat.won)"}
"""


def tiny(tmp_path, extra="", players="4: {}", count=4):
    path = tmp_path / "tiny.yaml"
    path.write_text(BASE.replace("EXTRA", extra).replace("PLAYERS", players))
    return compile_game(load_rules(path), count), path


def at_trick(game, hands, **values):
    return at_step(game, "tricks", dict(enumerate(hands)), dealer=len(hands) - 1, **values)


def play(game, state, label):
    game.apply(state, game.action_for_label(state, label))


def names(game, cards):
    return sorted(game.cards.labels[c] for c in cards)


# ------------------------------------------------------------------ automatic seats


def test_an_automatic_seat_takes_its_first_legal_action_and_is_never_asked(tmp_path):
    game, path = tiny(tmp_path, players="3: {automatic: [robot]}", count=3)
    assert game.seat_names == ["N", "E", "S", "robot"] and game.automatic == {3}
    asked = []
    out = play_game(game, seed=1, record=True, after_each=lambda s: asked.append(s.pending and s.pending.actor))
    assert 3 not in asked
    assert all(e.get("seat") != "robot" for e in out.record)       # derived, so not recorded
    record = tmp_path / "game.jsonl"
    write_record(record, out.record)
    assert replay(record, rules=str(path)).totals == out.totals
    assert out.record[0]["players"] == 3 and out.record[0]["seats"] == ["N", "E", "S", "robot"]


def test_an_automatic_seat_plays_the_first_card_of_its_hand_when_any_card_is_allowed(tmp_path):
    game, _ = tiny(tmp_path, players="3: {automatic: [robot]}", count=3)
    state = at_trick(game, [["x 1", "x 2"], ["y 1", "y 2"], ["z 1", "z 2"], ["w 6", "w 1"]])
    for lab in ("x 1", "y 1", "z 1"):
        play(game, state, lab)
    assert state.step_data["last"]["plays"][-1][0] == 3
    assert game.cards.labels[state.step_data["last"]["plays"][-1][1]] == "w 6"


def test_the_automatic_attribute_tells_the_automatic_seat(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(BASE.replace("EXTRA", "").replace("PLAYERS", "3: {automatic: [robot]}")
                    .replace('points: "len(seat.won)"', 'points: "100 if seat.automatic else 1"'))
    out = play_game(compile_game(load_rules(path), 3), seed=0)
    assert out.totals == [2, 2, 2, 200]


# ------------------------------------------------------------------ claims


CLAIM = "    claim: {label: mine, may: \"seat.index != 2\"}\n"


def claims_until_card(game, state, asked, call=None):
    while len(game.labels(state)) == 2 and "mine" in game.labels(state):
        seat = game.current(state)
        asked.append(seat)
        play(game, state, "mine" if seat == call else "no mine")


def test_claims_come_after_each_card_but_the_last_in_the_documented_order(tmp_path):
    game, _ = tiny(tmp_path, CLAIM)
    state = at_trick(game, [["x 1", "x 2"], ["x 3", "y 2"], ["x 4", "z 2"], ["x 5", "w 2"]])
    asked = []
    for lab in ("x 1", "x 3", "x 4", "x 5"):
        play(game, state, lab)
        claims_until_card(game, state, asked)
        asked.append("|")
    # seat 2 may not claim (may: seat.index != 2)
    assert asked == [0, "|", 1, 0, "|", 0, 1, "|", "|"]
    assert state.step_data["last"]["winner"] == 3


def test_a_claim_wins_the_trick_and_closes_the_claims_of_that_trick(tmp_path):
    game, _ = tiny(tmp_path, CLAIM)
    state = at_trick(game, [["x 1", "x 2"], ["x 3", "y 2"], ["x 4", "z 2"], ["x 5", "w 2"]])
    asked = []
    play(game, state, "x 1")
    claims_until_card(game, state, asked, call=0)
    for lab in ("x 3", "x 4", "x 5"):
        play(game, state, lab)
        claims_until_card(game, state, asked)
    assert asked == [0]
    assert state.step_data["last"]["winner"] == 0
    assert game.current(state) == 0


# ------------------------------------------------------------------ exchange


EXCHANGE = "    exchange: {match: \"card.suit == taken.suit and card.rank < taken.rank\"}\n"


def test_the_winner_may_swap_a_matching_hand_card_for_a_card_of_the_trick(tmp_path):
    game, _ = tiny(tmp_path, EXCHANGE)
    state = at_trick(game, [["x 1", "y 1"], ["x 6", "x 2"], ["x 4", "z 2"], ["y 5", "w 2"]])
    for lab in ("x 1", "x 6", "x 4", "y 5"):
        play(game, state, lab)
    assert game.current(state) == 1
    assert game.labels(state) == ["no exchange", "swap x 2 for x 6", "swap x 2 for x 4"]
    play(game, state, "swap x 2 for x 4")
    assert names(game, state.per_seat["hand"][1]) == ["x 4"]
    assert names(game, state.per_seat["won"][1]) == ["x 1", "x 2", "x 6", "y 5"]
    assert game.current(state) == 1


def test_no_exchange_is_offered_when_nothing_matches(tmp_path):
    game, _ = tiny(tmp_path, EXCHANGE)
    state = at_trick(game, [["x 1", "y 1"], ["x 6", "z 2"], ["x 4", "z 3"], ["y 5", "w 2"]])
    for lab in ("x 1", "x 6", "x 4", "y 5"):
        play(game, state, lab)
    assert game.current(state) == 1 and "no exchange" not in game.labels(state)


# ------------------------------------------------------------------ play_if and stuck


STUCK = "    play_if: \"card.suit != 'w' or len(trick) == 0\"\n    stuck: {to: out}\n"


def test_play_if_limits_the_cards_without_fallback_and_a_stuck_seat_ends_trick_play(tmp_path):
    game, _ = tiny(tmp_path, STUCK)
    state = at_trick(game, [["x 1", "y 1"], ["w 2", "x 2"], ["w 3", "w 4"], ["y 5", "w 5"]])
    play(game, state, "x 1")
    assert game.labels(state) == ["x 2"]               # no w card after the lead
    play(game, state, "x 2")
    # S holds only w cards: stuck. The trick and every hand are out, and the round is scored.
    assert state.round_number == 2
    assert state.round_results[0] == [0, 0, 0, 0]


def test_play_if_without_stuck_is_an_error(tmp_path):
    from interpreter.errors import RuleError

    with pytest.raises(RuleError, match="play_if needs stuck"):
        tiny(tmp_path, "    play_if: \"card.rank > 1\"\n")


# ------------------------------------------------------------------ split tricks


SPLIT = """    split:
      takes: 2
      second: {eligible: "card.suit != led.suit", strength: ["- card.rank"], equal_cards: first_wins}
      unclaimed: out
      leads: second
"""


def test_the_winner_chooses_cards_and_the_second_winner_takes_the_rest_and_leads(tmp_path):
    game, _ = tiny(tmp_path, SPLIT)
    state = at_trick(game, [["x 3", "y 1"], ["y 2", "y 3"], ["x 5", "z 3"], ["z 2", "w 2"]])
    for lab in ("x 3", "y 2", "x 5", "z 2"):
        play(game, state, lab)
    assert game.current(state) == 2
    play(game, state, "take y 2")
    play(game, state, "take x 3")
    assert names(game, state.per_seat["won"][2]) == ["x 3", "y 2"]
    assert names(game, state.per_seat["won"][1]) == ["x 5", "z 2"]  # y 2 and z 2 tie: the first played
    assert game.current(state) == 1


def test_without_a_second_winner_the_rest_is_unclaimed_and_the_winner_leads(tmp_path):
    game, _ = tiny(tmp_path, SPLIT)
    state = at_trick(game, [["x 3", "y 1"], ["x 2", "y 3"], ["x 5", "z 2"], ["x 1", "w 2"]])
    for lab in ("x 3", "x 2", "x 5", "x 1"):
        play(game, state, lab)
    play(game, state, "take x 5")
    play(game, state, "take x 3")
    assert names(game, state.shared["out"]) == ["x 1", "x 2"]
    assert game.current(state) == 2


# ------------------------------------------------------------------ keep


KEEP = "    keep: {by: suit, once: 3, choose: 1, rest: rest}\n"


def test_a_seat_keeps_one_value_once_its_cards_show_three_and_the_rest_go_aside(tmp_path):
    game, _ = tiny(tmp_path, KEEP)
    state = at_trick(game, [["x 3", "y 1"], ["y 2", "y 3"], ["x 5", "z 2"], ["z 4", "w 2"]])
    for lab in ("x 3", "y 2", "x 5", "z 4"):
        play(game, state, lab)
    assert game.current(state) == 2
    assert game.labels(state) == ["keep x", "keep y", "keep z"]
    play(game, state, "keep y")
    assert names(game, state.per_seat["won"][2]) == ["y 2"]
    assert names(game, state.per_seat["rest"][2]) == ["x 3", "x 5", "z 4"]
    assert game.current(state) == 2


@pytest.mark.parametrize("extra", [CLAIM, EXCHANGE, STUCK, SPLIT, KEEP, CLAIM + EXCHANGE, SPLIT + KEEP])
def test_random_games_with_each_capability_conserve_cards_and_replay(tmp_path, extra):
    game, path = tiny(tmp_path, extra)

    def conserved(state):
        assert len(state.all_cards()) == len(game.deck)

    for seed in range(20):
        out = play_game(game, seed=seed, record=True, after_each=conserved)
        record = tmp_path / f"{seed}.jsonl"
        write_record(record, out.record)
        assert replay(record, rules=str(path)).totals == out.totals
