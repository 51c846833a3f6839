"""Code written for the compact layout by the step kinds' own writers, over its reads (compact_reads.py), step by
step: what tests/test_compact_steps.py holds to today's code at every decision of the bundled games (a whole game on
the slots is compact_game.py's).

Every step gets its kind's code for the slots: a step without decisions (``set``, ``score``, ``teams``, ``reveal``,
``move``) its ``start(game, state, O)`` (``O``: the names the step holding it binds, or None), written by the same
``write`` that writes its code over today's state; a step with decisions its kind's ``start(state, o)``,
``decision(state, p, o)`` and ``apply(state, p, action, o)`` (engine/module.py's WRITERS, given the reads). A part
a kind's writer does not write through a shape yet is refused (NotImplementedError) and said why (``not_written``).
``game`` is the game as a Slots names it: a copy whose module is this code, so that what a step's Python asks of its
code (Step.code) is the code written for the slots."""

from __future__ import annotations

import copy
import weakref
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.module import built_parts, written_part
from interpreter.engine.steps.base import Step
from interpreter.engine.steps.writer import Part, prune
from interpreter.runtime.compact_reads import CompactReads
from interpreter.runtime.layout import layout

# the step kinds whose code is written for the slots: those without decisions, then those with
COMPACT_KINDS = frozenset({"set", "score", "teams", "reveal", "move", "board", "deal", "choose", "tricks",
                           "repeat"})


class CompactCode:
    """The code of a game's steps of the kinds written for the compact layout (see the module's docstring)."""

    def __init__(self, game: Game):
        self.reads = CompactReads(layout(game))
        gen = self.reads.gen
        steps: list[Step] = []
        parts: list[Part] = []
        self.not_written: dict[int, str] = {}  # id of a step whose code is not written for the slots -> why
        for s in game.every_step():
            if s.kind not in COMPACT_KINDS:
                continue
            try:
                made = written_part(s, game, gen, self.reads)
            except NotImplementedError as exc:  # a part of the kind not written for the slots yet
                self.not_written[id(s)] = str(exc)
                continue
            assert made is not None  # every kind written for the slots is written
            steps.append(s)
            parts.append(made._replace(source=prune(made.source)))
        built = built_parts(parts, gen, keep=False)
        self._codes = {id(s): code for s, code in zip(steps, built.codes)}
        self.reads.codes.update(zip(steps, built.codes))  # what the code written for the slots calls
        self._steps = steps  # the keys stay the ids of live objects
        # the game as a Slots names it: a copy whose module is this code (what a step's Python asks of its code,
        # Step.code, is then the code written for the slots)
        self.game = copy.copy(game)
        self.game._module = self  # type: ignore[assignment]

    def written(self, step: Step) -> bool:
        """Whether ``step``'s code is written for the slots."""
        return id(step) in self._codes

    def code(self, step: Step) -> Any:
        """The code of ``step`` over a ``Slots`` (KeyError: a kind not written for the slots): a step without
        decisions its ``start(game, state, O)``; a step with decisions its kind's code (start, decision, apply)."""
        return self._codes[id(step)]


_CODES: weakref.WeakKeyDictionary[Game, CompactCode] = weakref.WeakKeyDictionary()


def compact_code(game: Game) -> CompactCode:
    """``game``'s compact code (written once a game)."""
    made = _CODES.get(game)
    if made is None:
        made = _CODES[game] = CompactCode(game)
    return made
