"""The public Python API: load a game, step it by action ids or labels, see what a seat sees, copy and save it.

docs/api.md is its guide; every example there is run by tests/test_api.py. Everything here stands on the
engine's own objects (``Game``, ``State``), which are not part of the API and may change.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.engine.actions import ActionInfo, ActionSpace
from interpreter.engine.compile import compile_game
from interpreter.engine.encoding import ObservationEncoder
from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge, determinize, seen_status
from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE, State
from interpreter.errors import GameError, IllegalAction, RecordError
from interpreter.match.driver import Each, Handler, Match
from interpreter.match.events import Applied, Note
from interpreter.match.record_reader import Opened, open_record, play_events, seed_problem, start_of
from interpreter.match.records import parse_record, record_text
from interpreter.match.writer import RecordWriter
from interpreter.rules.loader import load_rules

__all__ = ["CHANCE", "ActionInfo", "GameState", "TrickGame", "load", "load_serialized"]


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
        drive(state._match, made)
        return state

    def deserialize(self, text: str) -> GameState:
        """The state ``GameState.serialize`` wrote (a record, perhaps of a game not over yet), played again
        and checked event by event on these rules (match/record_reader.py: the checks of ``trickbook replay``)."""
        events = _events(text)
        return self._restored(events, open_record(events, SAVED, game=self.engine))

    def _restored(self, events: list[tuple[int, dict[str, Any]]], opened: Opened) -> GameState:
        """The state of a record's lines ``events``, its header read (``opened``), on these rules."""
        state = GameState(self, Match(self.engine, opened.header.seed, **opened.start), events[0][1])
        play_events(state._match, events[0][1], events[1:], SAVED)
        return state


def load_serialized(text: str) -> GameState:
    """A state ``GameState.serialize`` wrote, on the rules its header names (a bundled game, or a rule file
    in the current folder or below)."""
    events = _events(text)
    opened = open_record(events, SAVED, folder=Path("."))
    return TrickGame(opened.game, opened.header.rules_file)._restored(events, opened)


def _count(n: Any, name: str) -> slice:
    """``[n:]`` for a count of lines or events already read, a whole number from 0."""
    if type(n) is not int or n < 0:
        raise GameError(f"{name} is a whole number from 0, not {n!r}")
    return slice(n, None)


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


def _state_from(game: TrickGame, text: str, dealing: list[int], rng: Any) -> GameState:
    """A pickled state, played again from its record."""
    state = game.deserialize(text)
    state._dealing = dealing
    state._rng.setstate(rng)
    return state


SAVED = "serialized state"  # how errors name a saved state (with the line: "serialized state:3: ...")


def _events(text: str) -> list[tuple[int, dict[str, Any]]]:
    """The lines of a saved state, read as a record's are (untrusted text: the same limits)."""
    if not isinstance(text, str):
        hint = " (decode it first: text.decode('utf-8'))" if isinstance(text, (bytes, bytearray)) else ""
        raise RecordError(f"{SAVED}: a saved state is text (str), not {'None' if text is None else type(text).__name__}"
                          f"{hint}")
    return parse_record(text, SAVED)


class GameState:
    """One game in progress. Seats are numbers from 0 (``TrickGame.seat_names`` names them); actions are the
    ids of ``TrickGame.actions``. Every change is kept as an event (the lines of a game record), so a state
    can be saved (``serialize``) and played again exactly."""

    def __init__(self, game: TrickGame, match: Match, head: dict[str, Any] | None = None):
        """The state of ``match`` (just made), its history written from now on (``head``: the header line to
        keep, default one made from the game)."""
        self.game = game
        self._match = match
        self._state = match.state
        self._moves: list[tuple[bool, Any]] = []  # each chance outcome (True) and action (False) as applied
        self._writer = RecordWriter(told=True, rules_file=game.rules_file, head=head, moves=self._moves)
        self._events = self._writer.lines  # the history, as the lines of a record
        self._knowledge: Knowledge | None = None
        self._dealing: list[int] = []  # the cards dealt so far of a deal dealt card by card
        self._seen: list[list[str]] | None = None  # what each seat saw after each event, once asked for
        self._last: list[dict[str, Any]] = [{} for _ in range(game.players)]  # each seat's last observation
        self._sample = False  # a state made by sample(): no history of its own
        self._ids: tuple[Any, Any, list[int]] = (None, None, [])  # a decision, its actions and their ids
        self._notes: list[str] = []  # the narration the rules told everyone so far
        self._following = _Following(self)
        match.listen(self._writer, self._following)
        match.begin()

    def _put(self, state: State) -> None:
        """Put ``state`` in place of the one played (a copy kept before a change, a sample)."""
        self._match.state = self._state = state

    @property
    def _rng(self) -> random.Random:
        return self._match.rng

    # ------------------------------------------------------------------ whose turn

    @property
    def current_player(self) -> int | None:
        """The seat to act, ``CHANCE`` (-1) when a chance event (a deal) comes next, or None when the game is
        over."""
        d = self._state.pending
        return None if d is None else d.actor

    def is_chance(self) -> bool:
        return self.current_player == CHANCE

    def is_over(self) -> bool:
        return self._state.finished

    @property
    def step(self) -> str | None:
        """The name of the step that decides now (None when the game is over)."""
        d = self._state.pending
        return None if d is None else d.step.name

    @property
    def prompt(self) -> str | None:
        """What the seat to act is asked, as ``trickbook play`` asks a person ("play a card"; None at a deal or
        when the game is over)."""
        d = self._state.pending
        return None if d is None or d.actor == CHANCE else d.prompt

    @property
    def round(self) -> int:
        return self._state.round_number

    @property
    def dealer(self) -> int:
        return self._state.dealer

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[int]:
        """The ids of the actions the seat to act may take now, in the order the engine lists them (a hand as
        the seat holds it); [] at a chance event or when the game is over."""
        d = self._state.pending
        if d is None or d.actor == CHANCE:
            return []
        if self._ids[0] is not d or self._ids[1] is not d.actions:
            self._ids = (d, d.actions, self.game.actions.ids(d.step, d.actions))
        return list(self._ids[2])

    def legal_mask(self) -> list[bool]:
        """One entry per action id of the game: True for the legal ones."""
        mask = [False] * self.game.num_actions
        for i in self.legal_actions():
            mask[i] = True
        return mask

    def labels(self) -> list[str]:
        """The labels of the legal actions, as people read them (and records write them), in the same order."""
        d = self._state.pending
        if d is None or d.actor == CHANCE:
            return []
        return [d.step.label(self.game.engine, a) for a in d.actions]

    def apply(self, action: int | str) -> None:
        """Take a legal action, by its id or its label (as ``labels`` gives it; case does not matter). Anything
        else is refused with the legal labels, and the state is left as it was."""
        state, engine = self._state, self.game.engine
        d = state.pending
        if d is None:
            raise IllegalAction("the game is over; no action is legal")
        if d.actor == CHANCE:
            raise IllegalAction("chance acts now (a deal): call apply_chance()")
        if isinstance(action, str):
            chosen = engine.action_for_label(state, action)
        else:
            if self._ids[0] is not d or self._ids[1] is not d.actions:
                self.legal_actions()
            try:
                chosen = d.actions[self._ids[2].index(action)] if type(action) is int else None
            except ValueError:
                chosen = None
            if chosen is None:
                what = f"id {action!r}" + (f" ({self.game.action(action).label})"
                                           if type(action) is int and 0 <= action < self.game.num_actions else "")
                raise IllegalAction(engine._refusal(state, what, self.labels()))
        self._atomic(lambda: self._match.act(chosen, legal=True))

    def held(self, seat: int) -> tuple[frozenset[int], frozenset[int]]:
        """What ``seat`` holds face down and every card it sees now, as card ids: give it to ``received`` after an
        action to learn what came to the seat unseen."""
        from interpreter.engine.observation import held

        own, seen = held(self.game.engine, self._state, self._seat(seat))
        return frozenset(own), frozenset(seen)

    def received(self, seat: int, before: tuple[frozenset[int], frozenset[int]]) -> list[str]:
        """The labels of the cards ``seat`` holds face down now and did not see when ``before`` (its ``held``) was
        taken: the cards passed to it, as ``trickbook play`` tells a person ("you receive: ...")."""
        from interpreter.engine.observation import held, received

        now = held(self.game.engine, self._state, self._seat(seat))
        labels = self.game.engine.cards.labels
        return [labels[c] for c in received(before, now)]

    def describe(self, action: int | str, seat: int | None) -> str | None:
        """How ``seat`` is told the legal action ``action`` (by id or label) of the seat to act, before it is
        taken: "North plays Q of clubs", or "East passes a card" to a seat that may not see it (None: a spectator,
        told everything; the result None: nothing worth telling). What ``trickbook play`` tells a person."""
        d, chosen = self._legal(action)
        text = d.step.describe(self.game.engine, self._state, d, chosen, None if seat is None else self._seat(seat))
        return None if not text else f"{self.game.seat_names[d.actor]} {text}"

    def _legal(self, action: int | str) -> tuple[Any, Any]:
        """The pending decision and the engine's action ``action`` names (legal now), else an IllegalAction."""
        d = self._state.pending
        if d is None or d.actor == CHANCE:
            raise IllegalAction("no seat acts now")
        if isinstance(action, str):
            return d, self.game.engine.action_for_label(self._state, action)
        ids = self.legal_actions()
        if type(action) is not int or action not in ids:
            raise IllegalAction(f"id {action!r} is not legal now")
        return d, d.actions[ids.index(action)]

    def notes(self, since: int = 0) -> list[str]:
        """The narration so far (from its ``since``-th line on), one line each: what the rules tell everyone as
        the game goes (each trick won, each round's scores explained, ...), as ``trickbook play`` prints it. A
        state read back from its record (``deserialize``) starts with none."""
        return self._notes[_count(since, "since")]

    def agent_choice(self, agent: Any) -> int:
        """The id of the action a built-in agent (harness/agents.py, harness/players.agent_factory) takes now,
        given the seat to act's turn as ``trickbook play`` gives it: the legal actions, the seat's observation,
        and samples of what it cannot see when the agent asks for them (``samples = True``)."""
        from interpreter.harness.agents import Turn

        d = self._state.pending
        if d is None or d.actor == CHANCE:
            raise IllegalAction("no seat acts now")
        if not callable(getattr(agent, "act", None)):
            raise GameError(f"an agent has a method act(turn); {type(agent).__name__} has none")
        knowledge = self.knowledge() if getattr(agent, "samples", False) else None
        chosen = agent.act(Turn(self.game.engine, self._state, d.actor, d.actions, d.prompt, knowledge, d.kind))
        ids = self.legal_actions()
        for i, a in enumerate(d.actions):
            if a is chosen or a == chosen:
                return ids[i]
        raise IllegalAction(f"the agent chose {chosen!r}, which is not legal now")

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The pending chance event dealt card by card: the cards that may come next, as (card, probability),
        every card left equally likely, so identical cards (one outcome, the id of the first of them) as likely
        as there are of them left ([] when no chance event is pending). ``apply_chance(card)`` deals one."""
        d = self._state.pending
        if d is None or d.actor != CHANCE:
            return []
        left = self._left(d)
        kinds = self.game.engine.cards.kinds
        counts: dict[int, int] = {}
        for c in left:
            counts[kinds[c]] = counts.get(kinds[c], 0) + 1
        return [(k, n / len(left)) for k, n in counts.items()]

    def _left(self, d: Any) -> list[int]:
        cards = d.step.chance_cards(self.game.engine, self._state)
        for c in self._dealing:
            cards.remove(c)
        return cards

    def apply_chance(self, outcome: int | random.Random | None = None, rng: random.Random | None = None) -> None:
        """Deal: with ``outcome``, the next card of the pending chance event (one of ``chance_outcomes``; once
        every card has come, the deal is made in that order); without, the whole deal (the rest of it, when
        some cards have come) drawn from ``rng`` or the state's own random source (seeded by ``new_state``),
        every order equally likely (``apply_chance(rng)`` says the same as ``apply_chance(rng=rng)``)."""
        if isinstance(outcome, random.Random):
            outcome, rng = None, outcome
        state, engine = self._state, self.game.engine
        d = state.pending
        if d is None or d.actor != CHANCE:
            raise IllegalAction("no chance event is pending")
        left = self._left(d)
        if outcome is not None:
            kinds = engine.cards.kinds
            card = next((c for c in left if kinds[c] == outcome), None) if type(outcome) is int else None
            if card is None:
                raise IllegalAction(f"card {outcome!r} cannot come next in this deal (the cards left: "
                                    f"{', '.join(engine.cards.labels[c] for c in left[:20])}"
                                    + (" ..." if len(left) > 20 else "") + ")")
            self._dealing.append(card)
            if len(left) > 1:
                return
            order = self._dealing
        elif self._dealing:
            (rng or self._rng).shuffle(left)
            order = self._dealing + left
        else:
            order = d.step.sample(engine, state, rng or self._rng)
        self._dealing = []
        self._apply_deal(d, order)

    def _apply_deal(self, d: Any, outcome: Any) -> None:
        self._atomic(lambda: self._match.chance(outcome))

    def _atomic(self, change: Callable[[], None]) -> None:
        """Make the ``change``, all of it or nothing: when a rule fails on the way (an expression that cannot be
        worked out), the state and its history are put back as they were before and the error raised. Nothing
        is copied while changes go well: the state is played again from its events when one fails (a sample,
        which has no history, from a copy taken before each change)."""
        kept = self._state.clone() if self._sample else None
        events, notes, moves, rounds = len(self._events), len(self._notes), len(self._moves), self._match.rounds
        try:
            change()
        except BaseException:
            del self._events[events:], self._notes[notes:], self._moves[moves:]
            self._match.rounds = rounds
            self._put(kept if kept is not None else _replayed(self, lambda again: None))
            self._knowledge, self._ids = None, (None, None, [])  # followed again from the start when asked for
            raise

    # ------------------------------------------------------------------ what is known

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees now (None: a spectator): its cards, the others' counts, the table, the values
        everyone is told, the scores (see docs/api.md)."""
        return observe(self.game.engine, self._state, None if seat is None else self._seat(seat))

    def status(self, seat: int) -> list[tuple[str, str]]:
        """The rule file's status lines (its ``table:``) as ``seat`` sees them: each title with its text, worked
        out on a sample of what the seat knows (so a line never shows what it may not see); empty when the file
        declares none. The same sample every time for the same state (a fixed random source)."""
        return seen_status(self.game.engine, self._state, self._seat(seat), self.knowledge())

    def _seat(self, seat: Any) -> int:
        """``seat`` when it is a seat of this game (a number from 0), else a GameError."""
        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise GameError(f"seat must be a number from 0 to {self.game.players - 1}, not {seat!r}")
        return seat

    def refusal(self, card: str) -> str | None:
        """Why the seat to act may not play (or choose) the card labelled ``card`` now, in the rule file's words
        (an obligation's ``says:``, or its expression in words); None when nothing refuses it."""
        cards = self.game.engine.cards_by_label().get(card) if isinstance(card, str) else None
        if not cards:
            raise GameError(f"no card {card!r} in this game's deck")
        return next((why for c in cards if (why := self.game.engine.refusal(self._state, c))), None)

    def observation_string(self, seat: int | None) -> str:
        """``observation(seat)`` as one line of JSON (keys sorted)."""
        return json.dumps(self.observation(seat), sort_keys=True, ensure_ascii=False)

    def observation_tensor(self, seat: int | None) -> list[float]:
        """``observation(seat)`` as ``game.observation_size`` numbers, laid out as ``game.observation_layout``
        says."""
        return self.game.encoder.encode(self.observation(seat))

    def information_state_string(self, seat: int) -> str:
        """Everything ``seat`` has seen so far, in order: what changed in its observation at each event (the
        deals, its own and the others' actions as it saw them), one line each. Two states give the same string
        exactly when the seat cannot tell them apart. The first call follows the game from its start once."""
        if self._seen is None:
            if self._sample:
                raise GameError("a sample has no history: ask the real state for information states before sampling")
            self._seen = _seen_of(self)
            self._following.follow()
        return "\n".join(self._seen[self._seat(seat)])

    @property
    def events(self) -> list[dict[str, Any]]:
        """Everything that happened, as the lines of a game record: the header, then each chance event, action,
        trick won (``trick``: its cards, winner and takers), decision an automatic seat took by its rule
        (``automatic``), round scored and the result (docs/records.md)."""
        return [dict(e) for e in self._events]

    def events_since(self, count: int) -> list[dict[str, Any]]:
        """``events[count:]``, without copying the events before: to write a record line by line as the game
        goes (each new event once)."""
        return [dict(e) for e in self._events[_count(count, "count")]]

    def returns(self) -> list[int]:
        """Each seat's total so far (its final score once the game is over)."""
        return list(self._state.totals)

    def round_returns(self) -> list[list[int]]:
        """Each round's scores, one list a round played in this state."""
        return [list(r) for r in self._state.round_results]

    def winners(self) -> list[int]:
        """The seats with the best total among those that may win (once the game is over)."""
        return self.game.engine.winners(self._state)

    # ------------------------------------------------------------------ copies

    def clone(self) -> GameState:
        """An independent copy: playing on one leaves the other as it was."""
        other = GameState.__new__(GameState)
        other.game = self.game
        rng = random.Random()
        rng.setstate(self._rng.getstate())
        other._match = self._match.copy(rng)
        other._state = other._match.state
        other._moves = list(self._moves)
        other._writer = self._writer.copy(other._moves)
        other._events = other._writer.lines
        other._following = _Following(other)
        other._match.listen(other._writer, other._following)
        other._knowledge = None
        other._dealing = list(self._dealing)
        other._seen = None if self._seen is None else [list(s) for s in self._seen]
        if other._seen is not None:
            other._following.follow()
        other._last = [dict(o) for o in self._last]
        other._sample = self._sample
        other._ids = (None, None, [])
        other._notes = list(self._notes)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game and its record (a deal being dealt card by card: the cards dealt so far too)."""
        dealing, self._dealing = self._dealing, []
        try:
            return _state_from, (self.game, self.serialize(), list(dealing), self._rng.getstate())
        finally:
            self._dealing = dealing

    def serialize(self) -> str:
        """The state as text (a game record, JSON Lines): ``TrickGame.deserialize`` or ``load_serialized``
        gives it back. A deal being dealt card by card is not saved until it is whole."""
        if self._dealing:
            raise GameError("a deal is being dealt card by card: deal the rest (apply_chance()) before saving")
        if self._sample:
            raise GameError("a sample cannot be saved: it has no history of its own")
        return record_text(self._events)

    def knowledge(self) -> Knowledge:
        """Who knows where each card is (engine/knowledge.py), for search: followed from the game's start the
        first time it is asked for, and from then on."""
        if self._knowledge is None:
            if self._sample:
                raise GameError("a sample has no history to follow: sample the real state again")
            self._knowledge, self._state.seen = _knowledge_of(self)
            self._following.follow()
        return self._knowledge

    def sample(self, seat: int, rng: random.Random | None = None) -> GameState:
        """A state ``seat`` cannot tell from this one: the cards it has not seen dealt again among their
        places, as what it was told allows (for search). A sample has no history of its own: its ``events`` start
        empty, it cannot be saved, and another seat's information state in it starts from what that seat sees
        in the sample."""
        knowledge = self.knowledge()
        if self._seen is None:  # the seat's information state goes with its samples
            self._seen = _seen_of(self)
            self._following.follow()
        seat = self._seat(seat)
        other = self.clone()
        other._put(determinize(self.game.engine, self._state, seat, knowledge, rng or self._rng))
        # nothing of the real game beyond what the seat knows: no history (it would tell the real deal), and
        # the other seats' information states start from what they see in the sample
        del other._events[1:], other._moves[:]
        other._sample = True
        if other._seen is not None:
            for s in range(self.game.players):
                if s != seat:
                    other._last[s] = other.observation(s)
                    other._seen[s] = [json.dumps(other._last[s], sort_keys=True, ensure_ascii=False)]
        return other


class _Following:
    """What a GameState keeps of its match beyond the record: the narration, and once asked for, what each seat
    saw and who knows which card (``follow``)."""

    def __init__(self, state: GameState):
        self.of = state
        self.hears: dict[type, Handler] = {Note: self.note}

    def follow(self) -> None:
        """From now on, after each change: the knowledge and the seats' information states (where kept)."""
        if Applied not in self.hears:
            self.hears[Applied] = self.applied
            self.of._match.listen()

    def note(self, match: Match, event: Note) -> None:
        self.of._notes.append(event.text)

    def applied(self, match: Match, event: Applied) -> None:
        of = self.of
        if of._knowledge is not None:
            of._knowledge.update(match.state)
        if of._seen is not None:
            _saw(match.game, match.state, of._seen, of._last)


def _changed(before: dict[str, Any], now: dict[str, Any], depth: int) -> dict[str, Any]:
    """What differs in ``now`` from ``before``: changed keys (within mappings, down to ``depth`` levels, only
    what changed in them), and keys gone as None."""
    out: dict[str, Any] = {}
    for k, v in now.items():
        old = before.get(k, _GONE)
        if old != v:
            out[k] = _changed(old, v, depth - 1) if depth > 1 and isinstance(old, dict) and isinstance(v, dict) \
                else v
    out.update({k: None for k in before if k not in now})
    return out


_GONE = object()


def _replayed(state: GameState, watch: Callable[[State], None]) -> State:
    """A new state that plays ``state``'s chance events and actions again from its start, ``watch`` told of it
    at the start and after each (to follow what ``state`` did not follow from the start). The very outcomes and
    actions are applied again, not their labels: the same cards in the same places, identical cards too."""
    engine = state.game.engine
    again = Match(engine, **start_of(engine, state._events[0], "state"))
    watch(again.state)
    again.listen(Each(watch))
    for chance, move in state._moves:
        if chance:
            again.chance(move)
        else:
            again.act(move)
    return again.state


def _saw(engine: Game, state: State, seen: list[list[str]], last: list[dict[str, Any]]) -> None:
    """Add what each seat sees now to its information state (the keys of its observation that changed)."""
    for s in range(engine.players):
        now = observe(engine, state, s)
        seen[s].append(json.dumps(_changed(last[s], now, 3), sort_keys=True, ensure_ascii=False))
        last[s] = now


def _seen_of(state: GameState) -> list[list[str]]:
    """What each seat saw after each event of ``state`` (and, in ``state._last``, what it sees now)."""
    engine = state.game.engine
    seen: list[list[str]] = [[] for _ in range(engine.players)]
    last: list[dict[str, Any]] = [{} for _ in range(engine.players)]
    _replayed(state, lambda again: _saw(engine, again, seen, last))
    state._last = last
    return seen


def _knowledge_of(state: GameState) -> tuple[Knowledge, Any]:
    """Who knows which card in ``state``, and what the state is to keep for it to follow (``State.seen``)."""
    engine = state.game.engine
    made: list[Knowledge] = []

    def watch(again: State) -> None:
        if made:
            made[0].update(again)
        else:
            made.append(Knowledge(engine, again))

    again = _replayed(state, watch)
    return made[0], again.seen
