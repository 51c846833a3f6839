"""The compiled backend's modules kept on disk (interpreter/compiled/module.py): one file per module text, named by
its digest, in the user's cache kept_folder, found again by a later run; damaged files and old ones never used."""

from __future__ import annotations

import os

from interpreter.compiled import module
from interpreter.compiled.machine import Machine

from .compiled_steps import compiled_or_skip
from .conftest import game_of


def test_a_module_text_is_kept_once_and_found_again(kept_folder):
    text = Machine(game_of("hearts", 4)).source
    path, written = module._kept(text)
    assert os.path.dirname(path) == str(kept_folder) and written == text
    stamp = os.stat(path).st_mtime_ns
    assert module._kept(text) == (path, text) and os.stat(path).st_mtime_ns == stamp  # (its object code is named by it)
    assert module._kept(text + "\n")[0] != path  # another text, another file


def test_the_compiled_form_is_made_only_when_the_file_is_new(kept_folder):
    made = []

    def form():
        made.append(1)
        return "x = 2\n"

    first = module._kept("x = 1\n", form)
    assert first is not None and first[1] == "x = 2\n" and made == [1]
    assert module._kept("x = 1\n", form) == first and made == [1]  # read from the file, not made again
    with open(first[0], encoding="utf-8") as f:
        assert f.read().splitlines()[0] == "x = 2"  # (the lines numbered as the form's)


def test_a_damaged_file_is_written_again(kept_folder):
    path, _ = module._kept("x = 1\n")
    with open(path, encoding="utf-8") as f:
        kept = f.read()
    for damaged in (kept.replace("x = 1", "x = 2"), "x = 1\n", kept[:-3]):  # changed, no digest, cut short
        with open(path, "w", encoding="utf-8") as f:
            f.write(damaged)
        assert module._kept("x = 1\n") == (path, "x = 1\n")
        with open(path, encoding="utf-8") as f:
            assert f.read() == kept


def test_no_cache_folder_keeps_nothing(kept_folder, monkeypatch):
    monkeypatch.setenv("TRICKBOOK_NO_CACHE", "1")
    assert module._kept("x = 1\n") is None
    assert not kept_folder.exists()


def test_the_oldest_modules_go_with_their_object_code(kept_folder, monkeypatch):
    monkeypatch.setattr(module, "MAX_FILES", 2)
    paths = []
    for i in range(3):
        paths.append(module._kept(f"x = {i}\n")[0])
        os.utime(paths[-1], (i, i))  # (written in this order)
        (kept_folder / (os.path.basename(paths[-1])[:-3] + ".f.0123.4567.o")).write_bytes(b"")
        codes = kept_folder / "__pycache__"
        codes.mkdir(exist_ok=True)
        (codes / (os.path.basename(paths[-1])[:-3] + ".a0d.code")).write_bytes(b"")
    module._kept("x = 3\n")
    left = sorted(os.listdir(kept_folder))
    assert os.path.basename(paths[0]) not in left and os.path.basename(paths[2]) in left
    gone = os.path.basename(paths[0])[:-3]
    assert not any(n.startswith(gone) for n in left + os.listdir(kept_folder / "__pycache__"))
    assert any(n.startswith(os.path.basename(paths[2])[:-3]) and n.endswith(".o") for n in left)


def test_a_compiled_module_is_made_from_its_kept_file(kept_folder):
    """A machine compiled runs the functions of the kept file, and keeps each entry's object code beside it."""
    compiled_or_skip()
    machine = Machine(game_of("njet-riogrande", 2), compiled=True)
    assert machine.play_many(2)[1] > 0
    [path] = kept_folder.glob("*.py")
    assert any(p.name.startswith(path.stem + ".play_many.") for p in kept_folder.glob("*.o"))


def test_a_later_run_loads_the_object_code_and_writes_no_ir(kept_folder, monkeypatch):
    """A function's object code, kept, is loaded by a later run (a new module of the same text): nothing is written
    or compiled again; a damaged object file is made again and written over."""
    compiled_or_skip()
    from interpreter.compiled.ir import jit
    from interpreter.compiled.values import Values

    source = "def inner(x, y):\n    return x // y\n\n\ndef outer(x):\n    return inner(x, 2) + inner(x, -3)\n"
    assert module.made(source, [], Values(), compiled=True).outer(7) == 3 + -3
    [kept] = kept_folder.glob("*.outer.*.o")
    written = kept.read_bytes()

    def refused(*args):
        raise AssertionError("compiled again")

    with monkeypatch.context() as m:
        m.setattr(jit, "object_code", refused)
        m.setattr(jit, "_loaded", {})  # (as in a new process)
        assert module.made(source, [], Values(), compiled=True).outer(-7) == -4 + 2
    for bad in (b"", b"\x05\x00\x00\x00{}", written[:40], written[:-8], written[:-1] + b"x"):
        kept.write_bytes(bad)
        monkeypatch.setattr(jit, "_loaded", {})
        assert module.made(source, [], Values(), compiled=True).outer(8) == 4 + -3
        assert kept.read_bytes() == written


def test_a_kept_module_s_code_object_is_kept_beside_it_and_a_bad_one_made_again(kept_folder, monkeypatch):
    """A later run reads the module's code object, not its text compiled again (a tenth of a second for the
    largest game); a file that is not one of this module's is compiled again and written over."""
    compiled_or_skip()
    from interpreter.compiled.values import Values
    from interpreter.dsl import codegen

    source = "def f(x):\n    return x + 1\n"
    assert module.made(source, [], Values(), compiled=True).f(1) == 2
    [code] = (kept_folder / "__pycache__").glob("*.code")

    def refused(*args):
        raise AssertionError("compiled again")

    with monkeypatch.context() as m:
        m.setattr(codegen, "compile", refused, raising=False)
        assert module.made(source, [], Values(), compiled=True).f(2) == 3
    for bad in (b"not marshal", __import__("marshal").dumps(compile("x = 1", "elsewhere.py", "exec"))):
        code.write_bytes(bad)
        assert module.made(source, [], Values(), compiled=True).f(3) == 4
        assert code.read_bytes() != bad
