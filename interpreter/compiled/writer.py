"""The statements of one function the compiled backend writes (lower.py): how they are written (a line, a block,
a new local, a constant table), the rule names in scope, and a part made a source: one value, a list (an array and
its count), or a truth; the ops themselves are parts.py's and calls.py's (an item found in a list, ``found``, is
written here for both)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from interpreter.compiled.arrays import ArrayLayout
from interpreter.compiled.values import NotWritten, Values
from interpreter.dsl.ir import Part
from interpreter.dsl.types import Type
from interpreter.runtime.layout import COUNTER, SEAT, TEAM, TOTAL

PARAMS = ("z", "zn", "v", "l", "ln", "h")  # the arrays every written function takes first (arrays.Arrays)
Listed = tuple[str, str]  # a list: the source of its array, the source of how many items count


@dataclass
class Scope:
    """The lines written so far, and the depth of the block being written."""

    lines: list[str] = field(default_factory=list)
    depth: int = 1

_MAX_INLINE = 24  # defines written in place inside one another, at most (a define never calls itself)


class Writer:
    """The statements of one function being written (see lower.py), and how a part becomes a source: by its op's
    entry in ``scalars`` (a part that is one value) or ``lists`` (a part that is a list), parts.py's tables; a define
    called by the function of its body, which ``defines`` gives (lower.Lowerer.defined: the function, and the sources
    of the call's arguments)."""

    def __init__(self, lay: ArrayLayout, values: Values, fresh: Callable[[str], str], scalars: dict[str, Any],
                 lists: dict[str, Any], defines: Callable[[Writer, Part], tuple[Any, list[str]]]):
        self.lay, self.values, self.fresh = lay, values, fresh
        self.scalars, self.lists, self.defines = scalars, lists, defines
        self.scope = Scope()
        self.locals: dict[str, Any] = {}  # a rule name -> its scalar source, or its (array, count) sources
        self.constants: dict[str, Any] = {}
        self.fields: set[str] = set()
        self.lists_read = False  # whether it reads interned lists' items (``interned_list``)
        self.ranks_read = False  # whether it orders texts (by their ranks, ``TX_RANK``: values.text_ranks)
        self.interned = False  # whether the lists it makes by ``combinations`` are interned already (lower.py)
        self.places: dict[str, str | None] = {}  # a list taken from the scratch space -> the local of its place
        self.called: dict[str, Any] = {}  # the defines' functions it calls, by name (lower.Lowered)
        self.takes = False  # whether it takes room in the scratch space that it does not give back itself
        self._consts: dict[tuple[Any, ...], str] = {}
        self._inlined = 0

    def emit(self, line: str) -> None:
        self.scope.lines.append("    " * self.scope.depth + line)

    @contextmanager
    def block(self, head: str) -> Iterator[None]:
        self.emit(head)
        self.scope.depth += 1
        try:
            yield
        finally:
            self.scope.depth -= 1

    def temp(self, src: str, stem: str = "t") -> str:
        """``src`` worked out once, into a new local."""
        if src.isidentifier() or src.lstrip("-").isdigit():
            return src
        name = self.fresh(stem)
        self.emit(f"{name} = {src}")
        return name

    def constant(self, items: list[int], stem: str) -> str:
        key = (stem, *items)
        found = self._consts.get(key)
        if found is None:
            found = self._consts[key] = self.fresh(stem)
            self.constants[found] = items
        return found

    @contextmanager
    def bound(self, names: dict[str, Any]) -> Iterator[None]:
        """Rule names bound to sources while the parts inside are written (a comprehension's variable, a define's
        parameters, a let)."""
        had = {n: self.locals.get(n) for n in names}
        self.locals.update(names)
        try:
            yield
        finally:
            for n, v in had.items():
                if v is None:
                    self.locals.pop(n, None)
                else:
                    self.locals[n] = v

    def scalar(self, part: Part) -> str:
        """The source of a part that is one value (its statements written before)."""
        if part.type.kind == "list":
            raise NotWritten("a list where one value is needed")
        if part.const:
            return str(self.encoded(part.value, part.type))
        made = self.scalars.get(part.op)
        if made is None:
            raise NotWritten(f"the part {part.op!r}")
        src: str = made(self, part)
        return src

    def listed(self, part: Part) -> Listed:
        """The sources of a part that is a list: its array and how many of its items count."""
        if part.type.kind != "list" and not (part.const and isinstance(part.value, (list, tuple))):
            raise NotWritten("one value where a list is needed")
        if part.const:
            items = [self.encoded(x, part.type.element) for x in part.value]
            return self.constant(items or [0], "K"), str(len(items))
        made = self.lists.get(part.op)
        if made is None:
            raise NotWritten(f"the list part {part.op!r}")
        found: Listed = made(self, part)
        return found

    def truth(self, part: Part) -> str:
        """A source that is true when ``part`` is (Python's truth: not none, not 0, not an empty list)."""
        if part.type.kind == "list":
            return f"({self.listed(part)[1]} > 0)"
        x = self.temp(self.scalar(part))
        if part.sure and part.type.plain == "truth":
            return f"({x} != 0)"
        return f"({x} != 0 and {x} != NONE)"

    def encoded(self, value: Any, type_: Type | None) -> int:
        if isinstance(value, (list, tuple)):
            raise NotWritten("a list where one value is needed")
        return encode_constant(self.lay, self.values, value, type_)

    def value_index(self, where: str, name: str) -> int:
        try:
            found = self.lay.value(where, name)
        except (KeyError, ValueError):
            raise NotWritten(f"the {where} value {name!r}") from None
        if self.lay.layout.value_slot(where, name) in self.lay.made:
            raise NotWritten(f"the {where} value {name!r}, a text made in play (held as only that there is one)")
        return found

    def seat_base(self, name: str, stateful: bool) -> int | tuple[str, int]:
        """Where seat 0's ``name`` is: its index in v, or ("z", row) / ("l", row) for a list."""
        lay = self.lay.layout
        if not stateful:
            raise NotWritten(f"the seat attribute {name!r}")
        if (name, 0) in lay.zones:
            return ("z", lay.zone_slot(name, 0))
        for part in (SEAT, COUNTER):
            if (part, name, 0) in lay.values:
                slot = lay.value_slot(part, name, 0)
                row = self.lay.list_row[slot]
                if row is not None:
                    return ("l", row)
                index = self.lay.value_index[slot]
                if index is None or slot in self.lay.made:
                    raise NotWritten(f"the seat value {name!r}")
                return index
        if name == "total":
            return self.lay.value(TOTAL, "", 0)
        raise NotWritten(f"the seat attribute {name!r}")

    def let(self, one: Part, body_of: Any) -> Any:
        items = one.kids[0]
        value = items.kids[0] if items.op == "list" else None
        var, body = one.data[0], one.data[1]
        if value is not None and value.type.kind == "list":
            bound: Any = self.copied(self.listed(value))
        elif value is not None:
            bound = self.temp(self.scalar(value), "x")
        else:
            bound = str(self.encoded(items.value[0], items.type.element))
        with self.bound({var: bound}):
            return body_of(body)

    def contains(self, item: Part, items: Part, negated: bool) -> str:
        x = self.temp(self.scalar(item))
        buf, count = self.listed(items)
        return found(self, buf, count, x, "0" if negated else "1", "1" if negated else "0")

    def inline(self, part: Part, body_of: Any) -> Any:
        _, _, body = part.data
        if self._inlined >= _MAX_INLINE:
            raise NotWritten("defines nested too deeply to write in place")
        args: dict[str, Any] = {}
        for key, kid in zip(body.keys, part.kids, strict=True):
            args[key] = self.copied(self.listed(kid)) if kid.type.kind == "list" else self.temp(self.scalar(kid), "x")
        self._inlined += 1
        try:
            with self.bound(args):
                return body_of(body.part)
        finally:
            self._inlined -= 1

    @contextmanager
    def each(self, source: Part, var: str, cond: Part | None, items: Listed | None = None) -> Iterator[None]:
        """The statements inside go through ``source``'s items (``items``: its sources, written already), ``var``
        bound to each, those ``cond`` holds for."""
        buf, count = self.listed(source) if items is None else items
        i = self.fresh("i")
        x = self.fresh("x")
        with self.block(f"for {i} in range({count}):"):
            self.emit(f"{x} = {buf}[{i}]")
            with self.bound({var: x}):
                if cond is None:
                    yield
                else:
                    with self.block(f"if {self.truth(cond)}:"):
                        yield

    def new_list(self, capacity: str) -> Listed:
        buf, count = self.fresh("L"), self.fresh("n")
        self.scratch(buf, capacity)
        self.emit(f"{count} = 0")
        return buf, count

    def scratch(self, buf: str, capacity: str) -> None:
        """``buf``: room for ``capacity`` items, taken from the scratch space (arrays.HEAP)."""
        at = self.fresh("at")
        self.takes = True
        self.emit(f"{at} = grab(h, {capacity})")
        self.emit(f"{buf} = h[{at}:{at} + max({capacity}, 1)]")
        self.places[buf] = at if buf not in self.places else None  # (None: taken in more than one place)


    def copied(self, listed: Listed) -> Listed:
        """A list held in locals of its own (a define's argument, a let's value): read again, it is the same."""
        buf, count = listed
        return self.temp(buf, "L"), self.temp(count, "n")

    def seats_where(self, test: str) -> Listed:
        """The seats, in order, for which ``test`` (a source reading ``s``) holds."""
        players = self.lay.layout.players
        buf, count = self.new_list(str(players))
        with self.block(f"for s in range({players}):"):
            with self.block(f"if {test}:"):
                self.emit(f"{buf}[{count}] = s")
                self.emit(f"{count} += 1")
        return buf, count



def moved(w: Writer, buf: str, grown: str) -> None:
    """The list ``buf`` is now the room ``grown`` (taken from the scratch space), where it was copied."""
    w.emit(f"{buf} = {grown}")
    at, now = w.places.get(buf), w.places.get(grown)
    if at is not None and now is not None:
        w.emit(f"{at} = {now}")
    else:
        w.places[buf] = None


def found(w: Writer, buf: str, count: str, x: str, then: str, otherwise: str) -> str:
    """A local ``w`` writes: ``then`` (which may read ``{i}``, the place) at the first item of ``buf`` equal to ``x``,
    else ``otherwise``."""
    out, i = w.fresh("b"), w.fresh("i")
    w.emit(f"{out} = {otherwise}")
    with w.block(f"for {i} in range({count}):"):
        with w.block(f"if {buf}[{i}] == {x}:"):
            w.emit(f"{out} = {then.format(i=i)}")
            w.emit("break")
    return out


def encode_constant(lay: ArrayLayout, values: Values, value: Any, type_: Type | None) -> int:
    """A constant of the rule (folded at load time) as the arrays hold it: a card as its kind (the arrays hold kinds,
    runtime/layout.py), anything else as ``values`` encodes it."""
    if type_ is not None and type_.kind == "card" and type(value) is int:
        return lay.layout.kind[value]
    return values.encode(value)


def team_slot(w: Writer) -> int:
    """Where seat 0's team is in v (the seats' follow it)."""
    return w.lay.value(TEAM, "", 0)


def interned_list(w: Writer, x: str) -> Listed:
    """The items of the interned list ``x`` (a source: an item of a list of lists), read from the tables of every
    interned list's items (none when ``x`` is not one)."""
    w.lists_read = True
    x = w.temp(x, "x")
    k, count, buf = w.fresh("k"), w.fresh("n"), w.fresh("L")
    w.emit(f"{k} = {x} - INTERNED if {x} >= INTERNED and {x} - INTERNED < len(LI_COUNT) else -1")
    w.emit(f"{count} = LI_COUNT[{k}] if {k} >= 0 else -1")
    w.emit(f"{buf} = LI_ITEMS[LI_START[{k}] if {k} >= 0 else 0:]")
    return buf, count
