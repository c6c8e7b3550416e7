"""Where the chunks of a sweep are decided: this process, local processes, a Dask cluster.

Every engine runs the same :func:`~pyramide.sweep.chunks.decide_chunk`; the
local pool and the cluster both appear as a ``concurrent.futures`` executor
(Dask's client offers one), so one loop (:func:`sweep`) feeds them both: it
keeps about two chunks per worker under way and hands back each chunk as it
finishes, in whatever order the workers finish them.

>>> scheduler_address("10.0.0.5:8786")
'tcp://10.0.0.5:8786'
>>> scheduler_address("tcp://[::1]:8786")
'tcp://[::1]:8786'
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING

from pyramide import __version__
from pyramide.solver import Budget
from pyramide.sweep.chunks import Chunk, decide_chunk

if TYPE_CHECKING:
    from distributed import Client

ADDRESS = re.compile(r"(?:tcp://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*)"
                     r":(?P<port>[0-9]{1,5})")
PER_WORKER = 2
"""Chunks under way per worker: one running, one waiting so that none idles."""
RECOUNT = 2.0
"""Seconds between two counts of a cluster's workers (they may come and go)."""


@dataclass
class Engine:
    """Where chunks run: ``executor`` (``None`` for this process) and its worker count."""

    where: str
    executor: Executor | None
    workers: Callable[[], int]

    def describe(self) -> str:
        count = self.workers()
        return f"{self.where}, {count} worker{'' if count == 1 else 's'}"


@contextmanager
def local_engine(jobs: int) -> Iterator[Engine]:
    """Chunks in this process (``jobs == 1``) or in a pool of ``jobs`` processes."""
    if jobs == 1:
        yield Engine("this process", None, lambda: 1)
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        yield Engine("local processes", pool, lambda: jobs)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def scheduler_address(address: str) -> str:
    """``tcp://HOST:PORT`` from ``tcp://HOST:PORT`` or ``HOST:PORT``; ``ValueError`` if neither."""
    match = ADDRESS.fullmatch(address.strip())
    if match is None or not 0 < int(match["port"]) < 65536:
        raise ValueError(f"malformed scheduler address {address!r}: expected tcp://HOST:PORT, "
                         "for example tcp://10.0.0.5:8786")
    return f"tcp://{match['host']}:{int(match['port'])}"


@contextmanager
def cluster_engine(address: str, timeout: float) -> Iterator[Engine]:
    """Chunks on the workers of the Dask scheduler at ``address``.

    Raises ``ValueError`` for a malformed or unreachable address, when a worker
    lacks this version of Pyramide, and when the scheduler goes away.
    """
    address = scheduler_address(address)
    if not timeout > 0:
        raise ValueError(f"--connect-timeout {timeout:g} must be a positive number of seconds")
    client = connect(address, timeout)
    executor = client.get_executor(pure=False)
    try:
        check_workers(client, address)
        yield Engine(f"Dask cluster {address}", executor, worker_counter(client))
    except CancelledError:
        raise ValueError(f"the Dask scheduler at {address} went away in the middle of the "
                         "sweep; the chunks already recorded with --results are kept, and the "
                         "same command goes on from there") from None
    finally:
        executor.shutdown(wait=False)
        client.close()


def connect(address: str, timeout: float) -> Client:
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--cluster needs Dask: pip install 'pyramide[cluster]'") from None
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                         f"({exc}); start it with `dask scheduler` and check the address")\
            from None


def check_workers(client: Client, address: str) -> None:
    """Raise ``ValueError`` unless every worker has this Pyramide version installed.

    A worker without Pyramide cannot even read a chunk's task (its budget is a
    Pyramide object), and Dask then restarts it over and over: better to say so
    before the sweep starts.  Workers that join later are not checked.
    """
    try:
        here = metadata.version("pyramide")
    except metadata.PackageNotFoundError:  # run from a source tree
        here = __version__
    try:
        versions: dict[str, str] = client.run(metadata.version, "pyramide")
    except metadata.PackageNotFoundError:
        versions = {"a worker": "none"}
    wrong = sorted(f"{worker} has {version}" for worker, version in versions.items()
                   if version != here)
    if wrong:
        raise ValueError(f"the workers of {address} need Pyramide {here} installed, as here "
                         f"(pip install 'pyramide[cluster]=={here}'): {'; '.join(wrong)}")


def worker_counter(client: Client) -> Callable[[], int]:
    """How many worker threads the cluster has, counted at most every :data:`RECOUNT` s."""
    last = [-RECOUNT, 0]

    def count() -> int:
        now = time.monotonic()
        if now - last[0] >= RECOUNT:
            last[:] = [now, sum(client.nthreads().values())]
        return int(last[1])

    return count


def sweep(engine: Engine, letter: str, chunks: Iterable[Chunk], budget: Budget,
          win_only: bool = False) -> Iterator[tuple[Chunk, str]]:
    """Decide ``chunks`` on ``engine``; yield each chunk with its verdicts as it finishes."""
    if engine.executor is None:
        for chunk in chunks:
            yield chunk, decide_chunk(letter, chunk.first, chunk.count, budget, win_only)
        return
    waiting = iter(chunks)
    running: dict[Future[str], Chunk] = {}
    while True:
        room = max(PER_WORKER, PER_WORKER * engine.workers()) - len(running)
        for chunk in (c for _, c in zip(range(room), waiting, strict=False)):
            future = engine.executor.submit(decide_chunk, letter, chunk.first, chunk.count,
                                            budget, win_only)
            running[future] = chunk
        if not running:
            return
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            yield running.pop(future), future.result()
