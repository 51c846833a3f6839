"""Promises about the project itself: clean code, CI runs what the README says, docs exist."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or str(ROOT / ".venv" / "bin" / "ruff")
    if not shutil.which("ruff"):
        try:
            import ruff  # noqa: F401
        except ImportError:
            pytest.skip("ruff is not installed (pip install -e '.[test]')")
        ruff = None
    cmd = [ruff, "check", "."] if ruff else [sys.executable, "-m", "ruff", "check", "."]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_readme_quick_start_has_exactly_two_commands_and_ci_runs_its_test_command():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", quick, re.S)
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    play, test = commands
    assert "trickbook play" in play or "trickbook simulate" in play
    test_command = test.split("pip install -e '.[test]' &&", 1)[1].strip()  # what runs once installed
    assert test_command == "mypy interpreter && pytest"
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1].strip() == test_command
    assert "python3 -m venv" in (ROOT / ".ci" / "run").read_text()


def test_every_doc_the_readme_links_exists():
    readme = (ROOT / "README.md").read_text()
    for link in re.findall(r"\]\((docs/[^)]+)\)", readme):
        assert (ROOT / link).is_file(), link


def test_the_readme_variant_example_validates_plays_and_its_quoted_error_is_real(tmp_path, monkeypatch, capsys):
    from interpreter.cli import main

    readme = (ROOT / "README.md").read_text()
    variant = re.search(r"```yaml\n(# nine-njet.yaml\n.*?)```", readme, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "nine-njet.yaml").write_text(variant)
    assert main(["validate", "nine-njet.yaml"]) == 0
    assert main(["simulate", "nine-njet.yaml", "-p", "4", "-n", "2"]) == 0
    capsys.readouterr()
    (tmp_path / "nine-njet.yaml").write_text(variant.replace("c.number == 9", "c.numbr == 9"))
    assert main(["validate", "nine-njet.yaml"]) == 1
    err = capsys.readouterr().err
    quoted = re.search(r"```\n(nine-njet.yaml:.*?)\n```", readme, re.S).group(1)
    assert err.rstrip("\n") == quoted


def _imports_between_packages() -> dict[str, set[str]]:
    """Package (interpreter.X) -> the packages its modules import at run time (imports only for type checking
    left out)."""
    import ast

    out: dict[str, set[str]] = {}
    for f in (ROOT / "interpreter").rglob("*.py"):
        parts = f.relative_to(ROOT).with_suffix("").parts
        here = ".".join(parts[:2])
        tree = ast.parse(f.read_text(encoding="utf-8"))
        checking = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                    and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in checking:
                continue
            names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module else
                     [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                if name.startswith("interpreter."):
                    there = ".".join(name.split(".")[:2])
                    if there != here:
                        out.setdefault(here, set()).add(there)
    return out


def test_no_package_of_the_interpreter_imports_one_that_imports_it_back():
    graph = _imports_between_packages()
    assert graph["interpreter.engine"] >= {"interpreter.dsl", "interpreter.rules"}  # the test sees imports

    def reaches(a: str, b: str, seen: set[str]) -> bool:
        return any(n == b or (n not in seen and reaches(n, b, seen | {n})) for n in graph.get(a, ()))

    circles = sorted(f"{a} <-> {b}" for a in graph for b in graph[a] if a < b and reaches(b, a, {b}))
    assert circles == []
