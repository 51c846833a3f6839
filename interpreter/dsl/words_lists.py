"""Lists in words (:mod:`interpreter.dsl.words`): an item taken by its place ("the first of ..."), a list of values
looked up by a key ("the value for the card's rank in (9: 0, 10: 10, ...)") or gone round by a number ("by the
round's number in turn: left, right, across, hold (the first for 1), then again"), a slice ("the first 3 of
..."), the numbers of a range ("from 0 to 13"), and ``let x = v in e``: e with v in the place of x."""

from __future__ import annotations

from interpreter.dsl import ast
from interpreter.dsl.words_base import ORDINALS, Phrase
from interpreter.dsl.words_base import Saying as Speaker


def index(speaker: Speaker, node: ast.Index) -> str:
    base, at = node.base, node.index
    if isinstance(base, ast.Comprehension) and base.function is None and isinstance(base.source, ast.ListExpr) \
            and len(base.source.items) == 1 and base.condition is None and isinstance(at, ast.Const):
        value = base.source.items[0]  # let NAME = value in body: the body with the value in the name's place
        kind = speaker.vocabulary.kind_by_use(base.var, [base.body])
        return speaker.binding(**{base.var: Phrase(speaker.say(value, False), kind)}).say(base.body)
    if isinstance(base, ast.ListExpr) and base.items and all(isinstance(i, ast.Const) for i in base.items):
        table = _looked_up(speaker, base, at)
        if table is not None:
            return table
    at_whole = whole(at)
    if at_whole is not None:
        place = "the last" if at_whole == -1 else f"the {ORDINALS[at_whole]}" if 0 <= at_whole < len(ORDINALS) \
            else f"the {ORDINALS[-at_whole - 1]} from the end" if -len(ORDINALS) <= at_whole < 0 \
            else f"item {at_whole + 1}" if at_whole >= 0 else f"item {-at_whole} from the end"
        return f"{place} of {speaker.say(base, False)}"
    counted, start = _offset(at)
    return f"item {speaker.say(counted, False)} of {speaker.say(base, False)} (counting from {start})"


def _offset(at: ast.Node) -> tuple[ast.Node, int]:
    """An index ``x - k`` (or ``x + k``, or ``x``) as ``x`` and the number of its first item, ``k``."""
    if isinstance(at, ast.Binary) and at.op in ("-", "+"):
        k = whole(at.right)
        if k is not None:
            return at.left, k if at.op == "-" else -k
    return at, 0


def _keys(speaker: Speaker, node: ast.Node) -> list[ast.Node] | None:
    """The items of a list written out, or of a define without parameters that is one."""
    if isinstance(node, (ast.Name, ast.Call)) and not (isinstance(node, ast.Call) and node.args):
        term = speaker.vocabulary.terms.get(node.name)
        node = term.body if term is not None and not term.params and term.body is not None else node
    return list(node.items) if isinstance(node, ast.ListExpr) else None


def _looked_up(speaker: Speaker, base: ast.ListExpr, at: ast.Node) -> str | None:
    """A list of values picked from by a key: "by the card's rank (9: 0, 10: 10, ...)"; a list gone round by a
    number: "by the round's number in turn: left, right, across, hold (the first for 1), then again"."""
    values = [speaker.value(i) for i in base.items]
    keyed = _keys(speaker, at.args[0]) if isinstance(at, ast.Call) and at.name == "index" and len(at.args) == 2 \
        else None
    if keyed is not None and len(keyed) == len(values):
        pairs = ", ".join(f"{speaker.value(k)}: {v}" for k, v in zip(keyed, values))
        return f"the value for {speaker.say(at.args[1], False)} in ({pairs})"  # type: ignore[attr-defined]
    if isinstance(at, ast.Binary) and at.op == "%" and whole(at.right) == len(values):
        counted, start = at.left, 0
        if isinstance(counted, ast.Binary) and counted.op in ("-", "+") and whole(counted.right) is not None:
            start = whole(counted.right) * (1 if counted.op == "-" else -1)  # type: ignore[operator]
            counted = counted.left
        return (f"by {speaker.say(counted, False)} in turn: {', '.join(values)} (the first for {start}), "
                "then again")
    counted, start = _offset(at)
    if isinstance(counted, (ast.Attribute, ast.Name, ast.Call)) and len(values) <= 16:
        pairs = ", ".join(f"{i + start}: {v}" for i, v in enumerate(values))
        return f"the value for {speaker.say(counted, False)} in ({pairs})"
    return None


def whole(node: ast.Node) -> int | None:
    """A whole number written as one (``2``, ``-1``), else None."""
    if isinstance(node, ast.Unary) and node.op == "-":
        inner = whole(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Const) and type(node.value) is int:
        return node.value
    return None


def sliced(speaker: Speaker, args: tuple[ast.Node, ...]) -> str:
    """``xs[a:b]``: "the first 3 of xs", "xs from the second on", "xs from place 2 to place 5"."""
    base, start, end = args
    said = speaker.say(base, False)
    low, high = whole(start), whole(end)
    none_start = isinstance(start, ast.Const) and start.value is None
    none_end = isinstance(end, ast.Const) and end.value is None
    if (none_start or low == 0) and high is not None and high > 0:
        return f"the first {high} of {said}"
    if none_end and low is not None and 0 < low < len(ORDINALS):
        return f"{said} from the {ORDINALS[low]} on"
    return f"{said} from place {speaker.say(start, False)} up to place {speaker.say(end, False)} (from 0)"


def numbers(speaker: Speaker, low: ast.Node, high: ast.Node) -> str:
    """``range(a, b)``'s numbers: "from 0 to 13" (b - 1, where b is a number), else "from a up to b (not b)"."""
    start, end = speaker.say(low, False), whole(high)
    if end is not None:
        return f"from {start} to {end - 1}"
    if isinstance(high, ast.Binary) and high.op == "+" and whole(high.right) == 1:  # range(0, n + 1): 0 to n
        return f"from {start} to {speaker.say(high.left, False)}"
    return f"from {start} up to {speaker.say(high, False)} (not {speaker.say(high, False)})"
