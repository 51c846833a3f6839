"""The optional Dask backend of ``trickbook simulate --backend dask`` (``pip install 'trickbook[dask]'``).

Each task is a chunk of games with its own seeds, so the summary is the same as on local processes; the
chunks are gathered in game order. Without ``--scheduler`` a local cluster of ``workers`` processes is
started; with it, the games go to that running Dask scheduler (its workers need trickbook installed).
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from interpreter.errors import TrickbookError
from interpreter.harness.runner import sigint_held, stop_with_sigint_held

CONNECT_TIMEOUT = 10  # seconds to wait for the Dask scheduler of --scheduler to answer


def on_dask(run: Callable[[Any], Any], tasks: list[Any], workers: int, scheduler: str | None, processes: bool,
            verbose: bool) -> Iterator[Any]:
    """``run(task)`` of every task on Dask, results in task order: a local cluster of ``workers`` processes (threads
    of this process without ``processes``), or the running ``scheduler`` given (its workers need Trickbook). The
    workers of a local cluster ignore Ctrl-C (this process stops them); Dask's log is silent unless ``verbose``."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise TrickbookError("the dask backend needs Dask: pip install 'trickbook[dask]'") from None
    with contextlib.ExitStack() as stack:
        if not verbose:
            stack.enter_context(_quiet("distributed"))
            stack.enter_context(warnings.catch_warnings())
            warnings.filterwarnings("ignore", module="distributed")  # e.g. its port 8787 taken by another cluster
        if scheduler is None:
            with sigint_held():  # the worker processes start with SIGINT held back, and keep it so
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                       dashboard_address=None, silence_logs=logging.WARNING if verbose else _SILENT)
                stack.callback(_quietly, cluster.close)
                client = Client(cluster)
                stack.callback(_quietly, client.close)
        else:
            client = _connect(Client, scheduler)
            stack.callback(_quietly, client.close)
        with sigint_held():  # a Ctrl-C inside making a future leaves one half made, whose clean-up prints a traceback
            futures = client.map(run, tasks, pure=False)
        for future in futures:
            yield future.result()


_SILENT = logging.CRITICAL + 1  # a log level above every message


def _connect(client: Any, address: str) -> Any:
    """A Dask client of the scheduler at ``address``, or one line saying why there is none (within
    CONNECT_TIMEOUT seconds)."""
    try:
        return client(address, timeout=CONNECT_TIMEOUT)
    except Exception as exc:  # noqa: BLE001 - whatever answered (or did not), it is no scheduler to use
        if isinstance(exc, OSError) and "timed out" in str(exc).lower():
            reason = f"no answer within {CONNECT_TIMEOUT} s"
        elif isinstance(exc, OSError):
            reason = exc.strerror or str(exc)
        elif isinstance(exc, ValueError):  # the address itself: an unknown scheme, no port
            reason = str(exc)
        else:
            reason = "what answered there is not a Dask scheduler"
        raise TrickbookError(f"cannot connect to the Dask scheduler {address}: {reason}") from None


@contextlib.contextmanager
def _quiet(name: str) -> Iterator[None]:
    """Nothing of logger ``name`` (and the loggers under it) is shown while the body runs."""
    logger = logging.getLogger(name)
    handlers = [h for h in logger.handlers if h.level < _SILENT]
    old = [h.level for h in handlers]
    level = logger.level
    for h in handlers:
        h.setLevel(_SILENT)
    logger.setLevel(_SILENT)
    try:
        yield
    finally:
        logger.setLevel(level)
        for h, lv in zip(handlers, old):
            h.setLevel(lv)


def _quietly(close: Callable[[], Any]) -> None:
    """Close a Dask client or cluster, a second Ctrl-C held back until it is closed; one that fails to close
    (after an interrupt) is left to the exit."""
    with contextlib.suppress(Exception):
        stop_with_sigint_held(close)
