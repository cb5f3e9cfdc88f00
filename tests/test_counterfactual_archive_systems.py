"""models.csv of a counterfactual archive, its per-system folders and the baseline
round across archives (counterfactual-round.md, refusals 12 and 14): each broken rule is
one line naming the file and the row or key, and `reportgen verify` exits 1."""

from __future__ import annotations

import dataclasses
import shutil
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.rounds import check_across, read_round, verify_round
from tests.factories.counterfactual import (
    assert_refused,
    refresh_checksums,
    refused,
    replace_row,
    small_round,
    with_manifest,
    with_second_system,
    write,
)

# --- 12 and 14 across archives: the baseline round -------------------------------------


def _later(baseline: str = "cf-base-2026", **system: Any) -> Any:
    round_ = with_manifest(small_round("cf-later-2026"), baseline_round=baseline)
    return replace_row(round_.models, 0, **system), round_


def _with_baseline(tmp_path: Path, **system: Any) -> Path:
    write(small_round("cf-base-2026"), tmp_path)
    models, round_ = _later(**system)
    return write(dataclasses.replace(round_, models=models), tmp_path)


def test_a_baseline_round_of_the_same_battery_is_accepted(tmp_path: Path) -> None:
    round_dir = _with_baseline(tmp_path, baseline_model_id="assistente-v1")
    assert verify_round(round_dir) == []
    assert check_across([read_round(round_dir)]) == []


def test_an_absent_baseline_round_is_refused(tmp_path: Path) -> None:
    _, round_ = _later()
    round_dir = write(round_, tmp_path)
    assert verify_round(round_dir) == []
    output = refused(round_dir)
    assert "counterfactual.baseline_round" in output
    assert "no archive at" in output


def test_a_baseline_round_of_another_battery_is_refused(tmp_path: Path) -> None:
    base = small_round("cf-base-2026")
    write(dataclasses.replace(base, rewrites=base.rewrites[::-1]), tmp_path)
    _, round_ = _later()
    round_dir = write(round_, tmp_path)
    problems = check_across([read_round(round_dir)])
    assert [(p.where, "another battery" in p.message) for p in problems] == [
        ("counterfactual.baseline_round", True)
    ]


def test_a_baseline_round_ending_after_this_one_began_is_refused(tmp_path: Path) -> None:
    base_dir = write(
        small_round("cf-base-2026", start=datetime(2026, 3, 5, 9, tzinfo=UTC)), tmp_path
    )
    _, round_ = _later()
    round_dir = write(round_, tmp_path)
    across = check_across([read_round(base_dir), read_round(round_dir)])
    assert [(p.where, "after this round's collected_on" in p.message) for p in across] == [
        ("counterfactual.baseline_round", True)
    ]


def test_a_baseline_model_unknown_in_the_baseline_round_is_refused(tmp_path: Path) -> None:
    round_dir = _with_baseline(tmp_path, baseline_model_id="assistente-v9")
    problems = check_across([read_round(round_dir)])
    assert [(p.file, p.where) for p in problems] == [
        ("cf-later-2026/models.csv", "row 1 (model 'assistente-v1'), baseline_model_id")
    ]


# --- 14: models.csv and the per-system folders ----------------------------------------


def test_an_extraction_file_for_no_system_is_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    folder = round_dir / "extractions"
    shutil.copy(folder / "assistente-v1.parquet", folder / "assistente-v9.parquet")
    refresh_checksums(round_dir)
    assert_refused(round_dir, "extractions/assistente-v9.parquet", "", "which models.csv lacks")


def test_a_system_without_its_extraction_file_is_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    (round_dir / "extractions" / "assistente-v1.parquet").unlink()
    refresh_checksums(round_dir)
    assert_refused(round_dir, "extractions/assistente-v1.parquet", "", "missing file")


def test_a_system_without_its_response_file_is_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    (round_dir / "responses" / "assistente-v1.parquet").unlink()
    refresh_checksums(round_dir)
    assert_refused(round_dir, "responses/assistente-v1.parquet", "", "missing file")


@pytest.mark.parametrize("column", ["system_prompt_sha256", "tools_sha256"])
def test_a_system_hash_that_is_not_a_hash_is_refused(tmp_path: Path, column: str) -> None:
    round_ = small_round()
    models = replace_row(round_.models, 0, **{column: "ABC"})
    round_dir = write(dataclasses.replace(round_, models=models), tmp_path)
    assert_refused(round_dir, "models.csv", f"row 1, {column}", "64 lower-case hex digits")


def test_an_empty_context_source_is_refused(tmp_path: Path) -> None:
    round_ = small_round()
    models = replace_row(round_.models, 0, context_source="")
    round_dir = write(dataclasses.replace(round_, models=models), tmp_path)
    assert_refused(round_dir, "models.csv", "row 1, context_source", "non-empty")


def test_no_context_source_while_templates_carry_a_context_is_refused(tmp_path: Path) -> None:
    round_ = small_round()
    models = replace_row(round_.models, 0, context_source="none")
    round_dir = write(dataclasses.replace(round_, models=models), tmp_path)
    assert_refused(
        round_dir, "models.csv", "row 1 (model 'assistente-v1'), context_source", "carry a context"
    )


def test_a_baseline_model_without_a_baseline_round_is_refused(tmp_path: Path) -> None:
    round_ = small_round()
    models = replace_row(round_.models, 0, baseline_model_id="assistente-v0")
    round_dir = write(dataclasses.replace(round_, models=models), tmp_path)
    assert_refused(
        round_dir, "models.csv", "row 1, baseline_model_id", "no counterfactual.baseline_round"
    )


def test_a_baseline_model_used_by_two_systems_is_refused(tmp_path: Path) -> None:
    write(small_round("cf-base-2026"), tmp_path)
    models, round_ = _later(baseline_model_id="assistente-v1")
    round_ = dataclasses.replace(round_, models=models)
    round_dir = write(with_second_system(round_), tmp_path)
    problems = verify_round(round_dir)
    assert [p.where for p in problems] == [
        "row 1 (model 'assistente-v1'), baseline_model_id",
        "row 2 (model 'assistente-v2'), baseline_model_id",
    ]
    assert all("re-measured by two systems" in p.message for p in problems)


def test_evaluated_on_is_the_date_of_the_first_call(tmp_path: Path) -> None:
    round_ = small_round()
    models = replace_row(round_.models, 0, evaluated_on=date(2026, 3, 1))
    round_dir = write(dataclasses.replace(round_, models=models), tmp_path)
    assert_refused(
        round_dir, "models.csv", "row 1 (model 'assistente-v1'), evaluated_on", "first call"
    )


def test_a_baseline_round_of_another_kind_is_refused(tmp_path: Path) -> None:
    from tests.factories.multidomain import small_round as multidomain_round

    multidomain_round().write(tmp_path)
    round_ = with_manifest(small_round("cf-later-2026"), baseline_round="md-small-2026")
    round_dir = write(round_, tmp_path)
    problems = check_across([read_round(round_dir)])
    assert [(p.where, "expected a counterfactual one" in p.message) for p in problems] == [
        ("counterfactual.baseline_round", True)
    ]
