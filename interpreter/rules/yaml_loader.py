"""Safe YAML loading that remembers where every key and value came from.

Rule files are untrusted. This loader accepts a deliberately small YAML:
no anchors or aliases (no memory bombs), no duplicate keys, no custom tags,
only ``true``/``false`` as booleans (``no`` stays a string), no timestamps,
short keys, and limits on the size and on the number of YAML nodes (counted on
the parser's events, before any node is built). The result is plain Python data
plus a :class:`SourceMap` from paths (tuples of keys and indices) to positions
in the file.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from interpreter.errors import Position, YamlError
from interpreter.limits import MAX_DIGITS, MAX_KEY_CHARS, MAX_YAML_NODES

MAX_BYTES = 1_000_000
MAX_DEPTH = 64
_SCAN_DEPTH = 2 * MAX_DEPTH

Path_ = tuple[Any, ...]


class _StrictResolver(yaml.resolver.BaseResolver):
    """YAML 1.2-ish scalars: only true/false are booleans, no timestamps."""


_EXPLICIT: dict[str, re.Pattern[str]] = {}  # what an explicitly tagged !!bool, !!int, !!null may hold
for _tag, _regexp, _first in (
    ("tag:yaml.org,2002:bool", r"^(?:true|false)$", "tf"),
    ("tag:yaml.org,2002:int", r"^[-+]?[0-9]+$", "-+0123456789"),
    ("tag:yaml.org,2002:null", r"^(?:null|~|)$", ["n", "~", ""]),
):
    _StrictResolver.add_implicit_resolver(_tag, re.compile(_regexp), list(_first))
    _EXPLICIT[_tag] = re.compile(_regexp)


class _Loader(
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    yaml.composer.Composer,
    _StrictResolver,
):
    def __init__(self, stream: str):
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _StrictResolver.__init__(self)

    # PyYAML's scanner does work proportional to the flow depth for every token, so a
    # file of a million '[' would take hours: give up early on absurd nesting. Nesting
    # within _SCAN_DEPTH gets the precise MAX_DEPTH error from _convert.
    def fetch_flow_collection_start(self, TokenClass: Any) -> None:  # noqa: N803 - PyYAML's name
        if self.flow_level >= _SCAN_DEPTH:
            raise _TooDeep(self.get_mark())
        super().fetch_flow_collection_start(TokenClass)

    def add_indent(self, column: int) -> bool:
        if len(self.indents) >= _SCAN_DEPTH:
            raise _TooDeep(self.get_mark())
        return super().add_indent(column)


try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML without libyaml: the pure-Python parser reads every file
    _FastLoader = None
else:
    class _FastLoader(CParser, _StrictResolver):  # type: ignore[no-redef]  # None above when libyaml is missing
        """libyaml's parser with the strict scalars; errors are left to _Loader to word."""

        def __init__(self, stream: str):
            CParser.__init__(self, stream)
            _StrictResolver.__init__(self)


class _TooDeep(Exception):
    def __init__(self, mark: Any):
        super().__init__("too deep")
        self.mark = mark


class _OverLimit(YamlError):
    """A file past a limit counted on the parser's events: libyaml's position is as good as the Python
    parser's, so the file is not read again to word it."""


class Span(Protocol):
    """Where a scalar's text was written: each offset of its value to a line:col (a ScalarSpan, or the pieces of a
    template's text and a use's arguments: interpreter/rules/templates.py)."""

    @property
    def style(self) -> str | None: ...

    def at(self, offset: int) -> Position: ...


@dataclass(frozen=True)
class ScalarSpan:
    """Where a scalar's text sits, so an offset inside it maps to line:col."""

    start: Position
    style: str | None  # None plain, "'" or '"' quoted, "|" or ">" block
    # block scalars: the lines after the indicator; flow scalars over several lines: their lines; else ()
    text_lines: tuple[str, ...] = ()

    def at(self, offset: int) -> Position:
        """Position of character ``offset`` of the scalar's value.

        Exact for plain and quoted scalars on one line, for plain and quoted scalars
        folded over several lines (each line break reads as one space) and for
        ``|`` blocks; escapes in double quotes and blank lines in folded text can
        shift it. An offset past the end points just after the last character.
        """
        s = self.start
        if self.style in ("|", ">"):
            if not self.text_lines:
                return s
            return self._walk(offset, self._block_segments())
        shift = 1 if self.style else 0
        if not self.text_lines:
            return Position(s.file, s.line, s.column + shift + offset)
        first = s.column - 1 + shift  # 0-based column of the value's first character
        segments = [(s.line, first, self.text_lines[0][first:].rstrip())]
        for k, raw in enumerate(self.text_lines[1:], start=1):
            text = raw.strip()
            if text:  # a blank line replaces the line break before it
                segments.append((s.line + k, len(raw) - len(raw.lstrip()), text))
        return self._walk(offset, segments)

    def _block_segments(self) -> list[tuple[int, int, str]]:
        indent = next((len(r) - len(r.lstrip(" ")) for r in self.text_lines if r.strip()), 0)
        segments = []
        for k, raw in enumerate(self.text_lines):
            if raw.strip() and len(raw) - len(raw.lstrip(" ")) < indent:
                break  # the block is over (the next key)
            if raw.strip() or self.style == "|":  # '>' folds a blank line into the break before it
                segments.append((self.start.line + 1 + k, indent, raw[indent:]))
        while segments and not segments[-1][2].strip():
            segments.pop()  # trailing blank lines
        return segments

    def _walk(self, offset: int, segments: list[tuple[int, int, str]]) -> Position:
        file = self.start.file
        consumed = 0
        end = self.start
        for line, col0, text in segments:
            if offset <= consumed + len(text):
                return Position(file, line, col0 + 1 + offset - consumed)
            consumed += len(text) + 1  # the line break
            if text:
                end = Position(file, line, col0 + 1 + len(text))
        return end


@dataclass
class SourceMap:
    """Positions of keys and values, by path into the loaded data."""

    values: dict[Path_, Position] = field(default_factory=dict)
    keys: dict[Path_, Position] = field(default_factory=dict)
    scalars: dict[Path_, Span] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)
    # the files merged by extends, the one asked for first and the file it extends (and so on) after it
    chain: tuple[str, ...] = ()
    # keys a file that extends another removed (``key: null``): where it did, for an error that misses them
    removed: dict[Path_, Position] = field(default_factory=dict)
    # the values of the file extended that a file extending it replaced (a value, a list), by path
    replaced: dict[Path_, Any] = field(default_factory=dict)
    # the name a variant that names none was given from its file's name (``loader.file_name``), else None
    named: str | None = None

    def style(self, path: Path_) -> str | None:
        """The YAML style of the scalar at ``path``: None when plain (unquoted) or not a scalar, else its quote or
        block indicator."""
        span = self.scalars.get(tuple(path))
        return span.style if span is not None else None

    def derived(self, a: str, b: str) -> bool:
        """Whether file ``a`` extends file ``b`` (directly or through others): its values replace ``b``'s."""
        chain = self.chain
        return a in chain and b in chain and chain.index(a) < chain.index(b)

    def value(self, path: Path_) -> Position | None:
        """Position of the value at ``path``, or of its nearest ancestor."""
        return _nearest(self.values, path)

    def key(self, path: Path_) -> Position | None:
        """Position of the key naming ``path`` (falls back to its value)."""
        return self.keys.get(tuple(path)) or self.value(path)

    def in_scalar(self, path: Path_, offset: int) -> Position | None:
        span = self.scalars.get(tuple(path))
        return span.at(offset) if span else self.value(path)

    def drop_under(self, path: Path_) -> None:
        """Forget every position at or below ``path`` (it was overridden)."""
        n = len(path)
        for table in (self.values, self.keys, self.scalars):
            for p in [p for p in table if p[:n] == path]:
                del table[p]

    def update(self, other: SourceMap) -> None:
        self.values.update(other.values)
        self.keys.update(other.keys)
        self.scalars.update(other.scalars)
        self.files |= other.files


def _nearest(table: dict[Path_, Position], path: Path_) -> Position | None:
    path = tuple(path)
    while True:
        if path in table:
            return table[path]
        if not path:
            return None
        path = path[:-1]


def _pos(file: str, mark: Any) -> Position:
    return Position(file, mark.line + 1, mark.column + 1)


def load_yaml(path: str | Path) -> tuple[Any, SourceMap]:
    """Load a rule file safely; raise :class:`YamlError` with a position."""
    file = str(path)
    try:
        size = os.stat(path).st_size
        if not Path(path).is_file():
            raise YamlError("not a regular file", Position(file, 1, 1), "")
        if size > MAX_BYTES:  # refused before reading: a huge file costs nothing
            raise YamlError(f"file is {size} bytes, more than the limit of {MAX_BYTES}", Position(file, 1, 1), "")
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise YamlError(f"cannot read file: {exc.strerror or exc}", Position(file, 1, 1), "") from None
    if len(raw) > MAX_BYTES:  # it grew while we looked
        raise YamlError(f"file is more than the limit of {MAX_BYTES} bytes", Position(file, 1, 1), "")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlError(f"file is not UTF-8 ({exc.reason} at byte {exc.start})", Position(file, 1, 1), "") from None
    return load_yaml_text(text, file)


def load_yaml_text(text: str, file: str = "<string>") -> tuple[Any, SourceMap]:
    """Like :func:`load_yaml`, for text already in memory.

    libyaml (PyYAML's C parser) reads the file when it is installed, about ten times faster; a file it
    finds anything wrong with is read again by the pure-Python parser, which words every error.
    """
    if _FastLoader is not None:
        try:
            return _load(text, file, _FastLoader)
        except _OverLimit:
            raise
        except (YamlError, _TooDeep, yaml.YAMLError, RecursionError, ValueError):
            pass  # reported below, in the words and at the place of the position-tracking parser
    return _load(text, file, _Loader)


def _load(text: str, file: str, loader_class: Any) -> tuple[Any, SourceMap]:
    lines = text.splitlines()

    def err(message: str, mark: Any, kind: type[YamlError] = YamlError) -> YamlError:
        pos = _pos(file, mark) if mark is not None else Position(file, 1, 1)
        line = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
        return kind(message, pos, line)

    loader = None
    try:
        loader = loader_class(text)  # checks every character first
        _check_events(loader, err)
        loader.dispose()
        loader = loader_class(text)
        node = loader.get_single_node()
    except _TooDeep as exc:
        raise err(f"nesting deeper than {MAX_DEPTH} levels", exc.mark) from None
    except yaml.reader.ReaderError as exc:
        start = text.rfind("\n", 0, exc.position) + 1
        # no buffer, so no snippet: the pointer into it is never read
        mark: yaml.Mark | None = yaml.Mark(file, exc.position, text.count("\n", 0, exc.position), exc.position - start,
                                           None, 0)
        raise err(f"invalid YAML: character #x{exc.character:04x} is not allowed", mark) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        msg = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem and exc.problem.startswith("but "):
            msg = f"{exc.context}, {exc.problem}"  # e.g. expected a single document in the stream, but found another
        raise err(f"invalid YAML: {msg}", mark) from None
    except yaml.YAMLError as exc:
        raise err(f"invalid YAML: {exc}", None) from None
    except RecursionError:
        raise err("invalid YAML: nesting is too deep", None) from None
    finally:
        if loader is not None:
            loader.dispose()
    smap = SourceMap(files={file}, chain=(file,))
    if node is None:
        return None, smap
    data = _convert(node, (), smap, file, lines, err, 0)
    return data, smap


def _check_events(loader: Any, err: Any) -> None:
    """Refuse aliases, anchors, absurd nesting and too many nodes, before any node is built."""
    depth = 0
    nodes = 0
    while loader.check_event():
        event = loader.get_event()
        if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            nodes += 1
            if nodes > MAX_YAML_NODES:  # the rest of the file is not read: building it would cost more
                raise err(f"more than {MAX_YAML_NODES:,} YAML nodes (keys, values and list items); a rule file "
                          f"has at most {MAX_YAML_NODES:,}", event.start_mark, _OverLimit)
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > _SCAN_DEPTH:  # libyaml would build nodes for all of it, slowly: stop here
                raise _TooDeep(event.start_mark)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
        if isinstance(event, yaml.AliasEvent):
            raise err("YAML aliases (*name) are not allowed in rule files", event.start_mark)
        if getattr(event, "anchor", None) is not None:
            raise err("YAML anchors (&name) are not allowed in rule files", event.start_mark)


def _convert(node: Node, path: Path_, smap: SourceMap, file: str, lines: list[str], err: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise err(f"nesting deeper than {MAX_DEPTH} levels", node.start_mark)
    smap.values[path] = _pos(file, node.start_mark)
    if isinstance(node, ScalarNode):
        return _scalar(node, path, smap, file, lines, err)
    if isinstance(node, SequenceNode):
        if node.tag != "tag:yaml.org,2002:seq":
            raise err(f"YAML tag {node.tag} is not allowed in rule files", node.start_mark)
        return [_convert(item, path + (i,), smap, file, lines, err, depth + 1) for i, item in enumerate(node.value)]
    if isinstance(node, MappingNode):
        if node.tag != "tag:yaml.org,2002:map":
            raise err(f"YAML tag {node.tag} is not allowed in rule files", node.start_mark)
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise err("mapping keys must be plain scalars", key_node.start_mark)
            key = _scalar(key_node, None, smap, file, lines, err)
            if isinstance(key, bool) or key is None:
                raise err(f"mapping key {key_node.value!r} must be a name or a number", key_node.start_mark)
            if isinstance(key, str) and len(key) > MAX_KEY_CHARS:  # names; the schema's patterns are not all linear
                raise err(f"a key of {len(key):,} characters; keys in rule files have at most {MAX_KEY_CHARS}",
                          key_node.start_mark)
            if key in result:
                raise err(f"duplicate key {key!r}", key_node.start_mark)
            smap.keys[path + (key,)] = _pos(file, key_node.start_mark)
            result[key] = _convert(value_node, path + (key,), smap, file, lines, err, depth + 1)
        return result
    raise err("unsupported YAML node", node.start_mark)  # pragma: no cover


def _scalar(node: ScalarNode, path: Path_ | None, smap: SourceMap, file: str, lines: list[str], err: Any) -> Any:
    tag = node.tag
    value = node.value
    if path is not None:
        start = _pos(file, node.start_mark)
        block: tuple[str, ...] = ()
        if node.style in ("|", ">"):
            block = tuple(lines[node.start_mark.line + 1 : node.end_mark.line + 1])
        elif node.end_mark.line > node.start_mark.line:
            block = tuple(lines[node.start_mark.line : node.end_mark.line + 1])
        smap.scalars[path] = ScalarSpan(start, node.style or None, block)  # libyaml says "" for plain
    explicit = _EXPLICIT.get(tag)
    if explicit is not None and not explicit.match(value):
        raise err(f"{value!r} is not a valid {tag.rsplit(':', 1)[-1]} value", node.start_mark)
    if tag == "tag:yaml.org,2002:bool":
        return value == "true"
    if tag == "tag:yaml.org,2002:int":
        digits = value.lstrip("+-").replace("_", "")
        if len(digits) > MAX_DIGITS:
            raise err(f"a number of {len(digits)} digits; numbers in rule files have at most {MAX_DIGITS}",
                      node.start_mark)
        return int(value)
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag in ("tag:yaml.org,2002:str", "!"):
        lone = _SURROGATE.search(value)
        if lone is not None:  # only an escape in double quotes makes one: the file itself is read as UTF-8
            raise err(f"'\\u{ord(lone.group()):04x}' is half of a UTF-16 pair (a lone surrogate), not a character: "
                      "text in a rule file must be Unicode characters (write the character itself, or '\\U' and "
                      "its eight hex digits)", node.start_mark)
        return value
    raise err(f"YAML tag {tag} is not allowed in rule files", node.start_mark)


_SURROGATE = re.compile("[\ud800-\udfff]")
