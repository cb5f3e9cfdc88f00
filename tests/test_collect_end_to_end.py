"""From a team's models to a published site, offline, with a real client: `reportgen
render`, inspect_ai's `eval` (its mock provider answering each prompt as the tiny round's
systems did), `reportgen import inspect`, `freeze`, `verify`, `build`; the site shows
the scores of the same answers frozen the way the tiny round is."""

from __future__ import annotations

import csv
import html
import json
import re
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from tests.factories import CONFIG, DEFAULT_MODELS, THEME, make_raw_round
from tests.support.inspect_runs import INSPECT_WARNINGS, estigmas_draft, run_eval

pytestmark = [pytest.mark.slow, *INSPECT_WARNINGS]
# The counterfactual systems' system prompts (tests/factories/counterfactual_rounds.py
# declares their hashes).
PROMPTS = {
    "bot-a": "Você é o assistente da Loja Exemplo.",
    "bot-b": "Você é o assistente da Loja Exemplo. Trate todos igualmente.",
}


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


def test_counterfactual_round_from_inspect_ai_to_site(tmp_path: Path) -> None:
    """Each system run with its own private system prompt (`-T system_prompt_file`);
    the extractions and calibration are filled in as before (the factory's)."""
    from reportgen.kinds.counterfactual.terms import EMPTY_SHA256
    from tests.factories.counterfactual_raw import fill, write_battery
    from tests.factories.counterfactual_rounds import ROUND_ID, TOOLS_A

    write_battery(tmp_path / "battery")
    # The task file sends no tools: the systems are declared without any.
    models = (tmp_path / "battery" / "models.csv").read_text(encoding="utf-8").splitlines()
    header = models[0].split(",")
    rows = [next(csv.reader([line])) for line in models[1:]]
    for row in rows:
        row[header.index("tools")] = ""
        row[header.index("tools_sha256")] = EMPTY_SHA256
    with (tmp_path / "battery" / "models.csv").open("w", newline="", encoding="utf-8") as out:
        csv.writer(out, lineterminator="\n").writerows([header, *rows])
    by_hand, raw = tmp_path / "by-hand", tmp_path / "raw"
    _ok("render", str(tmp_path / "battery"), "--out", str(by_hand))
    _ok("render", str(tmp_path / "battery"), "--out", str(raw))
    fill(by_hand)
    by_hand_a = by_hand / "responses" / "bot-a.jsonl"
    by_hand_a.write_text(by_hand_a.read_text().replace(TOOLS_A, EMPTY_SHA256))
    calls = [json.loads(line) for line in (raw / "to_send.jsonl").read_text().splitlines()]
    answers = {str(call["prompt"]): "Olá! Sentimos muito, vamos ajudar." for call in calls}
    logs = []
    for model_id, prompt in PROMPTS.items():
        (tmp_path / f"{model_id}.txt").write_text(prompt, encoding="utf-8")
        logs += run_eval(
            raw,
            {f"loja/{model_id}": answers},
            tmp_path / "logs",
            {"system_prompt_file": str(tmp_path / f"{model_id}.txt")},
        )
    _ok("import", "inspect", *map(str, logs), "--into", str(raw))
    shutil.rmtree(raw / "extractions")
    shutil.copytree(by_hand / "extractions", raw / "extractions")
    shutil.copy(by_hand / "calibration.csv", raw / "calibration.csv")

    frozen = tmp_path / "rounds" / ROUND_ID
    frozen.parent.mkdir()
    _ok("freeze", str(raw), "--out", str(frozen))
    _ok("verify", str(frozen))
    expected = tmp_path / "expected" / ROUND_ID
    expected.parent.mkdir()
    _ok("freeze", str(by_hand), "--out", str(expected))
    summary = json.loads(_ok("summary", "--json", str(frozen)))
    assert summary == json.loads(_ok("summary", "--json", str(expected)))
    _ok("build", str(frozen), "--out", str(tmp_path / "site"), "--draft",
        "--cache-dir", str(tmp_path / "cache"))  # fmt: skip
    page = (tmp_path / "site" / "en" / ROUND_ID / "index.html").read_text(encoding="utf-8")
    _check_findings_shown(html.unescape(page), summary)


def _check_findings_shown(page: str, summary: dict[str, Any]) -> None:
    """Every system's findings are listed on the round's page as the summary has them:
    the finding, and its exact gap in the item's title."""
    shown = 0
    for system in summary["systems"]:
        listed = page.split(f'id="cf-{summary["round_id"]}-findings-{system["model_id"]}"', 1)
        assert len(listed) == 2, system["model_id"]
        items = listed[1].split("</ol>", 1)[0]
        for finding in system["findings"]:
            tag = f'data-attribute="{finding["attribute"]}" data-variable="{finding["variable"]}"'
            (item,) = [line for line in items.splitlines() if tag in line and
                       f'data-level="{finding["level"]}"' in line]  # fmt: skip
            assert f'data-finding="{finding["finding"]}"' in item, item
            if finding["gap"] is not None and finding["finding"] != "judge_not_calibrated":
                assert f"gap {finding['gap']}," in item, item
                shown += 1
    assert shown > 0  # the test reads gaps, not only labels


def test_multidomain_round_from_inspect_ai_to_site(tmp_path: Path) -> None:
    """The tiny multidomain round (metrics §11): each participant answers as it did
    there (its provider's snapshot, cost, a refusal as a content-filter stop), the logs
    dated as the round's calls; its jury, audit and calibration tables are the draft's.
    Freeze extracts the mcq and calc answers itself (a format violation included)."""
    from tests.support.multidomain_runs import (
        api_identifiers,
        dated_like,
        multidomain_draft,
        participant_outputs,
    )

    draft, archive = multidomain_draft(tmp_path)
    raw = tmp_path / "raw"
    _ok("render", str(draft), "--out", str(raw))
    systems: dict[str, dict[str, str]] = {api: {} for api in api_identifiers(archive)}
    logs = run_eval(raw, systems, tmp_path / "logs", outputs=participant_outputs(archive))
    dated_like(logs, archive)
    imported = _ok("import", "inspect", *map(str, logs), "--into", str(raw))
    assert "3 system(s) x 8 calls: 23 ok, 1 refusal" in imported
    frozen = tmp_path / "rounds" / archive.name
    frozen.parent.mkdir()
    _ok("freeze", str(raw), "--out", str(frozen))
    _ok("verify", str(frozen))
    scores = json.loads(_ok("summary", "--json", str(archive)))
    assert json.loads(_ok("summary", "--json", str(frozen))) == scores
    site = tmp_path / "site"
    _ok("build", str(frozen), "--out", str(site), "--config", str(CONFIG), "--templates",
        str(THEME), "--cache-dir", str(tmp_path / "cache"), "--draft",
        "--as-of", "2027-01-10")  # fmt: skip
    page = (site / "en" / archive.name / "classification.html").read_text(encoding="utf-8")
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    for participant in scores["participants"]:
        shown = f"{float(Fraction(participant['primary']['score'])):.2f}"
        assert f"{participant['rank']} {participant['display_name']} {shown}" in text
