"""Win-rate sweeps: a range of deals decided in chunks, here or on a Dask cluster.

One function decides a chunk (:func:`decide_chunk`); the engines only say where
it runs (:mod:`pyramide.sweep.engines`: this process, a pool of local
processes, or the workers of a Dask cluster), and a results file
(:mod:`pyramide.sweep.results`) records every finished chunk so that an
interrupted sweep goes on where it stopped.  See ``docs/scale.md``.
"""

from pyramide.sweep.chunks import Chunk, Tally, decide_chunk, plan_chunks, verdict_of
from pyramide.sweep.engines import Engine, cluster_engine, local_engine, sweep
from pyramide.sweep.results import ResultsFile, SweepKey

__all__ = [
    "Chunk",
    "Engine",
    "ResultsFile",
    "SweepKey",
    "Tally",
    "cluster_engine",
    "decide_chunk",
    "local_engine",
    "plan_chunks",
    "sweep",
    "verdict_of",
]
