"""annulments.jsonl: the append-only, hash-chained ledger of annulled items.

Each line carries the SHA-256 of the ledger bytes before it, so a rewritten or
reordered history breaks the chain and is detected. Lines are written in the
version-2 form (`source`, `ref`); a version-1 archive's lines (`contest_id`) are
read as `source = "contestation"`, `ref = contest_id`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Container, Sequence
from dataclasses import replace
from pathlib import Path
from typing import cast

from reportgen.archive._layout import LEDGER_FILE, parse_iso_date
from reportgen.archive._manifest import language_texts
from reportgen.archive._problems import FileProblems, Problems
from reportgen.model import SOURCES, TEXT_LANGUAGES, Annulment, ItemRecord, Source

LEDGER_KEYS = ("item_id", "decided_on", "source", "ref", "reason", "prev_sha256")
V1_LEDGER_KEYS = ("item_id", "decided_on", "contest_id", "reason", "prev_sha256")


def annulment_line(annulment: Annulment, prev_sha256: str) -> bytes:
    """One ledger line (keys in the spec's order, UTF-8, ending in a newline)."""
    record = {
        "item_id": annulment.item_id,
        "decided_on": annulment.decided_on.isoformat(),
        "source": annulment.source,
        "ref": annulment.ref,
        "reason": {language: annulment.reason[language] for language in TEXT_LANGUAGES},
        "prev_sha256": prev_sha256,
    }
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def chained_ledger(annulments: Sequence[Annulment]) -> tuple[bytes, tuple[Annulment, ...]]:
    """Ledger bytes for `annulments` with a correct chain, and the annulments as written.

    The given `prev_sha256` fields are ignored: the chain is recomputed.
    """
    digest = hashlib.sha256()
    data = bytearray()
    written: list[Annulment] = []
    for annulment in annulments:
        prev = digest.hexdigest() if data else ""
        line = annulment_line(annulment, prev)
        digest.update(line)
        data += line
        written.append(replace(annulment, reason=dict(annulment.reason), prev_sha256=prev))
    return bytes(data), tuple(written)


def parse_ledger(
    data: bytes, problems: Problems, *, item_ids: Container[str] | None, version: int = 2
) -> tuple[Annulment, ...]:
    """The ledger's annulments; reports a problem per bad line (line numbers are 1-based).

    `item_ids` (the archive's items) is None when items.parquet could not be read.
    Version 1 archives may hold lines of both forms (new lines are written as version 2).
    """
    found = problems.in_file(LEDGER_FILE)
    annulments: list[Annulment] = []
    if data and not data.endswith(b"\n"):
        last = data.count(b"\n") + 1
        found.add(f"line {last}", "the last line does not end with a newline")
    digest = hashlib.sha256()
    offset = 0
    first_line: dict[str, int] = {}
    for number, line in enumerate(_lines(data), start=1):
        expected_prev = digest.hexdigest() if offset else ""
        digest.update(line)
        offset += len(line)
        record = _record(line, f"line {number}", found, version=version)
        if record is None:
            continue
        mark = problems.mark()
        annulment = _annulment(record, f"line {number}", found, expected_prev)
        item_id = record["item_id"]
        if not isinstance(item_id, str) or not item_id:
            pass  # reported by _annulment
        elif item_ids is not None and item_id not in item_ids:
            found.add(f"line {number}", f"item_id {item_id!r} is not an item of the archive")
        elif item_id in first_line:
            found.add(
                f"line {number}",
                f"item {item_id!r} is annulled twice (first on line {first_line[item_id]})",
            )
        else:
            first_line[item_id] = number
        if problems.ok_since(mark) and annulment is not None:
            annulments.append(annulment)
    return tuple(annulments)


def _record(
    line: bytes, where: str, found: FileProblems, *, version: int
) -> dict[str, object] | None:
    try:
        record = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        found.add(where, "not valid UTF-8")
        return None
    except json.JSONDecodeError as error:
        found.add(where, f"not valid JSON ({error.msg})")
        return None
    forms = [LEDGER_KEYS] if version >= 2 else [LEDGER_KEYS, V1_LEDGER_KEYS]
    if not isinstance(record, dict) or not any(set(record) == set(keys) for keys in forms):
        got = sorted(record) if isinstance(record, dict) else type(record).__name__
        found.add(where, f"expected a JSON object with keys {', '.join(LEDGER_KEYS)}, got {got}")
        return None
    if "contest_id" in record:  # a version-1 line
        record = {**record, "source": "contestation", "ref": record.pop("contest_id")}
    return cast(dict[str, object], record)


def _annulment(
    record: dict[str, object], where: str, found: FileProblems, expected_prev: str
) -> Annulment | None:
    mark = found.problems.mark()
    item_id = record["item_id"]
    if not isinstance(item_id, str) or not item_id:
        found.add(where, f"item_id: expected a non-empty string, got {item_id!r}")
    decided_on = record["decided_on"]
    parsed_date = parse_iso_date(decided_on) if isinstance(decided_on, str) else None
    if parsed_date is None:
        found.add(where, f"decided_on: expected an ISO date YYYY-MM-DD, got {decided_on!r}")
    source = record["source"]
    if source not in SOURCES:
        found.add(where, f"source: expected one of {' | '.join(SOURCES)}, got {source!r}")
    ref = record["ref"]
    if not isinstance(ref, str) or not ref:
        found.add(where, f"ref: expected a non-empty string, got {ref!r}")
    reason = language_texts(record["reason"])
    if reason is None:
        found.add(where, 'reason: expected {"pt-BR": "...", "en": "..."} with non-empty texts')
    prev_sha256 = record["prev_sha256"]
    if prev_sha256 != expected_prev:
        found.add(
            where,
            "prev_sha256 does not match the SHA-256 of the ledger bytes before this line "
            f"(expected {expected_prev!r}, got {prev_sha256!r}): the ledger was rewritten",
        )
    if not found.problems.ok_since(mark) or parsed_date is None or reason is None:
        return None
    return Annulment(
        item_id=cast(str, item_id),
        decided_on=parsed_date,
        source=cast(Source, source),
        ref=cast(str, ref),
        reason={language: reason[language] for language in TEXT_LANGUAGES},
        prev_sha256=expected_prev,
    )


def _lines(data: bytes) -> list[bytes]:
    # Split on "\n" only, keeping it: the chain hashes exact bytes, and a JSON line may
    # not contain a raw newline anyway (json.dumps escapes it).
    pieces = data.split(b"\n")
    lines = [piece + b"\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines


def read_ledger(
    round_dir: Path, items: tuple[ItemRecord, ...] | None, problems: Problems, *, version: int
) -> tuple[tuple[Annulment, ...], str]:
    """The ledger's annulments (checked against `items` when they could be read) and
    the SHA-256 of its bytes; none and "" when the round has no ledger."""
    ledger_path = round_dir / LEDGER_FILE
    if not ledger_path.exists():
        return (), ""
    try:
        ledger = ledger_path.read_bytes()
    except OSError as error:
        problems.add(LEDGER_FILE, "", f"unreadable file: {error.strerror}")
        return (), ""
    known = None if items is None else frozenset(item.item_id for item in items)
    annulments = parse_ledger(ledger, problems, item_ids=known, version=version)
    return annulments, hashlib.sha256(ledger).hexdigest()
