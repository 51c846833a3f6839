"""The compiled backend (issue 34): the same game, its state held in a few integer arrays and its code written a
second time from the same plan, in the subset of Python that numba compiles.

What is here so far (docs/architecture.md, "The compiled backend", gives the order of the rest):

* values.py: every value a game holds as one whole number (none, true and false, a text or a record interned);
* arrays.py: where each part of a compact state (runtime/layout.py) lives in the arrays, and a state packed into
  them;
* lower.py: an expression's checked parts (dsl/ir.py) written as statements over the arrays, each op once,
  beside dsl/emit.py's Python; the source runs as plain Python too, and numba compiles it when it is installed.

``available()`` says whether numba is there (``pip install 'trickbook[fast]'``); nothing in the engine needs it.
"""

from __future__ import annotations

import importlib.util


def available() -> bool:
    """Whether numba can be imported (the ``fast`` extra): the compiled backend needs it, nothing else does."""
    return importlib.util.find_spec("numba") is not None and importlib.util.find_spec("numpy") is not None
