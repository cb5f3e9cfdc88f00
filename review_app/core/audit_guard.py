"""The audit log's guards: the SQL that makes the database itself refuse to rewrite
`audit_log` (`review_app.core.db.create_schema` runs it), and the lock that serialises
appends on PostgreSQL (`review_app.core.db.audit` takes it)."""

from __future__ import annotations

# The audit table refuses UPDATE and DELETE in the database itself, so that no code
# path (nor a hand-typed SQL session using the app's role) can rewrite history.
SQLITE_APPEND_ONLY = (
    "CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log "
    "BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END",
    "CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log "
    "BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END",
)
# On PostgreSQL the triggers stop the owner too (TRUNCATE included); the app's role,
# which owns nothing, can neither disable them nor truncate (docs/review-database.md).
POSTGRES_APPEND_ONLY = (
    "CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger AS $$ "
    "BEGIN RAISE EXCEPTION 'audit_log is append-only'; END; $$ LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log",
    "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log "
    "FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()",
    "DROP TRIGGER IF EXISTS audit_log_no_truncate ON audit_log",
    "CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log "
    "FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()",
)
POSTGRES_GUARDED = (
    "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'audit_log'::regclass "
    "AND tgname IN ('audit_log_append_only', 'audit_log_no_truncate')"
)
# Serialises appends to the audit chain on PostgreSQL (any role may take an advisory
# lock; LOCK TABLE would need a privilege the app's role must not have).
AUDIT_CHAIN_LOCK = 0x61756469  # "audi"
