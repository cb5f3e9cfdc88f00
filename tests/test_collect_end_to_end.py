"""From a team's models to a published site, offline, with a real client: `reportgen
render`, inspect_ai's `eval` (its mock provider answering each prompt as the tiny round's
systems did), `reportgen import inspect`, `freeze`, `verify`, `build`; the site shows
the scores of the same answers frozen the way the tiny round is."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from tests.factories import CONFIG, DEFAULT_MODELS, THEME, make_raw_round
from tests.support.inspect_runs import INSPECT_WARNINGS, estigmas_draft, run_eval

pytestmark = [pytest.mark.slow, *INSPECT_WARNINGS]


def _ok(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_estigmas_round_from_inspect_ai_to_site(tmp_path: Path) -> None:
    draft, answers = estigmas_draft(tmp_path)
    raw = tmp_path / "raw"
    _ok("render", str(draft), "--out", str(raw))
    api = {model.model_id: model.api_identifier for model in DEFAULT_MODELS}
    logs = run_eval(raw, {api[m]: answers[m] for m in answers}, tmp_path / "logs")

    imported = _ok("import", "inspect", *map(str, logs), "--into", str(raw))
    assert f"{len(DEFAULT_MODELS)} system(s)" in imported
    (tmp_path / "rounds").mkdir()
    frozen = tmp_path / "rounds" / "tiny-round"
    _ok("freeze", str(raw), "--out", str(frozen))
    _ok("verify", str(frozen))
    for model in DEFAULT_MODELS:
        table = pq.read_table(frozen / "responses" / f"{model.model_id}.parquet")
        assert table.column("raw_text").to_pylist() == list(answers[model.model_id].values())
        assert None not in table.column("latency_ms").to_pylist()

    # The same answers frozen from the tiny round's own raw files: the expected scores.
    (tmp_path / "expected").mkdir()
    expected = tmp_path / "expected" / "tiny-round"
    _ok("freeze", str(make_raw_round(tmp_path, name="direct")), "--out", str(expected))
    scores = json.loads(_ok("summary", "--json", str(expected)))
    assert json.loads(_ok("summary", "--json", str(frozen))) == scores

    site = tmp_path / "site"
    _ok("build", str(frozen), "--out", str(site), "--config", str(CONFIG),
        "--templates", str(THEME), "--cache-dir", str(tmp_path / "cache"), "--draft")  # fmt: skip
    ranking = (site / "en" / "ranking.html").read_text(encoding="utf-8")
    for model in scores["models"]:
        if model["eligible"]:
            assert f'data-sort="{model["index"]!r}"' in ranking, model["model_id"]
