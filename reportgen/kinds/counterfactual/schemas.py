"""The Parquet schemas and CSV headers of a counterfactual archive (counterfactual-round.md).

One module holds them so that the writer and the reader cannot disagree: every
column, its physical type (`str` = string, `int` = int64, `bool`; timestamps and
dates are ISO strings, `latency_ms` float64) and whether it may be null, in the
spec's order. templates.csv's header ends with one `expected_<variable_id>` column per
binary variable, in variables.csv order: `templates_header` builds it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pyarrow as pa

from reportgen.archive._csv import MODELS_HEADER as MODELS_COMMON_HEADER
from reportgen.archive._parquet import int_field as _int
from reportgen.archive._parquet import items_schema, responses_schema
from reportgen.archive._parquet import string_field as _str

ITEMS_FILE = "items.parquet"
ATTRIBUTES_FILE = "attributes.csv"
GROUPS_FILE = "groups.csv"
VARIANTS_FILE = "variants.csv"
TEMPLATES_FILE = "templates.csv"
REWRITES_FILE = "rewrites.csv"
VARIABLES_FILE = "variables.csv"
CALIBRATION_FILE = "calibration.parquet"
EXTRACTION_CHECKS_FILE = "extraction_checks.parquet"  # people's checks of extractions
MASK_AUDIT_FILE = "mask_audit.parquet"  # the mask audit's decisions (issue 21)
EXTRACTIONS_DIR = "extractions"
EXPECTED_PREFIX = "expected_"


def extraction_path(model_id: str) -> str:
    """The archive-relative path of a system's extractions."""
    return f"{EXTRACTIONS_DIR}/{model_id}.parquet"


# items.parquet and responses/<model_id>.parquet: the kind's columns, after the core's
# (`Kind.item_columns`, `Kind.response_columns`; `items_schema`, `responses_schema`).
ITEM_COLUMNS: tuple[pa.Field[Any], ...] = (
    _str("template_id"),
    _str("attribute_id"),
    _str("variant_id"),
    _str("context", null=True),
    _str("prompt_sha256"),
    _str("context_sha256", null=True),
)
ITEMS_SCHEMA = items_schema(ITEM_COLUMNS)

RESPONSE_COLUMNS: tuple[pa.Field[Any], ...] = (
    _str("called_at"),
    _int("run_order"),
    _str("system_prompt_sha256"),
    _str("tools_sha256"),
    _str("prompt_sha256"),
    _str("context_sha256", null=True),
)
RESPONSES_SCHEMA = responses_schema(RESPONSE_COLUMNS, raw_text_nullable=False)

EXTRACTIONS_SCHEMA = pa.schema(
    [
        _str("model_id"),
        _str("item_id"),
        _int("run"),
        _str("variable_id"),
        _str("value"),
        _str("input_text", null=True),
        _str("input_sha256", null=True),
    ]
)

CALIBRATION_SCHEMA = pa.schema(
    [
        _str("variable_id"),
        _str("model_id"),
        _str("item_id"),
        _int("run"),
        _str("input_sha256"),
        _int("judge_score"),
        _int("human_score"),
        _str("reviewer"),
        _str("scored_on"),
    ]
)

# One row per (binary variable, response, reviewer) checked by a person (issue 21).
EXTRACTION_CHECKS_SCHEMA = pa.schema(
    [
        _str("variable_id"),
        _str("model_id"),
        _str("item_id"),
        _int("run"),
        _str("extracted_value"),
        _str("human_value"),
        _str("reviewer"),
        _str("checked_on"),
    ]
)

# One row per decided mask-audit flag: the response, the judge's input the reviewer
# read, the decision (`held` / `leaked`), the sample code in the review app and the date.
MASK_AUDIT_SCHEMA = pa.schema(
    [
        _str("variable_id"),
        _str("model_id"),
        _str("item_id"),
        _int("run"),
        _str("input_sha256"),
        _str("decision"),
        _str("ref"),
        _str("decided_on"),
    ]
)

# models.csv: the core's columns, then a system under test's five.
MODELS_KIND_HEADER: tuple[str, ...] = (
    "system_prompt_sha256",
    "tools",
    "tools_sha256",
    "context_source",
    "baseline_model_id",
)
MODELS_HEADER: tuple[str, ...] = (*MODELS_COMMON_HEADER, *MODELS_KIND_HEADER)

ATTRIBUTES_HEADER: tuple[str, ...] = ("attribute_id", "name_pt", "name_en", "held_value")
GROUPS_HEADER: tuple[str, ...] = ("group_id", "attribute_id", "name_pt", "name_en")
VARIANTS_HEADER: tuple[str, ...] = (
    "variant_id",
    "group_id",
    "signal",
    "slot",
    "value",
    "position",
    "mask_terms",
)
# templates.csv's fixed columns; `expected_<v>` columns follow (templates_header).
TEMPLATES_FIXED_HEADER: tuple[str, ...] = (
    "template_id",
    "attributes",
    "language",
    "scenario_pt",
    "scenario_en",
    "user_tone",
    "text_pt",
    "text_en",
    "context",
    "published",
)
REWRITES_HEADER: tuple[str, ...] = ("template_id", "variant_id", "text_pt", "text_en")
VARIABLES_HEADER: tuple[str, ...] = (
    "variable_id",
    "level",
    "type",
    "scale_min",
    "scale_max",
    "extractor",
    "extractor_id",
    "extractor_version",
    "name_pt",
    "name_en",
    "question_pt",
    "question_en",
)


def expected_column(variable_id: str) -> str:
    return f"{EXPECTED_PREFIX}{variable_id}"


def templates_header(binary_variable_ids: Iterable[str]) -> tuple[str, ...]:
    """templates.csv's header: the fixed columns, then `expected_<v>` for each binary
    variable in variables.csv order."""
    return (*TEMPLATES_FIXED_HEADER, *(expected_column(v) for v in binary_variable_ids))
