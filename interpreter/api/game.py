"""What ``load`` gives: a game (``TrickGame``: the rules compiled for a player count and options, which makes the
states) and its states (``GameState``, made of the parts in this package); a saved state loaded again; how a game
and a state are pickled (as what loads them again)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.api.actions import Actions
from interpreter.api.copies import Copies
from interpreter.api.dealing import Dealing
from interpreter.api.progress import Progress
from interpreter.api.seeing import Seeing
from interpreter.engine.actions import ActionInfo, ActionSpace
from interpreter.engine.compile import compile_game
from interpreter.engine.encoding import ObservationEncoder
from interpreter.engine.game import Game
from interpreter.errors import GameError, IllegalAction, RecordError
from interpreter.match.driver import Match
from interpreter.match.record_reader import Opened, open_record, play_events, seed_problem
from interpreter.match.records import parse_record
from interpreter.rules.loader import load_rules


def load(game: str | Path, players: int | None = None, options: dict[str, Any] | None = None) -> TrickGame:
    """A game by bundled name or rule file path, for ``players`` (default: the smallest count
    the rules support) with ``options`` (by name; the others keep their defaults)."""
    if options is not None and not isinstance(options, dict):
        raise GameError(f"options are a dict of option names and values, not {type(options).__name__}")
    source = load_rules(game)
    if players is None:
        from interpreter.engine.compile import supported_players

        players = min(supported_players(source))
    return TrickGame(compile_game(source, players, dict(options or {})), _rules_file(game))


def _rules_file(game: str | Path) -> str | None:
    """The rule file a game was loaded from, for records to name (None: a bundled game, named by its name)."""
    return str(game) if str(game).endswith((".yaml", ".yml")) else None


class TrickGame:
    """Rules compiled for one player count and options: what every state of the game shares."""

    def __init__(self, game: Game, rules_file: str | None = None):
        self.engine = game
        self.rules_file = rules_file
        self._space: ActionSpace | None = None
        self._encoder: ObservationEncoder | None = None

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def players(self) -> int:
        """The number of seats, automatic ones included."""
        return self.engine.players

    @property
    def seat_names(self) -> list[str]:
        return list(self.engine.seat_names)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.engine.options)

    @property
    def automatic(self) -> list[int]:
        """The seats that play by the rules' own policy (automatic seats): never asked, never agents."""
        return sorted(self.engine.automatic)

    @property
    def actions(self) -> ActionSpace:
        """Every action the game can offer, each with its fixed id (see engine/actions.py)."""
        if self._space is None:
            self._space = ActionSpace(self.engine)
        return self._space

    @property
    def num_actions(self) -> int:
        return len(self.actions)

    def action(self, action_id: int) -> ActionInfo:
        """What the action with this id is: its step, kind (card, seat, number, text, list, pass...), value and
        label."""
        if type(action_id) is not int or not 0 <= action_id < self.num_actions:
            raise IllegalAction(f"no action has id {action_id!r} (ids are 0 to {self.num_actions - 1})")
        return self.actions.infos[action_id]

    @property
    def encoder(self) -> ObservationEncoder:
        if self._encoder is None:
            self._encoder = ObservationEncoder(self.engine)
        return self._encoder

    @property
    def observation_layout(self) -> list[tuple[str, int]]:
        """The segments of ``GameState.observation_tensor``, in order: (name, size) each (see docs/api.md)."""
        return list(self.encoder.layout)

    @property
    def observation_size(self) -> int:
        """The length of every observation tensor of this game."""
        return self.encoder.size

    def new_state(self, seed: Any = None, hand: int = 1, dealer: int | None = None,
                  totals: list[int] | None = None, deal: str | Path | None = None,
                  board: str | None = None) -> GameState:
        """A game at its start, or picked up at the start of round ``hand`` with ``dealer`` dealing and the
        running ``totals``; its chance events (the deals) are drawn from a random source seeded with ``seed``
        when the state is asked to (``apply_chance``).

        ``deal``: a deal file (PBN, read as the deck's notation says; ``board``: which of its
        boards, by its Board tag, default the first). The game starts at that board's round with its dealer, and
        its first deal, made at once, gives the hands the file writes (the state's first chance event).

        A seed is a whole number (at most 15 digits) or text, as a saved state's header holds it."""
        _check_seed(seed)
        fixed = None
        if deal is not None:
            from interpreter.harness.deal_files import fixed_deal

            if hand != 1 or dealer is not None:
                raise GameError("with a deal file, the round and the dealer are the file's (Board, Dealer)")
            fixed = fixed_deal(self.engine, deal, board)
            hand, dealer = fixed.hand, fixed.dealer
        state = GameState(self, Match(self.engine, seed, hand=hand, dealer=dealer, totals=totals))
        if fixed is not None:
            d = state._state.pending
            state._apply_deal(d, fixed.outcome(self.engine, state._state, state._rng))
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> TrickGame:
        return self  # the rules never change: every copy of a state shares them

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what loads it again (in another process, the rules are compiled there once)."""
        engine = self.engine
        return _game_for, (self.rules_file or engine.name, engine.player_count, dict(engine.options), engine.identity)

    def play(self, agents: list[str | type], seed: Any = 0, iterations: int | None = None,
             agent_limits: tuple[float, int] | None = None) -> GameState:
        """A whole game played by ``agents``, one a seat in seat order (a shorter list repeats its last): the
        built-in ``"random"``, ``"greedy"`` and ``"ismcts"`` (``iterations`` a move, default 50), or agents of
        your own, as ``"module:Class"``, ``"path/to/file.py:Class"`` or the class itself, each seat's in
        processes of its own told only what its seat sees (docs/agents.md), within ``agent_limits``: seconds per
        decision and megabytes of memory (default 10 s and 4,096 MB; 0 MB: no limit). An agent of your own that
        fails raises AgentError, naming it. The same seed plays the same game (the agents are seeded from it).
        Returns the finished game, its events and all."""
        from interpreter.harness.players import ITERATIONS, agent_factory, parse_agents
        from interpreter.harness.runner import drive

        _check_seed(seed)
        if not isinstance(agents, (list, tuple)) or not agents \
                or not all(isinstance(a, (str, type)) for a in agents):
            raise GameError(f"agents are a list of names and classes, one a seat, not {agents!r}"[:300])
        names = [a if isinstance(a, str) else _spec_of(a) for a in agents]
        lineup = parse_agents(",".join(names), self.players)
        made = agent_factory(lineup, iterations or ITERATIONS, limits=agent_limits)(seed)
        state = self.new_state(seed)
        with state._driven() as match:  # its history followed as it is played
            drive(match, made)
        return state

    def deserialize(self, text: str) -> GameState:
        """The state ``GameState.serialize`` wrote (a record, perhaps of a game not over yet), played again
        and checked event by event on these rules (match/record_reader.py: the checks of ``trickbook replay``)."""
        events = _events(text)
        return self._restored(events, open_record(events, SAVED, game=self.engine))

    def _restored(self, events: list[tuple[int, dict[str, Any]]], opened: Opened) -> GameState:
        """The state of a record's lines ``events``, its header read (``opened``), on these rules."""
        state = GameState(self, Match(self.engine, opened.header.seed, **opened.start), events[0][1])
        with state._driven() as match:  # its lines written again as they are played
            play_events(match, events[0][1], events[1:], SAVED)
        return state


def load_serialized(text: str) -> GameState:
    """A state ``GameState.serialize`` wrote, on the rules its header names (a bundled game, or a rule file
    in the current folder or below)."""
    events = _events(text)
    opened = open_record(events, SAVED, folder=Path("."))
    return TrickGame(opened.game, opened.header.rules_file)._restored(events, opened)


def _check_seed(seed: Any) -> None:
    """A GameError unless ``seed`` is None (no seed) or a seed a saved state can hold (record_reader.seed_problem)."""
    problem = None if seed is None else seed_problem(seed)
    if problem:
        raise GameError(f"seed {problem}")


def _spec_of(cls: type) -> str:
    """How an agent's process finds the class ``cls``: its module and name (a script's file, for a class of
    the program being run)."""
    module = cls.__module__
    if module == "__main__":
        import sys

        main = getattr(sys.modules["__main__"], "__file__", None)
        if main is None:
            raise GameError(f"agent class {cls.__qualname__} is defined where no other process can find it (an "
                            "interactive session): put it in a module or a file and name it as module:Class")
        return f"{main}:{cls.__qualname__}"
    return f"{module}:{cls.__qualname__}"


_GAMES: dict[tuple[Any, ...], TrickGame] = {}


def _game_for(rules: str, players: int, options: dict[str, Any], identity: str) -> TrickGame:
    """A pickled game, loaded again (once in a process)."""
    key = (rules, players, tuple(sorted(options.items())), identity)
    game = _GAMES.get(key)
    if game is None:
        game = TrickGame(compile_game(load_rules(rules), players, options), _rules_file(rules))
        if game.engine.identity != identity:
            raise GameError(f"{rules} has changed since this game was saved (rules_id {identity}, now "
                            f"{game.engine.identity})")
        _GAMES[key] = game  # only the rules the state was saved with
    return game


SAVED = "serialized state"  # how errors name a saved state (with the line: "serialized state:3: ...")


def _events(text: str) -> list[tuple[int, dict[str, Any]]]:
    """The lines of a saved state, read as a record's are (untrusted text: the same limits)."""
    if not isinstance(text, str):
        hint = " (decode it first: text.decode('utf-8'))" if isinstance(text, (bytes, bytearray)) else ""
        raise RecordError(f"{SAVED}: a saved state is text (str), not {'None' if text is None else type(text).__name__}"
                          f"{hint}")
    return parse_record(text, SAVED)


class GameState(Progress, Actions, Dealing, Seeing, Copies):
    """One game in progress. Seats are numbers from 0 (``TrickGame.seat_names`` names them); actions are the
    ids of ``TrickGame.actions``. Every change is kept as an event (the lines of a game record), so a state
    can be saved (``serialize``) and played again exactly.

    Its methods are written by concern: whose turn it is, what happened and the scores (api/progress.py), the
    actions (api/actions.py), the deals (api/dealing.py), what a seat sees (api/seeing.py), copies, samples and
    saving (api/copies.py), on the state's match and what it follows of it (api/core.py, api/following.py)."""

    game: TrickGame
