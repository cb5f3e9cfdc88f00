"""The Parquet schemas and CSV headers of a multidomain archive (multidomain-round.md).

One module holds them so that the writer and the reader cannot disagree: every
column, its physical type (`str` = string, `int` = int64, `bool`, `ts` and `date` =
ISO strings, `latency_ms` float64) and whether it may be null, in the spec's order.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from reportgen.archive._csv import MODELS_HEADER as MODELS_COMMON_HEADER
from reportgen.archive._parquet import bool_field as _bool
from reportgen.archive._parquet import int_field as _int
from reportgen.archive._parquet import items_schema, responses_schema
from reportgen.archive._parquet import string_field as _str

# Timestamps and dates are stored as text (spec: `ts` = "YYYY-MM-DDTHH:MM:SSZ",
# `date` = "YYYY-MM-DD").
TS_FORMAT = "%Y-%m-%dT%H:%M:%SZ"

ITEMS_FILE = "items.parquet"
RUBRICS_FILE = "rubrics.parquet"
JUDGE_VIEWS_FILE = "judge_views.parquet"
JURY_FILE = "jury.parquet"
ADJUDICATIONS_FILE = "adjudications.parquet"
CALIBRATION_FILE = "calibration.parquet"
AUDIT_FILE = "audit.parquet"
JUDGES_FILE = "judges.csv"
SCREENING_FILE = "screening.parquet"


# items.parquet and responses/<model_id>.parquet: the kind's columns, after the core's
# (`Kind.item_columns`, `Kind.response_columns`; `items_schema`, `responses_schema`).
ITEM_COLUMNS: tuple[pa.Field[Any], ...] = (
    _bool("calibration"),
    _str("domain_id"),
    _str("type"),
    _int("grade"),
    _int("weight"),
    _int("order", null=True),
    _str("choices", null=True),
    _str("answer_key", null=True),
    _str("tolerance_abs", null=True),
    _str("unit", null=True),
    _str("justification", null=True),
    _str("reference", null=True),
    _str("rubric_id", null=True),
    _str("content_sha256"),
    _str("variant_of", null=True),
)
ITEMS_SCHEMA = items_schema(ITEM_COLUMNS)

RESPONSE_COLUMNS: tuple[pa.Field[Any], ...] = (
    _str("status"),
    _str("raw_sha256", null=True),
    _str("prompt_sha256"),
    _str("extracted_answer", null=True),
    _bool("format_ok", null=True),
    _bool("correct", null=True),
    _bool("scored_before_discard", null=True),
    _str("response_language", null=True),
    _int("cost_micro"),
    _str("snapshot"),
    _str("called_at"),
)
RESPONSES_SCHEMA = responses_schema(RESPONSE_COLUMNS, raw_text_nullable=True)

RUBRICS_SCHEMA = pa.schema(
    [
        _str("rubric_id"),
        _str("criterion_id"),
        _int("position"),
        _str("name_pt"),
        _str("name_en"),
        _str("anchor_0"),
        _str("anchor_3"),
        _str("anchor_5"),
    ]
)
JUDGE_VIEWS_SCHEMA = pa.schema(
    [
        _str("item_id"),
        _str("model_id"),
        _int("run"),
        _str("presented_as"),
        _str("view_text", null=True),
        _str("view_sha256"),
    ]
)
JURY_SCHEMA = pa.schema(
    [
        _str("item_id"),
        _str("model_id"),
        _int("run"),
        _str("judge_id"),
        _str("criterion_id"),
        _int("score"),
        _int("position"),
        _str("judged_at"),
    ]
)
ADJUDICATIONS_SCHEMA = pa.schema(
    [
        _str("item_id"),
        _str("model_id"),
        _int("run"),
        _str("judge_id"),
        _str("criterion_id"),
        _int("score"),
        _str("judged_at"),
    ]
)
CALIBRATION_SCHEMA = pa.schema(
    [
        _str("item_id"),
        _str("response_id"),
        _str("response_text"),
        _str("response_sha256"),
        _str("rater_id"),
        _str("criterion_id"),
        _int("score"),
        _str("scored_on"),
    ]
)
AUDIT_SCHEMA = pa.schema(
    [
        _str("audit_id"),
        _str("item_id"),
        _str("model_id"),
        _int("run"),
        _str("reviewer_id"),
        _str("criterion_id"),
        _int("score"),
        _bool("blind"),
        _str("scored_at"),
    ]
)
# Art. 37: one row per item (test and calibration), the personal-data screening.
SCREENING_SCHEMA = pa.schema(
    [
        _str("item_id"),
        _str("screened_by"),
        _str("screened_on"),
        _str("result"),
        _str("declaration_pt", null=True),
        _str("declaration_en", null=True),
    ]
)

# The seven kind tables of SHA256SUMS besides the core's files, by file name.
KIND_PARQUET_SCHEMAS: dict[str, pa.Schema] = {
    RUBRICS_FILE: RUBRICS_SCHEMA,
    JUDGE_VIEWS_FILE: JUDGE_VIEWS_SCHEMA,
    JURY_FILE: JURY_SCHEMA,
    ADJUDICATIONS_FILE: ADJUDICATIONS_SCHEMA,
    CALIBRATION_FILE: CALIBRATION_SCHEMA,
    AUDIT_FILE: AUDIT_SCHEMA,
    SCREENING_FILE: SCREENING_SCHEMA,
}

# models.csv: the core's columns, then REG-BC-2026-001's in the spec's order.
MODELS_KIND_HEADER: tuple[str, ...] = (
    "annex_id",
    "organization",
    "economic_group",
    "language_affinity",
    "reserve",
    "replaces",
    "operated_by_organization",
    "weights_open",
    "checksum",
    "generation_sha256",
    "executives",
    "reference_models",
    "reference_date",
    "verified_on",
    "verification_source",
    "verification_status",
    "footnote_pt",
    "footnote_en",
)
MODELS_HEADER: tuple[str, ...] = (*MODELS_COMMON_HEADER, *MODELS_KIND_HEADER)

JUDGES_HEADER: tuple[str, ...] = (
    "judge_id",
    "kind",
    "role",
    "display_name",
    "provider",
    "api_identifier",
    "snapshot",
    "economic_group",
    "participant_model_id",
    "operated_by_organization",
    "declared_conflict",
    "conflict_note",
)
