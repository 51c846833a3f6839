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
