"""Every rule file as an OpenSpiel game (interpreter/toolkits/openspiel.py): OpenSpiel's own checks pass and its
algorithms run on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed here (pip install 'trickbook[openspiel]')")

import numpy as np  # noqa: E402

from interpreter.limits import MAX_ACTIONS  # noqa: E402
from interpreter.toolkits.openspiel import register  # noqa: E402

from .conftest import GAMES, SHORTER, counts_of  # noqa: E402
from .test_api import doc_examples  # noqa: E402

# OpenSpiel's checks of the adapter: by default on one game of each shape the adapter meets (a board, bidding, an
# automatic seat that never acts, climbing, hidden teams and identical cards, hidden values a set step worked out; a
# classic such as Hearts has nothing the others lack); TRICKBOOK_OPENSPIEL_ALL=1 runs them on every bundled game
# (docs/testing.md). The conformance battery plays every bundled game through the API the adapter stands on
# (tests/test_conformance.py).
SHAPES = ("njet-riogrande", "skat", "meinz", "tichu", "doppelkopf", "was-sticht")
CASES = [(path.stem, min(counts_of(path))) for path in GAMES
         if os.environ.get("TRICKBOOK_OPENSPIEL_ALL") or path.stem in SHAPES]
# each check plays a whole game: the long games played shorter (conftest's SHORTER), and by default Was sticht?
# to one function card instead of four (a variant of tests/data: the same rounds, fewer)
SHORT_FILES = {} if os.environ.get("TRICKBOOK_OPENSPIEL_ALL") else {
    "was-sticht": str(Path(__file__).parent / "data" / "was-sticht-short.yaml")}


@pytest.mark.parametrize("name,players", CASES)
def test_every_bundled_game_passes_openspiels_random_simulation_checks(name, players):
    # played shorter, registered under a name of its own (other tests load the whole game under its own name)
    short = f"trickbook_{name.replace('-', '_')}_{players}p_short" if name in SHORTER or name in SHORT_FILES else None
    game = pyspiel.load_game(register(SHORT_FILES.get(name, name), players, SHORTER.get(name), short_name=short))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_game_type_and_info_say_what_the_game_is():
    game = pyspiel.load_game(register("meinz", 3))
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    assert game.num_players() == 4  # three players and the card monster, which never acts
    assert game.num_distinct_actions() == 399 and game.max_chance_outcomes() == 36
    assert game.max_game_length() == MAX_ACTIONS and game.observation_tensor_shape() == [872]
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)


def test_a_state_says_the_same_as_the_trickbook_state_under_it():
    game = pyspiel.load_game(register("hearts", 4))
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    inner = state.trickbook
    assert state.current_player() == inner.current_player
    assert state.legal_actions() == sorted(inner.legal_actions())
    assert state.action_to_string(state.current_player(), state.legal_actions()[0]).startswith("pass: ")
    assert state.information_state_string(1) == inner.information_state_string(1)
    assert list(state.observation_tensor(1)) == inner.observation_tensor(1)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert state.history() != copy.history() and state.trickbook.serialize() != copy.trickbook.serialize()


def test_registering_twice_gives_the_same_name_and_other_options_need_another():
    name = register("oh-hell", 4, {"hands": "up", "largest": 2})
    assert register("oh-hell", 4, {"hands": "up", "largest": 2}) == name
    with pytest.raises(ValueError, match="another short_name"):
        register("oh-hell", 4, {"hands": "up", "largest": 3})
    assert register("oh-hell", 4, {"hands": "up", "largest": 3}, short_name="oh_hell_3") == "oh_hell_3"


def test_openspiels_ismcts_bot_is_refused_by_evaluate_bots_until_it_is_made_restartable():
    from open_spiel.python.algorithms import ismcts, mcts

    from interpreter.toolkits.openspiel import restartable

    game = pyspiel.load_game(register("oh-hell", 4, {"hands": "up", "largest": 2}))
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 5)
    with pytest.raises(RuntimeError, match="RestartAt"):
        bot.restart_at(game.new_initial_state())
    assert restartable(bot) is bot
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    bot.step(state)
    assert bot._nodes  # the tree it grew ...
    bot.restart_at(state)
    assert not bot._nodes  # ... started anew, as evaluate_bots asks before each game
    mcts_bot = mcts.MCTSBot(game, 2.0, 5, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)))
    assert restartable(mcts_bot).restart_at.__func__ is mcts.MCTSBot.restart_at  # its own hook is kept


def test_trickbook_agents_as_openspiel_bots_choose_as_the_api_s_agents():
    import interpreter as tb
    from interpreter.toolkits.openspiel import trickbook_bots

    game = pyspiel.load_game(register("oh-hell", 4, {"hands": "up", "largest": 2}))
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    (bot,) = trickbook_bots(["greedy"], seed=4)
    (agent,) = tb.agents(["greedy"], seed=4)
    chosen = bot.step(state)
    assert chosen in state.legal_actions() and chosen == state.trickbook.agent_choice(agent)


def test_the_openspiel_examples_of_docs_api_md_run():
    blocks = doc_examples("pyspiel")
    assert len(blocks) == 2  # a game through OpenSpiel's checks and CFR; OpenSpiel's bots against Trickbook's
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/api.md, OpenSpiel example {i + 1}", "exec"), {})


@pytest.mark.parametrize("name", ["hearts", "njet-riogrande"])  # NJET: identical cards, one outcome for each kind
def test_a_game_through_openspiel_goes_as_through_the_public_api_card_by_card(name):
    """The state keeps the deal being dealt itself and gives it to the GameState whole at its last card: the chance
    outcomes, the players, the legal actions and the observation tensors are those of a GameState dealt card by
    card through the public API, and the game ends with the same record."""
    import random

    import interpreter as tb

    game = pyspiel.load_game(register(name, 4))
    state = game.new_initial_state()
    api = tb.load(name, 4).new_state()
    rng = random.Random(7)
    while not state.is_terminal():
        assert state.current_player() == (pyspiel.PlayerId.CHANCE if api.is_chance() else api.current_player)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes == sorted(api.chance_outcomes())
            action = rng.choice(outcomes)[0]
            api.apply_chance(action)
        else:
            assert state.legal_actions() == sorted(api.legal_actions())
            if rng.random() < 0.3:
                seat = state.current_player()
                assert list(state.observation_tensor(seat)) == api.observation_tensor(seat)
            action = rng.choice(state.legal_actions())
            api.apply(action)
        state.apply_action(action)
    assert api.is_over() and state.trickbook.serialize() == api.serialize()
    assert state.returns() == [1.0 / len(api.winners()) if s in api.winners() else 0.0 for s in range(4)]
