"""The user's own cache folder: what a later run may reuse (Lark's tables, expression trees, files found valid).

Everything kept there only saves time: a missing, damaged or unreadable file is ignored and the work done
again. The folder must belong to the user and be writable by nobody else (Lark keeps its tables as a
pickle), so a shared temporary folder is never used. ``TRICKBOOK_NO_CACHE=1`` turns all of it off.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import tempfile

MAX_DIGESTS = 2_000  # digests kept per set; past that the set starts again from this run's
MAX_FILES = 64  # files of one kind (e.g. generated code, one per compiled game): the oldest go first

MAX_RULE_FILES = 200  # rule files whose kept sets and trees are kept (see scope): the oldest go first

_sets: dict[str, tuple[str, set[str], set[str]]] = {}  # name -> (its file, digests read, digests added now)
_scope = {"file": ""}  # the rule file the kept sets and trees belong to now


def scope(rule_file: str) -> None:
    """What is kept from now on belongs to ``rule_file`` (its path): each rule file's sets and expression
    trees are files of their own, so a run reads only those of the files it checks. (One file of everything
    any run had kept grew with every variant a designer tried, and every start read it whole.)"""
    _scope["file"] = rule_file


def scoped(name: str) -> str:
    """``name`` marked with the rule file of the current scope (unmarked outside any)."""
    rule_file = _scope["file"]
    return f"{name}-{hashlib.sha256(rule_file.encode()).hexdigest()[:16]}" if rule_file else name


def cache_folder() -> str | None:
    """``$XDG_CACHE_HOME/trickbook`` or ``~/.cache/trickbook`` (made, 0700), or None when off or unsafe."""
    if os.environ.get("TRICKBOOK_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "trickbook")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.stat(folder)
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            return None  # someone else could write there
    except OSError:
        return None
    return folder


def read_json(path: str | None, max_bytes: int = 2_000_000) -> object:
    """The JSON in ``path``, or None when there is none, it is larger than ``max_bytes`` or it is damaged."""
    try:
        if path is None or os.path.getsize(path) > max_bytes:
            return None
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_json(path: str, data: object) -> None:
    """Replace ``path`` with ``data`` as JSON in one step (another run may be writing it too)."""
    write_bytes(path, json.dumps(data, separators=(",", ":")).encode())


def prune(folder: str, prefix: str, keep: int = MAX_FILES, suffix: str = "") -> None:
    """Delete all but the ``keep`` most recently written files whose names start with ``prefix`` (and end with
    ``suffix``)."""
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(suffix)]
        if len(names) <= keep:
            return
        paths = sorted((os.path.join(folder, n) for n in names), key=os.path.getmtime)
        for path in paths[:-keep]:
            os.remove(path)
    except OSError:
        pass


def write_bytes(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step (another run may be writing it too)."""
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass


def _set(name: str) -> tuple[str, set[str], set[str]] | None:
    key = scoped(name)
    if key not in _sets:
        folder = cache_folder()
        if folder is None:
            return None
        path = os.path.join(folder, f"{key}.json")
        data = read_json(path)
        known = {d for d in data if isinstance(d, str)} if isinstance(data, list) else set()
        _sets[key] = (path, known, set())
    return _sets[key]


def seen(name: str, digest: str) -> bool:
    """Whether ``digest`` is in the kept set ``name`` (e.g. rule files found valid before)."""
    entry = _set(name)
    return entry is not None and (digest in entry[1] or digest in entry[2])


def add(name: str, digest: str) -> None:
    """Keep ``digest`` in the set ``name``; written when the run ends."""
    entry = _set(name)
    if entry is None:
        return
    if not entry[2]:
        atexit.register(_save, entry, name + "-")
    entry[2].add(digest)


def _save(entry: tuple[str, set[str], set[str]], prefix: str) -> None:
    path, known, new = entry
    if new:
        write_json(path, sorted(known | new if len(known) + len(new) <= MAX_DIGESTS else new))
        prune(os.path.dirname(path), prefix, MAX_RULE_FILES)  # the sets of rule files not checked for long
