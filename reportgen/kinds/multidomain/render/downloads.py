"""Downloads of a multidomain round under `data/<round_id>/` (report spec, "Downloads").

participants.csv, slices.csv, pairwise.csv, process.csv, results.json and its JSON Schema,
and `SHA256SUMS` (the format of `sha256sum`) listing each of them. Scores are on 0-100,
rates are fractions, numbers in full precision (`repr` of the float). results.json names
an item only where the pages may (render/embargo.py): before the embargo ends, the id of
a flagged, superseded or audit-drawn item is an empty string there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.results import (
    SCHEMA_FILE,
    Results,
    SliceScore,
    published_json_schema_text,
)
from reportgen.render.downloads import full, json_text, write_round_files
from reportgen.render.table import to_csv

DOWNLOAD_NAMES = (
    "participants.csv",
    "slices.csv",
    "pairwise.csv",
    "process.csv",
    "results.json",
    SCHEMA_FILE,
)
PARTICIPANT_COLUMNS = (
    "model_id",
    "display_name",
    "rank",
    "primary",
    "primary_lo",
    "primary_hi",
    "global",
    "global_lo",
    "global_hi",
    "elo",
    "bt",
    "refusal_rate",
    "format_compliance",
    "latency_p50_ms",
    "latency_p95_ms",
    "cost_per_1000_items",
    "tie_group",
)
SLICE_COLUMNS = ("model_id", "slice", "score", "lo", "hi", "n")
PAIRWISE_COLUMNS = ("a", "b", "wins", "losses", "ties", "p_a_beats_b")
PROCESS_COLUMNS = (
    "model_id",
    "n",
    "latency_p50_ms",
    "latency_p95_ms",
    "timeouts",
    "timeout_rate",
    "errors",
    "error_rate",
    "cost_per_1000_items",
    "currency",
    "format_compliance",
    "refusals",
    "refusal_rate",
    "discarded_scored",
    "discarded_unscored",
    "language_compliance",
)


def _tie_groups(results: Results) -> dict[str, int]:
    return {m: n for n, group in enumerate(results.tie_groups, start=1) for m in group}


def participants_csv(results: Results) -> str:
    groups = _tie_groups(results)
    rows: list[tuple[object, ...]] = []
    for p in results.participants:
        rows.append(
            (
                p.model_id,
                p.display_name,
                p.rank,
                full(p.primary.score),
                full(p.primary.lo),
                full(p.primary.hi),
                full(p.global_score.score),
                full(p.global_score.lo),
                full(p.global_score.hi),
                full(p.elo),
                full(p.bt),
                full(p.process.refusal_rate),
                full(p.process.format_compliance),
                full(p.process.latency_p50),
                full(p.process.latency_p95),
                full(p.process.cost_per_1000),
                groups.get(p.model_id),
            )
        )
    return to_csv(PARTICIPANT_COLUMNS, rows)


def _slice_row(model_id: str, value: SliceScore) -> tuple[object, ...]:
    return (
        model_id,
        value.slice,
        full(value.score),
        full(value.lo),
        full(value.hi),
        value.n,
    )


def slices_csv(results: Results) -> str:
    rows = []
    for p in results.participants:
        rows += [_slice_row(p.model_id, s) for s in (p.primary, p.global_score, *p.slices)]
    return to_csv(SLICE_COLUMNS, rows)


def pairwise_csv(results: Results) -> str:
    """Every ordered pair (a against b and b against a)."""
    rows: list[tuple[object, ...]] = []
    for r in results.pairwise.pairs:
        p = r.p_a_beats_b
        rows.append((r.a, r.b, r.wins, r.losses, r.ties, full(p)))
        rows.append((r.b, r.a, r.losses, r.wins, r.ties, None if p is None else full(1 - p)))
    return to_csv(PAIRWISE_COLUMNS, rows)


def process_csv(results: Results, currency: str) -> str:
    rows: list[tuple[object, ...]] = []
    for p in results.participants:
        m = p.process
        rows.append(
            (
                p.model_id,
                m.n,
                full(m.latency_p50),
                full(m.latency_p95),
                m.timeouts,
                full(m.timeout_rate),
                m.errors,
                full(m.error_rate),
                full(m.cost_per_1000),
                currency,
                full(m.format_compliance),
                m.refusals,
                full(m.refusal_rate),
                m.discarded_scored,
                m.discarded_unscored,
                full(m.language_compliance),
            )
        )
    return to_csv(PROCESS_COLUMNS, rows)


# What the site never shows of an invalidating audited response, at any date: whose
# response it was and the reviewer's score of it (report spec, "Never on the site").
PRIVATE_AUDIT_FIELDS = ("model_id", "run", "audit_id", "human", "final")


def _hide_ids(value: Any, context: RoundContext) -> Any:
    """`value` with every item id that `as_of` may not name replaced by ""."""
    if isinstance(value, dict):
        return {key: _hide_ids(entry, context) for key, entry in value.items()}
    if isinstance(value, list):
        return [_hide_ids(entry, context) for entry in value]
    if isinstance(value, str) and not context.shows_id(value):
        return ""
    return value


def published_results(context: RoundContext) -> dict[str, Any]:
    """The results object as published on `as_of`: no reviewer score of one response; no
    id that the embargo still covers (each becomes "", wherever it stands)."""
    published = context.results.to_json_dict()
    for entry in published["audit"]["invalidations"]:
        for key in PRIVATE_AUDIT_FIELDS:
            del entry[key]
    hidden: dict[str, Any] = _hide_ids(published, context)
    return hidden


def published_schema_text() -> str:
    """The JSON Schema of the published results.json (the audit entries without the
    private fields)."""
    schema = json.loads(published_json_schema_text())
    entry = schema["$defs"]["AuditDivergence"]
    for key in PRIVATE_AUDIT_FIELDS:
        entry["properties"].pop(key, None)
    entry["required"] = [key for key in entry["required"] if key not in PRIVATE_AUDIT_FIELDS]
    return json.dumps(schema, ensure_ascii=False, indent=1) + "\n"


def download_files(context: RoundContext) -> dict[str, bytes]:
    """One round's downloads: file name -> the exact bytes served."""
    results = context.results
    published = published_results(context)
    texts = (
        participants_csv(results),
        slices_csv(results),
        pairwise_csv(results),
        process_csv(results, context.round_.manifest.currency),
        json_text(published),
        published_schema_text(),
    )
    return {name: text.encode("utf-8") for name, text in zip(DOWNLOAD_NAMES, texts, strict=True)}


def write_downloads(
    context: RoundContext, site_dir: Path, more: Mapping[str, bytes] | None = None
) -> list[Path]:
    """The downloads, `more` of them (the annex pages', render/annex_pages.py) and their
    SHA256SUMS under `site_dir/data/<round_id>/`."""
    files = {**download_files(context), **(more or {})}
    return write_round_files(site_dir, context.round_id, files)
