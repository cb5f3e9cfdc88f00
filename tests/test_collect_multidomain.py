"""A multidomain round collected through `reportgen import` and frozen by `reportgen
freeze`: the tiny round's answers, imported as JSON lines, freeze into the tiny round's
archive (its jury and audit tables laid beside them); freeze's refusals through the CLI,
each leaving nothing written; the deterministic extractor (Art. 23)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main
from reportgen.kinds.multidomain.extract import extract_choice, extract_number
from tests.support.multidomain_runs import (
    archive_responses,
    multidomain_draft,
    recorded_answers,
)

PARTICIPANTS = ("p1", "p2", "p3")


def _invoke(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def _ok(*args: str) -> str:
    result = _invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(raw round rendered from the tiny round's draft, the tiny archive)."""
    tmp_path = tmp_path_factory.mktemp("md")
    draft, archive = multidomain_draft(tmp_path)
    _ok("render", str(draft), "--out", str(tmp_path / "raw"))
    return tmp_path / "raw", archive


def _imported(
    rendered: tuple[Path, Path], tmp_path: Path, answers: list[dict[str, Any]] | None = None
) -> Path:
    raw = tmp_path / "raw"
    shutil.copytree(rendered[0], raw)
    lines = answers if answers is not None else recorded_answers(rendered[1])
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in lines), "utf-8")
    _ok("import", "jsonl", str(path), "--into", str(raw))
    return raw


def _by_key(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda row: (row["item_id"], row["run"]))


def test_imported_answers_freeze_into_the_tiny_round(
    rendered: tuple[Path, Path], tmp_path: Path
) -> None:
    raw = _imported(rendered, tmp_path)
    written = pq.read_table(raw / "responses" / "p2.parquet").to_pylist()
    assert {row["status"] for row in written} == {"ok"}  # the extractor has not run yet
    archive = rendered[1]
    frozen = tmp_path / "rounds" / archive.name
    frozen.parent.mkdir()
    assert "3 participant(s), 24 responses; extractor 1.0.0" in _ok(
        "freeze", str(raw), "--out", str(frozen)
    )
    _ok("verify", str(frozen))
    for model_id in PARTICIPANTS:
        assert _by_key(archive_responses(frozen, model_id)) == _by_key(
            archive_responses(archive, model_id)
        ), model_id
    assert not (frozen / "to_send.jsonl").exists()
    assert not (frozen / "inspect_task.py").exists()
    # The same scores as the tiny round (format violation and refusal included).
    assert json.loads(_ok("summary", "--json", str(frozen))) == json.loads(
        _ok("summary", "--json", str(archive))
    )


def test_import_keeps_no_text_of_a_failed_call(rendered: tuple[Path, Path], tmp_path: Path) -> None:
    answers = recorded_answers(rendered[1])
    answers[0] = {**answers[0], "status": "timeout", "latency_ms": None}
    raw = _imported(rendered, tmp_path, answers)
    rows = pq.read_table(raw / "responses" / f"{answers[0]['model_id']}.parquet").to_pylist()
    [failed] = [row for row in rows if row["item_id"] == answers[0]["item_id"]]
    assert (failed["status"], failed["raw_text"]) == ("timeout", None)


def test_import_refuses_an_answer_without_its_time_of_call(
    rendered: tuple[Path, Path], tmp_path: Path
) -> None:
    raw = tmp_path / "raw"
    shutil.copytree(rendered[0], raw)
    answers = recorded_answers(rendered[1])
    del answers[3]["called_at"]
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in answers), "utf-8")
    result = _invoke("import", "jsonl", str(path), "--into", str(raw))
    assert result.exit_code != 0
    assert "answer(s) without their time of call" in result.output
    assert f"{path}, line 4: no called_at" in result.output
    assert not (raw / "responses").exists() or not any((raw / "responses").iterdir())


def _refused(raw: Path, out: Path, *expected: str) -> None:
    before = sorted(p.name for p in out.parent.iterdir()) if out.parent.exists() else []
    result = _invoke("freeze", str(raw), "--out", str(out))
    assert result.exit_code != 0, result.output
    for text in expected:
        assert text in result.output
    after = sorted(p.name for p in out.parent.iterdir()) if out.parent.exists() else []
    assert after == before  # nothing written, no staging folder left


def test_freeze_refusals(rendered: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _imported(rendered, tmp_path)
    name = rendered[1].name
    (tmp_path / "rounds").mkdir()
    _refused(raw, tmp_path / "rounds" / "other-name", "round_id 'tiny-2026-11' must equal")
    (tmp_path / "rounds" / name).mkdir()
    _refused(raw, tmp_path / "rounds" / name, "already exists")
    (tmp_path / "rounds" / name).rmdir()
    out = tmp_path / "rounds" / name

    (raw / "responses" / "p3.parquet").rename(tmp_path / "p3.parquet")
    _refused(raw, out, "responses/p3.parquet", "missing file: import the participant's answers")
    (tmp_path / "p3.parquet").rename(raw / "responses" / "p3.parquet")

    (raw / "jury.parquet").rename(tmp_path / "jury.parquet")
    _refused(raw, out, "missing file(s) jury.parquet")
    (tmp_path / "jury.parquet").rename(raw / "jury.parquet")

    manifest = json.loads((raw / "round.json").read_text("utf-8"))
    manifest["multidomain"]["extractor_version"] = "0.9"
    (raw / "round.json").write_text(json.dumps(manifest), "utf-8")
    _refused(raw, out, "extractor_version", "extractor '1.0.0', the round declares '0.9'")


def test_freeze_verifies_in_staging(rendered: tuple[Path, Path], tmp_path: Path) -> None:
    """A call dated outside the round's dates: verify's refusal, and nothing written."""
    answers = recorded_answers(rendered[1])
    answers[0] = {**answers[0], "called_at": "2027-01-05T10:00:00Z"}
    raw = _imported(rendered, tmp_path, answers)
    out = tmp_path / "rounds" / rendered[1].name
    out.parent.mkdir()
    _refused(raw, out, "(frozen as tiny-2026-11)", "lies outside the round's dates")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Resposta: A", "A"),
        ("answer: c", None),  # the letter is a capital
        ("答案：B", "B"),
        ("B) original principal only", "B"),
        ("Alternativa D", "D"),
        ("Resposta: E", None),  # no choice of the item
        ("Todas as alternativas parecem razoáveis.", None),
        ("It depends on the contract.", None),
    ],
)
def test_extract_choice(text: str, expected: str | None) -> None:
    assert extract_choice(text, "ABCD") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("R$ 60,00", "60"),
        ("Resultado: 12.50 (antes: 10)", "12.5"),
        ("1020 records", "1020"),
        ("结果：-0.0", "0"),
        ("between 3 and 4, so 3.75", "3.75"),
        ("It depends.", None),
    ],
)
def test_extract_number(text: str, expected: str | None) -> None:
    assert extract_number(text) == expected
