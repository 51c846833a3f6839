"""What generated code calls while playing, and what its failures mean in the words of the rules.

The operators that cannot be written as Python's own (``+`` joins a tuple and a list, numbers stay within
their bounds, ``==`` finds a tuple and a list with the same items equal) are plain functions here, referred
to by the generated source through codegen.Namespace.ref; so are the checks a rule's value gets where the
engine needs a number or a seat. Folding a constant part at load time runs the same generated source, so
there is one meaning of every operator.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

from interpreter.dsl.budget import charge, left, list_size, number
from interpreter.limits import MAX_LIST, MAX_NUMBER

# what a generated function may raise for a mistake of the rules (see Compiled.run)
RUNTIME_ERRORS = (TypeError, ValueError, ZeroDivisionError, KeyError, IndexError, AttributeError, OverflowError,
                  RecursionError)


# the arithmetic helpers keep a whole number within the bounds as budget.number does, written out (no call when it is
# within them): they run for most operators the checker cannot write as Python's own (see resolve._arithmetic)


def multiply(a: Any, b: Any) -> Any:
    if type(a) is not int or type(b) is not int:
        raise TypeError(f"'*' needs two numbers, got {a!r} and {b!r}")
    value = a * b
    return value if -MAX_NUMBER <= value <= MAX_NUMBER else number(value)


def add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        value = a + b
        return value if -MAX_NUMBER <= value <= MAX_NUMBER else number(value)
    if isinstance(a, str) and isinstance(b, str) and len(a) + len(b) > 10_000:
        raise ValueError("string too long")
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        list_size(len(a) + len(b))
        return [*a, *b]  # lists come as tuples (literals, seats) or lists (zones, comprehensions)
    return a + b


def joined(a: Any, b: Any, times: int = 1, _left: list[int] = left) -> list[Any]:
    """``a + b`` of two lists (tuples or lists, never none, as the checker proves): what ``add`` does with them,
    without asking what they are; the list's size bounded and charged (budget.list_size, written out). ``times``
    2: also charged for the comprehension that goes through it (codegen.charged, the same count in one call)."""
    items = len(a) + len(b)
    if items > MAX_LIST:
        list_size(items)
    _left[0] -= items * times
    if _left[0] < 0:
        charge(0)  # says what ran out
    return [*a, *b]


def subtract(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        value = a - b
        return value if -MAX_NUMBER <= value <= MAX_NUMBER else number(value)
    return a - b


def same(a: Any, b: Any, _left: list[int] = left) -> bool:
    """``==`` where a tuple and a list with the same items are the same list (a list compared charged, as
    budget.charge does, written out)."""
    if isinstance(a, (list, tuple)):
        _left[0] -= len(a)
        if _left[0] < 0:
            charge(0)  # says what ran out
        if a.__class__ is not b.__class__ and isinstance(b, (list, tuple)):
            return list(a) == list(b)
    return a == b


def different(a: Any, b: Any, _left: list[int] = left) -> bool:
    """``!=``: not ``same`` (written out: one call)."""
    if isinstance(a, (list, tuple)):
        _left[0] -= len(a)
        if _left[0] < 0:
            charge(0)  # says what ran out
        if a.__class__ is not b.__class__ and isinstance(b, (list, tuple)):
            return list(a) != list(b)
    return not a == b


def contains(x: Any, xs: Any) -> bool:
    if len(xs) > 16:  # a hand or a trick costs nothing worth counting
        charge(len(xs))
    return x in xs


def _ordering(op: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    """``<`` and friends, comparing two lists item by item whether they are tuples or lists."""

    def compare(a: Any, b: Any) -> bool:
        if a.__class__ is not b.__class__ and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return op(list(a), list(b))
        return op(a, b)

    return compare


# the operators written as a call of one of these (the others are Python's own, see emit.py)
BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": add, "-": subtract, "*": multiply, "//": operator.floordiv, "%": operator.mod,
    "==": same, "!=": different,
    "<": _ordering(operator.lt), "<=": _ordering(operator.le),
    ">": _ordering(operator.gt), ">=": _ordering(operator.ge),
}

# comparisons that Python's own operators answer alike when no side is a list
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def field(record: Any, name: str) -> Any:
    if record is None:
        return None
    return record[name]


def of_seat(getter: Callable[[Any, Any], Any], state: Any, seat: Any) -> Any:
    """A seat attribute, none of none (``round.partner.total`` while there is no partner)."""
    return None if seat is None else getter(state, seat)


UNSET = object()  # a lifted part not worked out yet (see emit.py)


def keep(values: list[Any], i: int, value: Any) -> Any:
    """Remember a lifted part's value for the rest of the call (see emit.py)."""
    values[i] = value
    return value


def once_per_batch(f: Callable[[dict[str, Any]], Any], cache: list[Any]) -> Callable[[dict[str, Any]], Any]:
    """``f`` worked out once per batch (the object under ``"$batch"``), kept in ``cache`` as [batch, value]:
    a define without parameters reads only the state, which does not change within a batch."""

    def once(e: dict[str, Any]) -> Any:
        batch = e.get("$batch")
        if batch is None:
            return f(e)
        if cache[0] is batch:
            return cache[1]
        value = f(e)
        cache[0], cache[1] = batch, value
        return value

    return once


def a_number(value: Any) -> Any:
    """``value``, refused at play when it is not a number where the rule needs one (a round value not set)."""
    if value.__class__ is not int:
        raise ValueError(f"it gave {shown(value)} where a number is needed")
    return value


def a_truth(value: Any) -> Any:
    """``value``, refused at play when it is not true, false or none where a test needs one (a define's
    parameter given a number): a number, a text or a list is never silently true or false."""
    if value is not True and value is not False and value is not None:
        raise ValueError(f"it gave {shown(value)} where true or false is needed")
    return value


def truths(items: Any) -> Any:
    """``items``, each true, false or none (a list tested item by item whose kind the compiler could not tell)."""
    for x in items:
        if x is not True and x is not False and x is not None:
            a_truth(x)
    return items


def something(value: Any, expect: str) -> Any:
    """``value``, refused at play when it is none where the rule needs a seat or a card (a first() of nothing)."""
    if value is None:
        raise ValueError(f"it gave none where a {expect} is needed")
    return value


def shown(value: Any) -> str:
    """A value as an error message names it."""
    return "none" if value is None else "text " + repr(value) if isinstance(value, str) else "a list" \
        if isinstance(value, (list, tuple)) else repr(value)


_PYTHON_TYPES = {"NoneType": "none", "int": "a number", "str": "text", "bool": "true/false", "tuple": "a list",
                 "list": "a list", "dict": "a record"}
_EXPLAINED = [  # Python's messages for mistakes only play can show, in the words of the rule language
    (r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'", "'{0}' cannot combine {1} and {2}"),
    (r"can only concatenate (\w+) \(not \"(\w+)\"\) to \w+", "'+' cannot combine {0} and {1}"),
    (r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'", "'{0}' cannot compare {1} with {2}"),
    (r"bad operand type for unary (\S+): '(\w+)'", "'{0}' needs a number, not {1}"),
    (r"(?:tuple|list) indices must be integers or slices, not (\w+)", "a list index must be a number, not {0}"),
    (r"'(\w+)' object is not subscriptable", "{0} cannot be indexed (only lists can)"),
    (r"object of type '(\w+)' has no len\(\)", "{0} is not a list"),
    (r"'(\w+)' object is not iterable", "{0} is not a list"),
    (r"(?:tuple|list|string) index out of range", "an index past the end of the list"),
]


def explain(exc: BaseException) -> str:
    """What went wrong in an expression while playing, said without Python's names of its types."""
    message = str(exc)
    if isinstance(exc, (TypeError, IndexError)):
        for pattern, text in _EXPLAINED:  # compiled when a rule first fails (re caches them), not at every start
            m = re.fullmatch(pattern, message)
            if m is not None:
                return text.format(*(_PYTHON_TYPES.get(g, g) for g in m.groups()))
    return message
