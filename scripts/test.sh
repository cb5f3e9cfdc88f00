#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh Debian machine and runs it:
# the Python packages (pinned), Debian's Chromium for the browser tests, a PostgreSQL
# server for the review app's concurrency tests; then ruff, mypy, the import-linter
# contracts (the layers, pyproject.toml) and pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh test

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v pg_ctlcluster >/dev/null 2>&1 || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
  else
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
  fi
fi
if [ -f review_app/ci_postgres.sh ]; then
  # Starts the server and prints the URL of a throwaway test database.
  REVIEW_TEST_POSTGRES_URL="$(bash review_app/ci_postgres.sh | tail -n 1)"
  export REVIEW_TEST_POSTGRES_URL
fi

.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports
.venv/bin/python -m pytest -q "$@"
