"""The files of a multidomain archive as files: a missing or unlisted kind table, a
column set or type that differs, a truncated Parquet file, checksums, and the rows of
models.csv, judges.csv and the Parquet tables (multidomain-round.md, refusals 1, 2, 8
to 11, 20, 46). Each broken rule gives one problem naming the file and row."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reportgen.kinds.multidomain.terms import canonical_json, sha256_text
from tests.factories.multidomain import (
    RoundParts,
    only_problem,
    refresh_checksums,
    refused,
    small_round,
)


def test_a_missing_kind_table_is_one_line(tmp_path: Path) -> None:
    round_dir = small_round().write(tmp_path)
    (round_dir / "audit.parquet").unlink()
    refresh_checksums(round_dir)
    problem = only_problem(round_dir)
    assert (problem.file, problem.message) == ("audit.parquet", "missing file")
    assert "audit.parquet: missing file" in refused(round_dir)


def test_a_kind_table_left_out_of_the_checksums_is_one_line(tmp_path: Path) -> None:
    round_dir = small_round().write(tmp_path)
    sums = round_dir / "SHA256SUMS"
    sums.write_text(
        "".join(line + "\n" for line in sums.read_text().splitlines() if "jury" not in line)
    )
    problem = only_problem(round_dir)
    assert (problem.file, problem.message) == (
        "jury.parquet",
        "present but not listed in SHA256SUMS",
    )


def test_an_edited_file_fails_its_checksum(tmp_path: Path) -> None:
    round_dir = small_round().write(tmp_path)
    models = round_dir / "models.csv"
    models.write_text(models.read_text().replace("Diretoria executiva", "Diretoria nova", 1))
    problem = only_problem(round_dir)
    assert problem.file == "models.csv"
    assert "checksum mismatch" in problem.message


def _rewrite(path: Path, change: Callable[[pa.Table], pa.Table]) -> None:
    pq.write_table(change(pq.read_table(path)), path)
    refresh_checksums(path.parent)


def test_an_extra_column_is_one_line(tmp_path: Path) -> None:
    round_dir = small_round().write(tmp_path)
    _rewrite(
        round_dir / "jury.parquet",
        lambda t: t.append_column("score_float", pa.array([1.0] * t.num_rows)),
    )
    problem = only_problem(round_dir)
    assert (problem.file, problem.where) == ("jury.parquet", "column score_float")
    assert "unexpected column" in problem.message


def test_a_wrong_column_type_is_one_line(tmp_path: Path) -> None:
    round_dir = small_round().write(tmp_path)
    _rewrite(
        round_dir / "jury.parquet",
        lambda t: t.set_column(
            t.schema.get_field_index("score"), "score", t.column("score").cast(pa.float64())
        ),
    )
    problem = only_problem(round_dir)
    assert (problem.file, problem.where) == ("jury.parquet", "column score")
    assert problem.message == "expected type integer, got double"
    assert "jury.parquet: column score: expected type integer" in refused(round_dir)


def test_a_truncated_parquet_file_is_one_line(tmp_path: Path) -> None:
    round_dir = small_round().write(tmp_path)
    path = round_dir / "rubrics.parquet"
    path.write_bytes(path.read_bytes()[:-40])
    refresh_checksums(round_dir)
    problem = only_problem(round_dir)
    assert problem.file == "rubrics.parquet"
    assert problem.message.startswith("unreadable Parquet file")
    output = refused(round_dir)
    assert "rubrics.parquet: unreadable Parquet file" in output


def _affinity(parts: RoundParts) -> None:
    parts.models[1]["language_affinity"] = "en"


def _organization(parts: RoundParts) -> None:
    parts.models[0]["organization"] = "Outra Organização"


def _no_checksum(parts: RoundParts) -> None:
    parts.models[2]["checksum"] = ""


def _footnote(parts: RoundParts) -> None:
    parts.models[1]["footnote_en"] = ""


def _verified_late(parts: RoundParts) -> None:
    parts.models[0]["verified_on"] = "2026-11-12"


def _hot_generation(parts: RoundParts) -> None:
    generation = {**parts.manifest["generation"], "temperature": 0.7}
    parts.models[2]["generation_sha256"] = sha256_text(canonical_json(generation))


def _status(parts: RoundParts) -> None:
    parts.models[0]["verification_status"] = "pending"


def _anchor(parts: RoundParts) -> None:
    parts.tables["rubrics.parquet"][1]["anchor_3"] = " "


def _position_gap(parts: RoundParts) -> None:
    parts.tables["rubrics.parquet"][1]["position"] = 3


def _presented_as(parts: RoundParts) -> None:
    parts.tables["judge_views.parquet"][0]["presented_as"] = "Sistema 1"


def _judged_at(parts: RoundParts) -> None:
    parts.tables["jury.parquet"][4]["judged_at"] = "2026-11-20"


def _calibration_hash(parts: RoundParts) -> None:
    parts.tables["calibration.parquet"][0]["response_text"] = "Outro texto piloto."


def _calibration_date(parts: RoundParts) -> None:
    parts.tables["calibration.parquet"][0]["scored_on"] = "2026-11-5"


def _human_juror_role(parts: RoundParts) -> None:
    parts.judges[3].update(kind="model", role="reviewer")


def _judge_conflict_note(parts: RoundParts) -> None:
    parts.judges[3]["declared_conflict"] = True


def _judge_participant(parts: RoundParts) -> None:
    parts.judges[3]["participant_model_id"] = "p9"


CASES: list[tuple[str, Callable[[RoundParts], None], str, str, str]] = [
    ("8 affinity", _affinity, "models.csv", "row 2, language_affinity", "'zh;en'"),
    ("8 organization", _organization, "models.csv", "row 1, organization", "annex entry 1"),
    ("9", _no_checksum, "models.csv", "row 3, checksum", "open weights"),
    ("10 footnote", _footnote, "models.csv", "row 2, footnote_en", "both"),
    ("10 verified_on", _verified_late, "models.csv", "row 1, verified_on", "collected_on"),
    ("11", _hot_generation, "models.csv", "row 3, generation_sha256", "same conditions"),
    ("status", _status, "models.csv", "row 1, verification_status", "confirmed | reverted"),
    ("20", _anchor, "rubrics.parquet", "criterion 'c-clareza'), anchor_3", "Art. 25"),
    ("positions", _position_gap, "rubrics.parquet", "rubric 'r-open'", "without gaps"),
    ("presented_as", _presented_as, "judge_views.parquet", "presented_as", "SISTEMA-"),
    ("judged_at", _judged_at, "jury.parquet", "judged_at", "YYYY-MM-DDTHH:MM:SSZ"),
    ("calibration hash", _calibration_hash, "calibration.parquet", "response_sha256", "sha256"),
    ("calibration date", _calibration_date, "calibration.parquet", "scored_on", "YYYY-MM-DD"),
    ("reviewer", _human_juror_role, "judges.csv", "row 4, role", "human"),
    ("conflict note", _judge_conflict_note, "judges.csv", "row 4, conflict_note", "note"),
    ("judge participant", _judge_participant, "judges.csv", "participant_model_id", "'p9'"),
]


@pytest.mark.parametrize(
    ("mutate", "file", "where", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_one_broken_rule_gives_one_problem(
    tmp_path: Path, mutate: Callable[[RoundParts], None], file: str, where: str, message: str
) -> None:
    parts = small_round()
    mutate(parts)
    round_dir = parts.write(tmp_path)
    problem = only_problem(round_dir)
    assert (problem.file, where in problem.where, message in problem.message) == (
        file,
        True,
        True,
    ), str(problem)
    assert file in refused(round_dir)
