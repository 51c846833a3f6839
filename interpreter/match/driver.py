"""One match driver: the only loop that plays a game, for every caller.

A :class:`Match` holds one game's state and its random source. Its callers decide (an agent, a person, a
record being replayed, the API's user) and the match applies: ``chance`` for a chance event, ``act`` for a
seat's action, ``play`` to the end under a decider. Each change is told to the match's listeners as typed
events (match/events.py), so what is written about a game (its record, its narration, what each seat knows)
is written once, by a listener, whoever drives it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE, Decision, State
from interpreter.errors import GameError, IllegalAction
from interpreter.match.events import (
    Action,
    Applied,
    Automatic,
    Begin,
    Chance,
    Event,
    GameEnd,
    Note,
    RoundEnd,
    Trick,
)

EACH = (Chance, Action, Applied, Trick, Automatic, Note)  # events of every change (none in a quiet playout)


Handler = Callable[["Match", Any], None]  # a listener's handler of one kind of event: (the match, the event)


class Listener(Protocol):
    """What a match tells: ``hears`` maps each kind of event the listener wants to its handler, which gets the
    match (its game and state, not to be changed) and the event. The match makes events of the other kinds
    only when someone wants them."""

    @property
    def hears(self) -> Mapping[type, Handler]: ...


class Each:
    """A listener that calls ``call(state)`` after every chance event and action (checks, progress)."""

    def __init__(self, call: Callable[[State], None]):
        self.call = call
        self.hears: dict[type, Handler] = {Applied: self.applied}

    def applied(self, match: Match, event: Applied) -> None:
        self.call(match.state)


Decide = Callable[["Match", Decision], Any]  # the action the seat to act takes (one of decision.actions)
Pick = Callable[[list[Any]], int]  # a seat's choice from the list of actions alone: an index


class Match:
    """One game being played: its state, its random source (chance is drawn from ``random.Random(seed)``
    unless given), and its listeners.

    ``hand``, ``dealer``, ``totals``: a game picked up at the start of a later round (``Game.new_state``);
    ``state``: a state already made (of ``game``), instead of a new one.
    """

    def __init__(self, game: Game, seed: Any = None, *, hand: int = 1, dealer: int | None = None,
                 totals: list[int] | None = None, state: State | None = None, rng: random.Random | None = None):
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed) if rng is None else rng
        self.first = hand  # the number of the round the match started at
        self._from = (dealer, None if totals is None else list(totals))  # the rest of where it started
        self._state = game.new_state(hand, dealer, totals) if state is None else state
        self.start = start_entry(game, self._state, hand, dealer, totals)
        self.rounds = len(self._state.round_results)  # rounds scored so far (told as RoundEnd)
        self.listeners: list[Listener] = []
        self._to: dict[type, list[Handler]] = {}
        self._on_action: tuple[Handler, ...] = ()  # the handlers of Action events (the commonest, looked up once)
        self._applied = False  # whether a listener hears of each change
        self._each = False  # whether anything is to be done after each change (beyond a round scored, the end)
        self._channels()

    def copy(self, rng: random.Random | None = None) -> Match:
        """An independent copy of the game (its state cloned; ``rng``: the copy's random source, default a copy
        of this one's), with no listeners."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        other.rng, other._state = rng, self._state.clone()
        other.listeners, other._to, other._on_action, other._applied = [], {}, (), False
        other._channels()
        return other

    def again(self) -> Match:
        """A new match of the same game from the same start (its seed, round, dealer and totals), nothing played yet
        and no listeners: to play this one's chance outcomes and actions again."""
        dealer, totals = self._from
        return Match(self.game, self.seed, hand=self.first, dealer=dealer, totals=totals)

    # ------------------------------------------------------------------ listeners

    def listen(self, *listeners: Listener) -> Match:
        """Tell ``listeners`` every event from now on (in the order they were added)."""
        self.listeners.extend(listeners)
        self._to = {}
        for listener in self.listeners:
            for kind, handler in listener.hears.items():
                self._to.setdefault(kind, []).append(handler)
        self._on_action, self._applied = tuple(self._to.get(Action, ())), Applied in self._to
        self._channels()
        return self

    def forget(self, listener: Listener) -> None:
        """Tell ``listener`` nothing more."""
        self.listeners.remove(listener)
        self.listen()

    def _channels(self) -> None:
        """Make the state tell what the rules make happen, when a listener wants it."""
        state = self._state
        if state.told is None and (Trick in self._to or Automatic in self._to or Note in self._to):
            state.told, state.notes = [], []
        self._each = self._applied or state.told is not None or state.notes is not None

    def emit(self, event: Event) -> None:
        for hear in self._to.get(type(event), ()):
            hear(self, event)

    @property
    def hears_each(self) -> bool:
        """True when a listener wants to hear of every change (so the game cannot be played out quietly)."""
        return any(kind in self._to for kind in EACH)

    def begin(self) -> None:
        """Tell the listeners the game begins (a driver calls it once, after adding them)."""
        self.emit(Begin(self.seed, self.start))

    # ------------------------------------------------------------------ the state

    @property
    def state(self) -> State:
        return self._state

    @state.setter
    def state(self, state: State) -> None:
        """Put another state of the same game in place (a copy kept before a change, a sample): the rounds it
        scored count as told."""
        self._state = state
        self.rounds = len(state.round_results)
        self._channels()

    @property
    def pending(self) -> Decision | None:
        return self._state.pending

    @property
    def finished(self) -> bool:
        return self._state.finished

    # ------------------------------------------------------------------ changes

    def chance(self, outcome: Any = None) -> Any:
        """Apply the pending chance event: ``outcome`` (given), or one drawn from the match's random source.
        Returns the outcome applied."""
        d = self._state.pending
        if d is None or d.actor != CHANCE:
            raise IllegalAction("no chance event is pending")
        given = outcome is not None
        if not given:
            outcome = d.step.chance.sample(self.game, self._state, self.rng)
        if Chance in self._to:
            self.emit(Chance(d, outcome, given))
        state = self._state
        self.game.apply_fast(state, outcome)
        if self._each or len(state.round_results) > self.rounds or state.finished:
            self._after(d)
        return outcome

    def act(self, action: Any) -> None:
        """The seat to act takes ``action``, one of the pending decision's actions; anything else is refused
        (IllegalAction, with the legal labels) and nothing changes (``take``: an action the caller took from the
        pending decision's actions, not looked for again)."""
        state, game = self._state, self.game
        d = state.pending
        if d is None:
            raise IllegalAction("the game is over; no action is legal")
        if d.actor == CHANCE:
            raise IllegalAction("chance acts now; use chance()")
        if not any(a is action for a in d.actions) and \
                not any(a == action and type(a) is type(action) for a in d.actions):  # Play(0, 0) is no Cover(0, 0)
            game.apply(state, action)  # refuses with the list of legal actions
            raise AssertionError("Game.apply took an action that is not legal")  # pragma: no cover
        self.take(action)

    def take(self, action: Any) -> None:
        """The seat to act takes ``action``, which the caller took from the pending decision's actions (it is not
        checked: ``act`` checks it first)."""
        state = self._state
        d = state.pending
        assert d is not None, "take() is for the action of a seat to act"
        if self._on_action:
            event = Action(d, action)
            for hear in self._on_action:
                hear(self, event)
        self.game.apply_fast(state, action)
        if self._each or len(state.round_results) > self.rounds or state.finished:  # else nothing to tell
            self._after(d)

    def _after(self, d: Decision) -> None:
        state = self._state
        if self._applied:
            self.emit(Applied(d))
        told = state.told
        if told:
            for line in told:
                self.emit(Trick(line) if line["type"] == "trick" else Automatic(line))
            told.clear()
        notes = state.notes
        if notes:
            for text in notes:
                self.emit(Note(text))
            notes.clear()
        self._scored()

    def _scored(self) -> None:
        state = self._state
        while len(state.round_results) > self.rounds:
            self.rounds += 1
            self.emit(RoundEnd(self.rounds, state.ended))
        if state.finished:
            self.emit(GameEnd())

    # ------------------------------------------------------------------ whole games

    def play(self, decide: Decide, picks: list[Pick] | None = None, first_deal: Any = None) -> None:
        """Play to the end: chance drawn from the match's random source (the first deal ``first_deal`` when
        given), each seat's action ``decide(match, decision)``. ``picks``: when every seat decides from the list
        of actions alone, its pick a seat; then, with no listener of every change, the game is played out round
        by round by ``Game.playout`` (the same draws, so the same game, faster)."""
        if picks is not None and not self.hears_each:
            self._played_out(picks, first_deal)
            return
        while not self._state.finished:
            d = self._state.pending
            if d is None:
                raise GameError("a game not finished waits for a decision")  # pragma: no cover
            if d.actor == CHANCE:
                self.chance(first_deal)
                first_deal = None
            else:
                self.act(decide(self, d))

    def _played_out(self, picks: list[Pick], first_deal: Any) -> None:
        state, game = self._state, self.game

        def policy(_state: State, seat: int, actions: list[Any]) -> int:
            return picks[seat](actions)

        if first_deal is not None:
            game.apply_fast(state, first_deal)
        while not state.finished:
            game.playout(state, self.rng, policy, round_end=True)
            self._scored()


def start_entry(game: Game, state: State, hand: int = 1, dealer: int | None = None,
                totals: list[int] | None = None) -> dict[str, Any] | None:
    """The header's ``start`` of a game picked up at round ``hand`` (``state`` just made by ``Game.new_state`` with
    these arguments), or None for a game from its start (docs/records.md)."""
    if hand == 1 and dealer is None and totals is None:
        return None
    names = game.seat_names
    return {"hand": hand, "dealer": names[state.dealer], "totals": dict(zip(names, state.totals))}
