"""LLVM IR made machine code in this process (llvmlite: LLVM's own code generator, no C compiler), kept as object
code on disk, and called from Python.

A module's entry, for the argument types Python passes, is written (module.py), optimized by LLVM (``OPT``), made
object code for this machine's processor and loaded; the object code is kept in a file named by the module's text,
the entry, the types and this machine's processor, so that a later process loads it and writes nothing. Every
entry shares one runtime state (``STATE``: the random stream's, as numpy's is one stream, and the error's slot),
which Python owns: an error a compiled function sets (a ``raise``, a division by zero) is raised by the call."""

from __future__ import annotations

import array
import ctypes
import functools
import hashlib
import json
import os
import struct
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from interpreter.cache import write_bytes
from interpreter.compiled.ir.calls import ERROR_AT
from interpreter.compiled.ir.module import STATE_SIZE, ModuleIR, parsed, small
from interpreter.compiled.ir.mt19937 import MT_WORDS
from interpreter.compiled.ir.types import BOOL, FLT, VOID, Arr, Tup, Type, kind_of

OPT = 2  # LLVM's optimization level (3: no faster here, longer to compile)
FORM = "ir-1"  # how the object code is written (in its files' names: changed with the writer)
STATE = np.zeros(STATE_SIZE, np.int64)  # the runtime state of every compiled module (see the module's docstring)
# (the random stream seeded from the system's entropy until a module seeds it, as numpy's and numba's are)
_drawn: Any = np.random.RandomState(int.from_bytes(os.urandom(4), "little")).get_state(legacy=True)
STATE[:MT_WORDS] = _drawn[1]
STATE[MT_WORDS] = MT_WORDS
_ERRORS: dict[str, type[Exception]] = {"MemoryError": MemoryError, "ZeroDivisionError": ZeroDivisionError}
_loaded: dict[str, int] = {}  # an entry's symbol -> its machine code's address (each object code loaded once)
_STATE_AT = STATE.ctypes.data
_SEEN: dict[int, tuple[Any, tuple[int, ...], list[int], int, Arr]] = {}  # arrays passed before, by id (``seen``)
_MOST_SEEN = 1024
_KINDS: dict[tuple[Any, ...], tuple[int, Arr]] = {}  # an array's type, and its number, by its items' type,
# dimensions and contiguity


@functools.cache
def _engine() -> tuple[Any, Any, Any]:
    """llvmlite's binding, the target machine for this processor, and the process's one execution engine."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    machine = target.create_target_machine(cpu=llvm.get_host_cpu_name(), opt=OPT, codemodel="jitdefault",
                                           features=llvm.get_host_cpu_features().flatten())
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
    return llvm, machine, engine


@functools.cache
def host() -> str:
    """This machine's processor and LLVM, as the object code depends on them (in the kept files' names)."""
    llvm, _, _ = _engine()
    import llvmlite

    return hashlib.sha256(f"{FORM} {llvmlite.__version__} {llvm.get_process_triple()} {llvm.get_host_cpu_name()} "
                          f"{llvm.get_host_cpu_features().flatten()}".encode()).hexdigest()[:12]


def object_code(ir: str) -> bytes:
    """``ir`` checked, optimized and made object code for this processor."""
    llvm, machine, _ = _engine()
    module = llvm.parse_assembly(ir)
    module.triple = llvm.get_process_triple()
    module.verify()
    builder = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=OPT))
    builder.getModulePassManager().run(module, builder)
    return bytes(machine.emit_object(module))


def load(code: bytes, symbol: str) -> int:
    """The address of ``symbol`` in ``code`` (object code) loaded into the process (once)."""
    if symbol not in _loaded:
        llvm, _, engine = _engine()
        engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        engine.finalize_object()
        _loaded[symbol] = engine.get_function_address(symbol)
    return _loaded[symbol]


class Native:
    """The functions of a module's text compiled on their first call, for the types of that call's arguments
    (``function(name)``); ``kept``: the kept module's path without its ending (its object code's files start so),
    or None to keep nothing."""

    def __init__(self, text: str, space: dict[str, Any], views: dict[str, tuple[int, ...]], kept: str | None):
        self.text, self.space, self.kept = text, space, kept
        self.views = {f"view_{k}": tuple(int(d) for d in v) for k, v in views.items()}
        self.digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        self._defs: dict[str, Any] | None = None
        self._inlined: frozenset[str] = frozenset()  # (module.small of the functions: worked out with them, once)
        self._forms: dict[tuple[Any, ...], tuple[Callable[..., None], Type, list[tuple[str, str]], int]] = {}

    @property
    def defs(self) -> dict[str, Any]:
        if self._defs is None:
            self._defs = parsed(self.text)
            self._inlined = small(self._defs)
        return self._defs

    def function(self, name: str) -> Callable[..., Any]:
        return functools.partial(self.call, name)

    def call(self, name: str, *args: Any) -> Any:
        words: list[int] = []
        key: list[Any] = [name]
        for a in args:
            if type(a) is np.ndarray:
                found = seen(a)
                words += found[2]
                key.append(found[3])
            elif isinstance(a, (float, np.floating)):
                words.append(struct.unpack("<q", struct.pack("<d", float(a)))[0])
                key.append(-1)
            else:
                words.append(int(a))
                key.append(0)
        form = self._forms.get(tuple(key))
        if form is None:
            form = self._forms[tuple(key)] = self._made(name, tuple(kind_of(a) for a in args))
        run, result, errors, room = form
        if len(words) < room:
            words += [0] * (room - len(words))
        packed = array.array("q", words)
        STATE[ERROR_AT] = 0
        run(packed.buffer_info()[0], _STATE_AT)
        if STATE[ERROR_AT]:
            code = int(STATE[ERROR_AT])
            STATE[ERROR_AT] = 0
            kind, message = errors[code - 1]
            raise _ERRORS.get(kind, RuntimeError)(message)
        return _unpacked(packed, result)

    def _made(self, name: str, kinds: tuple[Type, ...]
              ) -> tuple[Callable[..., None], Type, list[tuple[str, str]], int]:
        signature = hashlib.sha256(repr(kinds).encode()).hexdigest()[:12]
        symbol = f"e.{self.digest}.{name}.{signature}"
        path = None if self.kept is None else f"{self.kept}.{name}.{signature}.{host()}.o"
        found = _read(path)
        if found is None:
            defs = self.defs  # (parsed, and the functions to inline worked out, once)
            ir = ModuleIR(defs, self.space, self.views, self._inlined)
            entry = ir.function(name, kinds)
            assert entry.result is not None  # (worked out when written)
            code, result, errors = object_code(ir.text(entry, symbol)), entry.result, ir.errors
            if path is not None:  # (what Python needs to call it, then the object code)
                said = json.dumps({"result": _said(result), "errors": errors,
                                   "code": hashlib.sha256(code).hexdigest()}).encode()
                write_bytes(path, len(said).to_bytes(4, "little") + said + code)
        else:
            result, errors, code = found
        address = load(code, symbol)
        room = len(result.items) if isinstance(result, Tup) else 1  # (the words the results are written into)
        # (called holding Python's lock, as numba's code was: two threads never run compiled code at once, which
        # shares the random stream and may share a game's arrays)
        return ctypes.PYFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)(address), result, errors, room


def _read(path: str | None) -> tuple[Type, list[tuple[str, str]], bytes] | None:
    """A kept entry: its result's type, its errors and its object code (None where missing or damaged: its object
    code's digest is kept with it)."""
    if path is None or not os.path.exists(path):
        return None
    try:
        with open(path, "rb") as f:
            data = f.read()
        size = int.from_bytes(data[:4], "little")
        said, code = json.loads(data[4:4 + size]), data[4 + size:]
        if said["code"] != hashlib.sha256(code).hexdigest():  # (cut short, or changed: never given to LLVM)
            return None
        return _type(said["result"]), [(str(e[0]), str(e[1])) for e in said["errors"]], code
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _said(t: Type) -> Any:
    return {"items": [_said(x) for x in t.items]} if isinstance(t, Tup) else t


def _type(said: Any) -> Type:
    return Tup(tuple(_type(x) for x in said["items"])) if isinstance(said, dict) else str(said)


def seen(a: np.ndarray) -> tuple[Any, tuple[int, ...], list[int], int, Arr]:
    """An array's words (its data's address, then its sizes), its type's number (its place in ``_KINDS``: a form of
    a function is found by its arguments' numbers, quickly hashed) and its type, worked out the first time it is passed
    and found again by its id (a weak reference to it, and its shape, tell that the id is still its own): a search or
    a vector environment passes the same few dozen arrays at every call, and reading an array's address from Python
    costs about a microsecond."""
    found = _SEEN.get(id(a))
    if found is not None and found[0]() is a and found[1] == a.shape:
        return found
    key = (a.dtype.char, a.ndim, a.flags.c_contiguous)
    if key not in _KINDS:
        kind = kind_of(a)  # (checks its items' type and that it is contiguous)
        assert isinstance(kind, Arr)
        _KINDS[key] = (len(_KINDS) + 1, kind)
    code, kind = _KINDS[key]
    try:
        at = ctypes.addressof(ctypes.c_char.from_buffer(a))  # type: ignore[arg-type]  # (a third of the interface's time)
    except (TypeError, ValueError):  # (read only, or empty)
        at = a.__array_interface__["data"][0]
    if len(_SEEN) >= _MOST_SEEN:
        _SEEN.clear()
    found = _SEEN[id(a)] = (weakref.ref(a), a.shape, [at, *a.shape], code, kind)
    return found


def _unpacked(words: array.array, result: Type) -> Any:
    if result == VOID:
        return None
    items = result.items if isinstance(result, Tup) else (result,)
    out: list[Any] = []
    for k, t in enumerate(items):
        x = int(words[k])
        out.append(struct.unpack("<d", struct.pack("<q", x))[0] if t == FLT else bool(x) if t == BOOL else x)
    return tuple(out) if isinstance(result, Tup) else out[0]

