"""What an expression costs at play where the checker proves enough (dsl/resolve.py, dsl/emit.py, dsl/builtins.py):
the same values, the same failures and the same budget as the general helpers, with fewer calls. Work is counted,
never timed.

The small game of test_dsl_proofs.py (six cards, four seats, the seats' tricks counted as numbers).
"""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.dsl import budget
from interpreter.dsl.codegen import charged, charged_one
from interpreter.dsl.compiler import Compiler
from interpreter.dsl.runtime import BINARY
from interpreter.dsl.types import NUMBER, VALUE, list_of
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


# ----------------------------------------------------------------------------- let


def helpers_of(text: str, per: str | None = None, **bound: Any) -> tuple[Any, set[str]]:
    compiler = Compiler(game())
    c = compiler.compile(text, dict(BOUND, **bound), locate, per=per)
    return c, {f.__name__ for f in compiler.gen.ns.values() if f in (charged, charged_one)}


@pytest.mark.parametrize("text, value, charged_items", [
    ("let x = seat.tricks in x + x", 6, 1),
    ("let x = seat.tricks in let y = x * 2 in [x, y]", (3, 6), 2),
    ("let x = 4 in x - seat.tricks", 1, 1),  # a constant value
    ("[let t = s.tricks in t * t for s in seats]", [9, 0, 4, 1], 4 + 4),
    ("let seat = round.monster in seat", None, 1),  # hides a bound name of its name
    ("let h = seat.hand in [c.number for c in h if c != first(h)]", [5], 1 + 2),
])
def test_a_let_is_a_call_of_a_function_of_its_name_charged_as_the_list_of_one_item(text, value, charged_items):
    c, helpers = helpers_of(text)
    assert work(c, env_for()) == (value, charged_items)
    assert "charged_one" in helpers and ("charged" in helpers) == ("for s in" in text or "for c in" in text)


def test_a_let_in_a_judged_expression_keeps_what_does_not_read_the_item_worked_out_once():
    c, _ = helpers_of("let n = len(seat.hand) in card.number > n", per="card")
    plain, _ = helpers_of("card.number > len(seat.hand)", per="card")
    cards = list(range(6))
    assert c.select(env_for(), cards) == plain.select(env_for(), cards) != []
    assert [c.exists(env_for(), [x]) for x in cards] == [plain.exists(env_for(), [x]) for x in cards]


def test_a_let_whose_value_fails_fails_at_play_as_before():
    c, _ = helpers_of("let x = seat.tricks // y in x", y=VALUE)
    assert failure(c, env_for(y=0)) == "integer division or modulo by zero"


# ----------------------------------------------------------------------------- a judged expression


def judged(text: str) -> Any:
    return Compiler(game()).compile(text, dict(BOUND), locate, per="card")


@pytest.mark.parametrize("text, values, charged_items", [
    # the colours of the stock, written twice: gone through once a call (2 cards, and 2 for distinct), not twice
    ("card.colour in [c.colour for c in stock] or len(distinct([c.colour for c in stock])) < 2", [0, 1, 2, 5], 4),
    ("card.number > len([c for c in stock]) and len([c for c in stock]) > 1", [1, 2, 4, 5], 2),
])
def test_parts_of_a_judged_expression_written_alike_that_do_not_read_the_item_are_worked_out_once(
        text, values, charged_items):
    c = judged(text)
    budget.reset()
    assert c.select(env_for(), list(range(6))) == values
    assert WORK_LIMIT - budget.left[0] == charged_items


@pytest.mark.parametrize("text, items, value, charged_items", [
    ("len(seat.hand) > 1", [0, 1, 2], [0, 1, 2], 0),  # the same for every item: worked out once
    ("len([c for c in stock]) > 5", [0, 1, 2], [], 2),
    ("len([c for c in stock]) > 1", [], [], 0),  # no item: not worked out
])
def test_a_judged_expression_that_does_not_read_the_item_is_worked_out_once_when_there_is_an_item(
        text, items, value, charged_items):
    c = judged(text)
    budget.reset()
    selected = c.select(env_for(), items)
    assert selected == value and selected is not items
    assert c.exists(env_for(), items) is bool(value)
    assert WORK_LIMIT - budget.left[0] == 2 * charged_items


# ----------------------------------------------------------------------------- defines


@pytest.mark.parametrize("defines, text, met", [
    # called through its memo; the expression reads the state, so it is not remembered whole
    ({"heavy(c)": "sum([c.number for x in [1, 2, 3]])"}, "heavy(card) + heavy(led) + round.number", (29, 6)),
    ({"points(c)": "[0, 10, 2][index([0, 7, 9], c.number)] if c.number != 5 else 1"},  # short: written in place
     "points(card) + points(led) + round.number", (4, 3)),
])
def test_a_define_that_reads_only_the_cards_it_is_given_is_worked_out_once_per_card(defines, text, met):
    c = Compiler(game(defines)).compile(text, dict(BOUND), locate)
    first = work(c, env_for())
    assert first[1] > 0
    assert [work(c, env_for()) for _ in range(2)] == [(first[0], 0)] * 2  # later evaluations: no work
    assert work(c, env_for(card=5)) == met  # a card met first (yellow 9): worked out


def test_a_define_that_reads_a_card_and_the_state_is_worked_out_at_every_call():
    c = Compiler(game({"worth(c)": "c.number + round.number"})).compile("worth(card) * 2", dict(BOUND), locate)
    state = env_for()
    assert c(state) == 18
    state["$s"].vars["number"] = 3
    assert c(state) == 20


@pytest.mark.parametrize("x, y, value", [
    ([1, 2], [3], (3 + 2) + (3 + 2)),  # lists are never remembered: each call its own
    ([1, 2], [4], (3 + 2) + (4 + 2)),
    (None, [4], 0 + (4 + 2)),  # a list that is none at play
])
def test_a_define_given_a_list_is_worked_out_for_each_call(x, y, value):
    c = Compiler(game({"total(xs)": "sum([n for n in xs]) + round.number if xs != none else 0"})).compile(
        "total(x) + total(y)", dict(BOUND, x=list_of(NUMBER), y=list_of(NUMBER)), locate)
    env = env_for(x=x, y=y)
    env["$batch"] = object()
    assert c(env) == value


@pytest.mark.parametrize("a, b, value", [([1], (1,), False), ([1], [2], True), ((), None, True), (3, 3, False)])
def test_not_equal_is_the_opposite_of_equal(a, b, value):
    c, _ = compiled("x != y", x=VALUE, y=VALUE)
    assert work(c, env_for(x=a, y=b)) == (value, len(a) if isinstance(a, (list, tuple)) else 0)


@pytest.mark.parametrize("defines, charged_items", [
    ({"firsts()": "slice(stock, 0, 1)"}, 1),  # goes through a list: worked out once a batch, wherever it is read
    ({"firsts()": "[stock[0]]"}, 0),  # no work: written in place
    ({"firsts()": "[first(stock)]"}, 0),
])
def test_a_define_without_parameters_that_does_work_is_worked_out_once_a_batch(defines, charged_items):
    c = Compiler(game(defines)).compile("len(firsts()) + len(firsts()) + round.number", dict(BOUND), locate)
    env = env_for()
    env["$batch"] = object()
    assert work(c, env) == (4, charged_items)


def test_seats_from_gives_a_list_of_its_own_each_time():
    c = Compiler(game()).compile("seats_from(seat)", dict(BOUND), locate)
    first = c(env_for(seat=2))
    first.append(9)
    assert c(env_for(seat=2)) == [2, 3, 0, 1] and c(env_for(seat=0)) == [0, 1, 2, 3]


@pytest.mark.parametrize("text, trump, value", [
    ("matches(card, round.trump)", "red", True),  # card 1 is red 7
    ("matches(card, round.trump)", 7, True),
    ("matches(led, round.trump)", None, False),  # a round value not set: none, as passed
    ("[c.number for c in stock if matches(c, round.trump)]", "yellow", [9]),
])
def test_a_short_define_given_a_round_value_is_written_in_place(text, trump, value):
    compiler = Compiler(game({"matches(c, t)": "c.colour == t or c.number == t"}))
    c = compiler.compile(text, dict(BOUND), locate)
    env = env_for()
    env["$s"].vars["trump"] = trump
    assert c(env) == value
    written = [t for t in compiler.gen._used if "matches" not in t and "trump" in t]
    assert written and all("(e, " not in t for t in written)  # no define called
