"""The writer of multidomain archives (multidomain-round.md, round-archive-2.md).

`write_round` writes every file of a round from its typed `Round`: round.json (the
common keys, `interpretations` and the `multidomain` block), models.csv, judges.csv,
items.parquet, one response file per participant, the six kind tables, SHA256SUMS and
the hash-chained annulments.jsonl. Same round, same bytes: fixed key and column order,
explicit Parquet schemas with the core's fixed codec, rows in the round's order,
sorted SHA256SUMS. The archive is staged in a temporary sibling folder and renamed
into place, so a failure leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

from reportgen.archive import (
    MANIFEST_FILE,
    MODELS_FILE,
    csv_text,
    response_path,
)
from reportgen.archive._csv import models_csv_row
from reportgen.archive._parquet import dates_as_text, table_writer
from reportgen.archive._writer import sealed
from reportgen.kinds.multidomain.archive_authorizations import (
    AUTHORIZATIONS_FILE,
    AUTHORIZATIONS_HEADER,
    authorization_row,
)
from reportgen.kinds.multidomain.archive_tables import judge_row
from reportgen.kinds.multidomain.archive_tables import participant_row as participant_columns
from reportgen.kinds.multidomain.model import Manifest, Participant, Round
from reportgen.kinds.multidomain.schemas import (
    ADJUDICATIONS_FILE,
    ADJUDICATIONS_SCHEMA,
    AUDIT_FILE,
    AUDIT_SCHEMA,
    CALIBRATION_FILE,
    CALIBRATION_SCHEMA,
    ITEMS_FILE,
    ITEMS_SCHEMA,
    JUDGE_VIEWS_FILE,
    JUDGE_VIEWS_SCHEMA,
    JUDGES_FILE,
    JUDGES_HEADER,
    JURY_FILE,
    JURY_SCHEMA,
    MODELS_HEADER,
    RESPONSES_SCHEMA,
    RUBRICS_FILE,
    RUBRICS_SCHEMA,
    SCREENING_FILE,
    SCREENING_SCHEMA,
    TS_FORMAT,
)
from reportgen.kinds.multidomain.terms import threshold_text
from reportgen.kinds.rounds import manifest_bytes, round_writer
from reportgen.model import TEXT_LANGUAGES


def archive_files(round_: Round) -> dict[str, bytes]:
    """Every file of the archive (relative path -> bytes), SHA256SUMS and ledger included."""
    files: dict[str, bytes] = {
        MANIFEST_FILE: manifest_bytes(round_.manifest),
        MODELS_FILE: csv_text(
            MODELS_HEADER, [participant_row(p) for p in round_.models], name=MODELS_FILE
        ).encode("utf-8"),
        JUDGES_FILE: csv_text(
            JUDGES_HEADER, [judge_row(j) for j in round_.judges], name=JUDGES_FILE
        ).encode("utf-8"),
        ITEMS_FILE: table_bytes(round_.items, ITEMS_SCHEMA),
        RUBRICS_FILE: table_bytes(round_.rubrics, RUBRICS_SCHEMA),
        JUDGE_VIEWS_FILE: table_bytes(round_.judge_views, JUDGE_VIEWS_SCHEMA),
        JURY_FILE: table_bytes(round_.jury, JURY_SCHEMA),
        ADJUDICATIONS_FILE: table_bytes(round_.adjudications, ADJUDICATIONS_SCHEMA),
        CALIBRATION_FILE: table_bytes(round_.calibration, CALIBRATION_SCHEMA),
        AUDIT_FILE: table_bytes(round_.audit, AUDIT_SCHEMA),
        SCREENING_FILE: table_bytes(round_.screening, SCREENING_SCHEMA),
    }
    for participant in round_.models:
        rows = round_.responses.get(participant.model_id, ())
        files[response_path(participant.model_id)] = table_bytes(rows, RESPONSES_SCHEMA)
    if round_.authorizations:  # optional: absent when the round records none
        files[AUTHORIZATIONS_FILE] = csv_text(
            AUTHORIZATIONS_HEADER,
            [authorization_row(a) for a in round_.authorizations],
            name=AUTHORIZATIONS_FILE,
        ).encode("utf-8")
    return sealed(files, round_.annulments)


write_round = round_writer(archive_files)


# --- round.json -----------------------------------------------------------------------


# long: one literal holding the spec's keys in the spec's order
def manifest_block(manifest: Manifest) -> dict[str, object]:
    """round.json's `multidomain` object, keys in the spec's order, thresholds as text."""
    jury, audit, calibration = manifest.jury, manifest.audit, manifest.calibration
    contamination, pairwise, rules = manifest.contamination, manifest.pairwise, manifest.grade_rules
    return {
        "profile": manifest.profile,
        "profile_version": manifest.profile_version,
        "deviations": [{"key": d.key, "reason": _texts(d.reason)} for d in manifest.deviations],
        "annex": [
            {
                "annex_id": entry.annex_id,
                "organization": entry.organization,
                "headquarters": entry.headquarters,
                "language_affinity": list(entry.language_affinity),
                "reserve": entry.reserve,
            }
            for entry in manifest.annex
        ],
        "cast_size": manifest.cast_size,
        "previous_round": manifest.previous_round,
        "domains": [{"id": d.id, "name": _texts(d.name)} for d in manifest.domains],
        "weights": dict(manifest.weights),
        "composition": {
            domain_id: {"language": dict(part.language), "type": dict(part.type)}
            for domain_id, part in manifest.composition.items()
        },
        "grade_counts": {str(grade): count for grade, count in manifest.grade_counts.items()},
        "grade_rules": {
            "min_distinct": rules.min_distinct,
            "high_grade": rules.high_grade,
            "high_min_share": threshold_text(rules.high_min_share),
        },
        "max_points": manifest.max_points,
        "runs": manifest.runs,
        "jury": {
            "size": jury.size,
            "scale": list(jury.scale),
            "adjudicate_above": threshold_text(jury.adjudicate_above),
            "presentation_seed": jury.presentation_seed,
        },
        "audit": {
            "fraction": threshold_text(audit.fraction),
            "min_per_stratum": audit.min_per_stratum,
            "invalidate_above": threshold_text(audit.invalidate_above),
            "seed": audit.seed,
        },
        "calibration": {
            "jurors": calibration.jurors,
            "reviewers": calibration.reviewers,
            "hit_rate_band": [threshold_text(bound) for bound in calibration.hit_rate_band],
        },
        "contamination": {
            "ngram": contamination.ngram,
            "flag_above": threshold_text(contamination.flag_above),
            "canary_partial_min_chars": contamination.canary_partial_min_chars,
        },
        "technical_tie": manifest.technical_tie,
        "pairwise": {
            "elo_initial": pairwise.elo_initial,
            "k": pairwise.k,
            "scale": pairwise.scale,
            "base": pairwise.base,
            "bt_mean": pairwise.bt_mean,
        },
        "item_order_seed": manifest.item_order_seed,
        "bank_sha256": manifest.bank_sha256,
        "judge_config_sha256": manifest.judge_config_sha256,
        "extractor_version": manifest.extractor_version,
        "currency": manifest.currency,
        "embargo_days": manifest.embargo_days,
        "contest_window_days": manifest.contest_window_days,
        "reply_days": manifest.reply_days,
        "retention_months": manifest.retention_months,
        "retain_until": manifest.retain_until.isoformat(),
    } | _optional(manifest)


def _optional(manifest: Manifest) -> dict[str, object]:
    """The block's optional keys, written only when the round has them."""
    found: dict[str, object] = {}
    if manifest.system_prompt is not None:
        found["system_prompt"] = manifest.system_prompt
    if manifest.bank_version is not None:
        found["bank_version"] = manifest.bank_version
    if manifest.bank_revisions:
        found["bank_revisions"] = [
            {"item_id": r.item_id, "revises": r.revises} for r in manifest.bank_revisions
        ]
    return found


def _texts(value: Mapping[str, str]) -> dict[str, str]:
    return {language: value[language] for language in TEXT_LANGUAGES}


# --- CSV tables -----------------------------------------------------------------------


def participant_row(participant: Participant) -> list[str]:
    """One models.csv row: the core's columns, then the REG columns (MODELS_HEADER)."""
    return [*models_csv_row(participant), *participant_columns(participant)]


# --- Parquet tables -------------------------------------------------------------------


def ts_text(moment: datetime) -> str:
    """A `ts` value: ISO 8601 UTC to the second, `Z` suffix."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime(TS_FORMAT)


# Timestamps in the kind's own text form, dates in ISO 8601 (`table_bytes`).
CELLS = dates_as_text(ts_text)
table_bytes = table_writer(CELLS)
