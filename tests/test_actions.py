"""Stable action ids (engine/actions.py): every action of every bundled game has one, known before play, and
says what it is."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.actions import ActionSpace
from interpreter.engine.compile import compile_game
from interpreter.engine.state import CHANCE
from interpreter.engine.steps.action_types import Choice, Cover, Pass, Play, Stop, Take
from interpreter.errors import GameError
from interpreter.rules.loader import load_rules

from .conftest import GAMES, game_of, suite_counts
from .test_steps import DEAL_3, TRICKS, make

CASES = [(path.stem, n) for path in GAMES for n in suite_counts(path)]

KIND_OF = {Pass: {"pass"}, Stop: {"stop"}, Cover: {"space"}, Play: {"card"}, Take: {"card"},
           Choice: {"card", "seat", "number", "text", "truth", "list", "record"}}


@pytest.mark.parametrize("name,players", CASES)
def test_every_legal_action_of_random_games_has_an_id_that_gives_it_back(name, players):
    game = game_of(name, players)
    space = ActionSpace(game)
    rng = random.Random(7)
    seen_kinds = set()
    for _ in range(2):
        state = game.new_state()
        while state.pending is not None:
            d = state.pending
            if d.actor == CHANCE:
                game.apply_chance(state, game.sample_chance(state, rng))
                continue
            ids = space.ids(d.step, d.actions)
            assert len(set(ids)) == len(ids), "two legal actions share an id"
            for a, i in zip(d.actions, ids):
                info = space.infos[i]
                assert info.step == d.step.name and info.kind in KIND_OF[type(a)]
                seen_kinds.add(info.kind)
                if isinstance(a, Choice) and info.kind in ("number", "text", "seat"):
                    assert info.value == a.value
                if isinstance(a, (Play, Take)):
                    assert game.cards.labels[info.value] == game.cards.labels[a.card]
            game.apply(state, d.actions[rng.randrange(len(d.actions))])
    assert "card" in seen_kinds


def test_ids_are_the_same_in_every_compile_and_start_at_zero():
    a, b = ActionSpace(game_of("hearts", 4)), ActionSpace(compile_game(load_rules("hearts"), 4))
    assert a.infos == b.infos and [i.id for i in a.infos] == list(range(len(a)))
    # the pass step's cards first (deck order, 52), then the trick's, then the moon's two texts
    assert [(i.step, i.kind) for i in a.infos[::52]] == [("pass", "card"), ("tricks", "card"), ("moon", "text")]
    assert a.infos[-2:][0].value == "shooter -26"


def test_identical_cards_are_one_action():
    game = game_of("njet-riogrande", 4)
    space = ActionSpace(game)
    plays = [i for i in space.infos if i.step == "tricks"]
    assert len({i.label for i in plays}) == len(plays) < len(game.deck)


def test_domains_by_type_numbers_from_zero_to_the_deck_and_constant_options_as_written():
    spades, oh_hell = ActionSpace(game_of("spades", 4)), ActionSpace(game_of("oh-hell", 4))
    assert [i.value for i in spades.infos if i.step == "bids"] == list(range(0, 14))  # constant: as written
    assert [i.value for i in oh_hell.infos if i.step == "bids"] == list(range(0, 53))  # 0 to the deck's 52


def test_a_declared_domain_gives_lists_ids(tmp_path):
    meinz = ActionSpace(game_of("meinz", 4))
    pairs = [i for i in meinz.infos if i.step == "exchange" and i.kind == "list"]
    assert len(pairs) == 4 * 9 * 9 and pairs[0].label == "red 1 + red 1"


KEEP = """\
keep:
  do: choose
  who: left(round.dealer)
  options: "combinations(distinct([c.suit for c in seat.hand]), 2)"
"""


def test_lists_without_a_domain_are_refused_when_ids_are_asked_for_naming_the_step(tmp_path):
    game = make(tmp_path, DEAL_3, KEEP, TRICKS)  # playing needs no ids
    with pytest.raises(GameError, match=r"tiny.yaml:\d+:\d+: error: the options of step 'keep' are list of "
                                        r"values.*give the step a domain:"):
        ActionSpace(game)
    fixed = make(tmp_path, DEAL_3, KEEP + '  domain: "combinations(distinct([c.suit for c in deck]), 2)"\n', TRICKS)
    keep = [i for i in ActionSpace(fixed).infos if i.step == "keep"]
    assert [i.value for i in keep] == [("x", "y"), ("x", "z"), ("y", "z")]


def test_a_value_outside_the_declared_domain_is_an_error_naming_the_step(tmp_path):
    game = make(tmp_path, DEAL_3, KEEP + "  domain: \"[['x', 'y']]\"\n", TRICKS)
    space = ActionSpace(game)
    with pytest.raises(GameError, match="step 'keep' offered 'x \\+ z', which is not among the actions"):
        space.id_of(next(s for s in game.every_step() if s.name == "keep"), Choice(("x", "z"), "x + z"))
