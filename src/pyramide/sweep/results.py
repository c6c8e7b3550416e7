"""The results file of a sweep: every finished chunk, so that a rerun skips it.

JSON lines.  The first line names what the verdicts depend on (the rule set,
the search budget, the chunk size); each further line is one finished chunk::

    {"format": "pyramide winrate results", "version": 1, "rules": "N", "nodes": 20000, ...}
    {"first": 0, "count": 250, "verdicts": "++7++?+..."}

A chunk is written (and flushed) as soon as it is back, so an interrupted
sweep loses at most the chunks under way.  A line cut short by the
interruption is dropped when the file is opened again; any other damage is an
error, and the file is never rewritten.  While a sweep runs, its file is
locked: a second sweep on the same file is refused.
"""

from __future__ import annotations

import fcntl
import json
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path
from types import TracebackType
from typing import IO, Any, NamedTuple

from pyramide.sweep.chunks import Chunk, check_verdicts

FORMAT = "pyramide winrate results"
VERSION = 1


class SweepKey(NamedTuple):
    """What a chunk's verdicts depend on, besides its deals."""

    rules: str
    nodes: int | None
    seconds: float | None
    chunk: int
    win_only: bool = False

    def describe(self) -> str:
        return (f"rules {self.rules}, --nodes {self.nodes or 0}, --seconds {self.seconds or 0}, "
                f"--chunk {self.chunk}" + (", --win-only" if self.win_only else ""))


class ResultsFile:
    """An open results file: the chunks it holds, and more to record."""

    def __init__(self, path: Path, key: SweepKey, done: dict[Chunk, str], stream: IO[str]):
        self.path = path
        self.key = key
        self.done = done
        self._stream = stream

    @classmethod
    def open(cls, path: Path, rules: str, nodes: int | None, seconds: float | None,
             chunk: int | None, default_chunk: int, win_only: bool = False) -> ResultsFile:
        """Open (or start) ``path`` for a sweep; ``chunk=None`` takes the file's chunk size.

        Raises ``ValueError`` if the file cannot be used for this sweep.
        """
        try:
            stream = path.open("a+", encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"cannot open the results file {path}: {exc.strerror}") from exc
        try:
            lock(stream, path)
            stream.seek(0)
            key, done, good = read(path, stream)
            if key is None:  # a new file
                key = SweepKey(rules, nodes, seconds, chunk or default_chunk, win_only)
                stream.seek(0)
                stream.truncate()
                write_line(stream, head_record(key))
                return cls(path, key, {}, stream)
            wanted = SweepKey(rules, nodes, seconds, chunk or key.chunk, win_only)
            if wanted != key:
                raise ValueError(f"the results file {path} holds a sweep with {key.describe()}; "
                                 f"this one asks for {wanted.describe()}")
            stream.truncate(good)  # drops a line cut short by an interruption
            return cls(path, key, done, stream)
        except BaseException:
            stream.close()
            raise

    def record(self, chunk: Chunk, verdicts: str) -> None:
        write_line(self._stream, {"first": chunk.first, "count": chunk.count,
                                  "verdicts": verdicts})
        self.done[chunk] = verdicts

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def head_record(key: SweepKey) -> dict[str, Any]:
    """The first line of a results file holding a sweep with ``key``."""
    head = key._asdict()
    if not key.win_only:  # (files of full sweeps read as they always did)
        del head["win_only"]
    return {"format": FORMAT, "version": VERSION, **head}


def gather(parts: list[Path], *, locked: bool = True) -> tuple[SweepKey, dict[Chunk, str]]:
    """The key and the chunks of the results files ``parts`` (the processes of one sweep).

    With ``locked`` a part still in use by its running sweep is refused; without,
    it is read as it stands (its last line may be under way and is left out).
    Refused with ``ValueError`` when the parts hold sweeps with different keys or
    a chunk twice.
    """
    key: SweepKey | None = None
    chunks: dict[Chunk, str] = {}
    for path in parts:
        try:
            with path.open(encoding="utf-8") as stream:
                if locked:
                    lock(stream, path)
                part_key, done, _ = read(path, stream)
        except OSError as exc:
            raise ValueError(f"cannot read the results file {path}: {exc.strerror}") from exc
        if part_key is None:
            raise ValueError(f"the results file {path} is empty")
        if key is not None and part_key != key:
            raise ValueError(f"the results file {path} holds a sweep with "
                             f"{part_key.describe()}; {parts[0]} one with {key.describe()}")
        key = part_key
        for chunk, verdicts in done.items():
            if chunk in chunks:
                raise ValueError(f"deals {chunk.first}..{chunk.last} are in two of the files")
            chunks[chunk] = verdicts
    if key is None:
        raise ValueError("no results files given")
    for before, after in pairwise(sorted(chunks, key=lambda chunk: chunk.first)):
        if after.first <= before.last:
            raise ValueError(f"deal {after.first} is in two chunks "
                             f"({before.first}+{before.count} and {after.first}+{after.count})")
    return key, chunks


def spans(chunks: Iterable[Chunk]) -> list[Chunk]:
    """The runs of adjacent deals that ``chunks`` cover, in order.

    >>> spans([Chunk(250, 250), Chunk(0, 250), Chunk(1000, 10)])
    [Chunk(first=0, count=500), Chunk(first=1000, count=10)]
    """
    runs: list[Chunk] = []
    for chunk in sorted(chunks, key=lambda chunk: chunk.first):
        if runs and runs[-1].last + 1 == chunk.first:
            runs[-1] = Chunk(runs[-1].first, runs[-1].count + chunk.count)
        else:
            runs.append(chunk)
    return runs


def join(parts: list[Path], out: Path) -> tuple[SweepKey, Chunk]:
    """Write the chunks of the results files ``parts`` (the processes of one sweep)
    into the new file ``out``, in order; return their key and the range they cover.

    Refused with ``ValueError`` (and ``out`` not written) when the parts hold
    sweeps with different keys, a deal twice, or leave a gap, or ``out`` exists.
    """
    if out.exists():
        raise ValueError(f"{out} exists already: the joined file must be a new one")
    key, chunks = gather(parts)
    order = sorted(chunks, key=lambda chunk: chunk.first)
    runs = spans(order)
    if len(runs) > 1:
        raise ValueError(f"deals {runs[0].last + 1}..{runs[1].first - 1} "
                         "are in none of the files")
    with out.open("x", encoding="utf-8") as stream:
        write_line(stream, head_record(key))
        for chunk in order:
            write_line(stream, {"first": chunk.first, "count": chunk.count,
                                "verdicts": chunks[chunk]})
    if not order:
        return key, Chunk(0, 0)
    return key, Chunk(order[0].first, order[-1].last + 1 - order[0].first)


def lock(stream: IO[str], path: Path) -> None:
    try:
        fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError as exc:
        raise ValueError(f"the results file {path} is in use by another sweep") from exc


def write_line(stream: IO[str], record: dict[str, Any]) -> None:
    stream.write(json.dumps(record, separators=(", ", ": ")) + "\n")
    stream.flush()


def read(path: Path, stream: IO[str]) -> tuple[SweepKey | None, dict[Chunk, str], int]:
    """The key (``None`` for an empty file), the finished chunks, and the bytes read.

    Only whole lines count: a last line without its newline was cut short.
    """
    head = stream.readline()
    if not head.strip():
        return None, {}, 0
    try:
        record = json.loads(head) if head.endswith("\n") else {}
        if record.get("format") != FORMAT or record.get("version") != VERSION:
            raise ValueError
        key = SweepKey(str(record["rules"]), record["nodes"], record["seconds"],
                       int(record["chunk"]), record.get("win_only", False) is True)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ValueError(f"{path} is not a results file of pyramide winrate "
                         f"(version {VERSION})") from None
    done: dict[Chunk, str] = {}
    good = len(head.encode("utf-8"))
    for number, line in enumerate(stream, start=2):
        if not line.endswith("\n"):
            break
        try:
            record = json.loads(line)
            chunk = Chunk(int(record["first"]), int(record["count"]))
            verdicts = record["verdicts"]
            if not isinstance(verdicts, str):
                raise TypeError("verdicts must be a string")
            check_verdicts(chunk, verdicts)
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"the results file {path} is damaged at line {number}: {exc}; "
                             "move it away to start afresh") from None
        done[chunk] = verdicts
        good += len(line.encode("utf-8"))
    return key, done, good
