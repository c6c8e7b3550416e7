#!/usr/bin/env bash
# Set everything up and start the game (extra arguments go to `pyramide`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/pyramide "$@"
