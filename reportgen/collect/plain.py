"""Answers from a plain JSON lines or CSV file, for any client (`reportgen import jsonl`).

One answer per line (JSON lines: one object a line; CSV: a header row, then one row per
answer); the columns are documented in docs/running-a-round.md:

- required: `model_id` (a row of models.csv), `item_id`, `raw_text` (the output text);
- `run` (an integer; 1 when absent, as in a single-run round);
- optional: `status` (ok, refusal, error or timeout; ok when absent), `called_at`
  (YYYY-MM-DDThh:mm:ss[.fff]Z, UTC), `latency_ms`, `input_tokens`, `output_tokens`,
  `cost`, `model_name`, `system_prompt_sha256`, `tools_sha256`, `prompt_sha256`,
  `context_sha256` (the hashes of what was sent: a counterfactual round needs the
  first three, and the fourth for an item with a context).

Other columns (to_send's prompt, language, ...) are read past. Every bad line is
reported, by number, with what was expected; nothing is imported then.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from reportgen.collect.collected import STATUSES, Collected
from reportgen.errors import InputError

CALLED_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z")
SHA256 = re.compile(r"[0-9a-f]{64}")
REQUIRED = ("model_id", "item_id", "raw_text")
# What was sent, as hashes: the system message, the tool definitions, the user message
# (the item's prompt) and the context (a counterfactual round's CRM record or history).
HASHES = ("system_prompt_sha256", "tools_sha256", "prompt_sha256", "context_sha256")
OPTIONAL_TEXT = ("model_name",)
OPTIONAL_INT = ("input_tokens", "output_tokens")
OPTIONAL_NUMBER = ("latency_ms", "cost")
MAX_LINES = 20


def read_plain(path: Path) -> list[Collected]:
    """Every answer of the JSON lines (.jsonl) or CSV (.csv) file at `path`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: cannot be read as UTF-8 text ({error})") from error
    records = _csv_records(path, text) if path.suffix == ".csv" else _json_records(text)
    answers, lines = [], []
    for where, record in records:
        answer = record if isinstance(record, str) else _answer(path, where, record)
        if isinstance(answer, str):
            lines.append(f"  - {where}: {answer}")
        else:
            answers.append(answer)
    if lines:
        shown = lines[:MAX_LINES] + (
            [f"  ... and {len(lines) - MAX_LINES} more"] if len(lines) > MAX_LINES else []
        )
        raise InputError(
            "\n".join([f"{path}: {len(lines)} bad line(s); nothing was written", *shown])
        )
    return answers


def json_lines(text: str) -> Iterator[tuple[str, object, str | None]]:
    """Each non-blank line of the JSON lines `text`: "line N", its value, and None; or,
    when the line is not valid JSON, "line N", None and the decoder's message. Lines end
    at "\n" only: str.splitlines would also break at U+2028 and friends, which JSON allows
    unescaped inside a string (a model's answer may hold them)."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value, problem = json.loads(line), None
        except json.JSONDecodeError as error:
            value, problem = None, error.msg
        yield f"line {number}", value, problem


def _json_records(text: str) -> list[tuple[str, Mapping[str, object] | str]]:
    records: list[tuple[str, Mapping[str, object] | str]] = []
    for where, value, problem in json_lines(text):
        if problem is not None:
            records.append((where, f"not valid JSON ({problem}): expected an object"))
        else:
            records.append((where, value if isinstance(value, dict) else "expected a JSON object"))
    return records


def _csv_records(path: Path, text: str) -> list[tuple[str, Mapping[str, object] | str]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        rows = list(reader)
    except csv.Error as error:
        raise InputError(f"{path}: not valid CSV ({error})") from error
    # CSV has no null: an empty optional cell is absent.
    return [
        (
            f"row {number}",
            {key: value for key, value in row.items() if value != "" or key == "raw_text"},
        )
        for number, row in enumerate(rows, start=1)
    ]


def _answer(path: Path, where: str, record: Mapping[str, object]) -> Collected | str:
    missing = [name for name in REQUIRED if record.get(name) is None]
    if missing:
        return f"missing {', '.join(missing)}"
    texts = {name: record[name] for name in REQUIRED}
    if not all(isinstance(value, str) for value in texts.values()):
        return "model_id, item_id and raw_text must be text"
    run = _integer(record.get("run", 1))
    status = record.get("status", "ok")
    called_at = record.get("called_at")
    if run is None:
        return f"run {record.get('run')!r}: expected an integer"
    if status not in STATUSES:
        return f"status {status!r}: expected one of {', '.join(STATUSES)}"
    if called_at is not None and not (
        isinstance(called_at, str) and CALLED_AT.fullmatch(called_at)
    ):
        return f"called_at {called_at!r}: expected YYYY-MM-DDThh:mm:ss[.fff]Z (UTC)"
    numbers: dict[str, float | None] = {}
    for name in (*OPTIONAL_INT, *OPTIONAL_NUMBER):
        value = record.get(name)
        number = None if value is None else _number(value, integer=name in OPTIONAL_INT)
        if value is not None and number is None:
            return (
                f"{name} {value!r}: expected {'an integer' if name in OPTIONAL_INT else 'a number'}"
            )
        numbers[name] = number
    hashes = {name: None if record.get(name) is None else str(record.get(name)) for name in HASHES}
    for name, value in hashes.items():
        if value is not None and not (isinstance(value, str) and SHA256.fullmatch(value)):
            return f"{name} {value!r}: expected 64 lowercase hexadecimal digits"
    model_name = record.get("model_name")
    return Collected(
        source=f"{path}, {where}",
        model_id=str(texts["model_id"]),
        item_id=str(texts["item_id"]),
        run=run,
        raw_text=str(texts["raw_text"]),
        status=str(status),
        model_name=None if model_name is None else str(model_name),
        called_at=None if called_at is None else str(called_at),
        latency_ms=numbers["latency_ms"],
        input_tokens=None if numbers["input_tokens"] is None else int(numbers["input_tokens"]),
        output_tokens=None if numbers["output_tokens"] is None else int(numbers["output_tokens"]),
        cost=numbers["cost"],
        system_prompt_sha256=hashes["system_prompt_sha256"],
        tools_sha256=hashes["tools_sha256"],
        prompt_sha256=hashes["prompt_sha256"],
        context_sha256=hashes["context_sha256"],
    )


def _integer(value: object) -> int | None:
    number = _number(value, integer=True)
    return None if number is None else int(number)


def _number(value: object, *, integer: bool) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) or (isinstance(value, float) and not integer):
        return float(value)
    if isinstance(value, str):
        try:
            number = int(value) if integer else float(value)
        except ValueError:
            return None
        return float(number)
    return None
