"""Issue 21, points 4 to 6, through `reportgen verify` on archives on disk: the Art. 16
hit rate of the adjudicating judge gates it, the Art. 8 system instruction matches its
hash, and (Art. 37) every item carries its personal-data screening.

Each refusal: exit 1, no traceback, one problem line naming the file and the row, key
or item, and the archive's bytes unchanged. Base: `small_round()` of
tests/factories/multidomain.py, written file by file as the spec lays it out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.kinds.multidomain.terms import sha256_text
from tests.factories.multidomain import GENERATION, RoundParts, small_round

Change = Callable[[RoundParts], None]


def _files(round_dir: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(round_dir.rglob("*")) if p.is_file()}


def _refused(tmp_path: Path, change: Change) -> list[str]:
    """The change's archive refused by `reportgen verify`: its problem lines."""
    parts = small_round()
    change(parts)
    round_dir = parts.write(tmp_path)
    before = _files(round_dir)
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert _files(round_dir) == before
    return [line.removeprefix("  - ") for line in result.output.splitlines() if "  - " in line]


def _verifies(tmp_path: Path, change: Change) -> None:
    parts = small_round()
    change(parts)
    result = CliRunner().invoke(main, ["verify", str(parts.write(tmp_path))])
    assert result.exit_code == 0, result.output


def _adjudicator_scores(score: int | None) -> Change:
    """a1's calibration scores set to `score` (None: a1 took no calibration test)."""

    def change(parts: RoundParts) -> None:
        rows = parts.tables["calibration.parquet"]
        if score is None:
            rows[:] = [row for row in rows if row["rater_id"] != "a1"]
        for row in rows:
            if row["rater_id"] == "a1":
                row["score"] = score

    return change


# --- Art. 16: the adjudicating judge's hit rate gates it ---------------------------------


def test_the_base_round_verifies_with_the_adjudicator_in_the_calibration(tmp_path: Path) -> None:
    _verifies(tmp_path, lambda parts: None)


@pytest.mark.parametrize(("score", "rate"), [(5, "1 over 2"), (0, "0 over 2")])
def test_an_adjudicator_outside_the_band_cannot_score_test_items(
    tmp_path: Path, score: int, rate: str
) -> None:
    lines = _refused(tmp_path, _adjudicator_scores(score))
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith("adjudications.parquet: row 1, judge_id 'a1' (item 'a-open')")
    assert f"hit rate is {rate} response(s)" in line
    assert "[1/5, 19/20]" in line
    assert "Art. 16" in line


def test_an_adjudicator_on_the_band_edge_may_score(tmp_path: Path) -> None:
    """Exactly 1/5 (a score of 1 on every criterion) is inside the band."""
    _verifies(tmp_path, _adjudicator_scores(1))


def test_an_adjudicator_without_calibration_cannot_score_test_items(tmp_path: Path) -> None:
    lines = _refused(tmp_path, _adjudicator_scores(None))
    assert len(lines) == 1, lines
    assert lines[0].startswith("adjudications.parquet: row 1, judge_id 'a1' (item 'a-open')")
    assert "without scoring the calibration test" in lines[0]


def test_a_juror_outside_the_band_is_no_gate(tmp_path: Path) -> None:
    """Art. 16 names the adjudicating judge: a juror's own rate does not gate it."""

    def change(parts: RoundParts) -> None:
        for row in parts.tables["calibration.parquet"]:
            if row["rater_id"] == "j1":
                row["score"] = 5

    _verifies(tmp_path, change)


# --- Art. 8: the system instruction and its hash ------------------------------------------


def test_a_system_instruction_matching_its_hash_verifies(tmp_path: Path) -> None:
    _verifies(tmp_path, lambda parts: parts.block.update(system_prompt="Responda com cuidado."))


def test_a_system_instruction_other_than_the_hashed_one_is_refused(tmp_path: Path) -> None:
    lines = _refused(tmp_path, lambda parts: parts.block.update(system_prompt="Responda já."))
    assert len(lines) == 1, lines
    assert lines[0].startswith("round.json: multidomain.system_prompt")
    assert sha256_text("Responda já.") in lines[0]
    assert str(GENERATION["system_prompt_sha256"]) in lines[0]


def test_an_empty_system_instruction_is_refused(tmp_path: Path) -> None:
    lines = _refused(tmp_path, lambda parts: parts.block.update(system_prompt=""))
    assert lines == [
        "round.json: multidomain.system_prompt: expected the instruction's text (non-empty), got ''"
    ]


# --- Art. 37: every item screened for personal data; synthetic data declared ------------


def _screening_row(parts: RoundParts, item_id: str) -> dict[str, object]:
    rows: list[dict[str, object]] = parts.tables["screening.parquet"]
    return next(row for row in rows if row["item_id"] == item_id)


def test_an_item_without_screening_is_refused(tmp_path: Path) -> None:
    def change(parts: RoundParts) -> None:
        rows = parts.tables["screening.parquet"]
        rows[:] = [row for row in rows if row["item_id"] != "a-open"]

    lines = _refused(tmp_path, change)
    assert len(lines) == 1, lines
    assert lines[0].startswith("screening.parquet: item 'a-open': no personal-data screening")
    assert "Art. 37" in lines[0]


def test_synthetic_personal_data_without_its_declaration_is_refused(tmp_path: Path) -> None:
    lines = _refused(tmp_path, lambda p: _screening_row(p, "b-calc").update(declaration_en=None))
    assert len(lines) == 1, lines
    assert lines[0].startswith("screening.parquet: row 5 (item 'b-calc'), declaration_en:")
    assert "declaration that they are synthetic (Art. 37)" in lines[0]


def test_an_item_with_real_personal_data_is_refused(tmp_path: Path) -> None:
    def change(parts: RoundParts) -> None:
        _screening_row(parts, "a-mcq").update(result="real_personal_data")

    lines = _refused(tmp_path, change)
    assert len(lines) == 1, lines
    assert lines[0].startswith("screening.parquet: row 1 (item 'a-mcq'), result:")
    assert "items hold no real personal data" in lines[0]


def test_a_screening_after_the_collection_is_refused(tmp_path: Path) -> None:
    def change(parts: RoundParts) -> None:
        _screening_row(parts, "a-calc").update(screened_on="2026-11-12")

    lines = _refused(tmp_path, change)
    assert lines == [
        "screening.parquet: row 2 (item 'a-calc'), screened_on: 2026-11-12: expected on or "
        "before collected_on 2026-11-11 (items are screened before the round, Art. 37)"
    ]


def test_a_screening_without_its_screener_is_refused(tmp_path: Path) -> None:
    lines = _refused(tmp_path, lambda p: _screening_row(p, "a-calc").update(screened_by=" "))
    assert len(lines) == 1, lines
    assert lines[0].startswith("screening.parquet: row 2 (item 'a-calc'), screened_by:")


def test_an_archive_without_the_screening_table_is_refused(tmp_path: Path) -> None:
    parts = small_round()
    round_dir = parts.write(tmp_path)
    (round_dir / "screening.parquet").unlink()
    sums = round_dir / "SHA256SUMS"
    kept = [line for line in sums.read_text().splitlines() if "screening" not in line]
    sums.write_text("\n".join(kept) + "\n")
    before = _files(round_dir)
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exit_code == 1, result.output
    assert "screening.parquet: missing file" in result.output
    assert _files(round_dir) == before
