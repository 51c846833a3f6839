"""Memory stays flat with the number of simulated games: what the engine keeps between games (card tables,
remembered labels and choices, generated functions) is bounded, and reaches its bound within a few games."""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest

from .conftest import game_of


@pytest.mark.parametrize(("name", "players"), [("njet-riogrande", 4), ("meinz", 4), ("mit-list-und-tuecke", 5)])
def test_memory_does_not_grow_with_the_number_of_games(name, players):
    game = game_of(name, players)
    rng = random.Random(3)

    def play(games: int) -> None:
        for _ in range(games):
            game.playout(game.new_state(), rng)

    play(30)  # tables fill during the first games
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        play(60)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 128 * 1024, f"{name}: {grown // 1024} KiB more after 60 more games"
