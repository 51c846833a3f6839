"""Which functions of a compiled module numba writes into each of their callers (``inline="always"``) instead of
calling them (module.py).

A call between compiled functions passed every array as the several numbers numba makes of it (its data, its shape,
its strides...: about fifty for the seven arrays a step's function takes; compiled, they now pass their addresses:
pointers.py), and LLVM leaves most of the templates' functions called: a decision of a trick with a choice between
plays went through a dozen such calls (the machine's dispatch, the trick step's, the hook's, the choice's turn). With
the addresses passed, inlining still gains about a tenth of the decisions a second, for a first compile 1-2 s
longer (docs/performance.md, "Arrays passed by their address"). The small functions the
step templates write are therefore written into their callers, as long as a function, with the functions it calls
that are written in it, stays within ``LIMIT`` lines: inlined without a bound, whole rounds were written into one
function and the compile took five times as long, and ran slower. Never inlined: the functions Python calls (the
machine's entry points), the written expressions (compiled once each, often called from many places), the
prelude's, and the support of the combinations builtins (combination_calls.py: each called from several places, in
loops; written into their callers, the largest climbing game's compile of them took about 11 s, not 3 s, and they
ran no faster).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from interpreter.compiled.combination_calls import PREFIX as SUPPORT_PREFIX
from interpreter.compiled.module import PRELUDE

LIMIT = 50  # the most lines a function inlined holds, with what is inlined into it

_DEF = re.compile(r"^def (\w+)\(")
_CALL = re.compile(r"\b(\w+)\(")


def inlined(source: str, kept: Collection[str]) -> frozenset[str]:
    """The functions of ``source`` (a module's text) to compile into their callers: those not ``kept`` (nor the
    prelude's) that, with the functions they call that are inlined too, hold at most ``LIMIT`` lines."""
    kept = {*kept, *(m.group(1) for line in PRELUDE.splitlines() if (m := _DEF.match(line)))}
    kept |= {m.group(1) for line in source.splitlines() if (m := _DEF.match(line)) and m.group(1).startswith(
        SUPPORT_PREFIX)}
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
    calls = {name: [c for line in body for c in _CALL.findall(line) if c in bodies] for name, body in bodies.items()}
    size: dict[str, int] = {}

    def total(name: str, seen: frozenset[str]) -> int:
        """The lines of ``name`` with those of the inlined functions it calls (a call seen again, which the written
        source never makes, counts as too many)."""
        if name in seen:
            return LIMIT + 1
        if name not in size:
            size[name] = len(bodies[name]) + 1 + sum(
                n for c in calls[name] if c not in kept and (n := total(c, seen | {name})) <= LIMIT)
        return size[name]

    return frozenset(name for name in bodies if name not in kept and total(name, frozenset()) <= LIMIT)
