"""The ``trickbook`` command: validate, list, explain, schema, play, simulate, compare, replay, conformance, serve
(each in interpreter/commands/).

Exit codes: 0 success, 1 a problem with the input (rule file, record, game) or an output that cannot be
written, 2 a usage error (bad command line), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import gc
import sys
from typing import Any

from interpreter import interrupts

_loading = interrupts.hold_while_loading()  # until this module is loaded (see its last lines)
try:
    import argparse
    import os
    import re
    from collections.abc import Callable

    from interpreter.commands.arguments import parser as _parser
    from interpreter.commands.common import UsageError
    from interpreter.commands.conformance import conformance
    from interpreter.commands.output import STDOUT, ErrorOutput, Output, OutputFailed
    from interpreter.commands.play import play, replay
    from interpreter.commands.rule_files import explain, list_games, schema, validate, validate_file, validate_warnings
    from interpreter.commands.serve import serve
    from interpreter.commands.simulate import compare, simulate
    from interpreter.errors import RuleError, RuleErrors, TrickbookError
except BaseException:
    interrupts.release(_loading)
    raise

# the harness (agents, records, simulation, conformance) is imported by the commands that use it, so that
# `validate` and `list` start without it

__all__ = ["main", "validate_file", "validate_warnings"]

_POSITIONED = re.compile(r"^\S+:\d+:\d+: error: ")

_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "validate": validate, "list": list_games, "play": play, "simulate": simulate, "replay": replay,
    "conformance": conformance, "schema": schema, "compare": compare, "explain": explain, "serve": serve}


def main(argv: list[str] | None = None) -> int:
    stdout, stderr = sys.stdout, sys.stderr
    errors = ErrorOutput(stderr)
    try:
        if argv is None:  # the trickbook program (not a call from Python, whose Ctrl-C is its own)
            interrupts.take_over()
        sys.stdout = Output(stdout, STDOUT)  # a failed write names standard output
        sys.stderr = errors
        code = _run(_parser().parse_args(argv), program=argv is None)
        sys.stdout.flush()  # what is left in the buffer: a failure now is reported, not at Python's exit
        return code
    except OutputFailed as exc:
        print(f"trickbook: error: {exc}", file=sys.stderr)
        if exc.name == STDOUT:
            _discard(stdout)
        return 1
    except BrokenPipeError:  # standard output read no further (e.g. piped into head): stop quietly
        _discard(stdout)
        return 0
    except KeyboardInterrupt:  # before or after the command (a command's own ends in _run)
        with interrupts.sigint_ignored(restore=argv is not None):
            print("interrupted", file=sys.stderr)
        return 130
    finally:
        errors.flush()
        if errors.failed:
            _discard(stderr)
        sys.stdout, sys.stderr = stdout, stderr
        if argv is None:
            interrupts.ignore_from_now()
            gc.freeze()  # the program ends: no last collection of every object (tenths of a second in a large process)


def _discard(stream: Any) -> None:
    """Send what is still buffered for ``stream`` (and anything later) nowhere, so that Python's own flush at exit
    finds nothing to complain about."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _run(args: argparse.Namespace, program: bool = False) -> int:
    """Run the command; ``program``: this process is the ``trickbook`` program (it ends when the command does)."""
    try:
        return _COMMANDS[args.command](args)
    except UsageError as exc:
        print(f"trickbook: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except RuleErrors as exc:
        for e in exc.errors:
            print(e.render(), file=sys.stderr)
        return 1
    except RuleError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except TrickbookError as exc:
        text = str(exc)
        print(text if _POSITIONED.match(text) else f"trickbook: error: {text}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # one line: the worker processes ignore SIGINT and are stopped by this one
        return _interrupted(restore=not program)
    except Exception as exc:  # raised while a Ctrl-C was being raised or handled: still that Ctrl-C
        if not interrupts.from_interrupt(exc):
            raise
        return _interrupted(restore=not program)


def _interrupted(restore: bool) -> int:
    with interrupts.sigint_ignored(restore):  # a second Ctrl-C now: the same line, not a traceback
        print(("\n" if sys.stderr.isatty() else "") + "interrupted", file=sys.stderr)
    return 130


if not interrupts.the_program(__name__):  # loaded by another program: Python's own handler again (the
    interrupts.release(_loading)  # command keeps the loading one until main() takes over)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
