"""Each general round step on its own, on tiny made-up games written here (no bundled game involved).

choose (bids, auctions, simultaneous choices, counts, auto, move_to), move, deal, set, teams,
seats with a role and a policy, board; the kinds of decisions and the typed actions; the
refusals of ``trickbook validate``; and the defects fixed with the rewrite (clones, narration,
defines).
"""

from __future__ import annotations

import dataclasses
import random
import re
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main, validate_file
from interpreter.engine.compile import compile_game
from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE
from interpreter.engine.steps.action_types import Choice, Cover, Pass, Play, Stop, Take
from interpreter.engine.steps.words import third_person
from interpreter.errors import GameError, IllegalAction, RuleError
from interpreter.harness.runner import play_game
from interpreter.match.records import replay, write_record
from interpreter.rules.loader import load_rules

from .conftest import card

N, E, S, W = range(4)

DECK = """\
deck:
  label: "{suit}{rank}"
  cards:
    - suit: [x, y, z]
      rank: [1, 2, 3, 4]
"""

ZONES = """\
zones:
  hand: {per_seat: true, visible: owner}
  trick: {visible: all}
  won: {per_seat: true, visible: all}
"""


def indent(text: str, by: int = 2) -> str:
    return textwrap.indent(textwrap.dedent(text).strip("\n"), " " * by) + "\n"


def rules(*steps: str, players: str = "4: {}", zones: str = "", deck: str = DECK, game: str = "rounds: 1",
          top: str = "") -> str:
    """A whole rule file: four seats N, E, S, W, a 12-card deck x1..z4 (label suit + rank), the zones
    hand, trick and won plus ``zones``, and the round's ``steps`` (YAML pieces, each as under round:)."""
    return ("trickbook: 1\nname: tiny\nseats: [N, E, S, W]\n" + deck
            + "players:\n" + indent(players) + ZONES + (indent(zones) if zones else "")
            + (textwrap.dedent(top).strip("\n") + "\n" if top else "")
            + "game:\n" + indent(game) + "round:\n" + "".join(indent(step) for step in steps))


DEAL_3 = "deal: {do: deal, hand: 3}"

TRICKS = """\
tricks:
  do: tricks
  leader: left(round.dealer)
  strength: ["card.suit == led.suit", "card.rank"]
  to: won
"""


def write(tmp_path: Path, text: str, name: str = "tiny.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def make(tmp_path: Path, *steps: str, count: int = 4, **kw):
    """Compile the rule file of ``rules(*steps, **kw)`` for ``count`` players."""
    return compile_game(load_rules(write(tmp_path, rules(*steps, **kw))), count)


def refusal(tmp_path: Path, text: str) -> tuple[int, str]:
    """(line, message) of the one error ``trickbook validate`` reports for the rule file ``text``."""
    path = write(tmp_path, text, "bad.yaml")
    errors = validate_file(str(path))
    assert len(errors) == 1, errors
    m = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): error: (.*)", errors[0])
    assert m, errors[0]
    assert main(["validate", str(path)]) == 1
    return int(m.group(1)), m.group(3)


def line_of(text: str, needle: str) -> int:
    """The line (from 1) of the first line of ``text`` containing ``needle``."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def deal(game, state, *hands: list[str], rest: tuple[str, ...] = ()) -> None:
    """Apply the pending deal: seat i gets ``hands[i]`` (labels); the stock gets ``rest`` on top, then the others."""
    assert state.pending.kind == "chance"
    taken: set[int] = set()
    order = [card(game, lab, taken) for hand in hands for lab in hand]
    order += [card(game, lab, taken) for lab in rest]
    order += [c for c in game.deck if c not in taken]
    game.apply_chance(state, order)


def play(game, state, *labels: str) -> None:
    for label in labels:
        game.apply(state, game.action_for_label(state, label))


def labels(game, state) -> list[str]:
    return game.labels(state)


def names(game, cards) -> list[str]:
    return sorted(game.cards.labels[c] for c in cards)


def finish_round(game, state) -> None:
    """Play the first legal action until the round changes (or the game ends)."""
    number = state.round_number
    rng = random.Random(0)
    while not state.finished and state.round_number == number:
        if state.pending.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, state.pending.actions[0])


def asked(state) -> int:
    return state.pending.actor


# ====================================================================== choose: bids and auctions


AUCTION = """\
deal: {do: deal, hand: 3}
bid:
  do: choose
  options: "range(0, len(seat.hand) + 1)"                                 # 0 .. hand size
  allowed: "value > max([h.value for h in history] + [-1])"               # higher than the current bid
  pass: pass
  repeat: true
  until: "passes == players"                                               # a full circle of passes
  set: bid
  set_chooser: bidder
  verb: bid
"""


def test_a_bid_is_a_number_of_tricks_from_0_to_the_hand_size_and_higher_than_the_current_bid(tmp_path):
    game = make(tmp_path, AUCTION, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert asked(state) == E                                  # left of the dealer N
    assert labels(game, state) == ["pass", "0", "1", "2", "3"]
    play(game, state, "1")
    assert asked(state) == S and labels(game, state) == ["pass", "2", "3"]
    play(game, state, "3")
    # nobody can bid higher than 3: the others are not asked, which counts as passing; so is S itself
    assert state.pending.step.name == "tricks"
    assert (state.vars["bid"], state.vars["bidder"]) == (3, S)


def test_an_auction_goes_round_again_until_a_full_circle_of_passes(tmp_path):
    game = make(tmp_path, AUCTION, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    order = []
    while state.pending.step.name == "bid":
        order.append(asked(state))
        play(game, state, "1" if not order[:-1] else "pass")
    assert order == [E, S, W, N, E]                           # E bid, then four passes: E is asked again
    assert (state.vars["bid"], state.vars["bidder"]) == (1, E)


def test_the_last_bidder_may_not_make_the_bids_add_up_to_the_tricks(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        bid:
          do: choose
          options: "[0, 1, 2, 3]"
          allowed: "len(history) < players - 1 or sum(h.value for h in history) + value != len(seat.hand)"
          set_seat: bid
        total:
          do: set
          round: {bids: "sum(s.bid for s in seats)"}
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    play(game, state, "1", "0", "1")
    assert asked(state) == N and labels(game, state) == ["0", "2", "3"]     # 1 would make 3 = the tricks
    play(game, state, "2")
    assert state.seat_vars["bid"] == [2, 1, 0, 1]
    assert state.vars["bids"] == 4


def test_a_bid_may_be_at_most_one_more_than_the_highest_so_far(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        bid:
          do: choose
          options: "[0, 1, 2, 3]"
          allowed: "value <= max([h.value for h in history] + [0]) + 1"
          set_seat: bid
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert labels(game, state) == ["0", "1"]
    play(game, state, "1")
    assert labels(game, state) == ["0", "1", "2"]
    play(game, state, "0")
    assert labels(game, state) == ["0", "1", "2"]
    play(game, state, "2")
    assert labels(game, state) == ["0", "1", "2", "3"]


REVEAL_AUCTION = """\
deal: {do: deal, hand: 3}
auction:
  do: choose
  options: seat.hand
  count: "len(seat.hand)"                                   # as many as the seat likes ...
  # ... but its total may be at most one more than the largest total before this bid
  allowed: "len(seat.revealed) + 1 <= max([len(s.revealed) for s in seats if s != seat]
                                          + [len(seat.revealed) - len(picked)]) + 1"
  move_to: revealed
  pass: pass
  stop: done
  repeat: true
  until: "passes == players"                                # a full circle of passes
  verb: reveal
"""


def test_a_turn_of_one_or_more_picks_ends_with_stop_which_is_not_a_pass(tmp_path):
    game = make(tmp_path, REVEAL_AUCTION, TRICKS, zones="revealed: {per_seat: true, visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert asked(state) == E and labels(game, state) == ["pass", "y1", "y2", "y3"]
    play(game, state, "y1")                                   # one card is the most: E's turn is over
    assert asked(state) == S and labels(game, state) == ["pass", "z1", "z2", "z3"]
    play(game, state, "z1")
    assert asked(state) == S and labels(game, state) == ["done", "z2", "z3"]   # no pass once a card is out
    play(game, state, "z2")                                   # two: one more than E's one
    play(game, state, "pass", "pass")                         # W, N
    assert asked(state) == E and labels(game, state) == ["pass", "y2", "y3"]
    play(game, state, "y2")
    assert labels(game, state) == ["done", "y3"] and type(state.pending.actions[0]) is Stop
    play(game, state, "done")                                 # a stop, not a pass: the circle starts again
    play(game, state, "pass", "pass", "pass")                 # S, W, N
    assert state.pending.step.name == "auction" and asked(state) == E
    play(game, state, "pass")                                 # four passes in a row: the auction is over
    assert state.pending.step.name == "tricks"
    assert [len(x) for x in state.per_seat["revealed"]] == [0, 2, 2, 0]


def test_set_history_keeps_every_pick_in_order_and_observers_read_it_by_name(tmp_path):
    auction = REVEAL_AUCTION.replace("  verb: reveal", "  verb: reveal\n  set_history: bids")
    eklat = """\
        last: {do: set, round: {last_of_most: "last([h.seat for h in round.bids if len(h.seat.revealed) == 2])"}}
        """
    game = make(tmp_path, auction, eklat, TRICKS, zones="revealed: {per_seat: true, visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    play(game, state, "y1", "z1", "z2", "pass", "pass", "y2", "done", "pass", "pass")
    assert [h["seat"] for h in state.vars["bids"]] == [E, S, S, E]
    play(game, state, "x1", "done", "pass", "pass", "pass", "pass")   # N underbids last: not among the highest
    assert state.vars["last_of_most"] == E
    seen = observe(game, state, N)["values"]["bids"]
    assert seen[0] == {"seat": "E", "value": "y1"} and len(seen) == 5


def test_a_seat_with_no_card_left_to_reveal_passes_and_the_auction_still_ends(tmp_path):
    auction = REVEAL_AUCTION.replace("deal: {do: deal, hand: 3}", "deal: {do: deal, hand: 1, rest: stock}")
    game = make(tmp_path, auction, TRICKS, zones="revealed: {per_seat: true, visible: all}\nstock: {visible: nobody}")
    state = game.new_state()
    deal(game, state, ["x1"], ["y1"], ["z1"], ["x2"], rest=("x3", "x4", "y2", "y3", "y4", "z2", "z3", "z4"))
    play(game, state, "y1")                                   # E has no card left: count 0 from now on
    play(game, state, "z1", "x2", "x1")                       # S, W, N
    # every hand is empty: every seat passes without being asked, and four passes end the auction
    assert state.pending is None or state.pending.step.name != "auction"
    assert [len(x) for x in state.per_seat["revealed"]] == [1, 1, 1, 1]


def test_a_repeated_choice_that_asks_nobody_and_never_ends_stops_with_an_error_naming_the_step(tmp_path):
    looping = """\
        deal: {do: deal, hand: 3}
        round_and_round:
          do: choose
          options: seat.hand
          count: 0
          repeat: true
          until: "passes > 100"
        """
    text = rules(looping, TRICKS)
    game = make(tmp_path, looping, TRICKS)
    state = game.new_state()
    with pytest.raises(GameError, match="error: step 'round_and_round' goes round and round") as error:
        deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert str(error.value).startswith(f"{tmp_path / 'tiny.yaml'}:{line_of(text, 'repeat: true')}:")


def test_stop_and_pass_need_different_labels(tmp_path):
    text = rules(DEAL_3, REVEAL_AUCTION.replace("stop: done", "stop: pass").split("\n", 1)[1], TRICKS,
                 zones="revealed: {per_seat: true, visible: all}")
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "stop: pass") and message == "stop and pass need different labels"


def test_a_pass_leaves_the_seats_value_none_and_the_chooser_is_the_last_that_chose(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        trump:
          do: choose
          options: "['x', 'y', 'z']"
          pass: no thanks
          until: "len(history) > 0"
          set: trump
          set_seat: named
          set_chooser: maker
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert state.pending.actions[0] == Pass("no thanks")
    play(game, state, "no thanks", "y")
    assert state.pending.step.name == "tricks"                # until held: W and N are not asked
    assert (state.vars["trump"], state.vars["maker"]) == ("y", S)
    assert state.seat_vars["named"] == [None, None, "y", None]


def test_may_pass_says_who_may_pass_and_sticks_the_dealer(tmp_path):
    game = make(tmp_path, DEAL_3, """\
        trump:
          do: choose
          options: "['x', 'y', 'z']"
          pass: pass
          may_pass: "seat != round.dealer"
          until: "round.trump != none"
          set: trump
        """, TRICKS)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    for seat in (E, S, W):
        assert asked(state) == seat and labels(game, state) == ["pass", "x", "y", "z"]
        play(game, state, "pass")
    assert asked(state) == N and labels(game, state) == ["x", "y", "z"]      # the dealer must name one
    play(game, state, "z")
    assert state.vars["trump"] == "z"


# ====================================================================== choose: simultaneous, count, auto


def test_simultaneous_choices_are_hidden_from_the_other_seats_until_everyone_has_chosen(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        secret:
          do: choose
          options: "[0, 1, 2, 3]"
          simultaneous: true
          set_seat: bid
          set: last_bid
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    play(game, state, "2", "3")
    for viewer in (N, W, None):
        obs = observe(game, state, viewer)
        assert obs["choices"] == [["E", "(hidden)"], ["S", "(hidden)"]]
        assert "E" not in obs["seat_values"].get("bid", {}) and "last_bid" not in obs["values"]
    own = observe(game, state, E)
    assert own["choices"] == [["E", "2"], ["S", "(hidden)"]] and own["seat_values"]["bid"] == {"E": 2}
    play(game, state, "1", "0")
    obs = observe(game, state, W)                             # everyone has chosen: shown to all
    assert obs["seat_values"]["bid"] == {"N": 0, "E": 2, "S": 3, "W": 1}


def test_the_account_told_to_one_seat_does_not_give_away_the_others_simultaneous_choices(tmp_path):
    game = make(tmp_path, DEAL_3, """\
        secret:
          do: choose
          options: "[0, 1, 2, 3]"
          label: "'bid ' + text(value)"
          simultaneous: true
          set_seat: bid
        """, TRICKS)
    told: list[str] = []
    play_game(game, seed=1, narrate=told.append, viewer=S)
    choices = [t.strip() for t in told if " chooses " in t]
    assert len(choices) == 4
    assert choices[0] == "E chooses something" and choices[2:] == ["W chooses something", "N chooses something"]
    assert re.fullmatch(r"S chooses bid [0-3]", choices[1])


def test_in_a_simultaneous_choice_history_holds_only_the_seats_own_choices(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        secret:
          do: choose
          options: "[0, 1, 2, 3]"
          allowed: "value not in [h.value for h in history]"
          count: 2
          simultaneous: true
          set_seat: bids
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    play(game, state, "2")
    assert labels(game, state) == ["0", "1", "3"]             # its own pick is gone
    play(game, state, "3")
    assert labels(game, state) == ["0", "1", "2", "3"]        # S sees nothing of E's picks


def test_count_picks_several_values_one_decision_each_and_sets_lists(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        suits:
          do: choose
          who: round.dealer
          options: "['x', 'y', 'z']"
          allowed: "value not in picked"
          count: 2
          set: suits
          set_seat: suits
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert asked(state) == N and state.pending.prompt == "choose (2 to go)"
    play(game, state, "z")
    assert asked(state) == N and labels(game, state) == ["x", "y"]
    play(game, state, "x")
    assert state.vars["suits"] == ["z", "x"]
    assert state.seat_vars["suits"] == [["z", "x"], None, None, None]


def test_auto_takes_forced_choices_without_asking(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        discard:
          do: choose
          count: 2
          options: "[c for c in seat.hand if c.suit != 'z']"
          auto: true
          move_to: out
          set_seat: gone
        """, TRICKS, zones="out: {visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "x3", "y2"], ["x4", "z2", "z3"], ["z4", "y3", "y4"])
    # E has three cards to choose two from: it is asked, twice
    assert asked(state) == E and labels(game, state) == ["x2", "x3", "y2"]
    play(game, state, "x3")
    assert asked(state) == E and labels(game, state) == ["x2", "y2"]
    play(game, state, "y2")
    # S, W and N have to give every card they may: they are not asked
    assert state.pending.step.name == "tricks"
    assert names(game, state.shared["out"]) == ["x1", "x3", "x4", "y1", "y2", "y3", "y4"]
    gone = [names(game, g) for g in state.seat_vars["gone"]]
    assert gone == [["x1", "y1"], ["x3", "y2"], ["x4"], ["y3", "y4"]]


def test_a_seat_with_no_option_is_not_asked(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        show:
          do: choose
          options: "[c for c in seat.hand if c.suit == 'y']"
          set_seat: shown
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "x3", "z2"], ["x4", "y3", "y4"], ["z3", "z4", "y2"])
    seen = []
    while state.pending.step.name == "show":
        seen.append(asked(state))
        game.apply(state, state.pending.actions[0])
    assert seen == [S, W, N]                                  # E holds no y card
    assert state.seat_vars["shown"][E] is None


def test_move_to_moves_each_chosen_card_to_the_choosers_zone(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        discard:
          do: choose
          options: seat.hand
          move_to: cache
          verb: discard
        """, TRICKS, zones="cache: {per_seat: true, visible: owner}")
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "x3", "z2"], ["x4", "y3", "y4"], ["z3", "z4", "y2"])
    play(game, state, "x3", "y4", "z3", "y1")
    assert [names(game, c) for c in state.per_seat["cache"]] == [["y1"], ["x3"], ["y4"], ["z3"]]
    assert [len(h) for h in state.per_seat["hand"]] == [2, 2, 2, 2]
    assert state.pending.kind == "play"


# ====================================================================== move


TURN_UP = """\
deal: {do: deal, hand: 2, rest: stock}
turn_up:
  do: move
  cards: first(stock)
  to: turnup
trump:
  do: set
  round: {trump: "first(turnup).suit", stock_left: "len(stock)"}
order_up:
  do: choose
  who: left(round.dealer)
  options: "['order up']"
  pass: pass
  set_chooser: maker
pick_up:
  do: move
  when: "round.maker != none"
  cards: "first(turnup)"
  to: hand
  owner: round.dealer
"""


def test_the_top_card_of_the_stock_is_turned_up_and_read_by_name(tmp_path):
    game = make(tmp_path, TURN_UP, TRICKS, zones="stock: {visible: nobody}\nturnup: {visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "x2"], ["y1", "y2"], ["z1", "z2"], ["x3", "y3"], rest=("z4", "x4"))
    assert names(game, state.shared["turnup"]) == ["z4"]
    assert (state.vars["trump"], state.vars["stock_left"]) == ("z", 3)
    assert game.cards.labels[state.shared["stock"][0]] == "x4"
    play(game, state, "order up")
    assert names(game, state.per_seat["hand"][N]) == ["x1", "x2", "z4"]      # the dealer picks it up
    assert state.shared["turnup"] == []


def test_the_turned_up_card_stays_when_nobody_orders_it_up(tmp_path):
    game = make(tmp_path, TURN_UP, TRICKS, zones="stock: {visible: nobody}\nturnup: {visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "x2"], ["y1", "y2"], ["z1", "z2"], ["x3", "y3"], rest=("z4",))
    play(game, state, "pass")
    assert names(game, state.shared["turnup"]) == ["z4"] and len(state.per_seat["hand"][N]) == 2


PASSING = """\
deal: {do: deal, hand: 1, rest: stock}
choose_pass:
  do: choose
  options: seat.hand
  move_to: passing
  verb: pass
receive:
  do: move
  each: seats
  cards: seat.passing
  to: hand
  # left in round 1, right in round 2, across in round 3
  owner: "left(seat) if round.number == 1 else right(seat) if round.number == 2 else left(left(seat))"
"""


@pytest.mark.parametrize("rnd, to", [(1, [E, S, W, N]), (2, [W, N, E, S]), (3, [S, W, N, E])])
def test_cards_pass_left_right_or_across_by_round_number_all_at_once(tmp_path, rnd, to):
    game = make(tmp_path, PASSING, TRICKS, game="rounds: 3",
                zones="stock: {visible: nobody}\npassing: {per_seat: true, visible: owner}")
    state = game.new_state()
    for _ in range(rnd - 1):
        finish_round(game, state)
    assert state.round_number == rnd
    deal(game, state, ["x1"], ["x2"], ["x3"], ["x4"])
    play(game, state, *[["x1", "x2", "x3", "x4"][s] for s in [(state.dealer + 1 + i) % 4 for i in range(4)]])
    for seat, target in enumerate(to):
        assert names(game, state.per_seat["hand"][target]) == [f"x{seat + 1}"]
    assert all(not p for p in state.per_seat["passing"])


def test_move_from_zones_gathers_every_card_of_them(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 2, rest: stock}
        discard:
          do: choose
          options: seat.hand
          move_to: cache
        gather:
          do: move
          from: [stock, cache]
          to: box
        """, TRICKS, zones="stock: {visible: nobody}\ncache: {per_seat: true, visible: owner}\nbox: {visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "x2"], ["y1", "y2"], ["z1", "z2"], ["x3", "y3"], rest=("z3", "x4", "y4", "z4"))
    play(game, state, "y1", "z1", "x3", "x1")
    assert names(game, state.shared["box"]) == ["x1", "x3", "x4", "y1", "y4", "z1", "z3", "z4"]
    assert state.shared["stock"] == [] and all(not c for c in state.per_seat["cache"])
    assert [len(h) for h in state.per_seat["hand"]] == [1, 1, 1, 1]


def test_move_top_puts_the_cards_first(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 2, rest: stock}
        back:
          do: move
          cards: "first(seat.hand)"
          each: "[round.dealer]"
          to: stock
          top: true
        peek:
          do: set
          round: {top: "first(stock).label", bottom: "last(stock).label"}
        """, TRICKS, zones="stock: {visible: nobody}")
    state = game.new_state()
    deal(game, state, ["x1", "x2"], ["y1", "y2"], ["z1", "z2"], ["x3", "y3"], rest=("z3", "x4", "y4", "z4"))
    assert (state.vars["top"], state.vars["bottom"]) == ("x1", "z4")


# ====================================================================== deal


def test_the_hand_size_may_change_by_round_and_the_rest_goes_to_a_stock_of_readable_size(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: "round.number", rest: stock}
        count:
          do: set
          round: {stock_size: "len(stock)"}
          seats: {held: "len(seat.hand)"}
        """, TRICKS, game="rounds: 3", zones="stock: {visible: nobody}")
    state = game.new_state()
    seen = []
    for _ in range(3):
        game.apply_chance(state, game.sample_chance(state, random.Random(state.round_number)))
        seen.append((state.round_number, state.seat_vars["held"], state.vars["stock_size"]))
        assert len(state.all_cards()) == 12
        finish_round(game, state)
    assert seen == [(1, [1] * 4, 8), (2, [2] * 4, 4), (3, [3] * 4, 0)]
    assert state.finished


def test_a_deal_that_needs_more_cards_than_the_deck_has_fails_with_its_position(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: "round.number * 2", rest: stock}
        """, TRICKS, game="rounds: 3", zones="stock: {visible: nobody}")
    with pytest.raises(GameError, match=r"tiny.yaml:\d+:\d+: error: dealing 4 cards to 4 seats needs 16 cards, "
                       r"the deck has 12 \(round 2\)"):
        play_game(game, seed=0)


@pytest.mark.parametrize("hand, rest, message", [
    ("3 if round.number == 1 else 2", "", r"4 cards are left after the deal; say where they go with rest: ZONE "
                                          r"\(round 2\)"),
    ("2 - round.number * 3", ", rest: stock", r"hand must be a whole number of cards, got -1 \(round 1\)"),
])
def test_a_deal_whose_number_of_cards_does_not_fit_in_play_fails_with_its_position(tmp_path, hand, rest, message):
    """A number of cards worked out in play is checked as the compiled game checks a constant: every card dealt
    unless a rest takes the others, never fewer than none."""
    game = make(tmp_path, f"""\
        deal: {{do: deal, hand: "{hand}"{rest}}}
        """, TRICKS, game="rounds: 3", zones="stock: {visible: nobody}")
    with pytest.raises(GameError, match=r"tiny.yaml:\d+:\d+: error: " + message):
        play_game(game, seed=0)


# ====================================================================== set


def test_round_values_start_again_each_round_while_game_values_persist(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        before:
          do: set
          round: {seen: "round.count"}
        count:
          do: set
          round: {count: "round.number * 10"}
          seats: {twice: "seat.index * 2", mine: "seat.twice + 1"}
          game: {rounds_played: "game.rounds_played + 1", dealers: "game.dealers + [round.dealer]"}
        """, TRICKS, game="""\
            values: {rounds_played: 0, dealers: "[]"}
            rounds: 3""")
    state = game.new_state()
    assert state.game_vars["rounds_played"] == 0 and list(state.game_vars["dealers"]) == []
    finish_round(game, state)
    finish_round(game, state)
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    assert state.vars["seen"] is None                         # a round value is none until set this round
    assert state.vars["count"] == 30
    assert state.seat_vars["twice"] == [0, 2, 4, 6] and state.seat_vars["mine"] == [1, 3, 5, 7]
    assert state.game_vars == {"rounds_played": 3, "dealers": [0, 1, 2]}
    assert observe(game, state, N)["game_values"]["rounds_played"] == 3


def test_a_value_of_each_seat_may_be_kept_from_round_to_round(tmp_path):
    game = make(tmp_path, DEAL_3, TRICKS, """\
        count:
          do: set
          game: {won_so_far: "seat.won_so_far + seat.tricks"}
        """, game="""\
            seat_values: {won_so_far: "seat.index * 100"}
            rounds: 2""")
    state = game.new_state()
    assert state.seat_vars["won_so_far"] == [0, 100, 200, 300]
    finish_round(game, state)
    first = list(state.seat_vars["won_so_far"])
    assert sum(first) == 600 + 3
    finish_round(game, state)
    assert sum(state.seat_vars["won_so_far"]) == 600 + 6 and state.finished


def test_a_game_value_must_be_declared(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        count:
          do: set
          game: {pot: "1"}
        """, TRICKS)
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "game: {pot")
    assert message.startswith("game value 'pot' is not declared")


# ====================================================================== teams


def test_fixed_partnerships_by_seat_names(tmp_path):
    game = make(tmp_path, """\
        partners:
          do: teams
          teams: [[N, S], [E, W]]
        deal: {do: deal, hand: 3}
        who:
          do: set
          seats: {mates: "team(seat)", foes: "opponents(seat)", with_left: "same_team(seat, left(seat))"}
        """, TRICKS)
    state = game.new_state()
    assert state.teams == [0, 1, 0, 1]
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    assert state.seat_vars["mates"] == [[N, S], [E, W], [N, S], [E, W]]
    assert state.seat_vars["foes"] == [[E, W], [N, S], [E, W], [N, S]]
    assert state.seat_vars["with_left"] == [False] * 4
    assert observe(game, state, None)["teams"] == [["N", "S"], ["E", "W"]]


def test_teams_formed_from_a_choice(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        call:
          do: choose
          who: left(round.dealer)
          options: "[s for s in seats if s != seat]"
          set: partner
          set_chooser: caller
        sides:
          do: teams
          teams: "[[round.caller, round.partner], [s for s in seats if s != round.caller and s != round.partner]]"
        who:
          do: set
          seats: {mates: "team(seat)"}
        """, TRICKS)
    state = game.new_state()
    assert state.teams == [0, 1, 2, 3]                        # until teams are set, every seat plays alone
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    assert labels(game, state) == ["N", "S", "W"]
    play(game, state, "W")
    assert state.seat_vars["mates"] == [[N, S], [E, W], [N, S], [E, W]]


def test_teams_worked_out_in_play_let_every_step_after_them_run(tmp_path):
    """Teams set by an expression, however many, leave the steps after them to run (the round's code once went on
    from the step numbered as the last team: four teams passed over the next two steps)."""
    game = make(tmp_path, """\
        alone:
          do: teams
          teams: "[[s] for s in seats]"
        who:
          do: set
          seats: {mates: "team(seat)"}
        deal: {do: deal, hand: 3}
        """, TRICKS)
    state = game.new_state()
    assert state.teams == [0, 1, 2, 3]
    assert state.seat_vars["mates"] == [[N], [E], [S], [W]]
    assert state.pending.actor == CHANCE and state.pending.step.name == "deal"


def test_a_team_list_that_leaves_out_a_seat_is_refused(tmp_path):
    text = rules("""\
        partners:
          do: teams
          teams: [[N, S], [E]]
        deal: {do: deal, hand: 3}
        """, TRICKS)
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "teams: [[N, S], [E]]")
    assert message == "every seat must be in exactly one team"


# ====================================================================== roles and policies


def robot(policy: str, role: str = "dummy") -> str:
    return f"""\
        3:
          automatic:
            - name: bot
              role: {role}
              policy: {policy}"""


def test_an_automatic_seat_follows_its_policy_and_is_never_asked(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        """, TRICKS, """\
        score: {do: score, points: "seat.tricks + (10 if seat.role == 'dummy' else 0)"}
        """, count=3, players=robot('{tricks: "last(legal)"}'))
    assert game.seat_names == ["N", "E", "S", "bot"] and game.automatic == {3}
    assert [s.role for s in game.seats] == ["player", "player", "player", "dummy"]
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"], ["x4", "y4", "z4"])
    play(game, state, "x2", "x3")                             # E leads, S follows, the bot plays at once
    assert names(game, state.shared["trick"]) == ["x2", "x3", "z4"]     # the last card it may play
    assert asked(state) == N


def test_an_automatic_seat_plays_a_whole_game_by_itself_and_replays_from_its_record(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        """, TRICKS, """\
        score: {do: score, points: "seat.tricks + (10 if seat.role == 'dummy' else 0)"}
        """, players=robot('{tricks: "first(seat.hand) if first(seat.hand) in legal else first(legal)"}'),
                 game="rounds: 2")
    path = write(tmp_path, text)
    game = compile_game(load_rules(path), 3)
    actors = []
    out = play_game(game, seed=3, record=True, after_each=lambda s: actors.append(s.pending and s.pending.actor))
    assert 3 not in actors
    assert all(e.get("seat") != "bot" for e in out.record)    # derived again on replay, so not recorded
    assert out.totals[3] >= 20 and sum(out.totals) == 6 + 20
    record = tmp_path / "game.jsonl"
    write_record(record, out.record)
    assert replay(record, rules=str(path)).totals == out.totals


def test_a_policy_that_names_a_card_outside_its_hand_is_a_positioned_error(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        """, TRICKS, players=robot('{tricks: "first(left(seat).hand)"}'))
    game = compile_game(load_rules(write(tmp_path, text)), 3)
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"], ["x4", "y4", "z4"])
    play(game, state, "x2")
    with pytest.raises(GameError) as err:
        play(game, state, "x3")                               # the bot is next; its policy names N's x1
    line = line_of(text, "policy:")
    assert re.match(rf".*tiny.yaml:{line}:\d+: error: the policy of 'bot' chose 'x1', which it cannot choose in "
                    r"step 'tricks'$", str(err.value))


def test_an_automatic_seat_asked_in_a_step_its_policy_does_not_cover_is_a_positioned_error(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        bid:
          do: choose
          options: "[0, 1, 2, 3]"
        """, TRICKS, players=robot('{tricks: "first(legal)"}'))
    game = compile_game(load_rules(write(tmp_path, text)), 3)
    state = game.new_state()
    with pytest.raises(GameError) as err:
        game.apply_chance(state, game.sample_chance(state, random.Random(0)))
        play(game, state, "0", "0")                           # E, S; then the bot
    line = line_of(text, "- name: bot")
    assert re.match(rf".*tiny.yaml:{line}:\d+: error: the automatic seat 'bot' has to decide in step 'bid', but its "
                    r"policy says nothing for that step \(add policy: \{bid: EXPRESSION\}\)$", str(err.value))


def test_a_policy_for_a_step_that_does_not_exist_is_refused(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        """, TRICKS, players=robot('{bidding: "first(legal)"}'))
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "policy:")
    assert message == "there is no step 'bidding' that asks seats (steps that do: tricks)"


# ====================================================================== board


def test_a_board_with_its_own_turn_order_and_coverable_spaces(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        veto:
          do: board
          next: right(seat)                                    # counter-clockwise
          coverable: "open > 1 and not (row == 'points' and space == 1)"
          rows:
            trump: {spaces: [x, y]}
            points: {spaces: [1, 2, 3]}
        """, TRICKS)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    d = state.pending
    assert (d.kind, d.actor) == ("cover", N)                  # the dealer covers first
    assert labels(game, state) == ["trump: x", "trump: y", "points: 2", "points: 3"]
    assert d.actions[2] == Cover(1, 1)
    play(game, state, "points: 2")
    assert asked(state) == W
    assert labels(game, state) == ["trump: x", "trump: y", "points: 3"]
    play(game, state, "trump: x")
    assert asked(state) == S and labels(game, state) == ["points: 3"]
    play(game, state, "points: 3")
    assert (state.vars["trump"], state.vars["points"]) == ("y", 1)
    assert state.pending.kind == "play"


# ====================================================================== decisions and actions


def test_every_decision_says_its_kind_and_actions_are_typed_tuples(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        veto:
          do: board
          rows: {trump: {spaces: [x, y]}}
        bid:
          do: choose
          who: round.dealer
          options: "[0, 1]"
          pass: pass
        tricks:
          do: tricks
          leader: left(round.dealer)
          strength: ["card.rank"]
          takers: [{takes: 1}, {strength: ["- card.rank"]}]
          unclaimed: out
          to: won
        """, zones="out: {visible: all}")
    state = game.new_state()
    kinds = []
    while state.round_number == 1 and not state.finished:
        d = state.pending
        kinds.append(d.kind)
        if d.kind == "chance":
            assert d.actor == CHANCE and game.legal_actions(state) == []
            deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"], ["x4", "y4", "z4"])
            continue
        expected = {"cover": (Cover,), "choose": (Choice, Pass), "play": (Play,), "take": (Take,)}[d.kind]
        assert d.actions and all(isinstance(a, expected) for a in d.actions)
        assert all(isinstance(a, tuple) for a in d.actions)
        game.apply(state, d.actions[-1])
    assert kinds[:5] == ["chance", "cover", "choose", "play", "play"]
    assert "take" in kinds


def test_a_choice_carries_its_value_and_its_label(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        bid:
          do: choose
          options: "[0, 1, 2]"
          label: "'bid ' + text(value)"
          pass: pass
        """, TRICKS)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    assert state.pending.actions == [Pass("pass"), Choice(0, "bid 0"), Choice(1, "bid 1"), Choice(2, "bid 2")]
    game.apply(state, Choice(2, "bid 2"))
    assert game.action_for_label(state, "BID 1") == Choice(1, "bid 1")


def test_checked_apply_refuses_an_action_of_another_kind_with_the_same_numbers(tmp_path):
    game = make(tmp_path, DEAL_3, """\
        veto:
          do: board
          rows: {trump: {spaces: [x, y]}}
        """, TRICKS)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    assert Cover(0, 0) in state.pending.actions and Play(0, 0) == Cover(0, 0)      # equal as plain tuples
    with pytest.raises(IllegalAction, match=r"Play\(card=0, zone=0\) is not legal now for N \(veto\); legal: "
                                            r"trump: x, trump: y"):
        game.apply(state, Play(0, 0))
    assert state.pending.kind == "cover"
    game.apply(state, Cover(0, 0))
    assert state.vars["trump"] == "y"


# ====================================================================== refusals


def test_repeat_without_until_is_refused(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        bid:
          do: choose
          options: "[0, 1]"
          repeat: true
        """, TRICKS)
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "repeat: true")
    assert message == "repeat needs until: the condition that ends the choosing"


def test_a_move_with_both_cards_and_from_is_refused(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        clear:
          do: move
          cards: "first(seat.hand)"
          from: hand
          each: seats
          to: box
        """, TRICKS, zones="box: {visible: all}")
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "clear:") + 1
    assert message == "a move needs either cards: (an expression) or from: (zones), not both"


def test_move_to_with_options_that_are_not_cards_is_refused(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        bid:
          do: choose
          options: "[0, 1]"
          move_to: box
        """, TRICKS, zones="box: {visible: all}")
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "move_to: box")
    assert message == "move_to needs options that are cards, found value"


@pytest.mark.parametrize("extra, where, message", [
    ("options: \"[0, 1]\"\nswap: true", "swap: true", "swap needs options that are pairs of cards, found value"),
    ("options: \"pairs(seat.hand, seat.hand)\"\nswap: true\nmove_to: box", "move_to: box",
     "move_to needs options that are cards, found list of card"),
])
def test_swap_needs_pairs_of_cards_and_no_move_to(tmp_path, extra, where, message):
    text = rules(DEAL_3, "bid:\n  do: choose\n" + indent(extra), TRICKS, zones="box: {visible: all}")
    line, got = refusal(tmp_path, text)
    assert (line, got) == (line_of(text, where), message)


def test_two_steps_with_the_same_name_are_refused(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        tricks:
          do: tricks
          leader: left(round.dealer)
          strength: ["card.rank"]
          to: won
          after_trick:
            deal:
              do: set
              round: {x: "1"}
        """)
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "    deal:")
    assert message == "two steps are named 'deal'; step names must differ (policies and records name steps)"


def test_a_step_kind_that_cannot_run_inside_a_trick_is_refused_there(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        tricks:
          do: tricks
          leader: left(round.dealer)
          strength: ["card.rank"]
          to: won
          after_trick:
            redeal: {do: deal, hand: 3}
        """)
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "redeal:")
    assert message == "a deal step cannot run inside a trick (kinds allowed here: choose, move, reveal, set, teams)"


def test_an_unknown_step_kind_is_refused(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        bid: {do: auction}
        """, TRICKS)
    errors = validate_file(str(write(tmp_path, text, "bad.yaml")))
    assert errors and all(re.match(rf".*bad.yaml:{line_of(text, 'bid:')}:\d+: error: ", e) for e in errors)


# ====================================================================== defects fixed


def test_a_clone_shares_nothing_with_its_original_through_the_pending_decision(tmp_path):
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        veto:
          do: board
          rows: {trump: {spaces: [x, y, z]}, points: {spaces: [1, 2, 3]}}
        discard:
          do: choose
          count: 1
          options: seat.hand
          move_to: out
        """, TRICKS, zones="out: {visible: all}")
    state = game.new_state()
    deal(game, state, ["x1", "y1", "z1"], ["x2", "y2", "z2"], ["x3", "y3", "z3"], ["x4", "y4", "z4"])
    while not state.finished:
        if state.pending.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, random.Random(1)))
            continue
        copy = state.clone()
        before = (copy.pending.actor, list(copy.pending.actions), game.labels(copy))
        assert copy.pending is not state.pending and copy.pending.actions is not state.pending.actions
        game.apply(state, state.pending.actions[-1])          # play on the original
        assert (copy.pending.actor, copy.pending.actions, game.labels(copy)) == before
        game.apply(copy, copy.pending.actions[0])              # and the clone still plays its own way


def test_a_card_without_an_attribute_the_strength_reads_is_refused_by_validate(tmp_path):
    deck = """\
deck:
  label: "{suit}{rank}"
  cards:
    - suit: [x, y]
      rank: [1, 2, 3, 4, 5]
    - suit: [jester, fool]                # no rank
"""
    for strength in ('["card.rank"]', '["- card.rank"]', '["card.suit == led.suit", "card.rank * 2"]'):
        text = rules(f"""\
            deal: {{do: deal, hand: 3}}
            tricks:
              do: tricks
              leader: left(round.dealer)
              strength: {strength}
              to: won
            """, deck=deck)
        line, message = refusal(tmp_path, text)
        assert line == line_of(text, "strength:"), strength
        assert "for the card 'jester'" in message and "card.number if card.number != none else 0" in message


def test_a_strength_that_fails_only_in_play_names_the_rule_not_a_python_error(tmp_path):
    deck = """\
deck:
  label: "{suit}{rank}"
  cards:
    - suit: [x, y]
      rank: [1, 2, 3, 4, 5]
    - suit: [jester, fool]                # no rank
"""
    text = rules("""\
        deal: {do: deal, hand: 3}
        tricks:
          do: tricks
          leader: left(round.dealer)
          strength: ["card.rank if card.suit == led.suit else 0"]
          to: won
        """, deck=deck)
    path = write(tmp_path, text)
    assert validate_file(str(path)) == []
    game = compile_game(load_rules(path), 4)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["jester", "y1", "y2"], ["x4", "y3", "y4"], ["x5", "y5", "fool"])
    with pytest.raises(GameError) as err:
        play(game, state, "jester", "x4", "x5", "x1")       # E leads the jester: led.suit holds, rank is none
    assert re.match(rf".*tiny.yaml:{line_of(text, 'strength:')}:\d+: error: ", str(err.value))
    assert "jester" in str(err.value)


def test_the_narration_conjugates_the_first_word_of_a_multi_word_verb(tmp_path):
    assert [third_person(v) for v in ("pass on", "discard", "match", "carry", "play", "push back")] == \
        ["passes on", "discards", "matches", "carries", "plays", "pushes back"]
    game = make(tmp_path, """\
        deal: {do: deal, hand: 3}
        give:
          do: choose
          options: seat.hand
          move_to: passing
          verb: pass on
        """, TRICKS, zones="passing: {per_seat: true, visible: all}")
    told: list[str] = []
    play_game(game, seed=2, narrate=told.append)
    passes = [t for t in told if " passes on " in t]
    assert len(passes) == 4 and all(re.fullmatch(r"  [NESW] passes on [xyz][1-4]", t) for t in passes)
    assert not any("pass ons" in t for t in told)


def test_a_define_may_be_named_taken_but_not_like_a_builtin_function(tmp_path):
    ok = rules("""\
        deal: {do: deal, hand: 3}
        """, TRICKS, """\
        score: {do: score, points: "taken(seat)"}
        """, top='define:\n  taken(s): "len(s.won) // players"')
    path = write(tmp_path, ok)
    assert validate_file(str(path)) == []
    assert sum(play_game(compile_game(load_rules(path), 4), seed=1).totals) == 3
    bad = rules("""\
        deal: {do: deal, hand: 3}
        """, TRICKS, top='define:\n  len(x): "0"')
    line, message = refusal(tmp_path, bad)
    assert line == line_of(bad, "len(x):")
    assert message == "'len' is a builtin function; choose another name for this define"


def test_rule_errors_are_rule_errors(tmp_path):
    text = rules("""\
        deal: {do: deal, hand: 3}
        bid:
          do: choose
          options: "[0, 1]"
          repeat: true
        """, TRICKS)
    with pytest.raises(RuleError):
        compile_game(load_rules(write(tmp_path, text)), 4)


# ====================================================================== several decks, repeat

TWO_DECKS = """\
deck:
  label: "{suit}{rank}"
  start: box
  cards:
    - {suit: [x, y, z], rank: [1, 2, 3, 4], kind: [number]}
    - {kind: [sign], sign: [sun, moon, star], label: "sign of the {sign}"}
"""
TRICKS_2 = TRICKS.replace('"card.rank"]', '"card.rank if card.kind == \'number\' else 0"]')
BOX = ("box: {visible: nobody}\nstock: {visible: nobody}\nsigns: {visible: nobody}\n"
       "secret: {per_seat: true, visible: owner}")


def test_a_group_label_writes_that_groups_cards_and_the_box_holds_every_card_at_the_start(tmp_path):
    game = make(tmp_path, "deal: {do: deal, hand: 3, cards: \"card.kind == 'number'\"}", TRICKS_2, deck=TWO_DECKS,
                zones=BOX)
    assert sorted(game.cards.labels) == sorted([f"{s}{r}" for s in "xyz" for r in range(1, 5)]
                                               + ["sign of the sun", "sign of the moon", "sign of the star"])
    state = game.new_state()
    assert sorted(state.shared["box"]) == sorted(game.deck)     # before the first deal, every card is in the box
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert names(game, state.shared["box"]) == ["sign of the moon", "sign of the star", "sign of the sun"]


def test_separate_deals_each_gather_shuffle_and_deal_only_their_own_cards(tmp_path):
    steps = ("numbers: {do: deal, hand: 3, cards: \"card.kind == 'number'\"}",
             "signs: {do: deal, hand: 0, rest: signs, cards: \"card.kind == 'sign'\"}",
             "secret: {do: move, cards: \"last(signs)\", to: secret, owner: round.dealer}", TRICKS_2)
    game = make(tmp_path, *steps, deck=TWO_DECKS, zones=BOX, game="rounds: 2")
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert state.pending.kind == "chance" and state.pending.step.name == "signs"
    order = [c for c in game.deck if game.cards.labels[c].startswith("sign")]
    assert len(game.sample_chance(state, random.Random(1))) == 3          # only the three signs are shuffled
    game.apply_chance(state, order)
    assert names(game, state.per_seat["secret"][N]) == [game.cards.labels[order[-1]]]   # the bottom card
    assert observe(game, state, E)["zones"]["secret"]["N"] == {"count": 1}
    assert names(game, state.per_seat["hand"][E]) == ["y1", "y2", "y3"]  # the sign deal left the hands alone
    finish_round(game, state)
    # the next round's number deal gathers the numbers only: the secret sign stays until the sign deal
    game.apply_chance(state, game.sample_chance(state, random.Random(2)))
    assert len(state.per_seat["secret"][N]) == 1 and len(state.shared["box"]) == 0
    assert sorted(state.all_cards()) == sorted(game.deck)


def test_a_record_of_a_partial_deal_names_only_its_cards_and_replays(tmp_path):
    steps = ("numbers: {do: deal, hand: 3, cards: \"card.kind == 'number'\"}",
             "signs: {do: deal, hand: 0, rest: signs, cards: \"card.kind == 'sign'\"}", TRICKS_2)
    path = write(tmp_path, rules(*steps, deck=TWO_DECKS, zones=BOX))
    game = compile_game(load_rules(str(path)), 4)
    result = play_game(game, seed=3, record=True, rules_file=path.name)   # beside the record
    deals = [e for e in result.record if e.get("type") == "chance"]
    assert sorted(deals[1]["outcome"]["signs"]) == ["sign of the moon", "sign of the star", "sign of the sun"]
    write_record(tmp_path / "r.jsonl", result.record)
    assert replay(tmp_path / "r.jsonl").totals == result.totals


@pytest.mark.parametrize("spec, message", [
    ("{do: deal, hand: 3, cards: \"card.kind == 'sign' and card.kind == 'number'\"}",
     "no card of the deck meets this deal's cards condition"),
    ("{do: deal, hand: 3, cards: \"card.kind == text(round.number)\"}",
     "cards may use only card, players, options and setup (the cards of a deal are known before play)"),
    ("{do: deal, hand: 4, cards: \"card.kind == 'sign'\"}",
     "dealing 4 cards to 4 seats needs 16 cards, this deal's cards are 3"),
])
def test_a_partial_deal_that_cannot_work_is_refused_with_its_position(tmp_path, spec, message):
    text = rules("numbers: " + spec, TRICKS_2, deck=TWO_DECKS, zones=BOX)
    line, got = refusal(tmp_path, text)
    assert got == message and line == line_of(text, "numbers:")


def test_deck_start_must_name_a_shared_zone(tmp_path):
    text = rules(DEAL_3, TRICKS_2, deck=TWO_DECKS.replace("start: box", "start: hand"), zones=BOX)
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "start: hand") and message.startswith("deck.start must name a shared zone")


def test_repeat_runs_its_steps_the_given_number_of_times_and_counts_them(tmp_path):
    rows = """\
        rows:
          do: repeat
          times: 3
          set: row
          steps:
            lay: {do: move, cards: "[stock[0], stock[1]]", to: row}
            pick: {do: choose, who: "[seats[round.row]]", options: row, move_to: hand}
            clear: {do: move, from: row, to: out}
        """
    game = make(tmp_path, "deal: {do: deal, hand: 0, rest: stock}", rows, TRICKS,
                zones="stock: {visible: nobody}\nrow: {visible: all}\nout: {visible: all}")
    state = game.new_state()
    deal(game, state, [], [], [], [], rest=("x1", "x2", "y1", "y2", "z1", "z2", "x3", "x4", "y3", "y4", "z3", "z4"))
    assert state.vars["row"] == 1 and asked(state) == E and labels(game, state) == ["x1", "x2"]
    assert observe(game, state, W)["values"]["row"] == 1
    play(game, state, "x2")
    assert state.vars["row"] == 2 and asked(state) == S and labels(game, state) == ["y1", "y2"]
    play(game, state, "y1")
    assert asked(state) == W and labels(game, state) == ["z1", "z2"]
    play(game, state, "z1")                                   # three times; N has no card: no trick, game over
    assert state.vars["row"] == 3 and state.finished
    assert names(game, state.shared["out"]) == ["x1", "y2", "z2"]


def test_repeat_until_and_its_refusals(tmp_path):
    rows = """\
        rows:
          do: repeat
          until: "len(stock) == 0"
          steps:
            pick: {do: choose, who: "[left(round.dealer)]", options: "[first(stock)]", pass: skip, move_to: hand}
        """
    game = make(tmp_path, "deal: {do: deal, hand: 2, rest: stock}", rows, TRICKS, zones="stock: {visible: nobody}")
    state = game.new_state()
    deal(game, state, ["x3", "x4"], ["y2", "y3"], ["y4", "z1"], ["z2", "z3"], rest=("x1", "x2", "y1", "z4"))
    play(game, state, "x1", "skip", "x2", "y1")                # a skip leaves the card: offered again next time
    assert state.pending.step.name == "pick" and labels(game, state) == ["skip", "z4"]
    play(game, state, "z4")                                   # the stock is empty: until holds
    assert names(game, state.per_seat["hand"][E]) == ["x1", "x2", "y1", "y2", "y3", "z4"]
    assert state.pending.step.name == "tricks"
    for body, message in [
        ("rows: {do: repeat, steps: {s: {do: set, round: {a: '1'}}}}",
         "a repeat needs times: or until: (or both) to end"),
        ("rows: {do: repeat, times: 2, steps: {d: {do: deal, hand: 1}}}",
         "a deal step cannot run inside a repeat (kinds allowed here: choose, move, reveal, set, teams)"),
        ("rows: {do: repeat, times: 5000, steps: {s: {do: set, round: {a: '1'}}}}",
         "times must be a whole number from 0 to 1000, got 5000"),
    ]:
        text = rules(DEAL_3, body, TRICKS)
        line, got = refusal(tmp_path, text)
        assert got == message, got


def test_a_set_step_evaluates_each_value_afresh_and_narrate_false_keeps_it_quiet(tmp_path):
    steps = ("deal: {do: deal, hand: 3}",
             """\
             values:
               do: set
               round: {a: "1", b: "twice() + 1", c: "twice()"}
             quiet: {do: set, round: {d: "5"}, narrate: false}
             """, TRICKS)
    game = make(tmp_path, *steps, top="define:\n  twice(): \"2 * (round.a if round.c == none else 10)\"")
    state = game.new_state()
    state.notes = []
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert (state.vars["a"], state.vars["b"], state.vars["c"], state.vars["d"]) == (1, 3, 2, 5)
    assert "a: 1" in state.notes and "b: 3" in state.notes and not any(n.startswith("d:") for n in state.notes)


def test_move_narration_names_whose_zone_the_cards_go_to(tmp_path):
    steps = ("deal: {do: deal, hand: 3}",
             "give: {do: move, each: seats, cards: first(seat.hand), to: open, owner: left(seat)}", TRICKS)
    game = make(tmp_path, *steps, zones="open: {per_seat: true, visible: all}")
    state = game.new_state()
    state.notes = []
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert "x1 to E's open; y1 to S's open; z1 to W's open; x4 to N's open" in state.notes


def test_a_game_value_that_starts_as_none_takes_the_type_its_set_steps_give_it(tmp_path):
    """It used to keep the type of its value at the start: 'only lists can be indexed, not a none'."""
    game = make(tmp_path, DEAL_3, 'later: {do: set, game: {picks: "seats[0].hand"}}', TRICKS,
                'score: {do: score, points: "game.picks[0].rank if game.picks != none else 0"}',
                game="rounds: 2\nvalues: {picks: none}")
    state = first_choices(game, game.new_state(), 1)  # validated above; plays: the score reads game.picks[0]
    assert state.round_results[0][0] >= 1


def test_a_seat_value_that_starts_as_an_empty_list_takes_the_type_a_later_step_joins_to_it(tmp_path):
    """It used to be a value of any kind ('for ... in needs a list, found a value'): the step that extends it read
    it before its type was known, and a list joined with a value not typed yet was not a list."""
    game = make(tmp_path, DEAL_3, 'marks: {do: set, seats: {marks: "[]"}}',
                'mark: {do: set, seats: {marks: "seat.marks + [left(seat)]"}}',
                'count_marks: {do: set, seats: {others: "len([s for s in seat.marks if s != seat])"}}', TRICKS,
                "score: {do: score, points: seat.others}")
    state = first_choices(game, game.new_state(), 1)
    assert state.round_results[0] == [1, 1, 1, 1]


DUMMY = TRICKS + '  decided_by: "left(left(round.dealer)) if seat == round.dealer else seat"\n'


def test_a_seat_may_decide_the_cards_another_seat_plays(tmp_path):
    """As a declarer plays dummy's cards: the deciding seat is asked, the card leaves the played seat's hand."""
    from interpreter.harness.runner import play_game

    game = make(tmp_path, DEAL_3, DUMMY, "score: {do: score, points: seat.tricks}")
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, __import__("random").Random(3)))
    dealer, across = state.dealer, (state.dealer + 2) % 4
    seen = 0
    while not state.finished:
        d = state.pending
        p = state.progress
        if p.turn == dealer:
            assert d.actor == across and d.prompt == f"play a card for {game.seat_names[dealer]}"
            held = list(state.per_seat["hand"][dealer])
            game.apply(state, d.actions[0])
            assert len(state.per_seat["hand"][dealer]) == len(held) - 1
            seen += 1
        else:
            assert d.actor == p.turn
            game.apply(state, d.actions[0])
    assert seen == 3
    record = play_game(game, seed=2, record=True).record
    names = [e["seat"] for e in record if e["type"] == "action"]
    assert game.seat_names[0] not in names  # the dealer of game 1 (seat 0) never decides in a 1-round game


def test_decided_by_must_give_a_seat(tmp_path):  # none is refused where it is worked out, with its place
    from interpreter.dsl.compiler import ExpressionFailed

    game = make(tmp_path, DEAL_3, TRICKS + '  decided_by: "none if seat == round.dealer else seat"\n')
    with pytest.raises(ExpressionFailed, match=r"tiny.yaml:\d+:\d+: error: .* it gave none where a seat is needed"):
        first_choices(game, game.new_state(), 1)


def first_choices(game, state, seed: int):
    """``state`` played to the end: every seat takes its first legal action, the deals drawn from ``seed``."""
    import random

    rng = random.Random(seed)
    while not state.finished:
        d = state.pending
        if d.actor < 0:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, d.actions[0])
    return state


def test_a_seat_with_nothing_to_choose_passes_and_the_narration_says_so(tmp_path):
    from interpreter.harness.runner import play_game

    offer = 'offer: {do: choose, options: "[c for c in seat.hand if c.rank == 4]", pass: pass, move_to: won}'
    game = make(tmp_path, DEAL_3, offer, TRICKS)
    told: list[str] = []
    play_game(game, seed=1, narrate=told.append)
    turns = told[told.index("  (deal)") + 1:][:4]  # the four seats' turns of the offer, each told
    assert [line.split()[0] for line in turns] == ["E", "S", "W", "N"]
    assert "  E passes (nothing to choose)" in turns and "  S passes" in turns and "  N chooses z4" in turns
    silent = make(tmp_path, DEAL_3, offer[:-1] + ", narrate_pass: false}", TRICKS)
    told.clear()
    play_game(silent, seed=1, narrate=told.append)
    assert not [line for line in told if "passes" in line]


def test_the_types_section_gives_a_value_that_starts_as_none_its_kind(tmp_path):
    unset = 'clear: {do: set, round: {partner: none}}'
    uses = 'score: {do: score, points: "0 if round.partner == none else round.partner.tricks"}'
    line, message = refusal(tmp_path, rules(DEAL_3, unset, TRICKS, uses))
    assert "partner" in message or "none" in message  # without a declaration: refused
    game = make(tmp_path, DEAL_3, unset, TRICKS, uses, top="types:\n  round: {partner: seat}")
    assert str(game.value_types["partner"]) == "seat"
    assert game.flow is not None


def test_a_declared_kind_a_step_contradicts_or_no_step_sets_is_refused_where_it_is_declared(tmp_path):
    setter = 'who: {do: set, round: {partner: "seats[1]"}}'
    text = rules(DEAL_3, setter, TRICKS, top="types:\n  round: {partner: number}")
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "partner: number")
    assert message == "types: the round value 'partner' is declared a number, but its steps set it to a seat"
    text = rules(DEAL_3, TRICKS, top="types:\n  game: {best: list of cards}")
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, "best: list of cards") and message == "types: no step sets the game value 'best'"


def test_a_seat_left_without_cards_in_the_middle_of_a_trick_is_an_error_with_its_place(tmp_path):
    """Found by the fuzzer (rules, seed 31, case 267): a step between plays moved the next seat's hand away, and
    the seat had nothing to play: the checked path and the playout loop stopped with Python's IndexError."""
    import random

    emptied = TRICKS + ('  between_plays:\n    away: {do: move, cards: "left(player).hand", owner: left(player), '
                        'to: won}\n')
    game = make(tmp_path, DEAL_3, emptied)
    says = r"tiny.yaml:\d+:\d+: error: \w has to play a card to the trick but its hand is empty"
    with pytest.raises(GameError, match=says):
        first_choices(game, game.new_state(), 1)
    with pytest.raises(GameError, match=says):
        game.playout(game.new_state(), random.Random(1))


# ---------------------------------------------------------------- game.next_dealer

def _dealers(game, seed):
    """The dealer of each round of a random game: played through the checked path and by the playout loop."""
    rng = random.Random(seed)
    state, checked = game.new_state(), []
    while not state.finished:
        if not checked or state.round_number != len(checked):
            checked.append(state.dealer)
        d = state.pending
        if d.actor == CHANCE:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, d.actions[int(rng.random() * len(d.actions))])
    fast, looped = game.new_state(), {}

    def policy(state, seat, actions):
        looped.setdefault(state.round_number, state.dealer)
        return 0

    game.playout(fast, random.Random(seed), policy)
    return checked, list(looped.values())


def test_next_dealer_says_who_deals_the_next_round_in_the_checked_path_and_the_playout_loop(tmp_path):
    same = make(tmp_path, DEAL_3, TRICKS, game="rounds: 4\nnext_dealer: round.dealer")
    assert _dealers(same, 1) == ([0, 0, 0, 0], [0, 0, 0, 0])
    skip = make(tmp_path, DEAL_3, TRICKS, game="rounds: 4\nnext_dealer: left(left(round.dealer))")
    assert _dealers(skip, 1) == ([0, 2, 0, 2], [0, 2, 0, 2])
    plain = make(tmp_path, DEAL_3, TRICKS, game="rounds: 4")            # default: the deal passes left
    assert _dealers(plain, 1) == ([0, 1, 2, 3], [0, 1, 2, 3])


def test_next_dealer_must_give_a_seat(tmp_path):
    text = rules(DEAL_3, TRICKS, game="rounds: 2\nnext_dealer: \"3\"")
    assert refusal(tmp_path, text) == (line_of(text, "next_dealer"), "expected a seat, found value")
    game = make(tmp_path, DEAL_3, TRICKS,
                game="rounds: 3\nnext_dealer: \"first([s for s in seats if s.tricks > 3])\"")
    with pytest.raises(GameError, match="next_dealer must give a seat, got None"):
        _dealers(game, 1)


def test_a_label_that_reads_the_seat_and_the_round_is_worked_out_once_per_value_for_each_of_their_values(
        tmp_path):
    # the label reads the value (a bid), the seat and a round value: each bid's label is worked out once for each
    # seat and round value it is shown with, and a label that fails before it is needed is worked out as written
    game = make(tmp_path, DEAL_3, "first: {do: set, round: {first: 'left(round.dealer)', high: 'none'}}", """\
        bid:
          do: choose
          who: seats_from(left(round.dealer))
          options: "[0, 1, 2, 3]"
          label: >-
            ('open ' + text(value) if seat == round.first else 'raise to ' + text(value))
            + ('' if round.high == none else ' over ' + text(round.high.rank))
          set_seat: bid
        """, TRICKS, top="types: {round: {high: card}}")
    step = next(s for s in game.every_step() if s.name == "bid")
    assert step.label_expr.keyed is not None
    judged: list[int] = []
    keys_of, judge = step.label_expr.keyed
    step.label_expr = dataclasses.replace(step.label_expr, keyed=(keys_of, lambda e, items, hs: (
        judged.extend(items), judge(e, items, hs))[1]))
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    assert labels(game, state) == ["open 0", "open 1", "open 2", "open 3"]
    play(game, state, "open 2")
    assert labels(game, state) == ["raise to 0", "raise to 1", "raise to 2", "raise to 3"]
    play(game, state, "raise to 0")
    assert labels(game, state) == ["raise to 0", "raise to 1", "raise to 2", "raise to 3"]
    assert judged == [0, 1, 2, 3, 0, 1, 2, 3]  # the third seat's labels are the second's: kept, not judged again


def test_a_label_whose_other_parts_fail_when_worked_out_first_is_worked_out_as_written(tmp_path):
    # 10 // round.zero does not read the value, so it is worked out before the label is (it fails there); the
    # label of 0 never needs it: the label is then worked out as written, value by value, and gives "0"
    game = make(tmp_path, DEAL_3, "zero: {do: set, round: {zero: '0'}}", """\
        bid: {do: choose, who: "[left(round.dealer)]", options: "[0]", set_seat: bid,
              label: "text(value) if value == 0 else text(10 // round.zero)"}
        """, TRICKS)
    state = game.new_state()
    deal(game, state, ["x1", "x2", "x3"], ["y1", "y2", "y3"], ["z1", "z2", "z3"], ["x4", "y4", "z4"])
    step = next(s for s in game.every_step() if s.name == "bid")
    with pytest.raises(ZeroDivisionError):
        step.label_expr.keyed[0]({**step.env(state), "seat": E})
    assert labels(game, state) == ["0"]
