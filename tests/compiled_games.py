"""Whole games in lockstep on the compiled backend's machine (interpreter/compiled/machine.py) and the Python backend:
the same deals (the Python backend's chance outcomes, dealt by the compiled deal) and the same actions (drawn from a
source outside both among the legal ones), the seat to act, the step, the legal actions and every zone and value
compared at every point, to the game's end."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from interpreter.compiled.arrays import pack_arrays
from interpreter.compiled.machine import FINISHED, STATUS, STEP, Machine
from interpreter.compiled.steps import CHANCE as DEALS
from interpreter.compiled.steps import DECIDES
from interpreter.engine.state import CHANCE
from interpreter.runtime.layout import pack
from interpreter.runtime.slots import Slots


def lockstep_game(machine: Machine, seed: int, most: int | None = None) -> int:
    """One game from ``seed`` on both backends (see the module's docstring); the number of decisions taken (``most``:
    stopped after that many, everything compared up to there)."""
    game, module, lay = machine.game, machine.module, machine.lay
    rng = random.Random(seed)
    state = game.new_state()
    arrays, p = machine.new_game()
    out = np.empty(machine.actions, np.int64)
    taken = 0
    while True:
        same(machine, state, arrays)
        d = state.pending
        if most is not None and taken >= most:
            return taken
        if d is None:
            assert p[FINISHED] == 1, "the game is over on the Python backend, not on the compiled one"
            return taken
        assert p[FINISHED] == 0, "the game is over on the compiled backend, not on the Python one"
        if d.actor == CHANCE:
            assert p[STATUS] == DEALS, f"the Python backend deals in step {state.step_index}, the compiled does not"
            order = game.sample_chance(state, rng)
            game.apply_chance(state, order)
            module.deal(*arrays, p, np.asarray([lay.layout.kind[c] for c in order], np.int64))
            continue
        assert p[STATUS] == DECIDES and p[STEP] == state.step_index, \
            f"step {state.step_index} asks on the Python backend, step {p[STEP]} (status {p[STATUS]}) on the compiled"
        assert module.actor(*arrays, p) == d.actor
        n = module.legal(*arrays, p, out)
        theirs = {machine.action_of(state.step_index, a): a for a in d.actions}
        assert sorted(int(x) for x in out[:n]) == sorted(theirs), f"step {state.step_index}: other legal actions"
        action = sorted(theirs)[rng.randrange(len(theirs))]
        game.apply_fast(state, theirs[action])
        module.apply(*arrays, p, action)
        taken += 1


def same(machine: Machine, state: Any, arrays: Any) -> None:
    """Every zone (as a multiset) and every value of the arrays as the Python backend's state has them."""
    want = pack_arrays(machine.lay, Slots.of(machine.game, pack(machine.game, state)), machine.values)
    for row, (z, s) in enumerate(machine.lay.layout.zones):
        mine, theirs = sorted(arrays.z[row, :arrays.zn[row]].tolist()), sorted(want.z[row, :want.zn[row]].tolist())
        assert mine == theirs, f"zone {z} of {s}: {mine} (compiled) against {theirs} (Python)"
    differ = [machine.lay.layout.values[i] for i, (a, b) in enumerate(zip(arrays.v.tolist(), want.v.tolist()))
              if a != b]
    assert not differ, f"values differ: {differ[:4]}"
    for row in range(len(want.ln)):
        n = int(want.ln[row])
        assert int(arrays.ln[row]) == n and arrays.l[row, :max(n, 0)].tolist() == want.l[row, :max(n, 0)].tolist()


# a round's steps with a part the compiled backend does not write (a text made in play that a later step reads)
NOT_WRITTEN_STEPS = ("told: {do: set, round: {said: \"text(round.dealer)\"}}\n"
                     "said: {do: set, when: \"round.said == 'x'\", round: {x: 1}}")
