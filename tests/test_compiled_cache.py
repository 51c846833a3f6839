"""The compiled backend's modules kept on disk (interpreter/compiled/module.py): one file per module text, named by
its digest, in the user's cache kept_folder, found again by a later run; damaged files and old ones never used."""

from __future__ import annotations

import os

from interpreter.compiled import module
from interpreter.compiled.machine import Machine

from .compiled_steps import numba_or_skip
from .conftest import game_of


def test_a_module_text_is_kept_once_and_found_again(kept_folder):
    text = Machine(game_of("hearts", 4)).source
    path, written = module._kept(text)
    assert os.path.dirname(path) == str(kept_folder) and written == text
    stamp = os.stat(path).st_mtime_ns
    assert module._kept(text) == (path, text) and os.stat(path).st_mtime_ns == stamp  # (numba keeps its code by it)
    assert module._kept(text + "\n")[0] != path  # another text, another file


def test_the_form_numba_compiles_is_made_only_when_the_file_is_new(kept_folder):
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


def test_the_oldest_modules_go_with_numba_files_of_them(kept_folder, monkeypatch):
    monkeypatch.setattr(module, "MAX_FILES", 2)
    paths = []
    for i in range(3):
        paths.append(module._kept(f"x = {i}\n")[0])
        os.utime(paths[-1], (i, i))  # (written in this order)
        numba_files = kept_folder / "__pycache__"
        numba_files.mkdir(exist_ok=True)
        (numba_files / (os.path.basename(paths[-1])[:-3] + ".f-1.py311.nbi")).write_text("")
    module._kept("x = 3\n")
    left = sorted(os.listdir(kept_folder))
    assert os.path.basename(paths[0]) not in left and os.path.basename(paths[2]) in left
    assert not any(n.startswith(os.path.basename(paths[0])[:-3]) for n in os.listdir(kept_folder / "__pycache__"))


def test_a_compiled_module_is_made_from_its_kept_file(kept_folder):
    """A machine compiled by numba runs the functions of the kept file (its module importable by name)."""
    numba_or_skip(everywhere=True)
    machine = Machine(game_of("njet-riogrande", 2), compiled=True)
    playout = machine.module.playout
    assert playout.py_func.__code__.co_filename.startswith(str(kept_folder))
    assert machine.play_many(2)[1] > 0


def test_only_the_entry_points_are_compiled_with_a_wrapper_for_python(kept_folder):
    """A function only compiled code calls is compiled without numba's wrappers (module.INTERNAL), once, for its
    compiled callers; Python still calls it, through a copy of its own compiled when first called."""
    from interpreter.compiled.values import Values

    source = "def inner(x):\n    return x + 1\n\n\ndef outer(x):\n    return inner(x) * 2\n"
    made = module.made(source, [], Values(), compiled=True, entries=("outer",))
    assert made.outer(3) == 8
    inner = made.outer.py_func.__globals__["inner"]  # (what the compiled outer calls)
    assert inner.targetoptions.get("no_cpython_wrapper") and not made.outer.targetoptions.get("no_cpython_wrapper")
    assert len(inner.overloads) == 1 and made.inner is not inner and not made.inner.overloads
    assert made.inner(3) == 4 and len(made.inner.overloads) == 1


def test_a_function_is_compiled_once_whatever_constants_its_callers_pass(kept_folder):
    """numba types a constant argument as that constant: a function called with 0 and with 1 would be compiled twice
    (the machine's ``advance``, with most of a game's code, was); the module's are compiled once, for whole numbers."""
    from interpreter.compiled.values import Values

    source = ("def inner(x, y):\n    return x + y\n\n\n"
              "def outer(x):\n    return inner(x, 0) + inner(x, 1) + inner(2, x)\n")
    made = module.made(source, [], Values(), compiled=True, entries=("outer",))
    assert made.outer(3) == 12
    assert len(made.outer.py_func.__globals__["inner"].overloads) == 1


def test_a_kept_module_s_code_object_is_kept_beside_it_and_a_bad_one_made_again(kept_folder, monkeypatch):
    """A later run reads the module's code object, not its text compiled again (a tenth of a second for the
    largest game); a file that is not one of this module's is compiled again and written over."""
    from interpreter.compiled.values import Values
    from interpreter.dsl import codegen

    source = "def f(x):\n    return x + 1\n"
    assert module.made(source, [], Values(), compiled=True, entries=("f",)).f(1) == 2
    [code] = (kept_folder / "__pycache__").glob("*.code")

    def refused(*args):
        raise AssertionError("compiled again")

    with monkeypatch.context() as m:
        m.setattr(codegen, "compile", refused, raising=False)
        assert module.made(source, [], Values(), compiled=True, entries=("f",)).f(2) == 3
    for bad in (b"not marshal", __import__("marshal").dumps(compile("x = 1", "elsewhere.py", "exec"))):
        code.write_bytes(bad)
        assert module.made(source, [], Values(), compiled=True, entries=("f",)).f(3) == 4
        assert code.read_bytes() != bad
