"""Build the compiled search ahead of time: an extension module next to this file.

Numba compiles the search on first use and keeps it in its cache, but loading numba
and the cached code takes a second or more at every start of a process.  Built
ahead of time with numba's ``pycc`` (``python -m pyramide.solver.aot``, run by
``scripts/setup.sh``), the same functions load in milliseconds, without numba.
:mod:`pyramide.solver.compiled` uses the module only when it was built from its
own text as it is now (the module keeps the text's hash), else numba's cache.

Glossary
--------
entry point  a function of the search the driver calls from Python: ``run``,
             ``estimate``, ``find`` and ``rehash`` (:class:`compiled._Jitted`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

SIGNATURES = {
    "run": "UniTuple(i8, 4)(i8[::1], i8[::1], i8[:, ::1], i8[:, ::1], i8[::1], i8, i8)",
    "estimate": "i8(i8[::1], i8, i8, i8, i8, i8)",
    "find": "i8(i8[:, ::1], i8)",
    "rehash": "i8(i8[:, ::1], i8[:, ::1])",
}


def build() -> Path:
    """Compile the entry points into ``_search_aot`` (next to this file) and return
    its path.  Needs numba and a C compiler; takes a minute or so."""
    os.environ["PYRAMIDE_JIT"] = "1"
    import numba.pycc

    from pyramide.solver import compiled

    here = Path(__file__).parent
    name = compiled.AOT_MODULE.rsplit(".", 1)[1]
    make: Any = vars(numba.pycc)["CC"]  # numba ships no types for pycc
    cc = make(name)
    cc.output_dir = str(here)
    cc.verbose = False
    for entry, signature in SIGNATURES.items():
        cc.export(entry, signature)(getattr(compiled, entry).py_func)
    source_hash = compiled.SOURCE_HASH

    def hash_of_source() -> int:
        return source_hash

    cc.export("source_hash", "i8()")(hash_of_source)
    cc.compile()
    built = [p for p in here.glob(f"{name}.*") if p.suffix in (".so", ".pyd")]
    if not built:
        raise RuntimeError(f"the ahead-of-time build left no module {name} in {here}")
    return built[0]


if __name__ == "__main__":
    print(build())
    sys.exit(0)
