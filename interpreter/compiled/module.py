"""The compiled backend's code of a game, made a module: the written expressions and step templates joined into one
source, run as plain Python (for the tests, and where the compiled backend is missing) or compiled: the engine
writes each function as LLVM IR itself and LLVM makes it machine code (interpreter/compiled/ir), each function on
its first call, for the types of the arguments Python passes (``ir.jit.Native``).

Compiled, the source is first changed to pass the game's arrays by their address (pointers.py): that form is what
the kept file holds and the IR writer reads. The kept file, in the user's cache folder, is named by the module's
text; the object code of each function Python called is kept beside it, so a later run of the same game, player
count and options loads that instead of compiling again.

The constants (tables of card attributes, lists written in the rule, the records' fields) are arrays in the
module's text: the compiled code holds them as constants.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import types
from collections.abc import Callable, Iterable, Mapping
from importlib.util import MAGIC_NUMBER
from typing import Any

from interpreter.cache import MAX_FILES, cache_folder, prune, write_bytes
from interpreter.compiled.lower import Lowered, with_defines
from interpreter.compiled.pointers import by_address, python_forms
from interpreter.compiled.steps import CHANCE, DECIDES, DONE
from interpreter.compiled.values import INTERNED, NONE, Values
from interpreter.dsl.codegen import run_block

PREFIX = "trickbook_compiled_"  # the kept modules' names (and their files')
KEPT_FORM = "ir-1"  # how a kept module is written and compiled (in its name; changed with pointers.py and ir/)
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


def support() -> dict[str, Any]:
    """The prelude's functions (``truth``, ``grab``, ``seed``) as plain Python, for running one written expression on
    its own (the tests; compiled, a module made of the expression holds them: ``made``)."""
    import numpy as np

    space: dict[str, Any] = {"np": np, "NONE": NONE, "__builtins__": _BUILTINS}
    run_block(PRELUDE, space)
    del space["__builtins__"]
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
         shapes: Mapping[str, tuple[int, ...]] | None = None, text: str | None = None) -> types.SimpleNamespace:
    """The module of ``source`` (``module_text``): every function plain Python, or compiled when ``compiled``
    (interpreter/compiled/ir). Compiled, the text is kept as a file in the user's cache folder (interpreter/cache.py),
    named by its digest, the object code of each function called from Python beside it: a later run of the same
    game, player count and options loads that instead of compiling again. ``shapes``: the arrays' shapes, by their
    parameters' names, where compiled functions pass them by their address (pointers.py); ``text``:
    ``module_text`` of the same, when the caller has it already."""
    import numpy as np

    text = module_text(source, expressions, values) if text is None else text
    space: dict[str, Any] = {"np": np, "NONE": NONE, "INTERNED": INTERNED, "DONE": DONE, "DECIDES": DECIDES,
                             "CHANCE": CHANCE, "__builtins__": _BUILTINS}
    if not compiled:
        run_block(text, space)  # the engine's own source, written from checked parts (never rule text)
        return types.SimpleNamespace(**{k: v for k, v in space.items() if not k.startswith("__")})
    from interpreter.compiled.ir.jit import Native

    form = functools.partial(by_address, text, shapes) if shapes else None  # (Python work: not where it is kept)
    found = _kept(text, form)
    kept: str | None = None
    if found is None:
        written = text if form is None else form()
        run_block(written, space)  # (its constants: the tables the compiled code holds)
    else:
        path, written = found
        name = os.path.splitext(os.path.basename(path))[0]
        code = os.path.join(os.path.dirname(path), "__pycache__", f"{name}.{MAGIC_NUMBER.hex()}.code")
        run_block(written, space, filename=path, kept=code)
        kept = path[:-len(".py")]
    native = Native(written, space, dict(shapes or {}), kept)
    functions = {k: native.function(k) for k, v in space.items() if isinstance(v, types.FunctionType)}
    namespace = types.SimpleNamespace(**{**{k: v for k, v in space.items() if not k.startswith("__")}, **functions})
    if form is not None:
        for name, function in python_forms(written, shapes or {}, functools.partial(getattr, namespace)).items():
            setattr(namespace, name, function)
    return namespace


def is_kept(text: str) -> bool:
    """Whether a module of ``text`` is kept already (a run made it before: loading it takes under a second)."""
    root = cache_folder()
    return root is not None and os.path.exists(_path(root, text))


def _path(root: str, text: str) -> str:
    digest = hashlib.sha256(f"{KEPT_FORM}\n{text}".encode()).hexdigest()[:24]
    return os.path.join(root, "compiled", f"{PREFIX}{digest}.py")


def _kept(text: str, form: Callable[[], str] | None = None) -> tuple[str, str] | None:
    """The file of ``text`` in the cache folder's ``compiled`` folder, named by ``text``, and what it holds: the form
    of ``text`` that is compiled (``form()``, made only when the file is new; default ``text``). It ends with the
    digest of the rest (its lines numbered as the form's): a file whose digest does not match (damaged, or of another
    version) is written again. None when there is no cache folder or it cannot be written. The oldest files go when
    there are more than MAX_FILES, with their object code (``_pruned``)."""
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
    """The oldest kept modules deleted when there are more than MAX_FILES, with their object code and code objects."""
    prune(folder, PREFIX, MAX_FILES, ".py")
    kept = {n[:-3] for n in os.listdir(folder) if n.endswith(".py")}
    for beside in (folder, os.path.join(folder, "__pycache__")):
        if os.path.isdir(beside):
            for n in os.listdir(beside):
                if n.startswith(PREFIX) and not n.endswith(".py") and n.split(".")[0] not in kept:
                    with contextlib.suppress(OSError):
                        os.remove(os.path.join(beside, n))
