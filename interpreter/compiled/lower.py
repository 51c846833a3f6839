"""An expression's checked parts (dsl/ir.py) written as statements over the compiled backend's arrays, in the subset of
Python the compiled backend compiles (ir/): the second writer of each op, beside dsl/emit.py's (the Python backend's).

Every value is a whole number (values.py) and every list a pair: a one-dimensional array and how many of its items
count (a zone's row and its length, a buffer a comprehension fills); a list of records or of lists (a choice's
history, pairs of seats) is such a pair too, its items interned (a record's field read from the table of that field,
an interned list's items from the tables of every interned list's, ``LI_ITEMS``, ``LI_START`` and ``LI_COUNT``; a
list of up to three seats or a pair of cards made in play, ``[s, winner]``, ``[h, c]``, found among every such list,
interned as the expression is written: parts.py; a list ``combinations`` makes, found among the lists interned when
the game was written, such as a choice's domain: calls.py; texts ordered by their ranks, ``TX_RANK``). A part is
written as the statements that work it out, then a name or a short source that holds it, so that ``and``, ``or``,
``if`` and a comprehension work out only what Python's would. A define's body is written once for each kind of
arguments, as a function of its own that every call calls (``Lowerer.defined``: its parameters the arguments' values,
a list argument its array and count; a list it gives returned as an expression's is), so that a define used in many
places, or calling others that are, is compiled once: written in place at every use, one expression of a game was
half its module's lines, and a compile's time grows with the lines.

The ops are written by parts.py (and the builtins by calls.py) through writer.py's ``Writer``.

What the source does not do that the Python backend's does: charge the expressions' work budget (the compiled
backend plays only files the Python backend has checked, and its loops go through lists of bounded size) and
tell a mistake of the rules in their words (a none where a number is needed gives a wrong number, not an
error: the checked path is the Python backend). A part the writer does not know yet raises ``NotWritten``, and
the game is played by the Python backend.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from interpreter.compiled.arrays import ArrayLayout
from interpreter.compiled.parts import LISTS, SCALARS
from interpreter.compiled.values import INTERNED, NONE, NotWritten, Values
from interpreter.compiled.writer import PARAMS, Writer
from interpreter.dsl.ir import Part
from interpreter.dsl.types import Type


@dataclass
class Lowered:
    """One expression written for the arrays: the source of ``def NAME(z, zn, v, l, ln, h, *params)``, the bound
    names its parameters are (in order, with whether each is a list: an array), and the module constants it reads
    (tables of card attributes, lists written in the rule). A list it gives is returned as where its items start in
    the scratch space ``h`` and its count (-1: none): compiled code returns no array it did not get (arrays.HEAP);
    ``Writing.listed`` reads it. ``calls``: the functions of the defines it calls (each written once, ``Lowerer``)."""

    name: str
    source: str
    params: tuple[tuple[str, bool], ...]
    constants: dict[str, Any]
    fields: tuple[str, ...]  # the records' fields it reads: their tables are made at link time (``link``)
    returns_list: bool
    lists_read: bool = False  # it reads the items of interned lists: their tables too are made at link time
    ranks_read: bool = False  # it orders texts: the table of their ranks too is made at link time
    calls: tuple[Lowered, ...] = ()

    @property
    def program(self) -> str:
        """Its source with those of the defines' functions it calls, through one another too: all it needs to run."""
        return "\n\n".join(e.source for e in with_defines([self]))

    def link(self, values: Values) -> dict[str, Any]:
        """The module namespace the source (its ``program``) runs in: numpy, the constants, and a table per field
        read, over every value ``values`` has interned by now."""
        import numpy as np

        space: dict[str, Any] = {"np": np, "NONE": NONE, "INTERNED": INTERNED}
        needed = with_defines([self])
        for e in needed:
            space.update({k: np.asarray(c, dtype=np.int64) for k, c in e.constants.items()})
        for name in sorted({f for e in needed for f in e.fields}):
            space[f"F_{name}"] = np.asarray(values.field_table(name) or [NONE], dtype=np.int64)
        if any(e.lists_read for e in needed):
            for table, items in zip(("LI_ITEMS", "LI_START", "LI_COUNT"), values.list_tables(), strict=True):
                space[table] = np.asarray(items or [NONE], dtype=np.int64)
        if any(e.ranks_read for e in needed):
            space["TX_RANK"] = np.asarray(values.text_ranks() or [NONE], dtype=np.int64)
        return space


def with_defines(expressions: Iterable[Lowered]) -> list[Lowered]:
    """``expressions`` and the functions of the defines they call (through one another too), each once: the
    defines' before their callers."""
    out: dict[str, Lowered] = {}

    def add(e: Lowered) -> None:
        if e.name not in out:
            for c in e.calls:
                add(c)
            out[e.name] = e

    for e in expressions:
        add(e)
    return list(out.values())


class Lowerer:
    """Writes the parts of one game's expressions for its arrays (see the module's docstring); each define's body
    once per kind of arguments, as a function of its own (``defined``)."""

    def __init__(self, lay: ArrayLayout, values: Values):
        self.lay, self.values = lay, values
        self._n = 0
        self._defines: dict[tuple[Any, ...], Lowered] = {}
        self._bodies: list[Any] = []  # (the bodies keyed by id above, kept alive)

    def lower(self, part: Part, bound: dict[str, Type], name: str = "f", interned: bool = False) -> Lowered:
        """``part`` as a function ``name`` of the arrays and of ``bound``, the names the expression binds;
        ``interned``: every list it may make by ``combinations`` is interned already (a choice's domain, calls.py)."""
        w = self._writer(interned)
        params: list[tuple[str, bool]] = []
        for n, t in bound.items():
            local = "r_" + n
            if t.kind == "list":  # (of records or lists too: their items interned, arrays.py)
                w.locals[n] = (local, f"len({local})")
                params.append((n, True))
            else:
                w.locals[n] = local
                params.append((n, False))
        return self._function(w, part, name, ["r_" + p for p, _ in params], tuple(params))

    def defined(self, outer: Writer, part: Part) -> tuple[Lowered, list[str]]:
        """The function of the define ``part`` calls (``data``: the define, the kinds of its arguments, its body),
        written once for its body and the kinds of its arguments (one list or not, each), and the sources of the
        arguments of this call, written by ``outer``: each argument's value (a list's array and count), then the
        names the body reads from where it is called, if any (none does: a define reads its parameters)."""
        define, _, body = part.data
        free = sorted({d[4:] for d in body.deps if d.startswith("ctx:")} - set(body.keys))
        args: list[str] = []
        kinds: list[bool] = []
        for kid in part.kids:
            if kid.type.kind == "list":
                args.extend(outer.listed(kid))
            else:
                args.append(outer.temp(outer.scalar(kid), "x"))
            kinds.append(kid.type.kind == "list")
        for n in free:
            found = outer.locals.get(n)
            if found is None:
                raise NotWritten(f"the name {n!r}")
            args.extend(found if isinstance(found, tuple) else [found])
            kinds.append(isinstance(found, tuple))
        key = (id(body), outer.interned, *kinds)
        made = self._defines.get(key)
        if made is None:
            w = self._writer(outer.interned)
            params: list[str] = []
            for k, (n, listed) in enumerate(zip([*body.keys, *free], kinds, strict=True)):
                if listed:
                    w.locals[n] = (f"r_{k}", f"r_{k}n")
                    params += [f"r_{k}", f"r_{k}n"]
                else:
                    w.locals[n] = f"r_{k}"
                    params.append(f"r_{k}")
            stem = "".join(c if c.isalnum() else "_" for c in getattr(define, "name", "define"))
            made = self._function(w, body.part, self.fresh(f"d_{stem}_"), params, ())
            self._defines[key] = made
            self._bodies.append(body)
        return made, args

    def _writer(self, interned: bool) -> Writer:
        w = Writer(self.lay, self.values, self.fresh, SCALARS, LISTS, self.defined)
        w.interned = interned
        return w

    def _function(self, w: Writer, part: Part, name: str, args: list[str],
                  params: tuple[tuple[str, bool], ...]) -> Lowered:
        """``part`` written by ``w`` as the function ``name`` of the arrays and ``args``."""
        if part.type.kind == "list":  # its items put in h (the caller gives the places back), and their count
            buf, count = w.listed(part)
            at = w.places.get(buf)  # (a list it made in the scratch space is given where it is)
            if at is None:
                at, i = w.fresh("at"), w.fresh("i")
                w.emit(f"{at} = grab(h, {count})")
                with w.block(f"for {i} in range({count}):"):
                    w.emit(f"h[{at} + {i}] = {buf}[{i}]")
            w.emit(f"return {at}, {count}")
            lines = w.scope.lines
        else:
            result = w.scalar(part)
            lines = w.scope.lines
            if w.takes or any("grab(" in line for line in lines):  # the places its lists took given back
                lines = ["    mark = h[0]", *lines, f"    result = {result}", "    h[0] = mark"]
                result = "result"
            lines.append(f"    return {result}")
        head = f"def {name}({', '.join((*PARAMS, *args))}):"
        return Lowered(name, "\n".join([head, *lines]), params, w.constants, tuple(sorted(w.fields)),
                       part.type.kind == "list", w.lists_read, w.ranks_read, tuple(w.called.values()))

    def fresh(self, stem: str) -> str:
        self._n += 1
        return f"{stem}{self._n}"
