"""responses/<model_id>.parquet's multidomain columns (multidomain-round.md, responses).

`check_response_table` checks one file on its own (status values, the raw text and its
hash, refusal 31, one snapshot per file, refusal 14); `check_responses_against` checks
each row against its item, the models and round.json once the round is typed
(refusals 28, 29, 30, 32, 33 and the status table).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import fields
from decimal import Decimal
from itertools import starmap
from typing import Any

import pyarrow as pa
import pyarrow.compute as _compute

from reportgen.archive import FileProblems, Problems, response_path
from reportgen.kinds.multidomain.archive_block import BCP47, SHA256, parse_timestamp
from reportgen.kinds.multidomain.archive_columns import all_true, convert_column
from reportgen.kinds.multidomain.archive_items import DECIMAL
from reportgen.kinds.multidomain.model import STATUSES, Item, Response, Round
from reportgen.kinds.multidomain.terms import sha256_text

pc: Any = _compute  # as in archive_columns: the stubs miss ChunkedArray masks
Issue = tuple[str, str]  # (column, message)
_TEXT_KEPT = ("ok", "format_violation", "refusal")  # raw_text non-null
_TEXT_NULL = ("timeout", "error", "discarded_personal_data")
_LATENCY_NEEDED = ("ok", "format_violation", "refusal", "discarded_personal_data")


def _where(row: Mapping[str, Any], number: int) -> str:
    return f"row {number} (item {row['item_id']!r}, run {row.get('run', 1)})"


def _rows(table: pa.Table) -> Iterator[dict[str, Any]]:
    names = table.column_names
    columns = [table.column(name).to_pylist() for name in names]
    for values in zip(*columns, strict=True):
        yield dict(zip(names, values, strict=True))


def check_response_table(table: pa.Table, found: FileProblems) -> None:
    """The checks one response file allows on its own; `where` is built per row here so
    that it names the run too. A file whose columns pass `_clean` as a whole is not read
    row by row; any other is, so that each problem names its row."""
    with_text = "raw_text" in table.column_names
    if not _clean(table, with_text=with_text):
        entries: list[tuple[str, str]] = []
        for number, row in enumerate(_rows(table), start=1):
            for column, message in _row_problems(row, with_text=with_text):
                entries.append((f"{_where(row, number)}, {column}", message))
        found.rows(entries, "rows with a problem")
    snapshots: dict[Any, int] = {}
    snapshot_column: list[Any] = table.column("snapshot").to_pylist()
    for number, snapshot in enumerate(snapshot_column, start=1):
        snapshots.setdefault(snapshot, number)
    if len(snapshots) > 1:
        listed = ", ".join(f"{s!r} (first in row {r})" for s, r in snapshots.items())
        found.add("snapshot", f"one participant's calls carry one snapshot (Art. 9), got {listed}")


def _matches(values: Any, pattern: re.Pattern[str]) -> Any:
    """Whole-value match of an ASCII-only pattern (RE2 reads it as `re` does); null stays null."""
    return pc.match_substring_regex(values, f"^(?:{pattern.pattern})$")


def _clean(table: pa.Table, *, with_text: bool) -> bool:
    """True only when `_row_problems` finds nothing in any row: the same checks on whole
    columns (pyarrow compute), the hashes of the texts one by one."""
    needed = {"status", "called_at", "cost_micro", "prompt_sha256", "response_language"}
    needed |= {"scored_before_discard", "latency_ms"} | ({"raw_sha256"} if with_text else set())
    if not needed <= set(table.column_names):
        return False
    status = table.column("status")
    if status.null_count or not all_true(pc.is_in(status, value_set=pa.array(STATUSES))):
        return False
    called_at = table.column("called_at").to_pylist()
    if None in convert_column(called_at, parse_timestamp):
        return False
    cost, language = table.column("cost_micro"), table.column("response_language")
    if cost.null_count or (len(cost) and pc.min(cost).as_py() < 0):
        return False
    prompt = table.column("prompt_sha256")
    if prompt.null_count or not all_true(_matches(prompt, SHA256)):
        return False
    language_ok = pc.or_kleene(pc.is_null(language), _matches(language, BCP47))
    discarded = pc.equal(status, "discarded_personal_data")
    scored_before = pc.is_valid(table.column("scored_before_discard"))
    latency_needed = pc.is_in(status, value_set=pa.array(_LATENCY_NEEDED))
    latency_ok = pc.or_(pc.invert(latency_needed), pc.is_valid(table.column("latency_ms")))
    if not all(all_true(m) for m in (language_ok, pc.equal(discarded, scored_before), latency_ok)):
        return False
    return not with_text or _texts_clean(table, status, discarded)


def _texts_clean(table: pa.Table, status: Any, discarded: Any) -> bool:
    """`_text_problems` finds nothing in any row."""
    texts, digests = table.column("raw_text"), table.column("raw_sha256")
    has_text, has_digest = pc.is_valid(texts), pc.is_valid(digests)
    kept = pc.is_in(status, value_set=pa.array(_TEXT_KEPT))
    digest_ok = pc.and_(has_digest, pc.fill_null(_matches(digests, SHA256), False))
    rules = (
        # discarded: no text, the digest of the text discarded
        pc.or_(pc.invert(discarded), pc.and_(pc.invert(has_text), digest_ok)),
        pc.or_(pc.invert(kept), has_text),
        pc.or_(pc.invert(pc.is_in(status, value_set=pa.array(_TEXT_NULL))), pc.invert(has_text)),
        # any other status without text (timeout, error): no digest either
        pc.or_(pc.or_(discarded, has_text), pc.invert(has_digest)),
    )
    if not all(all_true(rule) for rule in rules):
        return False
    # The remaining statuses keep no text: every text left is a kept one, hashed here.
    return all(
        text is None or digest == sha256_text(text)
        for text, digest in zip(texts.to_pylist(), digests.to_pylist(), strict=True)
    )


def _row_problems(row: Mapping[str, Any], *, with_text: bool) -> list[Issue]:
    status = row["status"]
    if status not in STATUSES:
        return [("status", f"expected one of {' | '.join(STATUSES)}, got {status!r}")]
    problems: list[Issue] = []
    if parse_timestamp(row["called_at"]) is None:
        problems.append(
            (
                "called_at",
                f"expected a UTC timestamp YYYY-MM-DDTHH:MM:SSZ, got {row['called_at']!r}",
            )
        )
    if row["cost_micro"] < 0:
        problems.append(("cost_micro", f"expected an integer >= 0, got {row['cost_micro']}"))
    if not SHA256.fullmatch(row["prompt_sha256"]):
        problems.append(("prompt_sha256", "expected 64 lower-case hex digits"))
    language = row["response_language"]
    if language is not None and not BCP47.fullmatch(language):
        problems.append(("response_language", f"expected a BCP-47 tag or null, got {language!r}"))
    discarded = status == "discarded_personal_data"
    if discarded != (row["scored_before_discard"] is not None):
        expected = "required for" if discarded else "null except for"
        problems.append(("scored_before_discard", f"{expected} a discarded_personal_data response"))
    if (
        status in ("ok", "format_violation", "refusal", "discarded_personal_data")
        and row["latency_ms"] is None
    ):
        problems.append(("latency_ms", f"required for status {status}"))
    if with_text:
        problems += _text_problems(row, status)
    return problems


def _text_problems(row: Mapping[str, Any], status: str) -> list[Issue]:
    raw_text, raw_sha256 = row["raw_text"], row["raw_sha256"]
    if status == "discarded_personal_data":
        problems = (
            []
            if raw_text is None
            else [
                (
                    "raw_text",
                    "a response discarded for personal data keeps no text (Art. 39): expected null",
                )
            ]
        )
        if raw_sha256 is None or not SHA256.fullmatch(raw_sha256):
            problems.append(
                (
                    "raw_sha256",
                    "required for a discarded response: the sha256 of the text discarded",
                )
            )
        return problems
    if status in _TEXT_KEPT and raw_text is None:
        return [("raw_text", f"required for status {status}")]
    if status in _TEXT_NULL and raw_text is not None:
        return [("raw_text", f"expected null for status {status}")]
    if raw_text is None:
        return [] if raw_sha256 is None else [("raw_sha256", "expected null when raw_text is null")]
    if raw_sha256 != sha256_text(raw_text):
        return [("raw_sha256", "expected sha256(raw_text)")]
    return []


def responses_of(table: pa.Table) -> tuple[Response, ...]:
    """The rows of a checked response file, in file order (raw_text None when not read)."""
    present = set(table.column_names)
    empty = [None] * table.num_rows
    columns = [
        table.column(name).to_pylist() if name in present else empty
        for name in (f.name for f in fields(Response))
    ]
    at = [f.name for f in fields(Response)].index("called_at")
    columns[at] = convert_column(columns[at], parse_timestamp)
    return tuple(starmap(Response, zip(*columns, strict=True)))


# --- against the items, the models and round.json --------------------------------------


def check_responses_against(round_: Round, problems: Problems) -> None:
    items = {item.item_id: item for item in round_.items}
    prompt_hashes = {item.item_id: sha256_text(item.prompt) for item in round_.items}
    manifest = round_.manifest
    assert manifest.ended_on is not None  # required for this kind
    first_day, last_day = manifest.collected_on, manifest.ended_on
    timeout_ms = 1000 * float(manifest.generation.get("timeout_s", 0))  # type: ignore[arg-type]
    for model in round_.models:
        found = problems.in_file(response_path(model.model_id))
        entries: list[tuple[str, str]] = []
        responses = round_.responses.get(model.model_id, ())
        for number, response in enumerate(responses, start=1):
            item = items[response.item_id]
            issues = _against_item(response, item, prompt_hashes[item.item_id], timeout_ms)
            if not first_day <= response.called_at.date() <= last_day:
                issues.append(
                    (
                        "called_at",
                        f"{response.called_at:%Y-%m-%dT%H:%M:%SZ} lies outside the round's dates "
                        f"{first_day} to {last_day}",
                    )
                )
            where = f"row {number} (item {response.item_id!r}, run {response.run})"
            entries += [(f"{where}, {column}", message) for column, message in issues]
        found.rows(entries, "rows with a problem")
        if model.snapshot and responses and responses[0].snapshot != model.snapshot:
            found.add(
                "snapshot",
                f"the calls carry {responses[0].snapshot!r}, "
                f"models.csv declares {model.snapshot!r}",
            )


def _against_item(
    response: Response, item: Item, prompt_hash: str, timeout_ms: float
) -> list[Issue]:
    if item.calibration:
        return [("item_id", "a calibration item is never presented to participants: no response")]
    issues: list[Issue] = []
    if response.prompt_sha256 != prompt_hash:
        issues.append(
            (
                "prompt_sha256",
                "expected sha256 of the item's prompt: every participant gets the same text",
            )
        )
    if (
        response.status == "timeout"
        and response.latency_ms is not None
        and response.latency_ms < timeout_ms
    ):
        issues.append(
            ("latency_ms", f"a timeout is null or >= {timeout_ms:g} ms (1000 x timeout_s)")
        )
    return issues + _status_issues(response, item)


def _status_issues(response: Response, item: Item) -> list[Issue]:
    """The status table: format_ok, extracted_answer and correct per status and type."""
    status, graded = response.status, item.type in ("mcq", "calc")
    if status == "format_violation" and not graded:
        return [("status", "format_violation applies to mcq and calc items only")]
    scored = status == "ok" or (
        status == "discarded_personal_data" and response.scored_before_discard
    )
    if not graded:
        expected: tuple[bool | None, bool] = (None, False)
    elif scored:
        expected = (True, True)
    else:
        expected = (None if status == "discarded_personal_data" else False, False)
    format_ok, answered = expected
    issues: list[Issue] = []
    if response.format_ok is not format_ok:
        issues.append(
            ("format_ok", f"expected {_json(format_ok)} for status {status} on a {item.type} item")
        )
    for column in ("extracted_answer", "correct"):
        present = getattr(response, column) is not None
        if present != answered:
            wanted = "a value" if answered else "null"
            issues.append((column, f"expected {wanted} for status {status} on a {item.type} item"))
    if issues or not answered:
        return issues
    return _answer_issues(response, item)


def _answer_issues(response: Response, item: Item) -> list[Issue]:
    """The extracted answer's form and refusal 32 (`correct`, exact decimals for calc)."""
    answer = response.extracted_answer or ""
    if item.type == "mcq":
        if len(answer) != 1 or answer not in (item.choices or ""):
            return [
                ("extracted_answer", f"expected one letter of {item.choices!r}, got {answer!r}")
            ]
        right = answer == item.answer_key
    else:
        if not DECIMAL.fullmatch(answer):
            return [("extracted_answer", f"expected a canonical decimal, got {answer!r}")]
        gap = abs(Decimal(answer) - Decimal(item.answer_key or "0"))
        right = gap <= Decimal(item.tolerance_abs or "0")
    if response.correct is not right:
        return [
            (
                "correct",
                f"expected {_json(right)}: extracted {answer!r}, key {item.answer_key!r}"
                + (f", tolerance {item.tolerance_abs}" if item.type == "calc" else ""),
            )
        ]
    return []


def _json(value: bool | None) -> str:
    return "null" if value is None else str(value).lower()
