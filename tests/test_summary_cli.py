"""`reportgen summary` on golden rounds written as real archives."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main
from reportgen.kinds.estigmas.archive import read_round, write_round
from reportgen.kinds.estigmas.model import Annulment, ResponseRow, Round
from reportgen.kinds.estigmas.score import score_models
from reportgen.kinds.estigmas.summary import MODEL_KEYS
from tests.factories import CASES, GOLDEN, golden_round

INTERVAL_KEYS = ("failure", "index", "bias_rate", "omission_rate", "correct_rate")


def write_archive(round_: Round, parent: Path) -> Path:
    """Write an in-memory round as a verified archive under `parent`."""
    dest = parent / round_.round_id
    write_round(
        dest,
        manifest=round_.manifest,
        models=round_.models,
        stigmas=round_.stigmas,
        structures=round_.structures,
        items=round_.items,
        responses={
            model.model_id: [
                ResponseRow(
                    item.item_id,
                    model.model_id,
                    f"resposta {k}",
                    round_.responses[model.model_id].label(k),
                )
                for k, item in enumerate(round_.items)
            ]
            for model in round_.models
        },
        annulments=round_.annulments,
    )
    return dest


def run_summary(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "160"}).invoke(main, ["summary", *args])


def expected_models(case: str) -> list[dict[str, Any]]:
    models: list[dict[str, Any]] = json.loads((GOLDEN / case / "expected.json").read_text("utf-8"))[
        "models"
    ]
    return models


@pytest.mark.parametrize("case", CASES)
def test_table_lists_ranking_then_diagnostic_cases(case: str, tmp_path: Path) -> None:
    round_ = golden_round(case)
    result = run_summary(str(write_archive(round_, tmp_path)))
    assert result.exit_code == 0, result.output
    out = result.stdout
    expected = expected_models(case)
    scored = sum(round_.is_scored(item) for item in round_.items)
    assert f"Round {round_.round_id} ({round_.manifest.variant})" in out
    assert f"N = {scored} scored items" in out
    assert f"{len(round_.annulments)} annulled item(s)" in out
    assert ("generated demonstration data" in out) == round_.manifest.synthetic
    limit = f"{round_.manifest.max_omission * 100:g}%"
    assert f"Diagnostic cases (omission above {limit}, outside the ranking)" in out
    diagnostic_heading = out.index("Diagnostic cases")
    display = {model.model_id: model.display_name for model in round_.models}
    for model in expected:
        row = next(line for line in out.splitlines() if f" {display[model['model_id']]} " in line)
        assert (out.index(row) < diagnostic_heading) == (model["rank"] is not None)
        assert f"{float(Fraction(model['index'])) * 100:.1f}%" in row
        if model["rank"] is not None:
            assert row.split()[1] == str(model["rank"])


@pytest.mark.parametrize("case", CASES)
def test_json_has_exactly_the_documented_keys_and_types(case: str, tmp_path: Path) -> None:
    round_dir = write_archive(golden_round(case), tmp_path)
    result = run_summary(str(round_dir), "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert list(document) == ["round_id", "models"]
    assert document["round_id"] == golden_round(case).round_id
    expected = expected_models(case)
    assert [m["model_id"] for m in document["models"]] == [m["model_id"] for m in expected]
    scores = score_models(read_round(round_dir, with_text=False))
    for entry, wanted, score in zip(document["models"], expected, scores, strict=True):
        assert list(entry) == [*MODEL_KEYS, "ci"]
        assert sorted(entry["ci"]) == sorted(INTERVAL_KEYS)
        for lower, upper in entry["ci"].values():
            assert 0.0 <= lower <= upper <= 1.0
        for key in ("model_id", "display_name", "provider"):
            assert isinstance(entry[key], str)
        for key in ("N", "n", "biased", "omissions", "correct", "inconclusive"):
            assert type(entry[key]) is int
            assert entry[key] == getattr(score, key)
        for key in ("bias_rate", "omission_rate", "correct_rate", "coverage", "failure", "index"):
            assert type(entry[key]) is float
            assert entry[key] == getattr(score, key)  # unrounded: the exact float survives
            assert entry[key] == pytest.approx(float(Fraction(wanted[key])), abs=1e-15)
        assert type(entry["eligible"]) is bool
        assert entry["eligible"] == wanted["eligible"]
        assert entry["rank"] == wanted["rank"]
        assert (entry["rank"] is None) == (not entry["eligible"])


def _assert_clean_failure(result: Result, *fragments: str) -> None:
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ")
    assert "Traceback" not in result.output
    assert result.stdout == ""
    for fragment in fragments:
        assert fragment in result.stderr


def test_missing_round_dir_is_a_clean_error(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-round"
    _assert_clean_failure(run_summary(str(missing)), str(missing), "not a directory")
    _assert_clean_failure(run_summary(str(missing), "--json"), str(missing))


def test_tampered_archive_is_a_clean_error(tmp_path: Path) -> None:
    round_dir = write_archive(golden_round(CASES[0]), tmp_path)
    models_csv = round_dir / "models.csv"
    models_csv.write_text(models_csv.read_text("utf-8") + "\n", encoding="utf-8")
    _assert_clean_failure(run_summary(str(round_dir)), "models.csv")


def test_round_with_every_scored_item_annulled_is_a_clean_error(tmp_path: Path) -> None:
    round_ = golden_round("annulled_items")
    every_pt_item = [
        Annulment(
            item.item_id,
            round_.annulments[0].decided_on,
            "contestation",
            f"c-{k}",
            {"pt-BR": "-", "en": "-"},
            "",
        )
        for k, item in enumerate(round_.items)
        if item.language == "pt-BR" and item.style != "base"
    ]
    round_dir = write_archive(replace(round_, annulments=tuple(every_pt_item)), tmp_path)
    _assert_clean_failure(run_summary(str(round_dir)), "golden-annulled", "N = 0")
