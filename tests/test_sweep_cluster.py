"""``pyramide winrate --cluster``: the same sweep on a real Dask cluster.

A ``LocalCluster`` of two worker processes serves most tests; one test starts
``dask scheduler`` and ``dask worker`` as separate programs and runs
``pyramide winrate`` as a user would.
"""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client, LocalCluster
from rich.console import Console

from pyramide import __version__
from pyramide.cli import main
from pyramide.commands.winrate import solve_range
from pyramide.rules import PRESETS, rules_for
from pyramide.solver import Budget
from pyramide.sweep import cluster_engine, local_engine, plan_chunks
from pyramide.sweep import sweep as run_sweep
from tests.test_sweep import load_verdicts

DASK = Path(sys.executable).with_name("dask")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    # ":0": the scheduler's web pages on a free port (None still takes 8787, and a
    # second cluster beside this one then warns that the port is in use)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as local:
        yield local.scheduler_address


def sweep(capsys: pytest.CaptureFixture[str], results: Path, *argv: str) -> dict[str, object]:
    assert main(["winrate", "--json", "--quiet", "--results", str(results), *argv]) == 0
    figures: dict[str, object] = json.loads(capsys.readouterr().out)
    return figures


def same_counts(a: dict[str, object], b: dict[str, object]) -> bool:
    keys = ("deals", "won", "lost", "unknown", "unknown_examples", "lost_max_removed", "ci95")
    return all(a[k] == b[k] for k in keys)


def load_verdicts_if_any(path: Path) -> dict[int, str]:
    try:
        return load_verdicts(path)
    except (OSError, ValueError):  # not there yet, or a line being written
        return {}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_cluster_sweep_is_the_local_sweep(cluster: str, capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    argv = ("--deals", "300", "--start", "1000", "--chunk", "40")
    local = sweep(capsys, tmp_path / "local.jsonl", *argv, "--jobs", "1")
    remote = sweep(capsys, tmp_path / "dask.jsonl", *argv, "--cluster", cluster)
    assert same_counts(local, remote) and local["deals"] == 300
    assert remote["engine"] == f"Dask cluster {cluster}" and remote["workers"] == 2
    verdicts = load_verdicts(tmp_path / "dask.jsonl")
    assert verdicts == load_verdicts(tmp_path / "local.jsonl")
    assert sorted(verdicts) == list(range(1000, 1300))


def test_cluster_verdicts_of_every_game(cluster: str) -> None:
    """Every game of PRESETS, a few deals each on a small budget in states (unknowns too)."""
    budget = Budget(nodes=100, seconds=None)
    chunks = plan_chunks(0, 3, 2)
    with local_engine(1) as here, cluster_engine(cluster, 10) as there:
        for letter in PRESETS:
            local = dict(run_sweep(here, letter, chunks, budget))
            assert dict(run_sweep(there, letter, chunks, budget)) == local, letter


def test_cluster_goes_on_from_a_local_results_file(cluster: str,
                                                   capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    sweep(capsys, path, "--rules", "C", "--deals", "100", "--chunk", "25", "--jobs", "1")
    remote = sweep(capsys, path, "--rules", "C", "--deals", "250", "--cluster", cluster)
    whole = sweep(capsys, tmp_path / "whole.jsonl", "--rules", "C", "--deals", "250",
                  "--chunk", "25", "--jobs", "2")
    assert remote["resumed"] == 100 and same_counts(remote, whole)
    assert load_verdicts(path) == load_verdicts(tmp_path / "whole.jsonl")


def test_progress_bar_is_fed_by_the_workers(cluster: str) -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=160)
    chunks = plan_chunks(0, 90, 30)
    with cluster_engine(cluster, 10) as engine:
        tally, _ = solve_range(engine, rules_for("N"), chunks, Budget(), None, console)
    assert tally.deals == 90
    drawn = screen.getvalue()
    assert "90/90" in drawn and f"Dask cluster {cluster}, 2 workers" in drawn


@pytest.mark.parametrize("address", ["tcp://127.0.0.1", "http://127.0.0.1:8786",
                                     "tcp://127.0.0.1:99999", "tcp://:8786", "127.0.0.1:port"])
def test_malformed_scheduler_address(address: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["winrate", "--deals", "5", "--cluster", address]) == 2
    assert "malformed scheduler address" in capsys.readouterr().err


def test_connect_timeout_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["winrate", "--deals", "5", "--cluster", "tcp://127.0.0.1:8786",
                 "--connect-timeout", "0"]) == 2
    assert "--connect-timeout 0 must be a positive" in capsys.readouterr().err


OTHER_VERSION = """
import importlib.metadata
version = importlib.metadata.version
importlib.metadata.version = lambda name: "0.0.1" if name == "pyramide" else version(name)
"""


def test_workers_with_another_pyramide_are_refused(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    preload = tmp_path / "other_version.py"  # the worker's installation, not Pyramide's code
    preload.write_text(OTHER_VERSION)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=":0", preload=[str(preload)]) as other:
        code = main(["winrate", "--deals", "5", "--cluster", other.scheduler_address])
    err = capsys.readouterr().err
    assert code == 2 and f"need Pyramide {__version__} installed, as here" in err
    assert "has 0.0.1" in err


def test_unreachable_scheduler(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    port = free_port()
    results = tmp_path / "r.jsonl"
    code = main(["winrate", "--deals", "5", "--cluster", f"tcp://127.0.0.1:{port}",
                 "--connect-timeout", "1", "--results", str(results)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 1 s" in err
    assert load_verdicts(results) == {}


def test_winrate_on_dask_scheduler_and_workers_started_by_hand(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The commands of docs/scale.md, then the scheduler lost in the middle of a sweep.

    Some 10 s on an idle machine (three programs start, each importing Dask
    and Pyramide); it is the one test of the cluster as a user runs it.
    """
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                  "--no-dashboard"], **quiet)  # type: ignore[call-overload]
    worker = subprocess.Popen([DASK, "worker", address, "--nworkers", "1", "--nthreads", "2",
                               "--no-dashboard"], **quiet)  # type: ignore[call-overload]
    try:
        with Client(address, timeout=30) as client:
            client.wait_for_workers(1, timeout=60)
        argv = ["--deals", "200", "--start", "5000", "--chunk", "50"]
        user = subprocess.run(
            [sys.executable, "-m", "pyramide.cli", "winrate", "--cluster", address, "--json",
             "--quiet", "--results", str(tmp_path / "dask.jsonl"), *argv],
            capture_output=True, text=True, timeout=120, check=False)
        assert user.returncode == 0, user.stderr
        remote = json.loads(user.stdout)
        local = sweep(capsys, tmp_path / "local.jsonl", *argv, "--jobs", "1")
        assert same_counts(local, remote) and remote["workers"] == 2
        assert load_verdicts(tmp_path / "dask.jsonl") == load_verdicts(tmp_path / "local.jsonl")
        recorded = tmp_path / "long.jsonl"

        def lose_the_scheduler() -> None:  # in the middle of a sweep
            while len(load_verdicts_if_any(recorded)) < 20 and time.monotonic() < deadline:
                time.sleep(0.01)
            scheduler.kill()

        deadline = time.monotonic() + 120
        killer = threading.Thread(target=lose_the_scheduler)
        killer.start()
        code = main(["winrate", "--cluster", address, "--quiet", "--results", str(recorded),
                     "--deals", "100000", "--chunk", "20"])
        killer.join()
        assert code == 2 and "went away in the middle of the sweep" in capsys.readouterr().err
        assert len(load_verdicts(recorded)) >= 20
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=30)
