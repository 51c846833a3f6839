"""An expression in words, for people reading a rule file as a rulebook (``trickbook explain``).

The words follow the expression's structure: nothing is guessed about what it means in a game. Names the rule
file chose (defines, values, attributes) keep their names, with ``_`` read as a space; the language's own
names and builtins get their meaning: ``count(c.suit == 'red' for c in s.won)`` is "the number of c in s's won
for which c's suit is 'red'". Text that does not parse is given back as it is."""

from __future__ import annotations

from typing import Any

from interpreter.dsl import ast
from interpreter.dsl.parser import DslSyntaxError, parse

# names the language or the engine binds, as people say them
NAMES = {
    "card": "the card", "led": "the led card", "seat": "the player", "seats": "the players",
    "players": "the number of players", "trick": "the trick's cards", "trick_seats": "the players of the trick",
    "player": "the player who just played", "winner": "the trick's winner", "takers": "the trick's takers",
    "last_trick": "the last trick's cards", "value": "the value", "history": "the choices so far",
    "passes": "the passes so far", "picked": "the values picked this turn", "legal": "the allowed choices",
    "space": "the space", "open": "the open spaces of the row", "deck": "the deck", "none": "nothing",
}
OWNED = {"round": "the round's", "game": "the game's", "setup": "the setup's", "options": "the option"}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least", "in": "is one of", "not in": "is not one of"}
ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "//": "divided by (rounded down)", "%": "modulo"}
# builtins of one list (or a generated one): how the result is said; {0} is the list
OF_LIST = {
    "len": "the number of {0}", "sum": "the sum of {0}", "count": "how many of {0} hold",
    "max": "the highest of {0}", "min": "the lowest of {0}", "any": "some of {0} holds",
    "all": "all of {0} hold", "first": "the first of {0}", "last": "the last of {0}",
    "distinct": "{0} without repeats", "sort": "{0} from lowest to highest", "reverse": "{0} in reverse order",
    "text": "{0} as text", "abs": "the absolute value of {0}", "team": "{0}'s team",
    "opponents": "{0}'s opponents", "left": "the player left of {0}", "right": "the player right of {0}",
    "seats_from": "every player starting with {0}", "concat": "{0} joined together",
}
MANY_ARGS = {
    "max": "the highest of {all}", "min": "the lowest of {all}", "same_team": "{0} and {1} are partners",
    "combinations": "every choice of {1} of {0}", "pairs": "every pair of one of {0} and one of {1}",
    "range": "the numbers from {0} up to {1} (not {1})", "join": "{0} joined with {1}",
    "index": "the place of {1} in {0} (from 0)", "slice": "{0} from place {1} to place {2}",
    "place_award": "the award for {0}'s place among {1}, highest first, from {2}",
}
# builtins over a generated list: how "for v in src if cond" reads with them
GENERATED = {
    None: "the list of {body} for each {var} in {src}{cond}",
    "count": "the number of {var} in {src}{cond} for which {body}",
    "sum": "the sum of {body} for each {var} in {src}{cond}",
    "any": "for some {var} in {src}{cond}: {body}",
    "all": "for every {var} in {src}{cond}: {body}",
    "max": "the highest of {body} for each {var} in {src}{cond}",
    "min": "the lowest of {body} for each {var} in {src}{cond}",
    "first": "the first {body} for {var} in {src}{cond}",
    "last": "the last {body} for {var} in {src}{cond}",
}


def in_words(text: Any) -> str:
    """The expression ``text`` (or a plain value of a rule file) in words."""
    if isinstance(text, bool):
        return "yes" if text else "no"
    if not isinstance(text, str):
        return str(text)
    try:
        return _words(parse(text))
    except DslSyntaxError:
        return text


def name_words(name: str) -> str:
    """A name the rule file chose, as people read it."""
    return name.replace("_", " ")


def _words(node: ast.Node, top: bool = True) -> str:
    w = _words
    if isinstance(node, ast.Const):
        if node.value is None:
            return "nothing"
        if isinstance(node.value, bool):
            return "true" if node.value else "false"
        return f"'{node.value}'" if isinstance(node.value, str) else str(node.value)
    if isinstance(node, ast.Name):
        return NAMES.get(node.name, name_words(node.name))
    if isinstance(node, ast.Attribute):
        if isinstance(node.base, ast.Name) and node.base.name in OWNED:
            return f"{OWNED[node.base.name]} {name_words(node.name)}"
        if isinstance(node.base, (ast.Name, ast.Attribute)):
            return f"{w(node.base, False)}'s {name_words(node.name)}"
        return f"the {name_words(node.name)} of {w(node.base, False)}"
    if isinstance(node, ast.Index):
        i = _whole(node.index)
        if i is not None:
            place = "the last" if i == -1 else f"item {i + 1}" if i >= 0 else f"item {-i} from the end"
            return f"{place} of {w(node.base, False)}"
        return f"the item at place {w(node.index, False)} of {w(node.base, False)}"
    if isinstance(node, ast.ListExpr):
        if not node.items:
            return "an empty list"
        return "[" + ", ".join(w(i, False) for i in node.items) + "]"
    if isinstance(node, ast.Unary):
        if node.op == "-":
            return f"minus {w(node.operand, False)}"
        return f"not ({w(node.operand)})"
    if isinstance(node, ast.Binary):
        left, right = w(node.left, False), w(node.right, False)
        if node.op in ("and", "or"):  # a chain of one operator reads without brackets
            left = w(node.left, isinstance(node.left, ast.Binary) and node.left.op == node.op)
            right = w(node.right, isinstance(node.right, ast.Binary) and node.right.op == node.op)
            text = f"{left} {node.op} {right}"
            return text if top else f"({text})"
        if node.op in COMPARE:
            return f"{left} {COMPARE[node.op]} {right}"
        if node.op in ("+", "*"):  # a chain of one of these reads without brackets too
            left = w(node.left, isinstance(node.left, ast.Binary) and node.left.op == node.op)
        text = f"{left} {ARITHMETIC.get(node.op, node.op)} {right}"
        return text if top else f"({text})"
    if isinstance(node, ast.Conditional):
        text = f"{w(node.then, False)} if {w(node.test)}, otherwise {w(node.otherwise, False)}"
        return text if top else f"({text})"
    if isinstance(node, ast.Comprehension):
        return _generated(node.function, node)
    if isinstance(node, ast.Call):
        return _call(node)
    return "?"  # pragma: no cover - every node kind is above


def _whole(node: ast.Node) -> int | None:
    """A whole number written as one (``2``, ``-1``), else None."""
    if isinstance(node, ast.Unary) and node.op == "-":
        inner = _whole(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Const) and type(node.value) is int:
        return node.value
    return None


def _generated(function: str | None, node: ast.Comprehension) -> str:
    cond = f" where {_words(node.condition, False)}" if node.condition is not None else ""
    form = GENERATED.get(function, f"{name_words(function or '')} of " + GENERATED[None])
    if function in ("first", "last") and isinstance(node.body, ast.Name) and node.body.name == node.var:
        form = f"the {function} {{var}} in {{src}}{{cond}}"  # first(s for s in seats if ...): the first s in ...
    return form.format(body=_words(node.body, False), var=node.var, src=_words(node.source, False), cond=cond)


def _call(node: ast.Call) -> str:
    args = node.args
    if len(args) == 1 and isinstance(args[0], ast.Comprehension) and args[0].function is None \
            and node.name in GENERATED:
        return _generated(node.name, args[0])
    said = [_words(a, False) for a in args]
    if len(args) == 1 and node.name in OF_LIST:
        return OF_LIST[node.name].format(said[0])
    if node.name in MANY_ARGS and len(args) >= 2:
        return MANY_ARGS[node.name].format(*said, all=", ".join(said))
    if not args:
        return name_words(node.name)
    return f"{name_words(node.name)}({', '.join(said)})"
