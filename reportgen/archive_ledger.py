"""annulments.jsonl: the append-only, hash-chained ledger of annulled items.

Each line carries the SHA-256 of the ledger bytes before it, so a rewritten or
reordered history breaks the chain and is detected.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Container, Sequence

from reportgen.archive_manifest import parse_iso_date
from reportgen.errors import Problem
from reportgen.model import LANGUAGES, Annulment

LEDGER_FILE = "annulments.jsonl"
LEDGER_KEYS = ("item_id", "decided_on", "contest_id", "reason", "prev_sha256")


def annulment_line(annulment: Annulment, prev_sha256: str) -> bytes:
    """One ledger line (keys in the spec's order, UTF-8, ending in a newline)."""
    record = {
        "item_id": annulment.item_id,
        "decided_on": annulment.decided_on.isoformat(),
        "contest_id": annulment.contest_id,
        "reason": {language: annulment.reason[language] for language in LANGUAGES},
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
        written.append(
            Annulment(
                item_id=annulment.item_id,
                decided_on=annulment.decided_on,
                contest_id=annulment.contest_id,
                reason=dict(annulment.reason),
                prev_sha256=prev,
            )
        )
    return bytes(data), tuple(written)


def parse_ledger(
    data: bytes, problems: list[Problem], *, item_ids: Container[str] | None
) -> tuple[Annulment, ...]:
    """The ledger's annulments; appends a problem per bad line (line numbers are 1-based).

    `item_ids` (the archive's items) is None when items.parquet could not be read.
    """
    annulments: list[Annulment] = []
    if data and not data.endswith(b"\n"):
        count = data.count(b"\n") + 1
        problems.append(
            Problem(LEDGER_FILE, f"line {count}", "the last line does not end with a newline")
        )
    digest = hashlib.sha256()
    offset = 0
    first_line: dict[str, int] = {}
    for number, line in enumerate(_lines(data), start=1):
        expected_prev = digest.hexdigest() if offset else ""
        digest.update(line)
        offset += len(line)
        where = f"line {number}"

        def bad(message: str, where: str = where) -> None:
            problems.append(Problem(LEDGER_FILE, where, message))

        try:
            record = json.loads(line.decode("utf-8"))
        except UnicodeDecodeError:
            bad("not valid UTF-8")
            continue
        except json.JSONDecodeError as error:
            bad(f"not valid JSON ({error.msg})")
            continue
        if not isinstance(record, dict) or set(record) != set(LEDGER_KEYS):
            got = sorted(record) if isinstance(record, dict) else type(record).__name__
            bad(f"expected a JSON object with keys {', '.join(LEDGER_KEYS)}, got {got}")
            continue
        start = len(problems)
        item_id = record["item_id"]
        if not isinstance(item_id, str) or not item_id:
            bad(f"item_id: expected a non-empty string, got {item_id!r}")
        elif item_ids is not None and item_id not in item_ids:
            bad(f"item_id {item_id!r} is not an item of the archive")
        elif item_id in first_line:
            bad(f"item {item_id!r} is annulled twice (first on line {first_line[item_id]})")
        else:
            first_line[item_id] = number
        decided_on = record["decided_on"]
        parsed_date = parse_iso_date(decided_on) if isinstance(decided_on, str) else None
        if parsed_date is None:
            bad(f"decided_on: expected an ISO date YYYY-MM-DD, got {decided_on!r}")
        contest_id = record["contest_id"]
        if not isinstance(contest_id, str) or not contest_id:
            bad(f"contest_id: expected a non-empty string, got {contest_id!r}")
        reason = record["reason"]
        if (
            not isinstance(reason, dict)
            or set(reason) != set(LANGUAGES)
            or not all(isinstance(text, str) and text for text in reason.values())
        ):
            bad('reason: expected {"pt-BR": "...", "en": "..."} with non-empty texts')
        prev_sha256 = record["prev_sha256"]
        if prev_sha256 != expected_prev:
            bad(
                "prev_sha256 does not match the SHA-256 of the ledger bytes before this line "
                f"(expected {expected_prev!r}, got {prev_sha256!r}): the ledger was rewritten"
            )
        if len(problems) == start and parsed_date is not None:
            annulments.append(
                Annulment(
                    item_id=item_id,
                    decided_on=parsed_date,
                    contest_id=contest_id,
                    reason={language: reason[language] for language in LANGUAGES},
                    prev_sha256=prev_sha256,
                )
            )
    return tuple(annulments)


def _lines(data: bytes) -> list[bytes]:
    # Split on "\n" only, keeping it: the chain hashes exact bytes, and a JSON line may
    # not contain a raw newline anyway (json.dumps escapes it).
    pieces = data.split(b"\n")
    lines = [piece + b"\n" for piece in pieces[:-1]]
    if pieces[-1]:
        lines.append(pieces[-1])
    return lines
