"""Generated functions (dsl/emit.py, dsl/codegen.py): the one way an expression is evaluated, and what the
generated code may contain.

Every bundled game's play is checked against its golden records (tests/test_golden.py); here, the parts of the
generated code a game may not reach: locals that hide one another, rule text that looks like Python, source
Python cannot compile, parts lifted out of a judged expression's loop, and checking without generating.
"""

from __future__ import annotations

import random

import pytest

from interpreter.dsl.compiler import RUNTIME_ERRORS, Compiler, ExpressionFailed
from interpreter.dsl.types import CARD, VALUE
from interpreter.engine.compile import compile_game
from interpreter.engine.state import CHANCE
from interpreter.rules.loader import load_rules

from .test_dsl import BOUND, FakeState, env_for, locate, make_globals


def generated(text, bound=BOUND, defines=None, **values):
    """The value of ``text``, checking that it is evaluated by a generated function."""
    compiled = Compiler(make_globals(defines)).compile(text, bound, locate)
    assert compiled.is_constant or compiled.fn.__code__.co_filename == "<trickbook>"
    return compiled(env_for(**values))


@pytest.mark.parametrize(("text", "value"), [
    ("[c for c in [c for c in [0, 1, 2] if c > 0] if c < 2]", [1]),  # a variable shadowing the same name
    ("sum(sum(x for x in [y, y]) for y in [1, 2, 3])", 12),
    ("[card for card in [4, 5]]", [4, 5]),  # shadows a bound name
    ("twice(card.number) + twice(3)", 20),  # card = red 7
    ("count(is_red(c) for c in seat.hand)", 1),  # seat north holds red 0 and blue 5
    ("[n for n in [1, 2] if n == twice(1) - 1]", [1]),
    ("first([s for s in seats if s.tricks == 0])", 1),
    ("\"it's\" if card.colour == 'red' else 'no'", "it's"),
    ("[n for n in [n + 1, n + 2]]", [1, 2]),  # the variable's own list reads the bound name it hides
])
def test_locals_shadow_and_defines_take_arguments(text, value):
    defines = {"twice(n)": "n * 2", "is_red(c)": "c.colour == 'red'"}
    bound = dict(BOUND, n=VALUE)
    assert generated(text, bound, defines, n=0) == value


@pytest.mark.parametrize(("text", "value"), [
    ("\"'); __import__('os').system('echo no') #\" == text(card.label)", False),  # (no card has that label)
    ("'a\"\\n' + card.label + \"\\'\"", 'a"\\nred 7\\\''),
    ("[c for c in [1] if c == card.number] == [] and 'eval(1)' != text(card.label)", True),
])
def test_text_in_a_rule_reaches_the_generated_code_only_as_a_python_literal(text, value):
    compiled = Compiler(make_globals()).compile(text, BOUND, locate)
    assert compiled(env_for()) == value
    assert compiled.fn.__globals__["__builtins__"] == {}


def test_generated_functions_run_without_python_builtins():
    compiled = Compiler(make_globals()).compile("max(c.number for c in seat.hand)", {"seat": BOUND["seat"]}, locate)
    assert compiled.fn.__name__ == "<lambda>" and compiled.fn.__globals__["__builtins__"] == {}
    assert compiled({"$s": FakeState(), "seat": 0}) == 5


def test_an_error_in_a_generated_function_names_the_expression_and_its_position():
    compiled = Compiler(make_globals()).compile("card.number // (led.number)", {"card": CARD, "led": CARD}, locate)
    with pytest.raises(Exception) as info:
        compiled.run({"$s": FakeState(), "card": 1, "led": 3})
    assert str(info.value).startswith("rules.yaml:7:12: error: expression 'card.number // (led.number)' failed")


@pytest.mark.parametrize(("text", "defines", "uses"), [
    ("card.colour == led.colour", {}, {"attr:card.colour", "attr:led.colour"}),
    ("card == led", {}, {"bare:card", "bare:led"}),
    ("same(card, led)", {"same(a, b)": "a.colour == b.colour"}, {"attr:card.colour", "attr:led.colour"}),
    ("suit(led) == 'red'", {"suit(c)": "'trump' if top(c) else c.colour", "top(c)": "c.number > 7"},
     {"attr:led.colour", "attr:led.number"}),
    ("is(card, led)", {"is(a, b)": "a == b"}, {"bare:card", "bare:led"}),
    ("[c.number for c in seat.hand if c.colour == led.colour]", {}, {"attr:led.colour", "bare:seat"}),
])
def test_an_expression_records_which_attributes_of_a_bound_card_it_reads(text, defines, uses):
    compiled = Compiler(make_globals(defines)).compile(text, BOUND, locate)
    assert compiled.uses == frozenset(uses)
    assert not any(d.startswith(("attr:", "bare:")) for d in compiled.deps)


def test_a_trick_table_keeps_one_column_per_led_card_that_the_rules_tell_apart():
    game = compile_game(load_rules("njet-riogrande"), 4)
    tricks = next(s for s in game.steps if s.kind == "tricks")
    classes = tricks.follow_rules[0].must_table.led_classes  # follow colour: the led card's colour is all it reads
    colours = game.cards.attributes["colour"]
    assert len(set(classes)) == len(set(colours)) < len(set(game.cards.kinds))
    assert all(colours[c] == colours[classes[c]] for c in game.deck)


def _nesting(src: str) -> int:
    """How deep brackets nest in generated source (its string literals hold none here)."""
    depth = deepest = 0
    for ch in src:
        depth += ch in "([{"
        depth -= ch in ")]}"
        deepest = max(deepest, depth)
    return deepest


def test_source_python_cannot_compile_is_made_again_as_shallower_functions(monkeypatch):
    """Python refuses source nested past 200 brackets: parts nested deeper than a few dozen levels get functions
    of their own, and a function still refused is made again with shallower ones (here Python is made to
    refuse anything past 12 brackets)."""
    from interpreter.dsl.codegen import Namespace

    assert Namespace().function((), "(" * 300 + "1" + ")" * 300) is None  # past Python's own nesting limit
    real, refused = Namespace.function, []

    def strict(self, params, src):
        if _nesting(src) > 12:
            refused.append(src)
            return None
        return real(self, params, src)

    monkeypatch.setattr(Namespace, "function", strict)
    defines = {"twice(n)": "n * 2", "is_red(c)": "c.colour == 'red'"}
    deep = "-(" * 30 + "card.number" + ")" * 30  # 30 minus signs: card.number
    for text, value, per in [(f"count(is_red(c) for c in seat.hand) + twice({deep})", 15, None),
                             (f"[c for c in seat.hand if c.number > twice({deep}) - 10]", [4], None),
                             (f"{deep} > 5 and is_red(card)", True, "card")]:
        compiled = Compiler(make_globals(defines)).compile(text, BOUND, locate, per=per)
        assert compiled(env_for()) == value
    assert refused


def test_parts_lifted_out_of_a_judged_expressions_loop_give_the_values_of_the_plain_expression():
    """In a judged expression the parts that do not read the item are worked out once per call (nested in one
    another here); the same expression compiled without per= works everything out every time."""
    text = "card.number > max(c.number for c in seat.hand if c.colour == led.colour) - len(seat.hand) or card == led"
    judged = Compiler(make_globals()).compile(text, BOUND, locate, per="card")
    plain = Compiler(make_globals()).compile(text, BOUND, locate)
    env = env_for()
    env["$batch"] = object()
    values, expected = [], []
    for c in range(6):
        env["card"] = c
        values.append(judged.run(env))
        expected.append(plain.run(env))
    assert values == expected and any(values) and not all(values)
    env["$batch"] = object()
    assert judged.select(env, range(6)) == [c for c in range(6) if expected[c]]
    env["$batch"] = object()
    assert judged.exists(env, range(6)) and not judged.exists(env, [c for c in range(6) if not expected[c]])


def test_checking_only_makes_a_function_when_it_is_called():
    """validate compiles with generate=False: the same checks, and Python compiles only what is run (a constant
    the rules need before play, a rule judged card by card at load time): the same generated function."""
    compiler = Compiler(make_globals({"twice(n)": "n * 2"}), generate=False)
    text = "twice(card.number) + len(seat.hand)"
    compiled = compiler.compile(text, BOUND, locate)
    judged = compiler.compile("card.number > 4", BOUND, locate, per="card")
    assert not compiler.gen._used  # nothing made yet
    assert compiled(env_for()) == 16 == Compiler(make_globals({"twice(n)": "n * 2"})).compile(text, BOUND, locate)(
        env_for())
    assert compiler.gen._used and judged.select(env_for(), range(6)) == [1, 2, 4, 5]


def test_a_led_card_that_is_none_reads_its_attributes_as_none_in_play(tmp_path):
    """A tricks step whose led card can be none (no card of the trick sets the suit): its follow and strength
    rules read the led card's attributes as none instead of stopping the game."""
    from .conftest import ROOT

    text = (ROOT / "games" / "whist.yaml").read_text(encoding="utf-8")
    follow = '    follow: {must: "card.suit == led.suit", says: you must follow suit}\n'
    assert follow in text
    path = tmp_path / "no-led.yaml"
    path.write_text(text.replace(follow, '    led: "first([c for c in trick if c.order > 13])"\n' + follow))
    game = compile_game(load_rules(str(path)), 4)
    rng = random.Random("no led")
    for _ in range(2):
        state = game.new_state()
        while not state.finished:
            d = state.pending
            game.apply_fast(state, game.sample_chance(state, rng) if d.actor == CHANCE else rng.choice(d.actions))
        assert len(game.winners(state)) >= 1


@pytest.mark.parametrize(("text", "keys"), [
    # the parts that do not read the card are its keys; what reads the card reads only its attributes
    ("card.number > max(c.number for c in seat.hand if c.colour == led.colour) - len(seat.hand) or card == led", 2),
    ("'yes' if seat.tricks > 1 else text(card.number) + card.colour", 1),
    ("card in seat.hand", 1),
    ("twice(card.number) > 4", 0),  # a define of card attributes: no keys, the card alone
])
def test_a_judged_expression_split_into_its_keys_gives_the_values_of_the_plain_expression(text, keys):
    judged = Compiler(make_globals({"twice(x)": "x * 2"})).compile(text, BOUND, locate, per="card")
    plain = Compiler(make_globals({"twice(x)": "x * 2"})).compile(text, BOUND, locate)
    assert judged.keyed is not None and judged.part is not None
    keys_of, judge = judged.keyed
    judged_seats = 0
    for seat in range(4):
        env = env_for(seat=seat)
        try:
            expected = [plain.run({**env, "card": c}) for c in range(6)]
        except ExpressionFailed:  # the keys fail too (worked out first): the caller judges as written
            with pytest.raises(RUNTIME_ERRORS):
                keys_of(env)
            continue
        hs = keys_of(env)
        assert len(hs) == keys and judge(env, list(range(6)), hs) == expected
        judged_seats += 1
    assert judged_seats >= 2


@pytest.mark.parametrize("text", [
    "len([c for c in seat.hand if c.number == card.number]) > 0",  # a loop that reads the card
    "same_team(seat, first(seats)) and card.number > 2 or card in seat.hand and same_team(seat, card.number)",
    "card.number > 2",  # nothing but the card: a card table's business, no keys to keep it by
])
def test_an_expression_whose_card_reading_parts_read_the_state_has_no_keys(text):
    judged = Compiler(make_globals()).compile(text, BOUND, locate, per="card")
    keyed = judged.keyed
    assert keyed is None or (text == "card.number > 2" and keyed[0](env_for()) == ())
