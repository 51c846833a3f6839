"""The arrays passed between compiled functions as the address of their data: one number, not several.

A compiled function takes an array as its data's pointer and a number per dimension (ir/function.py), so a call of
one of the written functions, which take the game's arrays and its progress (``z, zn, v, l, ln, h, p``), would pass
more than a dozen numbers, pushed on the stack and read back at every call (under numba, which passed seven numbers
an array, the playout loop's own time was mostly those pushes). The shapes of those arrays are the game's
(arrays.ArrayLayout, the progress's size): fixed when the module is written. So, where the module is compiled,
each written function that takes them is written to take their addresses instead (``NAME__q``, whole numbers),
and views of the known shapes are made again from those addresses at its start (``view_NAME``, which the IR writer
writes as the address's pointer and the shape's constant sizes; none for an array it only passes on: it passes the
address it came as); a call passes the addresses (``address``). The ``__q`` form is the one compiled function of
its name, for compiled callers and for Python alike: Python calls it through ``python_forms``, a plain function of
the old name that checks each array (its shape, whole numbers, contiguous) and passes its address. A function no
written function calls (``play_many``, ``step_many``: Python's only) keeps its arrays and passes their addresses on.
Run as plain Python (the tests' checks) the module is not changed.

The views have constant shapes, so LLVM knows every index's stride: the bundled games ran 1.3 to 1.7 times as many
decisions a second (docs/performance.md, "Arrays passed by their address").

Only a parameter given at every call a name, or a row of an array (``Z[g]``), is changed, and ``address`` refuses
an array that is not contiguous: a view made from its data would read other numbers.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from typing import Any

SUFFIX = "__q"  # a function taking the arrays' addresses


def by_address(text: str, shapes: Mapping[str, tuple[int, ...]]) -> str:
    """``text`` (a module's) with its functions taking the arrays named in ``shapes`` by their address (see the
    module's docstring)."""
    tree = ast.parse(text)
    defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    calls = [(c.func.id, c) for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
             and c.func.id in defs]
    changed: dict[str, list[int]] = {}
    callees = {name for name, _ in calls}
    for name, node in defs.items():
        params = [a.arg for a in node.args.args]
        if name not in callees or node.args.vararg or node.args.kwarg or node.args.kwonlyargs or node.args.defaults:
            continue  # (a function only Python calls keeps its arrays: a form of it for Python would link all again)
        places = [i for i, a in enumerate(params) if a in shapes]
        for called, c in calls:
            if called == name:
                places = [i for i in places if i < len(c.args) and _plain(c.args[i])]
        if places:
            changed[name] = places
    for called, c in calls:
        if called not in changed:
            continue
        c.func = ast.Name(called + SUFFIX, ast.Load())
        for i in changed[called]:
            c.args[i] = ast.Call(ast.Name("address", ast.Load()), [c.args[i]], [])
    body: list[ast.stmt] = []
    for statement in tree.body:
        if isinstance(statement, ast.FunctionDef) and statement.name in changed:
            places = changed[statement.name]
            body.append(_taking_addresses(statement, places))
        else:
            body.append(statement)
    tree.body = body
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"


def _plain(arg: ast.expr) -> bool:
    """Whether a call's argument is an array whose address may be taken: a name, or a row of one (``Z[g]``)."""
    if isinstance(arg, ast.Name):
        return True
    return (isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name)
            and not isinstance(arg.slice, (ast.Slice, ast.Tuple)))


def _taking_addresses(node: ast.FunctionDef, places: list[int]) -> ast.FunctionDef:
    """``NAME__q``: ``node`` taking the arrays at ``places`` by their address; a view of each made at its start
    where its body reads it other than to pass it on (a call's ``address(name)`` becomes the address it came as)."""
    names = {node.args.args[i].arg for i in places}

    class Passed(ast.NodeTransformer):
        def visit_Call(self, c: ast.Call) -> Any:
            self.generic_visit(c)
            if (isinstance(c.func, ast.Name) and c.func.id == "address" and isinstance(c.args[0], ast.Name)
                    and c.args[0].id in names):
                return ast.Name(c.args[0].id + SUFFIX, ast.Load())
            return c

    new = Passed().visit(ast.parse(ast.unparse(node)).body[0])
    if not isinstance(new, ast.FunctionDef):  # (the visit keeps a definition one)
        raise TypeError(f"not a function: {ast.unparse(new)[:40]}")
    read = {n.id for n in ast.walk(new) if isinstance(n, ast.Name) and n.id in names}  # (other than passed on)
    new.name = node.name + SUFFIX
    for i in places:
        new.args.args[i].arg += SUFFIX
    start = [ast.parse(f"{n} = view_{n}({n}{SUFFIX})").body[0] for n in sorted(read)]
    new.body = [*start, *new.body]
    return new


_ADDRESSES = re.compile(r"^def (\w+)__q\(([^)]*)\):", re.M)


def python_forms(written: str, shapes: Mapping[str, tuple[int, ...]], compiled: Callable[[str], Any]
                 ) -> dict[str, Any]:
    """For each function of ``written`` (a changed text) that takes addresses (``NAME__q``), a plain function
    ``NAME`` taking the arrays as the written one did: each checked (the game's shape, whole numbers, contiguous) and
    its address passed to ``compiled(NAME__q)``, the compiled function (asked for at each call: made when first
    needed)."""
    import numpy as np

    from interpreter.compiled.ir.jit import seen  # (each array's address read once, as for every compiled call)
    from interpreter.compiled.ir.types import SubsetError

    def address(a: Any, shape: tuple[int, ...], name: str, i: int) -> int:
        try:
            found = seen(a) if type(a) is np.ndarray else None
        except SubsetError:  # (items of another type, or not contiguous)
            found = None
        if found is None or found[1] != shape or found[4].item != "i64":  # (its shape gives its dimensions)
            raise ValueError(f"{name}: argument {i + 1} is not an array of the game's shape {shape} of whole numbers")
        return found[2][0]

    forms: dict[str, Any] = {}
    for found in _ADDRESSES.finditer(written):
        name, params = found.group(1), [a.strip() for a in found.group(2).split(",") if a.strip()]
        places = {i: shapes[a[:-len(SUFFIX)]] for i, a in enumerate(params) if a.endswith(SUFFIX)}

        def form(*args: Any, _name: str = name, _places: dict[int, tuple[int, ...]] = places) -> Any:
            given = list(args)
            for i, shape in _places.items():
                given[i] = address(given[i], shape, _name, i)
            return compiled(_name + SUFFIX)(*given)

        form.__name__ = name
        forms[name] = form
    return forms
