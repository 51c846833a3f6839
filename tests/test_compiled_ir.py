"""The IR writer (interpreter/compiled/ir): the subset of Python the templates write, compiled to machine code, computes
what the same text computes run as Python: arithmetic with Python's signs, indexes from the end, clamped slices,
``and``/``or`` giving the deciding value, tuples, floats, arrays of other item types, numpy's random stream draw for
draw; errors raised where Python raises them; anything outside the subset refused by name."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from interpreter.compiled.ir.jit import Native
from interpreter.compiled.ir.types import SubsetError

pytest.importorskip("llvmlite")

SOURCE = '''
def arithmetic(a, b):
    return a // b, a % b, a * b - a, (a << 3) >> 1, a & b | 5, a ^ ~b, -a, abs(a - b), max(a, b, 3), min(a, b)


def floats(a, b):
    x = a / b
    y = x * 2.5 - a
    if y > 1.0:
        y = y - int(y)
    return x, y, np.sqrt(abs(x) + 1.0), np.log(abs(y) + 2.0), int(x * 7.0)


def logic(a, b):
    c = a and b
    d = a or b
    e = not a
    f = 0 <= a < b <= 10
    return c, d, e, f, (a if b > a else b), a != b


def items(z, zn, k):
    zn[:] = 0
    zn[-1] = k
    z[1, -1] = zn[-1] + z[0, 1]
    z[0, k % 3] += 4
    row = z[1]
    part = z[0][1:100]
    tail = zn[-2:]
    total = 0
    for i in range(len(part) - 1, -1, -1):
        total = total * 3 + part[i]
    while total > 1000:
        total = total // 2
        if total % 7 == 0:
            break
        if total % 5 == 0:
            continue
        total = total - 1
    return total + row[-1] + len(tail) + len(zn[5:1]) + len(zn[:-1]) + z.shape[1]


def mixed(flags, small, half):
    n = 0
    for i in range(len(flags)):
        if flags[i]:
            n += small[i]
        flags[i] = small[i] > 0
        half[i] = half[i] * 1.5 + small[i]
    small[0] = 100
    return n


def pair(x):
    return x + 1, x * 2


def tuples(x):
    a, b = pair(x)
    a, b = b, a
    return a - b + pair(x)[1]


def draws(s, n, out):
    np.random.seed(s)
    for i in range(n):
        out[i] = int(np.random.random() * 1000000)
    return np.random.random()


def grab(h, n):
    if h[0] + n > len(h):
        raise MemoryError("full")
    h[0] += n
    return h[0]


def deeper(h, n):
    x = grab(h, n)
    return x + grab(h, n)


def divided(a, b):
    return a // b
'''


@pytest.fixture(scope="module")
def both() -> tuple[dict[str, Any], Native]:
    plain: dict[str, Any] = {"np": np}
    exec(compile(SOURCE, "<subset>", "exec"), plain)  # noqa: S102 - the test's own text
    return plain, Native(SOURCE, plain, {}, None)


def test_arithmetic_and_logic_as_python(both):
    plain, native = both
    values = [-17, -7, -3, -1, 0, 1, 2, 3, 7, 19, 2**20 + 3]  # (their products within 64 bits)
    for a, b in itertools.product(values, values):
        if b != 0:
            assert native.call("arithmetic", a, b) == plain["arithmetic"](a, b), (a, b)
        assert native.call("logic", a, b) == tuple(int(x) if isinstance(x, bool) and i not in (2, 3, 5) else x
                                                   for i, x in enumerate(plain["logic"](a, b))), (a, b)


def test_floats_as_python(both):
    plain, native = both
    rng = random.Random(1)
    for _ in range(50):
        a, b = rng.randint(-50, 50), rng.choice([-7, -2, 1, 3, 11])
        assert native.call("floats", a, b) == plain["floats"](a, b)
        assert native.call("floats", a * 0.25, float(b)) == plain["floats"](a * 0.25, float(b))


def test_arrays_indexes_slices_and_loops_as_python(both):
    plain, native = both
    for k in range(-4, 9):
        z1, z2 = (np.arange(14, dtype=np.int64).reshape(2, 7) * 37 % 11 for _ in range(2))
        n1, n2 = np.ones(6, np.int64), np.ones(6, np.int64)
        assert native.call("items", z1, n1, k) == plain["items"](z2, n2, k)
        assert np.array_equal(z1, z2) and np.array_equal(n1, n2)


def test_arrays_of_truths_small_numbers_and_floats(both):
    plain, native = both
    made = [(np.array([True, False, True]), np.array([5, -3, 7], np.int8), np.array([0.5, 1.0, -2.0], np.float32))
            for _ in range(2)]
    assert native.call("mixed", *made[0]) == plain["mixed"](*made[1])
    for a, b in zip(made[0], made[1], strict=True):
        assert np.array_equal(a, b) and a.dtype == b.dtype  # (each item stored as its array's type)


def test_tuples_returned_unpacked_swapped_and_indexed(both):
    plain, native = both
    assert [native.call("tuples", x) for x in range(-3, 4)] == [plain["tuples"](x) for x in range(-3, 4)]


def test_numpy_s_random_stream_draw_for_draw(both):
    plain, native = both
    for seed in (0, 1, 12345, 2**32 - 1):
        mine, numpy_s = np.zeros(1500, np.int64), np.zeros(1500, np.int64)  # (past the 624 words: drawn again)
        assert native.call("draws", seed, 1500, mine) == plain["draws"](seed, 1500, numpy_s)
        assert np.array_equal(mine, numpy_s)


def test_an_error_leaves_every_caller_and_is_raised_by_the_call(both):
    _, native = both
    h = np.zeros(10, np.int64)
    assert native.call("deeper", h, 3) == 3 + 6
    with pytest.raises(MemoryError, match="full"):
        native.call("deeper", h, 3)  # (the second grab fails: its caller goes no further)
    assert h[0] == 9
    assert native.call("grab", h, 1) == 10  # (the error cleared)
    with pytest.raises(ZeroDivisionError):
        native.call("divided", 3, 0)
    assert native.call("divided", -7, 2) == -4


@pytest.mark.parametrize("text, said", [
    ("def f(x):\n    return [x]\n", r"\[x\]"),
    ("def f(x):\n    for i in x:\n        pass\n", "range"),
    ("def f(x):\n    return f(x)\n", "calls itself"),
    ("def f(x):\n    return g(x)\n", "call of g"),
    ("def f(x):\n    return x.real\n", "x.real"),
    ("def f(x):\n    for i in range(0, 9, x):\n        pass\n", "step"),
])
def test_python_outside_the_subset_is_refused(text, said):
    with pytest.raises(SubsetError, match=said):
        Native(text, {}, {}, None).call("f", 1)
