"""Every rule file as a PettingZoo AEC environment and one seat as a Gymnasium environment
(interpreter/toolkits/pettingzoo.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed here (pip install 'trickbook[pettingzoo]')")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from interpreter.toolkits.pettingzoo import SeatEnv, TrickbookEnv  # noqa: E402

from .conftest import GAMES, SHORTER, counts_of, suite_counts  # noqa: E402
from .test_api import doc_examples  # noqa: E402

# api_test's advice, not failures: a masked observation is a Dict (as in PettingZoo's own card games), and
# agents are named by their seats
pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent", "ignore:We recommend agents",
                                        "ignore:Observation is not a NumPy array")

CASES = [(path.stem, n) for path in GAMES for n in suite_counts(path)]
FEWEST = [(path.stem, min(counts_of(path))) for path in GAMES]


@pytest.mark.parametrize("name,players", CASES)
def test_every_bundled_game_and_player_count_passes_pettingzoos_api_test(name, players):
    api_test(TrickbookEnv(name, players), num_cycles=300, verbose_progress=False)


def test_a_whole_game_by_the_mask_ends_with_the_win_shared_among_the_winners():
    env = TrickbookEnv("meinz", 3)  # the card monster is no agent
    assert env.possible_agents == ["Alex", "Joe", "Hanna"]
    env.reset(seed=4)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, info = env.last()
        rewards[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) == len(info["labels"]) >= 1
        env.step(int(rng.choice(legal)))
    assert env.state.is_over() and sum(rewards.values()) == pytest.approx(1.0)
    winners = [env.game.seat_names[s] for s in env.state.winners()]
    assert all(rewards[a] == pytest.approx(1 / len(winners)) for a in winners)


def test_an_illegal_action_is_refused():
    from interpreter.errors import IllegalAction

    env = TrickbookEnv("hearts", 4)
    env.reset(seed=1)
    observation = env.observe(env.agent_selection)
    with pytest.raises(IllegalAction):
        env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))


def test_the_same_seed_deals_the_same_game():
    a, b = TrickbookEnv("spades", 4), TrickbookEnv("spades", 4)
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.state.serialize() == b.state.serialize()


def test_an_environments_state_can_be_saved_and_read_back():
    """reset seeds the state with a seed a saved state holds (it was a 64-bit number, more digits than a record
    may write: the saved text could not be read back)."""
    env = TrickbookEnv("hearts", 4)
    for seed in range(5):
        env.reset(seed=seed)
        saved = env.state.serialize()
        assert env.game.deserialize(saved).serialize() == saved


@pytest.mark.parametrize("others", ["random", "greedy", "ismcts"])
def test_one_seat_as_a_gymnasium_environment_against_trickbooks_agents(others):
    env = SeatEnv("oh-hell", 4, {"hands": "up", "largest": 2}, seat=1, others=others, iterations=5)
    observation, info = env.reset(seed=2)
    steps, done, reward = 0, False, 0.0
    while not done:
        assert env.aec.agent_selection == "B" and observation["action_mask"].sum() == len(info["labels"])
        observation, reward, done, truncated, info = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps >= 3 and reward in (0.0, 0.5, 1.0, 1 / 3, 0.25) and env.aec.state.is_over()


def test_the_pettingzoo_example_of_docs_api_md_runs():
    (block,) = doc_examples("pettingzoo")
    exec(compile(block, "docs/api.md", "exec"), {})


@pytest.mark.parametrize("name,players", FEWEST)
def test_each_step_offers_the_legal_actions_with_their_labels_and_the_seats_observation(name, players):
    """The labels, the mask and the tensor kept from step to step: what the state itself says, after every step of
    a whole game."""
    env = TrickbookEnv(name, players, {"skat": {"deals": 2}, "mue": {"hands": 1}, "mue-riogrande": {"hands": 1},
                                       "tichu": {"target": 500}, "bridge": {"boards": 1},
                                       "french-tarot": {"deals": 1}}.get(name))
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent, observation, info in _turns(env, 100_000):
        state = env.state
        assert info["labels"] == state.labels()
        assert np.flatnonzero(observation["action_mask"]).tolist() == sorted(state.legal_actions())
        if rng.random() < 0.2:  # the tensor itself: tests/test_kept_tensor.py after every step
            seat = env.game.seat_names.index(agent)
            assert np.array_equal(observation["observation"], np.asarray(state.observation_tensor(seat), np.float32))
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert env.state.is_over()


def _turns(env: TrickbookEnv, most: int) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """The env's turns that ask for an action (agent, observation, info), each to be answered by ``env.step`` before
    the next; a seat done is stepped past with None."""
    for agent in env.agent_iter(max_iter=most):
        observation, _, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        yield agent, observation, info


@pytest.mark.parametrize("name,players", FEWEST)  # every count: tests/test_kept_tensor.py keeps the tensors
def test_every_observation_and_mask_is_the_one_made_afresh_after_every_step(name, players):
    """The tensor and the mask kept and moved step by step (toolkits/tensor.py) equal the ones made afresh from the
    state, after every step of a random game (its first 400 decisions), for the seat to act and for another seat
    (whose tensor is brought up to date from further back, and whose mask is empty)."""
    env = TrickbookEnv(name, players, SHORTER.get(name))
    env.reset(seed=players)
    rng = np.random.default_rng(players)
    decisions = 0
    for agent, observation, _ in _turns(env, 400):
        state = env.state
        other = env.possible_agents[int(rng.integers(len(env.possible_agents)))]
        for who, seen in ((agent, observation), (other, env.observe(other))):
            seat = env.game.seat_names.index(who)
            mask = np.zeros(env.game.num_actions, np.int8)
            if who == agent:
                mask[state.legal_actions()] = 1
            assert seen["action_mask"].dtype == np.int8 and np.array_equal(seen["action_mask"], mask), (who, decisions)
            fresh = np.asarray(state.observation_tensor(seat), np.float32)
            assert seen["observation"].dtype == np.float32 and np.array_equal(seen["observation"], fresh), \
                (who, decisions, [name for (name, size), old, new in zip(env.game.observation_layout, *(
                    np.split(t, np.cumsum([size for _, size in env.game.observation_layout])[:-1])
                    for t in (seen["observation"], fresh))) if not np.array_equal(old, new)])
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        decisions += 1
    assert decisions > 50
