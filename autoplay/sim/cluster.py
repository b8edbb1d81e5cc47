"""Simulated games on a Dask distributed cluster.

A run is cut into batches of consecutive game indices; each batch is one Dask task that calls the same
:func:`autoplay.sim.runner.play_game` the local runner calls. Game *i* depends only on ``(seed, i)``, so the
games — and so the wins, guesses and every decision — are the same whatever the cluster, the number of workers
or the order in which batches finish. Dask re-runs the batch of a worker that dies (up to the scheduler's
``allowed-failures``), so a lost worker costs only its batch.

``dask.distributed`` is an optional dependency (``pip install "autoplay[cluster]"``); it is imported only when a
scheduler is asked for.

Example (a local cluster of two worker processes)::

    >>> from autoplay.sim.runner import GameSpec
    >>> spec = GameSpec(9, 9, 10)
    >>> results = list(run_games_on_cluster(spec, games=20, seed=1, scheduler="local", workers=2))  # doctest: +SKIP
    >>> len(results)  # doctest: +SKIP
    20
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Generator, Iterator
from types import ModuleType
from typing import TYPE_CHECKING

from autoplay.errors import AutoplayError, UsageError
from autoplay.sim.runner import GameResult, GameSpec, play_chunk

if TYPE_CHECKING:
    from distributed import Client

#: Games per Dask task: large enough that scheduling (a few ms per task) is noise next to the games,
#: small enough that progress streams back and a dead worker loses little.
DEFAULT_BATCH = 25

#: How long to wait for a remote scheduler to answer before giving up with one line.
CONNECT_TIMEOUT_S = 10.0


class ClusterError(AutoplayError):
    """The Dask scheduler could not be reached or the run could not be finished on it (exit code 1)."""

    exit_code = 1


def _import_distributed() -> ModuleType:
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            'running on a Dask cluster needs dask.distributed: pip install "autoplay[cluster]"'
        ) from None
    return distributed


@contextlib.contextmanager
def connect(scheduler: str, workers: int) -> Iterator[Client]:
    """A client of ``scheduler`` (``tcp://host:port``, ``host:port`` or ``local``), closed on exit.

    ``local`` starts a :class:`distributed.LocalCluster` of ``workers`` single-threaded processes (the solver is
    pure Python: threads would share one interpreter lock) and shuts it down afterwards.
    """
    distributed = _import_distributed()
    if scheduler == "local":
        if workers < 1:
            raise UsageError("--jobs must be at least 1 with --scheduler local")
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # workers' notes on cancelled batches are not the user's business
        )
        try:
            with distributed.Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    if not scheduler or any(ch.isspace() for ch in scheduler):
        raise UsageError(f"--scheduler {scheduler!r}: give an address such as tcp://host:8786, or 'local'")
    address = scheduler if "://" in scheduler else f"tcp://{scheduler}"
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    with client:
        yield client


def batches(games: int, batch: int) -> list[list[int]]:
    """Game indices ``0 … games-1`` cut into consecutive batches of at most ``batch``.

    >>> batches(7, 3)
    [[0, 1, 2], [3, 4, 5], [6]]
    """
    if batch < 1:
        raise UsageError("the batch size must be at least 1")
    return [list(range(start, min(start + batch, games))) for start in range(0, games, batch)]


def run_games_on_cluster(
    spec: GameSpec,
    games: int,
    seed: int,
    scheduler: str,
    workers: int = 2,
    batch: int = DEFAULT_BATCH,
    on_connect: Callable[[str], None] | None = None,
    layouts: list[tuple[int, ...]] | None = None,
) -> Generator[GameResult, None, None]:
    """Yield every game's result as its batch finishes on the cluster (in no particular order).

    ``on_connect`` is told the dashboard or scheduler address once connected, so a long run can say where
    it runs. With ``layouts``, game ``i`` plays ``layouts[i]`` as in :func:`autoplay.sim.runner.run_games`.
    Stopping the iteration (or Ctrl-C) cancels the batches still queued.
    """
    distributed = _import_distributed()
    with connect(scheduler, workers) as client:
        if on_connect is not None:
            on_connect(str(client.scheduler_info().get("address", scheduler)))
        futures = [
            client.submit(
                play_chunk,
                (spec, seed, indices, None if layouts is None else [layouts[i] for i in indices]),
                pure=False,
            )
            for indices in batches(games, batch)
        ]
        try:
            for future in distributed.as_completed(futures):
                try:
                    results = future.result()
                except distributed.client.FutureCancelledError:
                    raise ClusterError("the cluster cancelled a batch of games (scheduler restarted?)") from None
                except distributed.KilledWorker as exc:
                    raise ClusterError(f"a batch of games killed its workers too often: {exc}") from None
                yield from results
        finally:
            client.cancel([f for f in futures if not f.done()])
