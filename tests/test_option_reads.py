"""Every option a step kind reads comes through its declaration: the step modules (interpreter/engine/steps/) read
no key of a step's mapping themselves, read from the source (as tests/test_layers.py reads the imports).

The one reader is engine/steps/options.py's ``Options`` (``opts.get``, ``opts.given``, ``opts.plain``,
``opts.within``, ``opts.entry``), which goes by the declared ``Opt``: its kind (plan/opt_kinds.py's ``reads``), its
default, its choices. A step module that handles a step's mapping (a name ``spec``), reads the rule file by path
(``ctx.source.get``), reads the reader's mapping (``._mapping``) or calls the context's reading primitives
(``ctx.option``, ``ctx.expr``, ``ctx.zone``, ``ctx.zones``, ``ctx.constant``) reads around the declaration, and
fails the test."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import ROOT

STEPS = ROOT / "interpreter" / "engine" / "steps"
READER = "options.py"

# modules that may read by path, each with the reason; the list only shrinks (an entry without such a read fails)
EXCEPTIONS: dict[str, str] = {
    "context.py": "the context's primitives (expr, option, zone, zones, constant) read the value at the path the "
                  "reader gives them",
}

PRIMITIVES = {"option", "expr", "zone", "zones", "zone_named", "constant"}


def direct_reads(tree: ast.AST) -> list[str]:
    """``line: what`` for each read of a step's keys that goes around the reader."""
    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Name) and node.id in ("spec", "sspec"):
            what = f"the step's mapping handled as {node.id}"
        elif isinstance(node, ast.arg) and node.arg in ("spec", "sspec"):
            what = f"the step's mapping taken as {node.arg}"
        elif isinstance(node, ast.Attribute) and node.attr == "_mapping":
            what = "the reader's mapping read as it is"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if node.func.attr == "get" and isinstance(owner, ast.Attribute) and owner.attr == "source":
                what = "source.get"
            elif node.func.attr in PRIMITIVES and isinstance(owner, ast.Name) and owner.id == "ctx":
                what = f"ctx.{node.func.attr}"
        if what is not None:
            found.append(f"{getattr(node, 'lineno', 0)}: {what}")
    return found


def _modules() -> list[Path]:
    return sorted(p for p in STEPS.glob("*.py") if p.name != READER)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_a_step_module_reads_options_only_through_the_reader(path):
    reads = direct_reads(ast.parse(path.read_text(encoding="utf-8")))
    if path.name in EXCEPTIONS:
        assert reads, f"{path.name} no longer reads by path: take it out of EXCEPTIONS"
    else:
        assert reads == [], f"{path.name} reads around its declarations (use the step's reader, options.py)"


def test_the_exceptions_are_step_modules():
    assert set(EXCEPTIONS) <= {p.name for p in _modules()}


@pytest.mark.parametrize("code", [
    'def build(self, ctx, spec):\n    return spec.get("to")',
    'def build(self, ctx, opts):\n    return "to" in opts._mapping',
    'def build(self, ctx, opts):\n    return ctx.source.get(self.path + ("to",))',
    'def build(self, ctx, opts):\n    return ctx.zone(self.path + ("to",))',
    'def build(self, ctx, opts):\n    return ctx.option(OPT, self.path + ("when",), {})',
])
def test_each_way_around_the_reader_is_found(code):
    assert direct_reads(ast.parse(code))


def test_reading_through_the_reader_is_not_a_direct_read():
    code = 'def build(self, ctx, opts):\n    self.to = opts.get("to", per_seat=True) if opts.given("to") else None'
    assert direct_reads(ast.parse(code)) == []
