#!/usr/bin/env bash
# Set up Pyramide in ./.venv (idempotent). With --test, also the test tools, Chromium and
# PostgreSQL (the tests start their own server from its binaries).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_ready=""
apt_install() {
    if [ -z "$apt_ready" ]; then as_root apt-get update -qq; apt_ready=1; fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
    echo "Pyramide needs Python 3.11 or newer as '$PYTHON'" >&2; exit 1
fi
if [ ! -x .venv/bin/python ]; then
    if ! "$PYTHON" -m venv .venv 2>/dev/null; then
        rm -rf .venv
        apt_install python3-venv
        "$PYTHON" -m venv .venv
    fi
fi
extras=""
if [ "${1:-}" = "--test" ]; then extras="[test]"; fi
stamp=".venv/.installed$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"
    touch "$stamp"
fi
# The solver's search, compiled ahead of time (loads in milliseconds) and by numba
# (its cache: the fallback, and the reference of the tests); again whenever the
# search's source changed.
if ! .venv/bin/python -c "import sys; from pyramide.solver import compiled; sys.exit(compiled.AOT is None)"; then
    echo "Compiling the solver's shortest-line search (a minute or two)..."
    PYRAMIDE_JIT=1 .venv/bin/python -c "from pyramide.solver.compiled import warm_up; warm_up()"
    command -v cc >/dev/null || apt_install gcc
    .venv/bin/python -m pyramide.solver.aot pyramide.solver.compiled >/dev/null \
        || echo "(no ahead-of-time build of the search: numba's cache serves instead)"
fi
# The family's compiled searches (every game but N and C): numba compiles them on first
# use (half a minute) and keeps them in its cache; warm the cache here so that no game or
# test waits for it, then build them ahead of time too (a process then loads them in
# milliseconds), again whenever their source changed.
PYRAMIDE_JIT=1 .venv/bin/python -c "from pyramide.solver.native import family
m = family()
if m is not None: m.warm_up()" || echo "(the family's compiled search is not cached: the kernel search serves)"
if ! .venv/bin/python -c "import sys; from pyramide.solver import family_compiled; sys.exit(family_compiled.AOT is None)"; then
    echo "Compiling the family's searches ahead of time (half a minute)..."
    command -v cc >/dev/null || apt_install gcc
    .venv/bin/python -m pyramide.solver.aot pyramide.solver.family_compiled >/dev/null \
        || echo "(no ahead-of-time build of the family's search: numba's cache serves instead)"
fi
if [ -n "$extras" ] && [ ! -x /usr/bin/chromium ]; then
    echo "Installing Chromium (Debian package) for the browser tests..."
    apt_install chromium
fi
if [ -n "$extras" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "Installing PostgreSQL (Debian package) for the hosted-mode tests..."
    apt_install postgresql
fi
if [ -n "$extras" ]; then
    # axe-core, injected by the accessibility tests (kept in .venv: nothing to commit)
    if ! command -v npm >/dev/null 2>&1; then apt_install npm; fi
    if [ ! -f .venv/npm/node_modules/axe-core/axe.min.js ]; then
        echo "Installing axe-core (npm) for the accessibility tests..."
        npm install --no-save --no-package-lock --no-audit --no-fund --silent \
            --prefix .venv/npm axe-core@4
    fi
fi
