"""A corpus of broken archives: each one mutation of a valid archive.

Every case must make `reportgen verify` exit 1 with a message naming the file and
saying what is wrong, without a traceback and without touching the archive.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.errors import ArchiveError
from reportgen.kinds.estigmas.freeze import freeze_round
from reportgen.kinds.rounds import read_round, verify_round
from tests.archive_mutations import (
    add_file,
    edit_bytes,
    edit_csv,
    edit_ledger,
    edit_manifest,
    edit_table,
    remove,
    set_cell,
    set_value,
    snapshot,
)
from tests.factories import convert_to_version_1, make_raw_round, make_round

ANNULLED = ("i-005", "i-020")


@dataclass(frozen=True)
class Case:
    name: str
    mutate: Callable[[Path], None]
    file: str  # the file the report must name
    phrase: str  # a phrase of the expected message


def _pop(key: str) -> Callable[[dict[str, object]], object]:
    return lambda data: data.pop(key)


def _put(key: str, value: object) -> Callable[[dict[str, object]], object]:
    return lambda data: data.__setitem__(key, value)


def _put_in(block: str, key: str, value: object) -> Callable[[dict[str, object]], object]:
    return lambda data: cast(dict[str, object], data[block]).__setitem__(key, value)


def _drop_column(column: str) -> Callable[[pa.Table], pa.Table]:
    return lambda table: table.drop_columns([column])


def _drop_row(index: int) -> Callable[[pa.Table], pa.Table]:
    return lambda table: pa.concat_tables([table.slice(0, index), table.slice(index + 1)])


def _repeat_row(index: int) -> Callable[[pa.Table], pa.Table]:
    return lambda table: pa.concat_tables([table, table.slice(index, 1)])


def _string_column(column: str) -> Callable[[pa.Table], pa.Table]:
    def change(table: pa.Table) -> pa.Table:
        index = table.schema.get_field_index(column)
        values = pc.cast(table.column(column), pa.string())
        return table.set_column(index, column, values)

    return change


def _chain_line(item_id: str) -> Callable[[bytes], bytes]:
    def change(data: bytes) -> bytes:
        record = {
            "item_id": item_id,
            "decided_on": "2026-07-09",
            "source": "contestation",
            "ref": "contest-9",
            "reason": {"pt-BR": "Motivo.", "en": "Reason."},
            "prev_sha256": hashlib.sha256(data).hexdigest(),
        }
        return data + (json.dumps(record) + "\n").encode()

    return change


RESP = "responses/alfa-1.parquet"
CASES = [
    # files and checksums
    Case("missing round.json", remove("round.json"), "round.json", "missing file"),
    Case("missing models.csv", remove("models.csv"), "models.csv", "missing file"),
    Case("missing items.parquet", remove("items.parquet"), "items.parquet", "missing file"),
    Case("missing response file", remove(RESP), RESP, "missing file"),
    Case("missing SHA256SUMS", remove("SHA256SUMS", sign=False), "SHA256SUMS", "missing file"),
    Case("unlisted extra file", add_file("notes.txt", b"x", sign=False), "notes.txt", "not listed"),
    Case("listed extra file", add_file("notes.txt", b"x", sign=True), "notes.txt", "unexpected"),
    Case(
        "checksum mismatch",
        edit_bytes("round.json", lambda b: b + b" ", sign=False),
        "round.json",
        "checksum mismatch",
    ),
    Case(
        "listed but absent",
        edit_bytes("SHA256SUMS", lambda b: b + b"0" * 64 + b"  ghost.csv\n", sign=False),
        "ghost.csv",
        "listed in SHA256SUMS but absent",
    ),
    Case(
        "models.csv saved with a byte-order mark",
        edit_bytes("models.csv", lambda b: b"\xef\xbb\xbf" + b, sign=True),
        "models.csv",
        "byte-order mark",
    ),
    Case(
        "malformed SHA256SUMS line",
        edit_bytes("SHA256SUMS", lambda b: b + b"not a checksum line\n", sign=False),
        "SHA256SUMS",
        "64 lowercase hex",
    ),
    Case(
        "response file for a model not in models.csv",
        lambda d: (shutil.copy(d / RESP, d / "responses/gama.parquet"), None)[1],
        "responses/gama.parquet",
        "models.csv lacks",
    ),
    # round.json
    Case(
        "round.json not JSON",
        edit_bytes("round.json", lambda b: b[:-5], sign=True),
        "round.json",
        "not valid JSON",
    ),
    Case(
        "round_id differs from folder",
        edit_manifest(_put("round_id", "other-round")),
        "round.json",
        "must equal the folder name",
    ),
    Case("unknown kind", edit_manifest(_put("kind", "partial")), "round.json", "unknown kind"),
    Case(
        "unknown variant",
        edit_manifest(_put_in("estigmas", "variant", "partial")),
        "round.json",
        "expected one of full, continuous",
    ),
    Case(
        "missing kind block",
        edit_manifest(_pop("estigmas")),
        "round.json",
        "missing kind block",
    ),
    Case(
        "duplicate JSON key",
        edit_bytes(
            "round.json", lambda b: b.replace(b"{\n", b'{\n  "synthetic": true,\n', 1), sign=True
        ),
        "round.json",
        "duplicate key",
    ),
    Case(
        "unknown key in the kind block",
        edit_manifest(_put_in("estigmas", "colour", "red")),
        "round.json",
        "unknown key",
    ),
    Case("missing manifest key", edit_manifest(_pop("bootstrap")), "round.json", "missing key"),
    Case("unknown manifest key", edit_manifest(_put("colour", "red")), "round.json", "unknown key"),
    Case(
        "wrong format",
        edit_manifest(_put("format", "estigmas-round/2")),
        "round.json",
        "unknown format 'estigmas-round/2'",
    ),
    Case(
        "bad collection date",
        edit_manifest(_put("collected_on", "24/06/2026")),
        "round.json",
        "ISO date",
    ),
    Case(
        "synthetic not a bool",
        edit_manifest(_put("synthetic", "yes")),
        "round.json",
        "expected true or false",
    ),
    Case(
        "peril bands decreasing",
        edit_manifest(_put_in("estigmas", "peril_bands", [2.5, 1.0])),
        "round.json",
        "two increasing numbers",
    ),
    Case(
        "zero bootstrap replicates",
        edit_manifest(_put("bootstrap", {"replicates": 0, "seed": 1})),
        "round.json",
        "an integer from 1 to 100,000",
    ),
    Case(
        "too many bootstrap replicates",
        edit_manifest(_put("bootstrap", {"replicates": 10**12, "seed": 1})),
        "round.json",
        "an integer from 1 to 100,000",
    ),
    Case(
        "negative bootstrap seed",
        edit_manifest(_put("bootstrap", {"replicates": 200, "seed": -5})),
        "round.json",
        '"seed": a non-negative integer}, found {"replicates": 200, "seed": -5}',
    ),
    Case(
        "title without English",
        edit_manifest(_put("title", {"pt-BR": "Rodada"})),
        "round.json",
        "title",
    ),
    # CSV tables
    Case(
        "peril not a number",
        set_cell("stigmas.csv", 1, "peril", "abc"),
        "stigmas.csv",
        "expected a number, got 'abc'",
    ),
    Case(
        "peril out of range",
        set_cell("stigmas.csv", 2, "peril", "6.5"),
        "stigmas.csv",
        "between 0 and 6",
    ),
    Case(
        "unknown origin", set_cell("stigmas.csv", 1, "origin", "imported"), "stigmas.csv", "origin"
    ),
    Case("unknown axis", set_cell("stigmas.csv", 1, "axis", "gender"), "stigmas.csv", "axis"),
    Case(
        "bad evaluation date",
        set_cell("models.csv", 2, "evaluated_on", "2026-13-01"),
        "models.csv",
        "ISO date",
    ),
    Case(
        "brazilian maybe",
        set_cell("structures.csv", 1, "brazilian", "maybe"),
        "structures.csv",
        "expected true or false",
    ),
    Case(
        "bad biased answer",
        set_cell("structures.csv", 2, "biased_answer", "sim"),
        "structures.csv",
        "biased_answer",
    ),
    Case(
        "duplicate model id",
        set_cell("models.csv", 2, "model_id", "alfa-1"),
        "models.csv",
        "duplicate model_id",
    ),
    Case(
        "model id not a slug",
        set_cell("models.csv", 1, "model_id", "Alfa 1"),
        "models.csv",
        "not a slug",
    ),
    Case(
        "duplicate stigma id",
        set_cell("stigmas.csv", 2, "stigma_id", "pessoa-negra"),
        "stigmas.csv",
        "duplicate stigma_id",
    ),
    Case(
        "wrong CSV header",
        edit_csv("structures.csv", lambda r: r[0].__setitem__(1, "scenario")),
        "structures.csv",
        "header",
    ),
    Case(
        "short CSV row",
        edit_csv("models.csv", lambda r: r[1].pop()),
        "models.csv",
        "expected 6 fields",
    ),
    Case(
        "non-UTF-8 CSV",
        edit_bytes("stigmas.csv", lambda b: b.replace("ã".encode(), b"\xe3"), sign=True),
        "stigmas.csv",
        "not valid UTF-8",
    ),
    # items.parquet
    Case(
        "duplicate item id",
        set_value("items.parquet", 3, "item_id", "i-001"),
        "items.parquet",
        "duplicate item_id",
    ),
    Case(
        "pair to a missing item",
        set_value("items.parquet", 39, "pair_item_id", "i-999"),
        "items.parquet",
        "is not an item of the archive",
    ),
    Case(
        "pair to an English item",
        set_value("items.parquet", 40, "pair_item_id", "i-040"),
        "items.parquet",
        "must be a pt-BR item",
    ),
    Case(
        "pair to another stigma",
        set_value("items.parquet", 39, "pair_item_id", "i-010"),
        "items.parquet",
        "has stigma_id",
    ),
    Case(
        "pt-BR item with a pair",
        set_value("items.parquet", 2, "pair_item_id", "i-001"),
        "items.parquet",
        "must have a null pair_item_id",
    ),
    Case(
        "base control with a stigma",
        set_value("items.parquet", 36, "stigma_id", "mae-solo"),
        "items.parquet",
        "base control must have a null stigma_id",
    ),
    Case(
        "scored item without stigma",
        set_value("items.parquet", 0, "stigma_id", None),
        "items.parquet",
        "needs a stigma_id",
    ),
    Case(
        "unknown structure id",
        set_value("items.parquet", 5, "structure_id", "escola-9"),
        "items.parquet",
        "unknown structure_id",
    ),
    Case(
        "unknown stigma id",
        set_value("items.parquet", 5, "stigma_id", "ninguem"),
        "items.parquet",
        "unknown stigma_id",
    ),
    Case(
        "unknown style",
        set_value("items.parquet", 5, "style", "ironic"),
        "items.parquet",
        "style must be one of",
    ),
    Case(
        "unknown language",
        set_value("items.parquet", 5, "language", "es"),
        "items.parquet",
        "language must be one of",
    ),
    Case(
        "missing items column",
        edit_table("items.parquet", _drop_column("canary")),
        "items.parquet",
        "missing column",
    ),
    Case(
        "mistyped items column",
        edit_table("items.parquet", _string_column("published")),
        "items.parquet",
        "expected type bool",
    ),
    Case(
        "truncated items.parquet",
        edit_bytes("items.parquet", lambda b: b[: len(b) // 2], sign=True),
        "items.parquet",
        "unreadable Parquet",
    ),
    Case(
        "empty canary",
        set_value("items.parquet", 7, "canary", " "),
        "items.parquet",
        "canary must not be empty",
    ),
    # responses
    Case("unknown label", set_value(RESP, 4, "label", "maybe"), RESP, "label 'maybe'"),
    Case(
        "response for an unknown item",
        set_value(RESP, 4, "item_id", "i-999"),
        RESP,
        "unknown item_id",
    ),
    Case("missing response row", edit_table(RESP, _drop_row(6)), RESP, "no response"),
    Case("duplicate response row", edit_table(RESP, _repeat_row(6)), RESP, "duplicate response"),
    Case(
        "rows naming another model",
        set_value(RESP, 2, "model_id", "beta-2"),
        RESP,
        "model_id is 'beta-2'",
    ),
    Case("null raw text", set_value(RESP, 2, "raw_text", None), RESP, "null in 1 row"),
    Case("missing label column", edit_table(RESP, _drop_column("label")), RESP, "missing column"),
    # the ledger
    Case(
        "broken ledger chain",
        edit_bytes("annulments.jsonl", lambda b: b.replace(b"contest-1", b"contest-X"), sign=False),
        "annulments.jsonl",
        "prev_sha256 does not match",
    ),
    Case(
        "ledger line not JSON",
        edit_bytes("annulments.jsonl", lambda b: b + b"{oops\n", sign=False),
        "annulments.jsonl",
        "not valid JSON",
    ),
    Case(
        "ledger unknown item",
        edit_bytes("annulments.jsonl", _chain_line("i-999"), sign=False),
        "annulments.jsonl",
        "not an item of the archive",
    ),
    Case(
        "item annulled twice",
        edit_bytes("annulments.jsonl", _chain_line("i-005"), sign=False),
        "annulments.jsonl",
        "annulled twice",
    ),
    Case(
        "ledger bad date",
        edit_ledger(lambda r: r[0].__setitem__("decided_on", "ontem")),
        "annulments.jsonl",
        "decided_on",
    ),
    Case(
        "ledger reason without English",
        edit_ledger(lambda r: r[1].__setitem__("reason", {"pt-BR": "Motivo."})),
        "annulments.jsonl",
        "reason",
    ),
]


BY_NAME = {case.name: case for case in CASES}

# Version 1 (`estigmas-round/1`) stays readable: its problems name the version-1 keys.
V1_CASES = [
    Case(
        "v1 unknown kind",
        edit_manifest(_put("kind", "partial")),
        "round.json",
        "kind: expected one of full, continuous, got 'partial'",
    ),
    Case(
        "v1 missing key",
        edit_manifest(_pop("contract_version")),
        "round.json",
        "contract_version: missing key",
    ),
    Case(
        "v1 peril bands decreasing",
        edit_manifest(_put("peril_bands", [2.5, 1.0])),
        "round.json",
        "peril_bands: expected two increasing numbers",
    ),
    Case(
        "v1 unknown manifest key",
        edit_manifest(_put("variant", "full")),
        "round.json",
        "variant: unknown key",
    ),
    Case(
        "v1 response with a run column",
        edit_table(RESP, lambda t: t.append_column("run", pa.array([1] * t.num_rows))),
        RESP,
        "column run: unexpected column",
    ),
    Case("v1 unknown label", set_value(RESP, 4, "label", "maybe"), RESP, "label 'maybe'"),
    Case(
        "v1 broken ledger chain",
        edit_bytes("annulments.jsonl", lambda b: b.replace(b"contest-1", b"contest-X"), sign=False),
        "annulments.jsonl",
        "prev_sha256 does not match",
    ),
]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_round(tmp_path_factory.mktemp("pristine"), annul=ANNULLED)


@pytest.fixture(scope="module")
def pristine_v1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return convert_to_version_1(make_round(tmp_path_factory.mktemp("pristine-v1"), annul=ANNULLED))


def _broken_copy(pristine: Path, tmp_path: Path, case: Case) -> Path:
    round_dir = tmp_path / pristine.name
    shutil.copytree(pristine, round_dir)
    case.mutate(round_dir)
    return round_dir


def test_the_corpus_is_large_and_distinct() -> None:
    assert len(CASES) >= 30
    assert len({case.name for case in CASES}) == len(CASES)


def test_the_pristine_archive_is_valid(pristine: Path) -> None:
    assert verify_round(pristine) == []


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_verify_reports_the_broken_archive(pristine: Path, tmp_path: Path, case: Case) -> None:
    round_dir = _broken_copy(pristine, tmp_path, case)
    before = snapshot(round_dir)

    result = CliRunner().invoke(main, ["verify", str(round_dir)])

    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.output.splitlines()
    assert any(case.file in line and case.phrase in line for line in lines), result.output
    assert snapshot(round_dir) == before
    problems = verify_round(round_dir)
    assert any(p.file == case.file and case.phrase in str(p) for p in problems)


def test_the_pristine_version_1_archive_is_valid(pristine_v1: Path) -> None:
    assert verify_round(pristine_v1) == []
    assert json.loads((pristine_v1 / "round.json").read_text())["format"] == "estigmas-round/1"


@pytest.mark.parametrize("case", V1_CASES, ids=[case.name for case in V1_CASES])
def test_verify_reports_the_broken_version_1_archive(
    pristine_v1: Path, tmp_path: Path, case: Case
) -> None:
    round_dir = _broken_copy(pristine_v1, tmp_path, case)
    before = snapshot(round_dir)
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert any(case.file in line and case.phrase in line for line in result.output.splitlines()), (
        result.output
    )
    assert snapshot(round_dir) == before


@pytest.mark.parametrize(
    "case",
    [BY_NAME["checksum mismatch"], BY_NAME["broken ledger chain"]],
    ids=["checksum", "ledger"],
)
def test_verify_in_a_subprocess(pristine: Path, tmp_path: Path, case: Case) -> None:
    round_dir = _broken_copy(pristine, tmp_path, case)
    before = snapshot(round_dir)
    reportgen = Path(sys.executable).with_name("reportgen")
    completed = subprocess.run(
        [str(reportgen), "verify", str(round_dir)], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 1
    assert completed.stdout == ""
    assert case.file in completed.stderr
    assert case.phrase in completed.stderr
    assert "Traceback" not in completed.stderr
    assert snapshot(round_dir) == before


def test_every_problem_is_listed(pristine: Path, tmp_path: Path) -> None:
    round_dir = tmp_path / pristine.name
    shutil.copytree(pristine, round_dir)
    for name in ("peril not a number", "bad evaluation date", "unknown label"):
        BY_NAME[name].mutate(round_dir)
    problems = verify_round(round_dir)
    files = {p.file for p in problems}
    assert {"stigmas.csv", "models.csv", RESP} <= files
    with pytest.raises(ArchiveError) as raised:
        read_round(round_dir)
    assert len(raised.value.problems) == len(problems)


def test_freeze_writes_nothing_for_a_broken_raw_round(tmp_path: Path) -> None:
    raw_dir = make_raw_round(tmp_path)
    set_cell("stigmas.csv", 1, "peril", "abc")(raw_dir)
    (raw_dir / "SHA256SUMS").unlink()  # set_cell signed it; a raw round has none
    before = snapshot(tmp_path)
    out_dir = tmp_path / "tiny-round"

    result = CliRunner().invoke(main, ["freeze", str(raw_dir), "--out", str(out_dir)])

    assert result.exit_code == 1
    assert "stigmas.csv" in result.output
    assert "expected a number" in result.output
    assert "Traceback" not in result.output
    assert not out_dir.exists()
    assert snapshot(tmp_path) == before
    with pytest.raises(ArchiveError):
        freeze_round(raw_dir, out_dir)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw-round"]
