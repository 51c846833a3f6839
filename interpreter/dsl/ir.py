"""The checked, typed form of an expression: a small tree of parts between the names-and-types stage
(resolve.py) and the Python source made of it (emit.py).

Every part records its type, what it reads and whether it is a constant (with its value); the stages
between add what the source needs to know: whether a part reads the item of a judged expression, and
which parts are remembered per card. Nothing here runs: a part's meaning is its source (see emit.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.dsl.types import Type

USES = ("attr:", "bare:")  # deps that say how a bound card is read (see Compiled.uses)


class Part:
    """One part of a checked expression.

    ``op`` says what it does, ``kids`` are the parts it combines (in the order they are worked out) and
    ``data`` is what else the op needs:

    ====== ======================================== ===========================================
    op     kids                                     data
    ====== ======================================== ===========================================
    const  --                                       -- (the value is ``value``)
    name   --                                       the bound name
    zone   --                                       the shared zone's name
    round  --                                       the round value's name (``game``: likewise)
    attr   the card                                 the attribute's values by card id
    seat   the seat                                 (getter, never none, reads the state, source, name)
    field  the record                               the field's name
    index  the list, the index                      --
    list   the items                                --
    not    the operand                              -- (``neg``: likewise)
    infix  both sides                               a Python operator (``and``, ``in``, ``==``...)
    arith  both sides (whole numbers)               a Python operator (``+``, ``-``, ``*``), its value bounded
    call   the arguments                            (function, reads the state, negated)
    if     the test, then, otherwise                --
    for    the list gone through                    (variable, body, condition or None, function or None)
    define the arguments                            (the Define, the kinds of arguments)
    memo   the part remembered                      the bound cards it is remembered by
    ====== ======================================== ===========================================
    """

    __slots__ = ("op", "type", "deps", "kids", "data", "const", "value", "scalar", "attr", "inv", "cheap", "sure",
                 "full")

    def __init__(self, op: str, type_: Type, deps: frozenset[str], kids: tuple[Part, ...] = (), data: Any = None):
        self.op, self.type, self.deps, self.kids, self.data = op, type_, deps, kids, data
        self.const = False
        self.value: Any = None
        self.scalar = False  # known never to be a list (a card attribute whose values are all plain)
        self.attr: str | None = None  # the card attribute it reads from a card (see checks.card_values)
        self.inv = False  # in a judged expression (compile(per=...)): does not read the item
        self.cheap = False  # a name or an attribute: not worth lifting out of a loop
        # what the checker proves of its value at play (see resolve.py), so that the source needs no guard for it:
        # ``sure``: never none (a part typed as a number is then a whole number, one typed as a list a list);
        # ``full``: when it is a list, none of its items is none (the cards of a zone, the seats of team())
        self.sure = False
        self.full = False

    def __repr__(self) -> str:
        return f"Part({self.op}, {self.type}, {sorted(self.deps)})" if not self.const else f"Part({self.value!r})"


def constant(value: Any, type_: Type) -> Part:
    part = Part("const", type_, frozenset())
    part.const, part.value = True, value
    part.sure = value is not None
    part.full = isinstance(value, tuple) and all(v is not None for v in value)
    return part


def split(deps: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """A part's deps as Compiled's deps and uses (see Compiled.uses)."""
    uses = frozenset(d for d in deps if d.startswith(USES))
    return deps - uses, uses


def without(deps: frozenset[str], names: Any) -> frozenset[str]:
    """``deps`` without those of the bound ``names`` (a comprehension's variable, a define's parameters)."""
    gone = {p + n for n in names for p in ("ctx:", "bare:")}
    return frozenset(d for d in deps if d not in gone and not (d.startswith("attr:")
                                                                and d[5:].rsplit(".", 1)[0] in names))


def places_read(part: Part) -> set[str] | None:
    """The shared zones and the seats' attributes ``part`` reads, through its defines too (``seat.hand`` and
    ``trick`` give {"hand", "trick"}): where the cards it gives may come from; None when a card it gives may come
    from elsewhere (a name the engine binds, such as the last trick's cards, or a value that holds cards), which
    no zone read tells."""
    read, anywhere = _reads(part)
    return None if anywhere else read


def zones_read(part: Part) -> set[str]:
    """The shared zones and the seats' attributes ``part`` reads, through its defines too, whatever else it reads."""
    return _reads(part)[0]


def walk(part: Part) -> Iterator[Part]:
    """Every part of ``part`` once, itself first: its kids, the bodies of its comprehensions and of the defines it
    calls."""
    seen: set[int] = set()
    todo = [part]
    while todo:
        p = todo.pop()
        if id(p) in seen:
            continue
        seen.add(id(p))
        yield p
        if p.op == "for":
            todo.extend(q for q in p.data[1:3] if q is not None)
        elif p.op == "define":
            todo.append(p.data[2].part)
        todo.extend(p.kids)


def _reads(part: Part) -> tuple[set[str], bool]:
    """The places ``part`` reads, and whether it reads cards that may lie anywhere (see ``places_read``)."""
    out: set[str] = set()
    bound: set[str] = set()  # names the expression binds itself: items of its lists, a define's parameters
    loose: set[str] = set()  # names read that hold cards
    anywhere = False
    for p in walk(part):
        if p.op == "zone":
            out.add(p.data)
        elif p.op == "seat":
            out.add(p.data[4])
        elif p.op == "for":
            bound.add(p.data[0])
        elif p.op == "define":
            bound.update(p.data[2].keys)
        elif p.op == "name" and _holds_cards(p.type):
            loose.add(p.data)
        elif p.op == "field" and _holds_cards(p.type):
            anywhere = True
    return out, anywhere or bool(loose - bound)


def _holds_cards(t: Type | None) -> bool:
    """Whether a value of type ``t`` may hold a card (a card, or a list or record with one in it)."""
    if t is None:
        return False
    if t.kind == "card":
        return True
    if t.kind == "list":
        return _holds_cards(t.element)
    return t.kind == "record" and any(_holds_cards(f) for _, f in t.fields)
