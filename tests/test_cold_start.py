"""What makes a cold start short: Lark's tables kept between runs, libyaml, jsonschema only when needed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from interpreter.dsl import parser
from interpreter.errors import RuleErrors


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


TEXT = "sum(c.rank for c in seat.hand if c.suit == led.suit) + [1, 2][0]"
PARSE = ("from interpreter.dsl import parser; tree = parser.parse({text!r}); "
         "print(repr(tree)); print('lark built:', parser._lark.cache_info().currsize)")


def _run(tmp_path, text=TEXT, **env_extra):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), **env_extra)
    if "TRICKBOOK_NO_CACHE" not in env_extra:
        env.pop("TRICKBOOK_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", PARSE.format(text=text)], env=env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return out[0], out[1]


def test_a_later_run_reads_the_trees_of_texts_parsed_before_without_building_lark(tmp_path):
    tree, built = _run(tmp_path)
    assert built == "lark built: 1" and "Comprehension" in tree
    (trees,) = (tmp_path / "trickbook").glob("dsl-trees-*.json")
    assert TEXT in json.loads(trees.read_text())
    assert _run(tmp_path) == (tree, "lark built: 0")
    other, built = _run(tmp_path, "card.rank > 2")  # a text not kept yet: parsed, and kept from then on
    assert built == "lark built: 1" and _run(tmp_path, "card.rank > 2") == (other, "lark built: 0")


@pytest.mark.parametrize("content", ["not json", json.dumps({TEXT: ["Os", 1, "system"]}),
                                     json.dumps({TEXT: ["Name", 0]}), json.dumps({TEXT: ["Name", 0, {"t": [1.5]}]}),
                                     "[1, 2]"])
def test_a_damaged_tree_file_is_ignored(tmp_path, content):
    tree, _ = _run(tmp_path)
    (trees,) = (tmp_path / "trickbook").glob("dsl-trees-*.json")
    trees.write_text(content)
    assert _run(tmp_path) == (tree, "lark built: 1")


def test_no_trees_are_kept_when_caching_is_off(tmp_path):
    _run(tmp_path, TRICKBOOK_NO_CACHE="1")
    assert not list(tmp_path.glob("trickbook/dsl-trees-*"))


VALIDATE = ("import sys, io, contextlib; from interpreter.cli import main\n"
            "out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
            "    code = main(['validate', {path!r}])\n"
            "print(code, 'jsonschema' in sys.modules); print(out.getvalue())")


def _validate(tmp_path, path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("TRICKBOOK_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", VALIDATE.format(path=str(path))], env=env, capture_output=True,
                         text=True, check=True).stdout
    first, _, rest = out.partition("\n")
    return first, rest


def test_a_file_found_valid_is_not_checked_against_the_schema_again_until_it_changes(tmp_path):
    from .conftest import ROOT

    path = tmp_path / "njet.yaml"
    text = (ROOT / "games" / "njet-riogrande.yaml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    assert _validate(tmp_path, path)[0] == "0 True"
    assert _validate(tmp_path, path)[0] == "0 False"  # the same data: jsonschema is not even imported
    path.write_text(text.replace("title: NJET (", "title: NJET edited ("), encoding="utf-8")
    assert _validate(tmp_path, path)[0] == "0 True"


def test_a_file_with_mistakes_is_checked_every_time(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("trickbook: 1\nname: bad\ntitle: Bad\nseats: 4\n", encoding="utf-8")
    first = _validate(tmp_path, path)
    assert first[0] == "1 True" and "bad.yaml:" in first[1]
    assert _validate(tmp_path, path) == first


CODE = ("from interpreter.dsl.codegen import Namespace\n"
        "ns = Namespace({key!r}); f = ns.function(('x',), 'x * 2 + 1'); ns.save(); print(f(None, 20), ns._new)")


def _generate(tmp_path, key="game/4"):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    env.pop("TRICKBOOK_NO_CACHE", None)
    return subprocess.run([sys.executable, "-c", CODE.format(key=key)], env=env, capture_output=True, text=True,
                          check=True).stdout.split()


def test_generated_code_is_kept_per_compiled_game_and_reused_by_a_later_run(tmp_path):
    assert _generate(tmp_path) == ["41", "1"]  # compiled
    (kept,) = (tmp_path / "trickbook").glob("code-*.marshal")
    assert _generate(tmp_path) == ["41", "0"]  # read back: nothing compiled
    assert _generate(tmp_path, "other/4") == ["41", "1"]  # another game keeps its own
    kept.write_bytes(b"\x00garbage")
    assert _generate(tmp_path) == ["41", "1"]  # a damaged file is ignored


def test_an_edit_checks_only_the_parts_of_the_file_it_changed(tmp_path, monkeypatch):
    from interpreter import cache
    from interpreter.rules import schema
    from interpreter.rules.loader import load_rules

    from .conftest import ROOT

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TRICKBOOK_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "_sets", {})
    checked = []
    real = schema._part_validator

    class Recording:
        def __init__(self, part):
            self.part = part

        def iter_errors(self, value):
            checked.append(self.part)
            return real(self.part).iter_errors(value)

    monkeypatch.setattr(schema, "_part_validator", Recording)
    text = (ROOT / "games" / "meinz.yaml").read_text(encoding="utf-8")
    path = tmp_path / "meinz.yaml"
    path.write_text(text, encoding="utf-8")
    schema.validate(load_rules(path, check=False))
    assert {"top", "deck", "round", "step", "game"} <= set(checked)
    checked.clear()
    schema.validate(load_rules(path, check=False))
    assert checked == []  # unchanged: nothing checked
    path.write_text(text.replace('strength: ["- card.number"]', 'strength: ["0 - card.number"]'), encoding="utf-8")
    schema.validate(load_rules(path, check=False))
    assert checked == ["step"]  # one step changed: that step
    path.write_text(text.replace("strength:", "strenght:"), encoding="utf-8")
    with pytest.raises(RuleErrors) as info:
        schema.validate(load_rules(path, check=False))
    assert "unknown key 'strenght' in the tricks step 'tricks'; did you mean 'strength'?" in str(info.value)


def test_the_cache_keeps_only_the_latest_files_of_generated_code(tmp_path):
    from interpreter.cache import MAX_FILES, prune

    for i in range(MAX_FILES + 6):
        path = tmp_path / f"code-{i:03d}.marshal"
        path.write_bytes(b"x")
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    (tmp_path / "valid-rules.json").write_text("[]")
    prune(str(tmp_path), "code-")
    left = sorted(p.name for p in tmp_path.glob("code-*"))
    assert len(left) == MAX_FILES and left[0] == "code-006.marshal"
    assert (tmp_path / "valid-rules.json").exists()


READS = ("import sys, io, contextlib\n"
         "import interpreter.cache as cache\n"
         "real = cache.read_json\n"
         "def read_json(path, *a):\n"
         "    print('READ', path)\n"
         "    return real(path, *a)\n"
         "cache.read_json = read_json\n"
         "import interpreter.dsl.tree_cache as trees\n"
         "trees.read_json = read_json\n"
         "from interpreter.cli import main\n"
         "with contextlib.redirect_stderr(io.StringIO()):\n"
         "    main(['validate', {path!r}])\n")


def _validate_reads(tmp_path, path) -> list[str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("TRICKBOOK_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", READS.format(path=str(path))], env=env, capture_output=True,
                         text=True, check=True).stdout
    return [line.split(" ", 1)[1] for line in out.splitlines() if line.startswith("READ ")]


def _variant(tmp_path, name: str, rule: str):
    f = tmp_path / f"{name}.yaml"
    f.write_text(f"trickbook: 1\nextends: whist\nname: {name}\nround:\n  score: {{points: \"{rule}\"}}\n")
    return f


def test_each_rule_file_keeps_its_own_trees_and_a_run_reads_only_those_of_the_file_it_checks(tmp_path):
    """A designer's many variants used to fill one file of trees (and one of files found valid) that every start
    read whole; each rule file now has its own, holding the texts it uses."""
    a = _variant(tmp_path, "a", "seat.tricks * 2")
    b = _variant(tmp_path, "b", "seat.tricks * 3")
    first = _validate_reads(tmp_path, a)
    _validate_reads(tmp_path, b)
    folder = tmp_path / "cache" / "trickbook"
    assert len(list(folder.glob("dsl-trees-*.json"))) == 2 and len(list(folder.glob("valid-rules-*.json"))) == 2
    again = _validate_reads(tmp_path, a)
    assert again == first  # the same files as the first time: none of b's
    a_trees = next(p for p in again if "dsl-trees-" in p)
    assert "seat.tricks * 2" in json.loads(open(a_trees).read())
    assert "seat.tricks * 3" not in json.loads(open(a_trees).read())
    a.write_text(a.read_text().replace("seat.tricks * 2", "seat.tricks * 4"))  # edited: the old text goes
    _validate_reads(tmp_path, a)
    kept = json.loads(open(a_trees).read())
    assert "seat.tricks * 4" in kept and "seat.tricks * 2" not in kept
