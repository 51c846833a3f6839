"""The compiled module's text written as LLVM IR by the engine itself, and made machine code by LLVM (llvmlite).

The templates and lower.py write each game's module in a small subset of Python (plain Python runs it too: the
tests' checks, and where the compiled backend is missing): functions over whole numbers, floats and arrays of
known item types; assignments, ``if``, ``while``, ``for`` over a ``range``, ``return`` of one value or a tuple,
``raise NAME('message')``; arithmetic, comparisons, ``and``/``or``, ``x if c else y``; calls of the module's
functions, of ``len``, ``int``, ``max``, ``min``, ``abs``, of numpy's ``random.seed``, ``random.random``, ``sqrt``
and ``log``, and of pointers.py's ``address`` and ``view_NAME``. This package writes that subset as LLVM IR with
Python's meaning (``//`` and ``%`` rounding down, indexes from the end when negative, slices clamped, numpy's random
stream: mt19937.py), so the compiled code computes what the plain module computes, draw for draw; anything outside
the subset is refused (``SubsetError``), never guessed.

* types.py: the values' types and how each is written in LLVM IR;
* inference.py: a function's names' types, from the types it is called with;
* writer.py, expressions.py, calls.py, function.py: one function written, for one list of argument types;
* module.py: the LLVM module of one entry (a function Python calls) and all it reaches, and its wrapper for Python;
* mt19937.py: numpy's random stream, in the subset;
* jit.py: LLVM's optimization and code generation, the object code kept on disk, and Python's calls.

Why not numba, which compiled the same subset before: its own Python work (bytecode analysis, type inference,
lowering) was three quarters of a game's first compile (the largest bundled game's about 26 s); written here, the
same module is written in a few tenths of a second and LLVM's work is the rest (docs/performance.md, "LLVM IR
written by the engine").
"""
