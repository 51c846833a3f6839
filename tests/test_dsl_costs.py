"""What an expression costs at play where the checker proves enough (dsl/resolve.py, dsl/emit.py, dsl/builtins.py):
the same values, the same failures and the same budget as the general helpers, with fewer calls. Work is counted,
never timed.

The small game of test_dsl_proofs.py (six cards, four seats, the seats' tricks counted as numbers).
"""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.dsl import budget
from interpreter.dsl.compiler import Compiler
from interpreter.dsl.runtime import BINARY
from interpreter.dsl.types import VALUE
from interpreter.limits import WORK_LIMIT

from .test_dsl import BOUND, env_for, locate
from .test_dsl_proofs import failure, game


def compiled(text: str, defines: dict[str, str] | None = None, **bound: Any) -> tuple[Any, set[str]]:
    """The compiled expression and the operators of runtime.BINARY its source calls (by their Python symbol)."""
    compiler = Compiler(game(defines))
    c = compiler.compile(text, dict(BOUND, **bound), locate)
    helpers = {op for op, f in BINARY.items() if any(v is f for v in compiler.gen.ns.values())}
    return c, helpers


def work(c: Any, env: dict[str, Any]) -> tuple[Any, int]:
    budget.reset()
    value = c.run(env)
    return value, WORK_LIMIT - budget.left[0]


# ----------------------------------------------------------------------------- comparisons


@pytest.mark.parametrize("text, x, value", [
    ("len(seat.hand) <= max(x)", [1, 5], True),
    ("len(seat.hand) > max(x)", [1, 5], False),
    ("seat.tricks == x", 3, True),
    ("seat.tricks == x", [3], False),  # a list is never equal to a number
    ("seat.tricks != x", None, True),
    ("len(seat.hand) == x", 2, True),
    ("x < seat.tricks", 2, True),  # an order: one side never a list is enough
    ("x >= len(seat.hand)", 2, True),
    ("card == first(seat.hand)", None, False),
    ("round.monster == x", None, True),
    ("(seat.tricks > 1) == x", True, True),
])
def test_a_comparison_with_a_side_that_is_never_a_list_is_pythons_own_operator(text, x, value):
    c, helpers = compiled(text, x=VALUE)
    assert not helpers & {"==", "!=", "<", "<=", ">", ">="}
    assert work(c, env_for(x=x)) == (value, 0 if "max" not in text else len(x))


@pytest.mark.parametrize("text, x, value, charged", [
    ("x == y", [1, 3], False, 2),  # a list on the left is charged, and a tuple equals a list of the same items
    ("x == y", (1, 2), True, 2),
    ("x < y", (1, 2), True, 0),
    ("x == seat.tricks", [1, 2], False, 2),
])
def test_a_comparison_whose_left_side_may_be_a_list_keeps_the_helper(text, x, value, charged):
    c, helpers = compiled(text, x=VALUE, y=VALUE)
    assert helpers & {"==", "<"}
    assert work(c, env_for(x=x, y=[1, 2] if "==" in text else [1, 3])) == (value, charged)


@pytest.mark.parametrize("text, message", [
    ("seat.tricks < x", "'<' cannot compare a number with text"),
    ("len(seat.hand) > x", "'>' cannot compare a number with none"),
])
def test_a_comparison_written_as_pythons_own_fails_at_play_as_before(text, message):
    c, helpers = compiled(text, x=VALUE)
    assert not helpers
    assert failure(c, env_for(x="a" if "tricks" in text else None)) == message
