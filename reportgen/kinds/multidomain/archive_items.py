"""items.parquet's multidomain columns, row by row (multidomain-round.md, items.parquet).

Refusals 19 (keys, justifications, rubrics), 21 (content_sha256), 24 (a canary in a
prompt), 26 (variants) and the columns' types and nullability per item type. What
needs round.json (domains, weights, bank_sha256, languages) is `check_round`'s.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import fields

import pyarrow as pa

from reportgen.archive import FileProblems
from reportgen.kinds import TableRead
from reportgen.kinds.multidomain.model import GRADES, ITEM_TYPES, Item
from reportgen.kinds.multidomain.schemas import RUBRICS_FILE
from reportgen.kinds.multidomain.terms import content_sha256

DECIMAL = re.compile(r"-?\d+(\.\d+)?")
_CHOICES = re.compile(r"[A-Z]{2,10}")
# Item's fields, in the order of its dataclass (the table's columns are read by name).
_FIELDS = tuple(f.name for f in fields(Item))

Issue = tuple[str, str]  # (column, message)


def check_items(
    table: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
) -> tuple[Item, ...]:
    """Every row as an Item after reporting each row's problems (a bad row still
    becomes an Item, so that responses and the ledger can be checked against it)."""
    columns = [table.column(name).to_pylist() for name in _FIELDS]
    items = tuple(Item(*values) for values in zip(*columns, strict=True))
    rubric_ids = tables[RUBRICS_FILE].ids("rubric_id") if RUBRICS_FILE in tables else None
    by_id: dict[str, Item] = {}
    for item in items:
        by_id.setdefault(item.item_id, item)
    canary_rows: dict[str, int] = {}
    issues: dict[str, list[tuple[str, str]]] = {}
    for number, item in enumerate(items, start=1):
        problems = _item_problems(item, rubric_ids, by_id)
        if item.canary is not None and not item.calibration:
            first = canary_rows.setdefault(item.canary, number)
            if first != number:
                problems.append(("canary", f"duplicate canary (first in row {first})"))
        for column, message in problems:
            issues.setdefault(column, []).append(
                (f"row {number} (item {item.item_id!r}), {column}", message)
            )
    for column, entries in issues.items():
        found.rows(entries, f"rows with a bad {column}")
    _check_canaries_in_prompts(items, found)
    return items


def _item_problems(
    item: Item, rubric_ids: frozenset[str] | None, by_id: Mapping[str, Item]
) -> list[Issue]:
    problems: list[Issue] = []
    if item.type not in ITEM_TYPES:
        return [("type", f"expected one of {' | '.join(ITEM_TYPES)}, got {item.type!r}")]
    if item.grade not in GRADES:
        problems.append(("grade", f"expected an integer 1..5, got {item.grade}"))
    if item.weight < 1:
        problems.append(("weight", f"expected a positive integer, got {item.weight}"))
    problems += _by_type(item, rubric_ids)
    if item.content_sha256 != content_sha256(item):
        problems.append(
            (
                "content_sha256",
                f"expected {content_sha256(item)} (recomputed from the item's content)",
            )
        )
    if item.calibration:
        problems += _calibration_problems(item)
    else:
        problems += _test_problems(item, by_id)
    return problems


def _by_type(item: Item, rubric_ids: frozenset[str] | None) -> list[Issue]:
    """The columns each type fills (refusal 19 and the nullability per type)."""
    problems: list[Issue] = []
    needed = {
        "mcq": ("choices", "answer_key", "justification"),
        "calc": ("answer_key", "tolerance_abs", "justification"),
        "open": ("rubric_id",),
    }[item.type]
    unused = {
        "mcq": ("tolerance_abs", "unit", "rubric_id"),
        "calc": ("choices", "rubric_id"),
        "open": ("choices", "answer_key", "tolerance_abs", "unit"),
    }[item.type]
    for column in needed:
        value = getattr(item, column)
        if value is None or not value.strip():
            problems.append((column, f"required for a {item.type} item"))
    for column in unused:
        if getattr(item, column) is not None:
            problems.append((column, f"expected null for a {item.type} item"))
    if problems:
        return problems
    if item.type == "mcq":
        choices = item.choices or ""
        if not _CHOICES.fullmatch(choices) or len(set(choices)) != len(choices):
            problems.append(("choices", f"expected 2 to 10 distinct letters A-Z, got {choices!r}"))
        elif item.answer_key is None or len(item.answer_key) != 1 or item.answer_key not in choices:
            problems.append(
                (
                    "answer_key",
                    f"expected one letter of choices {choices!r}, got {item.answer_key!r}",
                )
            )
    elif item.type == "calc":
        if not DECIMAL.fullmatch(item.answer_key or ""):
            problems.append(
                ("answer_key", f"expected a canonical decimal, got {item.answer_key!r}")
            )
        if not re.fullmatch(r"\d+(\.\d+)?", item.tolerance_abs or ""):
            problems.append(
                ("tolerance_abs", f"expected a canonical decimal >= 0, got {item.tolerance_abs!r}")
            )
    elif rubric_ids is not None and item.rubric_id not in rubric_ids:
        problems.append(("rubric_id", f"{item.rubric_id!r} is not a rubric of {RUBRICS_FILE}"))
    return problems


def _calibration_problems(item: Item) -> list[Issue]:
    problems: list[Issue] = []
    if item.type != "open":
        problems.append(("type", "a calibration item is open"))
    if item.canary is not None:
        problems.append(("canary", "a calibration item has no canary: expected null"))
    if not item.published:
        problems.append(
            ("published", "a calibration item is published with the report: expected true")
        )
    if item.variant_of is not None:
        problems.append(("variant_of", "a calibration item replaces nothing: expected null"))
    if item.order is not None:
        problems.append(("order", "a calibration item is never presented: expected null"))
    return problems


def _test_problems(item: Item, by_id: Mapping[str, Item]) -> list[Issue]:
    problems: list[Issue] = []
    if item.canary is None:
        problems.append(("canary", "a test item needs its canary"))
    if item.published:
        problems.append(
            (
                "published",
                "a test item becomes public by the embargo rule, never by the flag: expected false",
            )
        )
    if item.order is None or item.order < 1:
        problems.append(("order", f"expected a position >= 1, got {item.order}"))
    if item.variant_of is None:
        return problems
    target = by_id.get(item.variant_of)
    if target is None or target.calibration or target.item_id == item.item_id:
        problems.append(
            ("variant_of", f"{item.variant_of!r} is not another test item of the archive")
        )
        return problems
    differing = [
        f
        for f in ("domain_id", "language", "type", "grade")
        if getattr(target, f) != getattr(item, f)
    ]
    if differing:
        shown = ", ".join(
            f"{f} {getattr(item, f)!r} (target {getattr(target, f)!r})" for f in differing
        )
        problems.append(
            (
                "variant_of",
                f"a variant keeps the replaced item's domain, language, type and grade: {shown}",
            )
        )
    if target.content_sha256 == item.content_sha256:
        problems.append(
            ("variant_of", f"a variant must differ from {target.item_id!r}: same content_sha256")
        )
    return problems


def _check_canaries_in_prompts(items: Sequence[Item], found: FileProblems) -> None:
    """Refusal 24: one search per canary over all prompts joined (fast, not items^2)."""
    starts: list[int] = []
    parts: list[str] = []
    offset = 0
    for item in items:
        starts.append(offset)
        parts.append(item.prompt)
        offset += len(item.prompt) + 1
    joined = "\0".join(parts)
    entries: list[tuple[str, str]] = []
    for canary_item in items:
        canary = canary_item.canary
        if not canary:
            continue
        position = joined.find(canary)
        while position != -1:
            row = bisect.bisect_right(starts, position) - 1
            item = items[row]
            entries.append(
                (
                    f"row {row + 1} (item {item.item_id!r}), prompt",
                    f"contains the canary of item {canary_item.item_id!r}: a canary is never sent",
                )
            )
            position = joined.find(canary, starts[row] + len(item.prompt) + 1)
    found.rows(entries, "prompts holding a canary")
