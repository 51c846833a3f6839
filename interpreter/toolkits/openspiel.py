"""Any rule file as an OpenSpiel game (``pip install 'trickbook[openspiel]'``).

``register("my-game.yaml", players=4)`` registers the game with OpenSpiel and gives its short name; then
``pyspiel.load_game(name)`` loads it, and OpenSpiel's algorithms and bots play it. The game is what the public
API (interpreter/api/) offers, in OpenSpiel's terms:

* sequential, imperfect information, explicit stochastic chance: each deal is dealt one card at a time, every
  card left equally likely (``GameState.chance_outcomes``);
* actions: the game's fixed action ids (``TrickGame.actions``); chance outcomes: card ids;
* returns: each seat's share of the win (1 for a sole winner, 1/k each for k winners, 0 for the others) once
  the game is over, so the utility is constant-sum (1) between 0 and 1; rewards only at the end;
* information-state strings (everything the seat saw, in order), observation strings (the seat's observation
  as JSON) and observation tensors (``TrickGame.observation_layout``); no information-state tensor;
* the longest game: the engine's limit on actions in one game.
"""

from __future__ import annotations

import copy
import random
import re
from bisect import bisect_left
from itertools import repeat
from operator import truediv
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from interpreter.api import CHANCE, GameState, TrickGame, load
from interpreter.errors import IllegalAction
from interpreter.limits import MAX_ACTIONS
from interpreter.toolkits.tensor import KeptTensor

_registered: dict[str, TrickGame] = {}


def register(rules: str | Path, players: int | None = None, options: dict[str, Any] | None = None,
             short_name: str | None = None) -> str:
    """Register the game of ``rules`` (a bundled name or a rule file) for ``players`` with ``options`` with
    OpenSpiel; return its short name (default ``trickbook_NAME_Np``), for ``pyspiel.load_game``."""
    game = load(rules, players, options)
    name = short_name or re.sub(r"\W", "_", f"trickbook_{game.name}_{game.players}p")
    known = _registered.get(name)
    if known is not None:
        if (known.engine.identity, known.options) != (game.engine.identity, game.options):
            raise ValueError(f"an OpenSpiel game named {name!r} is registered already, with other rules or "
                             "options: give this one another short_name")
        return name
    _registered[name] = game
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{game.title} (Trickbook)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.players,
        min_num_players=game.players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=game.num_actions,
        max_chance_outcomes=len(game.engine.cards),
        num_players=game.players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=MAX_ACTIONS,
    )

    # a class of its own, as OpenSpiel's own Python games register (a closure held by OpenSpiel's registry
    # would be let go of after Python's end, without the interpreter's lock)
    made = type(f"SpielGame_{name}", (SpielGame,), {"_setup": (game_type, info, game)})
    pyspiel.register_game(game_type, made)
    return name


class SpielGame(pyspiel.Game):
    """A Trickbook game as an OpenSpiel game."""

    _setup: tuple[Any, Any, TrickGame]  # the game type, its info and the Trickbook game (set by register)

    def __init__(self, params: Any = None):
        game_type, info, game = self._setup
        super().__init__(game_type, info, params or {})
        self.trickbook = game

    def new_initial_state(self) -> SpielState:
        return SpielState(self, self.trickbook.new_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.trickbook, recall)


class SpielState(pyspiel.State):
    """A game in progress, for OpenSpiel: a ``GameState`` underneath.

    OpenSpiel asks a state for its player several times an action: the player is worked out once after each action
    and kept. A deal is dealt card by card as OpenSpiel draws each card: the state keeps the cards still to come
    (``_Deal``) from the first card to the last, and gives the whole deal to the ``GameState`` at its end, in the
    order the cards came. The ``GameState`` (``trickbook``) is the state's own: change it through the OpenSpiel
    state only."""

    def __init__(self, game: SpielGame, state: GameState):
        super().__init__(game)
        self.trickbook = state
        self._deal: _Deal | None = None  # the deal being dealt card by card
        self._player = _player_of(state)
        self._tensors: KeptTensor | None = None  # the seats' observation tensors, once asked for

    def tensor(self, player: int) -> np.ndarray:
        """The observation tensor of ``player`` (``GameState.observation_tensor``), kept from action to action."""
        if self._tensors is None:
            self._tensors = KeptTensor(self.trickbook.game)
        return self._tensors.tensor(self.trickbook, player)

    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        ids = self.trickbook.legal_actions()  # a list of its own
        ids.sort()
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._player != _CHANCE:
            return []
        return self._dealing().outcomes()

    def _dealing(self) -> _Deal:
        if self._deal is None:
            self._deal = _Deal(self.trickbook)
        return self._deal

    def _apply_action(self, action: int) -> None:
        if self._player == _CHANCE:
            deal = self._dealing()
            if not deal.take(int(action)):
                return  # the deal goes on: chance deals the next card
            self._deal = None
            deal.apply(self.trickbook)
        else:
            self.trickbook.apply(int(action))
        self._player = _player_of(self.trickbook)

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.trickbook.game
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {game.engine.cards.labels[action]}"
        info = game.action(int(action))
        return f"{info.step}: {info.label}"

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        s = self.trickbook
        out = [0.0] * s.game.players
        if s.is_over():
            winners = s.winners()
            for w in winners:
                out[w] = 1.0 / len(winners)
        return out

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state ``player_id`` cannot tell from this one (``GameState.sample``), for OpenSpiel's ISMCTS."""
        rng = random.Random(int(probability_sampler() * 2**53))
        other = SpielState(self.get_game(), self.trickbook.sample(player_id, rng))
        other._deal = copy.deepcopy(self._deal)  # a deal being dealt goes on in the sample
        return other

    def __str__(self) -> str:
        return self.trickbook.observation_string(None)


class TrickbookBot(pyspiel.Bot):
    """A Trickbook agent (``interpreter.agents``: random, greedy, ismcts) as an OpenSpiel bot, for
    ``evaluate_bots`` beside OpenSpiel's own: it decides on the ``GameState`` under the OpenSpiel state, as
    ``GameState.agent_choice`` does, and keeps nothing between decisions."""

    def __init__(self, agent: Any):
        pyspiel.Bot.__init__(self)
        self.agent = agent

    def step(self, state: SpielState) -> int:
        return state.trickbook.agent_choice(self.agent)

    def restart_at(self, state: SpielState) -> None:
        pass

    def inform_action(self, state: SpielState, player_id: int, action: int) -> None:
        pass


def trickbook_bots(names: list[str], seed: Any = None, iterations: int = 50) -> list[TrickbookBot]:
    """Trickbook's agents by name (``interpreter.agents``), one a seat in order, as OpenSpiel bots."""
    from interpreter.api.builtin_agents import agents

    return [TrickbookBot(a) for a in agents(names, seed, iterations)]


def restartable(bot: Any) -> Any:
    """``bot`` with the restart hook ``evaluate_bots`` calls before a game: OpenSpiel's Python ``ISMCTSBot`` has
    none (pyspiel's own says "RestartAt(state) not implemented"); it is given one that starts the bot's tree anew
    (its ``reset``). A bot with a hook of its own is given back as it is."""
    if type(bot).restart_at is pyspiel.Bot.restart_at:
        reset = getattr(bot, "reset", None)
        bot.restart_at = lambda state: reset() if reset is not None else None
        if type(bot).inform_action is pyspiel.Bot.inform_action:
            bot.inform_action = lambda state, player_id, action: None
    return bot


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


def _player_of(state: GameState) -> int:
    """OpenSpiel's player of ``state``: a seat, chance or terminal."""
    seat = state.current_player  # None once the game is over
    return _TERMINAL if seat is None else _CHANCE if seat == CHANCE else seat


class _Deal:
    """A deal being dealt card by card: the cards still to come by kind (identical cards are one outcome, as likely
    as there are of them left), in the order the ``GameState`` would take them, and the cards that came."""

    def __init__(self, state: GameState):
        kinds = state.game.engine.cards.kinds
        left: dict[int, list[int]] = {}
        for c in state._left(state._state.pending):  # the cards still to come (the API lists them only by kind)
            left.setdefault(kinds[c], []).append(c)
        self.kinds = sorted(left)  # the kinds left, in OpenSpiel's order of outcomes
        self.left = [left[k] for k in self.kinds]  # the cards of each
        self.counts = [len(cards) for cards in self.left]
        self.count = sum(self.counts)
        self.came: list[int] = []

    def outcomes(self) -> list[tuple[int, float]]:
        return list(zip(self.kinds, map(truediv, self.counts, repeat(self.count))))

    def take(self, kind: int) -> bool:
        """Deal the next card, one of kind ``kind``; whether the deal is whole."""
        i = bisect_left(self.kinds, kind)
        if i == len(self.kinds) or self.kinds[i] != kind:
            raise IllegalAction(f"card {kind!r} cannot come next in this deal")
        self.came.append(self.left[i].pop(0))
        self.counts[i] -= 1
        if not self.counts[i]:
            del self.kinds[i], self.left[i], self.counts[i]
        self.count -= 1
        return self.count == 0

    def apply(self, state: GameState) -> None:
        """Give the whole deal to ``state``, as ``apply_chance`` card by card would at its last card."""
        state._apply_deal(state._state.pending, self.came)


class Observer:
    """OpenSpiel's observer of a Trickbook game: the observation tensor and strings of a seat (with perfect
    recall: the information-state string)."""

    def __init__(self, game: TrickGame, perfect_recall: bool):
        self.recall = perfect_recall
        self.tensor = np.zeros(0 if perfect_recall else game.observation_size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        if not self.recall:
            self.tensor[:] = state.tensor(player)

    def string_from(self, state: SpielState, player: int) -> str:
        s = state.trickbook
        return s.information_state_string(player) if self.recall else s.observation_string(player)
