"""CSV formula injection (issue 23, point 7): every text cell of the review's CSV exports
that a spreadsheet would run as a formula is written as text (a leading `'`), while the
JSON Lines export keeps the note as typed."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from reportgen.cli import main as cli
from review_app.core.spreadsheet import csv_text, spreadsheet_cell
from review_app.tasks import reviewing
from tests.factories import make_round
from tests.review.helpers import add_and_login, new_database

DANGEROUS = [
    '=HYPERLINK("http://example.invalid","x")',
    "+1+2",
    "-2+3",
    "@SUM(A1:A2)",
    "\t=1+1",
    "\r=1+1",
    "  =1+1",
    "\n=1+1",
]
HARMLESS = ["a note", "1+1=2", "e-mail: x@y", "", "'already quoted"]


@pytest.mark.parametrize("note", DANGEROUS)
def test_a_formula_gets_a_leading_quote(note: str) -> None:
    assert spreadsheet_cell(note) == "'" + note


@pytest.mark.parametrize("note", HARMLESS)
def test_plain_text_is_unchanged(note: str) -> None:
    assert spreadsheet_cell(note) == note


def test_numbers_and_absent_values_are_unchanged() -> None:
    assert spreadsheet_cell(-3) == -3
    assert spreadsheet_cell(None) is None


@given(st.text())
def test_no_cell_a_spreadsheet_reads_starts_a_formula(text: str) -> None:
    written = csv_text(("note",), [(text,)], line_end="\r\n")
    (row,) = list(csv.reader(io.StringIO(written, newline="")))[1:]
    cell = row[0]
    assert cell == text or cell == "'" + text
    if cell != text:
        return
    assert not cell.startswith(("\t", "\r"))
    assert not cell.lstrip().startswith(("=", "+", "-", "@"))


def test_export_judgments_neutralises_notes_in_csv_not_in_jsonl(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    token = add_and_login(engine, "ana")
    runner = CliRunner()
    drawn = runner.invoke(
        cli, ["review", "sample", str(round_dir), "--seed", "2", "--overlap", "1", "--db", url]
    )
    assert drawn.exit_code == 0, drawn.output
    released = runner.invoke(cli, ["review", "release-batch", "1", "--yes", "--db", url])
    assert released.exit_code == 0, released.output  # the leak review, as an administrator
    queue = reviewing.my_queue(engine, token)
    assert len(queue) >= len(DANGEROUS)
    notes = dict(zip((entry.code for entry in queue), DANGEROUS, strict=False))
    for code, note in notes.items():
        reviewing.submit_judgment(engine, token, code, "no", note)
    engine.dispose()
    outputs = {suffix: tmp_path / f"judgments.{suffix}" for suffix in ("csv", "jsonl")}
    for target in outputs.values():
        result = runner.invoke(
            cli,
            ["review", "export-judgments", str(round_dir), "--output", str(target), "--db", url],
        )
        assert result.exit_code == 0, result.output
    lines = outputs["jsonl"].read_text(encoding="utf-8").splitlines()
    stored = {row["sample_code"]: row["note"] for row in map(json.loads, lines)}
    text = outputs["csv"].read_bytes().decode("utf-8")
    by_code = {row["sample_code"]: row for row in csv.DictReader(io.StringIO(text, newline=""))}
    for code in notes:  # the app trims a note's ends; what it stored is a formula still
        assert stored[code].lstrip().startswith(("=", "+", "-", "@")), stored[code]
        assert by_code[code]["note"] == "'" + stored[code]
