"""Python source for compiled expressions: one plain function per expression.

The compiler (see compiler.py) checks names and types and writes, for every
part of an expression, a piece of Python source (emit.py): the one way an
expression is evaluated. The source is made only from the checked tree: names
the grammar allows (identifiers), constants written with ``repr`` or held in the
namespace, and helpers of the engine referred to by generated names. Rule text
is never pasted in, so a rule file cannot put Python of its own into the
generated code, and the functions run with no builtins at all.

Comprehension variables and define parameters become Python locals, named by
local_name so that two names of a rule file are never one local.

The compiled code objects are kept in the user's own cache folder (see
interpreter/cache.py), trusted the way Python trusts its bytecode caches.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import os
import re
from collections.abc import Callable
from types import CodeType
from typing import Any

from interpreter.cache import cache_folder, prune, write_bytes
from interpreter.dsl.budget import charge, left


def charged(items: Any, _left: list[int] = left) -> Any:
    """A comprehension's source, counted against the evaluation budget (``charge``, written out: it runs for every
    loop of every expression)."""
    _left[0] -= len(items)
    if _left[0] < 0:
        charge(0)  # says what ran out
    return items


def charged_one(value: Any, _left: list[int] = left) -> Any:
    """``value``, the one item of a ``let`` (``let x = value in body``): charged as ``charged`` charges the list of
    that one item that the parser makes of it."""
    _left[0] -= 1
    if _left[0] < 0:
        charge(0)  # says what ran out
    return value


def charged_nested(outer: Any, inner: Any, _left: list[int] = left) -> Any:
    """``outer``, the source of a comprehension whose second ``for`` goes through ``inner`` (a list, the same for every
    item of ``outer``) for each of its items: both charged at once, what ``charged`` charges for ``outer`` and then for
    ``inner`` once per item of ``outer`` (the expression has no other effect, so the outcome is the same)."""
    items = len(outer)
    if items:
        items += items * len(inner)
    _left[0] -= items
    if _left[0] < 0:
        charge(0)  # says what ran out
    return outer


class Namespace:
    """The globals of the generated functions of one compiled game: helpers and constants by generated name.

    ``key`` names the compiled game (the rule file's identity, the player count, the options): the code
    objects of its functions are kept in the user's cache folder under that key (a marshal file per game
    and Python version, like Python's own bytecode caches; each code object found by its source text), so
    a later run compiles only what it has not compiled before. None: nothing is kept.
    """

    def __init__(self, key: str | None = None) -> None:
        self.ns: dict[str, Any] = {"__builtins__": {}}
        self._names: dict[int, str] = {}
        self._key = key
        self._codes: dict[str, CodeType] | None = None  # source text -> code object, read when first needed
        self._new = 0  # code objects compiled in this run
        self._used: set[str] = set()  # the sources this run made functions of (what the file keeps)
        self._path: str | None = None

    def ref(self, obj: Any) -> str:
        """The name ``obj`` has in the generated code (the namespace keeps it alive)."""
        name = self._names.get(id(obj))
        if name is None:
            name = self._names[id(obj)] = f"_k{len(self._names)}"
            self.ns[name] = obj
        return name

    def literal(self, value: Any) -> str:
        if value is None or type(value) in (bool, int):
            return repr(value)
        if type(value) is str and len(value) <= 200:
            return repr(value)
        return self.ref(value)

    def function(self, params: tuple[str, ...], src: str) -> Callable[..., Any] | None:
        """``lambda e, *params: src`` made in this namespace; None when Python cannot compile it (an
        expression nested past what Python's own parser takes: emit.py makes it again in shallower parts)."""
        for p in params:
            if not p.isidentifier():  # pragma: no cover - locals are made from grammar names
                raise ValueError(f"not a Python name: {p!r}")
        text = f"lambda {', '.join(('e',) + params)}: {src}"
        self._used.add(text)
        codes = self._kept()
        code = codes.get(text)
        if code is None:
            try:
                code = compile(text, "<trickbook>", "eval")
            except (SyntaxError, RecursionError, MemoryError):
                return None
            codes[text] = code
            self._new += 1
        return eval(code, self.ns)

    def code(self, src: str) -> CodeType:
        """The code object of ``src``, a block of statements the engine wrote (a step's functions, see
        engine/steps/trick_code.py), kept with the expressions' code."""
        self._used.add(src)
        codes = self._kept()
        code = codes.get(src)
        if code is None:
            code = codes[src] = compile(src, "<trickbook>", "exec")
            self._new += 1
        return code

    def _kept(self) -> dict[str, CodeType]:
        codes = self._codes
        if codes is None:
            codes = self._codes = {}
            folder = None if self._key is None else cache_folder()
            if folder is not None:
                digest = hashlib.sha256(str(self._key).encode()).hexdigest()[:20]
                self._path = os.path.join(folder, f"code-{importlib.util.MAGIC_NUMBER.hex()}-{digest}.marshal")
                try:
                    with open(self._path, "rb") as f:
                        data = marshal.loads(f.read())
                    if isinstance(data, dict) and all(type(k) is str and type(v) is CodeType for k, v in data.items()):
                        codes.update(data)
                except (OSError, ValueError, EOFError, TypeError):
                    pass
        return codes

    def save(self) -> None:
        """Write the code of this run's functions when it compiled any (a changed compiler's old sources are
        left out). Called once the game is compiled: nothing keeps the namespace alive after its game."""
        if self._path is not None and self._codes and self._new:
            write_bytes(self._path, marshal.dumps({t: c for t, c in self._codes.items() if t in self._used}))
            prune(os.path.dirname(self._path), "code-")  # one file per compiled game: the latest few kept


def run_block(src: str, namespace: dict[str, Any], gen: Namespace | None = None,
              filename: str = "<trickbook>", kept: str | None = None) -> dict[str, Any]:
    """Run ``src``, a block of statements the engine wrote (a step's functions, see engine/steps/trick_code.py),
    in ``namespace`` (what it refers to, and its builtins); give the namespace, holding what it defined.
    ``gen``: where its code object is kept (with the game's expressions); ``filename``: the file it is read from,
    when it is one (a compiled module kept on disk: tracebacks name it); ``kept``: a file its code
    object is kept in, named for ``src`` by the caller (a compiled module's: a large module's compile is a tenth
    of a second of every later run)."""
    code = gen.code(src) if gen is not None else None if kept is None else _kept_code(kept, filename)
    if code is None:
        code = compile(src, filename, "exec")
        if kept is not None:
            with contextlib.suppress(OSError):
                os.makedirs(os.path.dirname(kept), exist_ok=True)
            write_bytes(kept, marshal.dumps(code))
    eval(code, namespace)  # a code object of statements: runs them
    return namespace


def _kept_code(path: str, filename: str) -> CodeType | None:
    """The code object kept in ``path`` (``run_block``), when it is one of ``filename``'s for this Python."""
    try:
        with open(path, "rb") as f:
            code = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if type(code) is CodeType and code.co_filename == filename else None


def local_name(name: str) -> str:
    """The Python local standing for a comprehension variable, a define parameter (``NAME.PARAM``) or the item of
    a judged expression: ``_v_`` and the name with ``_`` written ``__`` and ``.`` written ``_0``, so that two names
    are never one local (``f.x`` -> ``_v_f_0x``, ``f_x`` -> ``_v_f__x``).

    Every other name of the generated code is none of these, as none starts with ``_v_``: ``e`` (the
    environment), ``_k0``, ``_k1``... (helpers and constants, see Namespace.ref), ``_hs`` (lifted parts),
    ``_items``, ``_t`` and ``_k`` (parameters of the engine's own functions). Rule text reaches the code only
    through this function and as Python literals (``repr``), never as a name of its own.
    """
    out = "_v_" + name.replace("_", "__").replace(".", "_0")
    if not out.isidentifier() or not name or not _RULE_NAME.fullmatch(name):  # pragma: no cover - grammar names
        raise ValueError(f"not a name: {name!r}")
    return out


_RULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?")


def define_caller(body: Callable[..., Any], memo: list[Any], arguments: int) -> Callable[..., Any]:
    """Call a define's body ``body(e, *arguments)``; within one batch the same arguments give the remembered
    value (the memo is shared by every call site). A define of one parameter remembers its values by the argument
    itself (every call of it has one)."""

    if arguments == 1:
        def call1(e: dict[str, Any], value: Any) -> Any:
            batch = e.get("$batch")
            if batch is None:
                return body(e, value)
            if memo[0] is not batch:
                memo[0], memo[1] = batch, {}
            try:
                return memo[1][value]
            except KeyError:
                made = memo[1][value] = body(e, value)
                return made
            except TypeError:  # a list argument: not remembered
                return body(e, value)

        return call1

    def call(e: dict[str, Any], *values: Any) -> Any:
        batch = e.get("$batch")
        if batch is None:
            return body(e, *values)
        if memo[0] is not batch:
            memo[0], memo[1] = batch, {}
        try:
            return memo[1][values]
        except KeyError:
            value = memo[1][values] = body(e, *values)
            return value
        except TypeError:  # a list argument: not remembered
            return body(e, *values)

    return call
