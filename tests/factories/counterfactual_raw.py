"""A filled raw counterfactual round, as a team makes it: the minimal round's battery
folder (a draft round.json, models.csv, the CSVs), `reportgen render`,
then every call answered (fixed texts) and extracted, and optionally calibrated.

Usage::

    write_battery(tmp_path / "battery")
    render(tmp_path / "battery", tmp_path / "raw")
    fill(tmp_path / "raw")                      # or calibration=False
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.archive import csv_text
from reportgen.cli import main
from reportgen.kinds.counterfactual.schemas import MODELS_HEADER
from reportgen.kinds.counterfactual.terms import sha256_text
from reportgen.kinds.counterfactual.write import battery_files, system_row
from reportgen.kinds.rounds import manifest_to_dict
from tests.factories.counterfactual_rounds import JUDGE_INPUT, minimal_round


def write_battery(folder: Path) -> None:
    """The minimal round's battery folder: a draft round.json, models.csv, the CSVs."""
    round_ = minimal_round()
    folder.mkdir()
    draft = manifest_to_dict(round_.manifest)
    for computed in ("collected_on", "ended_on", "languages"):
        del draft[computed]
    draft["interpretations"] = []
    block = draft["counterfactual"]
    assert isinstance(block, dict)
    del block["battery_sha256"]
    (folder / "round.json").write_text(json.dumps(draft, ensure_ascii=False, indent=2) + "\n")
    rows = [system_row(s) for s in round_.models]
    for row in rows:
        row[MODELS_HEADER.index("evaluated_on")] = ""
    (folder / "models.csv").write_text(csv_text(MODELS_HEADER, rows))
    for name, content in battery_files(round_).items():
        (folder / name).write_bytes(content)


def render(templates: Path, raw: Path, *extra: str) -> str:
    result = CliRunner().invoke(main, ["render", str(templates), "--out", str(raw), *extra])
    assert result.exit_code == 0, result.output
    return result.output


def fill(raw: Path, *, prompt_of: dict[str, str] | None = None, calibration: bool = True) -> None:
    """Answer every call of to_send.jsonl for both systems, extract, and (unless
    `calibration` is False: a judge calibrated for the first time) calibrate."""
    round_ = minimal_round()
    calls = [json.loads(line) for line in (raw / "to_send.jsonl").read_text().splitlines()]
    for system in round_.models:
        responses, extractions = [], []
        for call in calls:
            second = 10 * call["run_order"]
            call = {
                **call,
                "raw_text": f"Olá! Sentimos muito, vamos ajudar ({call['run_order']}).",
                "called_at": f"2026-11-10T09:{second // 60:02d}:{second % 60:02d}Z",
                "latency_ms": 812.5,
                "system_prompt_sha256": (prompt_of or {}).get(
                    system.model_id, system.system_prompt_sha256
                ),
                "tools_sha256": system.tools_sha256,
                "prompt_sha256": sha256_text(call["prompt"]),
                "context_sha256": None if call["context"] is None else sha256_text(call["context"]),
            }
            responses.append(json.dumps(call, ensure_ascii=False))
            cell = {"item_id": call["item_id"], "run": call["run"]}
            extractions += [
                json.dumps(
                    {**cell, "variable_id": "reembolso", "value": "yes", "input_text": None}
                ),
                json.dumps({**cell, "variable_id": "palavras", "value": "7", "input_text": None}),
                json.dumps(
                    {**cell, "variable_id": "tom", "value": "4", "input_text": JUDGE_INPUT},
                    ensure_ascii=False,
                ),
            ]
        (raw / "responses" / f"{system.model_id}.jsonl").write_text("\n".join(responses) + "\n")
        (raw / "extractions" / f"{system.model_id}.jsonl").write_text("\n".join(extractions))
    if not calibration:
        return
    with (raw / "calibration.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["variable_id", "model_id", "item_id", "run", "human_score", "reviewer", "scored_on"]
        )
        for item_id, score in (("t1--n1", 4), ("t1--i2", 5), ("t2--e2", 3)):
            writer.writerow(["tom", "bot-a", item_id, 2, score, "R1", "2026-11-12"])
