"""The agents the compiled backend plays (agents_template.py writes their decisions): a whole number per seat,
``RANDOM`` (uniform among the legal actions) or ``GREEDY``, which plays as harness/greedy.py's GreedyAgent: in a
trick, the play trick_template_judge.py picks (each play judged by the trick's ordering, from the same declaration
as engine/steps/trick_search.py's ``judge``), given whether taking cards pays (measured by the harness once per game,
on the Python backend); every other decision at random.

GreedyAgent judges on a sample of what its seat knows; the compiled pick judges on the game itself, which is the
same where the judgement reads only what every seat sees. Not written for greedy agents (``greedy_refusal``: such
games are played on the Python backend) where it may read more: hidden teams (a seat judges its side from the teams
it knows), a trick's ordering, ``can_win`` or ``led`` reading something hidden from some seat; and a trick another
step holds (its pick is not dispatched).
"""

from __future__ import annotations

from typing import Any

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
