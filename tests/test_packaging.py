"""The package as a user gets it: the wheel built from this checkout, installed into a new virtualenv, used
from a folder that is not the checkout (so nothing can come from the source tree by accident)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(args: list[str], cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300, **kw)  # type: ignore[call-overload, no-any-return]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built offline from a copy of the checkout (no build isolation: the test extra installs the
    setuptools it needs), with every warning the build gives."""
    out = tmp_path_factory.mktemp("wheel")
    src = out / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv*", "*.egg-info", "__pycache__", "build"))
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                 "-w", str(out), str(src)], cwd=out)
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = out.glob("trickbook-*.whl")
    built.with_suffix(".log").write_text(done.stdout + done.stderr)
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtualenv with the wheel installed by pip; its dependencies (PyYAML, jsonschema, Lark) are taken
    from this environment's site-packages by a path file, so the test needs no network."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    done = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=env_dir)
    purelib = Path(done.stdout.strip())
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (purelib / "dependencies-from-the-test-environment.pth").write_text("\n".join(sorted(here)) + "\n")
    done = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                 str(wheel)], cwd=env_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    return env_dir


def _bin(env_dir: Path, name: str) -> str:
    return str(env_dir / ("Scripts" if os.name == "nt" else "bin") / name)


def test_the_wheel_builds_without_warnings(wheel: Path) -> None:
    log = wheel.with_suffix(".log").read_text().lower()
    assert "warning" not in log and "deprecat" not in log, log


def test_the_wheel_carries_the_license_the_games_and_the_schema(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    bundled = {Path(n).name for n in names if n.startswith("interpreter/bundled/games/")}
    assert bundled == {p.name for p in (ROOT / "games").glob("*.yaml")}
    assert "interpreter/bundled/schema/game.schema.json" in names
    assert "interpreter/dsl/grammar.lark" in names and "interpreter/__main__.py" in names
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in meta
    assert "Classifier: Topic :: Games/Entertainment" in meta and "Keywords:" in meta


def test_the_wheel_carries_every_module_of_the_source(wheel: Path) -> None:
    """A package is in the wheel only when pyproject.toml lists it: a new one left out would be missed by the
    commands that do not import it."""
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(p.relative_to(ROOT).as_posix()) for p in (ROOT / "interpreter").rglob("*.py")}
    assert modules - names == set()


def test_the_project_declares_an_spdx_license_and_ships_its_text() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_installed_command_plays_a_bundled_game_from_another_folder(installed: Path, tmp_path: Path) -> None:
    where = _run([_bin(installed, "python"), "-c", "import interpreter; print(interpreter.__file__)"], cwd=tmp_path)
    assert where.stdout.strip().startswith(str(installed)), where.stdout + where.stderr
    played = _run([_bin(installed, "trickbook"), "play", "hearts", "--players", "4", "--seed", "7", "--quiet"],
                  cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "winner(s): " in played.stdout and "totals: North " in played.stdout
    # python -m interpreter is the same program: the same game, told the same way
    again = _run([_bin(installed, "python"), "-m", "interpreter", "play", "hearts", "--players", "4", "--seed", "7",
                  "--quiet"], cwd=tmp_path)
    assert (again.returncode, again.stdout) == (0, played.stdout)


def test_the_installed_command_validates_a_docs_example_from_another_folder(installed: Path, tmp_path: Path) -> None:
    shutil.copy(ROOT / "docs" / "examples" / "exchange.yaml", tmp_path / "my-game.yaml")
    ok = _run([_bin(installed, "python"), "-m", "interpreter", "validate", "my-game.yaml"], cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    text = (tmp_path / "my-game.yaml").read_text()
    (tmp_path / "broken.yaml").write_text(text.replace("do: tricks", "do: trickz", 1))
    bad = _run([_bin(installed, "trickbook"), "validate", "broken.yaml"], cwd=tmp_path)
    assert bad.returncode == 1
    assert bad.stderr.startswith("broken.yaml:") or "broken.yaml:" in bad.stdout + bad.stderr
    assert "Traceback" not in bad.stdout + bad.stderr


def test_the_installed_web_table_serves_its_pages_from_the_wheel(wheel: Path, installed: Path, tmp_path: Path) -> None:
    """The pages are package data: the wheel carries them and the installed server serves them (Starlette and
    uvicorn come from the test environment, as the other dependencies do)."""
    names = zipfile.ZipFile(wheel).namelist()
    static = {Path(n).name for n in names if n.startswith("interpreter/web/static/")}
    assert static == {p.name for p in (ROOT / "interpreter" / "web" / "static").iterdir()}
    script = ("from starlette.testclient import TestClient\n"
              "from interpreter.web.app import create_app\n"
              "with TestClient(create_app('tables'), base_url='http://127.0.0.1') as c:\n"
              "    for path in ('/', '/static/lobby.js', '/static/table.js', '/static/style.css'):\n"
              "        r = c.get(path)\n"
              "        assert r.status_code == 200 and len(r.text) > 500, path\n"
              "    assert 'hearts' in {g['name'] for g in c.get('/api/games').json()}\n"
              "print('served')\n")
    done = _run([_bin(installed, "python"), "-c", script], cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip().endswith("served"), done.stdout + done.stderr
