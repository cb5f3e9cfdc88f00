#!/usr/bin/env bash
# Creates .venv (if missing) and installs reportgen with the pinned versions of constraints.txt.
# Usage: scripts/install.sh [extra]   e.g. scripts/install.sh test
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
target="."
if [ "${1:-}" != "" ]; then target=".[$1]"; fi
.venv/bin/python -m pip install --quiet -c constraints.txt -e "$target"
