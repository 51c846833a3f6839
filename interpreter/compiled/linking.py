"""Which functions of a compiled module are compiled into each of their callers and which are called by their
symbol (module.py, symbols.py).

numba compiles every function on its own and, for a call, links a copy of the callee's code (with all that code
links in turn) into the caller's, where LLVM optimizes the whole again and may inline the callee. For the small
functions the step templates and the expressions write that is what makes the code fast: a decision of a trick
goes through a dozen of them (the machine's dispatch, the trick step's, the hook's, the choice's turn). For the large
ones it is what made the first compile long: every function was worked on again for every level above it, five to
seven from a playout to an expression. So a function is linked into its callers when it holds, with the linked
functions it calls, at most ``LIMIT`` lines, and its linked copy is marked for LLVM to inline always
(``inlined_where_linked``); every other is called by its symbol, its code made once. (Until then numba wrote the
small functions into their callers' source, ``inline="always"``: each copy typed and lowered again; linking copies
LLVM's work only, and the first compiles were about half as long, the code as fast: docs/performance.md,
"Functions called by their symbol".)
"""

from __future__ import annotations

import re
from typing import Any

LIMIT = 50  # the most lines a linked function holds, with the linked functions it calls

_DEF = re.compile(r"^def (\w+)\(")
_CALL = re.compile(r"\b(\w+)\(")


def linked(source: str) -> frozenset[str]:
    """The functions of ``source`` (a module's text) compiled into their callers: those that, with the linked
    functions they call, hold at most ``LIMIT`` lines (a function called twice counted twice)."""
    bodies: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in source.splitlines():
        found = _DEF.match(line)
        if found:
            current = bodies[found.group(1)] = []
        elif line.startswith(" ") and current is not None:
            current.append(line)
        elif line.strip():
            current = None  # (a constant of the module between two functions)
    calls = {name: [c for line in body for c in _CALL.findall(line) if c in bodies and c != name]
             for name, body in bodies.items()}
    size: dict[str, int] = {}

    def total(name: str, seen: frozenset[str]) -> int:
        """The lines of ``name`` with those of the linked functions it calls (a call seen again, which the written
        source never makes, counts as too many)."""
        if name in seen:
            return LIMIT + 1
        if name not in size:
            size[name] = len(bodies[name]) + 1 + sum(
                n for c in calls[name] if (n := total(c, seen | {name})) <= LIMIT)
        return size[name]

    return frozenset(name for name in bodies if total(name, frozenset()) <= LIMIT)


def inlined_where_linked(dispatcher: Any) -> None:
    """Each of ``dispatcher``'s compiled forms marked ``alwaysinline`` in the copy numba links into its callers (the
    mark is LLVM's: left to its own judgement LLVM kept many of them called, and a game's random play ran up to a
    tenth slower)."""
    typed = dispatcher.get_call_template
    marked: set[Any] = set()

    def call_template(args: Any, kws: Any) -> Any:
        found = typed(args, kws)  # (compiles, or loads, the form for these arguments)
        for key, result in dispatcher.overloads.items():
            if key not in marked:
                marked.add(key)
                copy = result.library._get_module_for_linking()
                copy.get_function(result.fndesc.mangled_name).add_function_attribute("alwaysinline")
        return found

    dispatcher.get_call_template = call_template
