"""Games played by agents on the compiled backend, written into the machine's module (machine.py): each seat's
decisions by its agent, and many games in one call.

An agent is a whole number per seat (``AGENTS``): ``RANDOM`` picks uniformly among the legal actions, ``GREEDY``
plays as harness/greedy.py's GreedyAgent: in a trick, the play its step's ``NAME_greedy`` picks
(trick_template_judge.py: each play judged by the trick's ordering), given whether taking cards pays (measured by
the harness once per game, on the Python backend); every other decision at random, and a single legal action taken
without a draw. Every draw comes from numba's random stream (numpy's, run as plain Python).

The functions written:

* ``greedy_pick(arrays, p, out, n, pays)``: the running step's greedy pick among ``out[:n]`` (-1: at random);
* ``play_seated(arrays, p, trace, agents, pays)``: the game played to its end, each decision by the agent of the
  seat to act (``agents``: one per seat; empty: every seat random), each deal a shuffle of the step's pack; its
  draws kept in ``trace`` as ``Machine.play_seeded`` reads them (of one item: nothing kept). The machine's
  ``playout`` is this with every seat random;
* ``play_batch(box arrays, work arrays, p, seeds, agents, pays, totals, eligible, rounds, status, ends, ended)``:
  game ``g`` of ``seeds`` begun from a copy of the box (the arrays of a game before it begins) and played as
  ``Machine.play_seeded`` plays it (the random stream seeded with ``seeds[g]`` once the game has begun, so a game is
  the same whichever batch plays it), by the agents of row ``g`` of ``agents``; each game's totals, whether each
  seat may win, rounds and ``p[FINISHED]`` written into row ``g`` of the arrays given, its logged round values
  (machine.py's ``logged``) one after the other into ``ends`` (``ended[g]`` of its rounds). It returns the games
  played: fewer than asked when ``ends`` is full (the rest are played by another call).

Not written for greedy agents (``greedy_refusal``: those games are played on the Python backend) where a greedy
agent's judgement reads what a sample of a seat's knowledge may draw otherwise than the game holds it: hidden teams
(it judges its side on the teams it knows), or a trick's ordering, ``can_win`` or ``led`` reading something hidden
from some seat; and a trick another step holds (its pick is not dispatched).
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import ARRAYS, Writing
from interpreter.dsl.builtins import REGISTRY
from interpreter.dsl.compiler import Compiled
from interpreter.dsl.ir import walk

RANDOM, GREEDY = 0, 1
AGENTS = {"random": RANDOM, "greedy": GREEDY}  # the agents the compiled backend plays, by their names
# the builtins that read the state and see only what every seat sees when the teams are public
_PUBLIC_BUILTINS = frozenset({"seats_from", "left", "right", "team", "opponents", "same_team"})


def agent_codes(names: list[str]) -> list[int]:
    """The agents of the seats as the written code takes them (``AGENTS``); KeyError for one it does not play."""
    return [AGENTS[name] for name in names]


def greedy_refusal(game: Any) -> str | None:
    """Why greedy agents cannot play ``game`` on the compiled backend (None: they can; see the module's docstring)."""
    if any(step.kind == "teams" and getattr(step, "known", "all") != "all" for step in game.every_step()):
        return "greedy agents where the teams are hidden (a seat judges its side from the teams it knows)"
    top = {id(step) for step in game.steps}
    for step in game.every_step():
        if step.kind != "tricks":
            continue
        if id(step) not in top:
            return f"greedy agents in a trick another step holds ({step.name!r})"
        for option, expr in [*(("strength", e) for e in step.ordering.exprs), ("can_win", step.can_win),
                             ("led", step.led)]:
            if expr is None:
                continue
            hidden = hidden_read(game, expr)
            if hidden is not None:
                return (f"greedy agents in trick {step.name!r}: its {option} reads {hidden}, which some seats do not "
                        "see (a seat judges by what it knows)")
    return None


def hidden_read(game: Any, expr: Compiled) -> str | None:
    """What ``expr`` reads that some seat may not see (None: it reads only what every seat sees): a zone or a
    value not visible to all, or a builtin that reads more of the state than the seats and their public teams."""
    if expr.part is None:
        return "an expression not checked"
    names = {b.impl: name for name, b in REGISTRY.items()}
    for part in walk(expr.part):
        if part.op == "zone" and game.zones[part.data].visible != "all":
            return f"the zone {part.data!r}"
        if part.op == "seat" and part.data[2]:  # a seat's attribute read from the state
            name = part.data[4]
            spec = game.zones.get(name)
            if (spec.visible if spec is not None else game.visibility.get(name, "all")) != "all":
                return f"the seats' {name!r}"
        if part.op in ("round", "game") and game.visibility.get(part.data, "all") != "all":
            return f"the {part.op} value {part.data!r}"
        if part.op == "call" and part.data[1] and names.get(part.data[0]) not in _PUBLIC_BUILTINS:
            return f"{names.get(part.data[0], 'a builtin')}()"
    return None


def source(codes: list[Any], cap: int, slots: dict[str, int], totals: list[int], logged: int) -> str:
    """The functions of the module's docstring, for a machine of the step templates ``codes`` (the round's steps,
    in order), ``cap`` the most actions a decision offers, ``slots`` where the machine's progress and values are
    (``step``, ``finished``, ``status``, ``logged``, ``log``: p's; ``number``: v's), ``totals`` where each seat's
    total is in v, ``logged`` the round values kept at each round's end."""
    return "\n".join(_greedy(codes, slots["step"]) + _seated(cap, slots) + _batch(slots, totals, logged))


def _greedy(codes: list[Any], step: int) -> list[str]:
    lines = [f"def greedy_pick({ARRAYS}, p, out, n, pays):", f"    i = p[{step}]", "    mark = h[0]", "    r = -1"]
    judging = [(i, code) for i, code in enumerate(codes) if code.judges]
    for k, (i, code) in enumerate(judging):
        lines += [f"    {'if' if k == 0 else 'elif'} i == {i}:",
                  f"        r = {code.prefix}_greedy({ARRAYS}, p, out, n, pays)"]
    return [*lines, "    h[0] = mark", "    return r", ""]


def _seated(cap: int, slots: dict[str, int]) -> list[str]:
    finished, status, step = slots["finished"], slots["status"], slots["step"]
    return [f"def play_seated({ARRAYS}, p, trace, agents, pays):",  # (trace: see Finished; of one item, nothing kept)
            "    mark = h[0]",
            *("    " + line for line in Writing.scratch("out", str(cap))),
            *("    " + line for line in Writing.scratch("order", str(cap))),
            "    taken = 0",
            f"    while p[{finished}] == 0:",
            f"        if p[{status}] == CHANCE:",
            f"            n = pack({ARRAYS}, p, order)",
            "            for i in range(n - 1, 0, -1):",
            "                j = int(np.random.random() * (i + 1))",
            "                t = order[i]",
            "                order[i] = order[j]",
            "                order[j] = t",
            "            if len(trace) > 1:",
            "                t = trace[0]",
            "                if t < 0 or t + 2 + n > len(trace):",
            "                    trace[0] = -1",
            "                else:",
            "                    trace[t] = 1",
            "                    trace[t + 1] = n",
            "                    for i in range(n):",
            "                        trace[t + 2 + i] = order[i]",
            "                    trace[0] = t + 2 + n",
            f"            deal({ARRAYS}, p, order[:n])",
            "            continue",
            f"        n = legal({ARRAYS}, p, out)",
            "        if n <= 0:",  # the step ends without a decision (an obligation with otherwise: end)
            f"            advance({ARRAYS}, p, p[{step}] + 1)",
            "            continue",
            "        k = -1",
            f"        if len(agents) > 0 and agents[actor({ARRAYS}, p)] == {GREEDY}:",
            f"            k = 0 if n == 1 else greedy_pick({ARRAYS}, p, out, n, pays)",
            "        if k < 0:",
            "            k = int(np.random.random() * n)",
            "        a = out[k]",
            "        if len(trace) > 1:",
            "            t = trace[0]",
            "            if t < 0 or t + 2 > len(trace):",
            "                trace[0] = -1",
            "            else:",
            "                trace[t] = 0",
            "                trace[t + 1] = a",
            "                trace[0] = t + 2",
            f"        apply({ARRAYS}, p, a)",
            "        taken += 1",
            "    h[0] = mark",
            "    return taken", ""]


def _batch(slots: dict[str, int], totals: list[int], logged: int) -> list[str]:
    number, log = slots["number"], slots["log"]
    return [f"def play_batch({ARRAYS}, z1, zn1, v1, l1, ln1, p, seeds, agents, pays, totals, eligible, rounds, "
            "status, ends, ended):",
            "    at = 0",
            "    for g in range(len(seeds)):",
            "        for a in range(z.shape[0]):",
            "            for b in range(z.shape[1]):",
            "                z1[a, b] = z[a, b]",
            "        for a in range(l.shape[0]):",
            "            for b in range(l.shape[1]):",
            "                l1[a, b] = l[a, b]",
            "        for a in range(len(zn)):",
            "            zn1[a] = zn[a]",
            "        for a in range(len(v)):",
            "            v1[a] = v[a]",
            "        for a in range(len(ln)):",
            "            ln1[a] = ln[a]",
            "        for a in range(len(p)):",
            "            p[a] = 0",
            "        begin(z1, zn1, v1, l1, ln1, h, p)",
            "        seed(seeds[g])",
            "        play_seated(z1, zn1, v1, l1, ln1, h, p, p[:1], agents[g], pays)",
            f"        m = p[{slots['logged']}] * {logged}",
            "        if at + m > len(ends):",
            "            return g",
            "        for i in range(m):",
            f"            ends[at + i] = p[{log} + i]",
            "        at += m",
            f"        ended[g] = p[{slots['logged']}]",
            *(f"        totals[g, {s}] = v1[{at}]" for s, at in enumerate(totals)),
            f"        for s in range({len(totals)}):",
            "            eligible[g, s] = can_win(z1, zn1, v1, l1, ln1, h, s)",
            f"        rounds[g] = v1[{number}]",
            f"        status[g] = p[{slots['finished']}]",
            "    return len(seeds)", ""]
