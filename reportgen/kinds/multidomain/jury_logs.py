"""The jury's scores from inspect_ai model-graded scorer logs (`reportgen import jury`).

One log per judge of judges.csv: its model is the judge's `api_identifier` (with or
without the provider prefix), or the judge is named with `--judge-id`. Each sample
scores one response as the judges saw it (judge_views.parquet) and carries the
response's `item_id`, `model_id` and `run` in its metadata; its scores give one integer
per criterion of the item's rubric: a scorer whose value is a dictionary
(criterion_id -> score), or one scorer per criterion named by its criterion_id. A
juror's scores become rows of jury.parquet, with the presentation `position` derived
from `jury.presentation_seed` (Art. 24) and `judged_at` the sample's end; an
adjudicator's become rows of adjudications.parquet. A sample without its response's
keys, a criterion missing or not of the rubric, a score outside `jury.scale`, two
samples for one response, a judge of no row of judges.csv, and a judge who already has
scores there are refused, one line each, and nothing is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.archive import MANIFEST_FILE, Problems, read_manifest_data
from reportgen.archive._csv import read_csv_records
from reportgen.archive._parquet import parquet_bytes
from reportgen.atomic import write_atomic
from reportgen.errors import InputError
from reportgen.kinds.multidomain.derive import presentation_ranks
from reportgen.kinds.multidomain.schemas import (
    ADJUDICATIONS_FILE,
    ADJUDICATIONS_SCHEMA,
    ITEMS_FILE,
    JUDGES_FILE,
    JUDGES_HEADER,
    JURY_FILE,
    JURY_SCHEMA,
    RUBRICS_FILE,
    TS_FORMAT,
)

Row = dict[str, Any]


def import_jury(paths: Sequence[Path], raw_dir: Path, *, judge_id: str | None) -> str:
    """Read the judges' logs at `paths` into RAW_DIR's jury.parquet and
    adjudications.parquet; InputError with one line per refusal, nothing written."""
    from reportgen.collect.inspect_logs import readable_logs, refuse_if_any

    lines: list[str] = []
    logs = readable_logs(paths, lines)
    context = _Context(raw_dir)
    new: dict[str, list[Row]] = {JURY_FILE: [], ADJUDICATIONS_FILE: []}
    for path, log in logs:
        judge = judge_id or context.judge_of(str(log.eval.model))
        problem = context.judge_problem(judge, str(log.eval.model))
        if judge is None or problem:
            lines.append(f"{path}: {problem}")
            continue
        target = JURY_FILE if context.roles[judge] == "juror" else ADJUDICATIONS_FILE
        if any(row["judge_id"] == judge for row in context.existing[target] + new[target]):
            lines.append(f"{path}: judge {judge!r} already has scores in {target}")
            continue
        rows, refused = context.rows(path, judge, log.samples or [])
        lines += refused
        new[target] += rows
    refuse_if_any(raw_dir, lines, "the judges' logs")
    _with_positions(new[JURY_FILE], context.seed)
    for name, schema in ((JURY_FILE, JURY_SCHEMA), (ADJUDICATIONS_FILE, ADJUDICATIONS_SCHEMA)):
        if new[name]:
            rows = context.existing[name] + new[name]
            table = pa.table({c: [row[c] for row in rows] for c in schema.names}, schema=schema)
            write_atomic(raw_dir / name, parquet_bytes(table))
    return f"{len(new[JURY_FILE])} jury and {len(new[ADJUDICATIONS_FILE])} adjudication score(s)"


class _Context:
    """What a judge's log is checked against: judges.csv, the rubrics, round.json's jury."""

    def __init__(self, raw_dir: Path) -> None:
        problems = Problems()
        data = read_manifest_data(raw_dir, problems)
        records = read_csv_records(raw_dir / JUDGES_FILE, JUDGES_FILE, JUDGES_HEADER, problems)
        problems.raise_if_any(str(raw_dir))
        block = data.get("multidomain") if isinstance(data, dict) else None
        jury = block.get("jury") if isinstance(block, dict) else None
        if not isinstance(jury, dict):
            raise InputError(f"{raw_dir / MANIFEST_FILE}: expected multidomain.jury")
        self.seed = int(jury["presentation_seed"])
        low, high = (int(value) for value in jury["scale"])  # [lowest, highest]
        self.scale = range(low, high + 1)
        judges = [record for _, record in records or []]
        self.roles = {judge["judge_id"]: judge["role"] for judge in judges}
        self.apis = {judge["api_identifier"]: judge["judge_id"] for judge in judges}
        items = _table(raw_dir / ITEMS_FILE, ["item_id", "rubric_id"])
        criteria: dict[str, list[str]] = {}
        rubric_rows = _table(raw_dir / RUBRICS_FILE, ["rubric_id", "criterion_id", "position"])
        for row in sorted(rubric_rows, key=lambda r: r["position"]):
            criteria.setdefault(row["rubric_id"], []).append(row["criterion_id"])
        self.criteria = {row["item_id"]: criteria.get(row["rubric_id"] or "", []) for row in items}
        self.existing = {
            JURY_FILE: _table(raw_dir / JURY_FILE, JURY_SCHEMA.names),
            ADJUDICATIONS_FILE: _table(raw_dir / ADJUDICATIONS_FILE, ADJUDICATIONS_SCHEMA.names),
        }

    def judge_of(self, model: str) -> str | None:
        return self.apis.get(model) or self.apis.get(model.split("/", 1)[-1])

    def judge_problem(self, judge: str | None, model: str) -> str | None:
        """Why the log's judge cannot score here, or None."""
        if judge is None:
            return f"model {model!r} is no judge of judges.csv (name its judge_id with --judge-id)"
        if judge not in self.roles:
            return f"judge {judge!r} is no row of judges.csv"
        if self.roles[judge] not in ("juror", "adjudicator"):
            return (
                f"judge {judge!r} is a {self.roles[judge]}: only jurors and adjudicators "
                "score the jury's responses (reviewers: reportgen review)"
            )
        return None

    def rows(self, path: Path, judge: str, samples: Sequence[Any]) -> tuple[list[Row], list[str]]:
        """The score rows of one judge's samples, and one line per refused sample."""
        rows: list[Row] = []
        lines: list[str] = []
        seen: set[tuple[str, str, int]] = set()
        for sample in samples:
            source = f"{path}, sample {sample.id!r}"
            key = _response_key(sample.metadata or {})
            if key is None:
                lines.append(f"{source}: no item_id, model_id and run in its metadata")
                continue
            if key in seen:
                lines.append(f"{source}: a second sample for response {key}")
                continue
            seen.add(key)
            scores, problem = self._scores(key[0], sample)
            judged_at = _judged_at(sample)
            if problem or judged_at is None:
                lines.append(f"{source}: {problem or 'no time at which it was scored'}")
                continue
            rows += [
                {"item_id": key[0], "model_id": key[1], "run": key[2], "judge_id": judge,
                 "criterion_id": criterion, "score": score, "judged_at": judged_at}
                for criterion, score in scores.items()
            ]  # fmt: skip
        return rows, lines

    def _scores(self, item_id: str, sample: Any) -> tuple[dict[str, int], str | None]:
        if item_id not in self.criteria:
            return {}, f"item {item_id!r} is no item of items.parquet"
        given: dict[str, object] = {}
        for name, score in (sample.scores or {}).items():
            value = score.value
            given.update(value if isinstance(value, Mapping) else {name: value})
        wanted = self.criteria[item_id]
        missing = [c for c in wanted if c not in given]
        extra = sorted(c for c in given if c not in wanted)
        if missing or extra:
            return {}, (
                f"the rubric of item {item_id!r} has criteria {', '.join(wanted) or 'none'}; "
                f"missing: {', '.join(missing) or 'none'}; not of the rubric: "
                f"{', '.join(extra) or 'none'}"
            )
        scores: dict[str, int] = {}
        for criterion in wanted:
            value = given[criterion]
            number = _integer(value)
            if number is None or number not in self.scale:
                return {}, (
                    f"criterion {criterion!r}: expected an integer from {self.scale[0]} to "
                    f"{self.scale[-1]} (jury.scale), got {value!r}"
                )
            scores[criterion] = number
        return scores, None


def _table(path: Path, columns: Sequence[str]) -> list[Row]:
    try:
        return list(pq.read_table(path, columns=list(columns)).to_pylist())
    except (OSError, pa.ArrowException, KeyError) as error:
        raise InputError(f"{path}: expected the columns {', '.join(columns)}: {error}") from error


def _response_key(metadata: Mapping[str, object]) -> tuple[str, str, int] | None:
    item_id, model_id, run = (metadata.get(k) for k in ("item_id", "model_id", "run"))
    if not isinstance(item_id, str) or not isinstance(model_id, str):
        return None
    if not isinstance(run, int) or isinstance(run, bool):
        return None
    return item_id, model_id, run


def _integer(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _judged_at(sample: Any) -> str | None:
    moment = getattr(sample, "completed_at", None) or sample.started_at
    if not moment:
        return None
    return datetime.fromisoformat(str(moment)).astimezone(UTC).strftime(TS_FORMAT)


def _with_positions(rows: list[Row], seed: int) -> None:
    """Each juror row's `position` (Art. 24): the response's rank among its judge's."""
    keys = {(r["judge_id"], r["item_id"], r["model_id"], r["run"]) for r in rows}
    ranks = presentation_ranks(seed, keys)
    for row in rows:
        row["position"] = ranks[(row["judge_id"], row["item_id"], row["model_id"], row["run"])]
