"""What the writer of expressions (emit.py) asks of checked parts (ir.py) and of the source it wrote: the shapes the
parser makes of a ``let`` and of a comprehension of several ``for``s, whether a part does work worth remembering,
whether a source is a Python local or a name read without work."""

from __future__ import annotations

import re
from keyword import iskeyword

from interpreter.dsl.builtins import REGISTRY, _concat, _first, _last
from interpreter.dsl.ir import Part

# the source of a local, of a bound name or of a round value (read twice rather than passed to a helper, see
# emit._Emitter._seat): compiled when first needed (re caches it), not at every start
SIMPLE = r"[A-Za-z_]\w*|e\['[A-Za-z_]\w*'\]"


def same_for_each(source: Part, outer: str, src: str) -> bool:
    """Whether the list a comprehension's second ``for`` goes through is the same for each item of the first (a name
    other than the first's variable, never none: read without work, it cannot fail), written ``src``."""
    return source.op == "name" and source.sure and source.data != outer and re.fullmatch(SIMPLE, src) is not None


def is_let(part: Part) -> bool:
    """Whether ``part`` is the first item of a comprehension without a condition over a list of one item written in the
    rule (what the parser makes of ``let x = value in body``)."""
    base, at = part.kids
    if not (at.const and type(at.value) is int and at.value == 0 and base.op == "for"):
        return False
    if base.data[2] is not None or base.data[3] is not None:  # a condition, or a builtin the items are given to
        return False
    items = base.kids[0]
    return items.op == "list" and len(items.kids) == 1 or items.const and len(items.value) == 1


def nested(part: Part) -> bool:
    """A list comprehension whose items are the lists of a comprehension inside it (what the parser makes of
    ``[x for a in A if p for b in B ...]``: ``concat([[x for b in B ...] for a in A if p])``)."""
    if part.op != "for" or part.data[3] is not None:
        return False
    body = part.data[1]
    return (body.op == "for" and body.data[3] is None) or (body.op == "call" and body.data[0] is _concat)


# the builtins that cost no more than the call of a define without parameters (once_per_batch) saves
_LIGHT = frozenset({len, abs, _first, _last})
_BUILTINS = frozenset(b.impl for b in REGISTRY.values())


def works(part: Part) -> bool:
    """Whether ``part`` calls a builtin that goes through a list, makes one or reads the game (``seats_from``,
    ``slice``, ``sum``...), or a define with arguments: what a define without parameters is worth remembering for."""
    todo = [part]
    while todo:
        p = todo.pop()
        if p.op == "call" and p.data[0] in _BUILTINS and p.data[0] not in _LIGHT or p.op == "define" and p.kids:
            return True
        todo.extend(p.kids)
        if p.op == "for":
            return True
    return False


def is_local(src: str) -> bool:
    """Whether ``src``, what a name reads here, is a Python local (a split-off function takes it), not a bound name
    read from ``e`` or a constant that a short define's argument written in place may be (emit._Emitter._in_place)."""
    return src.isidentifier() and not iskeyword(src)


def calls_defines(part: Part) -> bool:
    """Whether ``part`` calls a define with arguments (one written in place would write its own calls again)."""
    todo = [part]
    while todo:
        p = todo.pop()
        if p.op == "define" and p.kids:
            return True
        todo.extend(p.kids)
        if p.op == "for":
            todo.extend(q for q in p.data[1:3] if q is not None)
    return False
