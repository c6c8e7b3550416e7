"""Whether the compiled search can be had, and where numba keeps it.

numba caches the compiled search on disk.  Its cache goes in the user cache
directory (``platformdirs``: ``~/.cache/pyramide/numba`` on Linux) unless
``NUMBA_CACHE_DIR`` is set already.  When no cache directory can be written
(an unwritable home, a read-only install), numba refuses to compile a cached
function at all; the solver then uses its interpreted search, slower but
with the same answers (:mod:`pyramide.solver.shortest`).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar, cast

import platformdirs

__all__ = ["compiled", "family", "load_ahead_of_time", "njit", "prepare_cache",
           "source_hash", "warm_up"]

Fn = TypeVar("Fn", bound=Callable[..., Any])

_loaded: list[ModuleType | None] = []
_family: list[ModuleType | None] = []


def source_hash(path: str) -> int:
    """Names a source file's text: an ahead-of-time build (:mod:`pyramide.solver.aot`)
    keeps it, and is used only when it names the file as it is now."""
    return int(hashlib.sha256(Path(path).read_bytes()).hexdigest()[:15], 16)


def load_ahead_of_time(name: str, built_from: int) -> ModuleType | None:
    """The module ``name`` built ahead of time, when it was built from the source
    whose :func:`source_hash` is ``built_from``; ``None`` when it is missing, stale,
    or ``PYRAMIDE_JIT=1`` asks for numba's cache instead (as the build itself does)."""
    if os.environ.get("PYRAMIDE_JIT") == "1":
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return module if int(module.source_hash()) == built_from else None


def njit(fn: Fn, *, inline: str = "never") -> Fn:
    """``fn`` compiled by numba as the searches want it: cached on disk
    (:func:`prepare_cache`), without the GIL, and without numba's reference
    counts.  Their functions make no arrays (every array is the caller's and
    outlives the call), so the counts keep nothing alive; counted, each call of a
    function that takes an array paid for two atomic operations, some 40% of the
    family search's time.  ``inline="always"`` inlines a small helper where it
    is called."""
    prepare_cache()
    import numba

    options: dict[str, Any] = {"cache": True, "nogil": True, "inline": inline,
                               "_nrt": False}
    return cast(Fn, numba.njit(**options)(fn))


def prepare_cache() -> Path | None:
    """Point ``NUMBA_CACHE_DIR`` at a writable directory under the user cache
    directory (unless set); returns the directory numba will use, if known."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    path = Path(platformdirs.user_cache_dir("pyramide", appauthor=False)) / "numba"
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError:
        return None  # numba looks next to the source and in its own place
    os.environ["NUMBA_CACHE_DIR"] = str(path)
    return path


def compiled() -> ModuleType | None:
    """:mod:`pyramide.solver.compiled`, or ``None`` when numba cannot cache it."""
    if not _loaded:
        prepare_cache()
        try:
            from pyramide.solver import compiled as module
        except RuntimeError:  # "cannot cache function ...: no locator available"
            _loaded.append(None)
        else:
            _loaded.append(module)
    return _loaded[0]


def family() -> ModuleType | None:
    """:mod:`pyramide.solver.family_search` (the family's compiled decide search), or
    ``None`` when numba cannot cache it (the kernel search serves instead)."""
    if not _family:
        prepare_cache()
        try:
            from pyramide.solver import family_search as module
        except RuntimeError:
            _family.append(None)
        else:
            _family.append(module)
    return _family[0]


def warm_up() -> None:
    """Compile (or load from the cache) the searches, if they can be had."""
    for module in (compiled(), family()):
        if module is not None:
            module.warm_up()
