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


def test_the_trick_part_example_s_rule_writes_the_code_shown_and_routes_the_cards(tmp_path):
    """The rule of the example, in a game: the lines written into ``play`` are those shown (the generated names
    of helpers aside), and a rank-1 card another seat played goes to ``out``."""
    from .test_steps import DEAL_3, TRICKS, make

    section = _section("Adding a trick part")
    rule = re.search(r"With `(route: .*?)` in a trick", section).group(1)
    shown = re.search(r"read as follows.*?```\n(.*?)```", section, flags=re.S).group(1)
    game = make(tmp_path, DEAL_3, TRICKS + f"  {rule}\n", zones="out: {visible: all}")
    step = game.steps[1]
    play = game.module().source_of(step).split("def actions")[0]

    def generic(text: str) -> list[str]:
        return [re.sub(r"_k\d+", "_k", line.strip()) for line in text.strip().splitlines()]

    lines, want = generic(play), generic(shown)
    assert any(lines[i:i + len(want)] == want for i in range(len(lines))), "\n".join(lines)

    import random

    from interpreter.engine.state import CHANCE

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
