"""The agents (harness/agents.py, greedy.py, search.py, players.py): they see only what their seat may see,
and they play better than chance.

Hidden information: an agent's move must not depend on anything its seat cannot see. For every bundled game at
every player count it supports, at decisions of a searching and a greedy seat the same agent (same random state)
is also asked on a twin: a state the seat cannot tell from the real one, with the unknown cards dealt
differently (and the Knowledge as it would be had the twin been the real game). The two moves must be the same.
"""

from __future__ import annotations

import copy
import random

import pytest

from interpreter.engine.samples import determinize
from interpreter.errors import GameError
from interpreter.harness.agents import RandomAgent, Turn
from interpreter.harness.greedy import GreedyAgent
from interpreter.harness.players import agent_factory, parse_agents
from interpreter.harness.runner import play_game
from interpreter.harness.search import IsmctsAgent

from .conftest import GAMES, game_of, suite_counts
from .test_knowledge import _as_if

CASES = [(path.stem, n) for path in GAMES for n in suite_counts(path)]


class Twin:
    """Asks ``agent`` on the real turn and, every ``every``-th time, a copy of it on a twin of the state."""

    samples = True

    def __init__(self, agent, every: int, seed: int):
        self.agent, self.every, self.rng = agent, every, random.Random(seed)
        self.asked = self.compared = 0

    def act(self, turn):
        self.asked += 1
        if self.asked % self.every == 0 and len(turn.legal) > 1:
            game, state, knowledge = turn.game, turn._state, turn._knowledge
            twin = determinize(game, state, turn.seat, knowledge, self.rng)
            other = Turn(game, twin, turn.seat, twin.pending.actions, turn.prompt,
                         _as_if(game, knowledge, state, twin), turn.kind)
            mirror = copy.deepcopy(self.agent)
            real = self.agent.act(turn)
            mirror.act(other)
            assert turn.labels[turn.legal.index(real)] == other.labels[other.legal.index(mirror.act_last)]
            self.compared += 1
            return real
        return self.agent.act(turn)


class Remember:
    """An agent wrapper that keeps its last action (for Twin)."""

    def __init__(self, agent):
        self.agent = agent
        self.act_last = None
        self.samples = getattr(agent, "samples", False)

    def act(self, turn):
        self.act_last = self.agent.act(turn)
        return self.act_last


class RoundOver(Exception):
    pass


def _one_round(state):
    if state.round_results:
        raise RoundOver




@pytest.mark.parametrize(("name", "players"), CASES)
def test_agents_move_the_same_whatever_the_cards_they_cannot_see(name, players):
    # with 4 players, whole rounds until both agents were compared twice (or the game ends), one round at every
    # other player count (Meinz's card monster with 3 included)
    game = game_of(name, players)
    search = Twin(Remember(IsmctsAgent("s", iterations=4)), every=3 if players == 4 else 2, seed=1)
    greedy = Twin(Remember(GreedyAgent("g")), every=2, seed=2)
    agents = [search, greedy, *(RandomAgent(str(s)) for s in range(2, game.players))]

    def compared_enough(state):
        if state.round_results and search.compared >= 2 and greedy.compared >= 2:
            raise RoundOver

    if players == 4:
        try:
            play_game(game, agents, seed=f"twin/{name}", after_each=compared_enough)
        except RoundOver:
            pass
    else:
        with pytest.raises(RoundOver):
            play_game(game, agents, seed=f"twin/{name}/{players}", after_each=_one_round)
    assert search.compared >= 2 and greedy.compared >= 2


def test_ismcts_beats_random_at_oh_hell():
    game = game_of("oh-hell", 4)
    margins = []
    for g in range(4):
        agents = [IsmctsAgent(f"i{g}", iterations=20), *(RandomAgent(f"{g}:{s}") for s in range(1, 4))]
        out = play_game(game, agents, seed=f"beat/{g}")
        margins.append(out.totals[0] - sum(out.totals[1:]) / 3)
    assert all(m > 0 for m in margins), margins


def test_ismcts_minds_which_way_a_game_is_won_hearts_penalty_points():
    game = game_of("hearts", 4)
    out = play_game(game, [IsmctsAgent("h", iterations=20), *(RandomAgent(f"h:{s}") for s in range(1, 4))],
                    seed="beat/hearts")
    assert out.totals[0] < sum(out.totals[1:]) / 3  # the lowest total wins hearts: it takes fewer points than most


def test_ismcts_searches_for_a_time_or_a_number_of_iterations():
    game = game_of("oh-hell", 4)
    counted = []

    class Counting(IsmctsAgent):
        def _iterate(self, *args):
            counted.append(1)
            return super()._iterate(*args)

    agent = Counting("t", iterations=7)
    play_game(game, [agent, *(RandomAgent(s) for s in range(3))], seed=1)
    assert counted and len(counted) % 7 == 0
    with pytest.raises(GameError, match="at least 1 iteration"):
        IsmctsAgent(iterations=0)
    with pytest.raises(GameError, match="positive time"):
        IsmctsAgent(seconds=0)


def test_greedy_wins_cheaply_where_taking_cards_pays_and_ducks_in_hearts():
    from interpreter.harness.greedy import takes_pay

    assert takes_pay(game_of("oh-hell", 4)) and takes_pay(game_of("njet-riogrande", 4))
    assert not takes_pay(game_of("hearts", 4))


def test_agents_by_name_one_per_seat_the_last_repeated():
    assert parse_agents("ismcts,random", 4) == ["ismcts", "random", "random", "random"]
    assert parse_agents(" Greedy ", 3) == ["greedy"] * 3
    with pytest.raises(GameError, match="unknown agent 'mcts'; known agents: random, greedy, ismcts"):
        parse_agents("mcts", 4)
    with pytest.raises(GameError, match="5 agents given for 4 seats"):
        parse_agents("random,random,random,random,random", 4)
    made = agent_factory(["random", "greedy", "ismcts"], iterations=9)("seed")
    assert [type(a).__name__ for a in made] == ["RandomAgent", "GreedyAgent", "IsmctsAgent"]
    assert made[2].iterations == 9


def test_a_random_agent_draws_what_randrange_draws_from_its_seed():
    """``pick`` writes ``rng.randrange(n)`` out (the golden records of random agents rest on its draws): for every
    list length the same index from the same seed, and a list of one costs no draw."""
    import random

    agent, rng = RandomAgent("seed"), random.Random("seed")
    lengths = [1, 2, 3, 7, 8, 9, 13, 16, 17, 60, 64, 65] * 200
    assert [agent.pick([None] * n) for n in lengths] == [rng.randrange(n) if n > 1 else 0 for n in lengths]
