"""The climb's combinations builtins on the compiled backend (interpreter/compiled/combination_calls.py, over the
tables of combination_tables.py) against the Python backend's (engine/combinations.py): random hands, picks, plays
to beat (each the reading of a play made before, a wild card alone half a rank above too), obligations and kinds, the
module run as plain Python; and every reading a play can have is interned when the game is written."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from interpreter.compiled.machine import Machine
from interpreter.compiled.values import INTERNED, NONE, NotWritten
from interpreter.engine.compile import compile_game
from interpreter.rules.loader import load_rules

from .conftest import ROOT
from .test_compiled_games import machine_of

# (Big Two: ties, flushes and sets needing any of several cards; fewer hands, as its lockstep game plays it whole)
GAMES = [(ROOT / "games" / "tichu.yaml", 4, 40), (ROOT / "docs" / "examples" / "climbing.yaml", 4, 40),
         (ROOT / "docs" / "examples" / "big-two.yaml", 4, 15)]


class Both:
    """A game's combinations on both backends: the Python backend's Combinations, the compiled support's functions."""

    def __init__(self, path: Path, players: int):
        machine = machine_of(path, players)
        assert machine is not None
        self.game, self.machine = machine.game, machine
        self.cb, self.m = self.game.combinations, self.machine.module
        self.kind = self.machine.lay.layout.kind
        self.h = self.machine.new_game()[0].h
        self.interned = len(self.machine.values.interned)

    def cards(self, ids: list[int]) -> np.ndarray:
        return np.asarray([self.kind[c] for c in ids] or [0], np.int64)

    def encode(self, value: object) -> int:
        return self.machine.values.encode(value)

    def kinds(self, names: list[str] | None) -> int:
        ids = np.asarray([self.encode(n) for n in names or []] or [0], np.int64)
        return int(self.m.cb_kinds(ids, len(names or [])))

    def next_picks(self, picked, hand, top, must=(), kinds=None) -> tuple[list[int], list[int]]:
        want = [self.kind[c] for c in self.cb.next_picks(picked, hand, top, must, kinds)]
        out = np.zeros(len(hand) + 1, np.int64)
        n = self.m.cb_next_picks(self.h, self.cards(picked), len(picked), self.cards(hand), len(hand),
                                 self.encode(top), self.cards(list(must)), len(must), self.kinds(kinds), out)
        return want, out[:n].tolist()

    def is_play(self, picked, hand, top, must=(), kinds=None) -> tuple[bool, bool]:
        got = self.m.cb_is_play(self.h, self.cards(picked), len(picked), self.cards(hand), len(hand), self.encode(top),
                                self.cards(list(must)), len(must), self.kinds(kinds))
        return self.cb.is_play(picked, hand, top, must, kinds), bool(got)

    def must_play(self, hand, top, must, kinds=None) -> tuple[bool, bool]:
        got = self.m.cb_must_play(self.h, self.cards(hand), len(hand), self.encode(top), self.cards(list(must)),
                                  len(must), self.kinds(kinds))
        return self.cb.must_play(hand, top, must, kinds), bool(got)

    def combination(self, cards, top) -> tuple[int, int]:
        want = self.encode(self.cb.combination(cards, top))
        return want, int(self.m.cb_combination(self.h, self.cards(cards), len(cards), self.encode(top)))

    def a_play(self, rng: random.Random, hand: list[int], top: object) -> list[int] | None:
        """A play of ``hand`` beating ``top`` picked card by card at random as a seat picks it (None: none found)."""
        picked: list[int] = []
        while True:
            if picked and self.cb.is_play(picked, hand, top) and rng.random() < 0.5:
                return picked
            options = self.cb.next_picks(picked, hand, top)
            if not options:
                return picked if picked and self.cb.is_play(picked, hand, top) else None
            picked = picked + [rng.choice(options)]


@pytest.mark.parametrize(("path", "players", "hands"), GAMES, ids=["tichu", "climbing", "big-two"])
def test_the_combinations_builtins_agree_with_the_python_backend(path, players, hands):
    both = Both(path, players)
    rng = random.Random(3)
    deck = list(both.game.deck)
    names = [k.name for k in both.cb.kinds]
    asked = {"picks": 0, "bound": 0, "plays": 0, "readings": set()}
    for _ in range(hands):
        rng.shuffle(deck)
        top, left = None, list(deck)
        for _ in range(rng.randrange(4)):  # a trick so far: each play the reading of one beating the one before
            play = both.a_play(rng, left[:rng.randrange(1, 15)], top)
            if play is None:
                break
            top = both.cb.combination(play, top)
            left = [c for c in left if c not in play]
        hand = left[-rng.randrange(1, 15):]
        must = [c for c in hand if rng.random() < 0.2] if rng.random() < 0.5 else []
        kinds = rng.sample(names, rng.randrange(1, 3)) if rng.random() < 0.3 else None
        picked: list[int] = []
        for _ in range(6):
            want, got = both.next_picks(picked, hand, top, must, kinds)
            assert got == want, (hand, picked, top, must, kinds)
            want_play, got_play = both.is_play(picked, hand, top, must, kinds)
            assert got_play == want_play, (hand, picked, top, must, kinds)
            asked["picks"] += 1
            pool = want if want and rng.random() < 0.8 else [c for c in hand if c not in picked]
            if not pool:
                break
            picked = picked + [rng.choice(pool)]
        want_bound, got_bound = both.must_play(hand, top, must, kinds)
        assert got_bound == want_bound, (hand, top, must, kinds)
        asked["bound"] += want_bound
        for cards in (picked, hand[:rng.randrange(1, 6)], both.a_play(rng, hand, top) or []):
            want, got = both.combination(cards, top)
            assert got == want, (cards, top)
            asked["plays"] += want != NONE
            asked["readings"].add(want)
    # the readings were interned when the game was written: none new (a new one would be read as none)
    assert len(both.machine.values.interned) == both.interned
    assert asked["picks"] > 3 * hands and asked["plays"] > hands // 2 and len(asked["readings"]) > 10
    if path.stem == "tichu":  # (an obligation that binds; a wild card read alone, half a rank above)
        assert asked["bound"] > 0
        read = [both.machine.values.interned[r - INTERNED] for r in asked["readings"] if r != NONE]
        assert any(isinstance(r["value"], float) for r in read), read


def test_a_readings_half_value_read_as_a_field_is_not_written(tmp_path):
    """The value of a Phoenix played alone (10.5) is held as twice it by the combinations' tables, but an expression
    that reads ``round.top.value`` would need it as a number: refused when the machine is written (NotWritten: the
    game plays on the Python backend), not later."""
    text = (ROOT / "games" / "tichu.yaml").read_text()
    dog = "ends_trick: \"round.top.kind == 'dog'\""
    assert dog in text
    path = tmp_path / "tichu.yaml"
    path.write_text(text.replace(dog, "ends_trick: \"round.top.kind == 'dog' or round.top.value > 100\""))
    with pytest.raises(NotWritten, match="cannot hold as a number: 1.5"):
        Machine(compile_game(load_rules(path), 4))
