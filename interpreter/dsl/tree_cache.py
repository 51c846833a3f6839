"""Expression trees kept between runs, so a later run does not parse the texts it has parsed before.

The first parse of an expression in a process costs a Lark parse and, before it, the building of Lark's
lexers: about half of what `trickbook validate` spends on expressions. The trees of texts that parsed are
kept in the user's cache folder (see interpreter/cache.py) as JSON: class names and field values, read
back into the node classes of ``ast`` and nothing else, so the file is data, never code. Each rule file
has a file of its own (see cache.scope), holding the texts it uses, so a run reads the trees of the files
it checks and no others. The file names carry a digest of the grammar and of the node classes, so a
changed grammar or tree starts afresh; a damaged or unreadable file is ignored. Only successful parses
are kept: a syntax error is always found by Lark and worded afresh. ``TRICKBOOK_NO_CACHE=1`` turns it off,
with Lark's tables.
"""

from __future__ import annotations

import atexit
import hashlib
import os
from typing import Any

from interpreter.cache import MAX_RULE_FILES, prune, read_json, scoped, write_json
from interpreter.dsl import ast

_CLASSES = {c.__name__: c for c in (ast.Const, ast.Name, ast.Attribute, ast.Index, ast.Call, ast.Comprehension,
                                    ast.ListExpr, ast.Unary, ast.Binary, ast.Conditional)}
MAX_ENTRIES = 5_000  # texts kept for one rule file (a bundled game has about 250); past that it starts again
MAX_BYTES = 2_000_000  # a larger file is not read (reading it would cost more than parsing)


class _Shard:
    """The trees kept for one rule file: those read from its file, those parsed now, and those used now."""

    __slots__ = ("path", "_known", "new", "used")

    def __init__(self, path: str):
        self.path = path
        self._known: dict[str, Any] | None = None
        self.new: dict[str, Any] = {}
        self.used: set[str] = set()

    @property
    def known(self) -> dict[str, Any]:
        if self._known is None:
            data = read_json(self.path, MAX_BYTES)
            self._known = data if isinstance(data, dict) else {}
        return self._known


_state: dict[str, Any] = {"base": None, "shards": {}, "saving": False}


def _path(folder: str, grammar: str) -> str:
    shape = repr(sorted((name, c.fields) for name, c in _CLASSES.items()))
    digest = hashlib.sha256((grammar + "\0" + shape).encode()).hexdigest()[:16]
    return os.path.join(folder, f"dsl-trees-{digest}")


def open_cache(folder: str | None, grammar: str) -> None:
    """Use the trees kept in ``folder`` (None: keep nothing)."""
    _state["base"] = None if folder is None else _path(folder, grammar)
    _state["shards"] = {}


def _shard() -> _Shard | None:
    """The trees of the rule file being compiled (see cache.scope): each has a file of its own."""
    base = _state["base"]
    if base is None:
        return None
    path = scoped(base) + ".json"
    shard = _state["shards"].get(path)
    if shard is None:
        shard = _state["shards"][path] = _Shard(path)
    return shard


def lookup(text: str) -> ast.Node | None:
    """The tree of ``text`` from an earlier run, or None."""
    shard = _shard()
    if shard is None:
        return None
    encoded = shard.known.get(text)
    if encoded is None:
        return None
    try:
        tree = _decode(encoded)
    except (KeyError, TypeError, IndexError, RecursionError):
        return None  # a damaged entry: parse it again
    shard.used.add(text)
    return tree


def remember(text: str, tree: ast.Node) -> None:
    shard = _shard()
    if shard is None or text in shard.known:
        return
    if not _state["saving"]:
        _state["saving"] = True
        atexit.register(save)
    shard.new[text] = _encode(tree)
    if len(shard.new) >= MAX_ENTRIES:  # a long process (a server, a fuzzer) keeps no more than the file does
        save()


def save() -> None:
    """Write each rule file's trees parsed in this run to its file, with those of its texts it read from there
    (texts it no longer has, after an edit, are left out: a file keeps what its rule file uses)."""
    for shard in _state["shards"].values():
        if not shard.new:
            continue
        kept = {t: shard.known[t] for t in shard.used if t in shard.known}
        write_json(shard.path, {**kept, **shard.new} if len(kept) + len(shard.new) <= MAX_ENTRIES else shard.new)
        shard._known = {**kept, **shard.new}
        shard.new = {}
        prune(os.path.dirname(shard.path), "dsl-trees-", MAX_RULE_FILES)


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
