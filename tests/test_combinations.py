"""The combinations section and the climb step on their own (docs/rule-files.md, "combinations" and "climb"):
shapes of plays, what beats what, wild cards, readings, picking card by card, obligations, and the mistakes
validate refuses with their place in the file."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.rules.loader import load_rules

from .conftest import at_step, play
from .test_steps import line_of, refusal

N, E, S, W = range(4)

COMBINATIONS = """\
combinations:
  rank: card.rank
  cards: "card.suit != 'x'"
  wild:
    cards: "card.suit == 'x' and card.rank == 1"
    ranks: "range(3, 11)"
    alone: above
  kinds:
    single:   {same: 1}
    pair:     {same: 2}
    triple:   {same: 3}
    stairs:   {same: 2, run: 2}
    straight: {run: 3}
    house:    {sets: [3, 2]}
    crown:    {cards: "card.suit == 'x' and card.rank == 20", beats: [single]}
    fool:     {cards: "card.suit == 'x' and card.rank == 0", lead_only: true}
    bomb:     {same: 4, bomb: true, wild: false}
    flush:    {run: 4, suited: true, bomb: true, wild: false}
"""


def source(combinations: str = COMBINATIONS, climb: str = "", hand: int = 8) -> str:
    """Four seats, ranks 3 to 10 in four suits and three specials (a joker, a crown, a fool), a climb."""
    return textwrap.dedent("""\
        trickbook: 1
        name: ladder
        seats: [N, E, S, W]
        deck:
          label: "{suit} {rank}"
          group: suit
          cards:
            - {suit: [a, b, c, d], rank: [3, 4, 5, 6, 7, 8, 9, 10]}
            - {suit: [x], rank: [1, 20, 0]}
        players:
          4: {}
        zones:
          hand: {per_seat: true, visible: owner}
          table: {visible: all}
          won: {per_seat: true, visible: nobody}
        """) + combinations + textwrap.dedent(f"""\
        game:
          rounds: 1
        round:
          deal: {{do: deal, hand: {hand}, rest: table}}
          play:
            do: climb
            table: table
            to: won
        """) + textwrap.indent(textwrap.dedent(climb), "    ")


def make(tmp_path: Path, text: str) -> Game:
    path = tmp_path / "ladder.yaml"
    path.write_text(text, encoding="utf-8")
    return compile_game(load_rules(path), 4)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return make(tmp_path_factory.mktemp("ladder"), source(climb="out_of_turn: [bomb, flush]\n"))


def ids(game: Game, *labels: str) -> list[int]:
    return [game.cards.labels.index(lab) for lab in labels]


def reading(game: Game, labels: list[str], top: Any = None) -> tuple[str, int, float] | None:
    r = game.combinations.combination(ids(game, *labels), top)
    return None if r is None else (r["kind"], r["length"], r["value"])


def top(game: Game, *labels: str) -> Any:
    return game.combinations.combination(ids(game, *labels))


def picks(game: Game, hand: list[str], picked: list[str], over: Any = None, must: list[str] = ()) -> list[str]:
    c = game.combinations
    return sorted(game.cards.labels[x] for x in c.next_picks(ids(game, *picked), ids(game, *hand), over,
                                                            ids(game, *must)))


# ---------------------------------------------------------------- shapes and what beats what


def test_each_kind_is_read_from_its_shape(game: Game) -> None:
    assert reading(game, ["a 7"]) == ("single", 1, 7)
    assert reading(game, ["a 7", "b 7"]) == ("pair", 2, 7)
    assert reading(game, ["a 7", "b 7", "c 7"]) == ("triple", 3, 7)
    assert reading(game, ["a 4", "b 4", "a 5", "c 5"]) == ("stairs", 4, 5)
    assert reading(game, ["a 4", "b 5", "a 6", "d 7"]) == ("straight", 4, 7)
    assert reading(game, ["a 9", "b 9", "c 9", "a 3", "b 3"]) == ("house", 5, 9)          # the three decides
    assert reading(game, ["a 9", "b 9", "c 9", "d 9"]) == ("bomb", 4, 9)
    assert reading(game, ["a 4", "a 5", "a 6", "a 7"]) == ("flush", 4, 7)                 # a bomb before a straight
    assert reading(game, ["a 4", "b 6"]) is None                                           # no kind
    assert reading(game, ["a 4", "b 5"]) is None                                           # a run of 2 is too short
    assert reading(game, ["x 20"]) == ("crown", 1, 20) and reading(game, ["x 0"]) == ("fool", 1, 0)


def test_a_play_beats_its_own_kind_as_long_and_higher_a_kind_it_beats_and_a_bomb_beats_all(game: Game) -> None:
    pair5 = top(game, "a 5", "b 5")
    assert reading(game, ["c 7", "d 7"], pair5) == ("pair", 2, 7)
    assert reading(game, ["c 4", "d 4"], pair5) is None                                   # lower
    assert reading(game, ["c 8", "d 8", "a 8"], pair5) is None                            # another kind
    straight3 = top(game, "a 3", "b 4", "c 5")
    assert reading(game, ["a 6", "b 7", "c 8", "d 9"], straight3) is None                 # longer: not as long
    assert reading(game, ["a 6", "b 7", "c 8"], straight3) == ("straight", 3, 8)
    assert reading(game, ["x 20"], top(game, "a 10")) == ("crown", 1, 20)                 # beats: [single]
    assert reading(game, ["a 10"], top(game, "x 20")) is None
    bomb4 = top(game, "a 4", "b 4", "c 4", "d 4")
    assert reading(game, ["a 3", "b 3", "c 3", "d 3"], bomb4) is None                     # a lower bomb
    assert reading(game, ["a 3", "a 4", "a 5", "a 6"], bomb4) == ("flush", 4, 6)          # higher value, as long
    assert reading(game, ["a 7", "b 7", "c 7", "d 7"], pair5) == ("bomb", 4, 7)           # a bomb beats anything
    assert reading(game, ["c 7", "d 7"], bomb4) is None                                   # nothing beats a bomb
    flush5 = top(game, "b 3", "b 4", "b 5", "b 6", "b 7")
    assert reading(game, ["c 6", "c 7", "c 8", "c 9"], flush5) is None                    # fewer cards
    assert reading(game, ["x 0"], pair5) is None and reading(game, ["x 0"]) is not None   # lead_only


def test_a_wild_card_stands_in_for_a_rank_it_may_take_but_not_in_a_bomb(game: Game) -> None:
    assert reading(game, ["a 7", "x 1"]) == ("pair", 2, 7)
    assert reading(game, ["a 7", "b 7", "c 8", "x 1"]) == ("stairs", 4, 8)      # 7-7 8-8, the joker an 8
    assert reading(game, ["a 7", "b 7", "c 7", "x 1"]) is None                  # four 7s would be a bomb
    assert reading(game, ["a 5", "b 6", "x 1"]) == ("straight", 3, 7)           # 5-6-7 reads higher than 4-5-6
    assert reading(game, ["a 9", "b 10", "x 1"]) == ("straight", 3, 10)         # no 11: the joker is an 8
    assert reading(game, ["a 9", "b 9", "c 9", "x 1"]) is None                  # no wild card in a bomb
    assert reading(game, ["a 3", "b 3", "x 1", "c 5", "d 5"]) == ("house", 5, 5)   # 5-5-joker over 3-3
    assert reading(game, ["x 1", "x 20"]) is None                               # it never stands for a crown


def test_a_wild_card_played_alone_is_worth_its_alone_value(game: Game, tmp_path: Path) -> None:
    assert reading(game, ["x 1"]) == ("single", 1, 3.5)                         # led: the lowest rank and a half
    assert reading(game, ["x 1"], top(game, "a 9")) == ("single", 1, 9.5)       # half a rank above
    assert reading(game, ["x 1"], top(game, "x 20")) is None                    # not above a crown
    fixed = make(tmp_path, source(COMBINATIONS.replace("alone: above", "alone: 6")))
    assert reading(fixed, ["x 1"], top(fixed, "a 5")) == ("single", 1, 6)
    assert reading(fixed, ["x 1"], top(fixed, "a 7")) is None
    never = make(tmp_path, source(COMBINATIONS.replace("    alone: above\n", "")))
    assert reading(never, ["x 1"]) is None


# ---------------------------------------------------------------- picking a play card by card


def test_next_picks_are_the_cards_that_lead_on_to_a_play_that_beats_the_top(game: Game) -> None:
    hand = ["a 5", "b 5", "a 6", "c 7", "d 8", "x 1", "a 9"]
    pair5 = top(game, "c 5", "d 5")
    assert picks(game, hand, [], pair5) == ["a 6", "a 9", "c 7", "d 8", "x 1"]      # each pairs with the joker
    assert picks(game, hand, ["a 6"], pair5) == ["x 1"]
    assert picks(game, hand, ["a 5"], top(game, "b 4", "c 5", "d 6")) == ["a 6", "c 7", "x 1"]  # 5-6-7 / 5-joker-7
    c = game.combinations
    assert c.is_play(ids(game, "a 6", "x 1"), ids(game, *hand), pair5)
    assert not c.is_play(ids(game, "a 6"), ids(game, *hand), pair5)


def test_an_obligation_keeps_only_plays_that_include_one_of_its_cards_while_there_is_one(game: Game) -> None:
    hand = ["a 5", "b 5", "a 7", "b 8", "c 9"]
    c = game.combinations
    assert picks(game, hand, [], None, must=["a 7"]) == ["a 7", "b 8", "c 9"]   # the 7 alone, or 7-8-9
    assert picks(game, hand, ["a 5"], None, must=["a 7"]) == []                 # 5 makes no play with the 7
    assert picks(game, hand, ["b 8"], None, must=["a 7"]) == ["a 7", "c 9"]
    assert c.must_play(ids(game, *hand), None, ids(game, "a 7"))
    assert not c.must_play(ids(game, *hand), top(game, "a 10"), ids(game, "a 7"))   # no play with the 7 beats it
    # when it does not bind, every play is open
    assert picks(game, hand, [], top(game, "a 10"), must=["a 7"]) == []         # nothing beats a 10 here


def test_a_hands_shapes_are_made_once_and_each_top_picks_those_that_beat_it(game: Game,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    hand = ids(game, "a 3", "b 3", "c 4", "d 4", "a 5", "b 5", "c 6", "d 6", "a 7", "b 7", "x 1")  # no flush
    c = game.combinations
    pair6, single9 = top(game, "a 6", "b 6"), top(game, "a 9")
    c.kept.clear()
    made = []
    every = c.maker.every
    monkeypatch.setattr(c.maker, "every", lambda *a: made.append(a) or every(*a))
    led = c.shapes(hand, None)
    on_pairs = c.shapes(hand, pair6)
    on_single = c.shapes(hand, single9)
    assert len(made) == 1                                      # the shapes of the hand, made once
    assert {c.kinds[s.kind].name for s in on_pairs} == {"pair"}
    assert sorted(s.value for s in on_pairs) == [7, 7]        # two 7s, or a 7 and the joker (shapes, not cards)
    assert [(c.kinds[s.kind].name, s.value) for s in on_single] == [("single", 9.5)]   # the joker alone, above
    assert len(led) > 10 * len(on_pairs)
    c.shapes(hand[1:], None)
    assert len(made) == 2                                      # another hand: made again


# ---------------------------------------------------------------- the climb step


def test_out_of_turn_plays_and_an_obligation_in_a_climb(tmp_path: Path) -> None:
    game = make(tmp_path, source(climb="""\
        out_of_turn: [bomb]
        out_of_turn_step: interrupt
        must_include: "card.rank == 7"
        """))
    hands = {N: ["a 3", "a 7", "b 7"], E: ["a 5", "b 5", "c 5", "d 5", "a 9"], S: ["c 7", "c 9"], W: ["d 9"]}
    state = at_step(game, "play", hands, dealer=W)
    assert state.pending.actor == N and sorted(game.labels(state)) == ["a 7", "b 7"]   # the 3 includes no 7
    play(game, state, "a 7", "b 7")
    assert state.pending.actor == E and state.pending.step.name == "interrupt"     # East's bomb, out of turn
    play(game, state, "a 5", "b 5", "c 5", "d 5")
    assert state.vars["top_player"] == E
    # nobody beats the bomb: East takes the trick and leads; North's 3 is left
    assert state.pending.actor == E and len(state.per_seat["won"][E]) == 6


@pytest.mark.parametrize("text, where, said", [
    (source(COMBINATIONS.replace("crown:    {cards:", "crown:    {run: 2, sets: [2, 1], cards:")), "crown:",
     "a kind is one shape (run, sets or flush), not run and sets"),
    (source(COMBINATIONS.replace("beats: [single]", "beats: [singel]")), "beats: [singel]", "beats names 'singel'"),
    (source(climb="out_of_turn: [bombs]\n"), "out_of_turn:", "not a kind of the combinations section"),
    (source(climb="out_of_turn: 3\n"), "out_of_turn:", "out_of_turn must be a list of kinds"),
    (source(combinations=""), "do: climb", "needs the combinations section"),
    (source(climb="must_include: \"card.rnk == 7\"\n"), "must_include:", "rnk"),
    (source(COMBINATIONS.replace("rank: card.rank", "rank: card.suit")), "rank: card.suit", "rank must be a number"),
])
def test_validate_refuses_mistakes_of_combinations_and_climb_with_their_place(tmp_path: Path, text: str, where: str,
                                                                              said: str) -> None:
    line, message = refusal(tmp_path, text)
    assert line == line_of(text, where) and said in message


def test_the_example_of_each_builtin_of_plays_runs_in_a_climbing_game(tmp_path: Path) -> None:
    import interpreter.engine.compile as engine_compile
    from interpreter.dsl.builtins import REGISTRY
    from interpreter.dsl.compiler import Compiler
    from interpreter.dsl.types import CARDS, SEAT
    from interpreter.errors import Position

    from .test_dsl import PLAYS

    made: list[Compiler] = []

    class Recording(Compiler):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            made.append(self)

    mp = pytest.MonkeyPatch()
    mp.setattr(engine_compile, "Compiler", Recording)
    try:
        game = make(tmp_path, source(climb="""\
            must_include: "card.rank == round.wish"
            before_turn:
              wish: {do: set, narrate: false, round: {wish: 7}}
            """))
    finally:
        mp.undo()
    state = at_step(game, "play", {N: ["a 5", "b 5", "a 7"], E: ["c 5"], S: ["c 7"], W: ["d 9"]}, dealer=W)
    state.vars.update(wish=7, play=state.per_seat["hand"][N][:2])
    results = {}
    for name in sorted(PLAYS):
        compiled = made[0].compile(REGISTRY[name].example, {"seat": SEAT, "picked": CARDS},
                                   lambda offset: Position("example", 1, 1 + offset))
        results[name] = compiled({"$s": state, "seat": N, "picked": []})
    five, five2, seven = state.per_seat["hand"][N]
    assert results == {"combination": {"kind": "pair", "length": 2, "value": 5, "bomb": False, "ranks": [5, 5],
                                                 "tie": 0},
                       "is_play": False, "must_play": True, "next_picks": [five, five2, seven]}


def test_a_round_may_climb_twice(tmp_path: Path) -> None:
    import random

    text = source(hand=4) + textwrap.indent(textwrap.dedent("""\
        deal_again: {do: deal, hand: 4, rest: table}
        again:
          do: climb
          table: table
          to: won
        """), "  ")
    game = make(tmp_path, text)
    state = game.new_state()
    rng = random.Random(4)
    asked: dict[str, tuple[int, list[str]]] = {}
    while not state.finished:
        d = state.pending
        if d.kind == "chance":
            game.apply_chance(state, game.sample_chance(state, rng))
            continue
        if d.step.name not in asked:
            asked[d.step.name] = (d.actor, sorted(game.labels(state)))
        game.apply(state, d.actions[rng.randrange(len(d.actions))])
    # the second climb began afresh: a lead (no pass) by the seat that led the first (left of the dealer), and it
    # went on until one seat or none held cards
    actor, labels = asked["again"]
    assert actor == asked["play"][0] and "pass" not in labels and "pass" not in asked["play"][1]
    assert sum(1 for h in state.per_seat["hand"] if h) <= 1
