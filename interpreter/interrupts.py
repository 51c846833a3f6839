"""Ctrl-C in the ``trickbook`` program: one line, ``interrupted``, exit status 130, wherever it lands.

Python runs a signal handler wherever the main thread happens to be, and where that is decides what becomes
of an exception the handler raises. Each case below was found by the signals fuzzer (tests/fuzz.py) and has
a test that makes it happen every time (tests/test_cli.py, tests/test_simulate.py):

* while the command's modules load, the process ends at once with the line (``while_loading``): nothing has
  started that needs stopping, and an exception could come out changed (Python 3.11 wraps one raised while
  a class is made, in ``__set_name__``, in a RuntimeError);
* after that, the program's handler raises ``Interrupted`` once and ignores every later Ctrl-C, so a second
  one cannot break into the first one's unwinding (``interrupt_once``);
* an exception raised from or while handling an interrupt is that interrupt (``from_interrupt``);
* a handler that ran where Python cannot raise (a ``__del__``, a weakref callback, the garbage collector) is
  raised again a moment later (``interrupt_lost``, the program's ``sys.unraisablehook``);
* one that lands in a finalizer (``weakref.finalize``, multiprocessing's ``Finalize``) is raised once the
  finalizer has run: cut in half, a process pool's semaphore was unlinked but its resource tracker not told,
  which warned of a leaked semaphore after ``interrupted`` (``in_finalizer``);
* a program started with Ctrl-C ignored (a script's background job) keeps ignoring it, as Python does.

Worker processes ignore Ctrl-C and are stopped by the program (harness/runner.py: ``sigint_held``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from typing import Any, NoReturn


class Interrupted(KeyboardInterrupt):
    """Ctrl-C as the program raises it. A subclass, because CPython 3.11 to 3.13 note a KeyboardInterrupt of
    exactly that class that leaves code run from text (``exec`` of a string, as ``dataclasses`` does while a
    module loads) as if it had ended the program, even when it is caught: under ``python -m`` the process then
    died by SIGINT at exit (status -2) after it said ``interrupted`` and chose 130."""


def while_loading(signum: int, frame: Any) -> NoReturn:
    """Ctrl-C while the command's modules load: the same one line as later (exit 130), not their traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(Exception):
        sys.stderr.write("interrupted\n")
        sys.stderr.flush()
    os._exit(130)


def hold_while_loading() -> Any:
    """Set ``while_loading`` as the handler when Python's own is set (not when Ctrl-C is ignored); give the
    handler it replaced, or None."""
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            return signal.signal(signal.SIGINT, while_loading)
    except ValueError:  # loaded outside the main thread
        pass
    return None


def release(previous: Any) -> None:
    """Put back the handler ``hold_while_loading`` replaced (None: it replaced none)."""
    if previous is not None:
        signal.signal(signal.SIGINT, previous)


def interrupt_once(signum: int, frame: Any) -> None:
    """The program's Ctrl-C: Interrupted once, and any later Ctrl-C ignored, so that a second one cannot break
    into the first one's unwinding (a lock of the process pool half released: a RuntimeError traceback); in a
    finalizer, raised once it has run."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if in_finalizer(frame) and _raise_soon():
        return
    raise Interrupted


FINALIZERS = (("weakref", "finalize"), ("multiprocessing.util", "Finalize"))  # (module, class) whose calls finalize


def in_finalizer(frame: Any) -> bool:
    """Whether ``frame`` is inside a call of one of the FINALIZERS (looked up only in modules already loaded:
    the program does not load multiprocessing to ask)."""
    calls = set()
    for module, name in FINALIZERS:
        finalizer = getattr(sys.modules.get(module), name, None)
        if isinstance(finalizer, type):
            calls.add(finalizer.__call__.__code__)
    while frame is not None:
        if frame.f_code in calls:
            return True
        frame = frame.f_back
    return False


def _raise_soon() -> bool:
    """Raise Interrupted a moment from now, by a timer (false: no timers here, as on Windows)."""
    if not hasattr(signal, "setitimer"):  # pragma: no cover - Windows
        return False
    signal.signal(signal.SIGALRM, interrupt_once)
    signal.setitimer(signal.ITIMER_REAL, 0.001)
    return True


def interrupt_lost(unraisable: Any) -> None:
    """The program's ``sys.unraisablehook``: a Ctrl-C whose handler ran where Python cannot raise (printed as
    ignored, and lost, with every later one ignored) is raised again a moment later, by a timer, once this hook
    and the code it interrupted have returned (a signal sent now would be handled at once, in here)."""
    if isinstance(unraisable.exc_value, Interrupted) and _raise_soon():
        return
    sys.__unraisablehook__(unraisable)


def take_over() -> None:
    """The program's handlers, from the start of its command, unless it was started with Ctrl-C ignored."""
    if signal.getsignal(signal.SIGINT) in (signal.default_int_handler, while_loading):
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGINT, interrupt_once)
        sys.unraisablehook = interrupt_lost


def from_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` stands for a Ctrl-C: raised from one (Python 3.11 wraps an exception raised while a class
    is made, in ``__set_name__``, e.g. a dataclass field as a module loads, in a RuntimeError whose cause it is)
    or while one was being handled (a Ctrl-C inside ``threading.Condition.wait`` before it took its lock back:
    leaving the ``with`` then says "release unlocked lock")."""
    seen: set[int] = set()
    todo = [exc.__cause__, exc.__context__]
    while todo:
        other = todo.pop()
        if other is None or id(other) in seen:
            continue
        if isinstance(other, KeyboardInterrupt):
            return True
        seen.add(id(other))
        todo += [other.__cause__, other.__context__]
    return False


@contextlib.contextmanager
def sigint_ignored(restore: bool) -> Iterator[None]:
    """Ctrl-C ignored while the body runs; without ``restore`` for good (the program is ending: a Ctrl-C while
    Python shuts down would kill it by the signal, exit status -2, after it said ``interrupted``)."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: it gets no SIGINT anyway
        yield
        return
    try:
        yield
    finally:
        if restore and old is not None:  # None: a handler not set from Python, left as it is now
            signal.signal(signal.SIGINT, old)


def ignore_from_now() -> None:
    """The program ends with its command: a Ctrl-C now would only kill Python's shutdown."""
    with contextlib.suppress(ValueError):
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def the_program(module: str) -> bool:
    """Whether the module named ``module`` is loaded to run the trickbook command (``python -m
    interpreter.cli``, ``python -m interpreter``, or the ``trickbook`` script pip makes), not imported by a
    program of its own."""
    if module == "__main__":
        return True
    entry = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    if os.path.abspath(entry) == os.path.join(os.path.dirname(os.path.abspath(__file__)), "__main__.py"):
        return True
    return os.path.splitext(os.path.basename(entry))[0] == "trickbook"
