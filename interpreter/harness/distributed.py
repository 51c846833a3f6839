"""The optional Dask backend of ``trickbook simulate --backend dask`` (``pip install 'trickbook[dask]'``).

Each task is a chunk of games with its own seeds, so the summary is the same as on local processes; the
chunks are gathered in game order. Without ``--scheduler`` a local cluster of ``workers`` processes is
started; with it, the games go to that running Dask scheduler (its workers need trickbook installed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from interpreter.errors import TrickbookError


def dask_chunks(run: Callable[[Any], Any], tasks: list[Any], workers: int,
                scheduler: str | None = None, processes: bool = True) -> Iterator[Any]:
    """``run(task)`` for every task on Dask, results in task order (``processes=False``: threads of this
    process, Dask's local mode, as the tests use)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise TrickbookError("the dask backend needs Dask: pip install 'trickbook[dask]'") from None
    if scheduler is not None:
        client = Client(scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=max(workers, 1), threads_per_worker=1, processes=processes,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(run, tasks, pure=False)
        for future in futures:
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
