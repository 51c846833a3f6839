"""Lockstep checks of the compiled backend's step templates (interpreter/compiled/) against the Python backend: one
step of a bundled game entered on both from the same state, each decision's legal actions compared, the same action
taken on both (drawn from a source outside both), and every zone and value compared after each (and the expressions
given as ``reads``, worked out on both, where the Python backend can)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from interpreter.compiled.arrays import ArrayLayout, array_layout, pack_arrays
from interpreter.compiled.kinds import step_code
from interpreter.compiled.lower import Lowerer
from interpreter.compiled.module import made, source_of
from interpreter.compiled.steps import ARRAYS, DECIDES, DONE, Writing
from interpreter.compiled.steps import CHANCE as DEALS
from interpreter.compiled.values import Values
from interpreter.dsl import budget
from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiled, ExpressionFailed
from interpreter.engine.game import Game
from interpreter.engine.state import CHANCE
from interpreter.errors import GameError
from interpreter.runtime.compact_game import compact_game
from interpreter.runtime.layout import pack
from interpreter.runtime.slots import Slots

from .conftest import game_of, random_decisions

# the fixed short list of games the default suite's agreement tests play on both backends (issue 34, item 7); with
# TRICKBOOK_COMPILED=all they play every bundled game and docs example (docs/testing.md)
SHORT = ("hearts", "njet-riogrande", "bridge", "mit-list-und-tuecke", "doppelkopf", "tiny-duel", "passing", "oh-hell")


def short_list(configs: list[Any]) -> list[Any]:
    """``configs`` (tuples whose first item is a game: its name, or its rule file's path) of the short list, or all
    of them with TRICKBOOK_COMPILED=all."""
    if os.environ.get("TRICKBOOK_COMPILED") == "all":
        return configs
    return [c for c in configs if (c[0] if isinstance(c[0], str) else c[0].stem) in SHORT]


def compiled_or_skip(everywhere: bool = False) -> Any:
    """llvmlite (the compiled backend's code generator), or the test skipped: without the fast extra; and, for a
    check beyond the default suite's (``everywhere``: each compiles a game's module, a second or more), unless
    TRICKBOOK_COMPILED=all asks for every compiled check (docs/testing.md)."""
    if everywhere and os.environ.get("TRICKBOOK_COMPILED") != "all":
        pytest.skip("compiled with TRICKBOOK_COMPILED=all (docs/testing.md)")
    return pytest.importorskip("llvmlite")


class StepOnBoth:
    """One step of a game (a bundled game's by its name, or a Game), written for the compiled backend (its template
    alone in a module, progress from slot 0); ``reads``, expressions of the game that bind no name (e.g. a later
    step's ``when``), written beside it as ``read0``, ``read1``... and compared after each action; ``arrays_of``, the
    game's layout in the arrays; ``kind``, the step's kind, where two steps have its name."""

    def __init__(self, name: str | Game, players: int, step_name: str, compiled: bool = False,
                 reads: Sequence[Compiled] = (), arrays_of: Callable[[Any], ArrayLayout] = array_layout,
                 kind: str | None = None, **options: Any):
        self.game = name if isinstance(name, Game) else game_of(name, players, **options)
        self.compact = compact_game(self.game)
        assert self.compact is not None
        self.step = next(s for s in self.game.every_step() if s.name == step_name and kind in (None, s.kind))
        self.lay, self.values = arrays_of(self.game), Values()
        writing = Writing(self.lay, Lowerer(self.lay, self.values), "s", 0)
        self.code = step_code(self.step, writing)
        self.reads = list(reads)
        readers = [f"def read{i}({ARRAYS}):\n    return {writing.call(e, {}, {}, 'read')}\n"
                   for i, e in enumerate(self.reads)]
        self.source = source_of(self.code.expressions, self.code.source, *readers)
        self.read_counts = [0] * len(self.reads)  # how often each read was compared
        self.compiled = compiled
        self._module: Any = None
        self._interned = 0
        self._last: Any = None  # the arrays of the state last compared (``same``)
        self.progress: Any = None  # the compiled step's progress, as the last lockstep left it

    def module(self) -> Any:
        """The module, made again when values were interned since it was made (a record first met in a state packed
        since: the tables of the records' fields hold those interned when it is made)."""
        if self._module is None or self._interned != len(self.values.interned):
            self._interned = len(self.values.interned)
            self._module = made(self.source, self.code.expressions, self.values, self.compiled)
        return self._module

    def arrays(self, state) -> Any:
        """``state`` in the arrays (its pending decision not asked again: a step driven here leaves it stale)."""
        return pack_arrays(self.lay, Slots.of(self.compact, pack(self.game, state)), self.values)

    def states(self, rng: random.Random, count: int, every: int = 5, where: Any = None, games: int | None = None
               ) -> list:
        """``count`` states along random games, one every ``every`` decisions (of those for which ``where`` holds);
        fewer when ``games`` games have not given them all."""
        out: list = []
        played = 0
        while len(out) < count and (games is None or played < games):
            played += 1
            state = self.game.new_state()
            for k, d in enumerate(random_decisions(self.game, state, rng)):
                if k % every == 0 and (where is None or where(state)):
                    out.append(state.clone())
                    if len(out) == count:
                        break
                self.game.apply_fast(state, d.actions[rng.randrange(len(d.actions))])
        return out

    def at_step(self, state) -> bool:
        """Whether ``state`` waits for a decision of the step (the game is playing it there)."""
        d = state.pending
        return d is not None and d.step is self.step

    def enterable(self, state) -> bool:
        """Whether the Python backend can enter the step at ``state`` (see ``lockstep``)."""
        return self._entered(state.clone()) is not None

    def _entered(self, py) -> tuple[Any, Any] | None:
        """The step entered on the Python backend at ``py``: its progress and its first decision (None: none); None
        when it cannot be entered there (a mistake of the rules at that state: a none where a seat is needed...)."""
        budget.reset()
        try:
            progress = self.step.start(self.game, py)
            return progress, None if progress is None else self.step.decision(self.game, py, progress)
        except (*RUNTIME_ERRORS, ExpressionFailed, GameError):
            return None

    def lockstep(self, state, rng: random.Random) -> int | None:
        """The step entered on both from ``state`` (left as it is) and played to its end on both; the number of
        actions taken, or None when the Python backend cannot enter it there (see ``_entered``)."""
        game, step, code = self.game, self.step, self.code
        py = state.clone()
        arrays = self.arrays(py)
        p = self.progress = np.zeros(max(code.size, 1), np.int64)
        module = self.module()
        entered = self._entered(py)
        if entered is None:
            return None
        progress, d = entered
        got = getattr(module, f"{code.prefix}_start")(*arrays, p)
        self.same(py, arrays)  # (what the start did: a step that ends at once does all its work there)
        taken = 0
        out = np.empty(self.lay.capacity + code.size + 64, np.int64)  # (a board may offer more than a deck)
        while True:
            if d is None:  # over; or stuck, which the compiled step's legal actions say (-1)
                stuck = got == DECIDES and getattr(module, f"{code.prefix}_legal")(*arrays, p, out) == -1
                assert got == DONE or stuck, f"{step.name}: over on the Python backend, not on the compiled one"
                self.same(py, arrays)  # (a step without decisions did its work in its start)
                break
            if d.actor == CHANCE:
                assert got == DEALS, f"{step.name}: the Python backend deals, the compiled one does not"
                self.same_pack(py, module, out)
                order = d.step.chance.sample(game, py, rng)
                kinds = np.asarray([self.lay.layout.kind[c] for c in order], np.int64)
                nxt = step.apply(game, py, progress, order)
                got = getattr(module, f"{code.prefix}_deal")(*arrays, p, kinds)
            else:
                assert got == DECIDES, f"{step.name}: the Python backend asks {d.actor}, the compiled one does not"
                assert p[0] == d.actor, f"{step.name}: seat {d.actor} to act, the compiled one asks {p[0]}"
                n = getattr(module, f"{code.prefix}_legal")(*arrays, p, out)
                assert code.action_of is not None
                theirs = {self.action_of(a, d.step): a for a in d.actions}
                assert sorted(int(x) for x in out[:n]) == sorted(theirs), f"{step.name}: other legal actions"
                action = sorted(theirs)[rng.randrange(len(theirs))]
                budget.reset()
                nxt = step.apply(game, py, progress, theirs[action])
                got = getattr(module, f"{code.prefix}_apply")(*arrays, p, action)
                taken += 1
            try:  # (the Python backend's decision does what the compiled apply does finding the next: a seat with
                # nothing to choose passes, one that has to take its options takes them)
                d = nxt or step.decision(game, py, progress)
            except GameError:  # (a state no game reaches: a seat left without cards in a trick...)
                return taken
            self.same(py, arrays)
        return taken

    def action_of(self, action: Any, step: Any) -> int:
        """The Python backend's action of a decision of ``step`` (the step, or a step it holds: a repeat's) as the
        compiled step takes it: a held step's through that step."""
        assert self.code.action_of is not None
        return self.code.action_of(action) if step is self.step else self.code.action_of(action, step)

    def changed(self, before) -> bool:
        """Whether the arrays ``before`` differ from those of the last state the step was played to (``lockstep``)."""
        after = self._last
        return any(not np.array_equal(a, b) for a, b in zip(before, after))

    def same_pack(self, state, module, out) -> None:
        """The cards the compiled deal shuffles (``PREFIX_pack``) as the Python backend's chance lists them, in its
        order (the order its sampler shuffles)."""
        n = getattr(module, f"{self.code.prefix}_pack")(*self.arrays(state), np.zeros(1, np.int64), out)
        theirs = [self.lay.layout.kind[c] for c in self.step.chance.chance_cards(self.game, state)]
        assert out[:n].tolist() == theirs, f"{self.step.name}: another pack"

    def same(self, state, arrays) -> None:
        """Every zone (its cards in their order; as a multiset where it holds identical cards) and every value of the
        arrays as the Python backend's state has them."""
        want = self._last = self.arrays(state)
        for row, (z, s) in enumerate(self.lay.layout.zones):
            mine, theirs = arrays.z[row, :arrays.zn[row]].tolist(), want.z[row, :want.zn[row]].tolist()
            if len(set(theirs)) < len(theirs):  # (identical cards: which copy moved may differ, and so their order)
                mine, theirs = sorted(mine), sorted(theirs)
            assert mine == theirs, f"{self.step.name}: zone {z} of {s}: {mine} (compiled) against {theirs} (Python)"
        assert arrays.v.tolist() == want.v.tolist(), f"{self.step.name}: values differ"
        for row in range(len(want.ln)):
            n = int(want.ln[row])
            assert int(arrays.ln[row]) == n and arrays.l[row, :max(n, 0)].tolist() == want.l[row, :max(n, 0)].tolist()
        for i, expr in enumerate(self.reads):
            try:
                theirs = self.values.encode(expr({"$s": state}))
            except (*RUNTIME_ERRORS, ExpressionFailed):  # (a none read as a record...: the checked path says so)
                continue
            mine = getattr(self.module(), f"read{i}")(*arrays)
            assert mine == theirs, f"{self.step.name}: {expr.text!r} gives {mine} (compiled), {theirs} (Python)"
            self.read_counts[i] += 1
