"""The compiled backend's code of a game, made a module: the written expressions and step templates joined into one
source, run as plain Python (for the tests, and where numba is missing) or every function compiled by numba.

Each function of the source is compiled on its first call (``numba.njit``); a function calls the others through
the module's namespace, where each is replaced by its compiled form before any is called, so numba sees compiled
functions only. They are compiled without numba's reference-counted runtime: counting the references of the arrays
every call passes took most of a card's time, so the source allocates nothing (its lists live in the scratch space
``h``, arrays.HEAP; ``grab`` takes room there).

The constants (tables of card attributes, lists written in the rule, the records' fields) are
arrays in the namespace: numba reads them as constants frozen at compile time.
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any

from interpreter.compiled.lower import Lowered
from interpreter.compiled.steps import CHANCE, DECIDES, DONE
from interpreter.compiled.values import INTERNED, NONE, Values
from interpreter.dsl.codegen import run_block

# numba's options for every function: no reference-counted runtime (see the module's docstring)
NJIT: dict[str, Any] = {"cache": False, "_nrt": False}
_BUILTINS = {f.__name__: f for f in (range, len, int, abs, max, min)}  # what the written source calls

PRELUDE = '''def truth(x):
    return x != 0 and x != NONE


def grab(h, n):
    t = h[0]
    e = t + (n if n > 1 else 1)
    if e > len(h):
        raise MemoryError("the compiled code's scratch space is full")
    h[0] = e
    if e > h[1]:
        h[1] = e
    return t


def seed(x):
    np.random.seed(x)
'''


def support(compiled: bool) -> dict[str, Any]:
    """The prelude's functions (``truth``, ``grab``, ``seed``), for running one written expression on its own (the
    tests): plain Python, or compiled as ``made`` compiles them."""
    import numpy as np

    space: dict[str, Any] = {"np": np, "NONE": NONE, "__builtins__": _BUILTINS}
    run_block(PRELUDE, space)
    del space["__builtins__"]
    if compiled:
        import numba

        space.update({k: numba.njit(**NJIT)(f) for k, f in space.items() if isinstance(f, types.FunctionType)})
    return space


def source_of(expressions: Iterable[Lowered], *templates: str) -> str:
    """The module's source: the prelude, every written expression, then the templates."""
    return "\n\n".join([PRELUDE, *(e.source for e in expressions), *templates])


def made(source: str, expressions: Iterable[Lowered], values: Values, compiled: bool) -> types.SimpleNamespace:
    """The module of ``source`` (its constants those of ``expressions``, its fields' tables over ``values``): every
    function plain Python, or compiled by numba when ``compiled``."""
    import numpy as np

    space: dict[str, Any] = {"np": np, "NONE": NONE, "INTERNED": INTERNED, "DONE": DONE, "DECIDES": DECIDES,
                             "CHANCE": CHANCE}
    for e in expressions:
        space.update(e.link(values))
    space["__builtins__"] = _BUILTINS
    run_block(source, space)  # the engine's own source, written from checked parts (never rule text)
    if compiled:
        import numba

        for name, value in list(space.items()):
            if isinstance(value, types.FunctionType):
                space[name] = numba.njit(**NJIT)(value)
    return types.SimpleNamespace(**{k: v for k, v in space.items() if not k.startswith("__")})
