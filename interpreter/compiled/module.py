"""The compiled backend's code of a game, made a module: the written expressions and step templates joined into one
source, run as plain Python (for the tests, and where numba is missing) or every function compiled by numba.

Each function of the source is compiled on its first call (``numba.njit``); a function calls the others through
the module's namespace, where each is replaced by its compiled form before any is called, so numba sees compiled
functions only: a small function by its dispatcher (numba links its code into each caller's: linking.py), every
other by an intrinsic that calls its machine code by a symbol (symbols.py); a small function's own library is
never made machine code nor kept, only linked (libraries.py). They are compiled without numba's
reference-counted runtime: counting the references of the arrays every call passes took most of a card's time, so
the source allocates nothing (its lists live in the scratch space ``h``, arrays.HEAP; ``grab`` takes room there).
Compiled, the source is first changed to pass the game's arrays by their address (pointers.py): that form is what
the kept file holds and numba compiles.

Only the entry points (``made``'s ``entries``: those Python calls) are compiled with numba's wrappers for Python and
for C callers; the others without (``INTERNAL``): a wrapper is lowered, optimized and made machine code for every
function (about half of a small function's compile), and a compiled caller never uses it. Python reaches such a
function (the tests do) through a copy of it compiled apart with its wrapper, on its first call (never kept on disk:
numba keeps one compiled form per function and signature).

The constants (tables of card attributes, lists written in the rule, the records' fields) are
arrays in the namespace: numba reads them as constants frozen at compile time.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import re
import sys
import types
from collections.abc import Callable, Collection, Iterable, Mapping
from importlib.util import MAGIC_NUMBER
from typing import Any

from interpreter.cache import MAX_FILES, cache_folder, prune, write_bytes
from interpreter.compiled.libraries import compilers
from interpreter.compiled.linking import inlined_where_linked, linked
from interpreter.compiled.lower import Lowered, with_defines
from interpreter.compiled.pointers import SUFFIX, by_address, helpers, python_forms
from interpreter.compiled.steps import CHANCE, DECIDES, DONE
from interpreter.compiled.symbols import Order, calling
from interpreter.compiled.values import INTERNED, NONE, Values
from interpreter.dsl.codegen import run_block

# numba's options for every function: no reference-counted runtime (see the module's docstring)
NJIT: dict[str, Any] = {"cache": False, "_nrt": False}
# and for a function only compiled code calls: no wrapper for Python or C callers (see the module's docstring)
INTERNAL: dict[str, Any] = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
PREFIX = "trickbook_compiled_"  # the kept modules' names (and their files')
KEPT_FORM = "by-symbol-3"  # how a kept module is written and compiled (in its name; changed with pointers.py,
# linking.py, libraries.py and symbols.py)
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
    """The module's source: the prelude, every written expression (and the defines' functions they call), then the
    templates, a function the templates write alike written once (a step kind's function every step of the kind
    shares, its step's constants its arguments: move_template.py's ``move_carried``, choose_choices.py's
    ``choose_distinct``)."""
    return "\n\n".join([PRELUDE, *(e.source for e in with_defines(expressions)), _once("\n\n".join(templates))])


def _once(source: str) -> str:
    """``source``'s top-level parts (functions, and what lies between them), a function written again as before left
    out; one written again otherwise is the engine's mistake (a name two templates gave two functions)."""
    parts: list[str] = []
    seen: dict[str, str] = {}
    for part in re.split(r"(?m)^(?=\S)", source):  # (each top-level statement: a function with its lines, a constant)
        name = part[4:part.index("(")] if part.startswith("def ") else None
        if name is None:
            parts.append(part)
        elif name not in seen:
            seen[name] = part.rstrip()
            parts.append(part)
        elif seen[name] != part.rstrip():
            raise AssertionError(f"two functions named {name!r} in the compiled module")
    return "".join(parts)


def module_text(source: str, expressions: Iterable[Lowered], values: Values) -> str:
    """The module as one text: its constants (those of ``expressions``, the fields' tables over every value
    ``values`` has interned by now) written as literals, then ``source``. The text is all there is of the module, so
    a module kept on disk is found again by it (``made``)."""
    import numpy as np

    lines = []
    for e in expressions:
        for name, value in e.link(values).items():
            if isinstance(value, np.ndarray):
                lines.append(f"{name} = np.array({value.tolist()!r}, np.int64)")
    return "\n".join([*dict.fromkeys(lines), "", source])


def made(source: str, expressions: Iterable[Lowered], values: Values, compiled: bool,
         entries: Collection[str] = (), shapes: Mapping[str, tuple[int, ...]] | None = None,
         text: str | None = None) -> types.SimpleNamespace:
    """The module of ``source`` (``module_text``): every function plain Python, or compiled by numba when
    ``compiled``. Compiled, the text is kept as a file in the user's cache folder (interpreter/cache.py), named by
    its digest, and numba keeps the machine code beside it: a later run of the same game, player count and options
    loads that instead of compiling again. ``entries``: the functions Python calls that are kept compiled with their
    wrapper for Python; the namespace gives every other function as a copy compiled apart with that wrapper, when
    first called (see the module's docstring); ``shapes``: the arrays' shapes, by their parameters' names, where
    compiled functions pass them by their address (pointers.py); ``text``: ``module_text`` of the same, when the
    caller has it already. Compiled, the small functions are linked into their callers and the others called by a
    symbol (linking.py, symbols.py); a kept module's functions only linked get their numba dispatchers when
    something of the module is compiled, not loaded (a later process that loads it makes none of them)."""
    import numpy as np

    text = module_text(source, expressions, values) if text is None else text
    space: dict[str, Any] = {"np": np, "NONE": NONE, "INTERNED": INTERNED, "DONE": DONE, "DECIDES": DECIDES,
                             "CHANCE": CHANCE, "__builtins__": _BUILTINS}
    form: Callable[[], str] | None = None
    if compiled and shapes:
        space.update(helpers(shapes))
        form = functools.partial(by_address, text, shapes)  # (Python work: not done where the module is kept)
    found = _kept(text, form) if compiled else None
    beside: str | None = None  # the folder of numba's files of a kept module (and of its order and code object)
    if found is None:
        written = text if form is None else form()
        run_block(written, space)  # the engine's own source, written from checked parts (never rule text)
    else:  # a module of its own, importable by its name (numba finds a kept function's globals by it)
        path, written = found
        name = os.path.splitext(os.path.basename(path))[0]
        beside = os.path.join(os.path.dirname(path), "__pycache__")
        module = types.ModuleType(name)
        module.__dict__.update(space, __file__=path)
        sys.modules[name] = module
        code = os.path.join(beside, f"{name}.{MAGIC_NUMBER.hex()}.code")
        run_block(written, module.__dict__, filename=path, kept=code)  # (the file's text: numba keeps its code by it)
        space = module.__dict__
    if form is not None:  # (a function taking addresses is compiled by its ``__q`` name: pointers.py)
        entries = {*entries, *(f"{name}{SUFFIX}" for name in entries if f"def {name}{SUFFIX}(" in written)}
    public = {k: v for k, v in space.items() if not k.startswith("__")}
    apart: dict[str, Any] = {}
    compiling: Callable[[], None] | None = None  # what must be done before anything of the module compiles
    if compiled:
        order = Order(f"m{next(_unkept)}" if beside is None else name, beside)
        _compiled(space, written, entries, public, apart, order, kept=found is not None)
        compiling = order.compiling
    namespace = Namespace(apart, compiling, **public)
    if form is not None:
        for name, function in python_forms(written, shapes or {}, functools.partial(getattr, namespace)).items():
            setattr(namespace, name, function)
    return namespace


def _compiled(space: dict[str, Any], written: str, entries: Collection[str], public: dict[str, Any],
              apart: dict[str, Any], order: Order, kept: bool) -> None:
    """Each function of ``space`` (the module ``written``) given to numba: an entry kept with its wrapper for Python
    (in ``public``), a function linked into its callers (for a ``kept`` module, its dispatcher made only when
    something compiles: ``order.compiling``), any other called by its symbol; every function but the entries moved
    from ``public`` to ``apart``."""
    import numba

    options = {**NJIT, "cache": kept}
    copied = linked(written)
    whole, linked_only = compilers()  # (numba's compilers of the two kinds of function: libraries.py)
    waiting: dict[str, Any] = {}  # functions only linked: their dispatchers made before anything compiles

    def linking() -> None:  # (the callers' globals: numba compiles a call of a dispatcher, not of a function)
        for key in list(waiting):
            dispatcher = numba.njit(**NJIT, **INTERNAL, pipeline_class=linked_only)(waiting.pop(key))
            order.watch(key, dispatcher)
            inlined_where_linked(_one_form(dispatcher))
            space[key] = dispatcher

    for key, value in list(space.items()):
        if isinstance(value, types.FunctionType):
            if key not in entries:
                apart[key] = public.pop(key)
            if key in copied and key not in entries:  # (only linked into its callers: not kept, libraries.py)
                waiting[key] = value
                continue
            dispatcher = numba.njit(**options, **({} if key in entries else INTERNAL), pipeline_class=whole)(value)
            order.watch(key, dispatcher)
            if key in entries:
                public[key] = dispatcher
            if key in copied:
                inlined_where_linked(_one_form(dispatcher))
            space[key] = dispatcher if key in copied else calling(key, order)
    order.compiling = linking
    if not kept:  # (a module not kept is compiled whole: nothing to wait for)
        linking()


class Namespace(types.SimpleNamespace):
    """A made module's functions: an internal function (not an entry point) is given to Python as a copy compiled
    apart with numba's wrapper (see the module's docstring), made when first asked for (a later process that loads
    a kept module makes none)."""

    def __init__(self, apart: dict[str, Any], compiling: Callable[[], None] | None = None, **functions: Any):
        super().__init__(**functions)
        self._apart, self._compiling = apart, compiling

    def __getattr__(self, name: str) -> Any:  # (only names not set: the functions compiled apart)
        apart = self.__dict__.get("_apart", {})
        if name not in apart:
            raise AttributeError(name)
        import numba

        if self._compiling is not None:
            self._compiling()
        copy = numba.njit(**NJIT)(apart.pop(name))
        setattr(self, name, copy)
        return copy


_unkept = itertools.count()  # (the names of modules not kept, for their functions' symbols)


def _one_form(dispatcher: Any) -> Any:
    """``dispatcher`` (numba's, of one function of the module) compiled once for the types of its arguments, whatever
    the constants a compiled caller passes: numba compiles a function again for every constant a caller passes as an
    argument (``grab(h, 52)``, ``advance(..., 0)``: its type is that constant), and the module's source passes many
    (``advance`` and ``enter``, which hold most of a game's code, were compiled twice). For a linked function's
    dispatcher: a function called by its symbol is compiled for its arguments' types without their constants
    already (symbols.calling). Only these dispatchers are changed: the process's other numba code is not."""
    from numba.core import types as numba_types

    typed = dispatcher.get_call_template

    def call_template(args: Any, kws: Any) -> Any:
        return typed(tuple(numba_types.unliteral(a) for a in args), kws)

    dispatcher.get_call_template = call_template
    return dispatcher


def is_kept(text: str) -> bool:
    """Whether a module of ``text`` is kept already (a run made it before: loading it takes under a second)."""
    root = cache_folder()
    return root is not None and os.path.exists(_path(root, text))


def _path(root: str, text: str) -> str:
    import numba

    digest = hashlib.sha256(f"{numba.__version__}\n{KEPT_FORM}\n{text}".encode()).hexdigest()[:24]
    return os.path.join(root, "compiled", f"{PREFIX}{digest}.py")


def _kept(text: str, form: Callable[[], str] | None = None) -> tuple[str, str] | None:
    """The file of ``text`` in the cache folder's ``compiled`` folder, named by ``text``, and what it holds: the form
    of ``text`` numba compiles (``form()``, made only when the file is new; default ``text``). It ends with the
    digest of the rest (its lines numbered as the form's): a file whose digest does not match (damaged, or of another
    version) is written again. None when there is no cache folder or it cannot be written. The oldest files go when
    there are more than MAX_FILES, with numba's files of them."""
    root = cache_folder()
    if root is None:
        return None
    path = _path(root, text)
    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                written, _, head = f.read().rpartition("\n")
            if head == _HEAD + _digest(written):
                return path, written
        written = text if form is None else form()
        write_bytes(path, (written + "\n" + _HEAD + _digest(written)).encode())
        _pruned(folder)
        with open(path, encoding="utf-8") as f:  # (as written: another run may have written it at the same time)
            if f.read() != written + "\n" + _HEAD + _digest(written):
                return None
    except (OSError, UnicodeDecodeError):
        return None
    return path, written


_HEAD = "# a module of the compiled backend; sha256 of the lines above: "


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _pruned(folder: str) -> None:
    """The oldest kept modules deleted when there are more than MAX_FILES, and numba's files of those gone."""
    prune(folder, PREFIX, MAX_FILES)
    kept = {n[:-3] for n in os.listdir(folder) if n.endswith(".py")}
    numba_files = os.path.join(folder, "__pycache__")
    if os.path.isdir(numba_files):
        for n in os.listdir(numba_files):
            if n.startswith(PREFIX) and n.split(".")[0] not in kept:
                with contextlib.suppress(OSError):
                    os.remove(os.path.join(numba_files, n))
