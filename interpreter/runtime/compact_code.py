"""Code written for the compact layout by the step kinds' own writers, over its reads (compact_reads.py): step 3 of
the order docs/architecture.md gives for the compact state, one step kind at a time.

The kinds that do their work in place and have no decisions come first (``set``, ``score``, ``teams``,
``reveal``): each step of those kinds gets ``start(game, state, O)`` over a ``Slots`` (``O``: the names the step
holding it binds, or None), written by the same ``write`` that writes its code over today's state, the state's
parts given by the reads. tests/test_compact_steps.py runs each such step of every bundled game on both at every
decision of random games and finds the same slots."""

from __future__ import annotations

import weakref
from typing import Any

from interpreter.dsl.codegen import Namespace
from interpreter.engine.game import Game
from interpreter.engine.module import built_parts
from interpreter.engine.steps.base import Step
from interpreter.engine.steps.steps_code import standalone
from interpreter.engine.steps.writer import prune
from interpreter.runtime.compact_reads import CompactReads
from interpreter.runtime.layout import layout

# the step kinds whose code is written for the slots
COMPACT_KINDS = frozenset({"set", "score", "teams", "reveal", "move"})


class CompactCode:
    """The code of a game's steps of the kinds written for the compact layout (see the module's docstring)."""

    def __init__(self, game: Game):
        self.reads = CompactReads(layout(game))
        gen = Namespace(None)
        steps = [s for s in game.every_step() if s.kind in COMPACT_KINDS]
        parts = [standalone(s, game, gen, self.reads) for s in steps]
        built = built_parts([p._replace(source=prune(p.source)) for p in parts], gen, keep=False)
        self._starts = {id(s): code for s, code in zip(steps, built.codes)}
        self._steps = steps  # the keys stay the ids of live objects

    def start(self, step: Step) -> Any:
        """``start(game, state, O)`` of ``step`` over a ``Slots``: its work done (KeyError: a kind not written)."""
        return self._starts[id(step)]


_CODES: weakref.WeakKeyDictionary[Game, CompactCode] = weakref.WeakKeyDictionary()


def compact_code(game: Game) -> CompactCode:
    """``game``'s compact code (written once a game)."""
    made = _CODES.get(game)
    if made is None:
        made = _CODES[game] = CompactCode(game)
    return made
