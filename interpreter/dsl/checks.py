"""The checks of operands and arguments made at load time, and their messages.

Kept apart from the walk over the tree (resolve.py) so that each message is written once; the tests
assert their text and positions, and docs/dsl.md lists them.
"""

from __future__ import annotations

from typing import Any

from interpreter.dsl import ast
from interpreter.dsl.names import Globals, Locate
from interpreter.dsl.types import VALUE, Type, type_of_plain
from interpreter.errors import ExpressionError

ORDER = ("<", "<=", ">", ">=")
ARITHMETIC = ("+", "-", "*", "//", "%")
_NOUNS = {"card": "a card", "seat": "a seat", "record": "a record", "number": "a number", "text": "text",
          "truth": "true/false", "none": "none", "list": "a list", None: "a value", "value": "a value"}
_PLURALS = {"card": "cards", "seat": "seats", "record": "records", "number": "numbers", "text": "texts",
            "truth": "true/false values", "list": "lists"}


def kind(t: Type, node: ast.Node | None = None) -> str | None:
    """What a part is, for the checks of operands: card, seat, list, record, number, text, truth, none (the
    literal none), or None when the compiler cannot tell (a value of any kind, or one not typed yet)."""
    if isinstance(node, ast.Const) and node.value is None:
        return "none"
    if t.kind != "value":
        return t.kind
    return t.plain or None


def noun(t: Type, node: ast.Node | None = None) -> str:
    k = kind(t, node)
    if k == "list" and t.element is not None:
        inner = kind(t.element)
        return "a list" if inner is None else f"a list of {_PLURALS[inner]}"
    return _NOUNS[k]


def unequal(a: Type, b: Type, na: ast.Node | None = None, nb: ast.Node | None = None) -> str | None:
    """None when values of these types may be equal; else why not: "" (they never are) or a reason."""
    ka, kb = kind(a, na), kind(b, nb)
    if ka is None or kb is None or "none" in (ka, kb):
        return None
    if ka == kb == "list":
        return None if a.element is None or b.element is None else unequal(a.element, b.element)
    if ka == kb:
        return None
    if {ka, kb} == {"seat", "number"}:
        return "a seat is not a number; compare seat.index, e.g. round.dealer.index == 1, or two seats"
    if {ka, kb} == {"truth", "number"}:
        return "true/false is not a number"
    return ""


def unordered(a: Type, b: Type, na: ast.Node | None = None, nb: ast.Node | None = None) -> bool:
    """True when ``<`` cannot order values of these types (two numbers, two texts, or two lists of such)."""
    ka, kb = kind(a, na), kind(b, nb)
    if ka in ("truth", "none", "record", "card", "seat") or kb in ("truth", "none", "record", "card", "seat"):
        return True
    if ka is None or kb is None:
        return False
    if ka != kb:
        return True
    return ka == "list" and a.element is not None and b.element is not None and unordered(a.element, b.element)


def no_sum(op: str, a: Type, b: Type, na: ast.Node, nb: ast.Node) -> bool:
    """True when ``op`` cannot combine values of these types: numbers, or with '+' two texts or two lists."""
    ka, kb = kind(a, na), kind(b, nb)
    can = ("number", "text", "list") if op == "+" else ("number",)
    if any(k is not None and k not in can for k in (ka, kb)):
        return True
    return ka is not None and kb is not None and ka != kb


def check_args(builtin: Any, types: list[Type], nodes: Any, loc: Locate) -> None:
    """Refuse an argument a builtin cannot take (see Builtin.args), e.g. ``len(seat)`` or ``sum(['a'])``."""
    for want, t, node in zip(builtin.args, types, nodes):
        k = kind(t, node)
        if not want or k is None:
            continue
        if want in ("list", "numbers") and k != "list":
            needs = "a list"
        elif want == "numbers" and t.element is not None and kind(t.element) not in (None, "number"):
            needs = "a list of numbers"
        elif want in ("number", "text") and k != want:
            needs = _NOUNS[want]
        elif want == "number or none" and k not in ("number", "none"):
            needs = "a number or none"
        else:
            continue
        raise ExpressionError(f"{builtin.name}() needs {needs}, found {noun(t, node)}", loc(node.offset))


def truth(t: Type, n: ast.Node | None, loc: Locate, what: str = "") -> None:
    """Only true and false (or none, which counts as false) stand for true or false: cards and seats are
    numbers inside (card 0, seat 0), and a number, a text or a list is never silently true or false."""
    offset = n.offset if n is not None else 0
    if what and t.kind == "list" and t.element is not None:
        t, n = t.element, None
    k = kind(t, n)
    if k in (None, "truth", "none"):
        return
    if k in ("card", "seat"):
        example = "winner == seat" if k == "seat" else "card.number > 0"
        raise ExpressionError(f"{what}a {k} is not true or false; compare it, e.g. {example}", loc(offset))
    example = _TRUTH_EXAMPLES.get(k, "")
    raise ExpressionError(f"{what}{noun(t, n)} is not true or false{example}", loc(offset))


_TRUTH_EXAMPLES = {"number": "; compare it, e.g. x > 0", "text": "; compare it, e.g. x == 'no'",
                   "list": "; test it, e.g. len(x) > 0", "record": ""}


def comparable(a: Type, b: Type, n: ast.Node, loc: Locate) -> None:
    kinds = {a.kind, b.kind}
    if "card" in kinds and kinds != {"card"} and not (a.literal_none or b.literal_none):
        raise ExpressionError(f"comparing a {a} with a {b} is always false; compare attributes, "
                              "e.g. card.colour == led.colour", loc(n.offset))


def suggest(name: str, known: list[str]) -> str:
    """"; did you mean ...?" naming the closest of ``known``, or nothing."""
    import difflib  # only when a rule has a mistake: not at every start

    close = difflib.get_close_matches(name, known, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def plain_type(values: Any) -> Type:
    """NUMBER, TEXT or TRUTH when every value that is not none is one (a card attribute's values)."""
    kinds = {type_of_plain(v) for v in values if v is not None}
    return kinds.pop() if len(kinds) == 1 else VALUE


class CardValues:
    """Refuses a literal compared with a card attribute that no card of the deck has (``card.colour == 'rde'``),
    naming the values there are; the values of each attribute are gathered once, not per comparison."""

    def __init__(self, g: Globals):
        self.g = g
        self._values: dict[str, set[tuple[type, Any]]] = {}

    def check(self, name: str, nodes: Any, loc: Locate) -> None:
        have = self._values.get(name)
        if have is None:
            have = self._values[name] = {(type(v), v) for v in self.g.card_attrs[name]
                                         if v is not None and v.__hash__ is not None}
        for node in nodes:
            if not isinstance(node, ast.Const) or node.value is None or (type(node.value), node.value) in have:
                continue
            values = sorted({v for _, v in have}, key=lambda v: (0, v, "") if type(v) in (int, float) else
                            (1, 0, _shown_plain(v)))
            listed = ", ".join(_shown_plain(v) for v in values[:40]) + (", ..." if len(values) > 40 else "")
            value = node.value
            hint = ""
            if type(value) is int and str(value) in values:
                hint = f" (the {_plural(name)} are texts: write '{value}')"
            elif type(value) is str and value.lstrip("-").isdigit() and int(value) in values:
                hint = f" (the {_plural(name)} are numbers: write {int(value)})"
            raise ExpressionError(f"no card has {name} {value!r}{hint}; {_plural(name)}: {listed or 'none'}"
                                  if type(value) is not bool else
                                  f"no card has {name} {_shown_plain(value)}; {_plural(name)}: {listed or 'none'}",
                                  loc(node.offset))


def _plural(name: str) -> str:
    if name.endswith("y") and name[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return name[:-1] + "ies"
    return name + ("es" if name.endswith(("s", "x", "z", "ch", "sh")) else "s")


def _shown_plain(value: Any) -> str:
    return "true" if value is True else "false" if value is False else str(value)
