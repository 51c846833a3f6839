"""Every rule file as an OpenSpiel game (interpreter/toolkits/openspiel.py): OpenSpiel's own checks pass and its
algorithms run on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed here (pip install 'trickbook[openspiel]')")

from interpreter.engine.compile import supported_players  # noqa: E402
from interpreter.limits import MAX_ACTIONS  # noqa: E402
from interpreter.rules.loader import load_rules  # noqa: E402
from interpreter.toolkits.openspiel import register  # noqa: E402

from .conftest import GAMES, SHORTER  # noqa: E402
from .test_api import doc_examples  # noqa: E402

# OpenSpiel's checks of the adapter: by default on one game of each shape the adapter meets (a board, bidding, an
# automatic seat that never acts, climbing, hidden teams and identical cards, hidden values a set step worked out, a
# classic); TRICKBOOK_OPENSPIEL_ALL=1 runs them on every bundled game (docs/testing.md). The conformance battery
# plays every bundled game through the API the adapter stands on (tests/test_conformance.py).
SHAPES = ("njet-riogrande", "skat", "meinz", "tichu", "doppelkopf", "was-sticht", "hearts")
CASES = [(path.stem, min(supported_players(load_rules(path)))) for path in GAMES
         if os.environ.get("TRICKBOOK_OPENSPIEL_ALL") or path.stem in SHAPES]
# each check plays a whole game: the long games played shorter (conftest's SHORTER), and by default Was sticht?
# to one function card instead of four (a variant of tests/data: the same rounds, fewer)
SHORT_FILES = {} if os.environ.get("TRICKBOOK_OPENSPIEL_ALL") else {
    "was-sticht": str(Path(__file__).parent / "data" / "was-sticht-short.yaml")}


@pytest.mark.parametrize("name,players", CASES)
def test_every_bundled_game_passes_openspiels_random_simulation_checks(name, players):
    game = pyspiel.load_game(register(SHORT_FILES.get(name, name), players, SHORTER.get(name)))
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


def test_openspiels_mcts_and_ismcts_bots_play_a_bundled_game_through_evaluate_bots():
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    game = pyspiel.load_game(register("oh-hell", 4, {"hands": "up", "largest": 2}))
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)

    class ISMCTS(ismcts.ISMCTSBot):
        def restart_at(self, state):  # OpenSpiel's Python ISMCTS keeps no state between games
            self.reset()

    bots = [mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=rng), ISMCTS(game, evaluator, 2.0, 20,
                                                                            random_state=rng),
            pyspiel.make_uniform_random_bot(2, 5), pyspiel.make_uniform_random_bot(3, 6)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == pytest.approx(1.0) and all(0 <= r <= 1 for r in returns)


def test_the_openspiel_example_of_docs_api_md_runs():
    (block,) = doc_examples("pyspiel")
    exec(compile(block, "docs/api.md", "exec"), {})


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
