"""What an expression may name besides its own bound names: the game's constants, card and seat attributes,
round and game values, shared zones, and the rule file's defines."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.dsl import ast
from interpreter.dsl.types import Type
from interpreter.errors import Position

Locate = Callable[[int], Position | None]


class DefineBody:
    """A define's body checked for one kind of arguments (see resolve.py), and what emit.py made of it.

    A plain class, not a dataclass: every dataclass costs the start of every run half a millisecond.
    """

    __slots__ = ("part", "keys", "deps", "reads", "calls", "made")

    def __init__(self, part: Any, keys: tuple[str, ...], deps: frozenset[str], reads: list[tuple[bool, set[str]]],
                 calls: int):
        self.part = part  # the body (an ir.Part), its parameters read under ``keys``
        self.keys = keys  # the parameters' private names (``NAME.PARAM``)
        self.deps = deps  # what a call reads besides its arguments
        self.reads = reads  # per parameter: whether the card itself is read, and which of its attributes
        self.calls = calls  # define calls one call makes, at most
        self.made: Any = None  # emit.py: the generated function, its source when short and loopless, the callers


@dataclass
class Define:
    """A named helper from the rule file's ``define`` section."""

    name: str
    params: tuple[str, ...]
    text: str
    locate: Locate
    tree: ast.Node | None = None
    # per kind of arguments (card, seat, list, record, value): the body checked for them
    compiled: dict[tuple[Type, ...], DefineBody] = field(default_factory=dict)
    compiling: bool = False
    # per kind of arguments: [batch, values by arguments], shared by every call site (see codegen.define_caller)
    memos: dict[tuple[Type, ...], list[Any]] = field(default_factory=dict)


@dataclass
class Globals:
    """Everything an expression may name besides its own bound names."""

    constants: dict[str, tuple[Type, Any]] = field(default_factory=dict)
    card_attrs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    card_attr_types: dict[str, Type] = field(default_factory=dict)
    # name -> (type, getter(state, seat), fixed, source(state source, seat source, ref) -> the source that reads
    # it in generated code): fixed attributes never change, so they read no state
    seat_attrs: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    round_fields: dict[str, Type] = field(default_factory=dict)
    game_fields: dict[str, Type] = field(default_factory=dict)
    zones: dict[str, Type] = field(default_factory=dict)  # shared zones, read by name
    defines: dict[str, Define] = field(default_factory=dict)
    # where the value of a constant's field is written ("setup.hand" -> its position), and whether one file
    # extends another (derived(a, b)): a mistake of a value written by a file that extends the expression's file
    # is shown at the value (see Compiler.compile)
    places: dict[str, Position] = field(default_factory=dict)
    derived: Callable[[str, str], bool] = field(default=lambda a, b: False)
