"""The compiled game and its play loop.

A :class:`Game` is immutable: rules compiled for one player count and one set
of options. Play happens on :class:`State` objects: ``decision(state)`` says
who acts (a seat, or ``CHANCE``) and what is legal; ``apply`` is checked and
leaves the state unchanged when it refuses; ``apply_fast`` trusts its caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from interpreter.dsl.compiler import Compiled
from interpreter.engine.cards import CardTable
from interpreter.engine.state import CHANCE, State
from interpreter.engine.steps.base import Decision, Step
from interpreter.errors import GameError, IllegalAction

MAX_ROUNDS = 1000
MAX_ACTIONS = 1_000_000


@dataclass(frozen=True)
class ZoneSpec:
    name: str
    per_seat: bool
    visible: str  # "all", "owner", "nobody"


class Game:
    """Rules compiled for one player count and one set of options."""

    def __init__(self, *, name: str, title: str, identity: str, players: int, options: dict[str, Any],
                 seat_names: list[str], cards: CardTable, deck: list[int], zones: dict[str, ZoneSpec],
                 counters: list[str], steps: list[Step], rounds: Compiled | None, until: Compiled | None,
                 winners: str, first_dealer: int, round_fields: list[str], seat_fields: frozenset[str],
                 player_count: int | None = None, automatic: frozenset[int] = frozenset()):
        self.name = name
        self.title = title
        self.identity = identity
        self.players = players  # seats, automatic ones included
        self.player_count = player_count if player_count is not None else players  # as asked for
        self.automatic = automatic  # seats whose every decision is the first legal action
        self.options = options
        self.seat_names = seat_names
        self.cards = cards
        self.deck = deck
        self.zones = zones
        self.shared_zones = [z for z, spec in zones.items() if not spec.per_seat]
        self.seat_zones = [z for z, spec in zones.items() if spec.per_seat]
        self.counters = counters
        self.steps = steps
        self.rounds = rounds
        self.until = until
        self.winners_rule = winners
        self.first_dealer = first_dealer % players
        self.round_fields = round_fields
        self.seat_fields = seat_fields  # round values that hold a seat

    # ------------------------------------------------------------------ setup

    def new_state(self) -> State:
        state = State(self)
        self._start_round(state)
        self._advance(state)
        return state

    def cards_by_label(self) -> dict[str, list[int]]:
        """Label -> card ids of this game's deck (after removals); a fresh dict."""
        out: dict[str, list[int]] = {}
        for c in self.deck:
            out.setdefault(self.cards.labels[c], []).append(c)
        return out

    # ------------------------------------------------------------------ queries

    def decision(self, state: State) -> Decision | None:
        """The pending decision, or None when the game is over."""
        return state.pending

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
        return d.step.label(self, state, action)

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
        raise IllegalAction(self._refusal(state, repr(label), labels))

    def _refusal(self, state: State, what: str, labels: list[str]) -> str:
        d = state.pending
        who = self.seat_names[d.actor] if d and d.actor >= 0 else "chance"
        shown = ", ".join(labels[:40]) + (" ..." if len(labels) > 40 else "")
        return f"{what} is not legal now for {who} ({d.step.name if d else 'game over'}); legal: {shown}"

    def is_over(self, state: State) -> bool:
        return state.finished

    def winners(self, state: State) -> list[int]:
        totals = state.totals
        best = max(totals) if self.winners_rule == "highest_total" else min(totals)
        return [s for s, t in enumerate(totals) if t == best]

    # ------------------------------------------------------------------ moves

    def apply(self, state: State, action: Any) -> None:
        """Checked apply: refuse anything that is not a legal action, leaving the state as it was."""
        d = state.pending
        if d is None:
            raise IllegalAction("the game is over; no action is legal")
        if d.actor == CHANCE:
            raise IllegalAction("chance acts now; use apply_chance with an outcome")
        if action not in d.actions:
            labels = [d.step.label(self, state, a) for a in d.actions]
            raise IllegalAction(self._refusal(state, repr(action), labels))
        self.apply_fast(state, action)

    def sample_chance(self, state: State, rng: Any) -> Any:
        d = state.pending
        if d is None or d.actor != CHANCE:
            raise GameError("no chance event is pending")
        return d.step.sample(self, state, rng)

    def apply_chance(self, state: State, outcome: Any) -> None:
        d = state.pending
        if d is None or d.actor != CHANCE:
            raise IllegalAction("no chance event is pending")
        self.apply_fast(state, outcome)

    def apply_fast(self, state: State, action: Any) -> None:
        """Apply without checking legality (for bots and search that only pick legal actions)."""
        step = state.pending.step
        d = step.apply(self, state, action) or step.decision(self, state)  # usually the same step goes on
        state.actions_taken += 1
        if state.actions_taken > MAX_ACTIONS:
            raise GameError(f"the game took more than {MAX_ACTIONS} actions; the rules do not end it")
        if d is None:
            self._advance(state)
        elif d.actor in self.automatic:
            self._automatic(state, d)
        else:
            state.pending = d

    def _automatic(self, state: State, d: Decision) -> None:
        """An automatic seat takes its first legal action at once (it is narrated, not recorded)."""
        state.pending = d
        action = d.actions[0]
        text = d.step.describe(self, state, action)
        if text:
            state.note(f"{self.seat_names[d.actor]} {text}")
        self.apply_fast(state, action)

    # ------------------------------------------------------------------ flow

    def _advance(self, state: State) -> None:
        steps = self.steps
        while True:
            d = steps[state.step_index].decision(self, state)
            if d is not None:
                if d.actor in self.automatic:
                    self._automatic(state, d)
                else:
                    state.pending = d
                return
            if not self._enter(state, state.step_index + 1):
                self._end_round(state)
                if state.finished:
                    state.pending = None
                    return

    def _enter(self, state: State, index: int) -> bool:
        """Enter the first step at or after ``index`` whose ``when`` holds; False at round end."""
        steps = self.steps
        env = {"$s": state}
        while index < len(steps):
            step = steps[index]
            if step.when is None or step.when(env):
                state.step_index = index
                state.step_data = None
                step.begin(self, state)
                return True
            index += 1
        return False

    def _start_round(self, state: State) -> None:
        state.round_number += 1
        state.vars = dict.fromkeys(self.round_fields)
        state.vars["number"] = state.round_number
        state.vars["dealer"] = state.dealer
        for counter in state.counters.values():
            for s in range(self.players):
                counter[s] = 0
        state.teams = list(range(self.players))
        if not self._enter(state, 0):
            raise GameError("a round has no step to play")

    def _end_round(self, state: State) -> None:
        env = {"$s": state}
        if self.until is not None and self.until(env):
            state.finished = True
            return
        if self.rounds is not None and state.round_number >= self.rounds(env):
            state.finished = True
            return
        if state.round_number >= MAX_ROUNDS:
            raise GameError(f"the game did not end within {MAX_ROUNDS} rounds")
        state.dealer = (state.dealer + 1) % self.players
        self._start_round(state)
