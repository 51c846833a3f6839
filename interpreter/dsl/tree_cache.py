"""Expression trees kept between runs, so a later run does not parse the texts it has parsed before.

The first parse of an expression in a process costs a Lark parse and, before it, the building of Lark's
lexers: about half of what `trickbook validate` spends on expressions. The trees of texts that parsed are
kept in the user's cache folder (see interpreter/cache.py) as JSON: class names and field values, read
back into the node classes of ``ast`` and nothing else, so the file is data, never code. The file's name
carries a digest of the grammar and of the node classes, so a changed grammar or tree starts afresh; a
damaged or unreadable file is ignored. Only successful parses are kept: a syntax error is always found by
Lark and worded afresh. ``TRICKBOOK_NO_CACHE=1`` turns it off, with Lark's tables.
"""

from __future__ import annotations

import atexit
import hashlib
import os
from typing import Any

from interpreter.cache import read_json, write_json
from interpreter.dsl import ast

_CLASSES = {c.__name__: c for c in (ast.Const, ast.Name, ast.Attribute, ast.Index, ast.Call, ast.Comprehension,
                                    ast.ListExpr, ast.Unary, ast.Binary, ast.Conditional)}
MAX_ENTRIES = 5_000  # texts kept (the bundled games have about 1,000); past that the file starts again
MAX_BYTES = 2_000_000  # a larger file is not read (reading it would cost more than parsing)

_state: dict[str, Any] = {"path": None, "known": None, "new": {}}


def _path(folder: str, grammar: str) -> str:
    shape = repr(sorted((name, c.fields) for name, c in _CLASSES.items()))
    digest = hashlib.sha256((grammar + "\0" + shape).encode()).hexdigest()[:16]
    return os.path.join(folder, f"dsl-trees-{digest}.json")


def open_cache(folder: str | None, grammar: str) -> None:
    """Use the trees kept in ``folder`` (None: keep nothing)."""
    _state["path"] = None if folder is None else _path(folder, grammar)
    _state["known"] = None


def _known() -> dict[str, Any]:
    known = _state["known"]
    if known is None:
        data = read_json(_state["path"], MAX_BYTES)
        known = _state["known"] = data if isinstance(data, dict) else {}
    return known


def lookup(text: str) -> ast.Node | None:
    """The tree of ``text`` from an earlier run, or None."""
    if _state["path"] is None:
        return None
    encoded = _known().get(text)
    if encoded is None:
        return None
    try:
        return _decode(encoded)
    except (KeyError, TypeError, IndexError, RecursionError):
        return None  # a damaged entry: parse it again


def remember(text: str, tree: ast.Node) -> None:
    if _state["path"] is None or text in _known():
        return
    if not _state["new"]:
        atexit.register(save)
    _state["new"][text] = _encode(tree)
    if len(_state["new"]) >= MAX_ENTRIES:  # a long process (a server, a fuzzer) keeps no more than the file does
        save()


def save() -> None:
    """Write the texts parsed in this run to the file."""
    path, new = _state["path"], _state["new"]
    if path is None or not new:
        return
    known = _known()
    write_json(path, {**known, **new} if len(known) + len(new) <= MAX_ENTRIES else dict(new))
    _state["new"] = {}


def _encode(value: Any) -> Any:
    if isinstance(value, ast.Node):
        return [type(value).__name__, *(_encode(getattr(value, f)) for f in value.fields)]
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    return value  # text, a whole number, true/false, none


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return _CLASSES[value[0]](*(_decode(v) for v in value[1:]))
    if isinstance(value, dict):
        return tuple(_decode(v) for v in value["t"])
    if value is None or type(value) in (str, int, bool):
        return value
    raise TypeError("not a tree")
