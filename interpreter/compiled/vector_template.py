"""Many games stepped in one compiled call: the entry points of a vector environment (toolkits/vector.py), written
into the machine's module (compiled/machine.py) beside its own.

The games' arrays are the machine's, stacked: one more leading dimension (``Z[g]`` is game ``g``'s ``z``, and so
for ``zn``, ``v``, ``l``, ``ln`` and the progress ``P``), with one scratch space ``h`` for all. An action is one of the
game's fixed ids (action_ids.py). Each game waits at a decision of a seat, the seat to act; what the functions write
for each game ``g``:

* ``obs[g]``: the observation of the seat to act (observe_template.py), ``seats[g]`` that seat;
* ``mask[g]``: 1 for each id the seat may take (the other ids 0); ``ids[g, :nids[g]]`` those ids (to clear them
  next time: only they are written);
* on ``step_many``, for a game that ended by its action: ``rewards[g]`` each seat's share of the win (1 for a sole
  winner, 1/k for k winners, 0 for the others), ``terminated[g]`` (its end held) or ``truncated[g]`` (its end did not
  hold within limits.MAX_ROUNDS rounds), and the game begun again at once from the box (``z0``...``ln0``: the
  arrays before a game begins), so ``obs[g]`` and ``mask[g]`` are the new game's (Gymnasium's "same step"
  autoreset); else rewards 0 and both flags false;
* ``errors[g]``: 0, or what stopped game ``g`` (the machine's ``p[FINISHED]``: settling.NO_ACTION, an automatic seat
  whose policy gave no action; ``UNNUMBERED``, a legal action no id names; ``EMPTY``, a new game over before any
  seat decides): the caller raises the error (the game's other arrays are as it left them).

Deals (chance) are drawn inside the call, a shuffle of the step's pack from the compiled random stream (the machine's
``seed``), as ``playout`` draws them; a step that ends without a decision (an obligation's ``otherwise: end``) goes
on, as ``playout`` goes on; automatic seats are settled by the machine (settling.py).
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.action_ids import ActionIds
from interpreter.compiled.machine import FINISHED, OVERRUN, STATUS, STEP
from interpreter.compiled.steps import ARRAYS, Writing

UNNUMBERED, EMPTY = 4, 5  # errors[g] (after the machine's own: 1 over, machine.OVERRUN, settling.NO_ACTION)

_GAME = "Z[g], ZN[g], V[g], L[g], LN[g], h, P[g]"  # game g's arrays and progress, as the machine's functions take them
_STACKED = "Z, ZN, V, L, LN, h, P, z0, zn0, v0, l0, ln0"
_OUT = "obs, mask, seats, ids, nids, errors"


def vector_source(machine: Any, ids: ActionIds) -> str:
    """The source of ``reset_many`` and ``step_many`` (see the module's docstring) and their helpers, for
    ``machine`` (whose module has ``observe`` too: observe_template.py) and its ids' tables."""

    return "\n".join([ids.source(), *_games(), *_rewards(machine), *_entries(machine.actions)])


def _games() -> list[str]:
    """``vec_begin``, ``vec_ready`` and ``vec_mask``: a game begun, on to its next decision, its mask written."""
    return [
        # a game from the box: its arrays copied, its progress cleared, begun
        f"def vec_begin({_STACKED}, g):",
        "    for a in range(Z.shape[1]):",
        "        for b in range(Z.shape[2]):",
        "            Z[g, a, b] = z0[a, b]",
        "    for a in range(L.shape[1]):",
        "        for b in range(L.shape[2]):",
        "            L[g, a, b] = l0[a, b]",
        "    for a in range(ZN.shape[1]):",
        "        ZN[g, a] = zn0[a]",
        "    for a in range(V.shape[1]):",
        "        V[g, a] = v0[a]",
        "    for a in range(LN.shape[1]):",
        "        LN[g, a] = ln0[a]",
        "    for a in range(P.shape[1]):",
        "        P[g, a] = 0",
        f"    begin({_GAME})",
        "",
        # on to the next decision: deals drawn, steps without a decision passed; the legal actions in out (0: over)
        f"def vec_ready({ARRAYS}, p, out):",
        f"    while p[{FINISHED}] == 0:",
        f"        if p[{STATUS}] == CHANCE:",
        f"            n = pack({ARRAYS}, p, out)",
        "            for i in range(n - 1, 0, -1):",
        "                j = int(np.random.random() * (i + 1))",
        "                t = out[i]",
        "                out[i] = out[j]",
        "                out[j] = t",
        f"            deal({ARRAYS}, p, out[:n])",
        "            continue",
        f"        n = legal({ARRAYS}, p, out)",
        "        if n > 0:",
        "            return n",
        f"        advance({ARRAYS}, p, p[{STEP}] + 1)",
        "    return 0",
        "",
        # the ids of the legal actions in mask[g] (those of the last time cleared); -1: a legal action no id names
        f"def vec_mask({ARRAYS}, p, out, n, mask, g, ids, nids):",
        "    for k in range(nids[g]):",
        "        mask[g, ids[g, k]] = 0",
        "    m = 0",
        f"    i = action_table({ARRAYS}, p)",
        "    for k in range(n):",
        "        a = action_id(i, out[k])",
        "        if a < 0:",
        "            nids[g] = m",
        "            return -1",
        "        if mask[g, a] == 0:",
        "            mask[g, a] = 1",
        "            ids[g, m] = a",
        "            m += 1",
        "    nids[g] = m",
        "    return m",
        ""]


def _rewards(machine: Any) -> list[str]:
    """``vec_rewards``: each seat's share of the win of a game over."""
    players = machine.game.players
    pick = ">" if machine.game.flow.winners == "highest_total" else "<"
    total = [machine.lay.value("total", "", s) for s in range(players)]
    return [
        f"TOTAL = np.array({total!r}, np.int64)", "",
        # each seat's share of the win of a game over (its end held), in rewards[g]
        f"def vec_rewards({ARRAYS}, p, rewards, g):",
        f"    for s in range({players}):",
        "        rewards[g, s] = 0.0",
        f"    if p[{FINISHED}] != 1:",
        "        return",
        "    best = NONE",
        f"    for s in range({players}):",
        f"        if can_win({ARRAYS}, s) and (best == NONE or v[TOTAL[s]] {pick} best):",
        "            best = v[TOTAL[s]]",
        "    if best == NONE:",
        "        return",
        "    k = 0",
        f"    for s in range({players}):",
        f"        if can_win({ARRAYS}, s) and v[TOTAL[s]] == best:",
        "            k += 1",
        f"    for s in range({players}):",
        f"        if can_win({ARRAYS}, s) and v[TOTAL[s]] == best:",
        "            rewards[g, s] = 1.0 / k",
        ""]


def _entries(cap: int) -> list[str]:
    """``reset_many`` and ``step_many`` (``cap``: the most legal actions a decision offers), with ``vec_write`` and
    ``vec_fresh``."""
    return [
        # the decision game g waits at (its n legal actions in out): its seat, observation and mask written
        f"def vec_write({ARRAYS}, p, g, n, out, {_OUT}):",
        f"    seat = actor({ARRAYS}, p)",
        "    seats[g] = seat",
        f"    observe({ARRAYS}, p, seat, obs, g)",
        f"    if vec_mask({ARRAYS}, p, out, n, mask, g, ids, nids) < 0:",
        f"        errors[g] = {UNNUMBERED}",
        "",
        # game g begun from the box and on to its first decision, written
        f"def vec_fresh({_STACKED}, g, out, {_OUT}):",
        f"    vec_begin({_STACKED}, g)",
        f"    n = vec_ready({_GAME}, out)",
        f"    if P[g, {FINISHED}] != 0:",
        f"        errors[g] = {EMPTY}",
        "    else:",
        f"        vec_write({_GAME}, g, n, out, {_OUT})",
        "",
        f"def reset_many({_STACKED}, {_OUT}):",
        "    mark = h[0]",
        *("    " + line for line in Writing.scratch("out", str(cap))),
        "    for g in range(P.shape[0]):",
        "        errors[g] = 0",
        f"        vec_fresh({_STACKED}, g, out, {_OUT})",
        "    h[0] = mark",
        "",
        f"def step_many({_STACKED}, actions, {_OUT}, rewards, terminated, truncated):",
        "    mark = h[0]",
        *("    " + line for line in Writing.scratch("out", str(cap))),
        "    for g in range(P.shape[0]):",
        f"        apply({_GAME}, ACT_NUMBER[actions[g]])",
        f"        n = vec_ready({_GAME}, out)",
        f"        over = P[g, {FINISHED}]",
        "        terminated[g] = over == 1",
        f"        truncated[g] = over == {OVERRUN}",
        f"        vec_rewards({_GAME}, rewards, g)",
        "        if over == 0:",
        f"            vec_write({_GAME}, g, n, out, {_OUT})",
        f"        elif over == 1 or over == {OVERRUN}:",
        f"            vec_fresh({_STACKED}, g, out, {_OUT})",
        "        else:",
        "            errors[g] = over",
        "    h[0] = mark",
        ""]
