"""The kind registry's archive side, both format versions, and the bad manifests and
tables that issue 8 names: each gives one clear problem, exit 1, nothing written."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from datetime import date
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.errors import ReportgenError
from reportgen.kinds import Kind, UnknownKindError, get_kind, registered_kinds, unregister_kind
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.freeze import add_model
from reportgen.kinds.estigmas.model import Model
from reportgen.kinds.estigmas.results import compute_results
from reportgen.kinds.rounds import append_annulment, verify_round
from tests.archive_mutations import add_file, edit_manifest, resign, set_cell, snapshot
from tests.factories import convert_to_version_1, make_round

REASON = {"pt-BR": "Enunciado ambíguo.", "en": "Ambiguous wording."}


def _verify_fails_with_one_problem(round_dir: Path, file: str, where: str, phrase: str) -> None:
    before = snapshot(round_dir.parent)
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert snapshot(round_dir.parent) == before
    problems = verify_round(round_dir)
    assert len(problems) == 1, problems
    assert (problems[0].file, problems[0].where) == (file, where)
    assert phrase in problems[0].message
    assert (f"{file}: {where}: " if where else f"{file}: ") in result.output


def test_the_registry_finds_the_built_in_kind_and_refuses_others() -> None:
    assert get_kind("estigmas").name == "estigmas"
    assert "estigmas" in [kind.name for kind in registered_kinds()]
    with pytest.raises(UnknownKindError, match="unknown kind 'nope'") as raised:
        get_kind("nope")
    assert isinstance(raised.value, ReportgenError)


def test_a_registered_kind_is_found_then_removed(plugin_kind: Kind) -> None:
    assert get_kind(plugin_kind.name) is plugin_kind
    unregister_kind(plugin_kind.name)
    with pytest.raises(UnknownKindError):
        get_kind(plugin_kind.name)


def test_an_unknown_kind_is_one_problem(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    edit_manifest(lambda data: data.__setitem__("kind", "parcial"))(round_dir)
    _verify_fails_with_one_problem(round_dir, "round.json", "kind", "unknown kind 'parcial'")


def test_an_unknown_format_is_one_problem(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    edit_manifest(lambda data: data.__setitem__("format", "round-archive/9"))(round_dir)
    _verify_fails_with_one_problem(
        round_dir, "round.json", "format", "unknown format 'round-archive/9'"
    )


def test_a_missing_kind_block_is_one_problem(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    edit_manifest(lambda data: data.pop("estigmas"))(round_dir)
    _verify_fails_with_one_problem(round_dir, "round.json", "estigmas", "missing kind block")


def test_a_duplicated_json_key_is_one_problem(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    path = round_dir / "round.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('  "estigmas": {', '  "estigmas": {},\n  "estigmas": {', 1))
    resign(round_dir)
    _verify_fails_with_one_problem(round_dir, "round.json", "estigmas", "duplicate key")


def test_two_kind_blocks_are_one_problem(tmp_path: Path, plugin_kind: Kind) -> None:
    round_dir = make_round(tmp_path)
    name = plugin_kind.name
    edit_manifest(lambda data: data.__setitem__(name, {}))(round_dir)
    _verify_fails_with_one_problem(round_dir, "round.json", name, "a second kind block")


def test_the_block_of_another_kind_is_one_problem(tmp_path: Path, plugin_kind: Kind) -> None:
    round_dir = make_round(tmp_path)
    name = plugin_kind.name
    edit_manifest(lambda data: data.__setitem__(name, data.pop("estigmas")))(round_dir)
    _verify_fails_with_one_problem(
        round_dir, "round.json", "kind", f"kind is 'estigmas' but the kind block is '{name}'"
    )


def test_a_table_of_another_kind_is_one_problem(tmp_path: Path, plugin_kind: Kind) -> None:
    round_dir = make_round(tmp_path)
    table = plugin_kind.tables[0].name
    add_file(table, b"item_id,score\ni-001,3\n", sign=True)(round_dir)
    _verify_fails_with_one_problem(
        round_dir,
        table,
        "",
        f"a table of kind '{plugin_kind.name}': not part of a 'estigmas' round",
    )


@pytest.mark.parametrize(("text", "value"), [("TRUE", True), ("True", True), ("FALSE", False)])
def test_csv_booleans_are_read_in_any_case(tmp_path: Path, text: str, value: bool) -> None:
    round_dir = make_round(tmp_path)
    set_cell("structures.csv", 3, "brazilian", text)(round_dir)
    assert verify_round(round_dir) == []
    assert read_round(round_dir, with_text=False).structures[2].brazilian is value


def test_both_versions_give_equal_results(tmp_path: Path) -> None:
    (tmp_path / "v1").mkdir()
    (tmp_path / "v2").mkdir()
    version_2 = make_round(tmp_path / "v2", variant="continuous", annul=("i-005", "i-020"))
    version_1 = convert_to_version_1(
        make_round(tmp_path / "v1", variant="continuous", annul=("i-005", "i-020"))
    )
    assert json.loads((version_1 / "round.json").read_bytes())["format"] == "estigmas-round/1"
    for round_dir in (version_1, version_2):
        result = CliRunner().invoke(main, ["verify", str(round_dir)])
        assert result.exit_code == 0, result.output
    first, second = read_round(version_1), read_round(version_2)
    assert first.manifest.format != second.manifest.format
    assert [(a.source, a.ref) for a in first.annulments] == [
        ("contestation", "contest-1"),
        ("contestation", "contest-2"),
    ]
    # The same decisions; the chain hashes differ with the lines' bytes.
    assert [replace(a, prev_sha256="") for a in first.annulments] == [
        replace(a, prev_sha256="") for a in second.annulments
    ]
    assert (first.items, first.stigmas, first.structures) == (
        second.items,
        second.stigmas,
        second.structures,
    )
    assert compute_results(first, replicates=50) == compute_results(second, replicates=50)


def test_a_new_ledger_line_in_a_version_1_archive_has_the_version_2_form(tmp_path: Path) -> None:
    round_dir = convert_to_version_1(make_round(tmp_path, annul=("i-005",)))
    added = append_annulment(
        round_dir,
        item_id="i-009",
        decided_on=date(2026, 7, 9),
        source="audit",
        ref="A-1",
        reason=REASON,
    )
    lines = (round_dir / "annulments.jsonl").read_text(encoding="utf-8").splitlines()
    assert "contest_id" in json.loads(lines[0])
    assert json.loads(lines[1])["source"] == "audit"
    assert verify_round(round_dir) == []
    assert read_round(round_dir).annulments[1] == added


def test_add_model_keeps_a_version_1_archive_in_version_1(tmp_path: Path) -> None:
    round_dir = convert_to_version_1(make_round(tmp_path, variant="continuous"))
    items = read_round(round_dir).items
    responses = tmp_path / "new.parquet"
    pq.write_table(
        pa.table(
            {
                "item_id": [item.item_id for item in items],
                "model_id": ["gama-3"] * len(items),
                "raw_text": ["Sim."] * len(items),
            }
        ),
        responses,
    )
    model = Model("gama-3", "Gama 3", "Provedora C", "gama-3", "", date(2026, 7, 1))
    add_model(round_dir, responses, model)
    assert verify_round(round_dir) == []
    written = pq.read_table(round_dir / "responses" / "gama-3.parquet")
    assert "run" not in written.column_names
    assert read_round(round_dir).responses["gama-3"].label(0) == "yes"


def test_a_raw_round_may_be_either_version(tmp_path: Path) -> None:
    """freeze reads a version-1 raw round and writes a version-2 archive."""
    (tmp_path / "staging").mkdir()
    staging = convert_to_version_1(make_round(tmp_path / "staging"))
    raw_dir = tmp_path / "raw"
    shutil.copytree(staging, raw_dir)
    (raw_dir / "SHA256SUMS").unlink()
    for path in sorted((raw_dir / "responses").glob("*.parquet")):
        pq.write_table(pq.read_table(path).drop_columns(["label"]), path)
    result = CliRunner().invoke(
        main, ["freeze", str(raw_dir), "--out", str(tmp_path / "tiny-round")]
    )
    assert result.exit_code == 0, result.output
    frozen = read_round(tmp_path / "tiny-round")
    assert frozen.manifest.format == "round-archive/2"
    assert frozen.items == read_round(staging).items
