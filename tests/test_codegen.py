"""Generated functions (dsl/codegen.py) against the closures they replace, and what the generated code may contain.

The closures are the reference: the compiler builds both from the same checked tree, so a game compiled with
``generate=False`` plays by closures alone. Every bundled game and player count is played with both, in step,
comparing the whole state and the legal actions after every action.
"""

from __future__ import annotations

import random

import pytest

from interpreter.dsl.compiler import Compiler
from interpreter.dsl.types import CARD, VALUE
from interpreter.engine.compile import compile_game, supported_players
from interpreter.engine.state import CHANCE
from interpreter.rules.loader import load_rules

from .conftest import GAMES, snapshot
from .test_dsl import BOUND, FakeState, env_for, locate, make_globals

CASES = [(path.stem, n) for path in GAMES for n in supported_players(load_rules(path))]


def play_in_step(fast, slow, rng, what: str) -> None:
    """One game played with generated functions (``fast``) and with closures (``slow``) in step: the whole state
    and the labels of the legal actions must agree after every action, and so must the end."""
    a, b = fast.new_state(), slow.new_state()
    actions = 0
    while not a.finished:
        assert snapshot(a) == snapshot(b), f"{what}: states differ after {actions} actions"
        d = a.pending
        if d.actor == CHANCE:
            outcome = d.step.sample(fast, a, rng)
            fast.apply_fast(a, outcome)
            slow.apply_fast(b, outcome)
        else:
            assert [d.step.label(fast, x) for x in d.actions] == [b.pending.step.label(slow, x)
                                                                for x in b.pending.actions]
            i = rng.randrange(len(d.actions))
            fast.apply_fast(a, d.actions[i])
            slow.apply_fast(b, b.pending.actions[i])
        actions += 1
    assert b.finished and a.totals == b.totals and fast.winners(a) == slow.winners(b)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_generated_functions_play_every_game_exactly_as_the_closures_do(name, players):
    source = load_rules(name)
    fast, slow = compile_game(source, players), compile_game(source, players, generate=False)
    assert fast.steps[0].__class__ is slow.steps[0].__class__
    for seed in range(2):
        play_in_step(fast, slow, random.Random(f"codegen/{seed}"), f"{name} {players}p seed {seed}")


def both(text, bound=BOUND, defines=None, **values):
    """The value of ``text`` generated and as closures (they must agree), and the generated function's source."""
    out = []
    for generate in (True, False):
        compiled = Compiler(make_globals(defines), generate).compile(text, bound, locate)
        out.append(compiled(env_for(**values)))
    assert out[0] == out[1]
    return out[0]


@pytest.mark.parametrize(("text", "value"), [
    ("[c for c in [c for c in [0, 1, 2] if c > 0] if c < 2]", [1]),  # a variable shadowing the same name
    ("sum(sum(x for x in [y, y]) for y in [1, 2, 3])", 12),
    ("[card for card in [4, 5]]", [4, 5]),  # shadows a bound name
    ("twice(card.number) + twice(3)", 20),  # card = red 7
    ("count(is_red(c) for c in seat.hand)", 1),  # seat north holds red 0 and blue 5
    ("[n for n in [1, 2] if n == twice(1) - 1]", [1]),
    ("first([s for s in seats if s.tricks == 0])", 1),
    ("\"it's\" if card.colour == 'red' else 'no'", "it's"),
])
def test_locals_shadow_and_defines_take_arguments_as_in_the_closures(text, value):
    defines = {"twice(n)": "n * 2", "is_red(c)": "c.colour == 'red'"}
    bound = dict(BOUND, n=VALUE)
    assert both(text, bound, defines, n=0) == value


@pytest.mark.parametrize("text", [
    "\"'); __import__('os').system('echo no') #\" == text(card.label)",  # (no card has that label)
    "'a\"\\n' + card.label + \"\\'\"",
    "[c for c in [1] if c == card.number] == [] and 'eval(1)' != text(card.label)",
])
def test_text_in_a_rule_reaches_the_generated_code_only_as_a_python_literal(text):
    compiled = Compiler(make_globals()).compile(text, BOUND, locate)
    value = compiled(env_for())
    assert value == Compiler(make_globals(), False).compile(text, BOUND, locate)(env_for())
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


def test_source_python_cannot_compile_leaves_the_closures_to_evaluate_it(monkeypatch):
    from interpreter.dsl.codegen import Namespace

    assert Namespace().function((), "(" * 300 + "1" + ")" * 300) is None  # past Python's own nesting limit
    monkeypatch.setattr(Namespace, "function", lambda self, params, src: None)
    defines = {"twice(n)": "n * 2", "is_red(c)": "c.colour == 'red'"}
    for text, value in [("count(is_red(c) for c in seat.hand) + twice(card.number)", 15),
                        ("[c for c in seat.hand if c.number > twice(0)]", [4])]:
        compiled = Compiler(make_globals(defines)).compile(text, BOUND, locate, per="card")
        assert compiled.fn.__code__.co_filename != "<trickbook>" and compiled(env_for()) == value  # closures


def test_a_judged_expression_whose_loops_cannot_be_generated_runs_as_closures(monkeypatch):
    """Lifted parts (nested in one another here) read the loop's locals: the closures must not use them."""
    from interpreter.dsl.codegen import Namespace

    real = Namespace.function
    monkeypatch.setattr(Namespace, "function",
                        lambda self, params, src: None if "_items" in params else real(self, params, src))
    text = "card.number > max(c.number for c in seat.hand if c.colour == led.colour) - len(seat.hand) or card == led"
    compiled = Compiler(make_globals()).compile(text, BOUND, locate, per="card")
    assert compiled.fn.__code__.co_filename != "<trickbook>"  # closures, not the generated loops
    env = env_for()
    env["$batch"] = object()
    values = []
    for c in range(6):
        env["card"] = c
        values.append(compiled.run(env))
    closures = Compiler(make_globals(), False).compile(text, BOUND, locate, per="card")
    expected = []
    for c in range(6):
        env["card"] = c
        expected.append(closures.run(env))
    assert values == expected and any(values) and not all(values)
    env["$batch"] = object()
    assert compiled.select(env, range(6)) == [c for c in range(6) if expected[c]]


def test_a_led_card_that_is_none_plays_alike_generated_and_as_closures(tmp_path):
    """A tricks step whose led card can be none (no card of the trick sets the suit): its follow and strength
    rules read the led card's attributes as none, generated and as closures, instead of stopping the game."""
    from .conftest import ROOT

    text = (ROOT / "games" / "whist.yaml").read_text(encoding="utf-8")
    follow = '    follow: "card.suit == led.suit"\n'
    assert follow in text
    path = tmp_path / "no-led.yaml"
    path.write_text(text.replace(follow, '    led: "first([c for c in trick if c.order > 13])"\n' + follow))
    source = load_rules(str(path))
    fast, slow = compile_game(source, 4), compile_game(source, 4, generate=False)
    play_in_step(fast, slow, random.Random("no led"), "whist with a led card that may be none")
