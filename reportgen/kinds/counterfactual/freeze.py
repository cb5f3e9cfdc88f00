"""`reportgen freeze` for a counterfactual round: a filled raw round into an archive.

The raw round (raw.py describes it) is read, the filled responses, extractions and
calibration rows are written as the archive's Parquet tables (rows in the filled files'
order, so that "row N" of a problem is line or row N there), and freeze computes what
only the collection can tell: `collected_on` and `ended_on` (the UTC dates of the first
and last call of any system), each system's `evaluated_on` (its first call), `languages`
(the templates' languages), `counterfactual.battery_sha256` (over the battery files'
exact bytes, copied unchanged), the required `cf-…` interpretations when the draft lacks
them, each extraction's `input_sha256` and each calibration row's `input_sha256` and
`judge_score` when absent, and SHA256SUMS (with mask_audit and extraction_checks, when
the reviews gave any): `assemble_archive`, which the review app shares (raw_round.py).
`freeze_round` then verifies the archive like any other in a staging folder, and moves
it into place only when it has no problem: nothing half-written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import cast

import pyarrow as pa

from reportgen.archive import (
    MANIFEST_FILE,
    MODELS_FILE,
    Problems,
    csv_text,
    read_manifest_data,
    response_path,
)
from reportgen.archive._checksums import digests_of
from reportgen.archive._csv import read_csv_records
from reportgen.archive._parquet import parquet_bytes
from reportgen.archive._writer import sealed
from reportgen.errors import InputError, OutputExistsError
from reportgen.kinds.counterfactual.extraction_check import read_raw_reviews
from reportgen.kinds.counterfactual.prepare import BatteryTables, read_battery
from reportgen.kinds.counterfactual.raw import (
    CALIBRATION_COLUMNS,
    EXTRACTION_COLUMNS,
    RESPONSE_COLUMNS,
    SENT_COLUMNS,
    WHERE,
    Row,
    filled_file,
    parse_called_at,
    read_filled,
)
from reportgen.kinds.counterfactual.schemas import (
    CALIBRATION_FILE,
    CALIBRATION_SCHEMA,
    EXTRACTION_CHECKS_FILE,
    EXTRACTION_CHECKS_SCHEMA,
    EXTRACTIONS_DIR,
    EXTRACTIONS_SCHEMA,
    ITEMS_FILE,
    MASK_AUDIT_FILE,
    MASK_AUDIT_SCHEMA,
    MODELS_HEADER,
    RESPONSES_SCHEMA,
    extraction_path,
)
from reportgen.kinds.counterfactual.terms import (
    BATTERY_FILES,
    battery_sha256,
    interpretations,
    numeric_value,
    sha256_text,
)
from reportgen.kinds.rounds import write_archive_files
from reportgen.model import TEXT_LANGUAGES

CALIBRATION_STEM = "calibration"  # calibration.jsonl or calibration.csv in the raw round
CALIBRATION_MISSING = (
    "missing file: a judged score needs the hand scores of its calibration (JSON lines "
    "or CSV); collect them with `reportgen review sample RAW_DIR --task calibration` and "
    "write them here with `reportgen review export RAW_DIR --output RAW_DIR`"
)


def freeze_round(raw_dir: Path, out_dir: Path) -> str:
    """Freeze the filled raw round at `raw_dir` into a verified archive at `out_dir`
    (named after the round id, not existing); ArchiveError listing every problem, and
    nothing written, otherwise. Returns a short note."""
    if out_dir.exists() or out_dir.is_symlink():
        raise OutputExistsError(f"{out_dir} already exists: a round archive is never overwritten")
    assembled = assemble_archive(raw_dir, folder_name=out_dir.name)
    _write_verified(assembled.files, out_dir, raw_dir)
    return f"{assembled.systems} system(s), {assembled.calls} responses; verified"


@dataclass(frozen=True)
class Assembled:
    """A raw round assembled into the archive freeze would write, still in memory."""

    round_id: str
    files: Mapping[str, bytes]  # every archive file (relative path -> bytes), SHA256SUMS too
    # The raw files read (relative path -> sha256 of their bytes): round.json, models.csv,
    # the battery, items.parquet, responses/ and extractions/; calibration.* only when
    # it was read.
    sources: Mapping[str, str]
    systems: int
    calls: int


def assemble_archive(
    raw_dir: Path, *, folder_name: str | None = None, with_calibration: bool = True
) -> Assembled:
    """The archive's files from the filled raw round at `raw_dir`: the hashes, dates and
    battery freeze computes; ArchiveError listing every problem of the raw files.

    `folder_name`: the archive's folder, which round_id must equal (InputError).
    `with_calibration=False` (the review app, while it collects the hand scores): the raw
    calibration file is not read, and a judged score's calibration.parquet is written
    empty, so that the archive's calibration rules (refusals 43 and 44) are all that
    tell it is pending."""
    problems = Problems()
    data = read_manifest_data(raw_dir, problems)
    if data is not None and not isinstance(data, dict):
        problems.add(MANIFEST_FILE, "", "expected a JSON object")
    if isinstance(data, dict) and folder_name is not None and data.get("round_id") != folder_name:
        raise InputError(
            f"{raw_dir / MANIFEST_FILE}: round_id {data.get('round_id')!r} must equal the "
            f"name of the output folder ({folder_name!r})"
        )
    tables = read_battery(raw_dir, problems)
    if not (raw_dir / ITEMS_FILE).is_file():
        problems.add(
            ITEMS_FILE,
            "",
            "missing file: expected the items `reportgen counterfactual render` wrote",
        )
    systems = read_csv_records(raw_dir / MODELS_FILE, MODELS_FILE, MODELS_HEADER, problems)
    model_ids = [record["model_id"] for _, record in systems or []]
    judged = tables is not None and any(v.judged_score for v in tables.variables)
    filled = read_filled_tables(
        raw_dir, model_ids, problems, calibration=judged if with_calibration else None
    )
    problems.raise_if_any(str(raw_dir))
    assert isinstance(data, dict)
    assert tables is not None
    assert systems is not None
    files = archive_files(
        raw_dir,
        data,
        tables,
        [record for _, record in systems],
        filled,
        pending=not with_calibration and judged,
    )
    return Assembled(
        round_id=str(data.get("round_id")),
        files=files,
        sources=_source_digests(raw_dir, filled),
        systems=len(model_ids),
        calls=sum(len(rows) for rows in filled.responses.values()),
    )


def _source_digests(raw_dir: Path, filled: Filled) -> dict[str, str]:
    """sha256 of each raw file the archive was assembled from, by relative path."""
    battery = [name for name in BATTERY_FILES if (raw_dir / name).is_file()]
    read = [MANIFEST_FILE, MODELS_FILE, *battery, ITEMS_FILE, *filled.read]
    return digests_of({rel: (raw_dir / rel).read_bytes() for rel in read})


class Filled:
    """The filled rows of every system, read and typed (raw.py)."""

    def __init__(self) -> None:
        self.responses: dict[str, list[Row]] = {}
        self.extractions: dict[str, list[Row]] = {}
        self.calibration: list[Row] = []
        self.mask_audit: list[Row] = []  # the mask audit's decisions (mask_audit.py)
        self.checks: list[Row] = []  # people's extraction checks (extraction_check.py)
        self.read: list[str] = []  # the filled files read, relative to the raw round


def read_filled_tables(
    raw_dir: Path, model_ids: Sequence[str], problems: Problems, *, calibration: bool | None
) -> Filled:
    """Every system's filled responses and extractions, and the calibration rows:
    `calibration` True when a judged score needs them (their absence is reported),
    False when read only if present, None when not read at all."""
    filled = Filled()
    for folder, columns, into, ignored in (
        ("responses", RESPONSE_COLUMNS, filled.responses, SENT_COLUMNS),
        (EXTRACTIONS_DIR, EXTRACTION_COLUMNS, filled.extractions, frozenset()),
    ):
        for model_id in model_ids:
            path = filled_file(raw_dir / folder, model_id)
            if path is None:
                problems.add(
                    f"{folder}/{model_id}.jsonl",
                    "",
                    f"missing file: the filled {folder} of system {model_id} "
                    "(JSON lines or CSV, see `reportgen freeze --help`)",
                )
                continue
            rel = f"{folder}/{path.name}"
            filled.read.append(rel)
            into[model_id] = read_filled(path, rel, columns, problems, ignored=ignored)
            if folder == "responses":
                _check_called_at(into[model_id], rel, problems)
        _report_strays(raw_dir / folder, folder, model_ids, problems)
    if calibration is None:
        return filled
    path = filled_file(raw_dir, CALIBRATION_STEM)
    if path is None and calibration:
        problems.add(f"{CALIBRATION_STEM}.jsonl", "", CALIBRATION_MISSING)
    elif path is not None:
        filled.read.append(path.name)
        rows = read_filled(path, path.name, CALIBRATION_COLUMNS, problems)
        filled.calibration = _with_judge(rows, filled, path.name, problems)
    filled.mask_audit, filled.checks, names = read_raw_reviews(raw_dir, problems)
    filled.read += names
    return filled


def _check_called_at(rows: Sequence[Row], rel: str, problems: Problems) -> None:
    for row in rows:
        if parse_called_at(str(row["called_at"])) is None:
            problems.add(
                rel,
                f"{row[WHERE]}, called_at",
                f"{row['called_at']!r}: expected YYYY-MM-DDThh:mm:ss[.fff]Z (UTC)",
            )


def _key(row: Row, model_id: object) -> tuple[str, str, int, str]:
    """(model_id, item_id, run, variable_id) of an extraction or calibration row."""
    return (str(model_id), str(row["item_id"]), cast(int, row["run"]), str(row["variable_id"]))


def _with_judge(rows: Sequence[Row], filled: Filled, rel: str, problems: Problems) -> list[Row]:
    """Calibration rows with the judge's input hash and score where they were left out
    (from the judge's extraction); a row that needs them and has no scored extraction is
    reported."""
    judged = {
        _key(row, model_id): _with_input_hash(row)
        for model_id, extractions in filled.extractions.items()
        for row in extractions
    }
    completed = []
    for row in rows:
        if row["input_sha256"] is not None and row["judge_score"] is not None:
            completed.append(row)
            continue
        extraction = judged.get(_key(row, row["model_id"]))
        score = None if extraction is None else numeric_value(str(extraction["value"]))
        if extraction is None or score is None:
            model_id, item_id, run, variable_id = _key(row, row["model_id"])
            problems.add(
                rel,
                str(row[WHERE]),
                f"judge_score and input_sha256 cannot be filled in: no {variable_id} score "
                f"of ({model_id}, {item_id}, run {run}) in the extractions (a response "
                "scored na cannot be sampled)",
            )
            continue
        completed.append(
            {
                **row,
                "input_sha256": row["input_sha256"] or extraction["input_sha256"],
                "judge_score": score if row["judge_score"] is None else row["judge_score"],
            }
        )
    return completed


def _report_strays(folder: Path, name: str, model_ids: Sequence[str], problems: Problems) -> None:
    """A filled file that names no system of models.csv."""
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if path.stem not in model_ids or path.suffix not in (".jsonl", ".csv"):
            problems.add(
                f"{name}/{path.name}",
                "",
                "a file for no system of models.csv: expected "
                "<model_id>.jsonl or <model_id>.csv for each row of models.csv",
            )


# --- the archive's files ------------------------------------------------------------------


def archive_files(
    raw_dir: Path,
    data: Mapping[str, object],
    tables: BatteryTables,
    systems: Sequence[dict[str, str]],
    filled: Filled,
    *,
    pending: bool = False,
) -> dict[str, bytes]:
    """Every file of the archive (relative path -> bytes), SHA256SUMS included; with
    `pending`, calibration.parquet without rows (its hand scores are being collected)."""
    battery = {
        name: (raw_dir / name).read_bytes() for name in BATTERY_FILES if (raw_dir / name).is_file()
    }
    first_call, last_call = _call_span(filled)
    files: dict[str, bytes] = {
        MANIFEST_FILE: _manifest_bytes(
            data, tables, battery_sha256(battery), first_call, last_call
        ),
        MODELS_FILE: _models_bytes(systems, filled),
        **battery,
        ITEMS_FILE: (raw_dir / ITEMS_FILE).read_bytes(),
    }
    for model_id, rows in filled.responses.items():
        files[response_path(model_id)] = _table(rows, RESPONSES_SCHEMA, model_id=model_id)
        extractions = [_with_input_hash(row) for row in filled.extractions.get(model_id, [])]
        files[extraction_path(model_id)] = _table(
            extractions, EXTRACTIONS_SCHEMA, model_id=model_id
        )
    if filled.calibration or pending:
        files[CALIBRATION_FILE] = _table(filled.calibration, CALIBRATION_SCHEMA)
    if filled.mask_audit:
        files[MASK_AUDIT_FILE] = _table(filled.mask_audit, MASK_AUDIT_SCHEMA)
    if filled.checks:
        files[EXTRACTION_CHECKS_FILE] = _table(filled.checks, EXTRACTION_CHECKS_SCHEMA)
    return sealed(files, ())  # SHA256SUMS added, no ledger


def _call_span(filled: Filled) -> tuple[datetime | None, datetime | None]:
    moments = [
        moment
        for rows in filled.responses.values()
        for row in rows
        if (moment := parse_called_at(str(row["called_at"]))) is not None
    ]
    return (min(moments), max(moments)) if moments else (None, None)


def _manifest_bytes(
    data: Mapping[str, object],
    tables: BatteryTables,
    battery: str,
    first_call: datetime | None,
    last_call: datetime | None,
) -> bytes:
    manifest = dict(data)
    if first_call is not None and last_call is not None:
        manifest["collected_on"] = first_call.date().isoformat()
        manifest["ended_on"] = last_call.date().isoformat()
    used = {template.language for template in tables.templates}
    manifest["languages"] = [language for language in TEXT_LANGUAGES if language in used]
    block = manifest.get("counterfactual")
    if isinstance(block, dict):
        manifest["counterfactual"] = {**block, "battery_sha256": battery}
    given = manifest.get("interpretations")
    listed = list(given) if isinstance(given, list) else []
    present = {entry.get("id") for entry in listed if isinstance(entry, dict)}
    listed += [
        {"id": i.id, "topic": dict(i.topic), "reading": dict(i.reading)}
        for i in interpretations()
        if i.id not in present
    ]
    manifest["interpretations"] = listed
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _models_bytes(systems: Sequence[dict[str, str]], filled: Filled) -> bytes:
    rows = []
    for record in systems:
        moments = [
            moment
            for row in filled.responses.get(record["model_id"], [])
            if (moment := parse_called_at(str(row["called_at"]))) is not None
        ]
        evaluated_on = min(moments).date().isoformat() if moments else record["evaluated_on"]
        rows.append([evaluated_on if c == "evaluated_on" else record[c] for c in MODELS_HEADER])
    return csv_text(MODELS_HEADER, rows, name=MODELS_FILE).encode("utf-8")


def _with_input_hash(row: Row) -> Row:
    text = row.get("input_text")
    if row.get("input_sha256") is None and isinstance(text, str):
        return {**row, "input_sha256": sha256_text(text)}
    return row


def _table(rows: Sequence[Row], schema: pa.Schema, *, model_id: str | None = None) -> bytes:
    columns = {
        name: [model_id if name == "model_id" and model_id else row.get(name) for row in rows]
        for name in schema.names
    }
    return parquet_bytes(pa.table(columns, schema=schema))


def _write_verified(files: Mapping[str, bytes], out_dir: Path, raw_dir: Path) -> None:
    """Stage the archive, verify it, and move it into place only when it is valid."""
    write_archive_files(out_dir, files, verify_as=f"{raw_dir} (frozen as {out_dir.name})")
