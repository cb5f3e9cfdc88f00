#!/bin/sh
# Start the local PostgreSQL cluster (whichever version Debian installed) and create the
# review app's test role and database when missing. Safe to run again: every step checks first.
# Prints the URL the tests read from REVIEW_TEST_POSTGRES_URL.
set -eu

PG_ROLE="${REVIEW_PG_ROLE:-reportgen}"
PG_PASSWORD="${REVIEW_PG_PASSWORD:-reportgen}"
PG_DATABASE="${REVIEW_PG_DATABASE:-reportgen_test}"
# The app's own role, which owns nothing (docs/review-database.md): the grant tests
# connect as <role>_app with the same password to show it cannot rewrite the audit log.
PG_APP_ROLE="${PG_ROLE}_app"

# Only the URL may reach stdout (the caller captures it), so everything the server's
# tools print goes to stderr: pg_ctl reports, for instance, "Removed stale pid file."
# The Debian cluster's version differs between releases, so it is read, not assumed.
cluster="$(pg_lsclusters -h 2>/dev/null | awk 'NR == 1 { print $1, $2, $3, $4 }')"
if [ -z "$cluster" ]; then
    echo "ci_postgres.sh: no PostgreSQL cluster found (is Debian's postgresql installed?)" >&2
    exit 1
fi
set -- $cluster
PG_PORT="${REVIEW_PG_PORT:-$3}"
if [ "$4" != "online" ]; then
    pg_ctlcluster "$1" "$2" start >&2 || service postgresql start >&2
fi

# Wait until the server accepts connections (a cold start takes a moment).
tries=0
until su postgres -c "pg_isready -q -p $PG_PORT" >&2; do
    tries=$((tries + 1))
    if [ "$tries" -gt 30 ]; then
        echo "ci_postgres.sh: PostgreSQL did not start on port $PG_PORT" >&2
        exit 1
    fi
    sleep 1
done

run_sql() {
    su postgres -c "psql -p $PG_PORT -v ON_ERROR_STOP=1 -tAc \"$1\""
}

if [ "$(run_sql "SELECT 1 FROM pg_roles WHERE rolname = '$PG_ROLE'")" != "1" ]; then
    run_sql "CREATE ROLE $PG_ROLE LOGIN PASSWORD '$PG_PASSWORD'" >/dev/null
fi
if [ "$(run_sql "SELECT 1 FROM pg_roles WHERE rolname = '$PG_APP_ROLE'")" != "1" ]; then
    run_sql "CREATE ROLE $PG_APP_ROLE LOGIN PASSWORD '$PG_PASSWORD'" >/dev/null
fi
if [ "$(run_sql "SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE'")" != "1" ]; then
    run_sql "CREATE DATABASE $PG_DATABASE OWNER $PG_ROLE" >/dev/null
fi

echo "postgresql+psycopg://$PG_ROLE:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DATABASE"
