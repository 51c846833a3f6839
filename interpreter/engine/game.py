"""The compiled game: its checked play, its actions' labels, its written code.

A :class:`Game` is immutable: rules compiled for one player count and one set
of options. Play happens on :class:`State` objects: ``state.pending`` says
who acts (a seat, or ``CHANCE``) and what is legal; ``apply`` is checked and
leaves the state unchanged when it refuses; ``apply_fast`` trusts its caller.
How the rounds go on from action to action (the next step entered, automatic seats, a round's end) and the
playout loop are the game's ``rounds`` (rounds.py); its seats are seats.py's, its status lines table.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from interpreter.dsl import budget
from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.types import Type
from interpreter.engine.cards import hand_order
from interpreter.engine.module import Module
from interpreter.engine.notation import Notation
from interpreter.engine.round_code import RoundCode
from interpreter.engine.rounds import Policy, Rounds
from interpreter.engine.seats import SeatSpec
from interpreter.engine.state import CHANCE, State
from interpreter.engine.steps.base import Step
from interpreter.engine.table import StatusLine
from interpreter.errors import GameError, IllegalAction
from interpreter.limits import MAX_ACTIONS
from interpreter.plan.cards import CardTable
from interpreter.plan.zones import ZoneSpec


@dataclass
class Flow:
    """How the game runs from round to round."""

    rounds: Compiled | None = None
    until: Compiled | None = None
    winners: str = "highest_total"
    can_win: Compiled | None = None
    first_dealer: int = 0
    next_dealer: Compiled | None = None  # who deals the next round (None: the deal passes left)
    game_values: dict[str, Compiled] = field(default_factory=dict)
    game_seat_values: dict[str, Compiled] = field(default_factory=dict)  # per seat, kept across rounds

    @property
    def higher_wins(self) -> bool:
        """True when the best total is the highest (False: the lowest, as in games of penalty points)."""
        return self.winners == "highest_total"


class Game:
    """Rules compiled for one player count and one set of options."""

    def __init__(self, *, name: str, title: str, identity: str, player_count: int, options: dict[str, Any],
                 seats: list[SeatSpec], cards: CardTable, deck: list[int], deck_start: str | None,
                 zones: dict[str, ZoneSpec], counters: list[str], steps: list[Step], flow: Flow,
                 round_fields: list[str], seat_value_names: list[str], value_types: dict[str, Type],
                 visibility: dict[str, str], group: str | None = None, table: list[StatusLine] | None = None,
                 notation: Notation | None = None):
        self.name = name
        self.combinations: Any = None  # the combinations section (engine/combinations.py), set by compile
        self.title = title
        self.identity = identity
        self.seats = seats
        self.players = len(seats)  # seats, automatic ones included
        self.player_count = player_count  # as asked for
        self.seat_names = [s.name for s in seats]
        self.automatic = frozenset(i for i, s in enumerate(seats) if s.automatic)
        self.options = options
        self.cards = cards
        self.deck = deck
        # how people see a hand: a sort key and a group (the suit) per card id
        self.hand_order, self.hand_group = hand_order(cards, group)
        self.deck_start = deck_start  # the shared zone every card is in when the game begins (or none)
        self.zones = zones
        self.shared_zones = [z for z, spec in zones.items() if not spec.per_seat]
        self.seat_zones = [z for z, spec in zones.items() if spec.per_seat]
        self.counters = counters
        self.steps = steps
        self.flow = flow
        self.first_dealer = flow.first_dealer % self.players
        self.round_fields = round_fields
        self.seat_value_names = seat_value_names
        self.value_types = value_types  # value name -> its static type (to show seats and cards by name)
        self.visibility = visibility  # round/seat value name -> "all", "owner" or "nobody"
        self.table = table or []  # the status lines the rule file declares (what the players see on the table)
        self.notation = notation  # how deal files write a hand (deck.notation), or None
        self._gen: Namespace | None = None  # where the round's code is written (see written)
        self._keep = False
        self._module: Module | None = None
        self._round: RoundCode | None = None
        self.rounds = Rounds(self)  # its rounds played on, from action to action (rounds.py)

    # ------------------------------------------------------------------ setup

    def new_state(self, hand: int = 1, dealer: int | None = None, totals: list[int] | None = None) -> State:
        """A game at the start of its first round, or, to pick up a game in the middle, at the start of round
        ``hand`` (from 1) with ``dealer`` dealing (default: the first dealer, passed on one seat a round) and
        the running ``totals`` (default: 0 each). The game values are as at the game's start."""
        if type(hand) is not int or hand < 1:
            raise GameError(f"hand must be a whole number from 1, not {hand!r}")
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < self.players):
            raise GameError(f"dealer must be a seat from 0 to {self.players - 1}, not {dealer!r}")
        if totals is not None and (len(totals) != self.players or any(type(t) is not int for t in totals)):
            raise GameError(f"totals must be {self.players} whole numbers, one a seat, not {totals!r}")
        budget.reset()
        state = State(self)
        if self.deck_start is not None:
            state.shared[self.deck_start].extend(self.deck)
        state.game_vars = dict.fromkeys(self.flow.game_values)
        state.round_number = hand - 1
        state.dealer = (self.first_dealer + hand - 1) % self.players if dealer is None else dealer
        if totals is not None:
            state.totals = list(totals)
        self.rounds.start_round(state)
        self.round_code().begin(state)
        self.rounds.advance(state, self.rounds.enter(state, 0))
        return state

    def cards_by_label(self, cards: list[int] | None = None) -> dict[str, list[int]]:
        """Label -> card ids of this game's deck (after removals), or of ``cards``; a fresh dict."""
        out: dict[str, list[int]] = {}
        for c in self.deck if cards is None else cards:
            out.setdefault(self.cards.labels[c], []).append(c)
        return out

    # ------------------------------------------------------------------ queries

    def current(self, state: State) -> int | None:
        """The seat to act, ``CHANCE``, or None when the game is over."""
        return None if state.pending is None else state.pending.actor

    def legal_actions(self, state: State) -> list[Any]:
        d = state.pending
        if d is None or d.actor == CHANCE:
            return []
        return d.actions

    def label(self, state: State, action: Any) -> str:
        d = state.pending
        if d is None:
            raise GameError("the game is over")
        return d.step.words.label(self, action)

    def refusal(self, state: State, card: int) -> str | None:
        """Why the card ``card`` may not be played (or chosen) now, in the rule file's words: the obligation that
        refuses it (its ``says:``, or its expression in words). None when nothing refuses it here."""
        d = state.pending
        if d is None or d.actor == CHANCE:
            return None
        return d.step.words.refusal(self, state, card)

    def labels(self, state: State) -> list[str]:
        return [self.label(state, a) for a in self.legal_actions(state)]

    def action_for_label(self, state: State, label: str) -> Any:
        """The legal action whose label is ``label`` (exactly, or ignoring case)."""
        actions = self.legal_actions(state)
        labels = [self.label(state, a) for a in actions]
        for a, lab in zip(actions, labels):
            if lab == label:
                return a
        folded = label.strip().casefold()
        for a, lab in zip(actions, labels):
            if lab.casefold() == folded:
                return a
        raise IllegalAction(not_legal(self, state, repr(label), labels))

    def is_over(self, state: State) -> bool:
        return state.finished

    def every_step(self) -> list[Step]:
        """Every step of the round, nested ones (in a repeat, a trick's hooks) after the step holding them."""
        out: list[Step] = []
        todo = list(reversed(self.steps))
        while todo:
            step = todo.pop()
            out.append(step)
            todo.extend(reversed(step.inner_steps()))
        return out

    def winners(self, state: State) -> list[int]:
        """The seats with the best total among those that may win (``game.can_win``)."""
        budget.reset()
        totals = state.totals
        eligible = self.round_code().can_win(state)
        if not eligible:
            return []
        pick = max if self.flow.winners == "highest_total" else min
        best = pick(totals[s] for s in eligible)
        return [s for s in eligible if totals[s] == best]

    # ------------------------------------------------------------------ moves

    def apply(self, state: State, action: Any) -> None:
        """Checked apply: refuse anything that is not a legal action, leaving the state as it was."""
        d = state.pending
        if d is None:
            raise IllegalAction("the game is over; no action is legal")
        if d.actor == CHANCE:
            raise IllegalAction("chance acts now; use apply_chance with an outcome")
        if not any(a == action and type(a) is type(action) for a in d.actions):  # Play(0, 0) is no Cover(0, 0)
            labels = [d.step.words.label(self, a) for a in d.actions]
            raise IllegalAction(not_legal(self, state, repr(action), labels))
        self.apply_fast(state, action)

    def sample_chance(self, state: State, rng: Any) -> Any:
        d = state.pending
        if d is None or d.actor != CHANCE:
            raise GameError("no chance event is pending")
        return d.step.chance.sample(self, state, rng)

    def apply_chance(self, state: State, outcome: Any) -> None:
        d = state.pending
        if d is None or d.actor != CHANCE:
            raise IllegalAction("no chance event is pending")
        self.apply_fast(state, outcome)

    def apply_fast(self, state: State, action: Any) -> None:
        """Apply without checking legality (for bots and search that only pick legal actions)."""
        budget.reset()  # each action may make the expressions do a bounded amount of work
        step = self.steps[state.step_index]
        p = state.progress
        d = step.apply(self, state, p, action) or step.decision(self, state, p)  # usually the same step goes on
        state.actions_taken += 1
        if state.actions_taken > MAX_ACTIONS:
            self.rounds.too_long(step)
        self.rounds.go_on(state, d)

    def playout(self, state: State, rng: Any, policy: Policy | None = None, round_end: bool = False) -> int:
        """Play ``state`` on to the end of the game (``round_end``: of the round), chance drawn from ``rng`` and
        every seat deciding by ``policy``; the number of decisions the seats took (see ``Rounds.playout``)."""
        return self.rounds.playout(state, rng, policy, round_end)

    # ------------------------------------------------------------------ flow

    def written(self, gen: Namespace, keep: bool) -> None:
        """The namespace of the game's expressions, where its module is written (``keep``: kept for the next run,
        and written now; otherwise when first needed)."""
        self._gen, self._keep = gen, keep
        self._module, self._round = None, None
        if keep:
            self.module()

    def module(self) -> Module:
        """The game's written code (see module.py)."""
        if self._module is None:
            assert self._gen is not None, "compile_game tells the game where its code is written"
            self._module = Module(self, self._gen, self._keep)
        return self._module

    def round_code(self) -> RoundCode:
        """The functions written for the round (see round_code.py)."""
        if self._round is None:
            self._round = cast(RoundCode, self.module().code(self))
        return self._round


def not_legal(game: Game, state: State, what: str, labels: list[str]) -> str:
    """Why ``what`` is refused: it is not legal now for the seat to act, whose legal actions are ``labels``."""
    d = state.pending
    who = game.seat_names[d.actor] if d and d.actor >= 0 else "chance"
    shown = ", ".join(labels[:40]) + (" ..." if len(labels) > 40 else "")
    return f"{what} is not legal now for {who} ({d.step.name if d else 'game over'}); legal: {shown}"
