"""`reportgen import jury`: the tiny multidomain round's jury, scored by mock judges in
inspect_ai with a model-graded scorer, imported into a raw round whose jury and
adjudication tables are empty, freezes into the tiny round's scores; the refusals
through the CLI, each leaving the tables as they were."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main
from tests.support.inspect_runs import INSPECT_WARNINGS
from tests.support.jury_runs import judge_scores, run_judges
from tests.support.multidomain_runs import multidomain_draft, recorded_answers

pytestmark = INSPECT_WARNINGS
TABLES = ("jury.parquet", "adjudications.parquet")


def _invoke(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def _ok(*args: str) -> str:
    result = _invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Path]]:
    """(raw round with the answers and empty jury tables, the tiny archive, the judges'
    logs by judge_id)."""
    pytest.importorskip("inspect_ai")
    tmp_path = tmp_path_factory.mktemp("jury")
    draft, archive = multidomain_draft(tmp_path)
    for name in TABLES:
        table = pq.read_table(draft / name)
        pq.write_table(table.slice(0, 0), draft / name)
    raw = tmp_path / "raw"
    _ok("render", str(draft), "--out", str(raw))
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(json.dumps(a, ensure_ascii=False) + "\n" for a in recorded_answers(archive)),
        "utf-8",
    )
    _ok("import", "jsonl", str(answers), "--into", str(raw))
    logs = run_judges(raw, judge_scores(archive), tmp_path / "logs")
    return raw, archive, logs


def _copy(judged: tuple[Path, Path, dict[str, Path]], tmp_path: Path) -> Path:
    raw = tmp_path / "raw"
    shutil.copytree(judged[0], raw)
    return raw


def _rows(path: Path) -> list[dict[str, Any]]:
    rows = pq.read_table(path).to_pylist()
    return sorted(rows, key=lambda r: (r["judge_id"], r["item_id"], r["model_id"], r["run"],
                                       r["criterion_id"]))  # fmt: skip


def test_the_jury_from_scorer_logs_freezes_into_the_tiny_round(
    judged: tuple[Path, Path, dict[str, Path]], tmp_path: Path
) -> None:
    raw = _copy(judged, tmp_path)
    archive, logs = judged[1], judged[2]
    note = _ok("import", "jury", *(str(logs[j]) for j in sorted(logs)), "--into", str(raw))
    expected = _rows(archive / "jury.parquet")
    adjudicated = len(_rows(archive / "adjudications.parquet"))
    assert f"{len(expected)} jury and {adjudicated} adjudication score(s)" in note
    imported = _rows(raw / "jury.parquet")
    # Scores and positions as the tiny round's; judged_at is when the mock judge ran.
    assert [{**r, "judged_at": None} for r in imported] == [
        {**r, "judged_at": None} for r in expected
    ]
    frozen = tmp_path / "rounds" / archive.name
    frozen.parent.mkdir()
    _ok("freeze", str(raw), "--out", str(frozen))
    assert json.loads(_ok("summary", "--json", str(frozen))) == json.loads(
        _ok("summary", "--json", str(archive))
    )


def _refused(raw: Path, args: list[str], *expected: str) -> None:
    before = {name: (raw / name).read_bytes() for name in TABLES}
    result = _invoke("import", "jury", *args, "--into", str(raw))
    assert result.exit_code != 0, result.output
    for text in expected:
        assert text in result.output
    assert {name: (raw / name).read_bytes() for name in TABLES} == before


def _edited(log: Path, tmp_path: Path, edit: Any) -> Path:
    from inspect_ai.log import read_eval_log, write_eval_log

    eval_log = read_eval_log(str(log))
    edit(eval_log)
    path = tmp_path / f"edited-{log.name}"
    write_eval_log(eval_log, str(path))
    return path


def test_import_jury_refusals(judged: tuple[Path, Path, dict[str, Path]], tmp_path: Path) -> None:
    raw = _copy(judged, tmp_path)
    logs = judged[2]
    j1 = str(logs["j1"])
    _refused(raw, [j1, "--judge-id", "j9"], "judge 'j9' is no row of judges.csv")
    _refused(raw, [j1, "--judge-id", "h1"], "judge 'h1' is a reviewer")

    def rename(log: Any) -> None:
        log.eval.model = "mockllm/nobody"

    renamed = str(_edited(logs["j1"], tmp_path, rename))
    _refused(raw, [renamed], "model 'mockllm/nobody' is no judge of judges.csv")

    def drop_criterion(log: Any) -> None:
        value = dict(log.samples[0].scores["rubric_scores"].value)
        value.popitem()
        log.samples[0].scores["rubric_scores"].value = value

    def out_of_scale(log: Any) -> None:
        value = dict(log.samples[0].scores["rubric_scores"].value)
        value[next(iter(value))] = 9
        log.samples[0].scores["rubric_scores"].value = value

    def no_keys(log: Any) -> None:
        log.samples[0].metadata = {}

    for edit, text in (
        (drop_criterion, "missing: "),
        (out_of_scale, "expected an integer from 0 to 5 (jury.scale), got 9"),
        (no_keys, "no item_id, model_id and run in its metadata"),
    ):
        _refused(raw, [str(_edited(logs["j1"], tmp_path, edit)), "--judge-id", "j1"], text)
    _ok("import", "jury", j1, "--into", str(raw))
    _refused(raw, [j1], "judge 'j1' already has scores in jury.parquet")


def test_an_estigmas_round_has_no_jury(tmp_path: Path) -> None:
    from tests.support.inspect_runs import estigmas_draft

    draft, _ = estigmas_draft(tmp_path)
    log = tmp_path / "x.eval"
    log.write_bytes(b"")
    result = _invoke("import", "jury", str(log), "--into", str(draft))
    assert result.exit_code != 0
    assert "the estigmas kind has no jury" in result.output
