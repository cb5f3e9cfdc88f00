"""`reportgen freeze` and `reportgen add-model`."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.freeze import add_model
from reportgen.kinds.estigmas.model import Item, Label, Model
from reportgen.kinds.estigmas.parse import PARSER_VERSION, parse_output
from reportgen.kinds.rounds import verify_round
from tests.archive_mutations import snapshot
from tests.factories import (
    ANSWER_TEXT,
    DEFAULT_MODELS,
    cycling_labels,
    make_raw_round,
    make_round,
    tiny_items,
    tiny_parts,
    with_manifest,
    write_parts,
)

NEW_MODEL = Model(
    "gama-3", "Gama 3", "Provedora C", "gama-3-0701", "", DEFAULT_MODELS[0].evaluated_on
)


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_freeze_labels_every_output_with_the_parser(tmp_path: Path) -> None:
    raw_dir = make_raw_round(tmp_path)
    out_dir = tmp_path / "frozen" / "tiny-round"
    out_dir.parent.mkdir()

    code, output = _invoke("freeze", str(raw_dir), "--out", str(out_dir))

    assert code == 0, output
    archive = read_round(out_dir)
    assert archive.manifest.parser_version == PARSER_VERSION
    for model_id, responses in archive.responses.items():
        for index, item in enumerate(archive.items):
            text = responses.raw_text[index]
            assert responses.label(index) == parse_output(text, item.language), model_id


def test_freeze_writes_the_same_bytes_as_the_writer(tmp_path: Path) -> None:
    """Freezing equals writing the parser's labels directly: nothing else is invented."""
    raw_dir = make_raw_round(tmp_path)
    out_dir = tmp_path / "frozen" / "tiny-round"
    out_dir.parent.mkdir()
    code, output = _invoke("freeze", str(raw_dir), "--out", str(out_dir))
    assert code == 0, output

    items = {item.item_id: item for item in tiny_items("tiny-round")}
    cycled = cycling_labels(DEFAULT_MODELS, tuple(items.values()))

    def parser_labels(model: Model, item: Item) -> Label:
        return parse_output(ANSWER_TEXT[item.language][cycled(model, item)], item.language)

    expected = with_manifest(tiny_parts(labels=parser_labels), parser_version=PARSER_VERSION)
    (tmp_path / "expected").mkdir()
    expected_dir = write_parts(tmp_path / "expected" / "tiny-round", expected)
    assert snapshot(out_dir) == snapshot(expected_dir)


def test_freeze_refuses_an_existing_output(tmp_path: Path) -> None:
    raw_dir = make_raw_round(tmp_path)
    out_dir = make_round(tmp_path)
    before = snapshot(tmp_path)
    code, output = _invoke("freeze", str(raw_dir), "--out", str(out_dir))
    assert code == 1
    assert "already exists" in output
    assert snapshot(tmp_path) == before


def test_freeze_wants_the_output_named_after_the_round(tmp_path: Path) -> None:
    raw_dir = make_raw_round(tmp_path)
    code, output = _invoke("freeze", str(raw_dir), "--out", str(tmp_path / "another-name"))
    assert code == 1
    assert "round_id 'tiny-round'" in output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw-round"]


def test_freeze_rejects_labels_in_a_raw_round(tmp_path: Path) -> None:
    raw_dir = tmp_path / "raw"
    shutil.copytree(make_round(tmp_path), raw_dir)
    (raw_dir / "SHA256SUMS").unlink()
    code, output = _invoke("freeze", str(raw_dir), "--out", str(tmp_path / "out" / "tiny-round"))
    assert code == 1
    assert "responses/alfa-1.parquet: column label: unexpected column" in output
    assert not (tmp_path / "out").exists()


def test_freeze_keeps_the_ledger(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    archive_dir = make_round(staging, annul=("i-002", "i-011"))
    raw_dir = make_raw_round(tmp_path)
    shutil.copy(archive_dir / "annulments.jsonl", raw_dir / "annulments.jsonl")
    (tmp_path / "out").mkdir()
    code, output = _invoke("freeze", str(raw_dir), "--out", str(tmp_path / "out" / "tiny-round"))
    assert code == 0, output
    frozen = read_round(tmp_path / "out" / "tiny-round")
    assert [a.item_id for a in frozen.annulments] == ["i-002", "i-011"]


# add-model


def _continuous_round(tmp_path: Path) -> Path:
    return make_round(tmp_path, variant="continuous", annul=("i-003",))


def _new_responses(path: Path, items: tuple[Item, ...], **changes: object) -> Path:
    texts = {"pt-BR": ["Sim.", "Não.", "Não sei.", ""], "en": ["Yes.", "No.", "Cannot tell.", ""]}
    columns: dict[str, list[object]] = {
        "item_id": [item.item_id for item in items],
        "model_id": [NEW_MODEL.model_id] * len(items),
        "raw_text": [texts[item.language][n % 4] for n, item in enumerate(items)],
        "latency_ms": [float(n) for n in range(len(items))],
    }
    columns.update(changes)  # type: ignore[arg-type]
    pq.write_table(pa.table(columns), path)
    return path


def _add_model_args(round_dir: Path, responses: Path, model: Model = NEW_MODEL) -> list[str]:
    return [
        "add-model",
        str(round_dir),
        str(responses),
        "--model-id",
        model.model_id,
        "--display-name",
        model.display_name,
        "--provider",
        model.provider,
        "--api-identifier",
        model.api_identifier,
        "--evaluated-on",
        model.evaluated_on.isoformat(),
    ]


def test_add_model_adds_one_file_one_line_and_checksums(tmp_path: Path) -> None:
    round_dir = _continuous_round(tmp_path)
    items = read_round(round_dir).items
    responses = _new_responses(tmp_path / "new.parquet", items)
    before = snapshot(round_dir)

    code, output = _invoke(*_add_model_args(round_dir, responses))

    assert code == 0, output
    after = snapshot(round_dir)
    assert set(after) - set(before) == {"responses/gama-3.parquet"}
    changed = {rel for rel in before if before[rel] != after[rel]}
    assert changed == {"models.csv", "SHA256SUMS"}
    assert after["models.csv"].startswith(before["models.csv"])
    assert after["models.csv"][len(before["models.csv"]) :].count(b"\n") == 1
    listed = [line.split("  ")[1] for line in after["SHA256SUMS"].decode().splitlines()]
    assert listed == sorted(listed)
    assert "responses/gama-3.parquet" in listed
    assert verify_round(round_dir) == []
    archive = read_round(round_dir)
    assert archive.models[-1] == NEW_MODEL
    added = archive.responses["gama-3"]
    for index, item in enumerate(archive.items):
        assert added.label(index) == parse_output(added.raw_text[index], item.language)


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        ({"model_id": ["alfa-1"] * 43}, "model_id is 'alfa-1'"),
        ({"label": ["yes"] * 43}, "column label: unexpected column"),
    ],
    ids=["rows name another model", "has labels"],
)
def test_add_model_refuses_bad_responses(
    tmp_path: Path, change: dict[str, list[str]], phrase: str
) -> None:
    round_dir = _continuous_round(tmp_path)
    responses = _new_responses(tmp_path / "new.parquet", read_round(round_dir).items, **change)
    before = snapshot(round_dir)
    code, output = _invoke(*_add_model_args(round_dir, responses))
    assert code == 1
    assert str(responses) in output
    assert phrase in output
    assert snapshot(round_dir) == before


def test_add_model_refuses_missing_items(tmp_path: Path) -> None:
    round_dir = _continuous_round(tmp_path)
    responses = _new_responses(tmp_path / "new.parquet", read_round(round_dir).items[:-1])
    before = snapshot(round_dir)
    code, output = _invoke(*_add_model_args(round_dir, responses))
    assert code == 1
    assert "item 'i-043': no response for this item" in output
    assert snapshot(round_dir) == before


def test_add_model_refuses_a_full_round(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    responses = _new_responses(tmp_path / "new.parquet", read_round(round_dir).items)
    before = snapshot(round_dir)
    code, output = _invoke(*_add_model_args(round_dir, responses))
    assert code == 1
    assert "only to a continuous round" in output
    assert snapshot(round_dir) == before


def test_add_model_refuses_a_duplicate_or_bad_id(tmp_path: Path) -> None:
    round_dir = _continuous_round(tmp_path)
    responses = _new_responses(tmp_path / "new.parquet", read_round(round_dir).items)
    before = snapshot(round_dir)
    code, output = _invoke(
        *_add_model_args(round_dir, responses, replace(NEW_MODEL, model_id="beta-2"))
    )
    assert code == 1
    assert "'beta-2' is already there" in output
    code, output = _invoke(
        *_add_model_args(round_dir, responses, replace(NEW_MODEL, model_id="Gama 3"))
    )
    assert code == 2  # wrong by itself: a usage error (the duplicate above is a data error)
    assert "Invalid value for '--model-id': 'Gama 3' is not a slug" in output
    assert snapshot(round_dir) == before


def test_add_model_refuses_a_broken_archive(tmp_path: Path) -> None:
    round_dir = _continuous_round(tmp_path)
    responses = _new_responses(tmp_path / "new.parquet", read_round(round_dir).items)
    (round_dir / "stigmas.csv").write_bytes((round_dir / "stigmas.csv").read_bytes() + b"\n")
    before = snapshot(round_dir)
    code, output = _invoke(*_add_model_args(round_dir, responses))
    assert code == 1
    assert "stigmas.csv" in output
    assert snapshot(round_dir) == before


def test_add_model_undoes_a_failed_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    round_dir = _continuous_round(tmp_path)
    responses = _new_responses(tmp_path / "new.parquet", read_round(round_dir).items)
    before = snapshot(round_dir)
    real_replace = os.replace
    calls: list[object] = []

    def failing_replace(source: object, target: object) -> None:
        calls.append(target)
        if len(calls) == 3:  # after the response file and models.csv are in place
            raise OSError(28, "No space left on device")
        real_replace(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space"):
        add_model(round_dir, responses, NEW_MODEL)
    monkeypatch.undo()
    assert snapshot(round_dir) == before
    assert verify_round(round_dir) == []
