"""Compiled functions calling each other by a symbol (interpreter/compiled/symbols.py): a function too large to be
linked into its callers is compiled once and called by its symbol; what it raises goes on up; a later process loads
the kept code in the order written down (without refreshing numba's contexts), and without that order it loads
nothing kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.compiled import module
from interpreter.compiled.linking import LIMIT
from interpreter.compiled.values import Values

ROOT = Path(__file__).resolve().parent.parent


def large(name: str, call: str) -> str:
    """A function of more than LIMIT lines (so called by its symbol) returning ``call`` plus its argument's work."""
    body = "".join(f"    y = y * 3 % 1000003 + {i}\n" for i in range(LIMIT + 2))
    return (f"def {name}(x):\n    if x < 0:\n        raise ValueError('below zero')\n    y = x\n{body}"
            f"    return {call} + y\n")


SOURCE = "\n\n".join([large("low", "0"), large("middle", "low(x - 10)"), large("high", "middle(x + 2)"),
                      "def twice(x):\n    return 2 * x\n",  # (small: linked into its caller)
                      "def entry(x):\n    return twice(high(x)) + high(x + 1)\n"])


def plain(x: int) -> int:
    space: dict = {}
    exec(SOURCE, space)
    return space["entry"](x)


def test_a_large_function_is_called_by_its_symbol_not_copied(kept_folder):
    made = module.made(SOURCE, [], Values(), compiled=True, entries=("entry",))
    assert made.entry(15) == plain(15)
    space = made.entry.py_func.__globals__
    high = space["high"]
    assert not hasattr(high, "overloads")  # (what the compiled entry calls: the intrinsic calling by symbol)
    [result] = made.entry.overloads.values()
    defined = [f.name for f in result.library._final_module.functions if not f.is_declaration]
    assert not any("high" in n or "middle" in n or "low" in n for n in defined), defined
    for below in (-1, 5):  # (raised by high itself; by low, called by middle called by high)
        with pytest.raises(ValueError, match="below zero"):
            made.entry(below)


def test_a_small_function_is_linked_and_marked_to_be_inlined(kept_folder):
    made = module.made("def small(x):\n    return x * 2 + 1\n\n\ndef entry(x):\n    return small(x) + small(x + 1)\n",
                       [], Values(), compiled=True, entries=("entry",))
    assert made.entry(3) == 7 + 9
    small = made.entry.py_func.__globals__["small"]  # (a dispatcher: numba links its code into the caller's)
    [result] = small.overloads.values()
    copy = result.library._get_module_for_linking().get_function(result.fndesc.mangled_name)
    assert "alwaysinline" in str(copy)  # (LLVM's mark, on the copy the callers link)


LATER = """
import json, sys
from numba.core.base import BaseContext
from interpreter.compiled import module
from interpreter.compiled.values import Values
refreshed = []
refresh = BaseContext.refresh
BaseContext.refresh = lambda self: refreshed.append(1) or refresh(self)
made = module.made({source!r}, [], Values(), compiled=True, entries=("entry",))
value = made.entry(17)
linked = hasattr(made.entry.py_func.__globals__["twice"], "overloads")  # (its dispatcher made: numba's)
print(json.dumps({{"value": value, "hits": sum(made.entry.stats.cache_hits.values()), "refreshed": bool(refreshed),
                  "linked": linked}}))
"""


def run(kept_folder: Path) -> dict:
    env = {**os.environ, "XDG_CACHE_HOME": str(kept_folder.parent.parent), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", LATER.format(source=SOURCE)], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_later_process_loads_the_callees_first_and_without_their_order_nothing_kept(kept_folder):
    made = module.made(SOURCE, [], Values(), compiled=True, entries=("entry",))
    assert made.entry(17) == plain(17)
    [order] = (kept_folder / "__pycache__").glob("*.order")
    assert [line.split()[0] for line in order.read_text().splitlines()] == ["low", "middle", "high"]
    # loaded: its callees' symbols given first; numba's contexts not refreshed (what they register compiles, and
    # loading compiles nothing: 0.1-0.3 s of a later process), nor a dispatcher made for a function only linked
    assert run(kept_folder) == {"value": plain(17), "hits": 1, "refreshed": False, "linked": False}
    assert len(order.read_text().splitlines()) == 3  # (what was loaded is not written down again)
    order.unlink()
    # compiled again, not loaded calling unknown symbols (numba's compiler refreshing the contexts first, the linked
    # function's dispatcher made before)
    assert run(kept_folder) == {"value": plain(17), "hits": 0, "refreshed": True, "linked": True}
    assert len(order.read_text().splitlines()) == 3  # (and written down again)


def test_an_order_with_a_line_not_read_is_not_used(tmp_path):
    from interpreter.compiled.symbols import Order

    order = Order("m", str(tmp_path))
    assert order._read() is None  # (no file)
    path = tmp_path / "m.order"
    path.write_text("low gAQpLg==\nmiddle not-base64\n")
    assert order._read() is None
    path.write_text("low gAQpLg==\nmiddle gARL")  # (a last line being written by another run: not read yet)
    assert Order("m", str(tmp_path))._read() == [("low", ())]
