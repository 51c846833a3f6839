"""Where a command writes: standard output, --record and --report files (a write that fails is one line naming
the output), and standard error (a write that fails loses its text, and nothing more)."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from typing import Any

from interpreter.errors import TrickbookError

STDOUT = "standard output"


class OutputFailed(Exception):
    """Writing one of the command's outputs failed (not a TrickbookError, so that nothing on the way mistakes it
    for a problem of the game)."""

    def __init__(self, name: str, exc: OSError):
        super().__init__(f"cannot write {name}: {exc.strerror or exc}")
        self.name = name


class Output:
    """A stream the command writes to (standard output, --record, --report): a write that fails is
    :class:`OutputFailed` naming it; a closed pipe on standard output is left to ``main`` (quiet). A closed
    standard output (None in Python) fails at the first write: what the command prints would be lost."""

    def __init__(self, stream: Any, name: str):
        self._stream, self._name = stream, name

    def _guard(self, method: str, *args: Any) -> Any:
        try:
            if self._stream is None:
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            return getattr(self._stream, method)(*args)
        except OSError as exc:
            if isinstance(exc, BrokenPipeError) and self._name == STDOUT:
                raise
            raise OutputFailed(self._name, exc) from None

    def write(self, text: str) -> int:
        return self._guard("write", text) if text else 0

    def flush(self) -> None:
        if self._stream is not None:
            self._guard("flush")

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def close(self) -> None:
        self._guard("close")

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, ...: the stream's own
        return getattr(self._stream, name)


class ErrorOutput:
    """Standard error while a command runs: a write that fails (a full disk, a closed pipe, a closed stream)
    loses its text, as nothing else can be told where errors go; ``main`` still exits as it would have."""

    def __init__(self, stream: Any):
        self._stream = stream
        self.failed = False

    def _try(self, method: str, *args: Any) -> Any:
        try:
            if self._stream is None:
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            return getattr(self._stream, method)(*args)
        except (OSError, ValueError):  # ValueError: a closed file
            self.failed = True
            return None

    def write(self, text: str) -> int:
        self._try("write", text)
        return len(text)

    def flush(self) -> None:
        self._try("flush")

    def isatty(self) -> bool:
        return bool(self._try("isatty"))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def writing(path: str | None, what: str) -> Iterator[Any]:
    """The file ``path`` opened for writing while the body runs, or None without a path: a file that cannot be
    opened is refused before any game is played, not after; a write that fails (a full disk) is one line,
    ``cannot write PATH: reason``, also when it comes at the close. The file is an :class:`Output`, written as a
    text file is."""
    if not path:
        yield None
        return
    try:
        handle = Output(open(path, "w", encoding="utf-8"), path)  # noqa: SIM115 - closed below
    except OSError as exc:
        raise TrickbookError(f"cannot write the {what} to {path}: {exc.strerror or exc}") from None
    try:
        yield handle
    except BaseException:
        with contextlib.suppress(OutputFailed):  # the error on the way says more than a failed close
            handle.close()
        raise
    handle.close()
