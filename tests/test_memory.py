"""Memory stays flat with the number of simulated games: what the engine keeps between games (card tables,
remembered labels and choices, generated functions) is bounded, and reaches its bound within a few games."""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest

from .conftest import game_of


@pytest.mark.parametrize(("name", "players"), [("njet-riogrande", 4), ("mit-list-und-tuecke", 5)])
def test_memory_does_not_grow_with_the_number_of_games(name, players):
    game = game_of(name, players)
    rng = random.Random(3)

    def play(games: int) -> None:
        for _ in range(games):
            game.playout(game.new_state(), rng)

    play(20)  # tables fill during the first games
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        play(40)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 96 * 1024, f"{name}: {grown // 1024} KiB more after 40 more games"


def test_compiling_many_games_in_one_process_keeps_no_namespace_alive(tmp_path, monkeypatch):
    """A long process (a fuzzer's worker, a server) compiles game after game: the generated code of each is saved
    when the game is compiled, not held for the process's end (which kept every game's namespace alive)."""
    import gc
    import weakref

    from interpreter.dsl import codegen
    from interpreter.engine.compile import compile_game
    from interpreter.rules.loader import load_rules

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TRICKBOOK_NO_CACHE", raising=False)
    made: list[weakref.ref] = []
    real = codegen.Namespace.__init__

    def init(self, key=None):
        real(self, key)
        made.append(weakref.ref(self))

    monkeypatch.setattr(codegen.Namespace, "__init__", init)
    for players in (3, 4, 5):
        compile_game(load_rules("oh-hell"), players)
    gc.collect()
    assert len(made) == 3 and all(r() is None for r in made)
    assert len(list((tmp_path / "trickbook").glob("code-*.marshal"))) == 3  # each game's code kept for next time
