"""The arrays passed between compiled functions by their address (interpreter/compiled/pointers.py): which functions
and parameters the text's change takes, that an array only passed on is passed as the address it came as, and, with
numba, that the changed text computes what the plain one does and that Python's call of a function checks the
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
    # each changed function has its address form and its form for Python of the same name; one no function calls
    # keeps its arrays and passes their addresses on
    assert {"inner", f"inner{SUFFIX}", "middle", f"middle{SUFFIX}", "outer"} <= set(found)
    assert f"outer{SUFFIX}" not in found
    assert [a.arg for a in found[f"inner{SUFFIX}"].args.args] == [f"z{SUFFIX}", f"zn{SUFFIX}", f"p{SUFFIX}", "k"]
    # a parameter given a slice at a call keeps its array (a view of its address would read other numbers)
    assert "sliced" in found and f"sliced{SUFFIX}" not in found
    inner = ast.unparse(found[f"inner{SUFFIX}"])
    assert "z = view_z(z__q)" in inner and "zn = view_zn(zn__q)" in inner and "p = view_p(p__q)" in inner
    # middle only passes its arrays on: no view made, the addresses passed as they came
    middle = ast.unparse(found[f"middle{SUFFIX}"])
    assert "view_" not in middle and f"inner{SUFFIX}(z__q, zn__q, p__q, 0)" in middle
    # a row of an array is passed by its address; the Python form checks the shapes, then calls the address form
    outer = ast.unparse(found["outer"])
    assert f"middle{SUFFIX}(address(z), address(zn), address(ps[g]))" in outer and "sliced(p[1:])" in outer
    python = ast.unparse(found["middle"])
    assert "z.shape != (2, 3)" in python and f"middle{SUFFIX}(address(z), address(zn), address(p))" in python


def test_compiled_the_changed_text_computes_what_the_plain_text_does():
    numba = pytest.importorskip("numba")
    from interpreter.compiled.pointers import helpers

    def arrays():
        return np.zeros((2, 3), np.int64), np.zeros(2, np.int64), np.arange(4, dtype=np.int64), \
            np.arange(8, dtype=np.int64).reshape(2, 4) + 10

    plain: dict = {}
    exec(compile(TEXT, "<plain>", "exec"), plain)  # noqa: S102 - the test's own text
    want = arrays()
    expected = plain["outer"](*want)

    space: dict = dict(helpers(SHAPES))
    exec(compile(by_address(TEXT, SHAPES), "<changed>", "exec"), space)  # noqa: S102 - the test's own text
    for name, value in list(space.items()):
        if callable(value) and getattr(value, "__module__", None) is None and name.startswith(("inner", "middle",
                                                                                                 "outer", "sliced")):
            space[name] = numba.njit(_nrt=False)(value)
    got = arrays()
    assert space["outer"](*got) == expected
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a, b)  # every write landed where the plain text's did
    with pytest.raises(ValueError, match="another shape"):
        space["middle"](np.zeros((3, 3), np.int64), *arrays()[1:3])
