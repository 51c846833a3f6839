"""The public Python API: load a game, step it by action ids or labels, see what a seat sees, copy and save it.

docs/api.md is its guide; every example there is run by tests/test_api.py. Everything here stands on the
engine's own objects (``Game``, ``State``), which are not part of the API and may change.

The package's modules, one concern each:

- game.py: ``load``, ``load_serialized``, ``TrickGame`` (the rules for a player count, which make the states)
  and ``GameState``, made of the parts below; how a game and a state are pickled;
- core.py: what every part stands on: the state's match and the moves applied, its record (a listener of the
  match), a change made whole or not at all;
- following.py: what a state follows of its match, each once asked for (played again from the moves, then
  followed as the game goes): its record and narration, the seats' information states, who knows which card;
- progress.py: whose turn it is, the round, what happened (events, narration), the scores;
- actions.py: the legal actions by id and label, taking one, describing one, refusals, an agent's choice;
- dealing.py: chance events, dealt card by card or whole;
- seeing.py: what a seat sees: its observation (dict, JSON, tensor), status lines, information state, cards
  held and received;
- copies.py: clone, samples for search, serialize, pickling;
- rule_files.py: before a game is loaded: the bundled games, what a rule file offers, every problem in one;
- builtin_agents.py: the built-in agents by name, for programs that drive games themselves.
"""

from typing import Any

# _state_from and _game_for: a game and a state pickled before the API was a package name them as its own
from interpreter.api.copies import _state_from as _state_from
from interpreter.api.game import GameState, TrickGame, load, load_serialized
from interpreter.api.game import _game_for as _game_for
from interpreter.api.rule_files import RuleFile, about, check, games
from interpreter.engine.actions import ActionInfo
from interpreter.engine.state import CHANCE

__all__ = ["CHANCE", "ActionInfo", "GameState", "RuleFile", "TrickGame", "about", "agents", "check", "games", "load",
           "load_serialized"]



def __getattr__(name: str) -> Any:
    if name == "agents":  # the function: api/builtin_agents.py imports the agents and their search when first asked for
        from interpreter.api.builtin_agents import agents

        return agents
    raise AttributeError(f"module 'interpreter.api' has no attribute {name!r}")
