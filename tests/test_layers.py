"""The layers of interpreter/ and no import circle among its modules, read from the source.

Every import counts, wherever it is written: at the top of a module, under ``if TYPE_CHECKING:``, inside a
function. A circle is a circle whether Python meets it at run time or only mypy does: either way the two modules
cannot be understood, tested or replaced one without the other. ``from package import name`` counts as an import of
the module ``package.name`` when there is one, else of ``package``; ``import a.b.c`` as one of ``a.b.c``. An import
of a package's module from outside the package is one of the package too: Python runs its ``__init__.py`` first
(engine/steps/__init__.py imports every step kind).

The layers (docs/architecture.md, "The import layers, and the test that keeps them"): each package of interpreter/
imports only packages of the layers below its own; the packages of one layer import none of each other. The target
order is rules -> dsl -> plan -> runtime -> match -> api -> harness, toolkits, web, cli; today ``engine`` holds plan
and the rest of the runtime. The imports that break that order today are listed in BREAKS, each with the reason it
is there: the list only shrinks (an entry whose import is gone fails the test too, so that it is taken out).
"""

from __future__ import annotations

import ast
import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import ROOT

# the layers, lowest first (a package is interpreter/NAME/ or interpreter/NAME.py; "__init__" is the package's
# root, interpreter/__init__.py)
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "limits", "cache", "interrupts"),  # the project's error hierarchy, limits, cache folder, signals
    ("rules",),  # the rule file: YAML with positions, extends, the schema, options
    ("dsl",),  # the expression language
    ("plan",),  # the keyword table of the rule file's sections: each section read and checked into plain data
    ("engine",),  # plan and runtime, in time: the compiled game, its state, its steps and their written code
    ("runtime",),  # the compact layout, packed from the engine's state, and the game played on it (search's)
    ("compiled",),  # the compiled backend: the compact layout in arrays, the expressions written for it
    # explain and schema_gen read the step kinds' declarations (engine/steps) and nothing above them
    ("match", "explain", "schema_gen"),
    ("api",),
    ("__init__",),  # the package's root: the API's names, imported when first used
    ("harness",),
    ("toolkits", "web", "conformance"),  # conformance: the battery of checks every game passes, on the API and harness
    ("commands",),  # the command line's commands, one module a group of them
    ("cli",),
    ("__main__",),  # python -m interpreter: the command line
)

# packages that sit on some of the packages below them only, skipping the others (besides the bottom layer, which
# every package may use): the web serves tables through the public API (docs/architecture.md, "WEB ... on the
# API only")
ONLY: dict[str, frozenset[str]] = {
    "web": frozenset({"api", "__init__"}),
}

# the imports that break the layers today: (importing module, imported module) -> why it is there. The lead
# developer shrinks this list; an entry whose import no longer exists fails the test, so it is taken out.
BREAKS: dict[tuple[str, str], str] = {
    # the API plays games with the harness's agents (the match driver plays and records them)
    ("interpreter.api.game", "interpreter.harness.runner"): "api.play() drives its match with agents (runner.drive)",
    ("interpreter.api.game", "interpreter.harness.players"): "api.play() makes its agents by name",
    ("interpreter.api.actions", "interpreter.harness.agents"): "GameState.turn() gives an agent's Turn",
    ("interpreter.api.game", "interpreter.harness.deal_files"): "a game's start from a deal file (PBN)",
    ("interpreter.api.builtin_agents", "interpreter.harness.players"): "the built-in agents by name, for drivers "
                                                                       "above the API (the web's bots)",
}


# ---------------------------------------------------------------------------------------------- the import reader


@dataclass(frozen=True)
class Import:
    """``source`` imports ``target`` (both module names), written at ``where`` (FILE:LINE); ``by``: the module the
    import names, when ``target`` is a package Python runs first for it (its ``__init__.py``)."""

    source: str
    target: str
    where: str
    by: str | None = None

    def __str__(self) -> str:
        how = f" (its __init__.py, run first for {self.by})" if self.by else ""
        return f"{self.where}: {self.source} imports {self.target}{how}"


@dataclass(frozen=True)
class Module:
    name: str  # dotted: interpreter.engine.game; a package by its own name (interpreter.engine)
    text: str
    is_package: bool
    path: str  # as shown in messages


def modules_under(root: Path, package: str = "interpreter") -> dict[str, Module]:
    """Every module of ``package`` (a folder of ``root``), by its dotted name."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        out[name] = Module(name, path.read_text(encoding="utf-8"), is_package, str(path.relative_to(root)))
    return out


def read_imports(modules: dict[str, Module], prefix: str = "interpreter") -> tuple[list[Import], list[str]]:
    """Every import of one of ``modules`` by another, and the imports of ``prefix``'s modules that name none.

    An import of ``a.b.c`` from outside the package ``a.b`` is an import of ``a.b`` too: Python runs the package's
    ``__init__.py`` first, and what that imports (a registry of the package's modules) is imported with it."""
    found: list[Import] = []
    unknown: list[str] = []
    for module in modules.values():
        package = module.name if module.is_package else module.name.rpartition(".")[0]
        for node in ast.walk(ast.parse(module.text, module.path)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, one level up for each dot past the first
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            else:
                continue
            where = f"{module.path}:{node.lineno}"
            for target in dict.fromkeys(targets):
                if target in modules:
                    if target != module.name:
                        found.append(Import(module.name, target, where))
                    parent = target.rpartition(".")[0]
                    while parent in modules and not (module.name + ".").startswith(parent + "."):
                        found.append(Import(module.name, parent, where, by=target))
                        parent = parent.rpartition(".")[0]
                elif target == prefix or target.startswith(prefix + "."):
                    unknown.append(f"{where}: {target}")
    return found, unknown


# ---------------------------------------------------------------------------------------------- the checks


def circles(imports: list[Import]) -> list[tuple[list[Import], set[str]]]:
    """For each set of modules that all reach each other by imports (a strongly connected set): one shortest
    circle through it, as the imports that make it (a -> b, b -> c, c -> a), and the whole set."""
    edges: dict[str, dict[str, Import]] = {}
    for i in imports:
        edges.setdefault(i.source, {}).setdefault(i.target, i)
    out = []
    for group in _strongly_connected(edges):
        best: list[Import] | None = None
        for start in sorted(group):
            path = _shortest_back(edges, start, group)
            if path is not None and (best is None or len(path) < len(best)):
                best = path
        assert best is not None
        out.append((best, group))
    return out


def _strongly_connected(edges: dict[str, dict[str, Import]]) -> list[set[str]]:
    """The sets of more than one module that all reach each other (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []
    nodes = sorted(set(edges) | {t for targets in edges.values() for t in targets})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return groups


def _shortest_back(edges: dict[str, dict[str, Import]], start: str, group: set[str]) -> list[Import] | None:
    """The shortest way from ``start`` back to itself within ``group`` (breadth first), as imports."""
    came: dict[str, Import] = {}
    todo = deque([start])
    while todo:
        node = todo.popleft()
        for target, imp in sorted(edges.get(node, {}).items()):
            if target not in group or target in came:
                continue
            came[target] = imp
            if target == start:
                path = [imp]
                while path[0].source != start:
                    path.insert(0, came[path[0].source])
                return path
            todo.append(target)
    return None


def said(circle: list[Import], group: set[str]) -> str:
    """a -> b -> c -> a, then each import with its place, then the other modules of the set, if any."""
    chain = " -> ".join([i.source for i in circle] + [circle[0].source])
    others = sorted(group - {i.source for i in circle})
    also = f"\n    (and {len(others)} more reach each other with these: {', '.join(others)})" if others else ""
    return chain + "".join(f"\n    {i}" for i in circle) + also


def package_of(module: str, prefix: str = "interpreter") -> str:
    """The package of interpreter/ a module belongs to: interpreter.engine.steps.base -> engine; the root
    interpreter/__init__.py -> __init__."""
    rest = module.removeprefix(prefix).lstrip(".")
    return rest.split(".")[0] if rest else "__init__"


def layer_breaks(imports: list[Import], layers: tuple[tuple[str, ...], ...], only: dict[str, frozenset[str]],
                 prefix: str = "interpreter") -> tuple[list[str], list[Import]]:
    """The packages no layer names, and the imports that go up, sideways or past what a package sits on."""
    level = {package: n for n, layer in enumerate(layers) for package in layer}
    unplaced = sorted({package_of(m, prefix) for i in imports for m in (i.source, i.target)} - set(level))
    bad = []
    for i in imports:
        a, b = package_of(i.source, prefix), package_of(i.target, prefix)
        if i.by is not None or a == b or a not in level or b not in level:  # a package run first: as its module
            continue
        if level[b] >= level[a] or (a in only and b not in only[a] and level[b] > 0):
            bad.append(i)
    return unplaced, bad


# ---------------------------------------------------------------------------------------------- interpreter/


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    found, unknown = read_imports(modules_under(ROOT))
    assert not unknown, "imports of modules that do not exist:\n" + "\n".join(unknown)
    assert len(found) > 300  # the reader reads (about 600 today)
    return found


def test_no_module_of_the_interpreter_imports_one_that_imports_it_back(imports):
    found = circles(imports)
    assert not found, f"{len(found)} import circle(s):\n" + "\n".join(said(*c) for c in found)


def test_each_package_imports_only_the_layers_below_it_but_for_the_listed_breaks(imports):
    unplaced, bad = layer_breaks(imports, LAYERS, ONLY)
    assert not unplaced, f"packages of interpreter/ in no layer (add them to LAYERS): {unplaced}"
    new = sorted({str(i) for i in bad if (i.source, i.target) not in BREAKS})
    assert not new, "imports against the layers (" + " < ".join("/".join(layer) for layer in LAYERS) + "):\n" + \
        "\n".join(new)
    gone = sorted(set(BREAKS) - {(i.source, i.target) for i in bad})
    assert not gone, f"listed as breaking the layers but no longer written (take them out of BREAKS): {gone}"


def test_the_layers_are_those_docs_architecture_md_draws():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("### The import layers"):]
    block = re.search(r"```\n(.*?)```", section, flags=re.S).group(1)
    drawn = tuple(tuple(p.strip().removeprefix("interpreter/").removesuffix(".py") for p in layer.split(","))
                  for layer in " ".join(block.split()).split("<"))
    assert drawn == LAYERS


def test_the_reader_sees_imports_under_type_checking_and_inside_functions_and_of_a_package_s_module(imports):
    seen = {(i.source, i.target) for i in imports}
    assert ("interpreter.commands.rule_files", "interpreter.explain") in seen  # inside a function: from interpreter
    # import explain
    assert ("interpreter.rules.schema", "interpreter.rules.options") in seen  # from interpreter.rules import options
    assert ("interpreter.harness.players", "interpreter.harness.agents") in seen  # under TYPE_CHECKING


# ---------------------------------------------------------------------------------------------- the checker itself


def _made_up(**texts: str) -> list[Import]:
    """The imports of made-up modules: name -> source (a name ending in .__init__ is a package)."""
    modules = {}
    for name, text in texts.items():
        is_package = name.endswith(".__init__")
        dotted = name.removesuffix(".__init__")
        modules[dotted] = Module(dotted, text, is_package, name.replace(".", "/") + ".py")
    found, unknown = read_imports(modules, prefix="p")
    assert not unknown, unknown
    return found


def test_the_checker_names_a_made_up_circle_with_each_import_s_place():
    found = circles(_made_up(**{
        "p.__init__": "",
        "p.a": "from p import b\n",
        "p.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.c import C\n",
        "p.c": "def f():\n    import p.a\n",
        "p.d": "from p.a import x\n",  # reaches the circle, is not in it
    }))
    assert len(found) == 1
    assert said(*found[0]) == ("p.a -> p.b -> p.c -> p.a"
                              "\n    p/a.py:1: p.a imports p.b"
                              "\n    p/b.py:3: p.b imports p.c"
                              "\n    p/c.py:2: p.c imports p.a")


def test_the_checker_finds_the_shortest_circle_of_a_tangle_and_one_per_tangle():
    found = circles(_made_up(**{
        "p.a": "import p.b\nimport p.c\n", "p.b": "import p.c\n", "p.c": "import p.a\n",  # a-c-a is shortest
        "p.x": "from . import y\n", "p.y": "from .x import f\n",  # relative imports
    }))
    assert sorted(" -> ".join(i.source for i in c) for c, _ in found) == ["p.a -> p.c", "p.x -> p.y"]
    assert said(*min(found, key=lambda f: f[0][0].source)).endswith("(and 1 more reach each other with these: p.b)")


def test_an_import_of_a_package_s_module_from_outside_runs_the_package_first_and_what_it_imports():
    found = circles(_made_up(**{
        "p.steps.__init__": "from p.steps import kind\n",  # a registry: every kind imported with the package
        "p.steps.base": "", "p.steps.kind": "from p.steps.base import x\nfrom p import cards\n",
        "p.cards": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.steps.base import Step\n",
    }))
    assert [said(*c) for c in found] == [
        "p.cards -> p.steps -> p.steps.kind -> p.cards"
        "\n    p/cards.py:3: p.cards imports p.steps (its __init__.py, run first for p.steps.base)"
        "\n    p/steps/__init__.py:1: p.steps imports p.steps.kind"
        "\n    p/steps/kind.py:2: p.steps.kind imports p.cards"]


def test_the_checker_finds_a_made_up_import_of_a_higher_layer_and_one_past_what_a_package_sits_on():
    found = _made_up(**{
        "p.low.__init__": "", "p.low.one": "from p.high import two\n",  # up: low imports high
        "p.mid.__init__": "", "p.mid.m": "import p.low.one\n",  # down: fine
        "p.high.__init__": "", "p.high.two": "from p.mid import m\n",  # down past mid: fine by the order
        "p.top.__init__": "", "p.top.t": "import p.mid.m\nimport p.high.two\nimport p.base\n",
        "p.base": "", "p.side": "import p.top.t\n",
    })
    layers = (("base",), ("low",), ("mid",), ("high",), ("top", "side"))
    unplaced, bad = layer_breaks(found, layers, {"top": frozenset({"high"})}, prefix="p")
    assert unplaced == []
    assert sorted(f"{i.source} -> {i.target}" for i in bad) == [
        "p.low.one -> p.high.two",  # up
        "p.side -> p.top.t",  # sideways, within a layer
        "p.top.t -> p.mid.m",  # top sits on high only (and the bottom layer)
    ]
    unplaced, _ = layer_breaks(found, layers[:-1], {}, prefix="p")
    assert unplaced == ["side", "top"]
