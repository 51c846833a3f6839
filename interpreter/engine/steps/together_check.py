"""Whether a ``choose`` step's choices can be made together (``simultaneous: true``), checked when it is read.

Choices are made together when every seat the step asks decides without what the others pick in it: then a front
end may ask them all at once and take their answers in the engine's order (match/together.py), and the game is
the one it would be if they were asked in turn. That holds when nothing a seat is asked depends on an earlier
seat's pick of the same step, and whether a seat is asked at all does not either:

* what a seat is asked (``options``, ``allowed``, ``must``, ``count``, ``may_pass``, ``may_stop``, ``label``)
  reads nothing a pick of another seat changes: the round values the step sets (``set``, ``set_chooser``,
  ``set_history``), another seat's value it sets (``set_seat``), a shared zone its cards come from or go to, or
  another seat's such zone (the chooser's own, ``seat.hand``, is its own business), nor ``passes`` (the others'
  passes in a row); ``history`` holds the seat's own choices only, so it may be read;
* the step's end (``until``) reads nothing any pick changes, nor ``picked``, ``history`` or ``passes``: when it
  could hold after one seat's pick, the seats after it would not be asked;
* it does not go round again (``repeat``): another round is asked after the picks of the first.

An expression reads the state in four ways that a choice can change (a shared zone, a round value, a seat's
attribute, dsl/state_reads.py; the builtins that take the state read the seating and the teams, which a choice
does not change); each is a part of its checked tree (dsl/ir.py), walked here through the defines it calls.
"""

from __future__ import annotations

from interpreter.dsl.compiler import Compiled
from interpreter.dsl.ir import Part, places_read, walk

ASKED = ("options", "allowed", "must", "count", "may_pass", "may_stop", "label")  # what a seat is asked
WHY = "with simultaneous: true no seat's choices may depend on what another seat picks in the same step"


class Changed:
    """What the picks of a choose step change: zones (None: any zone, the options' cards may lie anywhere), round
    values, per-seat values; ``every``: the game's zones, shared and per seat."""

    def __init__(self, zones: set[str] | None, rounds: set[str], seats: set[str], every: set[str]):
        self.zones, self.rounds, self.seats, self.every = zones, rounds, seats, every

    @classmethod
    def of(cls, options: Compiled | None, moves: bool, move_to: str | None, rounds: set[str], seats: set[str],
           every: set[str]) -> Changed:
        """What a step changes that gives ``options``, moves its cards (``moves``: to ``move_to``, or swapped) and
        sets the round values ``rounds`` and the per-seat values ``seats``."""
        part = options.part if options is not None else None
        read = places_read(part) if part is not None and moves else set()
        zones = None if read is None else set(read) | ({move_to} if move_to else set())
        return cls(zones, rounds, seats, every)

    def zone(self, name: str) -> bool:
        """Whether a pick may change the zone ``name`` (False for a name that is no zone: a counter, a value)."""
        return name in self.every if self.zones is None else name in self.zones


def mistakes(changed: Changed, repeat: bool, given: dict[str, Compiled | None]) -> list[tuple[str, str]]:
    """Why the choices of a step cannot be made together: what its picks change (``changed``), whether it goes
    round again (``repeat``), its expressions by option (``given``): (the option's key, the message), one a
    reason."""
    out: list[tuple[str, str]] = []
    if repeat:
        out.append(("repeat", f"a choice that goes round again (repeat) cannot be made together: {WHY}, and the "
                              "next round would be asked after the first round's picks"))
    for key, expr in given.items():
        if expr is None or expr.part is None:
            continue
        found = _reads(expr.part, changed, key == "until")
        if found:
            out.append((key, f"{key} reads {found}, which depends on " + (
                "the picks in this step: with simultaneous: true, whether the later seats are asked at all may not "
                "depend on the earlier seats' picks" if key == "until" else
                f"what other seats pick in this step: {WHY} (read the chooser's own, seat.NAME, or leave out "
                "simultaneous)")))
    return out


def _reads(part: Part, changed: Changed, ending: bool) -> str | None:
    """The first thing ``part`` reads that a pick of another seat in the step changes (``ending``: of any seat,
    and the turn's own names too), in words; None when it reads none."""
    for p in walk(part):
        if p.op == "zone" and changed.zone(p.data):
            return f"the zone {p.data}"
        if p.op == "round" and p.data in changed.rounds:
            return f"round.{p.data}"
        if p.op == "seat":
            name = p.data[4]
            own = p.kids and p.kids[0].op == "name" and p.kids[0].data == "seat"
            if (changed.zone(name) or name in changed.seats) and (ending or not own):
                return f"{'seat' if own else 'another seat'}'s {name}"
        if p.op == "name" and (p.data == "passes" or ending and p.data in ("picked", "history")):
            return p.data
    return None
