"""The rounds of a game played on: after each action the next decision found (the step's, or the next step's
entered), an automatic seat's decision taken by its policy, a round ended and the next begun; and the playout
loop that takes the seats' decisions by a policy, as the checked path would, to the end of the game or the round.

A :class:`Rounds` belongs to one compiled game (``Game.rounds``): it reads the game through ``Playing``, the part of
a game it asks for, so that this module does not import the game, which imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from interpreter.dsl import budget
from interpreter.dsl.compiler import ExpressionFailed
from interpreter.engine.round_code import RoundCode, WrittenGame
from interpreter.engine.seats import SeatSpec
from interpreter.engine.state import CHANCE, Decision, State
from interpreter.engine.steps.base import Step
from interpreter.errors import GameError
from interpreter.limits import MAX_ACTIONS, MAX_ROUNDS

Policy = Callable[[State, int, list[Any]], int]  # (state, seat, legal actions) -> index of the chosen action


class Playing(WrittenGame, Protocol):
    """What the rounds read of a game (engine/game.py's ``Game``): its seats, the values a round clears, its round's
    code and its unchecked apply."""

    seats: list[SeatSpec]
    round_fields: list[str]
    seat_value_names: list[str]

    def round_code(self) -> RoundCode: ...

    def apply_fast(self, state: State, action: Any) -> None: ...


class Rounds:
    """The play of one game's rounds (see the module's docstring)."""

    def __init__(self, game: Playing):
        self.game = game

    def go_on(self, state: State, d: Decision | None) -> None:
        """After an action of the current step: ``d`` is the step's next decision, or None when it is over."""
        if d is None:
            game = self.game
            self.advance(state, game.round_code().enter(game, state, None, state.step_index + 1))
        elif d.actor in self.game.automatic:
            self.automatic(state, d)
        else:
            state.pending = d

    @staticmethod
    def too_long(step: Step) -> None:
        """A game that takes more actions than any game may: the rules do not end it."""
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
        game = self.game
        random = rng.random
        chosen = policy  # the steps' own loops draw in place when there is none (see Writer.pick)
        if policy is None:

            def policy(_state: State, _seat: int, actions: list[Any]) -> int:
                return int(random() * len(actions))

        decisions = 0
        apply_fast = game.apply_fast
        stop = state.round_number + 1 if round_end else -1  # -1: never (a round number is never -1)
        while True:
            d = state.pending
            if d is None or state.round_number == stop:
                return decisions
            if d.actor == CHANCE:
                apply_fast(state, d.step.chance.sample(game, state, rng))
                continue
            run = game.steps[state.step_index].playout(game, state, chosen, random)  # the round's step's own loop
            if run:
                decisions += run
                continue
            decisions += self._steps_on(state, d, policy)

    def _steps_on(self, state: State, d: Decision, policy: Policy) -> int:
        """``apply_fast`` in a loop while the same top-level step asks the seats (for playout)."""
        game = self.game
        step = game.steps[state.step_index]
        p = state.progress
        automatic = game.automatic
        taken = 0
        while True:
            actions = d.actions
            action = actions[policy(state, d.actor, actions)]
            budget.reset()
            nxt = step.apply(game, state, p, action) or step.decision(game, state, p)
            taken += 1
            state.actions_taken += 1
            if state.actions_taken > MAX_ACTIONS:
                self.too_long(step)
            if nxt is None or nxt.actor in automatic:
                self.go_on(state, nxt)
                return taken
            d = nxt

    def automatic(self, state: State, d: Decision) -> None:
        """An automatic seat acts at once by its policy (narrated, not recorded: replay derives it again)."""
        game = self.game
        state.pending = d
        seat = game.seats[d.actor]
        policy = seat.policy.get(d.step.name) if seat.policy else None
        if policy is None:
            raise GameError(f"{seat.where}: error: the automatic seat {seat.name!r} has to decide in step "
                            f"{d.step.name!r}, but its policy says nothing for that step (add policy: "
                            f"{{{d.step.name}: EXPRESSION}})")
        env = d.step.env(state)
        env["seat"] = d.actor
        env["legal"] = [_value(a) for a in d.actions]
        value = policy(env)
        action = d.step.value_of(game, state, state.progress, d, value)
        if action is None:
            if d.kind in ("play", "take") and type(value) is int and 0 <= value < len(game.cards):
                value = game.cards.labels[value]  # a card, as people read it
            raise ExpressionFailed(f"{policy.position}: error: the policy of {seat.name!r} chose {value!r}, "
                                   f"which it cannot choose in step {d.step.name!r}")
        if state.notes is not None:
            text = d.step.words.describe(game, state, d, action)
            if text:
                state.note(f"{seat.name} {text}")
        if state.told is not None:
            state.told.append({"type": "automatic", "round": state.round_number, "step": d.step.name,
                               "seat": seat.name, "action": d.step.words.label(game, action)})
        game.apply_fast(state, action)

    def advance(self, state: State, d: Decision | None) -> None:
        """Go on from ``d`` (the decision of the step just entered, or None): play on until someone must act."""
        if d is None:
            game = self.game
            enter = game.round_code().enter
            while d is None:
                if state.step_index < 0:  # the round is over
                    self.end_round(state)
                    if state.finished:
                        state.pending = None
                        return
                    d = enter(game, state, None, 0)
                    continue
                d = enter(game, state, None, state.step_index + 1)
        if d.actor in self.game.automatic:
            self.automatic(state, d)
        else:
            state.pending = d

    def enter(self, state: State, index: int) -> Decision | None:
        """Enter steps from ``index`` until one has a decision; at the round's end step_index is -1."""
        return cast(Decision | None, self.game.round_code().enter(self.game, state, None, index))

    def start_round(self, state: State) -> None:
        """A round begins: its values cleared, counters at zero, every seat on its own team (its written code)."""
        self.game.round_code().start(state)

    def end_round(self, state: State) -> None:
        """A round is over: the game ends, or the next round begins with its dealer (the round's written code)."""
        game = self.game
        code = game.round_code()
        code.end(state)
        if code.over(state):
            state.finished = True
            return
        if state.round_number >= MAX_ROUNDS:
            flow = game.flow
            end = flow.until or flow.rounds
            where = f"{end.position}: error: " if end is not None and end.position else ""
            raise GameError(f"{where}the game did not end within {MAX_ROUNDS} rounds (totals now "
                            f"{', '.join(map(str, state.totals))}); "
                            + ("its end condition never held" if flow.until is not None else "rounds is too many"))
        state.dealer = code.dealer(state)
        code.start(state)


def _value(action: Any) -> Any:
    """What an action chooses, as expressions see it (a card, or a choice's value)."""
    if hasattr(action, "card"):
        return action.card
    if hasattr(action, "value"):
        return action.value
    return None
