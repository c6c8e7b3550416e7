"""The solver with and without a writable numba cache: the compiled search's
cache goes under the user cache directory; with nowhere to write it, the
interpreted search answers instead of a crash."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pyramide.solver
from pyramide.solver import native

ROOT = os.geteuid() == 0


def test_the_cache_goes_under_the_user_cache_dir(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    chosen = native.prepare_cache()
    assert chosen == tmp_path / "cache" / "pyramide" / "numba" and chosen.is_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(chosen)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert native.prepare_cache() == tmp_path / "mine"  # the user's own choice stands


def test_an_unwritable_cache_dir_is_left_to_numba(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert native.prepare_cache() is None
    assert "NUMBA_CACHE_DIR" not in os.environ


def test_solver_works_with_no_writable_cache(tmp_path: Path) -> None:
    """``pyramide solve`` with an unwritable home and package folder (for root,
    whom file modes do not stop: read-only bind mounts in a private mount
    namespace) falls back to the interpreted search."""
    home = tmp_path / "home"
    home.mkdir()
    command = [sys.executable, "-m", "pyramide.cli", "solve", "PY1-N-AAAAAAS", "--json",
               "--seconds", "2"]
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env["HOME"] = str(home)
    if ROOT:
        if shutil.which("unshare") is None:
            pytest.skip("unshare is needed to make folders read-only for root")
        solver = Path(pyramide.solver.__file__).parent
        script = " && ".join(
            f"mount --bind {d} {d} && mount -o remount,bind,ro {d}" for d in (solver, home))
        command = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                   f'{script} && exec "$@"', "sh", *command]
    else:
        home.chmod(0o500)
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    if ROOT and "mount" in result.stderr and result.returncode != 0:
        pytest.skip(f"no private mounts here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    answer = json.loads(result.stdout)
    assert answer["winnable"] is True and answer["max_removed"] == 28
    assert not any(home.iterdir())  # nothing could be, and nothing was, written there
