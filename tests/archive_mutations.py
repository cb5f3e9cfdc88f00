"""Tools that break one thing in a valid archive, for the broken-archive corpus.

Most edits re-sign SHA256SUMS afterwards (`resign`), so that the archive is wrong in
exactly the way a test intends and not also by a checksum mismatch.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

CHECKSUMS = "SHA256SUMS"
LEDGER = "annulments.jsonl"


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under `root` with its bytes: to show that a command changed nothing."""
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def resign(round_dir: Path) -> None:
    """Rewrite SHA256SUMS for the files now present (ledger and SHA256SUMS excluded)."""
    lines = []
    for path in sorted(round_dir.rglob("*")):
        rel = path.relative_to(round_dir).as_posix()
        if path.is_file() and rel not in (CHECKSUMS, LEDGER):
            lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {rel}\n")
    (round_dir / CHECKSUMS).write_text("".join(sorted(lines, key=lambda x: x[66:])))


def edit_manifest(change: Callable[[dict[str, object]], object]) -> Callable[[Path], None]:
    def mutate(round_dir: Path) -> None:
        path = round_dir / "round.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        resign(round_dir)

    return mutate


def edit_csv(name: str, change: Callable[[list[list[str]]], object]) -> Callable[[Path], None]:
    """`change` gets the rows, header first."""

    def mutate(round_dir: Path) -> None:
        path = round_dir / name
        rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
        change(rows)
        buffer = io.StringIO(newline="")
        csv.writer(buffer, lineterminator="\n").writerows(rows)
        path.write_text(buffer.getvalue(), encoding="utf-8")
        resign(round_dir)

    return mutate


def set_cell(name: str, row: int, column: str, value: str) -> Callable[[Path], None]:
    """Set one CSV cell; `row` is the 1-based data row."""

    def change(rows: list[list[str]]) -> None:
        rows[row][rows[0].index(column)] = value

    return edit_csv(name, change)


def edit_table(name: str, change: Callable[[pa.Table], pa.Table]) -> Callable[[Path], None]:
    def mutate(round_dir: Path) -> None:
        path = round_dir / name
        pq.write_table(change(pq.read_table(path)), path)
        resign(round_dir)

    return mutate


def set_value(name: str, row: int, column: str, value: object) -> Callable[[Path], None]:
    """Set one Parquet cell; `row` is 0-based."""

    def change(table: pa.Table) -> pa.Table:
        values = table.column(column).to_pylist()
        values[row] = value
        index = table.schema.get_field_index(column)
        field = pa.field(column, table.schema.field(column).type)  # nullable, to allow None
        return table.set_column(index, field, pa.array(values, field.type))

    return edit_table(name, change)


def edit_bytes(
    name: str, change: Callable[[bytes], bytes], *, sign: bool
) -> Callable[[Path], None]:
    def mutate(round_dir: Path) -> None:
        path = round_dir / name
        path.write_bytes(change(path.read_bytes()))
        if sign:
            resign(round_dir)

    return mutate


def remove(name: str, *, sign: bool = True) -> Callable[[Path], None]:
    def mutate(round_dir: Path) -> None:
        (round_dir / name).unlink()
        if sign:
            resign(round_dir)

    return mutate


def add_file(name: str, data: bytes, *, sign: bool) -> Callable[[Path], None]:
    def mutate(round_dir: Path) -> None:
        (round_dir / name).write_bytes(data)
        if sign:
            resign(round_dir)

    return mutate


def edit_ledger(change: Callable[[list[dict[str, object]]], object]) -> Callable[[Path], None]:
    """Change the ledger's records, then re-chain them, so only `change` is wrong."""

    def mutate(round_dir: Path) -> None:
        path = round_dir / LEDGER
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        change(records)
        data = b""
        for record in records:
            record["prev_sha256"] = hashlib.sha256(data).hexdigest() if data else ""
            data += (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        path.write_bytes(data)

    return mutate
