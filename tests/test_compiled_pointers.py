"""The arrays passed between compiled functions by their address (interpreter/compiled/pointers.py): which functions
and parameters the text's change takes, that an array only passed on is passed as the address it came as, and, compiled,
that the changed text computes what the plain one does and that Python's call of a function checks the
shapes."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from interpreter.compiled.pointers import SUFFIX, by_address

SHAPES = {"z": (2, 3), "zn": (2,), "p": (4,)}

TEXT = '''
def inner(z, zn, p, k):
    zn[k] += 1
    z[k, zn[k]] = p[k]
    return zn[k]


def middle(z, zn, p):
    return inner(z, zn, p, 0) + inner(z, zn, p, 1)


def outer(z, zn, p, ps):
    total = 0
    for g in range(2):
        total += middle(z, zn, ps[g])
    return total + sliced(p[1:])


def sliced(p):
    return p[0]
'''


def functions(text: str) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)}


def test_the_arrays_are_taken_by_address_where_every_call_gives_a_name_or_a_row():
    found = functions(by_address(TEXT, SHAPES))
    # a function called by another takes addresses (one compiled function for compiled callers and for Python: no
    # form of the old name in the text); one no function calls keeps its arrays and passes their addresses on
    assert set(found) == {f"inner{SUFFIX}", f"middle{SUFFIX}", "outer", "sliced"}
    assert [a.arg for a in found[f"inner{SUFFIX}"].args.args] == [f"z{SUFFIX}", f"zn{SUFFIX}", f"p{SUFFIX}", "k"]
    # a parameter given a slice at a call keeps its array (a view of its address would read other numbers)
    inner = ast.unparse(found[f"inner{SUFFIX}"])
    assert "z = view_z(z__q)" in inner and "zn = view_zn(zn__q)" in inner and "p = view_p(p__q)" in inner
    # middle only passes its arrays on: no view made, the addresses passed as they came
    middle = ast.unparse(found[f"middle{SUFFIX}"])
    assert "view_" not in middle and f"inner{SUFFIX}(z__q, zn__q, p__q, 0)" in middle
    # a row of an array is passed by its address
    outer = ast.unparse(found["outer"])
    assert f"middle{SUFFIX}(address(z), address(zn), address(ps[g]))" in outer and "sliced(p[1:])" in outer


def test_compiled_the_changed_text_computes_what_the_plain_text_does():
    pytest.importorskip("llvmlite")
    from interpreter.compiled.ir.jit import Native
    from interpreter.compiled.pointers import python_forms

    def arrays():
        return np.zeros((2, 3), np.int64), np.zeros(2, np.int64), np.arange(4, dtype=np.int64), \
            np.arange(8, dtype=np.int64).reshape(2, 4) + 10

    plain: dict = {}
    exec(compile(TEXT, "<plain>", "exec"), plain)  # noqa: S102 - the test's own text
    want = arrays()
    expected = plain["outer"](*want)

    written = by_address(TEXT, SHAPES)
    space: dict = {}
    exec(compile(written, "<changed>", "exec"), space)  # noqa: S102 - the test's own text
    native = Native(written, space, SHAPES, None)
    for name in functions(written):
        space[name] = native.function(name)
    got = arrays()
    assert space["outer"](*got) == expected
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a, b)  # every write landed where the plain text's did
    # Python calls a function taking addresses by its old name, with arrays: each checked, then its address given
    forms = python_forms(written, SHAPES, space.__getitem__)
    assert set(forms) == {"inner", "middle"}
    again, check = arrays(), arrays()
    assert forms["middle"](*again[:3]) == plain["middle"](*check[:3])
    assert all(np.array_equal(a, b) for a, b in zip(again, check, strict=True))
    for bad in (np.zeros((3, 3), np.int64), np.zeros((2, 3), np.int32), np.zeros((3, 2), np.int64).T):
        with pytest.raises(ValueError, match="not an array of the game's shape"):
            forms["middle"](bad, *arrays()[1:3])
