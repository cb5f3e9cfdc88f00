#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh Debian machine and runs it:
# the Python packages (pinned), Debian's Chromium for the browser tests, a PostgreSQL
# server for the review app's concurrency tests; then ruff, and pytest on every core
# (pytest-xdist) with mypy and the import-linter contracts (the layers, pyproject.toml)
# running beside it; the script fails if any of them fails.
#
#   bash scripts/test.sh            the whole suite (what CI runs)
#   bash scripts/test.sh --quick    lint, types, contracts and every test except the
#                                   browser, PostgreSQL and whole-site groups
#                                   (tests/conftest.py), without installing Chromium
#                                   or PostgreSQL
# Further arguments go to pytest. REPORTGEN_TEST_WORKERS sets the number of workers
# (default: one more than the number of cores; 0 runs in one process).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=0
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
fi
# One worker more than the cores: a browser test's worker waits on Chromium and on the app
# server, and a third worker on 2 cores uses that time.
workers="${REPORTGEN_TEST_WORKERS:-$(($(nproc) + 1))}"
# Some machines set PYTHONDONTWRITEBYTECODE: then every Python process of the run (the
# workers, each app server, each CLI and drawing subprocess) compiles every module it
# imports from source again, some 4 CPU s for the app's and the site's libraries, and
# pytest rewrites every test module in each worker. The caches go to __pycache__ folders
# that git ignores.
unset PYTHONDONTWRITEBYTECODE

bash scripts/install.sh test

if [ "$quick" = 0 ]; then
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
    # Starts the server and prints the URL of a throwaway test database; each pytest
    # worker gets its own (gw0, gw1, ...: tests/conftest.py), since tests drop tables.
    database="${REVIEW_PG_DATABASE:-reportgen_test}"
    REVIEW_TEST_POSTGRES_URL="$(bash review_app/ci_postgres.sh | tail -n 1)"
    export REVIEW_TEST_POSTGRES_URL
    for ((worker = 0; worker < workers; worker++)); do
      REVIEW_PG_DATABASE="${database}_gw${worker}" bash review_app/ci_postgres.sh >/dev/null
    done
  fi
fi

.venv/bin/ruff check .
.venv/bin/ruff format --check .
# mypy and the import contracts take about 30 CPU s on a clone without mypy's cache;
# pytest leaves part of the machine idle (browsers and servers waiting on each other), so
# they run beside it. mypy's cache lives outside the clone (as uv's does), so that a new
# clone on the same machine (CI's) checks only what changed: mypy validates each cached
# module against its source's hash, so a stale entry is rechecked, never trusted
# (0.5 CPU s with the cache of an earlier clone, 29 without, 2026-12-04).
# Where that folder cannot be made (no home, a read-only one), mypy keeps its default
# cache inside the clone.
if [ -z "${MYPY_CACHE_DIR:-}" ] && [ -n "${XDG_CACHE_HOME:-${HOME:-}}" ]; then
  mypy_cache="${XDG_CACHE_HOME:-$HOME/.cache}/reportgen/mypy"
  if mkdir -p "$mypy_cache" 2>/dev/null && [ -w "$mypy_cache" ]; then
    export MYPY_CACHE_DIR="$mypy_cache"
  fi
fi
static_log="$(mktemp)"
(.venv/bin/mypy && .venv/bin/lint-imports) >"$static_log" 2>&1 &
static_pid=$!

pytest_args=(-q)
if [ "$workers" -gt 0 ]; then
  # One module stays on one worker (its module-scoped fixtures are built once), and the
  # modules go out in tests/conftest.py's order, longest first.
  pytest_args+=(-n "$workers" --dist loadfile --no-loadscope-reorder)
fi
if [ "$quick" = 1 ]; then
  pytest_args+=(-m "not browser and not postgres and not site")
fi
pytest_status=0
.venv/bin/python -m pytest "${pytest_args[@]}" "$@" || pytest_status=$?
static_status=0
wait "$static_pid" || static_status=$?
cat "$static_log"
rm -f "$static_log"
if [ "$static_status" != 0 ]; then
  echo "test.sh: mypy or the import-linter contracts failed (above)" >&2
  exit 1
fi
exit "$pytest_status"
