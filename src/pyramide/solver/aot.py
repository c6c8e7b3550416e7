"""Build the compiled searches ahead of time: extension modules next to this file.

Numba compiles a search on first use and keeps it in its cache, but loading numba
and the cached code takes a second or more at every start of a process.  Built
ahead of time with numba's ``pycc`` (``python -m pyramide.solver.aot``, run by
``scripts/setup.sh``), the same functions load in milliseconds, without numba.
:mod:`pyramide.solver.compiled` (the classic shortest-line search) and
:mod:`pyramide.solver.family_compiled` (every other game's search) each use their
module only when it was built from their own text as it is now (the module keeps
the text's hash), else numba's cache.

Glossary
--------
entry point  a function of a search its driver calls from Python: ``run``,
             ``model``, ``estimate``, ``find`` and ``rehash`` (:class:`compiled._Jitted`); the
             family's :data:`family_compiled.ENTRY_POINTS`.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

SIGNATURES = {
    "model": "i8(i8[::1], i8, i8)",
    "run": "UniTuple(i8, 4)(i8[::1], i8[::1], i8[:, ::1], i8[:, ::1], i8[::1], i8, i8)",
    "estimate": "i8(i8[::1], i8, i8, i8, i8, i8)",
    "find": "i8(i8[:, ::1], i8)",
    "rehash": "i8(i8[:, ::1], i8[:, ::1])",
}
"""The classic search's entry points."""

_V, _M = "i8[::1]", "i8[:, ::1]"  # a vector, a matrix (rows in order)
FAMILY_SIGNATURES = {
    "start": f"void({_V}, {_V}, {_V}, {_V}, {_V}, {_M}, {_V}, {_V}, {_M}, {_V}, {_M}, {_V}, "
             f"{_V})",
    "run": f"i8({_V}, {_V}, {_V}, {_V}, {_V}, {_V}, {_M}, {_V}, {_M}, {_V}, {_M}, {_V}, "
           f"{_V}, {_M}, {_M}, {_V}, {_M}, i8)",
    "children": f"i8({_V}, {_V}, {_V}, {_V}, {_V}, {_M}, {_V}, {_V}, {_M}, {_V})",
    "rehash": f"void({_M}, {_M})",
    "shortest_start": f"void({_V}, {_V}, {_V}, {_V}, {_V}, {_V}, {_V}, {_M}, {_V}, {_M}, "
                      f"{_V}, {_V})",
    "shortest_run": f"i8({_V}, {_V}, {_V}, {_V}, {_V}, {_V}, {_M}, {_V}, {_M}, {_V}, {_M}, "
                    f"{_V}, {_M}, {_M}, {_V}, {_M}, i8)",
}
"""The family search's entry points (:data:`family_compiled.ENTRY_POINTS`)."""

TARGETS = {
    "pyramide.solver.compiled": SIGNATURES,
    "pyramide.solver.family_compiled": FAMILY_SIGNATURES,
}


def build(source: str = "pyramide.solver.compiled") -> Path:
    """Compile the entry points of the search module ``source`` into its
    ``AOT_MODULE`` (next to this file) and return its path.  Needs numba and a C
    compiler; takes a minute or so."""
    os.environ["PYRAMIDE_JIT"] = "1"
    import numba.pycc

    module = importlib.import_module(source)
    here = Path(__file__).parent
    name = str(module.AOT_MODULE).rsplit(".", 1)[1]
    make: Any = vars(numba.pycc)["CC"]  # numba ships no types for pycc
    cc = make(name)
    cc.output_dir = str(here)
    cc.verbose = False
    cc.use_nrt = False  # (no function makes an array: :func:`native.njit`)
    cc.target_cpu = "host"  # (built where it runs, by scripts/setup.sh: as numba's jit)
    for entry, signature in TARGETS[source].items():
        cc.export(entry, signature)(getattr(module, entry).py_func)
    source_hash = int(module.SOURCE_HASH)

    def hash_of_source() -> int:
        return source_hash

    cc.export("source_hash", "i8()")(hash_of_source)
    cc.compile()
    built = [p for p in here.glob(f"{name}.*") if p.suffix in (".so", ".pyd")]
    if not built:
        raise RuntimeError(f"the ahead-of-time build left no module {name} in {here}")
    return built[0]


if __name__ == "__main__":
    for target in sys.argv[1:] or list(TARGETS):
        print(build(target))
    sys.exit(0)
