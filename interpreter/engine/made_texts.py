"""The values that may hold a text made in play: one declaration for every reader of a state's values.

A text value is *made in play* when a ``set`` step gives it a text its expression builds: texts joined with ``+``,
``join(...)`` or ``text(...)`` (in the expression itself, the defines it calls or its comprehensions), such as a
contract put in words ("4SX by South") or the seats a tie names. Such a text is one of endless many, none of them
known before play: a seat's observation (engine/encoding.py) tells only whether there is one, and the compiled
backend, which holds a text as its number in the game's table of texts (compiled/values.py) and cannot build one,
holds only that (compiled/shown_texts.py). A text value every expression of which gives texts written in the rule
file, read from cards or options, or chosen is not made in play: it is told apart by its text.
"""

from __future__ import annotations

import weakref
from typing import Any

from interpreter.dsl import builtins as B
from interpreter.dsl import runtime as R
from interpreter.dsl.ir import Part, walk
from interpreter.dsl.types import VALUE

_MAKERS = (R.add, B._join, B._text)  # the functions of the calls that build a text (``+`` of texts: R.add)
_MADE: weakref.WeakKeyDictionary[Any, frozenset[str]] = weakref.WeakKeyDictionary()  # each game's, found once


def makes_text(part: Part) -> bool:
    """Whether ``part`` itself is a call that builds a text (see the module's docstring)."""
    return part.op == "call" and part.type.plain == "text" and part.data[0] in _MAKERS


def builds_text(part: Part) -> bool:
    """Whether ``part`` (with the defines it calls and its comprehensions) builds a text in play (see the module's
    docstring)."""
    return any(makes_text(p) for p in walk(part))


def made_texts(game: Any) -> frozenset[str]:
    """The names of the text values (round, seat or game values) some ``set`` step of ``game`` gives a text made in
    play (see the module's docstring)."""
    found = _MADE.get(game)
    if found is None:
        names = set()
        for step in game.every_step():
            for _, name, expr in getattr(step, "assign", ()) if step.kind == "set" else ():
                if (game.value_types.get(name, VALUE).plain == "text" and expr.part is not None
                        and builds_text(expr.part)):
                    names.add(name)
        found = _MADE[game] = frozenset(names)
    return found
