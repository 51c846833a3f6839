"""What the checker proves of an expression's parts (ir.Part's ``sure`` and ``full``) and the written code that needs
no guard for it (dsl/resolve.py, dsl/emit.py): each guard left out is left out only where it cannot fire, and where
it can, play fails or gives none exactly as before, with the same message at the same place.

The small game of test_dsl.py (six cards, four seats), but with the seats' tricks counted as numbers, as a game's
counters are (engine/compile.py); the budget is counted, never timed.
"""

from __future__ import annotations

from typing import Any

import pytest

from interpreter.dsl import budget
from interpreter.dsl.codegen import charged, charged_nested
from interpreter.dsl.compiler import Compiler, ExpressionFailed, Globals
from interpreter.dsl.runtime import add, multiply, subtract
from interpreter.dsl.types import CARDS, NUMBER, SEATS, VALUE
from interpreter.limits import WORK_LIMIT

from .test_dsl import BOUND, COL, FILE, LINE, env_for, locate, make_globals


def game(defines: dict[str, str] | None = None) -> Globals:
    g = make_globals(defines)
    g.seat_attrs["tricks"] = (NUMBER, lambda st, s: st.tricks[s], False, lambda st, s, ref: f"{st}.tricks[{s}]")
    g.round_fields["points"] = NUMBER
    g.zones = {"stock": CARDS, "trick": CARDS}
    return g


def compiled(text: str, defines: dict[str, str] | None = None, **bound: Any) -> tuple[Any, str]:
    """The compiled expression and the source written for it (every function made, one per line)."""
    c, source, _ = compiled_with(text, defines, **bound)
    return c, source


def compiled_with(text: str, defines: dict[str, str] | None = None, **bound: Any) -> tuple[Any, str, set[str]]:
    """The compiled expression, its source, and the names of the runtime's operators its source calls."""
    compiler = Compiler(game(defines))
    c = compiler.compile(text, dict(BOUND, **bound), locate)
    helpers = {f.__name__ for f in compiler.gen.ns.values() if f in (add, subtract, multiply)}
    return c, "\n".join(sorted(compiler.gen._used)), helpers


def failure(c: Any, env: dict[str, Any]) -> str:
    with pytest.raises(ExpressionFailed) as info:
        c.run(env)
    prefix = f"{FILE}:{LINE}:{COL}: error: expression {c.text!r} failed: "
    assert str(info.value).startswith(prefix)
    return str(info.value)[len(prefix):]


def work(c: Any, env: dict[str, Any]) -> tuple[Any, int]:
    """The value and the items it charged to the budget."""
    budget.reset()
    value = c.run(env)
    return value, WORK_LIMIT - budget.left[0]


# ----------------------------------------------------------------------------- an item that is never none


@pytest.mark.parametrize("text, value", [
    ("[s.tricks for s in team(seat)]", [3, 2]),
    ("[s.name for s in seats_from(round.dealer) if s.tricks > 0]", ["west", "north", "south"]),
    ("[s.tricks for s in [p for p in opponents(seat)]]", [0, 1]),
    ("[c.colour for c in stock]", ["yellow", "red"]),
    ("[[s.index, c.number] for s in seats for c in stock if s.tricks == 3]", [(0, 9), (0, 7)]),
])
def test_an_item_of_a_list_none_of_whose_items_is_none_is_read_without_a_test_for_none(text, value):
    c, source = compiled(text)
    assert c(env_for()) == value
    assert "is not None" not in source


@pytest.mark.parametrize("text, value", [
    ("[s.tricks for s in [seat, round.monster]]", [3, None]),  # a list written in the rule may hold none
    ("[s.name for s in [round.monster]]", [None]),
    ("[s.tricks for s in x]", [None, 2]),  # a bound list: what the rule gave
    ("[c.colour for c in [first(y), card]]", [None, "red"]),  # a card's attribute: none of none (a table)
])
def test_an_item_of_a_list_that_may_hold_none_still_reads_none_for_none(text, value):
    c, source = compiled(text, x=SEATS, y=CARDS)
    assert "is not None" in source or "c.colour" in c.text
    assert c(env_for(x=[None, 2], y=[])) == value


@pytest.mark.parametrize("text, message", [
    ("[s.tricks for s in team(round.monster)]", "team() needs a seat, got none"),
    ("[s.tricks + 1 for s in [round.monster]]", "'+' cannot combine none and a number"),
    ("[s.tricks < 2 for s in [seat, round.monster]]", "'<' cannot compare none with a number"),
    ("[c.number for c in y]", "none is not a list"),
])
def test_a_seat_or_a_card_that_may_be_none_fails_at_play_as_before(text, message):
    c, _ = compiled(text, y=CARDS)
    assert failure(c, env_for(y=None)) == message


# ----------------------------------------------------------------------------- whole numbers


@pytest.mark.parametrize("text, value", [
    ("seat.tricks + 1", 4),
    ("seat.tricks - len(seat.hand)", 1),
    ("len(seat.hand) * (2 if seat.tricks > 1 else 1)", 4),
    ("sum(s.tricks for s in team(seat)) * 10 - 1", 49),
    ("-len(stock) * 3", -6),
])
def test_arithmetic_on_whole_numbers_is_pythons_own_operator_within_the_bounds(text, value):
    c, _, helpers = compiled_with(text)
    assert c(env_for()) == value
    assert not helpers


@pytest.mark.parametrize("text, helper", [
    ("seat.tricks * 2", "multiply"),  # may be none: the helper names what it was given
    ("x + 1", "add"),  # a value the checker cannot tell (a number, a text, a list...)
    ("x - seat.tricks", "subtract"),
])
def test_arithmetic_the_checker_cannot_prove_keeps_its_helper(text, helper):
    assert compiled_with(text, x=VALUE)[2] == {helper}


@pytest.mark.parametrize("text, tricks, message", [
    # + and - of numbers that may be none: Python's message is the helper's
    ("seat.tricks + 1", None, "'+' cannot combine none and a number"),
    ("round.points - seat.tricks", 1, "'-' cannot combine none and a number"),
    # * of a number that may be none keeps its helper, which names what it was given
    ("seat.tricks * 2", None, "'*' needs two numbers, got None and 2"),
    ("round.points * len(stock)", 1, "'*' needs two numbers, got None and 2"),
    # the bound on numbers stays, at play
    ("seat.tricks + 999999999999999", 1, "a number past 999,999,999,999,999 (numbers have at most 15 digits)"),
    ("len(stock) * 999999999999999", 1, "a number past 999,999,999,999,999 (numbers have at most 15 digits)"),
    ("-999999999999999 - seat.tricks", 1, "a number past 999,999,999,999,999 (numbers have at most 15 digits)"),
])
def test_arithmetic_that_fails_at_play_fails_as_before(text, tricks, message):
    c, _ = compiled(text)
    env = env_for()
    env["$s"].tricks[0] = tricks
    env["$s"].vars["points"] = None
    assert failure(c, env) == message


def test_the_same_failure_reads_the_same_whether_the_operator_is_pythons_own_or_the_helpers():
    native, _, none = compiled_with("seat.tricks + 1")
    helper, _, used = compiled_with("x + 1", x=VALUE)  # a value the checker cannot tell: the helper
    assert (none, used) == (set(), {"add"})
    env = env_for(x=None)
    env["$s"].tricks[0] = None
    assert failure(native, env) == failure(helper, env)


# ----------------------------------------------------------------------------- lists joined, lists gone through


@pytest.mark.parametrize("text, value, items", [
    ("[seat] + team(seat)", [0, 0, 2], 3),  # joined: its items charged
    ("[s for s in [seat] + team(seat)]", [0, 0, 2], 6),  # and gone through
    ("seats + [round.monster]", [0, 1, 2, 3, None], 5),
    ("sum(s.tricks for s in seats)", 6, 8),  # gone through, then summed
    ("count(s.tricks > 1 for s in seats)", 2, 8),
    ("max(s.tricks for s in seats) + min([1, 2, 3])", 4, 8),  # min of a list written in the rule: worked out once
    ("any(s.tricks > 2 for s in seats) and all(s.tricks >= 0 for s in seats)", True, 16),
])
def test_joining_and_going_through_lists_charges_the_budget_as_before(text, value, items):
    c, _ = compiled(text)
    assert work(c, env_for()) == (value, items)


def test_two_lists_never_none_are_joined_without_the_helper_and_others_keep_it():
    assert compiled_with("[seat] + team(seat)")[2] == set()
    compiler = Compiler(game())  # gone through as it is joined: charged for both in one call (see the counts above)
    compiler.compile("[s for s in [seat] + team(seat)]", BOUND, locate)
    assert charged not in compiler.gen.ns.values()
    c, _, helpers = compiled_with("y + seats", y=SEATS)  # a bound list may be none
    assert helpers == {"add"}
    assert failure(c, env_for(y=None)) == "'+' cannot combine none and a list"


def test_a_joined_list_and_a_sum_stop_when_the_budget_runs_out():
    for text in ("[seat] + team(seat)", "sum(s.tricks for s in seats)", "count(s.tricks > 1 for s in seats)"):
        c, _ = compiled(text)
        budget.reset()
        budget.left[0] = 2
        assert failure(c, env_for()).startswith("the rules' expressions went through more than 1,000,000 items")
    budget.reset()


# ----------------------------------------------------------------------------- defines of one parameter


def test_a_define_of_one_parameter_is_worked_out_once_per_argument_within_a_batch():
    defines = {"load(s)": "sum(c.number for c in s.hand)", "top(xs)": "len([x for x in xs])"}
    c, _ = compiled("[load(s) for s in [seat, seat, seat, left(seat)]]", defines)
    env = env_for()
    assert work(c, env) == ([5, 5, 5, 16], 4 + 4 * 4)  # no batch: the body every time (2 cards gone through, summed)
    env["$batch"] = object()
    assert work(c, env) == ([5, 5, 5, 16], 4 + 4 + 4)  # within a batch: once for north, once for east
    listed, _ = compiled("[top(s.hand) for s in [seat, seat]]", defines)
    env["$batch"] = object()
    assert work(listed, env) == ([2, 2], 2 + 2 * 2)  # a list argument is not remembered


@pytest.mark.parametrize("text, value, items", [
    # the second list is the same for each card of the hand: charged once for all (2 + 2 * 2), as loop by loop
    ("let t = [c for c in stock] in [[h, c] for h in seat.hand for c in t]", [(0, 5), (0, 2), (4, 5), (4, 2)], 9),
    ("let t = [c for c in stock] in [[h, c] for h in x for c in t]", [], 3),  # no card: the second never gone through
    # a condition on the first: only its items go through the second (as before: each loop charged on its own)
    ("let t = [c for c in stock] in [[h, c] for h in seat.hand if h.number > 0 for c in t]", [(4, 5), (4, 2)], 7),
    ("[c for t in [x, seat.hand] for c in t]", [0, 4], 4),  # the second list is the first's item: as before
])
def test_a_list_gone_through_for_each_item_of_another_is_charged_as_before(text, value, items):
    c, _ = compiled(text, x=CARDS)
    assert work(c, env_for(x=[])) == (value, items)
    budget.reset()
    budget.left[0] = items - 1
    assert failure(c, env_for(x=[])).startswith("the rules' expressions went through more than")
    budget.reset()


def test_a_list_the_same_for_each_item_of_another_is_charged_once_for_all():
    compiler = Compiler(game())
    compiler.compile("let t = [c for c in stock] in [[h, c] for h in seat.hand for c in t]", BOUND, locate)
    assert charged_nested in compiler.gen.ns.values()
    for text in ("[[h, c] for h in seat.hand for c in stock]",  # a zone, read for each item: as before
                 "[c for t in [seat.hand] for c in t]",  # the first's item
                 "let t = [c for c in stock] in [[h, c] for h in seat.hand if h.number > 0 for c in t]"):
        compiler = Compiler(game())
        compiler.compile(text, BOUND, locate)
        assert charged_nested not in compiler.gen.ns.values() and charged in compiler.gen.ns.values()


# ----------------------------------------------------------------------------- short defines written in place


def test_a_short_define_is_written_in_place_of_a_call_whose_arguments_are_read_without_work():
    defines = {"doubled(s)": "s.tricks * 2", "strong(s)": "doubled(s) > 3"}
    compiler = Compiler(game(defines))
    c = compiler.compile("[s.name for s in seats if strong(s)]", BOUND, locate)
    assert c(env_for()) == ["north", "south"]
    top = [t for t in compiler.gen._used if t.startswith("lambda e: [")]
    assert len(top) == 1 and ".tricks[_v_s]" in top[0] and "_v_strong" not in top[0]  # no call: the bodies in place
    called = compiler.compile("[strong(left(s)) for s in seats]", BOUND, locate)  # an argument worked out: a call
    assert called(env_for()) == [False, True, False, True]


@pytest.mark.parametrize("text, message", [
    ("half(x)", "'//' cannot combine text and a number"),
    ("[half(y) for y in [x]]", "'//' cannot combine text and a number"),
    ("safe(x)", "'//' cannot combine text and a number"),
    ("half(seat.name)", "'//' cannot combine text and a number"),  # called: the same message
])
def test_a_define_written_in_place_fails_at_play_as_its_call_did(text, message):
    c, _ = compiled(text, {"half(n)": "n // 2", "safe(n)": "half(n) if n != none else 0"}, x=VALUE)
    assert failure(c, env_for(x="a")) == message


def test_defines_calling_each_other_twice_are_written_in_place_only_so_far():
    # each calls the one before twice: 2**15 calls at play, and as much source if every call were written in place
    defines = {"f0(x)": "x + 1"} | {f"f{i}(x)": f"f{i - 1}(x) + f{i - 1}(x)" for i in range(1, 16)}
    compiler = Compiler(game(defines))
    c = compiler.compile("f15(seat.tricks)", BOUND, locate)
    assert c(env_for()) == 4 * 2 ** 15
    assert sum(len(t) for t in compiler.gen._used) < 40_000
