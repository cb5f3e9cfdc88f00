"""The writer of counterfactual archives (counterfactual-round.md, round-archive-2.md).

`write_round` writes every file of a round from its typed `Round`: round.json (the
common keys, `interpretations` and the `counterfactual` block), models.csv, the battery
CSVs (rewrites.csv only with rows), items.parquet, one responses and one extractions
file per system, calibration.parquet (only with rows), SHA256SUMS and the hash-chained
annulments.jsonl. Same round, same bytes: fixed key and column order, explicit Parquet
schemas with the core's fixed codec, rows in the round's order, sorted SHA256SUMS. The
archive is staged in a temporary sibling folder and renamed into place, so a failure
leaves nothing behind.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

import pyarrow as pa

from reportgen.archive import (
    MANIFEST_FILE,
    MODELS_FILE,
    bool_text,
    csv_text,
    response_path,
)
from reportgen.archive._csv import models_csv_row, record_row
from reportgen.archive._parquet import dates_as_text, table_lines, table_writer
from reportgen.archive._writer import sealed
from reportgen.kinds.counterfactual.model import (
    Attribute,
    Group,
    Manifest,
    Preregistration,
    Rewrite,
    Round,
    System,
    Template,
    Variable,
    Variant,
)
from reportgen.kinds.counterfactual.schemas import (
    ATTRIBUTES_FILE,
    ATTRIBUTES_HEADER,
    CALIBRATION_FILE,
    CALIBRATION_SCHEMA,
    EXTRACTION_CHECKS_FILE,
    EXTRACTION_CHECKS_SCHEMA,
    EXTRACTIONS_SCHEMA,
    GROUPS_FILE,
    GROUPS_HEADER,
    ITEMS_FILE,
    ITEMS_SCHEMA,
    MASK_AUDIT_FILE,
    MASK_AUDIT_SCHEMA,
    MODELS_HEADER,
    MODELS_KIND_HEADER,
    RESPONSES_SCHEMA,
    REWRITES_FILE,
    REWRITES_HEADER,
    TEMPLATES_FILE,
    VARIABLES_FILE,
    VARIABLES_HEADER,
    VARIANTS_FILE,
    VARIANTS_HEADER,
    extraction_path,
    templates_header,
)
from reportgen.kinds.counterfactual.terms import rational_text
from reportgen.kinds.rounds import manifest_bytes, round_writer
from reportgen.model import TEXT_LANGUAGES


def battery_files(round_: Round) -> dict[str, bytes]:
    """The battery's files (name -> bytes), rewrites.csv only when it has rows: what
    `terms.battery_sha256` hashes."""
    binary_ids = [v.variable_id for v in round_.variables if v.type == "binary"]
    files = {
        ATTRIBUTES_FILE: _csv(
            ATTRIBUTES_HEADER, map(attribute_row, round_.attributes), ATTRIBUTES_FILE
        ),
        GROUPS_FILE: _csv(GROUPS_HEADER, map(group_row, round_.groups), GROUPS_FILE),
        TEMPLATES_FILE: _csv(
            templates_header(binary_ids),
            (template_row(t, binary_ids) for t in round_.templates),
            TEMPLATES_FILE,
        ),
        VARIABLES_FILE: _csv(VARIABLES_HEADER, map(variable_row, round_.variables), VARIABLES_FILE),
        VARIANTS_FILE: _csv(VARIANTS_HEADER, map(variant_row, round_.variants), VARIANTS_FILE),
    }
    if round_.rewrites:
        files[REWRITES_FILE] = _csv(
            REWRITES_HEADER, map(rewrite_row, round_.rewrites), REWRITES_FILE
        )
    return files


def archive_files(round_: Round) -> dict[str, bytes]:
    """Every file of the archive (relative path -> bytes), SHA256SUMS and ledger included."""
    files: dict[str, bytes] = {
        MANIFEST_FILE: manifest_bytes(round_.manifest),
        MODELS_FILE: _csv(MODELS_HEADER, map(system_row, round_.models), MODELS_FILE),
        **battery_files(round_),
        ITEMS_FILE: table_bytes(round_.items, ITEMS_SCHEMA),
    }
    for system in round_.models:
        responses = round_.responses.get(system.model_id, ())
        files[response_path(system.model_id)] = table_bytes(responses, RESPONSES_SCHEMA)
        extractions = round_.extractions.get(system.model_id, ())
        files[extraction_path(system.model_id)] = table_bytes(extractions, EXTRACTIONS_SCHEMA)
    if round_.calibration:
        files[CALIBRATION_FILE] = table_bytes(round_.calibration, CALIBRATION_SCHEMA)
    if round_.mask_audit:
        files[MASK_AUDIT_FILE] = table_bytes(round_.mask_audit, MASK_AUDIT_SCHEMA)
    if round_.extraction_checks:
        files[EXTRACTION_CHECKS_FILE] = table_bytes(
            round_.extraction_checks, EXTRACTION_CHECKS_SCHEMA
        )
    return sealed(files, round_.annulments)


write_round = round_writer(archive_files)


# --- round.json -----------------------------------------------------------------------


def manifest_block(manifest: Manifest) -> dict[str, object]:
    """round.json's `counterfactual` object, keys in the spec's order, rationals as text."""
    plan = manifest.preregistration
    return {
        "system_under_test": _texts(manifest.system_under_test),
        "battery_sha256": manifest.battery_sha256,
        "repetitions": manifest.repetitions,
        "mask_token": manifest.mask_token,
        "baseline_round": manifest.baseline_round,
        "preregistration": {
            "status": plan.status,
            "preregistered_on": plan.preregistered_on.isoformat(),
            "alpha": rational_text(plan.alpha),
            "correction": plan.correction,
            "family": plan.family,
            "tests": json.loads(json.dumps(plan.tests)),  # plain dicts, the spec's key order
            "variables": {
                variable_id: {
                    "criterion": entry.criterion,
                    "acceptable_difference": rational_text(entry.acceptable_difference),
                }
                for variable_id, entry in plan.variables.items()
            },
            "calibration": {
                "min_items": plan.calibration.min_items,
                "metric": plan.calibration.metric,
                "threshold": rational_text(plan.calibration.threshold),
            },
            "rationale": _texts(plan.rationale),
            **_extraction_check(plan),
        },
    }


def _extraction_check(plan: Preregistration) -> dict[str, object]:
    """preregistration.extraction_check, when declared (issue 21)."""
    check = plan.extraction_check
    if check is None:
        return {}
    return {
        "extraction_check": {
            "min_items": check.min_items,
            "threshold": rational_text(check.threshold),
        }
    }


def _texts(value: Mapping[str, str]) -> dict[str, str]:
    return {language: value[language] for language in TEXT_LANGUAGES}


# --- CSV tables -----------------------------------------------------------------------


def _csv(header: Sequence[str], rows: Iterable[list[str]], name: str) -> bytes:
    return csv_text(header, list(rows), name=name).encode("utf-8")


def system_row(system: System) -> list[str]:
    """One models.csv row: the core's columns, then a system's five (MODELS_HEADER)."""
    return [*models_csv_row(system), *system_kind_row(system)]


def system_kind_row(system: System) -> list[str]:
    """The five kind columns of a models.csv row (`Kind.model_row`)."""
    return record_row(system, MODELS_KIND_HEADER)


def attribute_row(attribute: Attribute) -> list[str]:
    return record_row(attribute, ATTRIBUTES_HEADER)


def group_row(group: Group) -> list[str]:
    return record_row(group, GROUPS_HEADER)


def variant_row(variant: Variant) -> list[str]:
    return record_row(variant, VARIANTS_HEADER)


def template_row(template: Template, binary_ids: Sequence[str]) -> list[str]:
    """One templates.csv row; `binary_ids`: the binary variables in variables.csv order."""
    return [
        template.template_id,
        ";".join(template.attributes),
        template.language,
        template.scenario_pt,
        template.scenario_en,
        template.user_tone,
        template.text_pt,
        template.text_en,
        template.context or "",
        bool_text(template.published),
        *(template.expected.get(variable_id) or "" for variable_id in binary_ids),
    ]


def rewrite_row(rewrite: Rewrite) -> list[str]:
    return record_row(rewrite, REWRITES_HEADER)


def variable_row(variable: Variable) -> list[str]:
    scale_min, scale_max = ("", "") if variable.scale is None else map(str, variable.scale)
    return [
        variable.variable_id,
        variable.level,
        variable.type,
        scale_min,
        scale_max,
        variable.extractor,
        variable.extractor_id,
        variable.extractor_version,
        variable.name_pt,
        variable.name_en,
        variable.question_pt,
        variable.question_en,
    ]


# --- Parquet tables -------------------------------------------------------------------


def called_at_text(moment: datetime) -> str:
    """`YYYY-MM-DDThh:mm:ss[.fff]Z` in UTC: milliseconds only when there are any."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    milliseconds = moment.microsecond // 1000
    return f"{text}.{milliseconds:03d}Z" if milliseconds else f"{text}Z"


# Timestamps in the kind's own text form, dates in ISO 8601 (`table_bytes`).
CELLS = dates_as_text(called_at_text)
table_bytes = table_writer(CELLS)


def raw_table_bytes(rows: Iterable[object], schema: pa.Schema) -> bytes:
    """The raw round's form of `table_bytes`' table, the one freeze reads back
    (`table_lines`), each cell as `CELLS` writes it."""
    return table_lines(rows, schema, CELLS)
