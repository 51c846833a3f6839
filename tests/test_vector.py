"""The vector environment (interpreter/toolkits/vector.py) and what it writes: each seat's observation written by the
compiled backend (compiled/observe_template.py) is the encoder's of the same state at every point of random games
(the machine in lockstep with the Python backend, run as plain Python), the mask its legal ids, a seat's observation
tells nothing of the cards it does not see (a sample of what the seat cannot tell apart gives the same numbers), and
stepped games end with the win shared and begin again."""

from __future__ import annotations

import functools
import os
import random
import re
import sys

import numpy as np
import pytest

from interpreter.compiled.arrays import pack_arrays
from interpreter.compiled.machine import FINISHED, STATUS, STEP
from interpreter.compiled.steps import CHANCE as DEALS
from interpreter.compiled.steps import DECIDES
from interpreter.compiled.values import NotWritten
from interpreter.engine.knowledge import Knowledge
from interpreter.engine.made_texts import made_texts
from interpreter.engine.observation import observe
from interpreter.engine.samples import determinize
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError, IllegalAction
from interpreter.runtime.layout import pack
from interpreter.runtime.slots import Slots
from interpreter.toolkits.vector import VectorEnv

from .compiled_steps import compiled_or_skip
from .conftest import ROOT
from .test_steps import DEAL_3, TRICKS, write
from .test_steps import rules as rules_of

EXAMPLES = ROOT / "docs" / "examples"

# games whose observations have every kind of segment the games the environment takes have but game values: zones
# seen by their owner and by all, counters, totals, round and seat values of each encoding (a seat, a list of seats,
# cards, a number, a text, a record), seen by all, by their owner, and hidden while a simultaneous choice fills them
# (Was sticht?), the trick and the last trick
LOCKSTEP = [("njet-riogrande", 4), ("was-sticht", 3), ("euchre", 4), ("skat", 3)]
# games whose trick step has parts that decide in turn with the same numbers: a step it runs (Meinz, Mit List und
# Tücke), a taker's choice of cards (split-tricks)
PARTS = [("meinz", 4), ("mit-list-und-tuecke", 4), (str(EXAMPLES / "split-tricks.yaml"), 3)]
# games of hidden teams (what each seat knows of them: its own team, seats revealed in play, the teams' sizes), each
# with a seed whose first 300 decisions reach a round where they are hidden (Doppelkopf: a normal game)
HIDDEN_TEAMS = [("doppelkopf", 4, 26), (str(EXAMPLES / "hidden-partners.yaml"), 4, 1)]
# games of texts made in play (Bridge's contract, Mü's Eklat: told only as there being one) and of a text only shown
# (Bridge's vulnerability), each with a seed whose first 300 decisions set one (Mü: an Eklat, a tie)
MADE_TEXTS = [("bridge", 4, 1), ("mue", 3, 9), ("mue-riogrande", 5, 0)]
# a climb (plays of several cards; the play to beat a reading record): the docs example, and Tichu (slower as plain
# Python) with TRICKBOOK_COMPILED=all
CLIMBS = [(str(EXAMPLES / "climbing.yaml"), 4)] + ([("tichu", 4)] if os.environ.get("TRICKBOOK_COMPILED") == "all"
                                                   else [])


@functools.cache
def env_of(name: str, players: int) -> VectorEnv:
    """A vector environment of one game, run as plain Python (made once a test run)."""
    return VectorEnv(name, players, n=2, seed=3, compiled=False)


def _observed(env: VectorEnv, arrays, p, seat: int) -> list[float]:
    obs = np.zeros((1, env.observation_size), np.float32)
    env.machine.module.observe(*arrays, p, seat, obs, 0)
    return obs[0].tolist()


def _lockstep(env: VectorEnv, seed: int, visit, most: int = 10**9) -> int:
    """A random game on the Python backend and the machine together (the Python backend's deals dealt on both, the
    same actions), ``visit(state, arrays, p, knowledge)`` at every point, to its end or its ``most``-th decision; the
    decisions taken."""
    game, module, lay, machine = env.machine.game, env.machine.module, env.machine.lay, env.machine
    rng = random.Random(seed)
    state = game.new_state()
    knowledge = Knowledge(game, state)
    arrays, p = machine.new_game()
    taken = 0
    while True:
        visit(state, arrays, p, knowledge)
        d = state.pending
        if d is None or taken == most:
            assert p[FINISHED] == (d is None)
            return taken
        if d.actor == CHANCE:
            assert p[STATUS] == DEALS
            order = game.sample_chance(state, rng)
            game.apply_chance(state, order)
            module.deal(*arrays, p, np.asarray([lay.layout.kind[c] for c in order], np.int64))
        else:
            assert p[STATUS] == DECIDES and p[STEP] == state.step_index
            action = d.actions[rng.randrange(len(d.actions))]
            number = machine.action_of(state.step_index, action, d.step)
            game.apply(state, action)
            module.apply(*arrays, p, number)
            taken += 1
        knowledge.update(state)


@pytest.mark.parametrize(("name", "players", "seed"),
                         [(name, players, 1) for name, players in LOCKSTEP + PARTS + CLIMBS]
                         + HIDDEN_TEAMS + MADE_TEXTS)
def test_every_seats_observation_and_the_mask_are_the_python_backends_at_every_point(name, players, seed):
    env = env_of(name, players)
    encoder, space, module = env.game.encoder, env.game.actions, env.machine.module
    counted = {"points": 0, "masks": 0, "hidden": 0, "made": 0}
    made = made_texts(env.machine.game)

    def visit(state, arrays, p, knowledge):
        known = state.team_known  # (hidden teams some seat does not know all of)
        counted["hidden"] += known is not None and any(bits != (1 << players) - 1 for bits in known)
        counted["made"] += any(state.vars.get(name) is not None for name in made)
        for seat in range(players):
            want = encoder.encode(observe(env.machine.game, state, seat))
            got = _observed(env, arrays, p, seat)
            if got != want:
                differ = [(name, at) for at, name in _places(encoder) if got[at] != want[at]]
                raise AssertionError(f"seat {seat}: {differ[:6]}")
        counted["points"] += 1
        d = state.pending
        if d is not None and d.actor != CHANCE:
            out = np.empty(env.machine.actions, np.int64)
            n = module.legal(*arrays, p, out)
            mask = np.zeros((1, env.num_actions), np.int8)
            ids, nids = np.zeros((1, env.machine.actions), np.int64), np.zeros(1, np.int64)
            assert module.vec_mask(*arrays, p, out, n, mask, 0, ids, nids) >= 0
            assert np.flatnonzero(mask[0]).tolist() == sorted(set(space.ids(d.step, d.actions)))
            counted["masks"] += 1

    _lockstep(env, seed, visit, 300)
    assert counted["masks"] > 50 and counted["points"] > counted["masks"]
    assert counted["hidden"] > 15 or (name, players, seed) not in HIDDEN_TEAMS, counted
    assert counted["made"] > 0 or (name, players, seed) not in MADE_TEXTS, counted


def _places(encoder):
    """Each place of the tensor with the name of its segment."""
    at = 0
    for name, size in encoder.layout:
        for _ in range(size):
            yield at, name
            at += 1


@pytest.mark.parametrize(("name", "players", "seed"), [("njet-riogrande", 4, 0), ("euchre", 4, 0)]
                         + [(name, players, 0) for name, players in CLIMBS] + HIDDEN_TEAMS + MADE_TEXTS)
def test_a_seats_observation_is_the_same_in_every_state_it_cannot_tell_apart(name, players, seed):
    """The hidden-information check on the vector environment's observations: the cards a seat has not seen dealt
    again (a sample, engine/samples.py; hidden teams: the teams it does not know drawn again with them) change
    nothing of its observation, though they change another seat's."""
    env = env_of(name, players)
    game, machine = env.machine.game, env.machine
    counted = {"samples": 0, "others": 0, "teams": 0}

    def visit(state, arrays, p, knowledge):
        d = state.pending
        if d is None or d.actor == CHANCE:
            return
        seat = d.actor
        sample = determinize(game, state, seat, knowledge, random.Random(counted["samples"]))
        again = pack_arrays(machine.lay, Slots.of(game, pack(game, sample)), machine.values)
        mine = _observed(env, arrays, p, seat)
        assert _observed(env, again, p, seat) == mine == env.game.encoder.encode(observe(game, sample, seat))
        counted["samples"] += 1
        counted["others"] += any(_observed(env, again, p, s) != _observed(env, arrays, p, s)
                                 for s in range(players) if s != seat)
        counted["teams"] += sample.teams != state.teams

    _lockstep(env, seed, visit, 300)
    assert counted["samples"] > 30 and counted["others"] > counted["samples"] // 2, counted
    assert counted["teams"] > 5 or (name, players, seed) not in HIDDEN_TEAMS, counted


def _hidden_cards(env: VectorEnv) -> dict[int, list[slice]]:
    """For each seat, the places of the observation that count the cards of zones it does not see: those only
    another seat sees and those no one sees."""
    game, encoder = env.machine.game, env.game.encoder
    out: dict[int, list[slice]] = {s: [] for s in range(env.players)}
    at = 0
    for (_, size), path in zip(encoder.layout, encoder.paths, strict=True):
        visible = game.zones[path[1]].visible if path[0] == "zones" else "all"
        if visible != "all":
            owner = game.seat_names.index(path[2]) if visible == "owner" and len(path) == 3 else None
            for s in range(env.players):
                if s != owner:
                    out[s].append(slice(at, at + encoder.kinds))
        at += size
    return out


def test_stepped_games_share_the_win_at_their_end_and_begin_again():
    """... and no observation the environment gives counts a card of a hand the seat to act does not see."""
    env = env_of("njet-riogrande", 4)
    hidden = _hidden_cards(env)
    assert all(len(places) == 3 * 3 + 1 + 4 for places in hidden.values())  # 3 of others' zones, 5 no one sees
    obs, info = env.reset(seed=7)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(700):
        was = env.obs.copy()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.mask])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs is env.obs and not truncated.any()
        for g in range(env.num_envs):
            assert env.mask[g].sum() > 0 and obs[g, info["seat"][g]] == 1.0  # the observer is the seat to act
            assert not any(obs[g, places].any() for places in hidden[info["seat"][g]])
            if terminated[g]:
                ended += 1
                assert rewards[g].sum() == pytest.approx(1.0) and set(rewards[g]) <= {0.0, 1.0, 0.5, 1 / 3, 0.25}
                assert not np.array_equal(obs[g], was[g])
            else:
                assert not rewards[g].any()
    assert ended >= 2


def test_the_same_seed_gives_the_same_games_and_an_illegal_action_moves_none():
    env = env_of("njet-riogrande", 4)
    seen = []
    for _ in range(2):
        env.reset(seed=11)
        rng = np.random.default_rng(1)
        for _ in range(30):
            env.step(np.array([rng.choice(np.flatnonzero(m)) for m in env.mask]))
        seen.append(env.obs.copy())
    assert np.array_equal(*seen)
    assert env.action_space.contains(env.random_actions(np.random.default_rng(0)))
    assert env.observation_space.contains(env.obs) and env.single_action_space.n == env.num_actions
    illegal = np.array([np.flatnonzero(m == 0)[0] for m in env.mask])
    with pytest.raises(IllegalAction, match="game 0: action"):
        env.step(illegal)
    assert np.array_equal(env.obs, seen[1])
    with pytest.raises(IllegalAction, match="2 action ids"):
        env.step(np.zeros(3, np.int64))


def test_the_training_loop_of_docs_vector_md_runs(capsys):
    """The page's example, with two games a call run as plain Python (the page's 256 compiled) and fewer steps."""
    (block,) = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "vector.md").read_text(encoding="utf-8"), re.S)
    assert "n=256, seed=1)" in block and "range(2000)" in block
    block = block.replace("n=256, seed=1)", "n=2, seed=1, compiled=False)").replace("range(2000)", "range(700)")
    exec(compile(block, "docs/vector.md", "exec"), {})
    assert capsys.readouterr().out == "True\n"


def test_a_game_the_compiled_backend_cannot_write_is_refused_naming_the_part(tmp_path):
    """A text made in play in a comprehension (not a conditional's branch, a call that builds it or a define): its
    value's being none or not is not written (compiled/made_texts.py)."""
    said = "said: {do: set, round: {said: \"[text(s.index) for s in seats if s == round.dealer][0]\"}}"
    rules = write(tmp_path, rules_of(DEAL_3, said, TRICKS))
    with pytest.raises(NotWritten, match="a text made in play by a part other than"):
        VectorEnv(str(rules), 4, compiled=False)
    with pytest.raises(GameError, match="whole number of games"):
        VectorEnv("hearts", 4, n=0, compiled=False)


def test_without_llvmlite_the_environment_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "llvmlite", None)  # (an import of it fails)
    with pytest.raises(GameError, match=r"needs llvmlite: pip install 'trickbook\[fast\]'"):
        VectorEnv("hearts", 4)


@pytest.mark.parametrize(("name", "players", "steps"), [("tiny-duel", 2, 60), ("hidden-partners", 4, 300)])
def test_compiled_the_environment_plays_the_games_it_plays_as_plain_python(name, players, steps):
    """The same seed and the same actions give the same observations, masks and rewards compiled as run as plain
    Python (the compiled random stream is numpy's): a small game, and one of hidden teams (what each seat knows,
    revealed by a list of seats); with TRICKBOOK_COMPILED=all (a compile of a second or two each)."""
    compiled_or_skip(everywhere=True)
    both = [VectorEnv(str(EXAMPLES / f"{name}.yaml"), players, n=3, seed=5, compiled=c) for c in (False, True)]
    for env in both:
        env.reset()
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(steps):
        actions = both[0].random_actions(rng)
        got = [env.step(actions) for env in both]
        for a, b in zip(got[0][:4], got[1][:4], strict=True):
            assert np.array_equal(a, b)
        assert np.array_equal(both[0].mask, both[1].mask)
        ended += int(got[0][2].sum())
    assert ended > 3
