"""Expression AST: frozen nodes that remember where they start in the text.

Plain classes with slots rather than dataclasses: a process that validates one file creates them once, and
eleven frozen dataclasses took 14 ms of every start.
"""

from __future__ import annotations

from typing import Any


class Node:
    """A node: its fields in order (``fields``), given positionally; equal when of one class with equal fields."""

    __slots__ = ("offset",)
    fields: tuple[str, ...] = ("offset",)  # 0-based character offset in the expression text, then the class's own
    offset: int

    def __init__(self, *values: Any) -> None:
        if len(values) != len(self.fields):
            raise TypeError(f"{type(self).__name__} takes {len(self.fields)} values, got {len(values)}")
        for name, value in zip(self.fields, values):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} nodes do not change")

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self.fields)

    def replace(self, **changes: Any) -> Node:
        """A copy with some fields changed."""
        return type(self)(*(changes.get(f, getattr(self, f)) for f in self.fields))

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.values() == other.values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self.fields)})"


class Const(Node):
    __slots__ = ("value",)
    fields = ("offset", "value")
    value: Any


class Name(Node):
    __slots__ = ("name",)
    fields = ("offset", "name")
    name: str


class Attribute(Node):
    __slots__ = ("base", "name", "name_offset")
    fields = ("offset", "base", "name", "name_offset")
    base: Node
    name: str
    name_offset: int


class Index(Node):
    __slots__ = ("base", "index")
    fields = ("offset", "base", "index")
    base: Node
    index: Node


class Call(Node):
    __slots__ = ("name", "args")
    fields = ("offset", "name", "args")
    name: str
    args: tuple[Node, ...]


class Comprehension(Node):
    """``[body for var in source if cond]`` or ``f(body for var in source if cond)``."""

    __slots__ = ("function", "body", "var", "source", "condition")
    fields = ("offset", "function", "body", "var", "source", "condition")
    function: str | None  # None for a list comprehension
    body: Node
    var: str
    source: Node
    condition: Node | None


class ListExpr(Node):
    __slots__ = ("items",)
    fields = ("offset", "items")
    items: tuple[Node, ...]


class Unary(Node):
    __slots__ = ("op", "operand")
    fields = ("offset", "op", "operand")
    op: str  # "not" or "-"
    operand: Node


class Binary(Node):
    __slots__ = ("op", "left", "right")
    fields = ("offset", "op", "left", "right")
    op: str  # + - * // % == != < <= > >= in "not in" and or
    left: Node
    right: Node


class Conditional(Node):
    __slots__ = ("then", "test", "otherwise")
    fields = ("offset", "then", "test", "otherwise")
    then: Node
    test: Node
    otherwise: Node
