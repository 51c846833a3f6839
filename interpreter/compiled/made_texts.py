"""A text made in play, as the compiled backend holds it: only that there is one (engine/made_texts.py says which
values hold such texts; a seat's observation tells no more of them).

``presence(w, expr, names, types)`` writes the source of the number a ``set`` step stores for such a value: ``NONE``
where the expression gives none, ``MADE`` (values.py) where it gives a text it builds, without building it. The
expression is gone through from its top: a conditional's test is written as an expression of its own and each of
its branches gone through in turn; a call that builds a text (``+`` of texts, ``join``, ``text``) is ``MADE``; a
define called without arguments is its body; a constant is itself (none, or a text: ``MADE``); any other part that
builds no text is written as any expression is (a text it gives is there: its number is not ``NONE``). Not written
(NotWritten): a part that builds a text otherwise (inside a comprehension, as a define's argument...), as before.
"""

from __future__ import annotations

from typing import Any

from interpreter.compiled.steps import Writing
from interpreter.compiled.teams_template import part_expression
from interpreter.compiled.values import MADE, NONE, NotWritten
from interpreter.dsl.ir import Part
from interpreter.dsl.types import Type
from interpreter.engine.made_texts import builds_text, makes_text


def presence(w: Writing, expr: Any, names: dict[str, str], types: dict[str, Type]) -> str:
    """The source of ``NONE`` or ``MADE``: whether ``expr`` gives a text (see the module's docstring)."""
    assert expr.part is not None
    return _part(w, expr, expr.part, names, types)


def _part(w: Writing, expr: Any, part: Part, names: dict[str, str], types: dict[str, Type]) -> str:
    if part.const:
        return str(NONE if part.value is None else MADE)
    if part.op == "if":
        test, then, otherwise = part.kids
        if builds_text(test):
            raise NotWritten("a text made in play in a conditional's test")
        told = w.call(part_expression(expr, test), names, types, "made_if")
        return (f"({_part(w, expr, then, names, types)} if truth({told}) "
                f"else {_part(w, expr, otherwise, names, types)})")
    if makes_text(part):
        return str(MADE)
    if part.op == "define" and not part.kids:
        return _part(w, expr, part.data[2].part, names, types)
    if builds_text(part):
        raise NotWritten("a text made in play by a part other than a conditional, a call that builds it or a define")
    x = w.call(part_expression(expr, part), names, types, "made")
    return f"({NONE} if {x} == {NONE} else {MADE})"
