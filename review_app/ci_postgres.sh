#!/bin/sh
# Start the local PostgreSQL 15 cluster and create the review app's test role and
# database when they are missing. Safe to run again: every step checks first.
# Prints the URL the tests read from REVIEW_TEST_POSTGRES_URL.
set -eu

PG_ROLE="${REVIEW_PG_ROLE:-reportgen}"
PG_PASSWORD="${REVIEW_PG_PASSWORD:-reportgen}"
PG_DATABASE="${REVIEW_PG_DATABASE:-reportgen_test}"
PG_PORT="${REVIEW_PG_PORT:-5432}"

if ! pg_lsclusters -h 2>/dev/null | grep -q '^15 \+main \+[0-9]\+ \+online'; then
    pg_ctlcluster 15 main start 2>/dev/null || service postgresql start
fi

# Wait until the server accepts connections (a cold start takes a moment).
tries=0
until su postgres -c "pg_isready -q -p $PG_PORT"; do
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
if [ "$(run_sql "SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE'")" != "1" ]; then
    run_sql "CREATE DATABASE $PG_DATABASE OWNER $PG_ROLE" >/dev/null
fi

echo "postgresql+psycopg://$PG_ROLE:$PG_PASSWORD@127.0.0.1:$PG_PORT/$PG_DATABASE"
