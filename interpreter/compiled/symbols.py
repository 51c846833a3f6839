"""Compiled functions calling each other by a symbol: each function's code made once.

numba compiles each function into a library of its own and, for a call, links a copy of the callee's library (with
all it links in turn) into the caller's, to optimize and make machine code of the whole again (linking.py). A
function not linked is called through ``calling``: a numba intrinsic that compiles the callee for the types of its
arguments, as numba would, gives the address of its machine code to a symbol of its own (``llvmlite``'s
``add_symbol``: the module, the function and its argument types), and writes in the caller a call of that symbol
(numba's calling convention: an exception the callee raises goes on up). The loader finds the symbol when it makes
the caller's machine code.

A kept module's machine code (numba's cache) holds those symbols, to be found again when a later process loads it:
every symbol a function calls must have its address before that function is loaded, else the loader does not find
it (a crash, not an error). So each function called by its symbol is written down as it is compiled (``Order``: a
line appended to a file beside numba's, before any caller of it is compiled, let alone kept), and before a process
loads any function of the module from numba's cache it compiles, that is loads, every function written down, in
that order (``Order.ready``; re-read at each load: another process may have kept more since). Without that file
nothing kept is loaded: numba's files of the module are deleted and everything compiled again.
"""

from __future__ import annotations

import base64
import contextlib
import os
import pickle
from collections.abc import Callable
from typing import Any

from interpreter.dsl.codegen import run_block


class Order:
    """The functions of one module called by their symbol, in the order they were compiled: the file ``path``
    (beside numba's files of the module, ``folder``), or None where the module is not kept."""

    def __init__(self, module: str, folder: str | None):
        self.module = module
        self.folder = folder
        self.path = None if folder is None else os.path.join(folder, f"{module}.order")
        self.dispatchers: dict[str, Any] = {}
        self.done: set[tuple[str, Any]] = set()
        self.fresh = False  # nothing kept is loaded (the file was missing, or could not be written)
        self.unwritable = False  # nothing is kept (the file could not be written)
        self._loading = False
        self._read_to = 0  # how much of the file was read
        self.compiling: Callable[[], None] | None = None  # done before a function of the module compiles (not loads)

    def symbol(self, name: str, argtypes: tuple[Any, ...]) -> str:
        from numba.core.itanium_mangler import mangle_args

        return f"trickbook.{self.module}.{name}.{mangle_args(argtypes)}"

    def compiled(self, name: str, argtypes: tuple[Any, ...], written: bool = False) -> Any:
        """The function ``name`` compiled (or loaded) for ``argtypes``, its symbol given its address, and written
        down (unless ``written`` already)."""
        import llvmlite.binding as llvm

        dispatcher = self.dispatchers[name]
        dispatcher.compile(argtypes)
        result = dispatcher.overloads[argtypes]
        if (name, argtypes) not in self.done:
            self.done.add((name, argtypes))
            llvm.add_symbol(self.symbol(name, argtypes),
                            result.library.get_pointer_to_function(result.fndesc.mangled_name))
            if not written:
                self._write(name, argtypes)
        return result

    def _write(self, name: str, argtypes: tuple[Any, ...]) -> None:
        if self.path is None or self.unwritable:
            return
        line = f"{name} {base64.b64encode(pickle.dumps(argtypes)).decode()}\n"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(self.path, "a", encoding="ascii") as f:  # (one short write: runs may append at once)
                f.write(line)
        except OSError:
            self.unwritable = self.fresh = True  # (nothing of the module kept or loaded from now on)

    def ready(self) -> bool:
        """Whether a function of the module may be loaded from numba's cache: every function written down loaded
        first (their symbols given). False, and numba's files of the module deleted, when the file is missing."""
        if self.fresh or self._loading:
            return not self.fresh
        entries = self._read()
        if entries is None:
            self.fresh = True
            self._forget()
            return False
        self._loading = True
        try:
            for name, argtypes in entries:
                if (name, argtypes) not in self.done and name in self.dispatchers:
                    self.compiled(name, argtypes, written=True)
        finally:
            self._loading = False
        return not self.fresh

    def _read(self) -> list[tuple[str, Any]] | None:
        """The lines written since the last read (whole lines only: another run may be writing one), None when the
        file is missing or a line cannot be read."""
        try:
            with open(self.path or "", "rb") as f:
                f.seek(self._read_to)
                data = f.read()
        except OSError:
            return None
        whole = data[:data.rfind(b"\n") + 1]
        entries = []
        for line in whole.decode("ascii", "replace").splitlines():
            name, _, text = line.partition(" ")
            try:
                entries.append((name, pickle.loads(base64.b64decode(text, validate=True))))
            except Exception:  # (unpickling other bytes raises many kinds)
                return None
        self._read_to += len(whole)
        return entries

    def _forget(self) -> None:
        """numba's files of the module deleted (they may call symbols no file says how to give)."""
        with contextlib.suppress(OSError):
            for n in os.listdir(self.folder or ""):
                if n.startswith(f"{self.module}.") and n.endswith((".nbi", ".nbc")):
                    os.remove(os.path.join(self.folder or "", n))

    def watch(self, name: str, dispatcher: Any) -> None:
        """``dispatcher`` (of the function ``name``) loads from numba's cache only when ``ready``, and keeps nothing
        once the file could not be written. A load does not refresh numba's contexts first, as numba's own does:
        that imports and registers all numba knows how to compile (0.15-0.3 s of a later process), which loading
        machine code does not use; a function compiled refreshes them itself (numba's compiler does, first)."""
        self.dispatchers[name] = dispatcher
        cache = getattr(dispatcher, "_cache", None)
        if self.path is None or cache is None or not hasattr(cache, "load_overload"):
            return
        save = cache.save_overload
        load = getattr(cache, "_load_overload", None)
        guarded = getattr(cache, "_guard_against_spurious_io_errors", None)
        if load is None or guarded is None:  # (another numba: its own load, which refreshes first)
            load, guarded = cache.load_overload, contextlib.nullcontext

        def load_overload(sig: Any, target_context: Any) -> Any:
            if self.ready():
                with guarded():  # (None where it swallowed an error reading the files)
                    found = load(sig, target_context)
                    if found is not None:
                        return found
            if self.compiling is not None:  # (numba compiles it next)
                self.compiling()
            return None

        def save_overload(sig: Any, data: Any) -> None:
            if not self.unwritable:
                save(sig, data)

        cache.load_overload, cache.save_overload = load_overload, save_overload


def calling(name: str, order: Order) -> Callable[..., Any]:
    """An intrinsic calling the function ``name`` of ``order``'s module (compiled for its arguments' types) by its
    symbol."""
    from numba.core import cgutils, types
    from numba.extending import intrinsic

    def typer(typingctx: Any, args: tuple[Any, ...]) -> Any:
        argtypes = tuple(types.unliteral(a) for a in args)
        signature = order.compiled(name, argtypes).signature.return_type(*argtypes)
        symbol = order.symbol(name, argtypes)

        def codegen(context: Any, builder: Any, sig: Any, values: Any) -> Any:
            kind = context.call_conv.get_function_type(signature.return_type, signature.args)
            callee = cgutils.get_or_insert_function(builder.module, kind, symbol)
            status, value = context.call_conv.call_function(builder, callee, signature.return_type, signature.args,
                                                            values)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return value

        return signature, codegen

    count = order.dispatchers[name].py_func.__code__.co_argcount
    params = ", ".join(f"a{i}" for i in range(count))
    written = f"def {name}(typingctx, {params}):\n    return typer(typingctx, ({params}{',' if count == 1 else ''}))\n"
    # (an intrinsic takes its function's parameters, one each: written for this one's number)
    return intrinsic(run_block(written, {"typer": typer})[name])
