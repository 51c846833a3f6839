"""The size of interpreter/'s pieces, read from the source with ``ast``: no module over 500 lines, no class over 20
methods, no function over 80 lines (issue 33, item 7).

A piece over its limit is split by what it does. The only pieces allowed past a limit are listed in EXCEPTIONS, each
with the reason in words; the only reason accepted is that the class *is* a keyword table by nature (a Lark
transformer with one method per grammar rule, a visitor with one method per node kind), so that splitting it would
scatter one table over several places. The list only shrinks: an entry no longer over its limit fails the test too,
so that it is taken out.

What is counted: a module's lines (every line of the file); a class's methods (the ``def``s written directly in its
body, properties and static methods included, nested classes' not); a function's lines (from its ``def`` to its
last line, decorators not counted), for every function and method at any depth.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from .conftest import ROOT

MODULE_LINES = 500
CLASS_METHODS = 20
FUNCTION_LINES = 80

# (kind, "path:name") -> why it may be over its limit. Only a keyword table by nature belongs here.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("class", "interpreter/dsl/parser.py:_ToAst"): "a Lark transformer: one method per grammar rule of "
    "grammar.lark (every one of its methods), which Lark calls by the rule's name",
    ("class", "interpreter/dsl/emit.py:_Emitter"): "a visitor of ir.py's parts: one method per part kind (_name to "
    "_memo, 17 of its methods), which source() calls by the part's op; the others are what every visit shares "
    "(the dispatch, a part's kids, a lifted part, a function split off)",
}


@dataclass(frozen=True)
class Over:
    kind: str  # "module", "class", "function"
    name: str  # path for a module, path:Qualified.name for a class or function
    size: int
    limit: int

    def __str__(self) -> str:
        unit = {"module": "lines", "class": "methods", "function": "lines"}[self.kind]
        return f"{self.name}: {self.kind} of {self.size} {unit} (at most {self.limit})"


def sizes(path: str, text: str) -> list[Over]:
    """Every piece of one module over its limit."""
    out = []
    lines = len(text.splitlines())
    if lines > MODULE_LINES:
        out.append(Over("module", path, lines, MODULE_LINES))

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                name = prefix + child.name
                methods = sum(isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)) for c in child.body)
                if methods > CLASS_METHODS:
                    out.append(Over("class", f"{path}:{name}", methods, CLASS_METHODS))
                walk(child, name + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                if length > FUNCTION_LINES:
                    out.append(Over("function", f"{path}:{name}", length, FUNCTION_LINES))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(text, path), "")
    return out


def all_sizes(root: Path) -> list[Over]:
    out = []
    for file in sorted((root / "interpreter").rglob("*.py")):
        out.extend(sizes(str(file.relative_to(root)), file.read_text(encoding="utf-8")))
    return out


def test_no_module_class_or_function_of_the_interpreter_is_over_its_size_but_the_listed_keyword_tables():
    found = all_sizes(ROOT)
    over = [str(o) for o in found if (o.kind, o.name) not in EXCEPTIONS]
    assert not over, "over their size (split them by what they do):\n" + "\n".join(over)
    gone = sorted(set(EXCEPTIONS) - {(o.kind, o.name) for o in found})
    assert not gone, f"listed as over their size but no longer are (take them out of EXCEPTIONS): {gone}"


def test_each_exception_is_a_keyword_table_and_says_so():
    for (kind, name), why in EXCEPTIONS.items():
        assert kind == "class", f"{name}: only a class may be an exception (a keyword table), not a {kind}"
        assert "one method per" in why, f"{name}: the reason must say it is a keyword table (one method per ...)"


# ---------------------------------------------------------------------------------------------- the counter itself


def test_the_counter_finds_a_long_module_a_class_of_many_methods_and_a_long_nested_function():
    body = "\n".join(f"    def m{i}(self):\n        return {i}" for i in range(21))
    long_function = "def outer():\n    def inner():\n" + "        x = 1\n" * 80 + "    return inner\n"
    text = f"class Many:\n{body}\n\nclass Few:\n    def a(self):\n        pass\n\n" + long_function
    text += "\n" * (501 - len(text.splitlines()))
    found = {(o.kind, o.name, o.size) for o in sizes("m.py", text)}
    assert found == {("module", "m.py", 501), ("class", "m.py:Many", 21), ("function", "m.py:outer", 83),
                     ("function", "m.py:outer.inner", 81)}


def test_the_counter_counts_a_class_s_own_methods_only_and_nothing_at_the_limits():
    inner = "\n".join(f"        def n{i}(self):\n            pass" for i in range(15))
    own = "\n".join(f"    @property\n    def m{i}(self):\n        pass" for i in range(20))
    text = f"class Outer:\n    class Inner:\n{inner}\n{own}\n"
    text += "def f():\n" + "    x = 1\n" * 79
    assert sizes("m.py", text) == []
