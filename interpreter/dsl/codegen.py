"""Python source for compiled expressions: one plain function per expression.

The compiler (see compiler.py) checks names and types and builds, for every
part of an expression, both a closure and a piece of Python source. The source
is made only from the checked tree: names the grammar allows (identifiers),
constants written with ``repr`` or held in the namespace, and helpers of the
engine referred to by generated names. Rule text is never pasted in, so a rule
file cannot put Python of its own into the generated code, and the functions
run with no builtins at all.

Comprehension variables and define parameters become Python locals; a part
that only a closure can evaluate (it reads the environment) is called through
its closure, unless it reads such a local, in which case the enclosing
comprehension or define stays a closure too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.dsl.budget import charge


def charged(items: Any) -> Any:
    """A comprehension's source, counted against the evaluation budget."""
    charge(len(items))
    return items


class Namespace:
    """The globals of the generated functions of one compiled game: helpers and constants by generated name."""

    def __init__(self) -> None:
        self.ns: dict[str, Any] = {"__builtins__": {}}
        self._names: dict[int, str] = {}
        self.made = 0  # functions generated, for measurements

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
        expression nested past what Python's own parser takes: the closures evaluate it instead)."""
        for p in params:
            if not p.isidentifier():  # pragma: no cover - locals are made from grammar names
                raise ValueError(f"not a Python name: {p!r}")
        self.made += 1
        try:
            code = compile(f"lambda {', '.join(('e',) + params)}: {src}", "<trickbook>", "eval")
        except (SyntaxError, RecursionError, MemoryError):
            return None
        return eval(code, self.ns)


def local_name(name: str) -> str:
    """The Python local standing for a comprehension variable or define parameter (``total.s`` -> ``_v_total_s``)."""
    out = "_v_" + name.replace(".", "_")
    if not out.isidentifier():  # pragma: no cover - names come from the grammar's NAME
        raise ValueError(f"not a name: {name!r}")
    return out


def define_caller(body: Callable[..., Any], memo: list[Any]) -> Callable[..., Any]:
    """Call a generated define body; within one batch the same arguments give the remembered value."""

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
