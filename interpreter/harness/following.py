"""A game the Python backend plays, followed on the compiled machine (a match's listener): every deal and action of
the match taken on the machine too, so that at any decision the compiled backend holds the same state, its step's
progress included (which packing a state into the arrays cannot give: the progress of each step template is its
own). A compiled search starts from it (compiled/search.py).

Each deal is given as its cards' kinds in the order the Python backend deals them, each action as its whole number
on the machine (``Machine.action_of``), as the lockstep tests do. A game picked up at a later round (a deal file) is
not followed, nor a game whose action the machine cannot take: ``broken`` then says why, and nothing more is taken.
At a decision, ``position`` checks that the machine asks the same seat for the same actions (else it breaks off too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from interpreter.compiled.arrays import Arrays
from interpreter.compiled.machine import STATUS, Machine
from interpreter.compiled.steps import DECIDES
from interpreter.compiled.values import NotWritten
from interpreter.match.events import Action, Chance


class Following:
    """``match`` (begun, nothing played yet) followed on ``machine`` (see the module's docstring)."""

    def __init__(self, machine: Machine, match: Any):
        self.machine, self.match = machine, match
        self.broken: str | None = None
        self.arrays, self.p = machine.new_game()
        self._out = np.zeros(machine.actions, np.int64)
        self.hears = {Chance: self.chance, Action: self.action}
        if match.start is not None or match.state.actions_taken:
            self.broken = "a game picked up at a later round or after its start"

    def chance(self, match: Any, event: Chance) -> None:
        if self.broken is None:
            try:
                kinds = np.asarray([self.machine.lay.layout.kind[c] for c in event.outcome], np.int64)
            except (LookupError, TypeError) as exc:
                self.broken = f"a chance outcome that is not cards dealt ({exc})"
                return
            self.machine.module.deal(*self.arrays, self.p, kinds)

    def action(self, match: Any, event: Action) -> None:
        if self.broken is None:
            try:
                a = self.machine.action_of(match.state.step_index, event.action, event.decision.step)
            except (NotWritten, LookupError, TypeError, ValueError) as exc:
                self.broken = f"an action it does not take: {exc}"
                return
            self.machine.module.apply(*self.arrays, self.p, a)

    def position(self) -> tuple[Arrays, Any, list[int]]:
        """The compiled state of the match's pending decision (its arrays and progress: not to be changed) and the
        whole number of each of its legal actions; NotWritten when it is not followed or the machine disagrees."""
        if self.broken is not None:
            raise NotWritten(f"the game on the compiled machine: {self.broken}")
        state = self.match.state
        d = state.pending
        machine, module = self.machine, self.machine.module
        try:
            keys = [machine.action_of(state.step_index, a, d.step) for a in d.actions]
        except (NotWritten, LookupError, TypeError, ValueError) as exc:
            self.broken = f"an action it does not take: {exc}"
            raise NotWritten(f"the game on the compiled machine: {self.broken}") from None
        if self.p[STATUS] != DECIDES or module.actor(*self.arrays, self.p) != d.actor:
            self.broken = "the machine waits for another seat or a deal"
        else:
            n = module.legal(*self.arrays, self.p, self._out)
            if sorted(set(keys)) != sorted(int(x) for x in self._out[:max(n, 0)]):
                self.broken = "the machine offers other actions"
        if self.broken is not None:
            raise NotWritten(f"the game on the compiled machine: {self.broken}")
        return self.arrays, self.p, keys
