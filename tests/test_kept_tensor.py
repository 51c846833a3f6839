"""The observation tensors the toolkits keep from step to step (interpreter/toolkits/tensor.py) are the ones the
public API builds from scratch (``GameState.observation_tensor``), after every step of whole games of every bundled
game and player count."""

from __future__ import annotations

import random
from copy import deepcopy

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed here (pip install 'trickbook[pettingzoo]')")

import interpreter as tb  # noqa: E402
from interpreter.toolkits.tensor import KeptTensor  # noqa: E402

from .conftest import GAMES, SHORTER, suite_counts  # noqa: E402  (the long games played shorter)

CASES = [(path.stem, n) for path in GAMES for n in suite_counts(path)]


def from_scratch(state, seat):
    return np.asarray(state.observation_tensor(seat), np.float32)


def step(state, rng):
    if state.is_chance():
        state.apply_chance()
    else:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name,players", CASES)
def test_a_kept_tensor_is_the_one_built_from_scratch_after_every_step(name, players):
    game = tb.load(name, players, SHORTER.get(name))
    kept = KeptTensor(game)
    rng = random.Random(players)
    state = game.new_state(seed=players)
    asked = 0
    while not state.is_over():
        step(state, rng)
        # some seats after every step, the others after several: the changes of one step and of many
        for seat in range(players):
            if state.is_over() or rng.random() < 0.5:
                assert np.array_equal(kept.tensor(state, seat), from_scratch(state, seat)), (state.round, seat)
                asked += 1
    assert asked > 10 * players


def test_a_tensor_kept_for_one_state_is_made_again_for_another_and_back():
    game = tb.load("hearts", 4)
    kept = KeptTensor(game)
    rng = random.Random(5)
    state = game.new_state(seed=5)
    for _ in range(40):
        step(state, rng)
    kept.tensor(state, 0)
    other = state.clone()
    for _ in range(9):
        step(other, rng)
    for s in (other, state, other):  # each time the other state: encoded from scratch, not from the last
        assert all(np.array_equal(kept.tensor(s, seat), from_scratch(s, seat)) for seat in range(4))


def test_a_kept_tensor_is_a_new_array_each_time():
    game = tb.load("meinz", 3)
    kept = KeptTensor(game)
    state = game.new_state(seed=1)
    state.apply_chance()
    first = kept.tensor(state, 0)
    first[:] = 7.0  # what a caller does with its array changes nothing kept
    assert np.array_equal(kept.tensor(state, 0), from_scratch(state, 0))


class _Holder:
    """What holds an API state and its kept tensors (as OpenSpiel's and PettingZoo's adapters do)."""

    def __init__(self, state, kept):
        self.state, self.kept = state, kept


@pytest.mark.parametrize("name,players", [("hearts", 4), ("njet-riogrande", 3), ("was-sticht", 3)])
def test_a_deep_copy_keeps_its_tensors_for_its_own_state_from_where_they_were(name, players):
    # a copy made mid-game goes on from the original's tensors (nothing from scratch), each side its own way
    game = tb.load(name, players)
    rng = random.Random(3)
    holder = _Holder(game.new_state(seed=3), KeptTensor(game))
    for _ in range(30):
        step(holder.state, rng)
    for seat in range(players):
        holder.kept.tensor(holder.state, seat)
    copy = deepcopy(holder)
    assert copy.state is not holder.state and copy.kept.state is copy.state._state
    started = []
    for kept in (holder.kept, copy.kept):
        kept._start = lambda inner, kept=kept: started.append(kept) or KeptTensor._start(kept, inner)
    for _ in range(25):
        for h in (copy, holder):
            if not h.state.is_over():
                step(h.state, rng)
                seat = rng.randrange(players)
                assert np.array_equal(h.kept.tensor(h.state, seat), from_scratch(h.state, seat))
    assert started == []
