"""The drivers of a game: each plays the game of a seed with the random agents of that seed and writes its record.

A game is the same game whichever way it is driven, so the conformance battery (battery.py) plays each seed with
every driver of :data:`DRIVERS` and compares their records line by line, byte for byte. A driver added to the list
is checked on every bundled game, player count and docs example from then on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.api import TrickGame
from interpreter.engine.game import Game
from interpreter.harness.runner import play_game, random_agents

# told after each action and chance event, with the driver's own state (the engine's State for play_game, a GameState
# for the API): ``after(state)`` gives the state to go on with (a driver that cannot change its state ignores it)
After = Callable[[Any], Any]


@dataclass(frozen=True)
class Driver:
    """A way of playing a game to its end: ``play(game, seed, rules_file, after)`` gives the record of the game of
    ``seed`` (chance drawn from ``random.Random(seed)``, seat ``s`` choosing as ``RandomAgent(f"{seed}:{s}")``), its
    header naming ``rules_file`` when there is one, and calls ``after`` (when given) after each action and chance
    event."""

    name: str
    play: Callable[[Game, Any, str | None, After | None], list[dict[str, Any]]]


def _runner(game: Game, seed: Any, rules_file: str | None, after: After | None) -> list[dict[str, Any]]:
    """``trickbook play --record``'s driver (harness/runner.py), here with the ``trick`` and ``automatic`` lines the
    API writes too (``told``)."""
    return play_game(game, seed=seed, record=True, told=True, rules_file=rules_file, after_each=after).record


def _api(game: Game, seed: Any, rules_file: str | None, after: After | None) -> list[dict[str, Any]]:
    """The public API stepped by hand: ``legal_actions`` and ``apply`` for the seats (the agent's choice among the
    legal actions, as ``agent_choice`` gives it), ``apply_chance`` from the state's own random source."""
    state = TrickGame(game, rules_file).new_state(seed=seed)
    agents = random_agents(game, seed)
    while not state.is_over():
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.current_player
            assert seat is not None, "a game not over waits for chance or a seat"
            state.apply(state.agent_choice(agents[seat]))
        if after is not None:
            state = after(state)
    return state.events


def _api_play(game: Game, seed: Any, rules_file: str | None, after: After | None) -> list[dict[str, Any]]:
    """The public API's ``play`` with random agents (it cannot tell ``after`` of each change: it plays on its own)."""
    return TrickGame(game, rules_file).play(["random"], seed).events


# The drivers whose records must be the same: every one plays through the one match driver (interpreter/match/) and
# writes its record with the same writer. The first is the one the others are compared with, whose record is
# replayed and played again from its seed; it tells ``after`` of the engine's State, which the battery checks after
# every action when it does not play the checked path itself.
DRIVERS: list[Driver] = [
    Driver("play_game", _runner),
    Driver("api", _api),
    Driver("api.play", _api_play),
]
