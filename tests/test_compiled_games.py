"""Whole games on the compiled backend's machine (interpreter/compiled/machine.py) in lockstep with the Python
backend (tests/compiled_games.py), for every bundled game and docs example the machine writes, at the fewest players
and at 4; and random games played out on it alone keep every card and end."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import numpy as np
import pytest

from interpreter.compiled.arrays import HEAP, HEAP_START, MOST, TOP
from interpreter.compiled.machine import FINISHED, Machine
from interpreter.compiled.values import NotWritten

from .compiled_games import NOT_WRITTEN_STEPS, lockstep_game
from .compiled_steps import compiled_or_skip, short_list
from .conftest import GAMES, ROOT, counts_of, game_of

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))
CONFIGS = [(path, n) for path in [*GAMES, *EXAMPLES]
           for n in sorted({min(counts_of(path)), 4} & set(counts_of(path)))]
# the short list's, and games made whole since it was fixed (every one with TRICKBOOK_COMPILED=all)
PLAYED = short_list(CONFIGS) + [c for c in CONFIGS
                                if c[0].stem in ("skat", "climbing") and c not in short_list(CONFIGS)] + [
    (ROOT / "docs" / "examples" / "deal-all.yaml", 5)]  # an unequal deal (5, 5, 5, 5, 4): only at 5 players
PLAYED_IDS = [f"{p.stem}-{n}" for p, n in PLAYED]


@functools.cache
def machine_of(path: Path, players: int) -> Machine | None:
    """The machine of a game (made once a test run; the tests that play it change nothing of it), or None."""
    try:
        return Machine(game_of(str(path), players))
    except NotWritten:
        return None


def test_the_machine_writes_every_game_and_says_why_not_a_part_it_does_not(tmp_path):
    written = [c for c in CONFIGS if machine_of(*c) is not None]
    assert written == CONFIGS
    from .test_steps import DEAL_3, TRICKS, make

    with pytest.raises(NotWritten, match="a text made in play"):
        Machine(make(tmp_path, DEAL_3, NOT_WRITTEN_STEPS, TRICKS))


def test_tichu_plays_in_lockstep_with_the_python_backend():
    """Tichu (the climb's combinations builtins, its readings, a wild card alone half a rank above, bombs out of turn,
    the wish) in lockstep with the Python backend for its first decisions (whole games: TRICKBOOK_COMPILED=all);
    docs/examples/climbing.yaml plays whole in the list above."""
    machine = machine_of(ROOT / "games" / "tichu.yaml", 4)
    assert machine is not None
    assert lockstep_game(machine, 2, most=160) == 160


def test_big_two_plays_a_whole_game_in_lockstep_with_the_python_backend():
    """Big Two (docs/examples/big-two.yaml: a suit tie-break, flushes, full houses, kinds above kinds, the first
    lead's obligation) in lockstep with the Python backend for one whole game (both seeds: TRICKBOOK_COMPILED=all)."""
    machine = machine_of(ROOT / "docs" / "examples" / "big-two.yaml", 4)
    assert machine is not None
    assert lockstep_game(machine, 0) > 20


@pytest.mark.parametrize(("path", "players"), PLAYED, ids=PLAYED_IDS)
def test_whole_games_agree_with_the_python_backend(path, players):
    machine = machine_of(path, players)
    if machine is None:
        pytest.skip("not written for the compiled backend yet")
    assert sum(lockstep_game(machine, seed) for seed in range(2)) > 0


@pytest.mark.parametrize(("path", "players"), PLAYED, ids=PLAYED_IDS)
def test_random_games_on_the_machine_keep_the_cards_and_end(path, players):
    machine = machine_of(path, players)
    if machine is None:
        pytest.skip("not written for the compiled backend yet")
    module = machine.module
    module.seed(5)
    deck = sorted(machine.lay.layout.kind[c] for c in machine.game.deck)
    for _ in range(3):
        arrays, p = machine.new_game()
        module.playout(*arrays, p, p[:1])
        assert p[FINISHED] == 1
        # every room the written code took in its scratch space was given back, and it never came near the end
        assert arrays.h[TOP] == HEAP_START and arrays.h[MOST] < HEAP // 8, arrays.h[MOST]
        held = sorted(np.concatenate([arrays.z[r, :arrays.zn[r]] for r in range(len(arrays.zn))]).tolist())
        assert held == deck


def test_a_whole_game_whose_trick_play_runs_a_step_that_decides_agrees(monkeypatch):
    """The machine asks the seat a step between plays asks (a claim), takes its actions, and trick play goes on (the
    short list's games all have a part not written yet: this one is beside them)."""
    machine = machine_of(ROOT / "docs" / "examples" / "claims.yaml", 3)
    assert machine is not None
    steps = machine.game.steps
    trick = next(i for i, step in enumerate(steps) if step.kind == "tricks")
    asked = []
    mapping = machine.action_of

    def noted(index, action):
        asked.append((index, type(action).__name__))
        return mapping(index, action)

    monkeypatch.setattr(machine, "action_of", noted)  # (the machine is shared by the run's tests: put back after)
    assert lockstep_game(machine, 1) > 0
    assert (trick, "Choice") in asked and (trick, "Pass") in asked and (trick, "Play") in asked


@pytest.mark.parametrize(("name", "players"), [("hearts", 4), ("njet-riogrande", 4)])
def test_compiled_plays_whole_games_in_lockstep(name, players):
    """The machine compiled (every function of the game's module), in lockstep with the Python backend."""
    compiled_or_skip(everywhere=True)
    machine = Machine(game_of(name, players), compiled=True)
    assert lockstep_game(machine, 0) > 0


def test_a_define_is_one_function_every_call_calls():
    """Doppelkopf's score of a seat calls its game's value twice, which calls the value of a party twice, which calls
    the eyes, the announcements...: each define's body is one function of the module that every call calls (written in
    place at every call, the score's function was 3,598 lines, half the module, and took most of its compile)."""
    machine = machine_of(ROOT / "games" / "doppelkopf.yaml", 4)
    assert machine is not None
    heads = re.findall(r"^def (\w+)\(", machine.source, re.M)
    assert len(heads) == len(set(heads))
    game_value = [name for name in heads if name.startswith("d_game_value_")]
    assert len(game_value) == 1 and len(re.findall(rf"\b{game_value[0]}\(", machine.source)) >= 3
    longest = max(len(body.splitlines()) for body in re.split(r"^(?=def )", machine.source, flags=re.M))
    assert longest < 200


def test_a_game_with_a_history_and_texts_made_in_play_plays_whole():
    """Mue: its auction's history (a round value of records, read when the Eklat is scored), the vice found by the
    greatest list of numbers, its Eklat put in words (a text made in play: held as only that there is one); the same
    game on both backends."""
    machine = machine_of(ROOT / "games" / "mue.yaml", 4)
    assert machine is not None and machine.lay.made == {machine.lay.layout.value_slot("round", "eklat")}
    assert lockstep_game(machine, 3) > 0


def test_an_automatic_seat_decides_by_its_policy_and_is_never_asked():
    """Meinz at 3: the card monster (an automatic seat) plays the first card of its stack whatever the rules say,
    taken by the machine itself: ``actor`` never names it, and the game agrees with the Python backend's (its
    exchanges of a pair of cards after a trick too)."""
    game = game_of("meinz", 3)
    monster = next(iter(game.automatic))
    machine = Machine(game)
    seen: set[int] = set()
    actor = machine.module.actor

    def noting(*args):
        seat = int(actor(*args))
        seen.add(seat)
        return seat

    machine.module.actor = noting
    assert lockstep_game(machine, 2) > 0
    assert monster not in seen and {0, 1, 2} <= seen
    arrays, p = machine.new_game()
    machine.module.seed(4)
    machine.module.playout(*arrays, p, p[:1])
    won = machine.lay.layout.zone_slot("won", 0)
    assert p[FINISHED] == 1 and arrays.zn[won + monster] > 0  # (the monster played and won tricks)


@pytest.mark.parametrize("players", [5, 6])
def test_a_seat_stuck_ends_trick_play_at_once(players):
    """Mit List und Tuecke at 5 and 6: a seat that cannot play a colour the trick allows ends the round there (the
    machine's settle ends the step as soon as the seat is asked, as the Python backend does), two colours of four
    kept as a combination, whole games in lockstep."""
    machine = Machine(game_of("mit-list-und-tuecke", players))
    assert sum(lockstep_game(machine, seed) for seed in range(2)) > 0


def test_compiled_plays_a_game_of_pairs_swapped_in_lockstep():
    """Meinz at 4 compiled: options that are pairs of cards, swapped, and place_award."""
    compiled_or_skip(everywhere=True)
    machine = Machine(game_of("meinz", 4), compiled=True)
    assert lockstep_game(machine, 0) > 0
