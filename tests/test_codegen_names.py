"""Names of a rule file and names of the generated code never meet (dsl/codegen.py, local_name).

A seeded random generator (no hypothesis: deterministic, a few hundred cases) writes expressions whose names
look alike in every way a rule file allows: define parameters, comprehension variables (nested ones with the
same name too), defines, builtin names used as variables, bound names, constants, and names that look like the
generated code's own (``f_x``, ``_v_f_x``, ``e``, ``_k0``, ``_hs``...). Each expression is evaluated by the
generated functions and by a small evaluator of this file that knows only the meaning of the language (plain
Python arithmetic over the same tiny game as tests/test_dsl.py), the oracle: they must agree. The judged form
(``compile(per="card")``, with parts lifted out of the loop) is checked for every card as well.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from interpreter.dsl.codegen import local_name
from interpreter.dsl.compiler import Compiler
from interpreter.dsl.types import CARD, SEAT, VALUE

from .test_dsl import DECK, FakeState, locate, make_globals

COLOURS = [c for c, _, _ in DECK]
NUMBERS = [n for _, n, _ in DECK]
STATE = FakeState()
HANDS, TRICKS, TOTALS = STATE.hands, STATE.tricks, STATE.totals
TEAMS = STATE.teams
CONSTANTS = {"players": 4, "round.number": STATE.vars["number"], "game.pot": STATE.game_vars["pot"],
             "options.limit": 10, "setup.hand": 15}

# names that look like each other, like the generated code's own names, like builtins, bound names, constants
NAMES = ["x", "y", "v", "f_x", "f__x", "_v_f_x", "_v_f__x", "_v_f_0x", "_v_x", "_v__x", "x_", "_x", "e", "_k0",
         "_k1", "_hs", "_items", "_t", "_k", "card", "led", "seat", "players", "len", "sum", "max", "f", "g",
         "text"]
DEFINE_NAMES = ["f", "g", "f_x", "_v_f", "e", "_k0", "_hs", "card", "x"]
# bound names of the expressions (besides card, led and seat): values the test gives
BOUND_VALUES = ["x", "f_x", "_v_f_x", "e", "_k0", "_hs"]

Eval = Callable[[dict[str, Any]], Any]  # the meaning of an expression, given the values of its names


class Define:
    def __init__(self, name: str, params: list[tuple[str, str]], text: str, meaning: Eval):
        self.name, self.params, self.text, self.meaning = name, params, text, meaning

    @property
    def key(self) -> str:
        return f"{self.name}({', '.join(p for p, _ in self.params)})" if self.params else self.name


class Writer:
    """Random expressions with their meanings. ``scope`` maps the names visible here to their kind: int, card
    or seat (a comprehension variable hides an outer name of the same name, whatever its kind)."""

    def __init__(self, rng: random.Random, defines: list[Define], params: list[str] | None = None,
                 confusable: list[str] | None = None):
        self.rng = rng
        self.defines = defines
        self.params = params or []  # in a define's body: its parameters, read often
        self.confusable = confusable or []  # and names like their keys (f.x: f_x, f__x...), for variables

    def variable(self) -> str:
        if self.confusable and self.rng.random() < 0.5:
            return self.rng.choice(self.confusable)
        return self.rng.choice(NAMES)

    def pick(self, scope: dict[str, str], kind: str) -> str | None:
        names = sorted(n for n, k in scope.items() if k == kind)
        return self.rng.choice(names) if names else None

    # -- numbers
    def number(self, scope: dict[str, str], depth: int) -> tuple[str, Eval]:
        rng = self.rng
        params = sorted(p for p in self.params if scope.get(p) == "int")
        if params and rng.random() < 0.3:  # a parameter, maybe inside a loop whose variable looks like its key
            name = rng.choice(params)
            return name, lambda env: env[name]
        choice = rng.randrange(16 if depth > 0 else 5)
        if choice == 0:
            k = rng.randrange(10)
            return str(k), lambda env: k
        if choice == 1:
            name = self.pick(scope, "int")
            if name is not None:
                return name, lambda env: env[name]
        if choice == 2:
            card, how = self.card(scope)
            return f"{card}.number", lambda env: NUMBERS[how(env)]
        if choice == 3:
            seat, how = self.seat(scope, depth)
            attr = rng.choice(["tricks", "total", "index"])
            table = {"tricks": TRICKS, "total": TOTALS, "index": range(4)}[attr]
            return f"{seat}.{attr}", lambda env: table[how(env)]
        if choice == 4:
            name = rng.choice(sorted(CONSTANTS))
            if name.split(".")[0] not in scope:
                value = CONSTANTS[name]
                return name, lambda env: value
            return self.number(scope, 0)
        if choice in (5, 6):
            (a, fa), (b, fb) = self.number(scope, depth - 1), self.number(scope, depth - 1)
            op = rng.choice(["+", "-"])
            return f"({a} {op} {b})", (lambda env: fa(env) + fb(env)) if op == "+" else \
                (lambda env: fa(env) - fb(env))
        if choice == 7:
            a, fa = self.number(scope, depth - 1)
            k = rng.randrange(1, 4)
            op = rng.choice(["*", "//", "%"])
            fn = {"*": lambda env: fa(env) * k, "//": lambda env: fa(env) // k, "%": lambda env: fa(env) % k}[op]
            return f"({a} {op} {k})", fn
        if choice == 8:
            (a, fa), (t, ft), (b, fb) = (self.number(scope, depth - 1), self.test(scope, depth - 1),
                                         self.number(scope, depth - 1))
            return f"({a} if {t} else {b})", lambda env: fa(env) if ft(env) else fb(env)
        if choice in (9, 10):
            return self.total(scope, depth)
        if choice == 11:
            (a, fa), (b, fb) = self.number(scope, depth - 1), self.number(scope, depth - 1)
            f = rng.choice(["max", "min"])
            g = max if f == "max" else min
            return f"{f}({a}, {b})", lambda env: g(fa(env), fb(env))
        if choice == 12:
            a, fa = self.number(scope, depth - 1)
            return f"abs({a})", lambda env: abs(fa(env))
        if choice in (13, 14) and self.defines:
            return self.call(scope, depth)
        if choice == 15:
            items, fi, kind = self.items(scope, depth - 1)
            return f"len({items})", lambda env: len(fi(env))
        k = rng.randrange(10)
        return str(k), lambda env: k

    def total(self, scope: dict[str, str], depth: int) -> tuple[str, Eval]:
        """sum / count / max over a comprehension, with a variable of a name that may hide another."""
        rng = self.rng
        source, fs, kind = self.items(scope, depth - 1)
        var = self.variable()
        inner = dict(scope, **{var: kind})
        body, fb = self.number(inner, depth - 1)
        params = sorted(p for p in self.params if inner.get(p) == "int")
        if params and rng.random() < 0.7:  # the loop reads a parameter: f(x) with [x + ... for f_x in ...]
            p, part = rng.choice(params), fb
            body, fb = f"({p} + {body})", lambda env: env[p] + part(env)
        cond, fc = self.test(inner, depth - 1) if rng.random() < 0.5 else ("", None)
        test = f" if {cond}" if cond else ""

        def values(env: dict[str, Any]) -> list[Any]:
            out = []
            for item in fs(env):
                e = dict(env, **{var: item})
                if fc is None or fc(e):
                    out.append(fb(e))
            return out

        form = rng.randrange(4)
        if form == 0:
            return f"sum({body} for {var} in {source}{test})", lambda env: sum(values(env))
        if form == 1:
            return f"sum([{body} for {var} in {source}{test}])", lambda env: sum(values(env))
        if form == 2:
            return f"max([{body} for {var} in {source}{test}] + [-99])", lambda env: max(values(env) + [-99])
        return f"len([{body} for {var} in {source}{test}])", lambda env: len(values(env))

    def call(self, scope: dict[str, str], depth: int) -> tuple[str, Eval]:
        d = self.rng.choice(self.defines)
        args = []
        for _, kind in d.params:
            args.append(self.number(scope, depth - 1) if kind == "int" else self.card(scope) if kind == "card"
                        else self.seat(scope, depth - 1))
        text = f"{d.name}({', '.join(a for a, _ in args)})"
        fns = [f for _, f in args]
        names = [p for p, _ in d.params]
        meaning = d.meaning
        return text, lambda env: meaning(dict(zip(names, [f(env) for f in fns])))  # lexical: only its parameters

    # -- tests
    def test(self, scope: dict[str, str], depth: int) -> tuple[str, Eval]:
        rng = self.rng
        choice = rng.randrange(8 if depth > 0 else 4)
        if choice == 0:
            (a, fa), (b, fb) = self.number(scope, depth - 1), self.number(scope, depth - 1)
            op = rng.choice(["<", "==", "!=", ">="])
            if a.endswith(".number") and b.isdigit() or b.endswith(".number") and a.isdigit():
                k = rng.choice(NUMBERS)  # a number no card has is refused (see test_dsl.py)
                a, fa = (a, fa) if a.endswith(".number") else (str(k), lambda env: k)
                b, fb = (b, fb) if b.endswith(".number") else (str(k), lambda env: k)
            fn = {"<": lambda env: fa(env) < fb(env), "==": lambda env: fa(env) == fb(env),
                  "!=": lambda env: fa(env) != fb(env), ">=": lambda env: fa(env) >= fb(env)}[op]
            return f"{a} {op} {b}", fn
        if choice == 1:
            (a, fa), (b, fb) = self.card(scope), self.card(scope)
            if rng.random() < 0.5:
                return f"{a} == {b}", lambda env: fa(env) == fb(env)
            return f"{a}.colour == {b}.colour", lambda env: COLOURS[fa(env)] == COLOURS[fb(env)]
        if choice == 2:
            a, fa = self.card(scope)
            colour = rng.choice(sorted(set(COLOURS)))
            return f"{a}.colour != '{colour}'", lambda env: COLOURS[fa(env)] != colour
        if choice == 3:
            a, fa = self.number(scope, 0)
            ks = rng.sample(sorted(set(NUMBERS)) if a.endswith(".number") else range(10), 2)
            return f"{a} in [{ks[0]}, {ks[1]}]", lambda env: fa(env) in ks
        if choice == 4:
            t, ft = self.test(scope, depth - 1)
            return f"not ({t})", lambda env: not ft(env)
        if choice == 5:
            (a, fa), (b, fb) = self.test(scope, depth - 1), self.test(scope, depth - 1)
            if rng.random() < 0.5:
                return f"({a} and {b})", lambda env: fa(env) and fb(env)
            return f"({a} or {b})", lambda env: fa(env) or fb(env)
        if choice == 6:
            (a, fa), (b, fb) = self.seat(scope, depth - 1), self.seat(scope, depth - 1)
            return f"{a} != {b}", lambda env: fa(env) != fb(env)
        source, fs, kind = self.items(scope, depth - 1)
        var = self.variable()
        body, fb = self.test(dict(scope, **{var: kind}), depth - 1)
        return f"any({body} for {var} in {source})", \
            lambda env: any(fb(dict(env, **{var: x})) for x in fs(env))

    # -- cards, seats and lists
    def card(self, scope: dict[str, str]) -> tuple[str, Eval]:
        name = self.pick(scope, "card")
        if name is not None and self.rng.random() < 0.8:
            return name, lambda env: env[name]
        seat, how = self.seat(scope, 0)
        return f"{seat}.hand[0]", lambda env: HANDS[how(env)][0]

    def seat(self, scope: dict[str, str], depth: int) -> tuple[str, Eval]:
        name = self.pick(scope, "seat")
        if name is not None and self.rng.random() < 0.8:
            return name, lambda env: env[name]
        if depth > 0 and name is not None:
            return f"left({name})", lambda env: (env[name] + 1) % 4
        k = self.rng.randrange(4)
        if "seats" in scope:  # pragma: no cover - seats is never a variable's name here
            raise AssertionError
        return f"seats[{k}]", lambda env: k

    def items(self, scope: dict[str, str], depth: int) -> tuple[str, Eval, str]:
        """A list: its text, its meaning and the kind of its items."""
        rng = self.rng
        choice = rng.randrange(6 if depth > 0 else 4)
        if choice == 0:
            ks = [rng.randrange(10) for _ in range(rng.randrange(4))]
            return f"[{', '.join(map(str, ks))}]", lambda env: ks, "int"
        if choice == 1:
            seat, how = self.seat(scope, depth)
            return f"{seat}.hand", lambda env: HANDS[how(env)], "card"
        if choice == 2:
            return "seats", lambda env: [0, 1, 2, 3], "seat"
        if choice == 3:
            k = rng.randrange(4)
            return f"range(0, {k})", lambda env: list(range(k)), "int"
        if choice == 4:
            seat, how = self.seat(scope, depth - 1)
            return f"team({seat})", lambda env: [s for s in range(4) if TEAMS[s] == TEAMS[how(env)]], "seat"
        source, fs, kind = self.items(scope, depth - 1)
        var = self.variable()
        inner = dict(scope, **{var: kind})
        body, fb = self.number(inner, depth - 1)
        return f"[{body} for {var} in {source}]", lambda env: [fb(dict(env, **{var: x})) for x in fs(env)], "int"


def make_case(seed: int) -> tuple[str, list[Define], dict[str, Any]]:
    rng = random.Random(f"names/{seed}")
    defines: list[Define] = []
    names = rng.sample(DEFINE_NAMES, rng.randrange(4))
    for name in names:  # each define may call the ones before it: no recursion
        params = [(p, rng.choice(["int", "int", "card", "seat"])) for p in rng.sample(NAMES, rng.randrange(3))]
        confusable = [f"{pre}{name}{sep}{p}" for p, _ in params for pre in ("", "_v_") for sep in ("_", "__", "_0")]
        writer = Writer(rng, list(defines), [p for p, _ in params], confusable)
        body, meaning = writer.number(dict(params), 3)
        numbers = [p for p, kind in params if kind == "int"]
        if numbers and rng.random() < 0.6:  # issue 19: f(x) with a loop over f_x that reads x
            p, v = rng.choice(numbers), rng.choice(confusable)
            items, inner = rng.sample(range(10), rng.randrange(1, 4)), rng.random() < 0.5
            source = f"[{v} for {v} in {items}]" if inner else str(items)  # a nested loop of the same name
            body, rest = f"(sum([({p} + {v}) for {v} in {source}]) + {body})", meaning
            meaning = lambda env, p=p, items=items, rest=rest: sum(env[p] + i for i in items) + rest(env)  # noqa: E731
        defines.append(Define(name, params, body, meaning))
    scope = {"card": "card", "led": "card", "seat": "seat", **{n: "int" for n in BOUND_VALUES}}
    writer = Writer(rng, defines)
    text, meaning = writer.number(scope, 4)
    if defines and rng.random() < 0.6:  # calls a define with arguments known only in play
        (call, called), rest = writer.call(scope, 2), meaning
        text, meaning = f"({call} - {text})", lambda env: called(env) - rest(env)
    env = {"card": rng.randrange(6), "led": rng.randrange(6), "seat": rng.randrange(4),
           **{n: rng.randrange(-3, 10) for n in BOUND_VALUES}}
    return text, defines, {"meaning": meaning, "env": env}


BOUND = {"card": CARD, "led": CARD, "seat": SEAT, **{n: VALUE for n in BOUND_VALUES}}


def evaluate(text: str, defines: list[Define], env: dict[str, Any]) -> Any:
    compiled = Compiler(make_globals({d.key: d.text for d in defines})).compile(text, BOUND, locate)
    if not compiled.is_constant:
        assert compiled.fn.__code__.co_filename == "<trickbook>", "not generated"
    full = dict(env, **{"$s": FakeState()})
    before = dict(full)
    value = compiled(full)
    assert full == before, "the evaluation left a name changed"
    return value


def judged(text: str, defines: list[Define], env: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """The expression judged for every card (compile(per="card")): its value for each, and the cards kept."""
    compiled = Compiler(make_globals({d.key: d.text for d in defines})).compile(text, BOUND, locate, per="card")
    full = dict(env, **{"$s": FakeState(), "$batch": object()})
    values = []
    for c in range(len(DECK)):
        full["card"] = c
        values.append(compiled.run(full))
    full["$batch"] = object()
    kept = compiled.select(full, list(range(len(DECK))))
    full["$batch"] = object()
    assert compiled.exists(full, list(range(len(DECK)))) == bool(kept)
    return values, kept


CASES = 600


@pytest.mark.parametrize("chunk", range(6))
def test_generated_code_and_the_meaning_agree_whatever_the_names(chunk):
    for seed in range(chunk * CASES // 6, (chunk + 1) * CASES // 6):
        text, defines, case = make_case(seed)
        expected = case["meaning"](case["env"])
        where = f"seed {seed}: {text!r} with {[(d.key, d.text) for d in defines]}"
        assert evaluate(text, defines, case["env"]) == expected, where
        meaning, env = case["meaning"], case["env"]
        values = [meaning(dict(env, card=c)) for c in range(len(DECK))]
        kept = [c for c in range(len(DECK)) if values[c]]
        assert judged(text, defines, env) == (values, kept), where


def test_the_cases_use_every_kind_of_look_alike_name():
    texts = []
    for seed in range(CASES):
        text, defines, _ = make_case(seed)
        texts.append(text + " " + " ".join(d.key + " " + d.text for d in defines))
    words = set(re.findall(r"[A-Za-z_]\w*", " ".join(texts)))
    assert set(NAMES) <= words and set(DEFINE_NAMES) <= words
    assert sum(bool(re.search(r"for (\w+) in .*for \1 in", t)) for t in texts) > 10  # nested, one name


# ----------------------------------------------------------------------------- the example of issue 19


def test_a_define_parameter_and_a_comprehension_variable_are_two_locals():
    """``f.x`` and ``f_x`` were both ``_v_f_x``: the sum read the loop's item, 30 for any x."""
    defines = {"f(x)": "sum([x for f_x in [10, 20]])"}
    bound = {"n": VALUE}
    compiler = Compiler(make_globals(defines))
    compiled = compiler.compile("f(n)", bound, locate)
    assert [compiled({"$s": FakeState(), "n": n}) for n in (0, 1, 7)] == [0, 2, 14]
    judged_ = compiler.compile("f(card.number) > 10", {"card": CARD}, locate, per="card")
    env = {"$s": FakeState(), "$batch": object()}
    assert judged_.select(env, list(range(len(DECK)))) == [c for c in range(len(DECK)) if 2 * NUMBERS[c] > 10]


def test_a_loop_variable_hiding_a_bound_name_is_not_worked_out_once_per_loop():
    """In a judged expression, parts that read only the names other than the item are worked out once per loop;
    a comprehension variable of the same name as such a name is not one of them."""
    text = "20 > sum(led.number * 2 + card.number for led in seat.hand)"  # seat north: red 0 and blue 5
    compiled = Compiler(make_globals()).compile(text, {"card": CARD, "led": CARD, "seat": SEAT}, locate, per="card")
    env = {"$s": FakeState(), "$batch": object(), "led": 3, "seat": 0}
    assert compiled.select(env, list(range(len(DECK)))) == [c for c in range(len(DECK)) if 20 > 10 + 2 * NUMBERS[c]]


# ----------------------------------------------------------------------------- the encoding itself


def test_local_names_are_one_to_one_and_never_a_name_the_generated_code_uses_itself():
    rng = random.Random("local names")
    alphabet = "ab_0_v_k"
    names = set(NAMES) | {f"{d}.{p}" for d in DEFINE_NAMES for p in NAMES}
    for _ in range(3000):
        first = rng.choice("ab_") + "".join(rng.choice(alphabet) for _ in range(rng.randrange(6)))
        names.add(first)
        names.add(first + "." + rng.choice("ab_") + "".join(rng.choice(alphabet) for _ in range(rng.randrange(4))))
    encoded = {local_name(n): n for n in names}
    assert len(encoded) == len(names)  # no two names share a local
    for py in encoded:
        assert py.isidentifier() and py.startswith("_v_")
        assert py not in ("e", "_hs", "_items", "_t", "_k") and not re.fullmatch(r"_k\d+", py)
    assert local_name("f.x") != local_name("f_x")
    assert local_name("a_.b") != local_name("a._b") != local_name("a__b")
