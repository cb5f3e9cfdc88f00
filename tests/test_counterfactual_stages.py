"""The kind's summary and results hooks on archives written to disk: the baseline round
is read from the sibling folder, and the JSON document follows the published schema."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # altair's dependency; no stubs installed
import pytest
from rich.console import Console

from reportgen.kinds.counterfactual import stages
from reportgen.kinds.counterfactual.results import published_json_schema_text
from reportgen.kinds.rounds import read_round
from tests.factories.counterfactual import small_round, with_manifest, write


def _rounds(parent: Path) -> Path:
    parent.mkdir()
    write(small_round("cf-base"), parent)
    after = with_manifest(small_round("cf-after"), baseline_round="cf-base")
    system = dataclasses.replace(after.models[0], baseline_model_id=after.models[0].model_id)
    return write(dataclasses.replace(after, models=(system,)), parent)


def test_results_json_reads_the_baseline_beside_the_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPORTGEN_CACHE_DIR", str(tmp_path / "cache"))
    round_ = read_round(_rounds(tmp_path / "rounds"))
    steps: list[int] = []
    document = stages.STAGES.results_json(
        round_,
        replicates=30,
        cache_dir=tmp_path / "cache",
        use_cache=False,
        advance=steps.append,
    )
    assert steps == [30]
    assert stages.STAGES.results_steps(round_, 30) == 30
    jsonschema.Draft202012Validator(json.loads(published_json_schema_text())).validate(document)
    assert document["baseline_round"] == "cf-base"
    assert document["baseline_preregistration_differs"] is False
    (view,) = document["regression"]
    assert {row["change"]["exact"] for row in view["rows"] if row["change"]} == {"0"}
    cached = stages.STAGES.results_json(
        round_, replicates=30, cache_dir=tmp_path / "cache", use_cache=True, advance=None
    )
    assert cached == document


def test_the_summary_hooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPORTGEN_CACHE_DIR", str(tmp_path / "cache"))
    round_ = read_round(_rounds(tmp_path / "rounds"))
    output = io.StringIO()
    stages.STAGES.print_summary(round_, Console(file=output, width=200))
    assert "Round cf-after (counterfactual)" in output.getvalue()
    assert "before/after: assistente" in output.getvalue().lower()
    document = stages.STAGES.summary_json(round_)
    assert document["round_id"] == "cf-after"
    assert [f["variable"] for f in document["systems"][0]["findings"]][:1] == ["reembolso"]


def test_a_missing_baseline_gives_no_before_after_view(tmp_path: Path) -> None:
    after = with_manifest(small_round("cf-alone"), baseline_round="cf-absent")
    round_ = dataclasses.replace(after, path=tmp_path / "cf-alone")
    assert stages.baseline_of(round_) is None
    assert stages.baseline_of(small_round()) is None
