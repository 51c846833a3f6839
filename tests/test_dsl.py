"""The expression language on its own: parsing, checking, compiling, evaluating.

Most tests build a small :class:`Globals` by hand (a six-card deck, four seats,
a few round values) and a ``locate`` function that puts the expression at
``rules.yaml`` line 7, column 12, so every error position can be asserted
exactly. The last tests check the builtins' own examples and the examples of
``docs/dsl.md`` against the real NJET rule file, and that the messages the
reference documents are the real ones.
"""

from __future__ import annotations

import ast as pyast
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter.dsl import ast
from interpreter.dsl.builtins import REGISTRY
from interpreter.dsl.compiler import Compiled, Compiler, Define, ExpressionFailed, Globals
from interpreter.dsl.parser import MAX_NESTING, DslSyntaxError, parse
from interpreter.dsl.types import CARD, CARDS, NUMBER, SEAT, SEATS, TEXT, TRUTH, VALUE, list_of, record, type_of_data
from interpreter.engine.state import State
from interpreter.errors import ExpressionError, GameError, Position

ROOT = Path(__file__).resolve().parent.parent
FILE = "rules.yaml"
LINE = 7
COL = 12


def locate(offset: int) -> Position:
    return Position(FILE, LINE, COL + offset)


def at(offset: int) -> Position:
    """Where character ``offset`` of the expression is in the file."""
    return Position(FILE, LINE, COL + offset)


def in_define(index: int, offset: int = 0) -> Position:
    """Where character ``offset`` of the ``index``-th define's text is (line 20 + index, from column 5)."""
    return Position(FILE, 20 + index, 5 + offset)


# card id -> (colour, number, copy)
DECK = [("red", 0, 0), ("red", 7, 0), ("red", 7, 1), ("blue", 0, 0), ("blue", 5, 0), ("yellow", 9, 0)]
SETUP = {"hand": 15, "own_team": [2], "rounds": 8}
NAMES = ["north", "east", "south", "west"]


class FakeState:
    """What compiled expressions read from a game state, and nothing more."""

    def __init__(self) -> None:
        self.players = 4
        self.vars: dict[str, Any] = {"number": 2, "dealer": 3, "trump": "red", "monster": None,
                                     "cache": {"discard": 2, "keep_zeros": True}}
        self.hands = [[0, 4], [1, 5], [2], [3]]
        self.tricks = [3, 0, 2, 1]
        self.totals = [10, -2, 7, 0]
        self.teams = [0, 1, 0, 1]
        self.team_known = [0b0001, 0b0110, 0b0100, 0b1000]  # hidden teams: north knows only its own
        self.team_counted = False
        self.shared: dict[str, list[int]] = {"stock": [5, 2], "trick": []}
        self.game_vars: dict[str, Any] = {"pot": 7, "start": 2}

    def team_members(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if self.teams[s] == self.teams[seat]]

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if self.teams[s] != self.teams[seat]]

    def same_team(self, a: int, b: int) -> bool:
        return self.teams[a] == self.teams[b]

    known_teams = State.known_teams
    known_team = State.known_team
    known_opponents = State.known_opponents


def make_globals(defines: dict[str, str] | None = None) -> Globals:
    """Four seats, the six-card DECK, and ``defines`` written as in a rule file (``name(a, b)``: text)."""
    g = Globals()
    g.constants = {
        "players": (VALUE, 4),
        "seats": (SEATS, (0, 1, 2, 3)),
        "options": (record({"short_game": VALUE, "limit": VALUE}), {"short_game": False, "limit": 10}),
        "setup": (type_of_data(SETUP), SETUP),
    }
    g.card_attrs = {
        "colour": tuple(c for c, _, _ in DECK),
        "number": tuple(n for _, n, _ in DECK),
        "copy": tuple(k for _, _, k in DECK),
        "label": tuple(f"{c} {n}" for c, n, _ in DECK),
    }
    g.seat_attrs = {  # (type, getter, fixed for the game, source in generated code) as compile.py gives them
        "hand": (CARDS, lambda st, s: st.hands[s], False, lambda st, s, ref: f"{st}.hands[{s}]"),
        "tricks": (VALUE, lambda st, s: st.tricks[s], False, lambda st, s, ref: f"{st}.tricks[{s}]"),
        "total": (VALUE, lambda st, s: st.totals[s], False, lambda st, s, ref: f"{st}.totals[{s}]"),
        "index": (VALUE, lambda st, s: s, False, lambda st, s, ref: s),
        "name": (VALUE, lambda st, s: NAMES[s], False, lambda st, s, ref: f"{ref(NAMES)}[{s}]"),
    }
    g.round_fields = {"number": VALUE, "dealer": SEAT, "trump": VALUE, "monster": SEAT,
                      "cache": record({"discard": VALUE, "keep_zeros": VALUE})}
    g.game_fields = {"pot": VALUE, "start": SEAT}
    for i, (key, text) in enumerate((defines or {}).items()):
        name, _, rest = key.partition("(")
        params = tuple(p.strip() for p in rest.rstrip(")").split(",") if p.strip())
        g.defines[name] = Define(name, params, text, lambda o, i=i: in_define(i, o))
    return g


BOUND = {"card": CARD, "led": CARD, "seat": SEAT}


def compile_(text: Any, bound: dict | None = None, defines: dict[str, str] | None = None,
             expect: str | None = None, g: Globals | None = None) -> Compiled:
    return Compiler(g or make_globals(defines)).compile(text, BOUND if bound is None else bound, locate, expect)


def env_for(**values: Any) -> dict[str, Any]:
    """card = red 7 (id 1), led = blue 0 (id 3), seat = north (0), plus ``values``."""
    env: dict[str, Any] = {"$s": FakeState(), "card": 1, "led": 3, "seat": 0}
    env.update(values)
    return env


def run(text: str, defines: dict[str, str] | None = None, **values: Any) -> Any:
    bound = dict(BOUND)
    bound.update({k: VALUE for k in values if k not in bound})
    return compile_(text, bound, defines)(env_for(**values))


def compile_error(text: Any, bound: dict | None = None, defines: dict[str, str] | None = None,
                  expect: str | None = None) -> ExpressionError:
    with pytest.raises(ExpressionError) as info:
        compile_(text, bound, defines, expect)
    return info.value


def syntax_error(text: str) -> DslSyntaxError:
    with pytest.raises(DslSyntaxError) as info:
        parse(text)
    return info.value


C, N, B, U = ast.Const, ast.Name, ast.Binary, ast.Unary


# ----------------------------------------------------------------------------- parsing and precedence


def test_multiplication_binds_tighter_than_addition_and_addition_tighter_than_comparison():
    assert parse("1 + 2 * 3 == 7") == B(10, "==", B(2, "+", C(0, 1), B(6, "*", C(4, 2), C(8, 3))), C(13, 7))
    assert run("1 + 2 * 3 == 7") is True


def test_not_binds_tighter_than_and_which_binds_tighter_than_or():
    assert parse("not a or b") == B(0, "or", U(0, "not", N(4, "a")), N(9, "b"))
    assert parse("a or b and c") == B(0, "or", N(0, "a"), B(5, "and", N(5, "b"), N(11, "c")))
    assert parse("not a and b") == B(0, "and", U(0, "not", N(4, "a")), N(10, "b"))
    assert parse("not not a") == U(0, "not", U(4, "not", N(8, "a")))


def test_not_binds_looser_than_comparison():
    assert parse("not a == b") == U(0, "not", B(6, "==", N(4, "a"), N(9, "b")))


def test_the_conditional_binds_loosest_of_all():
    assert parse("a or b if c else d") == ast.Conditional(0, B(0, "or", N(0, "a"), N(5, "b")), N(10, "c"), N(17, "d"))
    assert parse("1 + 2 if c else 3 * 4") == ast.Conditional(
        0, B(2, "+", C(0, 1), C(4, 2)), N(9, "c"), B(18, "*", C(16, 3), C(20, 4)))


def test_chained_conditionals_nest_to_the_right():
    assert parse("a if b else c if d else e") == ast.Conditional(
        0, N(0, "a"), N(5, "b"), ast.Conditional(12, N(12, "c"), N(17, "d"), N(24, "e")))
    assert run("1 if false else 2 if true else 3") == 2


def test_unary_minus_binds_tighter_than_multiplication_and_looser_than_attributes():
    assert parse("-a * b") == B(3, "*", U(0, "-", N(1, "a")), N(5, "b"))
    assert parse("-card.number") == U(0, "-", ast.Attribute(1, N(1, "card"), "number", 6))
    assert run("-card.number * 2") == -14
    assert run("2 - -3") == 5


def test_not_in_is_one_operator_while_not_before_in_negates_the_whole_test():
    assert parse("a not in b") == B(0, "not in", N(0, "a"), N(9, "b"))
    assert parse("not a in b") == U(0, "not", B(4, "in", N(4, "a"), N(9, "b")))


def test_attributes_indexes_and_calls_chain_from_the_left():
    assert parse("f(x).y[0]") == ast.Index(
        0, ast.Attribute(0, ast.Call(0, "f", (N(2, "x"),)), "y", 5), C(7, 0))


def test_operators_of_one_level_group_from_the_left():
    assert run("10 - 3 - 2") == 5
    assert run("100 // 10 // 5") == 2
    assert run("7 // 2 * 2") == 6
    assert run("7 % 4 * 2") == 6


@pytest.mark.parametrize("text, value", [
    ("42", 42), ("007", 7), ("'red'", "red"), ('"it\'s"', "it's"), ("''", ""),
    ("true", True), ("false", False), ("none", None),
])
def test_literals_parse_to_constants(text, value):
    assert parse(text) == C(0, value)


@pytest.mark.parametrize("name", ["note", "iffy", "android", "trueish", "nonempty", "in_hand", "_x1"])
def test_names_that_begin_with_a_keyword_are_plain_names(name):
    assert parse(name) == N(0, name)


def test_list_literals_may_be_empty_and_may_end_with_a_comma():
    assert parse("[]") == ast.ListExpr(0, ())
    assert parse("[1, 2,]") == ast.ListExpr(0, (C(1, 1), C(4, 2)))
    assert run("[1, 2,]") == (1, 2)


def test_comprehensions_parse_with_and_without_a_filter():
    assert parse("[x for x in xs]") == ast.Comprehension(0, None, N(1, "x"), "x", N(12, "xs"), None)
    assert parse("sum(x for x in xs if x > 1)") == ast.Comprehension(
        0, "sum", N(4, "x"), "x", N(15, "xs"), B(23, ">", N(21, "x"), C(25, 1)))


def test_whitespace_and_line_breaks_between_tokens_are_ignored():
    assert parse("  1 +\n  2  ") == B(4, "+", C(2, 1), C(8, 2))


# ----------------------------------------------------------------------------- syntax errors


LET_VALUE = "a let's value ends before its 'in': put a comparison or a condition in brackets, as in let x = (a == b " \
            "and c) in ..."


@pytest.mark.parametrize("text, offset, message", [
    ("a / b", 2, "unexpected character '/' (use // for whole-number division)"),
    ("a = b", 2, "unexpected character '=' (use == to compare)"),
    ("a ** 2", 2, "unexpected '**' (powers are not supported)"),
    ("a && b", 2, "unexpected character '&' (use 'and')"),
    ("a || b", 2, "unexpected character '|' (use 'or')"),
    ("!a", 0, "unexpected character '!' (use 'not' or !=)"),
    ("a $ b", 2, "unexpected character '$'"),
    ("'abc", 0, "unexpected character \"'\" (a string ends with the same quote on the same line)"),
    ("1 < 2 < 3", 6, "unexpected '<' (comparisons do not chain; write a < b and b < c)"),
    ("a == b != c", 7, "unexpected '!=' (comparisons do not chain; write a < b and b < c)"),
    ("let s = d == 5 and x in s", 10, "unexpected '==' (" + LET_VALUE + ")"),
    ("let s = a and b in s", 10, "unexpected 'and' (" + LET_VALUE + ")"),
    ("let s = a if b else c in s", 10, "unexpected 'if' (" + LET_VALUE + ")"),
    ("(1 + 2", 6, "the expression ends too early; expected ')'"),
    ("1 +", 3, "the expression ends too early; expected a value"),
    ("a if b", 6, "the expression ends too early; expected 'else', 'or'"),
    ("a.", 2, "the expression ends too early; expected a name"),
    ("1 2", 2, "unexpected '2'; expected an operator or the end"),
    ("f(1 2)", 4, "unexpected '2'; expected an operator or the end"),
    ("1.5", 0, "numbers are whole numbers: no decimal point"),
    ("x + 12.25", 4, "numbers are whole numbers: no decimal point"),
    ("x not y", 6, "unexpected 'y'; expected 'in'"),
    ("card..colour", 5, "unexpected '.'; expected a name"),
    ("", 0, "expected an expression, found nothing"),
    ("   ", 0, "expected an expression, found nothing"),
])
def test_syntax_errors_give_the_exact_offset_and_a_friendly_message(text, offset, message):
    err = syntax_error(text)
    assert (err.offset, err.message) == (offset, message)


def test_a_syntax_error_becomes_an_expression_error_at_the_file_position():
    err = compile_error("card.number / 2")
    assert err.message == "syntax error: unexpected character '/' (use // for whole-number division)"
    assert err.position == at(12)


def test_expressions_nested_deeper_than_the_limit_are_refused_before_anything_recurses():
    assert MAX_NESTING == 100
    assert run("-" * 99 + "1") == -1  # 100 levels: fine
    err = syntax_error("-" * 100 + "1")
    assert (err.offset, err.message) == (100, "the expression is nested too deeply (more than 100 levels)")
    err = compile_error("1" + " + 1" * 500)  # within the size limits (docs/testing.md), 501 levels deep
    assert err.message == "syntax error: the expression is nested too deeply (more than 100 levels)"


def test_deeply_nested_parentheses_alone_do_not_count_as_nesting():
    assert run("(" * 500 + "1" + ")" * 500) == 1


# ----------------------------------------------------------------------------- names, attributes, calls


def test_an_unknown_name_suggests_the_closest_name_and_lists_the_names_here():
    err = compile_error("sead.hand")
    assert err.message == ("unknown name 'sead'; did you mean 'seat'? "
                           "(names here: card, game, led, options, players, round, seat, seats, setup)")
    assert err.position == at(0)


def test_an_unknown_name_without_a_close_match_still_lists_the_names_here():
    err = compile_error("len(seat.hand) + qqq", bound={"seat": SEAT})
    assert err.message == "unknown name 'qqq' (names here: game, options, players, round, seat, seats, setup)"
    assert err.position == at(17)


def test_an_unknown_card_attribute_points_at_the_attribute_name():
    err = compile_error("card.colour == led.color")
    assert err.message == "cards have no attribute 'color' (they have: colour, copy, label, number)"
    assert err.position == at(19)


def test_an_unknown_seat_attribute_lists_the_seat_attributes():
    err = compile_error("len(seat.hands)")
    assert err.message == "seats have no attribute 'hands' (they have: hand, index, name, total, tricks)"
    assert err.position == at(9)


def test_an_unknown_round_value_lists_the_round_values():
    err = compile_error("round.trumps")
    assert err.message == "unknown round value 'trumps' (known: cache, dealer, monster, number, trump)"
    assert err.position == at(6)


def test_an_unknown_record_field_lists_the_fields():
    err = compile_error("options.short")
    assert (err.message, err.position) == ("no field 'short' here (fields: short_game, limit)", at(8))
    err = compile_error("round.cache.discards > 0")
    assert (err.message, err.position) == ("no field 'discards' here (fields: discard, keep_zeros)", at(12))


def test_plain_values_and_lists_have_no_attributes():
    assert compile_error("players.count").message == "a value has no attribute 'count'"
    assert compile_error("seats.length").message == "a list of seat has no attribute 'length'"
    assert compile_error("seats.length").position == at(6)


def test_round_and_functions_are_not_values_on_their_own():
    err = compile_error("round")
    assert (err.message, err.position) == ("'round' is a group of values; name one, e.g. round.start", at(0))
    err = compile_error("1 + game")
    assert (err.message, err.position) == ("'game' is a group of values; name one, e.g. game.start", at(4))
    assert compile_error("1 + len").message == "'len' is a function; call it as len(...)"
    assert compile_error("1 + len").position == at(4)


def test_an_unknown_function_suggests_the_closest_function():
    err = compile_error("lenn(seat.hand)")
    assert (err.message, err.position) == ("unknown function 'lenn'; did you mean 'len'?", at(0))


@pytest.mark.parametrize("text, offset, message", [
    ("abs(1, 2)", 0, "abs() takes 1 argument(s), got 2"),
    ("len()", 0, "len() takes 1 argument(s), got 0"),
    ("max()", 0, "max() takes at least 1 argument(s), got 0"),
    ("same_team(seat)", 0, "same_team() takes 2 argument(s), got 1"),
    ("1 + left(seat, 1)", 4, "left() takes 1 argument(s), got 2"),
])
def test_a_call_with_the_wrong_number_of_arguments_is_refused(text, offset, message):
    err = compile_error(text)
    assert (err.message, err.position) == (message, at(offset))


@pytest.mark.parametrize("text, offset, what", [
    ("card == 3", 5, "a card with a value"),
    ("card != 'red'", 5, "a card with a value"),
    ("'red' == led", 6, "a value with a card"),
    ("card.number > 0 and card == 0", 25, "a card with a value"),
])
def test_comparing_a_card_with_a_value_is_refused(text, offset, what):
    err = compile_error(text)
    assert err.message == f"comparing {what} is always false; compare attributes, e.g. card.colour == led.colour"
    assert err.position == at(offset)


def test_a_card_may_be_compared_with_another_card_or_with_none():
    assert run("card == led") is False
    assert run("card == card") is True
    assert run("card != none") is True


SEAT_HINT = "a seat is not true or false; compare it, e.g. winner == seat"
CARD_HINT = "a card is not true or false; compare it, e.g. card.number > 0"


@pytest.mark.parametrize("text, offset, message", [
    ("2 if round.monster else 1", 5, SEAT_HINT),
    ("not card", 4, CARD_HINT),
    ("seat and true", 0, SEAT_HINT),
    ("false or led", 9, CARD_HINT),
    ("[c.number for c in seat.hand if c]", 32, CARD_HINT),
    ("count(c for c in seat.hand)", 6, "count() tests each item, and " + CARD_HINT),
    ("any(seats)", 4, "any() tests each item, and " + SEAT_HINT),
    ("all(team(seat))", 4, "all() tests each item, and " + SEAT_HINT),
])
def test_cards_and_seats_never_stand_for_true_or_false(text, offset, message):
    """Card 0 and seat 0 would otherwise count as false."""
    err = compile_error(text)
    assert (err.message, err.position) == (message, at(offset))


def test_a_seat_compared_with_none_is_a_test():
    assert run("2 if round.monster != none else 1") == 1
    assert run("2 if round.dealer != none else 1") == 2


@pytest.mark.parametrize("text, offset, message", [
    ("1 in 2", 0, "'in' needs a list on its right, found a value"),
    ("card not in seat", 0, "'not in' needs a list on its right, found a seat"),
    ("seat[0]", 0, "only lists can be indexed, not a seat"),
    ("[x for x in 3]", 12, "'for ... in' needs a list, found a value"),
    ("team(s for s in seats)", 0,
     "'team' cannot take a 'for' expression (try sum, count, max, min, any, all, len, distinct, sort, first, last)"),
    ("abs(s.tricks for s in seats)", 0,
     "'abs' cannot take a 'for' expression (try sum, count, max, min, any, all, len, distinct, sort, first, last)"),
])
def test_type_mistakes_are_found_at_load_time(text, offset, message):
    err = compile_error(text)
    assert (err.message, err.position) == (message, at(offset))


def test_a_field_that_needs_a_seat_or_a_card_says_so():
    err = compile_error("players", bound={}, expect="seat")
    assert (err.message, err.position) == ("expected a seat, found value", at(0))
    err = compile_error("seat.hand", expect="card")
    assert err.message == "expected a card, found list of card"
    assert compile_("round.dealer", bound={}, expect="seat").type == SEAT
    assert compile_("seat.hand[0]", expect="card").type == CARD


def test_python_attributes_are_not_reachable_from_rule_text():
    assert compile_error("card.__class__").message.startswith("cards have no attribute '__class__'")
    assert compile_error("options.__dict__").message == "no field '__dict__' here (fields: short_game, limit)"
    assert compile_error("seat.__init__").message.startswith("seats have no attribute '__init__'")
    assert compile_error("'x'.join").message == "a value has no attribute 'join'"
    assert compile_error("seats.__len__").message == "a list of seat has no attribute '__len__'"
    assert compile_error("__import__('os')").message.startswith("unknown function '__import__'")


# ----------------------------------------------------------------------------- shared zones and game values


def zone_globals() -> Globals:
    g = make_globals()
    g.zones = {"stock": CARDS, "trick": CARDS}
    return g


def test_a_shared_zone_is_read_by_its_name_as_a_list_of_cards():
    compiled = compile_("first(stock)", g=zone_globals())
    assert compiled.type == CARD and compiled.deps == frozenset({"state"})
    assert compiled(env_for()) == 5
    assert compile_("len(stock) + len(trick)", g=zone_globals())(env_for()) == 2
    assert compile_("first(trick)", g=zone_globals())(env_for()) is None
    assert compile_("[c.colour for c in stock]", g=zone_globals())(env_for()) == ["yellow", "red"]


def test_the_names_of_shared_zones_are_suggested_and_listed():
    with pytest.raises(ExpressionError) as info:
        compile_("len(stok)", bound={}, g=zone_globals())
    assert info.value.message == ("unknown name 'stok'; did you mean 'stock'? "
                                  "(names here: game, options, players, round, seats, setup, stock, trick)")
    assert info.value.position == at(4)


def test_a_shared_zone_is_not_a_seat_attribute_and_a_seat_zone_is_not_a_name():
    with pytest.raises(ExpressionError, match="seats have no attribute 'stock'"):
        compile_("seat.stock", g=zone_globals())
    assert compile_error("hand").message.startswith("unknown name 'hand'")


def test_game_values_are_read_as_game_name():
    assert run("game.pot + 1") == 8
    compiled = compile_("game.start")
    assert compiled.type == SEAT and compiled.deps == frozenset({"state"})
    assert compile_("left(game.start)")(env_for()) == 3
    assert run("game.start.total") == 7


def test_an_unknown_game_value_lists_the_game_values():
    err = compile_error("game.pots > 1")
    assert (err.message, err.position) == ("unknown game value 'pots' (known: pot, start)", at(5))
    g = make_globals()
    g.game_fields = {}
    with pytest.raises(ExpressionError) as info:
        compile_("game.pot", g=g)
    assert info.value.message == "unknown game value 'pot' (known: none)"


# ----------------------------------------------------------------------------- operators


@pytest.mark.parametrize("op, a, b, result", [
    ("+", 7, 2, 9), ("-", 7, 2, 5), ("*", 7, 2, 14), ("*", -3, 4, -12),
    ("//", 7, 2, 3), ("//", -7, 2, -4), ("%", 7, 3, 1), ("%", -7, 3, 2),
    ("==", 2, 2, True), ("==", 2, 3, False), ("!=", 2, 3, True), ("!=", 2, 2, False),
    ("<", 1, 2, True), ("<", 2, 2, False), ("<=", 2, 2, True), ("<=", 3, 2, False),
    (">", 3, 2, True), (">", 2, 2, False), (">=", 2, 2, True), (">=", 1, 2, False),
])
def test_each_binary_operator_computes_the_same_while_playing_and_when_folded(op, a, b, result):
    assert run(f"x {op} y", x=a, y=b) == result
    folded = compile_(f"({a}) {op} ({b})")
    assert folded.is_constant and folded({}) == result


def test_comparisons_work_on_strings_too():
    assert run("'abc' < 'abd'") is True
    assert run("card.colour == 'red'") is True
    assert run("card.colour != led.colour") is True


def test_and_and_or_stop_early():
    assert run("y != 0 and x // y > 1", x=1, y=0) is False
    assert run("y == 0 or x // y > 1", x=1, y=0) is True
    assert run("x > 0 and x < 3", x=2) is True
    assert run("none or x > 3", x=5) is True


def test_not_gives_true_or_false():
    assert run("not card.number == 7") is False
    assert run("not none") is True


@pytest.mark.parametrize("text, message", [
    ("0 or 5", "a number is not true or false; compare it, e.g. x > 0"),
    ("2 and card.number > 1", "a number is not true or false; compare it, e.g. x > 0"),
    ("not 'a'", "text is not true or false; compare it, e.g. x == 'no'"),
    ("1 if card.colour else 2", "text is not true or false; compare it, e.g. x == 'no'"),
    ("[c for c in seat.hand if c.number]", "a number is not true or false; compare it, e.g. x > 0"),
    ("seat.hand and true", "a list of cards is not true or false; test it, e.g. len(x) > 0"),
    ("not options", "a record is not true or false"),
    ("count(c.number for c in seat.hand)", "count() tests each item, and a number is not true or false; "
                                           "compare it, e.g. x > 0"),
    ("any(['a', 'b'])", "any() tests each item, and text is not true or false; compare it, e.g. x == 'no'"),
])
def test_a_number_a_text_a_list_or_a_record_is_never_true_or_false(text, message):
    assert compile_error(text).message == message


@pytest.mark.parametrize("text", ["not x", "x and true", "x or false", "1 if x else 2",
                                  "[s for s in seats if x]", "count([x])", "any([x])", "all([x])"])
def test_a_test_whose_kind_is_told_only_in_play_refuses_a_number_or_a_text_there(text):
    for value in (0, 3, "no", "", (1,)):
        with pytest.raises(ExpressionFailed, match="where true or false is needed"):
            run(text, x=value)
    assert run(text, x=True) in (True, False, 1, 2, [0, 1, 2, 3], (0, 1, 2, 3))
    run(text, x=None)  # none is false


def test_a_define_parameter_used_as_a_test_is_checked_when_played():
    assert run("pick(card.number > 3)", {"pick(t)": "1 if t else 2"}) == 1
    with pytest.raises(ExpressionFailed, match="it gave text 'red' where true or false is needed"):
        run("pick(card.colour)", {"pick(t)": "1 if t else 2"})


def test_in_and_not_in_test_membership_of_a_list():
    assert run("'red' in ['red', 'blue']") is True
    assert run("3 not in [1, 2]") is True
    assert run("card in seat.hand") is False
    assert run("card in seat.hand", card=4) is True
    assert run("card.colour in ['blue', 'yellow']") is False


def test_strings_join_with_plus():
    assert run("'a' + \"b\"") == "ab"
    assert run("card.colour + '!'") == "red!"


def test_lists_are_equal_when_their_items_are_equal_whatever_produced_them():
    assert run("[s.index for s in seats] == [0, 1, 2, 3]") is True
    assert run("seats == [s for s in seats]") is True
    assert run("seats == seats_from(first(seats))") is True
    assert run("[x for x in [1, 2]] == [1, 2]") is True
    assert run("setup.own_team == [2]") is True
    assert run("seat.hand == [c for c in seat.hand]") is True
    assert run("seat.hand != reverse(seat.hand)") is True
    assert run("[] == [c for c in seat.hand if c.number > 100]") is True


def test_lists_join_with_plus_into_a_list():
    assert run("[9] + [s for s in seats]") == [9, 0, 1, 2, 3]
    assert run("seat.hand + [5]") == [0, 4, 5]
    assert compile_("seats + team(seat)").type == SEATS
    assert run("2 in team(seat) + [1]") is True


def test_indexes_count_from_zero_and_negative_indexes_from_the_end():
    assert run("seats[1]") == 1
    assert run("seats[-1]") == 3
    assert run("seat.hand[1].colour") == "blue"
    assert compile_("seat.hand[0]").type == CARD


def test_the_conditional_evaluates_only_the_branch_taken():
    assert run("x // y if y != 0 else -1", x=1, y=0) == -1
    assert run("'trump' if card.colour == round.trump else card.colour") == "trump"


def test_multiplication_accepts_only_whole_numbers():
    err = compile_error("'a' * 3")
    assert (err.message, err.position) == ("'*' needs two numbers, found text and a number", at(4))
    assert compile_error("true * 3").message == "'*' needs two numbers, found true/false and a number"
    assert compile_error("[1] * 3").message == "'*' needs two numbers, found a list of numbers and a number"
    with pytest.raises(ExpressionFailed) as info:
        run("x * 3", x="ab")
    assert str(info.value) == f"{FILE}:{LINE}:{COL}: error: expression 'x * 3' failed: '*' needs two numbers, " \
                              "got 'ab' and 3"


def test_joining_strings_is_limited_in_length():
    assert len(run("x + x", x="a" * 5000)) == 10_000
    with pytest.raises(ExpressionFailed) as info:
        run("x + x", x="a" * 5001)
    assert str(info.value) == f"{FILE}:{LINE}:{COL}: error: expression 'x + x' failed: string too long"


# ----------------------------------------------------------------------------- builtins

BUILTIN_CASES = [
    ("len(seat.hand)", 2), ("len([])", 0),
    ("sum([1, 2, 3])", 6), ("sum(s.tricks for s in seats)", 6),
    ("count([true, false, true])", 2), ("count(c.number == 0 for c in seat.hand)", 1),
    ("max(seat.total, 5)", 10), ("max([3, 9, 4])", 9), ("max(s.total for s in seats)", 10),
    ("min(1, 2)", 1), ("min(s.total for s in seats)", -2), ("min(seats)", 0),
    ("abs(-3)", 3), ("abs(x)", 4),
    ("any([false, true])", True), ("any(c.colour == 'yellow' for c in seat.hand)", False),
    ("all([])", True), ("all(s.tricks >= 0 for s in seats)", True),
    ("team(seat)", [0, 2]), ("team(1)", [1, 3]),
    ("opponents(seat)", [1, 3]),
    ("same_team(seat, 2)", True), ("same_team(seat, left(seat))", False),
    ("known_team(seat, seat)", [0]), ("known_team(1, 2)", [2]), ("known_team(2, 0)", []),
    ("known_opponents(1, 1)", [2]), ("known_opponents(seat, 1)", []),
    ("knows_team(seat, 0)", True), ("knows_team(seat, 2)", False), ("knows_team(1, 2)", True),
    ("left(seat)", 1), ("left(3)", 0), ("left(round.dealer)", 0),
    ("right(seat)", 3), ("right(2)", 1),
    ("distinct([3, 1, 3, 2, 1])", [3, 1, 2]), ("distinct([])", []),
    ("sort([3, 1, 2])", [1, 2, 3]), ("sort(s.total for s in seats)[0]", -2),
    ("reverse([3, 1, 2])", [2, 1, 3]), ("reverse(sort([c.number for c in seat.hand]))[0]", 5), ("reverse([])", []),
    # the Meinz point distribution examples: 51/38/37/31 gives 3/1/0/2, 40/40/39/34 gives 0/0/0/2
    ("place_award(38, [51, 38, 37, 31], [3, 1, 0, 2])", 1),
    ("[place_award(v, [51, 38, 37, 31], [3, 1, 0, 2]) for v in [51, 38, 37, 31]]", [3, 1, 0, 2]),
    ("[place_award(v, [40, 40, 39, 34], [3, 1, 0, 2]) for v in [40, 40, 39, 34]]", [0, 0, 0, 2]),
    ("place_award(1, [1, 2, 3, 4, 5], [3, 1])", 0),
    ("first(seat.hand)", 0), ("first([])", None), ("first(s for s in seats if s.tricks > 1)", 0),
    ("last(seat.hand)", 4), ("last([])", None), ("last(s.total for s in seats)", 0),
    ("combinations(['a', 'b', 'c'], 2)", [["a", "b"], ["a", "c"], ["b", "c"]]), ("combinations([1, 2], 0)", [[]]),
    ("combinations(seat.hand, 3)", []),
    ("pairs([1, 2], ['a'])", [(1, "a"), (2, "a")]), ("pairs(seat.hand, [])", []),
    ("join(['a', 'b'], ' + ')", "a + b"), ("join([1, none, true])", "1, none, true"), ("join([])", ""),
    ("text(3)", "3"), ("text(none)", "none"), ("text(false)", "false"), ("text('x') + text(-1)", "x-1"),
    ("seats_from(2)", [2, 3, 0, 1]), ("seats_from(left(round.dealer))", [0, 1, 2, 3]),
    ("range(0, 4)", [0, 1, 2, 3]), ("range(2, 2)", []), ("range(-1, len(seat.hand))", [-1, 0, 1]),
    ("index(seat.hand, 4)", 1), ("index([], 1)", None), ("index(['a', 'b', 'a'], 'a')", 0),
    ("concat([seat.hand, [1]])", [0, 4, 1]), ("concat([])", []),
    ("slice([1, 2, 3], 1, none)", [2, 3]), ("slice(seat.hand, -1, none)", [4]), ("slice([], 0, 5)", []),
]


@pytest.mark.parametrize("text, value", BUILTIN_CASES)
def test_each_builtin_computes_its_documented_result(text, value):
    assert run(text, x=-4) == value


# the builtins of plays of several cards read a combinations section: tests/test_combinations.py runs them
PLAYS = {"combination", "next_picks", "is_play", "must_play"}


def test_the_builtin_cases_cover_every_builtin_of_the_registry():
    called = {re.match(r"\[?(\w+)", text).group(1) for text, _ in BUILTIN_CASES}
    assert called == set(REGISTRY) - PLAYS
    assert set(REGISTRY) == {"len", "sum", "count", "max", "min", "abs", "any", "all",
                             "team", "opponents", "same_team", "known_team", "known_opponents",
                             "knows_team", "left", "right", "distinct", "sort", "reverse",
                             "place_award", "first", "last", "combinations", "pairs", "join", "text", "seats_from",
                             "range", "index", "concat", "slice"} | PLAYS


def test_every_builtin_has_a_description_and_an_example_that_calls_it():
    for b in REGISTRY.values():
        assert b.doc and b.example, b.name
        assert re.search(rf"(^|[^\w.]){b.name}\(", b.example), b.name


@pytest.mark.parametrize("text, type_", [
    ("first(seat.hand)", CARD), ("last(seats)", SEAT), ("first(s for s in seats if s.tricks > 1)", SEAT),
    ("first([1, 2])", NUMBER), ("combinations(seats, 2)", list_of(SEATS)),
    ("combinations(seat.hand, 2)[0]", CARDS), ("pairs(seat.hand, seat.hand)", list_of(CARDS)),
    ("pairs(seat.hand, seats)", list_of(list_of(VALUE))), ("join(seats)", TEXT), ("text(seat)", TEXT),
    ("seats_from(seat)", SEATS), ("range(0, 3)", list_of(NUMBER)),
    # an empty list is of no type yet: joined with a typed list it takes that type
    ("[] + [seat]", SEATS), ("seat.hand + []", CARDS), ("[] if seat.tricks > 0 else seats", SEATS),
    ("reverse(sort([1, 2]))", list_of(NUMBER)), ("len(seats)", NUMBER), ("any([])", TRUTH),
    ("place_award(1, [1], [3, 1])", NUMBER), ("max(0, seat.tricks)", VALUE),
])
def test_the_new_builtins_give_typed_results(text, type_):
    assert compile_(text).type == type_


def test_first_and_last_of_a_list_of_cards_are_cards_with_attributes():
    assert run("first(seat.hand).colour") == "red"
    assert run("last(seat.hand).number") == 5
    assert run("[p[0].colour + p[1].colour for p in pairs(seat.hand, [led])]") == ["redblue", "blueblue"]
    assert run("join([c.label for c in seat.hand], ' + ')") == "red 0 + blue 5"


def test_combinations_refuse_a_negative_size_and_too_long_a_list():
    err = compile_error("combinations([1, 2], -1)")
    assert (err.message, err.position) == ("this expression fails: combinations needs a size of 0 or more, got -1",
                                           at(0))
    assert len(run("combinations(x, 2)", x=list(range(31)))) == 465
    with pytest.raises(ExpressionFailed, match="a list of 300,540,195 items; lists have at most 100,000"):
        run("combinations(x, 15)", x=list(range(31)))  # counted before one is made


def test_range_needs_whole_numbers_and_stays_small():
    err = compile_error("range(0, 'a')")
    assert (err.message, err.position) == ("range() needs a number, found text", at(9))
    with pytest.raises(ExpressionFailed, match="range needs whole numbers, got 'a'"):
        run("range(0, x)", x="a")
    err = compile_error("range(0, 100001)")
    assert err.message == "this expression fails: a list of 100,001 items; lists have at most 100,000"
    assert compile_("range(0, players + 1)").is_constant


def test_seats_from_reads_the_game_so_it_is_never_folded():
    compiled = compile_("seats_from(1)")
    assert compiled.deps == frozenset({"state"}) and compiled(env_for()) == [1, 2, 3, 0]


def test_max_and_min_of_an_empty_list_fail_while_playing():
    with pytest.raises(ExpressionFailed) as info:
        run("max(c.number for c in seat.hand if c.number > 100)")
    assert str(info.value) == (f"{FILE}:{LINE}:{COL}: error: expression 'max(c.number for c in seat.hand "
                               "if c.number > 100)' failed: max() arg is an empty sequence")


def test_builtins_that_read_the_game_are_never_folded():
    compiled = compile_("left(0)")
    assert compiled.deps == frozenset({"state"})
    assert not compiled.is_constant
    assert compiled(env_for()) == 1


def test_max_and_min_of_seats_give_a_seat_and_of_numbers_a_value():
    assert compile_("max(seats)").type == SEAT
    assert compile_("min(s for s in seats)").type == SEAT
    assert compile_("max(0, 1)").type == NUMBER
    assert compile_("team(seat)").type == SEATS
    assert compile_("left(seat)").type == SEAT


# ----------------------------------------------------------------------------- comprehensions


def test_a_list_comprehension_without_a_filter_maps_every_item():
    assert run("[c.number for c in seat.hand]") == [0, 5]
    assert compile_("[c for c in seat.hand]").type == CARDS
    assert compile_("[s.index for s in seats]").type == list_of(VALUE)


def test_a_list_comprehension_with_a_filter_keeps_the_matching_items():
    assert run("[c.number for c in seat.hand if c.colour == 'blue']") == [5]
    assert run("[s for s in seats if s != seat]") == [1, 2, 3]


def test_a_function_call_comprehension_passes_the_list_to_the_builtin():
    assert run("sum(s.tricks for s in seats if same_team(s, seat))") == 5
    assert run("count(s.total > 0 for s in seats)") == 2
    assert run("len(s for s in seats if s.tricks > 0)") == 3


def test_comprehensions_nest():
    assert run("sum(count(c.number == n for c in seat.hand) for n in [0, 5, 6])") == 2
    assert run("[[s] for s in team(seat)]") == [(0,), (2,)]
    assert run("[[c.number for c in s.hand] for s in seats if s.tricks > 1]") == [[0, 5], [7]]


def test_the_loop_variable_hides_an_outer_name_and_the_outer_value_comes_back():
    compiled = compile_("[card.number for card in seat.hand]")
    env = env_for()
    assert compiled(env) == [0, 5]
    assert env["card"] == 1
    assert run("card.number + sum(card.number for card in seat.hand)") == 7 + 5


def test_the_loop_variable_does_not_stay_behind():
    env = env_for()
    keys = set(env)
    assert compile_("[s for s in seats]")(env) == [0, 1, 2, 3]
    assert set(env) == keys


def test_the_loop_variable_is_not_a_dependency():
    assert compile_("sum(c.number for c in seat.hand)").deps == frozenset({"ctx:seat", "state"})
    assert compile_("[c for c in [1, 2]]").deps == frozenset()


# ----------------------------------------------------------------------------- defines


def test_a_define_with_parameters_is_called_like_a_function():
    assert run("double(3) + double(card.number)", {"double(x)": "x * 2"}) == 6 + 14


def test_a_define_is_compiled_once_for_each_list_of_argument_types():
    g = make_globals({"top(xs)": "xs[0]"})
    compiler = Compiler(g)
    on_cards = compiler.compile("top(seat.hand)", BOUND, locate)
    on_seats = compiler.compile("top(seats)", BOUND, locate)
    compiler.compile("top(team(seat))", BOUND, locate)
    assert (on_cards.type, on_seats.type) == (CARD, SEAT)
    assert set(g.defines["top"].compiled) == {(CARDS,), (SEATS,)}
    assert compiler.compile("top(seat.hand).colour", BOUND, locate)(env_for()) == "red"
    assert compiler.compile("top(seats).name", BOUND, locate)(env_for()) == "north"
    err = compile_error("top(seats).colour", defines={"top(xs)": "xs[0]"})
    assert err.message.startswith("seats have no attribute 'colour'")
    assert err.position == at(11)


def test_numbers_text_and_tests_are_one_kind_of_argument_for_a_define():
    g = make_globals({"twice(n)": "n * 2"})
    compiler = Compiler(g)
    assert compiler.compile("twice(3) + twice(seat.tricks) + twice(len(seat.hand))", BOUND, locate)(env_for()) == 16
    compiled = compiler.compile("twice(card.colour)", BOUND, locate)
    assert set(g.defines["twice"].compiled) == {(VALUE,)} and compiled.type == NUMBER
    with pytest.raises(ExpressionFailed, match="'\\*' needs two numbers, got 'red' and 2"):
        compiled(env_for())


def test_a_define_may_not_call_itself():
    err = compile_error("loop(3)", defines={"loop(n)": "loop(n - 1)"})
    assert err.message == "loop() calls itself (directly or through other defines); recursion is not allowed"
    assert err.position == in_define(0, 0)


def test_defines_may_not_call_each_other_in_a_circle():
    err = compile_error("ping(1)", defines={"ping(n)": "1 + pong(n)", "pong(n)": "ping(n)"})
    assert err.message == "ping() calls itself (directly or through other defines); recursion is not allowed"
    assert err.position == in_define(1, 0)


def test_a_define_sees_its_parameters_and_the_globals_but_not_the_names_of_the_calling_rule():
    err = compile_error("led_number()", defines={"led_number": "led.number"})
    assert err.message == "unknown name 'led' (names here: game, options, players, round, seats, setup)"
    assert err.position == in_define(0, 0)
    assert run("hand_size() + players", {"hand_size": "setup.hand"}) == 19
    assert run("is_trump(card)", {"is_trump(c)": "c.colour == round.trump"}) is True


def test_an_error_inside_a_define_names_its_parameters_as_written():
    err = compile_error("bonus(3)", defines={"bonus(points)": "point * 2"})
    assert err.message == ("unknown name 'point'; did you mean 'points'? "
                           "(names here: game, options, players, points, round, seats, setup)")
    assert err.position == in_define(0, 0)


def test_an_error_inside_a_define_points_into_the_define():
    err = compile_error("f(card)", defines={"f(c)": "c.number + c.colr"})
    assert err.message == "cards have no attribute 'colr' (they have: colour, copy, label, number)"
    assert err.position == in_define(0, 13)


def test_a_loop_variable_in_a_define_hides_a_parameter_only_inside_the_loop():
    assert run("total([1, 2, 3])", {"total(c)": "sum(c for c in c)"}) == 6
    assert run("tally(seat)", {"tally(s)": "s.tricks + sum(s.tricks for s in opponents(s))"}) == 3 + 0 + 1


def test_a_define_without_parameters_is_called_with_empty_parentheses():
    assert run("three() * 2", {"three": "3"}) == 6
    err = compile_error("three * 2", defines={"three": "3"})
    assert (err.message, err.position) == ("'three' is a function; call it as three(...)", at(0))


def test_a_define_takes_exactly_its_number_of_arguments():
    err = compile_error("1 + double(1, 2)", defines={"double(x)": "x * 2"})
    assert (err.message, err.position) == ("double() takes 1 argument(s), got 2", at(4))


def test_a_define_parameter_does_not_disturb_the_same_name_in_the_calling_rule():
    compiled = compile_("f(led) + card.number", defines={"f(card)": "card.number"})
    env = env_for()
    assert compiled(env) == 0 + 7
    assert env["card"] == 1


def test_defines_call_other_defines_and_builtins_that_read_the_game():
    defines = {"tally(s)": "s.tricks * 2", "team_tally(s)": "sum(tally(m) for m in team(s))"}
    assert run("team_tally(seat)", defines) == (3 + 2) * 2
    assert run("team_tally(1)", defines) == (0 + 1) * 2


def test_a_very_long_chain_of_defines_is_an_error_not_a_crash():
    defines = {f"d{i}(x)": f"d{i + 1}(x)" for i in range(1000)}
    defines["d1000(x)"] = "x + 1"
    err = compile_error("d0(1)", defines=defines)
    assert (err.message, err.position) == ("the expression is nested too deeply (through its defines)", at(0))


# ----------------------------------------------------------------------------- constants


def test_expressions_of_constants_are_folded_at_load_time():
    compiled = compile_("players * 2")
    assert compiled.is_constant and compiled.deps == frozenset()
    assert compiled({}) == 8
    assert compile_("len(seats) + options.limit")({}) == 14
    assert compile_("setup.hand // players")({}) == 3
    assert compile_("setup.rounds if options.short_game else 2")({}) == 2


@pytest.mark.parametrize("text, offset, message", [
    ("1 // 0", 2, "this expression fails: integer division or modulo by zero"),
    ("options.limit % (players - 4)", 14, "this expression fails: integer modulo by zero"),
    ("max([])", 0, "this expression fails: max() arg is an empty sequence"),
])
def test_a_constant_expression_that_always_fails_is_a_load_time_error(text, offset, message):
    err = compile_error(text)
    assert (err.message, err.position) == (message, at(offset))


def test_a_branch_that_a_constant_test_skips_may_fail():
    skipped = compile_("1 // (players - 4) if players != 4 else 0")
    assert skipped.is_constant and skipped({}) == 0
    assert compile_("players == 4 or 1 // 0 == 1")({}) is True
    assert compile_("players != 4 and 1 // 0 == 1")({}) is False
    err = compile_error("1 // (players - 4) if players == 4 else 0")
    assert (err.message, err.position) == ("this expression fails: integer division or modulo by zero", at(2))


def test_a_constant_left_side_of_and_or_decides_at_load_time_or_gives_way_to_the_right():
    """``not (options.x and f()) or g(card)`` with the option off is true of every card: folded, so a trick rule
    written so is no rule (Hearts' first-trick rule without its option) and costs nothing in play."""
    for text, value in (("options.short_game and seat.tricks > 1", False), ("players == 4 or seat.tricks > 1", True),
                        ("not (options.short_game and seat.tricks > 1) or card.number > 2", True)):
        compiled = compile_(text)
        assert compiled.is_constant and compiled({}) is value, text
    given_way = compile_("players == 4 and seat.tricks > 1")
    assert given_way.deps == compile_("seat.tricks > 1").deps and given_way.part.data == ">"
    assert compile_("options.short_game or seat.tricks > 1").deps == compile_("seat.tricks > 1").deps


def test_a_branch_that_a_constant_test_skips_is_still_checked_for_names():
    err = compile_error("nope if false else 1")
    assert err.message.startswith("unknown name 'nope'")


def test_constant_value_accepts_only_what_is_known_before_play():
    compiler = Compiler(make_globals())
    assert compiler.constant_value("setup.hand * 2", locate) == 30
    assert compiler.constant_value(5, locate) == 5
    with pytest.raises(ExpressionError) as info:
        compiler.constant_value("round.number", locate)
    assert info.value.message == ("this value must be known before play starts (it may use only players, "
                                  "options and setup)")
    assert info.value.position == at(0)


def test_yaml_numbers_and_booleans_compile_to_constants():
    assert compile_(3)({}) == 3
    assert compile_(True)({}) is True
    assert compile_(3).is_constant


# ----------------------------------------------------------------------------- failures while playing


def test_a_failure_while_playing_raises_expression_failed_with_the_position():
    with pytest.raises(ExpressionFailed) as info:
        run("x // y", x=1, y=0)
    assert isinstance(info.value, GameError)
    assert str(info.value) == f"{FILE}:{LINE}:{COL}: error: expression 'x // y' failed: integer division or " \
                              "modulo by zero"


def test_an_index_past_the_end_fails_while_playing():
    with pytest.raises(ExpressionFailed) as info:
        run("seats[x]", x=9)
    assert str(info.value) == (f"{FILE}:{LINE}:{COL}: error: expression 'seats[x]' failed: an index past the end "
                               "of the list")


# ----------------------------------------------------------------------------- operand types (issue 19)


SEAT_NOT_NUMBER = "a seat is not a number; compare seat.index, e.g. round.dealer.index == 1, or two seats"
PLUS = "'+' adds two numbers or joins two texts or two lists"


@pytest.mark.parametrize("text, where, message", [
    ("len(seat.hand) * 'a'", "*", "'*' needs two numbers, found a number and text"),
    ("'a' - 1", "-", "'-' needs two numbers, found text and a number"),
    ("2 // card.colour", "//", "'//' needs two numbers, found a number and text"),
    ("card.label % 2", "%", "'%' needs two numbers, found text and a number"),
    ("card.colour + 1", "+", f"{PLUS}, found text and a number"),
    ("[1] + 2", "+", f"{PLUS}, found a list of numbers and a number"),
    ("'x' + [led]", "+", f"{PLUS}, found text and a list of cards"),
    ("(seat.tricks > 1) * 2", "*", "'*' needs two numbers, found true/false and a number"),
    ("seat.total + none", "+", f"{PLUS}, found a value and none"),
    ("options + 1", "+", f"{PLUS}, found a record and a number"),
    ("-'a'", "-", "'-' needs a number, found text"),
    ("-(1 == 1)", "-", "'-' needs a number, found true/false"),
    ("round.dealer == 1", "==", f"comparing a seat with a number: {SEAT_NOT_NUMBER}"),
    ("1 != seat", "!=", f"comparing a number with a seat: {SEAT_NOT_NUMBER}"),
    ("seat == 'north'", "==", "comparing a seat with text is always false"),
    ("card.colour == 7", "==", "comparing text with a number is always false"),
    ("len(seat.hand) == 'two'", "==", "comparing a number with text is always false"),
    ("(seat.tricks > 1) == 1", "==", "comparing true/false with a number: true/false is not a number"),
    ("seats == [0, 1, 2, 3]", "==", f"comparing a list of seats with a list of numbers: {SEAT_NOT_NUMBER}"),
    ("seat.hand != 3", "!=", "comparing a list of cards with a number is always false"),
    ("options == 1", "==", "comparing a record with a number is always false"),
    ("'a' < 1", "<", "'<' needs two numbers or two texts, found text and a number"),
    ("true >= false", ">=", "'>=' needs two numbers or two texts, found true/false and true/false"),
    ("seat.total <= none", "<=", "'<=' needs two numbers or two texts, found a value and none"),
    ("[1] > ['a']", ">", "'>' needs two numbers or two texts, found a list of numbers and a list of texts"),
    ("seats > [0]", ">", "'>' needs two numbers or two texts, found a list of seats and a list of numbers"),
    ("seat in [1, 2]", "", f"'in' looks for a seat in a list of numbers: {SEAT_NOT_NUMBER}"),
    ("card.colour not in [1, 2]", "", "'not in' looks for text in a list of numbers: no item can be equal to it"),
    ("2 in seats", "", f"'in' looks for a number in a list of seats: {SEAT_NOT_NUMBER}"),
    ("seats['a']", "'a'", "a list index must be a number, found text"),
    ("seat.hand[led]", "led", "a list index must be a number, found a card"),
    ("len(seat)", "seat", "len() needs a list, found a seat"),
    ("first(3)", "3", "first() needs a list, found a number"),
    ("sum(['a', 'b'])", "[", "sum() needs a list of numbers, found a list of texts"),
    ("sum(c.colour for c in seat.hand)", "sum", "sum() needs a list of numbers, found a list of texts"),
    ("abs('a')", "'a'", "abs() needs a number, found text"),
    ("range(0, true)", "true", "range() needs a number, found true/false"),
    ("join(seats, 1)", "1", "join() needs text, found a number"),
])
def test_operands_of_kinds_an_operator_cannot_take_are_refused_at_load_time(text, where, message):
    err = compile_error(text)
    assert (err.message, err.position) == (message, at(text.index(where)))


@pytest.mark.parametrize("text, value", [
    ("x * 2", 6),  # x: a value of a kind the compiler cannot tell, let through
    ("x + seat.tricks", 6),
    ("card.label + ' ' + text(card.number)", "red 7 7"),
    ("seat == round.dealer", False),
    ("round.monster == none", True),
    ("round.dealer.index == 3", True),
    ("seat.hand + [led]", [0, 4, 3]),
    ("seats == seats_from(first(seats))", True),
    ("sort([c.number for c in seat.hand]) < [1]", True),
    ("card.colour < led.colour", False),
    ("sum([])", 0),
    ("max(0, seat.tricks) + 1", 4),
    ("len(x if x > 5 else [1])", 1),
])
def test_operands_the_compiler_cannot_tell_apart_or_that_fit_are_accepted(text, value):
    assert run(text, x=3) == value


def test_a_number_field_refuses_text_at_load_time():
    err = compile_error("card.colour", expect="number")
    assert (err.message, err.position) == ("expected a number, found text", at(0))
    err = compile_error("seat.tricks > 1", expect="number")  # true/false is not a number either
    assert (err.message, err.position) == ("expected a number, found true/false", at(0))
    assert compile_("seat.tricks + 1", expect="number")(env_for()) == 4


def test_every_expression_of_a_rule_file_is_checked_wherever_it_is(tmp_path):
    """A type mistake in a score step, found by validate with the file, line and column (it used to stop play)."""
    from interpreter.cli import validate_file

    text = (ROOT / "games" / "hearts.yaml").read_text(encoding="utf-8")
    line = "      points(seat) if round.shooter == none\n"
    assert line in text
    for new, message in [("len(seat.won) * 'a'", "'*' needs two numbers, found a number and text"),
                         ("1 if round.dealer == 1 else 0", f"comparing a seat with a number: {SEAT_NOT_NUMBER}"),
                         # the engine's own values are typed too: counters, totals, names, the round's number
                         ("seat.total * 'a'", "'*' needs two numbers, found a number and text"),
                         ("round.number * seat.name", "'*' needs two numbers, found a number and text"),
                         ("players * 'a'", "'*' needs two numbers, found a number and text")]:
        path = tmp_path / "variant.yaml"
        path.write_text(text.replace(line, f"      {new} if round.shooter == none\n"))
        (found,) = validate_file(str(path))
        row = text.splitlines().index(line.rstrip("\n")) + 1
        where = "*" if "*" in new else "=="
        assert found.splitlines()[0] == f"{path}:{row}:{7 + new.index(where)}: error: {message}"


# ----------------------------------------------------------------------------- literals no card has (issue 19)


@pytest.mark.parametrize("text, where, message", [
    ("card.colour == 'green'", "'green'", "no card has colour 'green'; colours: blue, red, yellow"),
    ("'green' != led.colour", "'green'", "no card has colour 'green'; colours: blue, red, yellow"),
    ("card.colour in ['red', 'green']", "'green'", "no card has colour 'green'; colours: blue, red, yellow"),
    ("card.colour not in ['gren']", "'gren'", "no card has colour 'gren'; colours: blue, red, yellow"),
    ("card.number == 3", "3", "no card has number 3; numbers: 0, 5, 7, 9"),
    ("4 == card.number or true", "4", "no card has number 4; numbers: 0, 5, 7, 9"),
    ("card.copy != 2", "2", "no card has copy 2; copies: 0, 1"),
    ("first(seat.hand).colour == 'purple'", "'purple'", "no card has colour 'purple'; colours: blue, red, yellow"),
    ("[c for c in seat.hand if c.label == 'red 8']", "'red 8'",
     "no card has label 'red 8'; labels: blue 0, blue 5, red 0, red 7, yellow 9"),
])
def test_a_literal_that_no_card_has_compared_with_a_card_attribute_is_refused(text, where, message):
    err = compile_error(text)
    assert (err.message, err.position) == (message, at(text.index(where)))


def test_a_literal_no_card_has_is_let_through_in_a_branch_a_constant_test_skips():
    """A file extended by others, or an option: with this deck and these options the branch is never taken."""
    assert compile_("card.colour == 'green' if options.short_game else card.number == 7")(env_for()) is True
    assert compile_("players == 4 or card.colour in ['green']")(env_for()) is True
    err = compile_error("card.colour == 'green' if not options.short_game else false")
    assert err.message == "no card has colour 'green'; colours: blue, red, yellow"


def test_a_literal_no_card_has_is_refused_inside_a_define_too():
    err = compile_error("is_green(card)", defines={"is_green(c)": "c.colour == 'green'"})
    assert (err.message, err.position) == ("no card has colour 'green'; colours: blue, red, yellow",
                                           in_define(0, 12))


def two_decks() -> Globals:
    """Number cards 1, 2 and 'A' (a mixed rank) and a sign card without a value."""
    g = make_globals()
    g.card_attrs = {"kind": ("number", "number", "number", "sign"), "value": (1, 2, "A", None),
                    "colour": ("red", "red", "blue", None), "copy": (0, 0, 0, 0),
                    "label": ("red 1", "red 2", "blue A", "sign")}
    return g


@pytest.mark.parametrize("text, ok", [
    ("card.kind == 'sign'", True), ("card.colour == none", True), ("card.value in [1, 'A', none]", True),
    ("card.value != 2", True), ("card.colour == 'red'", True), ("card.colour == led.colour", True),
    ("card.kind == 'joker'", "no card has kind 'joker'; kinds: number, sign"),
    ("card.value == 3", "no card has value 3; values: 1, 2, A"),
    ("card.value == '2'", "no card has value '2' (the values are numbers: write 2); values: 1, 2, A"),
    ("card.value == true", "no card has value true; values: 1, 2, A"),
])
def test_a_value_of_any_group_of_the_deck_is_a_value_of_the_attribute(text, ok):
    compiler = Compiler(two_decks())
    if ok is True:
        compiler.compile(text, BOUND, locate)
        return
    with pytest.raises(ExpressionError) as info:
        compiler.compile(text, BOUND, locate)
    assert info.value.message == ok


def test_a_literal_no_card_of_a_real_deck_has_names_the_values_of_the_deck(tmp_path):
    from interpreter.cli import validate_file

    text = (ROOT / "games" / "hearts.yaml").read_text(encoding="utf-8")
    assert "c.suit == 'hearts'" in text
    path = tmp_path / "variant.yaml"
    path.write_text(text.replace("c.suit == 'hearts'", "c.suit == 'diamond'", 1))
    (found,) = validate_file(str(path))
    assert found.splitlines()[0].endswith(": error: no card has suit 'diamond'; suits: clubs, diamonds, hearts, spades")


# ----------------------------------------------------------------------------- none where a card or seat is read


NO_CARD = "first([c for c in seat.hand if c.number > 100])"
NO_SEAT = "first([s for s in seats if s.tricks > 100])"


@pytest.mark.parametrize("text, value", [
    (f"{NO_CARD}.colour", None),
    (f"{NO_CARD}.number == none", True),
    (f"{NO_CARD}.colour == led.colour", False),
    (f"[{NO_CARD}.number, led.number]", (None, 0)),
    (f"{NO_SEAT}.tricks", None),
    (f"{NO_SEAT}.name", None),
    (f"{NO_SEAT}.hand", None),
    ("round.monster.total", None),
    ("round.monster.index == none", True),
    ("round.cache.discard", 2),
    ("first(x).number", None),
])
def test_an_attribute_of_none_is_none(text, value):
    compiled = Compiler(make_globals()).compile(text, dict(BOUND, x=CARDS), locate)
    assert compiled(env_for(x=[])) == value


def test_a_rule_judged_against_a_led_card_that_is_none_reads_its_attributes_as_none():
    compiled = Compiler(make_globals()).compile("card.colour == led.colour or led.number == none", BOUND,
                                                          locate, per="card")
    env = env_for(led=None)
    env["$batch"] = object()
    assert compiled.select(env, [0, 1, 4]) == [0, 1, 4]
    compiled = Compiler(make_globals()).compile("card.colour == led.colour", BOUND, locate, per="card")
    env["$batch"] = object()
    assert compiled.select(env, [0, 1, 4]) == [] and not compiled.exists(env, [0, 1, 4])


@pytest.mark.parametrize("text, message", [
    (f"{NO_CARD}.number + 1", "'+' cannot combine none and a number"),
    (f"{NO_CARD}.number < 3", "'<' cannot compare none with a number"),
    (f"-{NO_SEAT}.tricks", "'-' needs a number, not none"),
    ("y[0]", "none cannot be indexed (only lists can)"),
    ("len(x)", "none is not a list"),
    ("[c for c in y]", "none is not a list"),
    ("x + 'a'", "'+' cannot combine a number and text"),
    ("seats[x]", "a list index must be a number, not text"),
])
def test_what_fails_with_none_while_playing_is_a_positioned_error_in_the_words_of_the_rules(text, message):
    compiled = Compiler(make_globals()).compile(text, dict(BOUND, x=VALUE, y=CARDS), locate)
    x = {"x + 'a'": 1, "seats[x]": "a"}.get(text)
    with pytest.raises(ExpressionFailed) as info:
        compiled.run(env_for(x=x, y=None))
    assert str(info.value) == f"{FILE}:{LINE}:{COL}: error: expression {text!r} failed: {message}"


# ----------------------------------------------------------------------------- dependencies


@pytest.mark.parametrize("text, deps", [
    ("card.colour == led.colour", {"ctx:card", "ctx:led"}),
    ("card.colour == round.trump", {"ctx:card", "round:trump"}),
    ("round.cache.discard > 0", {"round:cache"}),
    ("seat.tricks", {"ctx:seat", "state"}),
    ("team(seat)", {"ctx:seat", "state"}),
    ("same_team(seat, round.dealer)", {"ctx:seat", "round:dealer", "state"}),
    ("players + options.limit + setup.hand", set()),
    ("[c.number for c in [card, led]]", {"ctx:card", "ctx:led"}),
])
def test_a_compiled_expression_records_what_it_reads(text, deps):
    assert compile_(text).deps == frozenset(deps)


def test_a_define_call_records_what_the_define_reads():
    compiled = compile_("is_trump(card)", defines={"is_trump(c)": "c.colour == round.trump"})
    assert compiled.deps == frozenset({"ctx:card", "round:trump"})


# ----------------------------------------------------------------------------- no eval, no exec


def _calls(name: str) -> list[str]:
    """``path: source`` of every call to the Python builtin ``name`` in the interpreter package."""
    found = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in pyast.walk(pyast.parse(source)):
            if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == name:
                found.append(f"{path.relative_to(ROOT).as_posix()}: {pyast.get_source_segment(source, node)}")
    return found


@pytest.mark.parametrize("name", ["exec", "__import__"])
def test_the_interpreter_never_calls_exec_or_import(name):
    assert _calls(name) == []


@pytest.mark.parametrize("name", ["eval", "compile"])
def test_only_the_code_generator_compiles_python(name):
    """Generated functions are made in one place, from source the compiler writes (an expression's lambda, see
    test_codegen.py) or the engine writes (a step's functions, see engine/steps/trick_code.py)."""
    assert {c.split(":")[0] for c in _calls(name)} == {"interpreter/dsl/codegen.py"}


def test_the_compiler_looks_up_only_its_own_methods_by_name():
    """Name-based lookups dispatch on the AST node's class or read a node's own fields (the names in its
    class's ``fields``), never names from rule text."""
    dsl = [c for c in _calls("getattr") if c.startswith("interpreter/dsl/")]
    assert dsl == [
        "interpreter/dsl/ast.py: getattr(self, f)",  # values(), replace(), repr(): f in self.fields
        "interpreter/dsl/ast.py: getattr(self, f)",
        "interpreter/dsl/ast.py: getattr(self, f)",
        'interpreter/dsl/emit.py: getattr(self, "_" + part.op)',  # op: one of the compiler's own (see ir.Part)
        "interpreter/dsl/resolve.py: getattr(node, name)",  # name in node.fields
        'interpreter/dsl/resolve.py: getattr(self, "_" + type(n).__name__.lower())',
        "interpreter/dsl/tree_cache.py: getattr(value, f)",  # f in value.fields
    ]


# ----------------------------------------------------------------------------- against a real rule file


@pytest.fixture(scope="module")
def njet():
    """The Globals that compile_game builds for NJET (Rio Grande), 4 players, and a state in the trick play."""
    import random

    import interpreter.engine.compile as engine_compile
    from interpreter.rules.loader import load_rules

    made: list[Compiler] = []

    class Recording(Compiler):
        def __init__(self, globals_: Globals, generate: bool = True, key: str | None = None):
            super().__init__(globals_, generate, key)
            made.append(self)

    mp = pytest.MonkeyPatch()
    mp.setattr(engine_compile, "Compiler", Recording)
    try:
        game = engine_compile.compile_game(load_rules(ROOT / "games" / "njet-riogrande.yaml"), 4)
    finally:
        mp.undo()
    state = game.new_state()
    rng = random.Random(7)
    while state.pending.step.kind != "tricks" or sum(state.counters["tricks"]) < 2:
        if game.current(state) == -1:
            game.apply_chance(state, game.sample_chance(state, rng))
        else:
            game.apply(state, rng.choice(game.legal_actions(state)))
    return made[0], state


RULE_NAMES = {"card": CARD, "led": CARD, "seat": SEAT, "player": SEAT, "winner": SEAT, "value": list_of(VALUE),
              "last_trick": CARDS}


def _rule_locate(offset: int) -> Position:
    return Position("example", 1, 1 + offset)


def _env(state: Any) -> dict[str, Any]:
    hand = state.per_seat["hand"][0]
    return {"$s": state, "card": hand[0], "led": hand[-1], "seat": 0, "player": 1, "winner": 2,
            "value": ["red", "blue"], "last_trick": hand[:4]}


@pytest.mark.parametrize("name", sorted(set(REGISTRY) - PLAYS))
def test_the_example_of_each_builtin_compiles_and_runs_in_a_real_game(njet, name):
    compiler, state = njet
    compiled = compiler.compile(REGISTRY[name].example, RULE_NAMES, _rule_locate)
    compiled(_env(state))


def _doc_blocks(kind: str) -> list[str]:
    """The fenced blocks of ``docs/dsl.md`` whose info string is ``kind``."""
    text = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    return re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)


def _doc_examples() -> list[str]:
    """Every line of the ``expr`` blocks: one expression each."""
    return [line.strip() for block in _doc_blocks("expr") for line in block.splitlines() if line.strip()]


def test_the_reference_has_checked_examples():
    assert len(_doc_examples()) >= 40


@pytest.mark.parametrize("example", _doc_examples())
def test_every_expression_example_of_the_reference_compiles_and_runs_in_a_real_game(njet, example):
    compiler, state = njet
    compiled = compiler.compile(example, RULE_NAMES, _rule_locate)
    compiled(_env(state))


def test_the_reference_describes_every_builtin_with_its_registry_example():
    text = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    for b in REGISTRY.values():
        assert f"| `{b.name}` |" in text, b.name
        assert f"`{b.example}`" in text, b.name


def test_every_yaml_example_of_the_reference_is_accepted_by_the_safe_loader():
    from interpreter.rules.yaml_loader import load_yaml_text

    blocks = _doc_blocks("yaml")
    assert len(blocks) >= 4
    for block in blocks:
        data, _ = load_yaml_text(block, "docs/dsl.md")
        assert isinstance(data, dict)


def _documented_checks() -> list[tuple[str, str]]:
    """(example, message) of the rows of the load-time checks table with one example and one message."""
    text = (ROOT / "docs" / "dsl.md").read_text(encoding="utf-8")
    section = text.split("## Checks at load time", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3:
            continue
        example, message = re.fullmatch(r"`([^`]*)`", cells[1]), re.fullmatch(r"`([^`]*)`", cells[2])
        if example and message and ": " not in example.group(1):
            rows.append((example.group(1), message.group(1)))
    return rows


def test_the_reference_lists_the_load_time_checks():
    assert len(_documented_checks()) >= 15


@pytest.mark.parametrize("example, message", _documented_checks())
def test_each_documented_load_time_check_gives_the_documented_message(njet, example, message):
    compiler, _ = njet
    with pytest.raises(ExpressionError) as info:
        compiler.compile(example, {"card": CARD, "led": CARD, "seat": SEAT}, _rule_locate)
    assert info.value.message == message


def test_lists_are_ordered_item_by_item_whatever_made_them():
    from interpreter.dsl.compiler import Compiler, Globals
    from interpreter.errors import Position

    c = Compiler(Globals())
    loc = lambda o: Position("f.yaml", 1, 1 + o)  # noqa: E731
    assert c.compile("[9, 8, 1] > [x for x in [9, 6, 7]]", {}, loc)({}) is True
    assert c.compile("[x for x in [9, 6]] < [9, 7]", {}, loc)({}) is True
    assert c.compile("[x for x in [9, 6]] >= [9, 6]", {}, loc)({}) is True


# ---------------------------------------------------------------- positions and lookups: let, index, slices, fors


@pytest.mark.parametrize("text,expected", [
    ("let m = max(s.tricks for s in seats) in [s for s in seats if s.tricks == m]", [0]),  # tricks 3, 0, 2, 1
    ("let x = 2 in let y = x + 1 in x * y", 6),
    ("let h = seat.hand in len(h) + len(h)", 4),
    ("let ok = (card.number == 7) in 1 if ok else 0", 1),
    ("index(seats, 2)", 2),
    ("index(seats, 9)", None),
    ("index([false, 0, 1, true], true)", 3),  # true is not 1
    ("seats[1:]", [1, 2, 3]),
    ("seats[:2]", [0, 1]),
    ("seats[1:3]", [1, 2]),
    ("seats[-1:]", [3]),
    ("seats[:]", [0, 1, 2, 3]),
    ("[[a, b] for a in [1, 2] for b in [3, 4]]", [[1, 3], [1, 4], [2, 3], [2, 4]]),
    ("[a + b for a in [1, 2] for b in [10, 20] if a + b != 12]", [11, 21, 22]),
    ("sum(a * b for a in [1, 2] for b in [3, 4])", 21),
    ("[[a, b, c] for a in [1] for b in [2, 3] for c in [4]]", [[1, 2, 4], [1, 3, 4]]),
    ("[[a, b] for a in [1, 2, 3] if a != 2 for b in [a, 10] if b > 1]", [[1, 10], [3, 3], [3, 10]]),
    ("sum(a * b for a in [1, 2] if a > 1 for b in [3, 4])", 14),
    # combinations built pair by pair, the test applied as they are made (pairs that add up to 5)
    ("let xs = [1, 2, 3, 4] in [[a, b] for a in xs for b in xs[index(xs, a) + 1:] if a + b == 5]",
     [[1, 4], [2, 3]]),
    ("let xs = [1, 2, 3, 4] in [[xs[i], xs[j]] for i in range(0, len(xs)) for j in range(i + 1, len(xs)) "
     "if xs[i] + xs[j] == 5]", [[1, 4], [2, 3]]),
    ("[b for a in [[1, 2], [3]] for b in a]", [1, 2, 3]),  # the inner loop reads the outer variable
    ("[c for c in [1, 2] for c in [c, c * 10]]", [1, 10, 2, 20]),  # an inner name hides the outer one
    ("[card for s in [5, 6] for card in [s] if card > 5] + [card]", [6, 1]),  # the rule's card is back after
    ("len([1 for a in range(0, 3) for b in range(0, 4) for c in range(0, 5)])", 60),
    ("concat([[1], [], [2, 3]])", [1, 2, 3]),
    ("slice(seats, none, 2)", [0, 1]),
])
def test_let_index_slices_and_several_fors(text, expected):
    value = run(text)
    assert (list(value) if isinstance(value, tuple) else value) == expected or \
        [list(v) if isinstance(v, tuple) else v for v in value] == expected


def test_the_names_of_let_and_of_several_fors_are_typed_like_any_other():
    assert compile_("let h = seat.hand in first(h)").type == CARD
    assert compile_("[[a, b] for a in seat.hand for b in seats]").type == list_of(list_of(VALUE))
    assert compile_("seat.hand[1:]").type == CARDS
    assert compile_("[c for s in seats for c in s.hand]").type == CARDS
    assert "unknown name 'x'" in compile_error("let y = 1 in x").message
    assert "unknown name 'a'" in compile_error("[b for a in [1] for b in [2]] + [a]").message
    assert compile_error("seats['a':]").message == "slice() needs a number or none, found text"


def test_the_syntax_of_let_and_of_slices_says_what_is_wrong():
    assert "use == to compare" in syntax_error("card.colour = 'red'").message
    assert syntax_error("let x == 1 in x").offset == 7  # the second '='
    assert syntax_error("seats[1:2:3]").message.startswith("unexpected ':'")
    assert syntax_error("let x = 1").message.startswith("the expression ends too early; expected ")
    # a comparison as a let's value goes in brackets (its own 'in' would be the let's)
    assert run("let c = (1 in [1, 2]) in c") is True


def test_an_if_between_fors_keeps_the_loops_inside_it_from_running():
    """Work is counted (the budget), not timed: the inner loop runs only for the outer items the if keeps."""
    from interpreter.dsl import budget

    def work(text: str) -> int:
        compiled = compile_(text)
        budget.reset()
        compiled(env_for())
        from interpreter.limits import WORK_LIMIT

        return WORK_LIMIT - budget.left[0]

    fifty = "range(0, 47 + seat.tricks)"  # 50 numbers, read from the state (a constant would be worked out once)
    early = work(f"[[a, b] for a in {fifty} if a == 3 for b in {fifty}]")
    late = work(f"[[a, b] for a in {fifty} for b in {fifty} if a == 3]")
    assert early <= 200 < 2500 <= late  # 50 + 50 items for the outer loop, 50 + 50 for the one kept



@pytest.mark.parametrize(("values", "read", "declare"), [
    ("{places: '[]'}", "game.places[0].hand", "types: {game: {places: list of seats}}"),
    ("{leader: none}", "game.leader.hand", "types: {game: {leader: seat}}"),
])
def test_an_attribute_of_a_value_of_no_known_kind_says_to_declare_it_in_types(tmp_path, values, read, declare):
    from interpreter.engine.compile import rule_file_problems

    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: hearts\nname: v\ngame:\n  values: {values}\n"
                    f"round:\n  deal:\n    when: \"len({read}) > 100 or true\"\n")
    problems = rule_file_problems(str(path))
    assert problems and "has no attribute 'hand'" in problems[0].message and declare in problems[0].message
    assert problems[0].position.line == 7
