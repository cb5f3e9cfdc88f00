"""models.csv's kind columns, judges.csv and the six Parquet tables of a multidomain
archive, read row by row (multidomain-round.md).

Each reader checks what one row shows on its own (types, enums, slugs, dates, the
rubric anchors, refusals 8 to 11 against round.json) and returns the valid rows; the
rules across tables are `rules.check_rules`'s and the kind's `check_round`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import fields
from typing import Any, TypeVar, cast

import pyarrow as pa

from reportgen.archive import (
    SLUG,
    FileProblems,
    Record,
    RowChecker,
    bool_text,
    parse_rows,
    record_row,
)
from reportgen.kinds import ParquetTableSpec, TableSpec
from reportgen.kinds.multidomain import schemas
from reportgen.kinds.multidomain.archive_block import BCP47, SHA256, parse_day, parse_timestamp
from reportgen.kinds.multidomain.archive_columns import (
    column_at_least,
    column_matches,
    table_rows,
)
from reportgen.kinds.multidomain.model import (
    Adjudication,
    AuditScore,
    CalibrationScore,
    Criterion,
    Judge,
    JudgeView,
    JuryScore,
    Manifest,
    Participant,
)
from reportgen.kinds.multidomain.terms import canonical_json, sha256_text
from reportgen.model import Manifest as CoreManifest
from reportgen.model import Model

T = TypeVar("T")
VERIFICATION_STATUSES = ("confirmed", "reverted", "verificar")
_PRESENTED_AS = r"^SISTEMA-[0-9A-Z]{2,}$"
_PRESENTED = re.compile(_PRESENTED_AS)


# --- models.csv ------------------------------------------------------------------------


def _integer(row: RowChecker, field: str, *, empty: bool = False) -> int | None:
    value = row.record[field]
    if empty and value == "":
        return None
    if not value.isdigit():
        row.bad(field, f"expected a positive integer{' or empty' if empty else ''}, got {value!r}")
        return 0
    return int(value)


def parse_participant(core: Model, row: RowChecker, manifest: CoreManifest | None) -> Participant:
    """The models.csv row as a Participant; checked against round.json when it is valid."""
    record = row.record
    tags = tuple(record["language_affinity"].split(";"))
    if not all(BCP47.fullmatch(tag) for tag in tags):
        row.bad("language_affinity", f"expected ';'-separated BCP-47 tags, got {tags!r}")
    economic_group = record["economic_group"]
    if not SLUG.fullmatch(economic_group):
        row.bad("economic_group", f"{economic_group!r} is not a slug [a-z0-9][a-z0-9-]*")
    generation_sha256 = record["generation_sha256"]
    if not SHA256.fullmatch(generation_sha256):
        row.bad(
            "generation_sha256", f"expected 64 lower-case hex digits, got {generation_sha256!r}"
        )
    participant = Participant(
        **{f.name: getattr(core, f.name) for f in fields(Model)},
        annex_id=_integer(row, "annex_id") or 0,
        organization=row.text("organization"),
        economic_group=economic_group,
        language_affinity=tags,
        reserve=row.boolean("reserve"),
        replaces=_integer(row, "replaces", empty=True),
        operated_by_organization=row.boolean("operated_by_organization"),
        weights_open=row.boolean("weights_open"),
        checksum=record["checksum"],
        generation_sha256=generation_sha256,
        executives=row.text("executives"),
        reference_models=row.text("reference_models"),
        reference_date=row.iso_date("reference_date"),
        verified_on=row.iso_date("verified_on"),
        verification_source=row.text("verification_source"),
        verification_status=row.choice("verification_status", VERIFICATION_STATUSES),  # type: ignore[arg-type]
        footnote_pt=record["footnote_pt"],
        footnote_en=record["footnote_en"],
    )
    _check_participant(participant, row)
    if isinstance(manifest, Manifest) and row.valid:
        _check_against_manifest(participant, manifest, row)
    return participant


def _check_participant(participant: Participant, row: RowChecker) -> None:
    if participant.weights_open and not participant.checksum.strip():
        row.bad("checksum", "open weights (weights_open true) need the artifact's checksum")
    # The problem names the footnote column at fault: the empty one, or the filled one.
    filled = {
        "footnote_pt": bool(participant.footnote_pt.strip()),
        "footnote_en": bool(participant.footnote_en.strip()),
    }
    verificar = participant.verification_status == "verificar"
    if verificar and not all(filled.values()):
        column = next(name for name, present in filled.items() if not present)
        row.bad(column, "status 'verificar' needs both footnote_pt and footnote_en")
    elif not verificar and any(filled.values()):
        column = next(name for name, present in filled.items() if present)
        row.bad(column, "footnotes are for status 'verificar' only: expected both empty")
    if not participant.reserve and participant.replaces is not None:
        row.bad("replaces", "only a reserve replaces a withdrawn entry: expected empty")


def _check_against_manifest(participant: Participant, manifest: Manifest, row: RowChecker) -> None:
    """Refusals 8, 10 (verified_on) and 11: what round.json fixes for this row."""
    if participant.verified_on > manifest.collected_on:
        row.bad(
            "verified_on",
            f"re-verification must precede the round: {participant.verified_on} is after "
            f"collected_on {manifest.collected_on}",
        )
    expected_generation = sha256_text(canonical_json(dict(manifest.generation)))
    if participant.generation_sha256 != expected_generation:
        row.bad(
            "generation_sha256",
            f"expected {expected_generation} (round.json generation): every participant runs "
            "under the same conditions",
        )
    annex = {entry.annex_id: entry for entry in manifest.annex}
    entry = annex.get(participant.annex_id)
    if entry is None:
        row.bad("annex_id", f"{participant.annex_id} is not an annex entry of round.json")
        return
    for field, expected, got in (
        ("organization", entry.organization, participant.organization),
        (
            "language_affinity",
            ";".join(entry.language_affinity),
            ";".join(participant.language_affinity),
        ),
        ("reserve", bool_text(entry.reserve), bool_text(participant.reserve)),
    ):
        if expected != got:
            row.bad(field, f"annex entry {entry.annex_id} has {expected!r}, got {got!r}")


def participant_row(model: Model) -> list[str]:
    """models.csv fields of the kind's columns."""
    return record_row(cast(Participant, model), schemas.MODELS_KIND_HEADER)


# --- judges.csv ------------------------------------------------------------------------


def parse_judges(records: Sequence[Record], found: FileProblems) -> tuple[Judge, ...]:
    seen: dict[str, int] = {}

    def build(row: RowChecker) -> Judge:
        judge = Judge(
            judge_id=row.unique_id("judge_id", seen, slug=True),
            kind=row.choice("kind", ("model", "human")),  # type: ignore[arg-type]
            role=row.choice("role", ("juror", "adjudicator", "reviewer")),  # type: ignore[arg-type]
            display_name=row.text("display_name"),
            provider=row.record["provider"],
            api_identifier=row.record["api_identifier"],
            snapshot=row.record["snapshot"],
            economic_group=row.record["economic_group"],
            participant_model_id=row.record["participant_model_id"],
            operated_by_organization=row.boolean("operated_by_organization"),
            declared_conflict=row.boolean("declared_conflict"),
            conflict_note=row.record["conflict_note"],
        )
        if judge.kind == "model":
            for field in ("provider", "api_identifier", "snapshot", "economic_group"):
                if not getattr(judge, field).strip():
                    row.bad(field, "required for a model judge")
        if judge.economic_group and not SLUG.fullmatch(judge.economic_group):
            row.bad("economic_group", f"{judge.economic_group!r} is not a slug")
        if judge.role == "reviewer" and judge.kind != "human":
            row.bad("role", "a reviewer is a person: expected kind human")
        if judge.declared_conflict and not judge.conflict_note.strip():
            row.bad("conflict_note", "a declared conflict needs its note")
        return judge

    return parse_rows(records, found, build)


def judge_row(row: object) -> list[str]:
    return record_row(cast(Judge, row), schemas.JUDGES_HEADER)


# --- the Parquet tables -----------------------------------------------------------------

_JUDGED = {"judged_at": parse_timestamp}


def _response_label(row: dict[str, Any]) -> str:
    return f"item {row['item_id']!r}, model {row['model_id']!r}, run {row['run']}"


def _no_checks(row: dict[str, Any]) -> list[tuple[str, str]]:
    return []


def _run_checks(row: dict[str, Any]) -> list[tuple[str, str]]:
    return [] if row["run"] >= 1 else [("run", f"expected an integer >= 1, got {row['run']}")]


def _runs_clean(table: pa.Table) -> bool:
    return column_at_least(table, "run", 1)


def parse_rubrics(table: pa.Table, found: FileProblems) -> tuple[Criterion, ...]:
    """Refusal 20 (anchors) and the rubric's shape: unique criteria, positions 1..c."""

    def check(row: dict[str, Any]) -> list[tuple[str, str]]:
        problems = [
            (column, "must not be empty (a worked example of this score, Art. 25)")
            for column in ("anchor_0", "anchor_3", "anchor_5")
            if not row[column].strip()
        ]
        problems += [
            (column, "must not be empty")
            for column in ("rubric_id", "criterion_id", "name_pt", "name_en")
            if not row[column].strip()
        ]
        return problems

    def label(row: dict[str, Any]) -> str:
        return f"rubric {row['rubric_id']!r}, criterion {row['criterion_id']!r}"

    rows = table_rows(table, found, Criterion, label, check, {})
    by_rubric: dict[str, list[Criterion]] = {}
    for criterion in rows:
        by_rubric.setdefault(criterion.rubric_id, []).append(criterion)
    for rubric_id, criteria in by_rubric.items():
        ids = [c.criterion_id for c in criteria]
        positions = sorted(c.position for c in criteria)
        if len(set(ids)) != len(ids):
            found.add(f"rubric {rubric_id!r}", f"criterion ids must be unique, got {ids}")
        if positions != list(range(1, len(criteria) + 1)):
            found.add(
                f"rubric {rubric_id!r}",
                f"positions must be 1..{len(criteria)} without gaps, got {positions}",
            )
    return rows


def parse_judge_views(table: pa.Table, found: FileProblems) -> tuple[JudgeView, ...]:
    def check(row: dict[str, Any]) -> list[tuple[str, str]]:
        problems = _run_checks(row)
        if not _PRESENTED.fullmatch(row["presented_as"]):
            problems.append(
                ("presented_as", f"expected {_PRESENTED_AS}, got {row['presented_as']!r}")
            )
        if not SHA256.fullmatch(row["view_sha256"]):
            problems.append(("view_sha256", "expected 64 lower-case hex digits"))
        return problems

    def clean(table: pa.Table) -> bool:
        return (
            column_at_least(table, "run", 1)
            and column_matches(table, "presented_as", _PRESENTED_AS[1:-1])
            and column_matches(table, "view_sha256", SHA256.pattern)
        )

    return table_rows(table, found, JudgeView, _response_label, check, {}, clean)


def parse_jury(table: pa.Table, found: FileProblems) -> tuple[JuryScore, ...]:
    def check(row: dict[str, Any]) -> list[tuple[str, str]]:
        problems = _run_checks(row)
        if row["position"] < 1:
            problems.append(("position", f"expected a rank >= 1, got {row['position']}"))
        return problems

    def label(row: dict[str, Any]) -> str:
        return f"{_response_label(row)}, judge {row['judge_id']!r}"

    def clean(table: pa.Table) -> bool:
        return column_at_least(table, "run", 1) and column_at_least(table, "position", 1)

    return table_rows(table, found, JuryScore, label, check, _JUDGED, clean)


def parse_adjudications(table: pa.Table, found: FileProblems) -> tuple[Adjudication, ...]:
    def label(row: dict[str, Any]) -> str:
        return f"{_response_label(row)}, judge {row['judge_id']!r}"

    return table_rows(table, found, Adjudication, label, _run_checks, _JUDGED, _runs_clean)


def parse_calibration(table: pa.Table, found: FileProblems) -> tuple[CalibrationScore, ...]:
    def check(row: dict[str, Any]) -> list[tuple[str, str]]:
        if sha256_text(row["response_text"]) != row["response_sha256"]:
            return [("response_sha256", "expected sha256(response_text)")]
        return []

    def label(row: dict[str, Any]) -> str:
        return (
            f"item {row['item_id']!r}, response {row['response_id']!r}, rater {row['rater_id']!r}"
        )

    return table_rows(table, found, CalibrationScore, label, check, {"scored_on": parse_day})


def parse_audit(table: pa.Table, found: FileProblems) -> tuple[AuditScore, ...]:
    def label(row: dict[str, Any]) -> str:
        return f"audit {row['audit_id']!r}, {_response_label(row)}"

    scored_at = {"scored_at": parse_timestamp}
    return table_rows(table, found, AuditScore, label, _run_checks, scored_at, _runs_clean)


TABLES: tuple[TableSpec | ParquetTableSpec, ...] = (
    TableSpec(schemas.JUDGES_FILE, schemas.JUDGES_HEADER, parse_judges, judge_row, "judge_id"),
    ParquetTableSpec(schemas.RUBRICS_FILE, schemas.RUBRICS_SCHEMA, parse_rubrics, "rubric_id"),
    ParquetTableSpec(schemas.JUDGE_VIEWS_FILE, schemas.JUDGE_VIEWS_SCHEMA, parse_judge_views),
    ParquetTableSpec(schemas.JURY_FILE, schemas.JURY_SCHEMA, parse_jury),
    ParquetTableSpec(schemas.ADJUDICATIONS_FILE, schemas.ADJUDICATIONS_SCHEMA, parse_adjudications),
    ParquetTableSpec(schemas.CALIBRATION_FILE, schemas.CALIBRATION_SCHEMA, parse_calibration),
    ParquetTableSpec(schemas.AUDIT_FILE, schemas.AUDIT_SCHEMA, parse_audit),
)
