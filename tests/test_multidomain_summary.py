"""`reportgen summary` and `reportgen stats` hooks of the multidomain kind (stages.py)."""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import pytest
from rich.console import Console

from reportgen.demo.multidomain.tiny import tiny_round
from reportgen.errors import ReportgenError
from reportgen.kinds.multidomain import stages
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results import Results
from reportgen.model import Manifest as CoreManifest
from reportgen.model import Round as CoreRound
from reportgen.results import CACHE_ENV


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Round:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    round_ = tiny_round(tmp_path / "tiny")
    # 50 replicates keep the test quick; the figures of the tiny round do not depend on them.
    manifest = dataclasses.replace(round_.manifest, bootstrap_replicates=50)
    return dataclasses.replace(round_, manifest=manifest)


def test_summary_prints_the_classification(tiny: Round) -> None:
    console = Console(record=True, width=200)
    stages.STAGES.print_summary(tiny, console)
    text = console.export_text()
    assert "Classification" in text
    lines = [line for line in text.splitlines() if "82.94" in line]
    assert len(lines) == 1
    assert "[82.94, 82.94]" in lines[0]
    assert "85.96" in lines[0]
    assert "1503.70" in lines[0]


def test_summary_json_lists_participants_in_classification_order(tiny: Round) -> None:
    document = stages.STAGES.summary_json(tiny)
    assert [p["model_id"] for p in document["participants"]] == ["p3", "p1", "p2"]
    first = document["participants"][0]
    assert first["primary"] == {"score": "1625/18", "lo": "1625/18", "hi": "1625/18", "n": 7}
    assert first["slices"]["domain:d2"]["score"] == "100"
    assert document["tie_groups"] == []


def test_summary_json_carries_the_organisers_dates(tiny: Round, tmp_path: Path) -> None:
    """The Art. 6 and Art. 36 dates `summary` prints are in `--json` too, as results.json
    holds them."""
    document = stages.STAGES.summary_json(tiny)
    results = stages.STAGES.results_json(
        tiny, replicates=20, cache_dir=tmp_path / "c", use_cache=False, advance=None
    )
    keys = ("reverified_on", "reverify_until", "ended_on", "retain_until")
    assert document["dates"] == {key: results["dates"][key] for key in keys}
    assert document["dates"]["retain_until"] is not None


def test_results_json_with_and_without_the_cache(tiny: Round, tmp_path: Path) -> None:
    steps: list[int] = []
    fresh = stages.STAGES.results_json(
        tiny, replicates=20, cache_dir=tmp_path / "c", use_cache=False, advance=steps.append
    )
    assert sum(steps) == stages.STAGES.results_steps(tiny, 20) == 40
    cached = stages.STAGES.results_json(
        tiny, replicates=20, cache_dir=tmp_path / "c", use_cache=True, advance=None
    )
    assert cached == fresh
    assert list((tmp_path / "c").glob("results-*.json"))
    assert Results.from_json_dict(cached).replicates == 20


def test_a_round_of_another_kind_is_refused(tmp_path: Path) -> None:
    other = CoreRound(
        path=tmp_path,
        manifest=CoreManifest(
            round_id="r",
            kind="estigmas",
            title={"pt-BR": "r", "en": "r"},
            synthetic=True,
            collected_on=date(2026, 11, 20),
            protocol_frozen_on=date(2026, 11, 1),
            generation={},
            bootstrap_replicates=1,
            bootstrap_seed=1,
        ),
        models=(),
        items=(),
        annulments=(),
    )
    with pytest.raises(ReportgenError, match="not a multidomain round"):
        stages.STAGES.summary_json(other)
