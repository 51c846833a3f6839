"""Load a rule file: safe YAML, then ``extends`` resolved and merged, then the schema.

Merging: the extending file's mappings are merged key by key into the base's
(recursively); any other value (a list, a string) replaces the base's; a key
set to ``null`` removes the base's key. Positions stay with the file that
wrote each value, so errors point at the right file: a file the user named by
the path they gave, a bundled game's file by its file name (``GAME.yaml:LINE:COL``),
never by its path in the installation.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from interpreter import cache
from interpreter.errors import Position, RuleError, RuleErrors, SchemaError, show_file_as
from interpreter.rules import options, templates
from interpreter.rules.catalog import bundled_name, resolve, resolve_reference
from interpreter.rules.schema import validate
from interpreter.rules.source import RuleSource
from interpreter.rules.yaml_loader import SourceMap, load_yaml

MAX_EXTENDS = 8


def load_rules(name_or_path: str | Path, allow: tuple[Path, ...] = (), check: bool = True) -> RuleSource:
    """Load, merge and validate a rule file; raise RuleError/RuleErrors with positions.

    ``extends`` may name bundled games and rule files under the folder of the file that names it, or
    under the ``allow`` folders (see :func:`resolve_reference`). ``check=False`` skips the schema: only
    for reading a tested file's title and options (``trickbook list``), never before compiling it.
    """
    path = resolve(str(name_or_path))
    data, smap = _load_with_extends(path, [], allow)
    templates.expand(data, smap, str(path))
    source = RuleSource(data, smap, str(path))
    cache.scope(source.file)  # what is kept of checking it (see cache.scope) is kept with it
    if check:
        validate(source)
    return source


def _load_with_extends(path: Path, chain: list[Path], allow: tuple[Path, ...] = ()) -> tuple[Any, SourceMap]:
    shown = bundled_name(path)
    if shown is not None:  # errors name a bundled game's file by its name, not by the installation's path
        show_file_as(str(path), shown)
    data, smap = load_yaml(path)
    if not isinstance(data, dict):
        what = "is empty" if data is None else "must be a mapping (key: value lines)"
        raise SchemaError(f"a rule file {what}", smap.value(()) or Position(str(path), 1, 1))
    base_name = data.get("extends")
    if base_name is None:
        return data, smap
    if not isinstance(base_name, str):
        raise SchemaError("extends must name a rule file or a bundled game", smap.value(("extends",)))
    try:
        base_path = resolve_reference(base_name, path.parent, allow)
    except Exception as exc:  # UnknownGame
        raise SchemaError(str(exc), smap.value(("extends",))) from None
    resolved = [os.path.realpath(p) for p in chain + [path]]
    if os.path.realpath(base_path) in resolved:
        raise SchemaError(f"extends forms a cycle through {base_path.name}", smap.value(("extends",)))
    if len(chain) >= MAX_EXTENDS:
        raise SchemaError(f"more than {MAX_EXTENDS} levels of extends", smap.value(("extends",)))
    base, base_map = _load_with_extends(base_path, chain + [path], allow)
    changed: list[RuleError] = list(options.variant_problems(
        base, data, smap.style, lambda p: smap.value(p) or Position(str(path), 1, 1)))
    if changed:
        raise RuleErrors(changed)
    del data["extends"]
    named = data.get("name")
    merged = merge(base, data, (), base_map, smap)
    base_map.chain = smap.chain + base_map.chain
    if named is None:  # a variant is a game of its own: not its base's name, but its file's
        merged["name"] = base_map.named = file_name(path)
        base_map.values[("name",)] = base_map.keys[("name",)] = Position(str(path), 1, 1)
    else:
        base_map.named = None
    return merged, base_map


def file_name(path: Path) -> str:
    """The name a rule file's name gives its game: its stem in lower-case letters, digits and hyphens."""
    name = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")
    return name or "variant"


def merge(base: Any, over: Any, path: tuple, base_map: SourceMap, over_map: SourceMap) -> Any:
    """Merge ``over`` into ``base`` (see module doc); ``base_map`` is updated in place.

    The positions are moved in one pass over each map at the end (the paths whose positions are forgotten, then
    those whose positions come from ``over_map``), so a merge costs the positions times their depth, not the
    keys times the positions."""
    dropped: set[tuple] = set()
    copied: set[tuple] = set()
    out = _merge(base, over, path, base_map, over_map, dropped, copied)
    for table in (base_map.values, base_map.keys, base_map.scalars):
        for p in [p for p in table if _under(p, dropped)]:
            del table[p]
    tables: tuple[tuple[dict[tuple, Any], dict[tuple, Any]], ...] = (
        (over_map.values, base_map.values), (over_map.keys, base_map.keys), (over_map.scalars, base_map.scalars))
    for src, dst in tables:  # positions and spans alike: each copied into the table of its kind
        for p, v in src.items():
            if _under(p, copied):
                dst[p] = v
    if copied:
        base_map.files |= over_map.files
    return out


def _merge(base: Any, over: Any, path: tuple, base_map: SourceMap, over_map: SourceMap, dropped: set[tuple],
           copied: set[tuple]) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            kpath = path + (key,)
            if value is None:
                out.pop(key, None)
                dropped.add(kpath)
                base_map.removed[kpath] = over_map.keys.get(kpath) or over_map.value(kpath) or Position("", 1, 1)
                continue
            if key in out:
                out[key] = _merge(out[key], value, kpath, base_map, over_map, dropped, copied)
                # the merged mapping is now the extending file's: point at its key there
                for table in ("values", "keys"):
                    if kpath in getattr(over_map, table):
                        getattr(base_map, table)[kpath] = getattr(over_map, table)[kpath]
            else:
                out[key] = value
                copied.add(kpath)
        return out
    base_map.replaced[path] = base
    dropped.add(path)
    copied.add(path)
    return over


def _under(path: tuple, paths: set[tuple]) -> bool:
    """Whether ``path`` or one of the paths above it is in ``paths``."""
    return bool(paths) and any(path[:i] in paths for i in range(len(path) + 1))


def identity(data: Any) -> str:
    """A stable fingerprint of the merged rules, stored in game records."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
