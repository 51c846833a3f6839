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
from pathlib import Path
from typing import Any

from interpreter.errors import Position, SchemaError, show_file_as
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
    source = RuleSource(data, smap, str(path))
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
    del data["extends"]
    merged = merge(base, data, (), base_map, smap)
    return merged, base_map


def merge(base: Any, over: Any, path: tuple, base_map: SourceMap, over_map: SourceMap) -> Any:
    """Merge ``over`` into ``base`` (see module doc); ``base_map`` is updated in place."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            kpath = path + (key,)
            if value is None:
                out.pop(key, None)
                base_map.drop_under(kpath)
                continue
            if key in out:
                out[key] = merge(out[key], value, kpath, base_map, over_map)
                # the merged mapping is now the extending file's: point at its key there
                for table in ("values", "keys"):
                    if kpath in getattr(over_map, table):
                        getattr(base_map, table)[kpath] = getattr(over_map, table)[kpath]
            else:
                out[key] = value
                _copy_positions(kpath, over_map, base_map)
        return out
    base_map.drop_under(path)
    _copy_positions(path, over_map, base_map)
    return over


def _copy_positions(path: tuple, src: SourceMap, dst: SourceMap) -> None:
    n = len(path)
    for table_name in ("values", "keys", "scalars"):
        src_table = getattr(src, table_name)
        dst_table = getattr(dst, table_name)
        for p, v in src_table.items():
            if p[:n] == path:
                dst_table[p] = v
    dst.files |= src.files


def identity(data: Any) -> str:
    """A stable fingerprint of the merged rules, stored in game records."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
