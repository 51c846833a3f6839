"""What is decided about checked parts between their names and types (resolve.py) and their source (emit.py):
which are constants (folded), which are remembered per card, which do not read the item of a judged
expression (lifted out of its loop).

resolve.py applies them to each part as it is made, because what it checks next depends on them: a branch
that a constant test never takes is not checked against the deck (an option the game is not played with),
and an attribute of a constant card is a constant.
"""

from __future__ import annotations

from interpreter.dsl import ast
from interpreter.dsl.codegen import Namespace
from interpreter.dsl.emit import evaluate
from interpreter.dsl.ir import USES, Part, constant
from interpreter.dsl.names import Locate
from interpreter.dsl.runtime import RUNTIME_ERRORS, explain
from interpreter.dsl.types import Type
from interpreter.errors import ExpressionError


def fold(part: Part, n: ast.Node, loc: Locate, gen: Namespace, unreached: bool, always: bool = False) -> Part:
    """``part`` as a constant when its parts are (``always``: also when it has none) and it reads nothing:
    evaluated now by its generated source, within the evaluation budget (reset by Compiler.compile).

    It fails at load time with the node's position, unless a constant test skips it (``unreached``: an
    option this game is not played with), when it stays to fail if ever evaluated."""
    if (part.kids or always) and all(k.const for k in part.kids) and not part.deps:
        try:
            value = evaluate(gen, part)
        except RUNTIME_ERRORS as exc:
            if unreached:
                return part  # never evaluated: a constant test skips it
            raise ExpressionError(f"this expression fails: {explain(exc)}", loc(n.offset)) from None
        return constant(value, part.type)
    return part


def remember(part: Part, n: ast.Node, scope: dict[str, Type]) -> Part:
    """``part`` remembered per card when it reads only bound cards (card attributes never change).

    Only worth it for composite parts; a bare name or attribute is already one lookup.
    """
    if part.const or not part.deps or isinstance(n, (ast.Name, ast.Attribute, ast.Const)):
        return part
    names = []
    for d in part.deps:
        if d.startswith(USES):
            continue
        if not d.startswith("ctx:") or scope.get(d[4:]) is None or scope[d[4:]].kind != "card":
            return part
        names.append(d[4:])
    out = Part("memo", part.type, part.deps, (part,), tuple(sorted(names)))
    out.inv, out.cheap, out.sure, out.full = part.inv, part.cheap, part.sure, part.full
    return out


def invariant(part: Part, names: frozenset[str] | None) -> bool:
    """True when ``part`` reads none of the names that change from item to item of a judged expression
    (``names``: the deps that do not; None outside one), so it may be worked out once per loop."""
    return (names is not None and not part.const and bool(part.deps)
            and all(d in names or d == "state" or d.startswith(("round:", *USES)) for d in part.deps))
