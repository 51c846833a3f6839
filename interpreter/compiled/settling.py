"""What the compiled machine (machine.py) does at a decision no agent takes, written into its module: an automatic
seat's decision, taken by its policy (as engine/rounds.py's ``Rounds.automatic`` takes it), and a seat stuck with
no legal play (a trick's obligation with ``otherwise: end``, or several zones to play from and none holding a card:
the step ends there, as the Python backend's ends it). After every step entered and every action taken, ``settle``
takes such decisions until an agent is to act, a deal is to be made or the game is over, so that ``actor`` never
names an automatic seat and ``legal`` never gives none.

Written for a game that has automatic seats or a round's trick step that may leave a seat stuck (else nothing is
written): the machine then calls ``settle`` after every step entered, action or deal taken.

An automatic seat's policy is an expression of the step's name (seats.py), written as any expression of a step, with
``seat`` bound; the value it gives is the action as the Python backend's ``value_of`` finds it: for a trick, the card
played from the first of the trick's zones of the seat that holds it (whatever the rules of play say), else a card
of its legal actions (a taker's choice); for a choice, the value among the legal actions. Not written
(``NotWritten``): a policy that reads ``legal``, ``led`` or ``trick``, a policy for a step another step holds (a
trick's hooks, a repeat's steps), a policy for a step of another kind. Where the Python backend stops with an error
(an automatic seat asked where its policy says nothing, a value that is no action), the game stops there with
``p[FINISHED]`` NO_ACTION, and ``Machine.play_seeded`` raises the error.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, Writing
from interpreter.compiled.values import NotWritten

NO_ACTION = 3  # p[FINISHED] of a game stopped where an automatic seat's policy gave no action it may take


def may_stick(step: Any) -> bool:
    """Whether a trick step may leave a seat with no legal play (its step then ends)."""
    return step.kind == "tricks" and (len(step.zones) > 1 or any(r.end for r in step.lead_rules + step.follow_rules))


class Settling:
    """The source of ``settle`` and ``auto`` for a game (see the module's docstring), or none when it needs neither
    (``needed``)."""

    def __init__(self, game: Any, w: Writing, capacity: int, slots: tuple[int, int, int]):
        self.game, self.w, self.capacity = game, w, capacity
        self.step, self.finished, self.status = slots  # the machine's progress slots: step, finished, status
        self.stuck = [i for i, step in enumerate(game.steps) if may_stick(step)]
        self.automatic = sorted(game.automatic)
        names = {step.name: i for i, step in enumerate(game.steps)}
        self.policies: list[tuple[int, int, str]] = []  # (step index, seat, its policy's call)
        for seat in self.automatic:
            for name, expr in (game.seats[seat].policy or {}).items():
                if name not in names:
                    raise NotWritten(f"an automatic seat's policy for step {name!r}, which another step holds")
                step = game.steps[names[name]]
                if step.kind not in ("tricks", "choose"):
                    raise NotWritten(f"an automatic seat's policy for a step of kind {step.kind!r}")
                call = w.call(expr, {"seat": "seat"}, step.policy_binds(), f"policy{seat}_")
                self.policies.append((names[name], seat, call))

    @property
    def needed(self) -> bool:
        return bool(self.stuck or self.automatic)

    def source(self, taking: Any, legal: Any) -> list[str]:
        """``auto`` and ``settle``; ``taking(name, arg, pad)`` gives the machine's lines that take an action, and
        ``legal(name, arg, result, pad)`` those that list the legal ones (machine.Machine._taking, _dispatching)."""
        return self._auto(legal) + self._settle(taking, legal)

    def _auto(self, legal: Any) -> list[str]:
        """``auto(arrays, p, seat, out)``: the action of automatic ``seat`` asked now, or -1 (no action: the Python
        backend stops with an error)."""
        lay, game = self.w.lay, self.game
        deck = len(lay.layout.kind)
        lines = [f"def auto({ARRAYS}, p, seat, out):", f"    i = p[{self.step}]"]
        for k, (index, seat, call) in enumerate(self.policies):
            lines += [f"    {'if' if k == 0 else 'elif'} i == {index} and seat == {seat}:", f"        x = {call}"]
            step = game.steps[index]
            if step.kind == "tricks":  # a card the seat holds, from the first of the trick's zones holding it
                for zone, name in enumerate(step.zones):
                    row = lay.layout.zone_slot(name, 0)
                    lines += [f"        for j in range(zn[{row} + seat]):",
                              f"            if z[{row} + seat, j] == x:",
                              f"                return x + {zone * deck}"]
            lines += [*legal("legal", "out", "n", "        "),
                      "        for j in range(n):",
                      "            if out[j] == x:",
                      "                return x",
                      "        return -1"]
        return [*lines, "    return -1", ""]

    def _settle(self, taking: Any, legal: Any) -> list[str]:
        finished, status = self.finished, self.status
        return [f"def settle({ARRAYS}, p):",
                "    mark = h[0]",
                *("    " + line for line in Writing.scratch("out", str(self.capacity))),
                f"    while p[{status}] == DECIDES and p[{finished}] == 0:",
                *self.decided(taking, legal, "        "),
                "        break",
                "    h[0] = mark",
                f"    return p[{status}]", ""]

    def decided(self, taking: Any, legal: Any, pad: str) -> list[str]:
        """The lines, in ``settle``'s loop over a game's decisions, that take one the machine takes itself and go on
        (``continue``): a seat stuck (its step ended: its legal actions listed into ``out``, none) or an automatic
        seat's (by its policy); or stop the game where a policy gives no action (``break``)."""
        step, finished, status = self.step, self.finished, self.status
        lines = []
        if self.stuck:
            lines += [f"if {' or '.join(f'p[{step}] == {i}' for i in self.stuck)}:",
                      *legal("legal", "out", "n", "    "),
                      "    if n <= 0:",
                      f"        advance({ARRAYS}, p, p[{step}] + 1)",
                      "        continue"]
        if self.automatic:
            lines += [f"seat = actor({ARRAYS}, p)",
                      f"if {' or '.join(f'seat == {s}' for s in self.automatic)}:",
                      f"    a = auto({ARRAYS}, p, seat, out)",
                      "    if a < 0:",  # (an error on the Python backend: play_seeded says so)
                      f"        p[{finished}] = {NO_ACTION}",
                      f"        p[{status}] = DONE",
                      "        break",
                      *taking("apply", "a", "    "),
                      "    continue"]
        return [pad + line for line in lines]
