"""One error hierarchy for everything Trickbook reports.

Every problem in a rule file is a :class:`RuleError` carrying file, line and
column, so the CLI can print ``FILE:LINE:COL: error: MESSAGE`` followed by the
source line and a caret, and never a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


class TrickbookError(Exception):
    """Root of every error Trickbook raises on purpose."""


_SHOWN: dict[str, str] = {}  # a file's path -> the name errors give it instead (a bundled game's file)


def show_file_as(path: str, name: str) -> None:
    """Positions in the file at ``path`` are shown as ``name``: a bundled game's file is named by the game's name,
    never by its path in the installation (its lines are still read from ``path``)."""
    _SHOWN[path] = name


@dataclass(frozen=True)
class Position:
    """A place in a source file: 1-based line and column."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{_SHOWN.get(self.file, self.file)}:{self.line}:{self.column}"


class RuleError(TrickbookError):
    """A mistake in a rule file, tied to a position in that file."""

    severity = "error"  # how render names it

    def __init__(self, message: str, position: Position | None = None, source_line: str | None = None):
        super().__init__(message)
        self.message = message
        self.position = position
        self.source_line = source_line

    def render(self) -> str:
        """The full block: ``FILE:LINE:COL: error: MESSAGE``, source line, caret."""
        if self.position is None:
            return f"{self.severity}: {self.message}"
        head = f"{self.position}: {self.severity}: {self.message}"
        line = self.source_line
        if line is None:
            line = read_source_line(self.position.file, self.position.line)
        if not line or not line.strip():  # nothing worth pointing at (a file too big to read, an empty line)
            return head
        line, column = _window(line.rstrip(), max(self.position.column - 1, 0))
        return f"{head}\n    {line}\n    {' ' * column}^"

    def __str__(self) -> str:
        return self.render()


class RuleWarning(RuleError):
    """Something in a rule file that works but is likely not what its author meant (a public value that shows a
    hidden card): told as ``FILE:LINE:COL: warning: MESSAGE`` like an error, never raised; ``validate`` passes a
    file with warnings unless told ``--strict``."""

    severity = "warning"


class RuleErrors(TrickbookError):
    """Several rule errors found in one pass (e.g. all schema violations)."""

    def __init__(self, errors: list[RuleError]):
        super().__init__(f"{len(errors)} error(s)")
        self.errors = errors

    def __str__(self) -> str:
        return "\n".join(e.render() for e in self.errors)


def in_file_order(errors: Iterable[RuleError]) -> list[RuleError]:
    """``errors`` sorted by their place in the files, the same mistake (place and message) once."""
    found: list[RuleError] = []
    seen: set[tuple[str, str]] = set()
    for error in errors:
        key = (str(error.position), error.message)
        if key not in seen:
            seen.add(key)
            found.append(error)
    found.sort(key=lambda e: (e.position.file, e.position.line, e.position.column) if e.position else ("", 0, 0))
    return found


class YamlError(RuleError):
    """The file is not acceptable YAML (syntax, alias, duplicate key, size)."""


class SchemaError(RuleError):
    """The file does not match ``schema/game.schema.json``."""


class ExpressionError(RuleError):
    """A DSL expression has a syntax error, an unknown name or a type mistake."""


class DealFileError(RuleError):
    """A deal file (PBN) that cannot be read, or whose deal does not fit the game's deck."""


class GameError(TrickbookError):
    """A problem while playing: illegal action, bad option, runaway game."""


class IllegalAction(GameError):
    """An action that is not legal now; the state is left unchanged."""


class AgentError(GameError):
    """An agent of one's own (harness/remote.py) that failed: it did not answer in time, wrote what is not the
    protocol, ended, raised, or answered an action that is not legal. The message names the agent and its seat."""


class RecordError(TrickbookError):
    """A game record that is malformed or does not replay as written."""


class UnknownGame(TrickbookError):
    """A game named on the command line is neither a file nor bundled."""


SHOWN = 100  # the most characters of a source line an error shows


def _window(line: str, column: int) -> tuple[str, int]:
    """At most SHOWN characters of ``line`` around ``column`` (cut ends marked ...), and the column in them."""
    if len(line) <= SHOWN:
        return line, column
    start = min(max(column - SHOWN // 2, 0), len(line) - SHOWN)
    shown = line[start:start + SHOWN]
    if start > 0:
        shown, column = "..." + shown, column + 3
    if start + SHOWN < len(line):
        shown += "..."
    return shown, column - start


def read_source_line(file: str, line: int) -> str | None:
    """The 1-based ``line`` of ``file``, or None when it cannot be read (a file is read once for all its errors)."""
    try:
        stat = Path(file).stat()
        lines = _lines(file, stat.st_mtime_ns, stat.st_size)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


@functools.lru_cache(maxsize=8)
def _lines(file: str, _mtime: int, _size: int) -> tuple[str, ...]:
    return tuple(Path(file).read_text(encoding="utf-8").splitlines())
