"""Downloads of a multidomain round under `data/<round_id>/` (report spec, "Downloads").

participants.csv, slices.csv, pairwise.csv, process.csv, results.json and its JSON Schema,
and `SHA256SUMS` (the format of `sha256sum`) listing each of them. Scores are on 0-100,
rates are fractions, numbers in full precision (`repr` of the float). results.json names
an item only where the pages may (render/embargo.py): before the embargo ends, the id of
a flagged, superseded or audit-drawn item is an empty string there.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.results import (
    SCHEMA_FILE,
    Exact,
    Results,
    SliceScore,
    published_json_schema_text,
)
from reportgen.render.table import to_csv

SUMS_FILE = "SHA256SUMS"
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


def _full(value: Exact | float | None) -> str | None:
    if value is None:
        return None
    return repr(value.value if isinstance(value, Exact) else float(value))


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
                _full(p.primary.score),
                _full(p.primary.lo),
                _full(p.primary.hi),
                _full(p.global_score.score),
                _full(p.global_score.lo),
                _full(p.global_score.hi),
                _full(p.elo),
                _full(p.bt),
                _full(p.process.refusal_rate),
                _full(p.process.format_compliance),
                _full(p.process.latency_p50),
                _full(p.process.latency_p95),
                _full(p.process.cost_per_1000),
                groups.get(p.model_id),
            )
        )
    return to_csv(PARTICIPANT_COLUMNS, rows)


def _slice_row(model_id: str, value: SliceScore) -> tuple[object, ...]:
    return (
        model_id,
        value.slice,
        _full(value.score),
        _full(value.lo),
        _full(value.hi),
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
        rows.append((r.a, r.b, r.wins, r.losses, r.ties, _full(p)))
        rows.append((r.b, r.a, r.losses, r.wins, r.ties, None if p is None else _full(1 - p)))
    return to_csv(PAIRWISE_COLUMNS, rows)


def process_csv(results: Results, currency: str) -> str:
    rows: list[tuple[object, ...]] = []
    for p in results.participants:
        m = p.process
        rows.append(
            (
                p.model_id,
                m.n,
                _full(m.latency_p50),
                _full(m.latency_p95),
                m.timeouts,
                _full(m.timeout_rate),
                m.errors,
                _full(m.error_rate),
                _full(m.cost_per_1000),
                currency,
                _full(m.format_compliance),
                m.refusals,
                _full(m.refusal_rate),
                m.discarded_scored,
                m.discarded_unscored,
                _full(m.language_compliance),
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
        json.dumps(published, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
        published_schema_text(),
    )
    return {name: text.encode("utf-8") for name, text in zip(DOWNLOAD_NAMES, texts, strict=True)}


def write_downloads(
    context: RoundContext, site_dir: Path, more: Mapping[str, bytes] | None = None
) -> list[Path]:
    """The downloads, `more` of them (the annex pages', render/annex_pages.py) and their
    SHA256SUMS under `site_dir/data/<round_id>/`."""
    folder = site_dir / "data" / context.round_id
    folder.mkdir(parents=True, exist_ok=True)
    files = {**download_files(context), **(more or {})}
    sums = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in files.items())
    files[SUMS_FILE] = sums.encode("utf-8")
    written = []
    for name, data in files.items():
        (folder / name).write_bytes(data)
        written.append(folder / name)
    return written
