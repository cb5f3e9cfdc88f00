"""The multidomain archive's Parquet schemas and kind files (multidomain-round.md).

Physical types: str = UTF-8 string, int = int64, bool = boolean, ts and date = ISO
strings, latency_ms = float64; a column is nullable exactly where the spec says
"or null". The core checks the column set and types with these.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

JUDGES_FILE = "judges.csv"
RUBRICS_FILE = "rubrics.parquet"
JUDGE_VIEWS_FILE = "judge_views.parquet"
JURY_FILE = "jury.parquet"
ADJUDICATIONS_FILE = "adjudications.parquet"
CALIBRATION_FILE = "calibration.parquet"
AUDIT_FILE = "audit.parquet"


def _str(name: str, *, null: bool = False) -> pa.Field[Any]:
    return pa.field(name, pa.string(), nullable=null)


def _int(name: str, *, null: bool = False) -> pa.Field[Any]:
    return pa.field(name, pa.int64(), nullable=null)


def _bool(name: str, *, null: bool = False) -> pa.Field[Any]:
    return pa.field(name, pa.bool_(), nullable=null)


# items.parquet columns after the core's (item_id, language, prompt, canary, published).
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

# responses/<model_id>.parquet columns after the core's (item_id, model_id, run,
# raw_text, latency_ms).
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
_RESPONSE_KEY = (_str("item_id"), _str("model_id"), _int("run"))
JUDGE_VIEWS_SCHEMA = pa.schema(
    [*_RESPONSE_KEY, _str("presented_as"), _str("view_text", null=True), _str("view_sha256")]
)
JURY_SCHEMA = pa.schema(
    [
        *_RESPONSE_KEY,
        _str("judge_id"),
        _str("criterion_id"),
        _int("score"),
        _int("position"),
        _str("judged_at"),
    ]
)
ADJUDICATIONS_SCHEMA = pa.schema(
    [*_RESPONSE_KEY, _str("judge_id"), _str("criterion_id"), _int("score"), _str("judged_at")]
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
        *_RESPONSE_KEY,
        _str("reviewer_id"),
        _str("criterion_id"),
        _int("score"),
        _bool("blind"),
        _str("scored_at"),
    ]
)

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
# models.csv columns after the core's.
MODEL_COLUMNS: tuple[str, ...] = (
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
