"""The libraries numba puts the compiled module's functions in (interpreter/compiled/libraries.py): a function only
linked into its callers is never made machine code nor kept on disk, its callers run and keep its code; every
other function's library is optimized as a whole once."""

from __future__ import annotations

import pytest

from interpreter.compiled import module
from interpreter.compiled.values import Values

SOURCE = ("def small(x):\n    return x * 2 + 1\n\n\n"
          "def entry(x):\n    return small(x) + small(x + 1)\n")


def test_a_linked_function_is_not_made_machine_code_nor_kept(kept_folder):
    made = module.made(SOURCE, [], Values(), compiled=True, entries=("entry",))
    assert made.entry(3) == 7 + 9
    small = made.entry.py_func.__globals__["small"]
    [result] = small.overloads.values()
    assert result.library.get_pointer_to_function(result.fndesc.mangled_name) == 0  # (no machine code of its own)
    [entry] = made.entry.overloads.values()
    assert entry.library.get_pointer_to_function(entry.fndesc.mangled_name) != 0  # (its caller's holds it)
    kept = [f.name for f in (kept_folder / "__pycache__").iterdir()]
    assert any(".entry-" in name and name.endswith(".nbi") for name in kept), kept
    assert not any(".small-" in name for name in kept), kept


def test_a_function_called_from_python_is_optimized_as_a_whole_once(kept_folder, monkeypatch):
    numba_codegen = pytest.importorskip("numba.core.codegen")
    made = module.made(SOURCE, [], Values(), compiled=True, entries=("entry",))
    asked = []
    managers = numba_codegen.CPUCodegen._module_pass_manager

    def counted(self, *args, **kwargs):
        asked.append(kwargs.get("cost"))
        return managers(self, *args, **kwargs)

    monkeypatch.setattr(numba_codegen.CPUCodegen, "_module_pass_manager", counted)
    assert made.entry(5) == 11 + 13
    assert asked == [None]  # (numba's library: a cheaper pass first, for its runtime's counts, then the full one)
