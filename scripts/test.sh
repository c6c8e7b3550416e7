#!/usr/bin/env bash
# Set everything up and run all the checks: ruff, mypy --strict, pytest (engine, solver, API, browser).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
echo "== ruff"; .venv/bin/ruff check src tests benchmarks
echo "== mypy --strict"; .venv/bin/mypy --strict src
echo "== pytest"; .venv/bin/python -m pytest "$@"
