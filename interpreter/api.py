"""The public Python API: load a game, step it by action ids or labels, see what a seat sees, copy and save it.

docs/api.md is its guide; every example there is run by tests/test_api.py. Everything here stands on the
engine's own objects (``Game``, ``State``), which are not part of the API and may change.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from interpreter.engine.actions import ActionInfo, ActionSpace
from interpreter.engine.compile import compile_game
from interpreter.engine.game import Game
from interpreter.engine.knowledge import Knowledge, determinize
from interpreter.engine.observation import observe
from interpreter.engine.state import CHANCE, State
from interpreter.errors import GameError, IllegalAction, RecordError
from interpreter.harness.records import game_for_record, play_events, start_of
from interpreter.harness.runner import header, result_event, round_event
from interpreter.rules.loader import load_rules

__all__ = ["CHANCE", "ActionInfo", "GameState", "TrickGame", "load", "load_serialized"]


def load(game: str | Path, players: int | None = None, options: dict[str, Any] | None = None) -> TrickGame:
    """A game by bundled name or rule file path, for ``players`` (default: the smallest count
    the rules support) with ``options`` (by name; the others keep their defaults)."""
    source = load_rules(game)
    if players is None:
        from interpreter.engine.compile import supported_players

        players = min(supported_players(source))
    return TrickGame(compile_game(source, players, dict(options or {})),
                     str(game) if str(game).endswith((".yaml", ".yml")) else None)


class TrickGame:
    """Rules compiled for one player count and options: what every state of the game shares."""

    def __init__(self, game: Game, rules_file: str | None = None):
        self.engine = game
        self.rules_file = rules_file
        self._space: ActionSpace | None = None

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

    def new_state(self, seed: Any = None, hand: int = 1, dealer: int | None = None,
                  totals: list[int] | None = None) -> GameState:
        """A game at its start, or picked up at the start of round ``hand`` with ``dealer`` dealing and the
        running ``totals``; its chance events (the deals) are drawn from a random source seeded with ``seed``
        when the state is asked to (``apply_chance``)."""
        return GameState(self, self.engine.new_state(hand, dealer, totals), seed,
                         {"hand": hand, "dealer": dealer, "totals": totals})

    def deserialize(self, text: str) -> GameState:
        """The state ``GameState.serialize`` wrote (a record, perhaps of a game not over yet), played again
        and checked event by event on these rules."""
        events = _events(text)
        head = events[0][1]
        where = "serialized state:1"
        engine = self.engine
        if head.get("rules", engine.name) != engine.name or head.get("rules_id", engine.identity) != engine.identity:
            raise RecordError(f"{where}: the state is of other rules ({head.get('rules')}) than this game "
                              f"({engine.name})")
        for key, mine in (("players", engine.player_count), ("options", engine.options)):
            if head.get(key, mine) != mine:
                raise RecordError(f"{where}: the state is of other {key} ({head.get(key)}) than this game ({mine})")
        start = start_of(self.engine, head, where)
        state = GameState(self, self.engine.new_state(**start), head.get("seed"), start)
        play_events(self.engine, state._state, head, events[1:], "serialized state")
        state._events = [e for _, e in events]
        state._rounds = len(state._state.round_results)
        return state


def load_serialized(text: str) -> GameState:
    """A state ``GameState.serialize`` wrote, on the rules its header names (a bundled game, or a rule file
    in the current folder or below)."""
    events = _events(text)
    game = game_for_record(events[0][1], "serialized state:1")
    return TrickGame(game, events[0][1].get("rules_file")).deserialize(text)


def _events(text: str) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                event = json.loads(line)
            except ValueError as exc:
                raise RecordError(f"serialized state:{n}: not JSON: {exc}") from None
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise RecordError(f"serialized state:{n}: each line is an object with a \"type\"")
            out.append((n, event))
    if not out or out[0][1].get("type") != "game":
        raise RecordError("serialized state:1: the first line must be the game header")
    return out


class GameState:
    """One game in progress. Seats are numbers from 0 (``TrickGame.seat_names`` names them); actions are the
    ids of ``TrickGame.actions``. Every change is kept as an event (the lines of a game record), so a state
    can be saved (``serialize``) and played again exactly."""

    def __init__(self, game: TrickGame, state: State, seed: Any, start: dict[str, Any]):
        self.game = game
        self._state = state
        self._rng = random.Random(seed)
        head = header(game.engine, seed, game.rules_file)
        if start.get("hand", 1) != 1 or start.get("dealer") is not None or start.get("totals") is not None:
            names = game.engine.seat_names
            head["start"] = {"hand": start.get("hand", 1), "dealer": names[state.dealer],
                             "totals": dict(zip(names, state.totals))}
        self._events: list[dict[str, Any]] = [head]
        self._first = start.get("hand", 1)
        self._rounds = 0
        self._knowledge: Knowledge | None = None

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
    def round(self) -> int:
        return self._state.round_number

    @property
    def dealer(self) -> int:
        return self._state.dealer

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[int]:
        """The ids of the actions the seat to act may take now, in the order the engine lists them (a hand in
        deck order); [] at a chance event or when the game is over."""
        d = self._state.pending
        if d is None or d.actor == CHANCE:
            return []
        return self.game.actions.ids(d.step, d.actions)

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
            ids = self.legal_actions()
            if action not in ids or type(action) is not int:
                what = f"id {action!r}" + (f" ({self.game.action(action).label})"
                                           if type(action) is int and 0 <= action < self.game.num_actions else "")
                raise IllegalAction(engine._refusal(state, what, self.labels()))
            chosen = d.actions[ids.index(action)]
        self._events.append({"type": "action", "round": state.round_number, "step": d.step.name,
                             "seat": engine.seat_names[d.actor], "action": d.step.label(engine, chosen)})
        engine.apply(state, chosen)
        self._after()

    def apply_chance(self, rng: random.Random | None = None) -> None:
        """Draw the pending chance event (a whole deal: every order of the cards equally likely) from ``rng``,
        or from the state's own random source (seeded by ``new_state``)."""
        state, engine = self._state, self.game.engine
        d = state.pending
        if d is None or d.actor != CHANCE:
            raise IllegalAction("no chance event is pending")
        outcome = d.step.sample(engine, state, rng or self._rng)
        self._events.append({"type": "chance", "round": state.round_number, "step": d.step.name,
                             "outcome": d.step.outcome_to_record(engine, state, outcome)})
        engine.apply_chance(state, outcome)
        self._after()

    def _after(self) -> None:
        state, engine = self._state, self.game.engine
        if self._knowledge is not None:
            self._knowledge.update(state)
        while len(state.round_results) > self._rounds:
            self._rounds += 1
            self._events.append(round_event(engine, state, self._rounds, self._first))
        if state.finished:
            self._events.append(result_event(engine, state))

    # ------------------------------------------------------------------ what is known

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees now (None: a spectator): its cards, the others' counts, the table, the values
        everyone is told, the scores (see docs/api.md)."""
        return observe(self.game.engine, self._state, seat)

    @property
    def events(self) -> list[dict[str, Any]]:
        """Everything that happened, as the lines of a game record: the header, then each chance event, action,
        round scored and the result (docs/records.md)."""
        return [dict(e) for e in self._events]

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
        other.game, other._state = self.game, self._state.clone()
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._events = [dict(e) for e in self._events]
        other._first, other._rounds, other._knowledge = self._first, self._rounds, None
        return other

    def serialize(self) -> str:
        """The state as text (a game record, JSON Lines): ``TrickGame.deserialize`` or ``load_serialized``
        gives it back."""
        return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in self._events)

    def sample(self, seat: int, rng: random.Random | None = None) -> GameState:
        """A state ``seat`` cannot tell from this one: the cards it has not seen dealt again among their
        places, as what it was told allows (for search). Its events are this state's."""
        if self._knowledge is None:  # followed from the start, once asked for
            self._knowledge = _knowledge_of(self)
        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise GameError(f"seat must be a number from 0 to {self.game.players - 1}, not {seat!r}")
        other = self.clone()
        other._state = determinize(self.game.engine, self._state, seat, self._knowledge, rng or self._rng)
        return other


def _knowledge_of(state: GameState) -> Knowledge:
    """Who knows which card in ``state``, followed by playing its events again on a new state."""
    engine = state.game.engine
    head = state._events[0]
    again = engine.new_state(**start_of(engine, head, "state"))
    knowledge = Knowledge(engine, again)
    for n, event in enumerate(state._events[1:], 2):
        if event["type"] in ("chance", "action"):
            play_events(engine, again, head, [(n, event)], "state")
            knowledge.update(again)
    return knowledge
