"""Each step kind's option declarations (``Opt``) drive how its expressions are compiled.

The names an expression of an option may use are the ones its declaration binds (plus, inside a trick, the
names the trick binds for the steps it runs), nothing more and nothing less: the docs tables and the schema
are made from the same declarations, so what they say is what a rule file gets. Two drifts this replaced:
``choose.until`` accepted ``picked``, which it did not declare; ``move.cards`` declared ``seat``, which is
bound only with ``each``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import schema_gen
from interpreter.engine.compile import compile_game, supported_players
from interpreter.engine.steps.context import StepContext
from interpreter.errors import RuleError, RuleErrors
from interpreter.plan.declaration import Opt, declared_in
from interpreter.rules.loader import load_rules

from .conftest import GAMES, ROOT

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yaml"))


def _option(step, rest: tuple, spec: dict, seat_game_values: set[str]) -> tuple[Opt, bool]:
    """The declaration of the option at ``rest`` (the path below the step, whose keys are ``spec``), and whether
    its declared names are bound there (``binds_with`` given, and a game value of each seat)."""
    opt = type(step).declared(rest[0])
    keys = [k for k in rest[1:] if isinstance(k, str)]
    if opt.kind == "values":  # name -> expression: the group's declaration
        if rest[0] == "game" and keys and keys[0] in seat_game_values:
            return type(step).declared("seats"), True
        return opt, True
    while opt.fields and keys:
        key = keys.pop(0)
        if opt.kind == "object":  # a mapping of names (board rows): the next key is the field
            if not keys:
                break
            key = keys.pop(0)
        opt = declared_in(opt.fields, key)
    if opt.kind == "rules" and opt.fields:  # a condition alone is the rule's must
        opt = declared_in(opt.fields, "must")
    return opt, opt.binds_with is None or opt.binds_with in spec


@pytest.fixture
def compiled_expressions(monkeypatch):
    """Every (path, names bound) a game's steps compile, recorded while it is compiled."""
    seen: list[tuple[tuple, frozenset[str]]] = []
    real = StepContext.expr

    def expr(self, path, bound=None, expect=None, per=None):
        seen.append((tuple(path), frozenset(bound or {})))
        return real(self, path, bound, expect, per)

    monkeypatch.setattr(StepContext, "expr", expr)
    return seen


@pytest.mark.parametrize("path", GAMES + EXAMPLES, ids=[p.stem for p in GAMES + EXAMPLES])
def test_every_expression_of_a_step_binds_exactly_what_its_option_declares(path: Path, compiled_expressions):
    source = load_rules(str(path))
    players = supported_players(source)[0]
    compiled_expressions.clear()
    game = compile_game(source, players, generate=False)
    steps = sorted(game.every_step(), key=lambda s: len(s.path), reverse=True)
    checked = 0
    for where, bound in compiled_expressions:
        step = next((s for s in steps if where[:len(s.path)] == s.path and len(where) > len(s.path)), None)
        if step is None:  # not a step's option (game values, deck, seats' policies)
            continue
        opt, binds = _option(step, where[len(step.path):], source.get(step.path), set(game.flow.game_seat_values))
        expected = set(step.bound) | (set(opt.binds) if binds else set())
        assert bound == expected, (f"{path.name}: {'.'.join(map(str, where))} is compiled with "
                                   f"{sorted(bound)}, but its declaration ({opt.key}) binds {sorted(expected)}")
        checked += 1
    assert checked >= len([s for s in steps if s.kind in ("tricks", "choose", "score")])


def _validate(tmp_path: Path, steps: str) -> str:
    """Whist with ``steps`` added to its round (validated only)."""
    f = tmp_path / "g.yaml"
    f.write_text(f"trickbook: 1\nextends: whist\nname: g\nround:\n{steps}\n")
    try:
        compile_game(load_rules(str(f)), 4, generate=False)
    except (RuleError, RuleErrors) as exc:
        return str(exc)
    return "ok"


def _docs_row(kind: str, key: str) -> str:
    table = schema_gen.docs().split(f"### `{kind}`")[1].split("### ")[0]
    return next(line for line in table.splitlines() if line.startswith(f"| `{key}`"))


def test_choose_until_may_read_what_the_seat_just_picked(tmp_path):
    ask = '  ask: {do: choose, options: "[1, 2]", pass: pass, repeat: true, until: "picked != [] or passes == 4"}'
    assert _validate(tmp_path, ask) == "ok"
    assert "`picked`" in _docs_row("choose", "until")


def test_move_binds_seat_only_with_each_and_says_so(tmp_path):
    assert "unknown name 'seat'" in _validate(tmp_path, '  give: {do: move, cards: "first(seat.hand)", to: trick}')
    assert _validate(tmp_path, '  give: {do: move, each: seats, cards: "first(seat.hand)", to: trick}') == "ok"
    assert "Names bound here (with each): `seat`" in _docs_row("move", "cards")


def test_a_plain_option_reads_its_declared_default():
    from interpreter.engine.steps.choose import Choose

    assert Choose.declared("verb").default == "choose"
    schema = schema_gen.generate()
    assert schema["definitions"]["choose_step"]["properties"]["verb"]["default"] == "choose"
