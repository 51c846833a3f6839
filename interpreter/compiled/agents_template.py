"""Games played by agents on the compiled backend, written into the machine's module (machine.py): each seat's
decisions by its agent (agents.py: a whole number per seat), and many games in one call. Every draw comes from
the compiled random stream (numpy's legacy one, run as plain Python).

The functions written:

* ``greedy_pick(arrays, p, out, n, pays)``: the running step's greedy pick among ``out[:n]`` (a trick's play judged
  by its ordering, trick_template_judge.py; -1: at random);
* ``play_seated(arrays, p, trace, agents, pays)``: the game played to its end, each decision by the agent of the
  seat to act (``agents``: one per seat; empty: every seat random), each deal a shuffle of the step's pack; its
  draws kept in ``trace`` as ``Machine.play_seeded`` reads them (of one item: nothing kept). A greedy seat with one
  legal action takes it without a draw; where its pick is -1 it draws as a random seat does. The machine's
  ``playout`` is this with every seat random;
* ``play_batch(box arrays, work arrays, p, seeds, agents, pays, totals, eligible, rounds, status, ends, ended)``:
  game ``g`` of ``seeds`` begun from a copy of the box (the arrays of a game before it begins) and played as
  ``Machine.play_seeded`` plays it (the random stream seeded with ``seeds[g]`` once the game has begun, so a game is
  the same whichever batch plays it), by the agents of row ``g`` of ``agents``; each game's totals, whether each
  seat may win, rounds and ``p[FINISHED]`` written into row ``g`` of the arrays given, its logged round values
  (machine.py's ``logged``) one after the other into ``ends`` (``ended[g]`` of its rounds). It returns the games
  played: fewer than asked when ``ends`` is full (the rest are played by another call, batch.py).
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.agents import GREEDY
from interpreter.compiled.steps import ARRAYS, Writing


def source(codes: list[Any], cap: int, slots: dict[str, int], totals: list[int], logged: int) -> str:
    """The functions of the module's docstring, for a machine of the step templates ``codes`` (the round's steps,
    in order), ``cap`` the most actions a decision offers, ``slots`` where the machine's progress and values are
    (``step``, ``finished``, ``status``, ``logged``, ``log``: p's; ``number``: v's), ``totals`` where each seat's
    total is in v, ``logged`` the round values kept at each round's end."""
    return "\n".join(_greedy(codes, slots["step"]) + _seated(cap, slots) + _batch(cap, slots, totals, logged))


def _greedy(codes: list[Any], step: int) -> list[str]:
    lines = [f"def greedy_pick({ARRAYS}, p, out, n, pays):", f"    i = p[{step}]", "    mark = h[0]", "    r = -1"]
    judging = [(i, code) for i, code in enumerate(codes) if code.judges]
    for k, (i, code) in enumerate(judging):
        lines += [f"    {'if' if k == 0 else 'elif'} i == {i}:",
                  f"        r = {code.prefix}_greedy({ARRAYS}, p, out, n, pays)"]
    return [*lines, "    h[0] = mark", "    return r", ""]


def _seated(cap: int, slots: dict[str, int]) -> list[str]:
    return [f"def play_seated({ARRAYS}, p, trace, agents, pays):",  # (trace: see Finished; of one item, nothing kept)
            "    mark = h[0]",
            *("    " + line for line in Writing.scratch("out", str(cap))),
            *("    " + line for line in Writing.scratch("order", str(cap))),
            "    taken = 0",
            *("    " + line for line in _game(slots)),
            "    h[0] = mark",
            "    return taken", ""]


def _game(slots: dict[str, int]) -> list[str]:
    """The lines that play the game of the arrays and ``p`` to its end, by ``agents`` with ``pays``, its draws kept
    in ``trace``, counting its decisions in ``taken`` (``out`` and ``order``: room for the legal actions and a deal).
    Written into ``play_seated`` and into ``play_batch`` itself (a call less in the loop of every
    decision)."""
    finished, status, step = slots["finished"], slots["status"], slots["step"]
    return [f"while p[{finished}] == 0:",
            f"    if p[{status}] == CHANCE:",
            f"        n = pack({ARRAYS}, p, order)",
            "        for i in range(n - 1, 0, -1):",
            "            j = int(np.random.random() * (i + 1))",
            "            t = order[i]",
            "            order[i] = order[j]",
            "            order[j] = t",
            "        if len(trace) > 1:",
            "            t = trace[0]",
            "            if t < 0 or t + 2 + n > len(trace):",
            "                trace[0] = -1",
            "            else:",
            "                trace[t] = 1",
            "                trace[t + 1] = n",
            "                for i in range(n):",
            "                    trace[t + 2 + i] = order[i]",
            "                trace[0] = t + 2 + n",
            f"        deal({ARRAYS}, p, order[:n])",
            "        continue",
            f"    n = legal({ARRAYS}, p, out)",
            "    if n <= 0:",  # the step ends without a decision (an obligation with otherwise: end)
            f"        advance({ARRAYS}, p, p[{step}] + 1)",
            "        continue",
            "    k = -1",
            f"    if len(agents) > 0 and agents[actor({ARRAYS}, p)] == {GREEDY}:",
            f"        k = 0 if n == 1 else greedy_pick({ARRAYS}, p, out, n, pays)",
            "    if k < 0:",
            "        k = int(np.random.random() * n)",
            "    a = out[k]",
            "    if len(trace) > 1:",
            "        t = trace[0]",
            "        if t < 0 or t + 2 > len(trace):",
            "            trace[0] = -1",
            "        else:",
            "            trace[t] = 0",
            "            trace[t + 1] = a",
            "            trace[0] = t + 2",
            f"    apply({ARRAYS}, p, a)",
            "    taken += 1"]


def _batch(cap: int, slots: dict[str, int], totals: list[int], logged: int) -> list[str]:
    number, log = slots["number"], slots["log"]
    # (the box's arrays z0..ln0, each game played in z..ln and p)
    return ["def play_batch(z0, zn0, v0, l0, ln0, h, z, zn, v, l, ln, p, seeds, every, pays, totals, eligible, "
            "rounds, status, ends, ended):",
            "    mark = h[0]",
            *("    " + line for line in Writing.scratch("out", str(cap))),
            *("    " + line for line in Writing.scratch("order", str(cap))),
            "    trace = p[:1]",
            "    at = 0",
            "    for g in range(len(seeds)):",
            "        for a in range(z0.shape[0]):",
            "            for b in range(z0.shape[1]):",
            "                z[a, b] = z0[a, b]",
            "        for a in range(l0.shape[0]):",
            "            for b in range(l0.shape[1]):",
            "                l[a, b] = l0[a, b]",
            "        for a in range(len(zn0)):",
            "            zn[a] = zn0[a]",
            "        for a in range(len(v0)):",
            "            v[a] = v0[a]",
            "        for a in range(len(ln0)):",
            "            ln[a] = ln0[a]",
            "        for a in range(len(p)):",
            "            p[a] = 0",
            f"        begin({ARRAYS}, p)",
            "        seed(seeds[g])",
            "        agents = every[g]",
            "        taken = 0",
            *("        " + line for line in _game(slots)),
            f"        m = p[{slots['logged']}] * {logged}",
            "        if at + m > len(ends):",
            "            h[0] = mark",
            "            return g",
            "        for i in range(m):",
            f"            ends[at + i] = p[{log} + i]",
            "        at += m",
            f"        ended[g] = p[{slots['logged']}]",
            *(f"        totals[g, {s}] = v[{index}]" for s, index in enumerate(totals)),
            f"        for s in range({len(totals)}):",
            f"            eligible[g, s] = can_win({ARRAYS}, s)",
            f"        rounds[g] = v[{number}]",
            f"        status[g] = p[{slots['finished']}]",
            "    h[0] = mark",
            "    return len(seeds)", ""]
