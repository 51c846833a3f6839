"""The compiled backend (issue 34): the same game, its state held in a few integer arrays and its code written a
second time from the same plan, in a subset of Python that the engine writes as LLVM IR and compiles (ir/).

What is here (docs/architecture.md, "The compiled backend", tells it in order):

* values.py, arrays.py: every value a game holds as one whole number (none, true and false, texts, records and
  lists interned), and where each part of a compact state (runtime/layout.py) lives in the arrays;
* lower.py, writer.py, parts.py, calls.py: an expression's checked parts (dsl/ir.py) written as statements over the
  arrays, each op and builtin once, beside dsl/emit.py's Python;
* steps.py, kinds.py and the ``*_template.py`` modules: each step kind's second template;
* machine.py, round_template.py, settling.py: a whole game as one module (rounds, steps entered, automatic seats);
* search_template.py, search.py: ismcts's search of one decision in one compiled call, its samples gathered in Python;
* agents.py, agents_template.py, trick_template_judge.py: each seat played by its agent (random, or greedy: a
  trick's play judged by its ordering); batch.py: many games a compiled call;
* module.py: that module made (plain Python, or compiled and kept in the user's cache folder);
* ir/: the subset written as LLVM IR and made machine code by LLVM (llvmlite), its object code kept on disk;
* replay.py: a compiled game's draws followed by the Python backend (it tells and records the game).

The engine chooses it through interpreter/harness/engines.py.
``available()`` says whether llvmlite is there (``pip install 'trickbook[fast]'``); nothing in the engine needs it.
"""

from __future__ import annotations

import importlib.util


def available() -> bool:
    """Whether llvmlite can be imported (the ``fast`` extra): the compiled backend needs it, nothing else does."""
    return importlib.util.find_spec("llvmlite") is not None and importlib.util.find_spec("numpy") is not None
