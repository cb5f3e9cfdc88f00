"""Which lines of a round's annulment ledger the review app wrote.

The ledger (annulments.jsonl) is outside SHA256SUMS, and its hash chain proves only that
no line was changed *after* the next one was written: someone who appends a line and
computes its `prev_sha256` leaves an archive that `reportgen verify` accepts. The app
therefore keeps its own account of the ledger, and refuses to act on (or freeze) an
archive whose ledger holds a line it cannot account for:

- the baseline (table `round_ledgers`): the number of lines the ledger held, and the
  SHA-256 of those bytes, when the round entered the database (its first batch) and
  after each `review freeze-export`;
- the lines it appends: each is recorded in the audit log first (action `ledger_append`:
  round, item, source, ref). A contestation's acceptance commits that entry before the
  append, so a crash between the append and the decision's commit still leaves a line
  the app knows (and the next decision completes it);
- `check_ledger`: the baseline's bytes must still open the ledger, and every line after
  them must match a `ledger_append` entry of the round (same item, source and ref).

A database from before this rule has no baseline for a round: its first check takes the
ledger as it then is (trust on first use).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    ForeignKey,
    Integer,
    String,
    Table,
    select,
    update,
)

from reportgen.archive import LEDGER_FILE
from review_app.core.db import audit, audit_log, metadata
from review_app.core.errors import ReviewInputError

LEDGER_APPEND = "ledger_append"

round_ledgers = Table(
    "round_ledgers",
    metadata,
    Column("round_id", ForeignKey("rounds.round_id"), primary_key=True),
    Column("lines", Integer, nullable=False),
    Column("ledger_sha256", String(64), nullable=False),
)


@dataclass(frozen=True)
class LedgerLine:
    number: int  # 1-based
    item_id: str
    source: str
    ref: str
    line_sha256: str


def record_append(
    connection: Connection,
    account_id: int | None,
    round_id: str,
    *,
    item_id: str,
    source: str,
    ref: str,
) -> None:
    """Record, before appending it, the ledger line the app is about to write."""
    detail = {"round_id": round_id, "item_id": item_id, "source": source, "ref": ref}
    audit(connection, account_id, LEDGER_APPEND, detail)


def check_before_append(
    engine: Engine,
    account_id: int | None,
    round_id: str,
    round_dir: Path,
    *,
    append: tuple[str, str, str] | None,
) -> None:
    """`check_ledger`, then the line about to be appended (item, source, ref) recorded and
    committed: a crash after the append leaves a line the app still recognises."""
    with engine.begin() as connection:
        check_ledger(connection, round_id, round_dir)
        if append is not None:
            item_id, source, ref = append
            record_append(connection, account_id, round_id, item_id=item_id, source=source, ref=ref)


def record_baseline(connection: Connection, round_id: str, round_dir: Path) -> None:
    """Take the ledger as the folder holds it now as the round's baseline."""
    data = _ledger_bytes(round_dir)
    values = {"lines": len(_split(data)), "ledger_sha256": hashlib.sha256(data).hexdigest()}
    moved = connection.execute(
        update(round_ledgers).where(round_ledgers.c.round_id == round_id).values(**values)
    )
    if moved.rowcount == 0:
        connection.execute(round_ledgers.insert().values(round_id=round_id, **values))


def check_ledger(connection: Connection, round_id: str, round_dir: Path) -> None:
    """Refuse (one line naming it) a ledger line the app did not write, or a ledger whose
    recorded beginning was rewritten; a round without a baseline gets one now."""
    baseline = connection.execute(
        select(round_ledgers.c.lines, round_ledgers.c.ledger_sha256).where(
            round_ledgers.c.round_id == round_id
        )
    ).first()
    if baseline is None:
        record_baseline(connection, round_id, round_dir)
        return
    data = _ledger_bytes(round_dir)
    lines = _split(data)
    start = b"".join(lines[: baseline.lines])
    if len(lines) < baseline.lines or hashlib.sha256(start).hexdigest() != baseline.ledger_sha256:
        raise ReviewInputError(
            "error_ledger_rewritten", path=str(round_dir / LEDGER_FILE), lines=baseline.lines
        )
    recorded = _recorded_appends(connection, round_id)
    for number, line in enumerate(lines[baseline.lines :], start=baseline.lines + 1):
        parsed = _parse(number, line)
        if (parsed.item_id, parsed.source, parsed.ref) not in recorded:
            raise ReviewInputError(
                "error_ledger_unknown_line",
                path=str(round_dir / LEDGER_FILE),
                line=parsed.number,
                source=parsed.source or "?",
                ref=parsed.ref or "?",
                item_id=parsed.item_id or "?",
                sha=parsed.line_sha256[:12],
            )


def _recorded_appends(connection: Connection, round_id: str) -> set[tuple[str, str, str]]:
    recorded: set[tuple[str, str, str]] = set()
    details = connection.execute(
        select(audit_log.c.detail).where(audit_log.c.action == LEDGER_APPEND)
    ).scalars()
    for detail in details:
        entry = json.loads(detail)
        if entry.get("round_id") == round_id:
            recorded.add((str(entry["item_id"]), str(entry["source"]), str(entry["ref"])))
    return recorded


def _parse(number: int, line: bytes) -> LedgerLine:
    """The line's item, source and ref ("" where it has none: it then matches nothing)."""
    digest = hashlib.sha256(line).hexdigest()
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        record = None
    if not isinstance(record, dict):
        return LedgerLine(number, "", "", "", digest)
    if "contest_id" in record:  # a version-1 line
        record = {**record, "source": "contestation", "ref": record["contest_id"]}
    fields = [record.get(key) for key in ("item_id", "source", "ref")]
    item_id, source, ref = (value if isinstance(value, str) else "" for value in fields)
    return LedgerLine(number, item_id, source, ref, digest)


def _ledger_bytes(round_dir: Path) -> bytes:
    try:
        return (round_dir / LEDGER_FILE).read_bytes()
    except FileNotFoundError:
        return b""
    except OSError as error:
        raise ReviewInputError("error_round_unreadable", path=str(round_dir), why=error) from None


def _split(data: bytes) -> list[bytes]:
    # Split on "\n" only, keeping it (the last line may lack one): the chain hashes bytes.
    pieces = data.split(b"\n")
    lines = [piece + b"\n" for piece in pieces[:-1]]
    return [*lines, pieces[-1]] if pieces[-1] else lines
