"""A loaded (and merged) rule file: data plus where each part came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import Position
from interpreter.rules.yaml_loader import SourceMap

Path_ = tuple[Any, ...]


@dataclass
class RuleSource:
    data: dict[str, Any]
    smap: SourceMap
    file: str  # the file that was asked for (the most derived one)
    # parts the engine wrote from a step's declaration (a climb's turn), read at their paths like the file's own;
    # positions in them are the nearest written part's (the step's)
    generated: dict[Path_, Any] = field(default_factory=dict)

    def get(self, path: Path_, default: Any = None) -> Any:
        node: Any = self.data
        path = tuple(path)
        for prefix, tree in self.generated.items():
            if path[:len(prefix)] == prefix:
                node, path = tree, path[len(prefix):]
                break
        for key in path:
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
                node = node[key]
            else:
                return default
        return node

    def pos(self, path: Path_) -> Position:
        return self.smap.value(tuple(path)) or Position(self.file, 1, 1)

    def key_pos(self, path: Path_) -> Position:
        return self.smap.key(tuple(path)) or self.pos(path)

    def locator(self, path: Path_):  # noqa: ANN201 - returns Locate
        path = tuple(path)

        def locate(offset: int) -> Position:
            return self.smap.in_scalar(path, offset) or self.pos(path)

        return locate
