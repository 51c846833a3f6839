"""The compiled game and its play loop.

A :class:`Game` is immutable: rules compiled for one player count and one set
of options. Play happens on :class:`State` objects: ``decision(state)`` says
who acts (a seat, or ``CHANCE``) and what is legal; ``apply`` is checked and
leaves the state unchanged when it refuses; ``apply_fast`` trusts its caller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from interpreter.dsl import budget
from interpreter.dsl.codegen import Namespace
from interpreter.dsl.compiler import Compiled, ExpressionFailed
from interpreter.dsl.types import Type
from interpreter.engine.card_values import readable
from interpreter.engine.cards import hand_order
from interpreter.engine.module import Module
from interpreter.engine.notation import Notation
from interpreter.engine.round_code import RoundCode
from interpreter.engine.state import CHANCE, Decision, State
from interpreter.engine.steps.base import Step
from interpreter.errors import GameError, IllegalAction
from interpreter.limits import MAX_ACTIONS, MAX_ROUNDS
from interpreter.plan.cards import CardTable
from interpreter.plan.zones import ZoneSpec

Policy = Callable[[State, int, list[Any]], int]  # (state, seat, legal actions) -> index of the chosen action


@dataclass(frozen=True)
class SeatSpec:
    """A seat: its name, its role, and for an automatic seat the policy of each step (step name -> expression)."""

    name: str
    role: str = "player"
    policy: dict[str, Compiled] | None = None  # None: a person or a bot decides
    where: str = ""  # where the seat is declared, for errors

    @property
    def automatic(self) -> bool:
        return self.policy is not None


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


@dataclass(frozen=True)
class StatusLine:
    """One line of what the players see on the table (the rule file's ``table:``)."""

    title: str
    show: Compiled
    when: Compiled | None = None
    each: bool = False  # the value of every seat (bound as seat) on one line


def _said(value: Any) -> str:
    """A status value as people read it: yes/no, lists joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_said(v) for v in value) if value else "none"
    return str(value)


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
        self._start_round(state)
        self.round_code().begin(state)
        self._advance(state, self._enter(state, 0))
        return state

    def cards_by_label(self, cards: list[int] | None = None) -> dict[str, list[int]]:
        """Label -> card ids of this game's deck (after removals), or of ``cards``; a fresh dict."""
        out: dict[str, list[int]] = {}
        for c in self.deck if cards is None else cards:
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
        return d.step.words.label(self, action)

    def status(self, state: State, viewer: int) -> list[tuple[str, str]]:
        """The rule file's status lines (``table:``) for ``viewer``, each title with its text: give it a state the
        viewer cannot tell from the real one (a sample of what it knows), so that no line shows what it may not
        see. A line whose ``when`` is false, or whose value is none or an empty list, is left out."""
        out = []
        for line in self.table:
            if line.when is not None and not line.when({"$s": state, "seat": viewer}):
                continue
            if line.each:
                values = [(s, line.show({"$s": state, "seat": s})) for s in range(self.players)]
                shown = [f"{self.seat_names[s]} {_said(readable(self, line.show.type, v))}" for s, v in values
                         if v is not None and v != []]
                if shown:
                    out.append((line.title, ", ".join(shown)))
            else:
                value = line.show({"$s": state, "seat": viewer})
                if value is not None and value != []:
                    out.append((line.title, _said(readable(self, line.show.type, value))))
        return out

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
        raise IllegalAction(self._refusal(state, repr(label), labels))

    def _refusal(self, state: State, what: str, labels: list[str]) -> str:
        d = state.pending
        who = self.seat_names[d.actor] if d and d.actor >= 0 else "chance"
        shown = ", ".join(labels[:40]) + (" ..." if len(labels) > 40 else "")
        return f"{what} is not legal now for {who} ({d.step.name if d else 'game over'}); legal: {shown}"

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

    @property
    def higher_wins(self) -> bool:
        """True when the best total is the highest (False: the lowest, as in games of penalty points)."""
        return self.flow.winners == "highest_total"

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
            raise IllegalAction(self._refusal(state, repr(action), labels))
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
            self.too_long(step)
        self.go_on(state, d)

    def go_on(self, state: State, d: Decision | None) -> None:
        """After an action of the current step: ``d`` is the step's next decision, or None when it is over."""
        if d is None:
            self._advance(state, self._enter(state, state.step_index + 1))
        elif d.actor in self.automatic:
            self._automatic(state, d)
        else:
            state.pending = d

    @staticmethod
    def too_long(step: Step) -> None:
        raise GameError(f"{step.where}: error: the game took more than {MAX_ACTIONS:,} actions (the last in step "
                        f"{step.name!r}); the rules do not end it")

    def playout(self, state: State, rng: Any, policy: Policy | None = None, round_end: bool = False) -> int:
        """Play ``state`` on to the end of the game (``round_end``: of the round; the state is then at the next
        round's first decision); return the number of decisions the seats took.

        Chance events are drawn from ``rng``; every seat decides by ``policy(state, seat, actions)``, which
        gives the index of its action in ``actions`` (default: uniformly random, ``int(rng.random() * n)``).
        The actions are those ``decision`` would list, in the same order, and the game goes exactly as
        ``apply_fast`` with the same choices would take it; but steps may play runs of their own plain
        decisions in a loop of their own (see ``Step.playout``), so inside such a run ``state.pending`` is
        not kept up to date: a policy reads the state, not the pending decision.
        """
        random = rng.random
        chosen = policy  # the steps' own loops draw in place when there is none (see Writer.pick)
        if policy is None:

            def policy(_state: State, _seat: int, actions: list[Any]) -> int:
                return int(random() * len(actions))

        decisions = 0
        apply_fast = self.apply_fast
        stop = state.round_number + 1 if round_end else -1  # -1: never (a round number is never -1)
        while True:
            d = state.pending
            if d is None or state.round_number == stop:
                return decisions
            if d.actor == CHANCE:
                apply_fast(state, d.step.chance.sample(self, state, rng))
                continue
            run = self.steps[state.step_index].playout(self, state, chosen, random)  # the round's step's own loop
            if run:
                decisions += run
                continue
            decisions += self._steps_on(state, d, policy)

    def _steps_on(self, state: State, d: Decision, policy: Policy) -> int:
        """``apply_fast`` in a loop while the same top-level step asks the seats (for playout)."""
        step = self.steps[state.step_index]
        p = state.progress
        automatic = self.automatic
        taken = 0
        while True:
            actions = d.actions
            action = actions[policy(state, d.actor, actions)]
            budget.reset()
            nxt = step.apply(self, state, p, action) or step.decision(self, state, p)
            taken += 1
            state.actions_taken += 1
            if state.actions_taken > MAX_ACTIONS:
                self.too_long(step)
            if nxt is None or nxt.actor in automatic:
                self.go_on(state, nxt)
                return taken
            d = nxt

    def _automatic(self, state: State, d: Decision) -> None:
        """An automatic seat acts at once by its policy (narrated, not recorded: replay derives it again)."""
        state.pending = d
        seat = self.seats[d.actor]
        policy = seat.policy.get(d.step.name) if seat.policy else None
        if policy is None:
            raise GameError(f"{seat.where}: error: the automatic seat {seat.name!r} has to decide in step "
                            f"{d.step.name!r}, but its policy says nothing for that step (add policy: "
                            f"{{{d.step.name}: EXPRESSION}})")
        env = d.step.env(state)
        env["seat"] = d.actor
        env["legal"] = [_value(a) for a in d.actions]
        value = policy(env)
        action = d.step.value_of(self, state, state.progress, d, value)
        if action is None:
            if d.kind in ("play", "take") and type(value) is int and 0 <= value < len(self.cards):
                value = self.cards.labels[value]  # a card, as people read it
            raise ExpressionFailed(f"{policy.position}: error: the policy of {seat.name!r} chose {value!r}, "
                                   f"which it cannot choose in step {d.step.name!r}")
        text = d.step.words.describe(self, state, d, action)
        if text:
            state.note(f"{seat.name} {text}")
        if state.told is not None:
            state.told.append({"type": "automatic", "round": state.round_number, "step": d.step.name,
                               "seat": seat.name, "action": d.step.words.label(self, action)})
        self.apply_fast(state, action)

    # ------------------------------------------------------------------ flow

    def _advance(self, state: State, d: Decision | None) -> None:
        """Go on from ``d`` (the decision of the step just entered, or None): play on until someone must act."""
        while d is None:
            if state.step_index < 0:  # the round is over
                self._end_round(state)
                if state.finished:
                    state.pending = None
                    return
                d = self._enter(state, 0)
                continue
            d = self._enter(state, state.step_index + 1)
        if d.actor in self.automatic:
            self._automatic(state, d)
        else:
            state.pending = d

    def _enter(self, state: State, index: int) -> Decision | None:
        """Enter steps from ``index`` until one has a decision; at the round's end step_index is -1."""
        return cast(Decision | None, self.round_code().enter(self, state, None, index))

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

    def _start_round(self, state: State) -> None:
        state.round_number += 1
        state.vars = dict.fromkeys(self.round_fields)
        state.vars["number"] = state.round_number
        state.vars["dealer"] = state.dealer
        for k in self.seat_value_names:  # values of the round; game seat values stay
            state.seat_vars[k] = [None] * self.players
        for counter in state.counters.values():
            for s in range(self.players):
                counter[s] = 0
        state.teams = list(range(self.players))
        state.team_known = None
        state.team_counted = False

    def _end_round(self, state: State) -> None:
        state.ended = state.vars
        flow = self.flow
        if self.round_code().over(state):
            state.finished = True
            return
        if state.round_number >= MAX_ROUNDS:
            end = flow.until or flow.rounds
            where = f"{end.position}: error: " if end is not None and end.position else ""
            raise GameError(f"{where}the game did not end within {MAX_ROUNDS} rounds (totals now "
                            f"{', '.join(map(str, state.totals))}); "
                            + ("its end condition never held" if flow.until is not None else "rounds is too many"))
        state.dealer = self.round_code().dealer(state)
        self._start_round(state)


def _value(action: Any) -> Any:
    """What an action chooses, as expressions see it (a card, or a choice's value)."""
    if hasattr(action, "card"):
        return action.card
    if hasattr(action, "value"):
        return action.value
    return None
