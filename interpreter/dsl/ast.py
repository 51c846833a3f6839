"""Expression AST: frozen nodes that remember where they start in the text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Node:
    offset: int  # 0-based character offset in the expression text


@dataclass(frozen=True)
class Const(Node):
    value: Any


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attribute(Node):
    base: Node
    name: str
    name_offset: int


@dataclass(frozen=True)
class Index(Node):
    base: Node
    index: Node


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Comprehension(Node):
    """``[body for var in source if cond]`` or ``f(body for var in source if cond)``."""

    function: str | None  # None for a list comprehension
    body: Node
    var: str
    source: Node
    condition: Node | None


@dataclass(frozen=True)
class ListExpr(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "not" or "-"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * // % == != < <= > >= in "not in" and or
    left: Node
    right: Node


@dataclass(frozen=True)
class Conditional(Node):
    then: Node
    test: Node
    otherwise: Node
