"""What makes a cold start short: Lark's tables kept between runs, libyaml, jsonschema only when needed."""

from __future__ import annotations

import os
import subprocess
import sys

from interpreter.dsl import parser


def test_the_parse_tables_are_kept_in_the_users_own_cache_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("TRICKBOOK_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = parser._cache_file()
    assert path is not None and path.startswith(str(tmp_path / "trickbook"))
    assert oct(os.stat(tmp_path / "trickbook").st_mode & 0o777) == "0o700"
    os.chmod(tmp_path / "trickbook", 0o777)  # a folder others may write to: a pickle there is never loaded
    assert parser._cache_file() is None
    monkeypatch.setenv("TRICKBOOK_NO_CACHE", "1")
    os.chmod(tmp_path / "trickbook", 0o700)
    assert parser._cache_file() is None


def test_a_second_process_loads_the_tables_and_parses_the_same(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    env.pop("TRICKBOOK_NO_CACHE", None)
    code = ("from interpreter.dsl.parser import parse; "
            "print(parse('sum(c.rank for c in seat.hand if c.suit == led.suit) + 1'))")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert list((tmp_path / "trickbook").glob("dsl-lark*.tables"))
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout and "Comprehension" in first.stdout


def test_listing_games_does_not_import_jsonschema():
    code = ("import sys, io, contextlib; from interpreter.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(['list'])\n"
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
