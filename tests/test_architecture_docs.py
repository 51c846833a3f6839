"""The worked examples of docs/architecture.md do what the page says."""

from __future__ import annotations

import re

import pytest

from interpreter.dsl import builtins
from interpreter.dsl.types import NUMBER
from interpreter.errors import ExpressionError

from .conftest import ROOT
from .test_dsl import RULE_NAMES, _env, _rule_locate, njet  # noqa: F401  (njet: a fixture)


def _python_blocks() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.fixture
def with_the_example_builtin(monkeypatch):
    """The registry with the page's worked example added (the module's namespace, as if written there)."""
    monkeypatch.setitem(builtins.REGISTRY, "halve", None)  # taken out again after the test
    (block,) = [b for b in _python_blocks() if "_register(Builtin(" in b]
    namespace = dict(vars(builtins))
    exec(block, namespace)  # the page's own code, run in the registry module's names (a test: trusted text)
    assert builtins.REGISTRY["halve"].example == "halve(seat.tricks)"


def test_the_worked_builtin_compiles_types_runs_and_checks_its_argument(with_the_example_builtin, njet):  # noqa: F811
    compiler, state = njet
    compiled = compiler.compile("halve(seat.tricks)", RULE_NAMES, _rule_locate)
    assert compiled.type == NUMBER
    env = _env(state)
    assert compiled(env) == state.counters["tricks"][env["seat"]] // 2
    with pytest.raises(ExpressionError, match=r"halve\(\) needs a number, found a seat"):
        compiler.compile("halve(seat)", RULE_NAMES, _rule_locate)


def _section(title: str) -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    return text[start:text.index("\n## ", start + 1)]


def test_the_trick_part_example_s_code_is_the_engine_s_own():
    """Each Python block of "Adding a trick part" is a piece of the engine's source, line for line: the page
    cannot tell of code that is no longer there."""
    sources = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "interpreter").rglob("*.py"))]
    blocks = re.findall(r"```python\n(.*?)```", _section("Adding a trick part"), flags=re.S)
    assert len(blocks) == 7
    for block in blocks:
        assert any(block in source for source in sources), block


def test_the_trick_part_example_s_rule_routes_the_cards(tmp_path):
    """The rule of the example, in a game: rank-1 cards go to ``out`` (and no other card), every other card to the
    winner's pile."""
    import random

    from interpreter.engine.state import CHANCE

    from .test_steps import DEAL_3, TRICKS, make

    section = _section("Adding a trick part")
    rule = re.search(r"With `(route: .*?)` in a trick", section).group(1)
    game = make(tmp_path, DEAL_3, TRICKS + f"  {rule}\n", zones="out: {visible: all}")
    rng = random.Random(4)
    routed = 0
    for _ in range(20):
        state = game.new_state()
        while state.round_number == 1 and not state.finished:
            if state.pending.actor == CHANCE:
                game.apply_chance(state, game.sample_chance(state, rng))
            else:
                game.apply(state, rng.choice(game.legal_actions(state)))
        labels = game.cards.labels
        out = [labels[c] for c in state.shared["out"]]
        won = [labels[c] for hands in state.per_seat["won"] for c in hands]
        assert all(label.endswith("1") for label in out)
        assert len(out) + len(won) == 12 and len(set(out + won)) == 12
        routed += len(out)
    assert routed > 0


@pytest.fixture
def with_the_example_step_kind(monkeypatch):
    """The registry with the page's worked step kind added (in the steps' own names), and the schema made from the
    declarations with it, as ``python -m interpreter.schema_gen`` would write it."""
    import json

    from interpreter import schema_gen
    from interpreter.engine.steps import base
    from interpreter.rules import schema

    monkeypatch.setitem(base.REGISTRY, "tell", None)  # taken out again after the test
    (block,) = [b for b in _python_blocks() if "class Tell(Step):" in b]
    namespace = {**vars(base), "Any": object}
    exec(block, namespace)  # the page's own code, run in the step module's names (a test: trusted text)
    text = json.dumps(schema_gen.generate())
    for cached in (schema.load_schema, schema._schema_text, schema._validator, schema._part_validator):
        cached.cache_clear()
    monkeypatch.setattr(schema, "_schema_text", lambda: text)
    yield base.REGISTRY["tell"]
    for cached in (schema.load_schema, schema._validator, schema._part_validator):
        cached.cache_clear()


def test_the_worked_step_kind_validates_tells_the_narration_and_is_written_into_the_round(
        with_the_example_step_kind, tmp_path):
    import random

    from interpreter.engine.state import CHANCE
    from interpreter.rules.loader import load_rules

    from .step_calls import called, step_calls
    from .test_steps import DEAL_3, TRICKS, line_of, make, refusal, rules

    step = 'hello: {do: tell, text: "\'the dealer is \' + round.dealer.name"}'
    game = make(tmp_path, DEAL_3, step, TRICKS, game="rounds: 2")
    rng, state = random.Random(1), game.new_state()
    state.notes = []
    with step_calls(game) as calls:  # written into the round's code: the engine never calls the step
        while not state.finished:
            if state.pending.actor == CHANCE:
                game.apply_chance(state, game.sample_chance(state, rng))
            else:
                game.apply(state, rng.choice(game.legal_actions(state)))
        assert [n for n in state.notes if n.startswith("the dealer is")] == ["the dealer is N", "the dealer is E"]
        quiet = game.new_state()  # nobody listens: nothing is worked out
        game.playout(quiet, rng)
        assert quiet.notes is None and quiet.finished
    assert not called(calls, ["hello"]) and called(calls, ["tricks"])
    bad = rules(DEAL_3, step.replace("round.dealer", "round.dealr"), TRICKS)
    line, message = refusal(tmp_path, bad)
    assert line == line_of(bad, "hello:") and "unknown round value 'dealr'" in message, (line, message)
    assert load_rules(tmp_path / "tiny.yaml").data["round"]["hello"]["do"] == "tell"
