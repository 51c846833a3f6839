"""Climbing tricks (docs/cookbook.md, "Climbing tricks"; docs/examples/climbing.yaml): a play is a set of cards
picked one by one (``choose`` with ``count``, ``stop`` and ``may_stop``), each later play must beat the last or
the seat passes, the trick ends when every other seat still holding cards has passed in a row, seats without
cards are skipped, and a bomb may be played out of turn."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.cli import validate_file
from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.errors import GameError
from interpreter.rules.loader import load_rules

from .conftest import at_step, names, play
from .test_steps import DEAL_3, TRICKS, make, refusal, rules

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "climbing.yaml"
N, E, S, W = range(4)


@pytest.fixture(scope="module")
def game() -> Game:
    return compile_game(load_rules(EXAMPLE), 4)


def labels(game: Game, state: State) -> list[str]:
    return sorted(game.labels(state))


def deal(game: Game, hands: dict[int, list[str]]) -> State:
    """East leads (North deals)."""
    return at_step(game, "play", hands, dealer=N)


HANDS = {
    N: ["clubs 9", "clubs 13", "hearts 14"],
    E: ["diamonds 10", "hearts 10", "spades 12"],
    S: ["clubs 11", "diamonds 11", "hearts 12"],
    W: ["hearts 9", "diamonds 13", "spades 14"],
}


def test_the_leader_picks_a_whole_play_and_may_not_pass(game: Game) -> None:
    state = deal(game, HANDS)
    assert state.pending.actor == E
    assert labels(game, state) == ["diamonds 10", "hearts 10", "spades 12"]          # no pass for the lead
    play(game, state, "hearts 10")
    # a single 10 is a whole play (play), or the pair goes on with the other 10; the 12 makes no play with it
    assert labels(game, state) == ["diamonds 10", "play"]
    play(game, state, "diamonds 10")                        # the pair is complete and nothing extends it: played
    assert names(game, state.shared["table"]) == ["diamonds 10", "hearts 10"]
    assert state.vars["top"] == {"kind": "pair", "length": 2, "value": 10, "bomb": False, "ranks": [10, 10],
                                 "tie": 0}
    assert state.vars["top_player"] == E


def test_a_later_play_has_as_many_cards_and_a_higher_rank_or_the_seat_passes(game: Game) -> None:
    state = deal(game, HANDS)
    play(game, state, "hearts 10", "diamonds 10")           # East leads a pair of 10s
    assert state.pending.actor == S
    assert labels(game, state) == ["clubs 11", "diamonds 11", "pass"]                # only the pair of 11s
    play(game, state, "clubs 11")
    assert labels(game, state) == ["diamonds 11"]           # half a pair may not stop: no play, no pass
    play(game, state, "diamonds 11")
    # West holds no pair and North none: they pass without being asked, East cannot beat 11s either
    assert state.vars["passes"] == 0 and state.pending.actor == S and names(game, state.shared["table"]) == []
    assert names(game, state.shared["discard"]) == ["clubs 11", "diamonds 10", "diamonds 11", "hearts 10"]
    assert labels(game, state) == ["hearts 12"]             # South took the trick and leads


def test_the_trick_ends_when_every_other_seat_with_cards_has_passed_in_a_row(game: Game) -> None:
    state = deal(game, HANDS)
    play(game, state, "spades 12")                          # East: a single 12 (nothing makes more of it: played)
    # South holds nothing higher than a 12 and passes without being asked
    assert state.pending.actor == W and labels(game, state) == ["diamonds 13", "pass", "spades 14"]
    play(game, state, "diamonds 13")
    play(game, state, "hearts 14")                          # North: the ace of hearts
    assert state.vars["top_player"] == N and state.vars["passes"] == 0
    # East, South and West cannot beat an ace: three passes in a row, North takes the trick and leads
    assert state.pending.actor == N and state.vars["top"] is None
    assert names(game, state.shared["discard"]) == ["diamonds 13", "hearts 14", "spades 12"]


def test_a_seat_may_pass_though_it_could_play_and_the_trick_goes_on_round_the_table(game: Game) -> None:
    state = deal(game, HANDS)
    play(game, state, "diamonds 10")                        # East leads a 10 (the other 10 would make a pair)
    play(game, state, "play")
    assert state.pending.actor == S
    play(game, state, "pass")                               # South could play an 11 or the 12
    play(game, state, "pass")                               # West too
    play(game, state, "clubs 13")                           # North
    # East and South cannot beat a king and pass unasked; West, who passed before, still holds the ace
    assert state.pending.actor == W and labels(game, state) == ["pass", "spades 14"]
    play(game, state, "spades 14")
    assert state.vars["top_player"] == W and state.pending.actor == W     # nobody beats the ace: West leads


def test_a_seat_that_has_gone_out_is_skipped_and_the_next_seat_with_cards_leads_for_it(game: Game) -> None:
    hands = {N: ["clubs 9", "hearts 9"], E: ["spades 14"], S: ["clubs 10", "hearts 10"], W: ["diamonds 9", "clubs 11"]}
    state = deal(game, hands)
    play(game, state, "spades 14")                          # East's last card: East is out
    assert state.vars["out"] == [E]
    # nobody beats the ace: the trick is over, East has gone out, so South (the next seat with cards) leads
    assert state.pending.actor == S and names(game, state.shared["discard"]) == ["spades 14"]
    play(game, state, "clubs 10", "hearts 10")              # South leads its pair and is out too
    assert state.vars["out"] == [E, S]
    # West cannot beat it, North neither: West (after South, skipping nobody) leads; East is never asked again
    assert state.pending.actor == W
    play(game, state, "clubs 11")
    # North cannot beat it and East and South are skipped: West took the trick and leads again
    assert state.pending.actor == W and names(game, state.shared["discard"]) == ["clubs 10", "clubs 11",
                                                                                  "hearts 10", "spades 14"]
    play(game, state, "diamonds 9")                         # West is out: the round is over
    assert state.totals == [0, 3, 2, 1] and state.round_number == 2        # out first 3, second 2, third 1


def test_a_bomb_is_offered_out_of_turn_after_a_play_and_beats_it(game: Game) -> None:
    hands = {
        N: ["clubs 12", "diamonds 12", "hearts 12", "spades 12", "clubs 9"],
        E: ["clubs 10", "hearts 11"],
        S: ["spades 13", "diamonds 9"],
        W: ["hearts 14", "spades 9"],
    }
    state = deal(game, hands)
    play(game, state, "clubs 10")                           # East leads a single 10
    # before South's turn North, holding four 12s, may bomb (out of turn); South and West, without bombs, are
    # not asked
    assert state.pending.actor == N and state.pending.step.name == "bomb"
    assert labels(game, state) == ["clubs 12", "diamonds 12", "hearts 12", "no bomb", "spades 12"]
    play(game, state, "clubs 12", "diamonds 12", "hearts 12")
    assert labels(game, state) == ["spades 12"]             # three of a kind is no bomb: no stop yet
    play(game, state, "spades 12")
    # nobody beats four of a kind (South, West and East pass unasked): the trick is North's, who leads
    assert state.vars["top_player"] == N and state.pending.actor == N and names(game, state.shared["discard"]) == [
        "clubs 10", "clubs 12", "diamonds 12", "hearts 12", "spades 12"]


def test_may_stop_needs_stop_and_allowed_picks_that_lead_to_a_whole_play(tmp_path: Path) -> None:
    line, message = refusal(tmp_path, rules(DEAL_3, """\
        pick:
          do: choose
          options: seat.hand
          count: 2
          may_stop: "len(picked) == 2"
        """, TRICKS))
    assert message == "may_stop needs stop: the label of ending one's turn"
    game = make(tmp_path, DEAL_3, """\
        pick:
          do: choose
          who: round.dealer
          options: seat.hand
          count: 1
          stop: done
          may_stop: "len(picked) == 2"
        """)
    state = game.new_state()
    game.apply_chance(state, game.sample_chance(state, random.Random(0)))
    with pytest.raises(GameError, match="may not stop there"):
        game.apply(state, state.pending.actions[0])        # one pick, count reached, and may_stop wants two


def test_each_define_name_a_climb_step_would_take_is_refused_at_its_key(tmp_path: Path) -> None:
    # the climb writes its leader and until as defines named after the step: both names taken, both refused
    (tmp_path / "climbing.yaml").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "taken.yaml"
    path.write_text("trickbook: 1\nextends: climbing.yaml\nname: taken\n"
                    "define:\n  leader__play: \"0\"\n  until__play: \"false\"\n"
                    "round:\n  play:\n    leader: round.dealer\n    until: \"len(round.out) == 1\"\n", encoding="utf-8")
    found = [e.split(": error: ", 1) for e in validate_file(str(path))]
    assert [(where.rsplit(":", 2)[1], message.split(";")[0]) for where, message in found] == [
        ("9", "the define 'leader__play' is taken by this climb step's leader"),
        ("10", "the define 'until__play' is taken by this climb step's until")]
