"""`reportgen freeze` for a multidomain round: a raw round with its answers into an archive.

The raw round is the folder `reportgen render` wrote, its answers imported
(responses/<model_id>.parquet in collect.py's raw form, or with the archive's own
columns), and the round's other tables (judges.csv, rubrics, judge views, jury,
adjudications, calibration, audit and annulments.jsonl when there is one) laid beside
them as the archive holds them. Freeze copies those files unchanged, leaves out the
collection's own (to_send.*, inspect_dataset.jsonl, inspect_task.py), and completes
each response with what the archive derives from the call: `raw_sha256`,
`prompt_sha256` (the item's prompt, the text sent), and for mcq and calc items the
extracted answer, `format_ok` and `correct` from the deterministic extractor (Art. 23,
extract.py), an `ok` answer it cannot read becoming a `format_violation`.
`response_language` is left null (not detected). round.json must declare the
extractor's version (`multidomain.extractor_version`). The archive is then verified
like any other in a staging folder and moved into place only when it has no problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.archive import (
    CHECKSUMS_FILE,
    LEDGER_FILE,
    MANIFEST_FILE,
    MODELS_FILE,
    Problems,
    read_manifest_data,
    response_path,
)
from reportgen.archive._checksums import checksums_text, digests_of
from reportgen.archive._csv import MODELS_HEADER, read_csv_records
from reportgen.archive._parquet import parquet_bytes
from reportgen.errors import InputError, OutputExistsError
from reportgen.kinds.multidomain.collect import RAW_RESPONSES_SCHEMA, bank_items
from reportgen.kinds.multidomain.extract import (
    EXTRACTOR_VERSION,
    extract_choice,
    extract_number,
    is_correct,
)
from reportgen.kinds.multidomain.schemas import (
    ADJUDICATIONS_FILE,
    AUDIT_FILE,
    CALIBRATION_FILE,
    ITEMS_FILE,
    JUDGE_VIEWS_FILE,
    JUDGES_FILE,
    JURY_FILE,
    RESPONSES_SCHEMA,
    RUBRICS_FILE,
)
from reportgen.kinds.multidomain.terms import sha256_text
from reportgen.kinds.rounds import write_archive_files

# The collection's own files, which the archive does not hold.
COLLECTION_FILES = frozenset(
    {"to_send.jsonl", "to_send.csv", "inspect_dataset.jsonl", "inspect_task.py"}
)
REQUIRED_FILES = (
    MANIFEST_FILE,
    MODELS_FILE,
    JUDGES_FILE,
    ITEMS_FILE,
    RUBRICS_FILE,
    JUDGE_VIEWS_FILE,
    JURY_FILE,
    ADJUDICATIONS_FILE,
    CALIBRATION_FILE,
    AUDIT_FILE,
)
ITEM_COLUMNS = ["item_id", "prompt", "type", "choices", "answer_key", "tolerance_abs"]
Row = dict[str, Any]


def freeze_round(raw_dir: Path, out_dir: Path) -> str:
    """Freeze the raw round at `raw_dir` into a verified archive at `out_dir` (named
    after the round id, not existing); InputError or ArchiveError listing every
    problem, and nothing written, otherwise. Returns a short note."""
    if out_dir.exists() or out_dir.is_symlink():
        raise OutputExistsError(f"{out_dir} already exists: a round archive is never overwritten")
    _check_manifest(raw_dir, out_dir.name)
    missing = [name for name in REQUIRED_FILES if not (raw_dir / name).is_file()]
    if missing:
        raise InputError(
            f"{raw_dir}: missing file(s) {', '.join(missing)}: a multidomain round's archive "
            "holds them beside the answers (multidomain-round.md)"
        )
    items = _items(raw_dir / ITEMS_FILE)
    problems = Problems()
    records = read_csv_records(
        raw_dir / MODELS_FILE, MODELS_FILE, MODELS_HEADER, problems, open_tail=True
    )
    model_ids = [record["model_id"] for _, record in records or []]
    responses = {model_id: _completed(raw_dir, model_id, items, problems) for model_id in model_ids}
    _report_strays(raw_dir, model_ids, problems)
    problems.raise_if_any(str(raw_dir))
    files = {
        path.name: path.read_bytes()
        for path in sorted(raw_dir.iterdir())
        if path.is_file() and path.name not in COLLECTION_FILES | {CHECKSUMS_FILE, LEDGER_FILE}
    }
    for model_id, rows in responses.items():
        columns = {name: [row.get(name) for row in rows] for name in RESPONSES_SCHEMA.names}
        files[response_path(model_id)] = parquet_bytes(pa.table(columns, schema=RESPONSES_SCHEMA))
    files[CHECKSUMS_FILE] = checksums_text(digests_of(files)).encode("utf-8")
    if (raw_dir / LEDGER_FILE).is_file():  # the hash-chained ledger is not listed
        files[LEDGER_FILE] = (raw_dir / LEDGER_FILE).read_bytes()
    write_archive_files(out_dir, files, verify_as=f"{raw_dir} (frozen as {out_dir.name})")
    calls = sum(len(rows) for rows in responses.values())
    return f"{len(model_ids)} participant(s), {calls} responses; extractor {EXTRACTOR_VERSION}"


def _check_manifest(raw_dir: Path, folder_name: str) -> None:
    problems = Problems()
    data = read_manifest_data(raw_dir, problems)
    problems.raise_if_any(str(raw_dir))
    where = raw_dir / MANIFEST_FILE
    if not isinstance(data, dict):
        raise InputError(f"{where}: expected a JSON object")
    if data.get("round_id") != folder_name:
        raise InputError(
            f"{where}: round_id {data.get('round_id')!r} must equal the name of the output "
            f"folder ({folder_name!r})"
        )
    block = data.get("multidomain")
    declared = block.get("extractor_version") if isinstance(block, dict) else None
    if declared != EXTRACTOR_VERSION:
        raise InputError(
            f"{where}: multidomain.extractor_version: freeze extracts mcq and calc answers "
            f"with extractor {EXTRACTOR_VERSION!r}, the round declares {declared!r}"
        )


def _items(path: Path) -> dict[str, Row]:
    return {str(row["item_id"]): row for row in bank_items(path, ITEM_COLUMNS)}


def _completed(
    raw_dir: Path, model_id: str, items: Mapping[str, Row], problems: Problems
) -> list[Row]:
    """The participant's raw answers with the archive's derived columns."""
    rel = response_path(model_id)
    found = problems.in_file(rel)
    if not (raw_dir / rel).is_file():
        found.add("", "missing file: import the participant's answers (reportgen import)")
        return []
    try:
        table = pq.read_table(raw_dir / rel)
    except (OSError, pa.ArrowException) as error:
        found.add("", f"not a Parquet file Arrow can read ({error})")
        return []
    absent = [name for name in RAW_RESPONSES_SCHEMA.names if name not in table.column_names]
    if absent:
        found.add("", f"missing column(s) {', '.join(absent)} (collect.py's raw form)")
        return []
    rows: list[Row] = []
    for number, row in enumerate(table.select(RAW_RESPONSES_SCHEMA.names).to_pylist(), start=1):
        item = items.get(str(row["item_id"]))
        if item is None:
            found.add(f"row {number}, item_id", f"{row['item_id']!r} is no item of items.parquet")
            continue
        rows.append(_derived(row, item))
    return rows


def _derived(row: Row, item: Row) -> Row:
    text, status = row["raw_text"], row["status"]
    graded = item["type"] in ("mcq", "calc")
    answer = None
    if graded and status == "ok":
        if item["type"] == "mcq":
            answer = extract_choice(text or "", item["choices"] or "")
        else:
            answer = extract_number(text or "")
        status = "ok" if answer is not None else "format_violation"
    return {
        **row,
        "status": status,
        "raw_sha256": None if text is None else sha256_text(text),
        "prompt_sha256": sha256_text(item["prompt"]),
        "extracted_answer": answer,
        "format_ok": (answer is not None) if graded else None,
        "correct": None
        if answer is None
        else is_correct(answer, item["answer_key"] or "", item["type"], item["tolerance_abs"]),
        "scored_before_discard": None,
        "response_language": None,
    }


def _report_strays(raw_dir: Path, model_ids: list[str], problems: Problems) -> None:
    expected = {response_path(model_id) for model_id in model_ids}
    folder = raw_dir / response_path("x").split("/", 1)[0]
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        rel = str(path.relative_to(raw_dir))
        if rel not in expected:
            problems.add(rel, "", "a response file of no participant of models.csv")
