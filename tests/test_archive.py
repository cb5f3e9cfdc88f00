"""Reading and writing round archives: round trip, determinism, checksums, ledger."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import types
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.cli import main
from reportgen.errors import ArchiveError, InputError, OutputExistsError
from reportgen.kinds.estigmas.archive import read_round, write_round
from reportgen.kinds.estigmas.model import LABEL_CODE, LABELS, Item, Label, Model
from reportgen.kinds.rounds import (
    append_annulment,
    manifest_from_dict,
    manifest_to_dict,
    verify_round,
)
from tests.archive_mutations import snapshot
from tests.factories import (
    DEFAULT_MODELS,
    convert_to_version_1,
    make_round,
    tiny_items,
    tiny_parts,
    with_manifest,
    write_parts,
)
from tests.factories.estigmas_full_size import write_full_size_round

REASON = {"pt-BR": "A pergunta admitia duas leituras.", "en": "The question had two readings."}


def test_round_trip_keeps_every_part(tmp_path: Path) -> None:
    parts = tiny_parts(annul=("i-003", "i-030"))
    archive = read_round(write_parts(tmp_path / "tiny-round", parts))

    assert archive.manifest == parts.manifest
    assert archive.models == parts.models
    assert archive.stigmas == parts.stigmas
    assert archive.structures == parts.structures
    assert archive.items == parts.items
    assert list(archive.responses) == [m.model_id for m in parts.models]
    for model_id, rows in parts.responses.items():
        responses = archive.responses[model_id]
        assert responses.raw_text == tuple(row.raw_text for row in rows)
        assert [responses.label(i) for i in range(len(rows))] == [row.label for row in rows]
        assert responses.latency_ms == tuple(row.latency_ms for row in rows)
    assert [a.item_id for a in archive.annulments] == ["i-003", "i-030"]
    assert archive.annulments[0].prev_sha256 == ""
    ledger = (tmp_path / "tiny-round" / "annulments.jsonl").read_bytes()
    assert archive.ledger_sha256 == hashlib.sha256(ledger).hexdigest()
    assert archive.annulled_item_ids == {"i-003", "i-030"}


def test_round_is_read_only_and_aligned(tmp_path: Path) -> None:
    archive = read_round(make_round(tmp_path))
    assert isinstance(archive.responses, types.MappingProxyType)
    codes = archive.responses["alfa-1"].label_codes
    assert codes.dtype == np.int8
    assert not codes.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        codes[0] = 1
    assert len(codes) == len(archive.items)


def test_shuffled_response_rows_are_aligned_with_the_items(tmp_path: Path) -> None:
    parts = tiny_parts()
    shuffled = {mid: tuple(reversed(rows)) for mid, rows in parts.responses.items()}
    archive = read_round(
        write_parts(tmp_path / "tiny-round", type(parts)(**{**vars(parts), "responses": shuffled}))
    )
    for model_id, rows in parts.responses.items():
        expected = [LABEL_CODE[row.label] for row in rows]
        assert archive.responses[model_id].label_codes.tolist() == expected


def test_reading_without_text(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    with_text = read_round(round_dir)
    without = read_round(round_dir, with_text=False)
    assert without.responses["beta-2"].raw_text == ()
    assert np.array_equal(
        without.responses["beta-2"].label_codes, with_text.responses["beta-2"].label_codes
    )


def test_writing_is_deterministic(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = make_round(tmp_path / "a", annul=("i-001",))
    second = make_round(tmp_path / "b", annul=("i-001",))
    assert snapshot(first) == snapshot(second)
    assert sorted(snapshot(first)) == [
        "SHA256SUMS",
        "annulments.jsonl",
        "items.parquet",
        "models.csv",
        "responses/alfa-1.parquet",
        "responses/alfa-mini.parquet",
        "responses/beta-2.parquet",
        "round.json",
        "stigmas.csv",
        "structures.csv",
    ]


def test_written_text_files_follow_the_format(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    manifest = (round_dir / "round.json").read_text(encoding="utf-8")
    assert manifest.endswith("}\n")
    assert list(json.loads(manifest))[:3] == ["format", "round_id", "kind"]
    assert "ã" in (round_dir / "stigmas.csv").read_text(encoding="utf-8")  # not escaped
    assert b"\r" not in (round_dir / "models.csv").read_bytes()
    listed = [line.split("  ")[1] for line in (round_dir / "SHA256SUMS").read_text().splitlines()]
    assert listed == sorted(listed)
    assert "annulments.jsonl" not in listed


def test_sha256sum_accepts_the_archive(tmp_path: Path) -> None:
    sha256sum = shutil.which("sha256sum")
    if sha256sum is None:
        pytest.skip("coreutils sha256sum is not installed")
    round_dir = make_round(tmp_path, annul=("i-002",))
    completed = subprocess.run(
        [sha256sum, "-c", "SHA256SUMS"], cwd=round_dir, capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.count(": OK") == 8


def test_write_refuses_an_existing_destination(tmp_path: Path) -> None:
    (tmp_path / "tiny-round").mkdir()
    with pytest.raises(OutputExistsError):
        make_round(tmp_path)
    assert list(tmp_path.iterdir()) == [tmp_path / "tiny-round"]


def test_write_of_an_invalid_round_leaves_nothing(tmp_path: Path) -> None:
    parts = tiny_parts()
    missing_one = dict(parts.responses)
    missing_one["beta-2"] = missing_one["beta-2"][1:]
    broken = type(parts)(**{**vars(parts), "responses": missing_one})
    with pytest.raises(ArchiveError, match="no response for this item"):
        write_parts(tmp_path / "tiny-round", broken)
    assert list(tmp_path.iterdir()) == []


def test_write_refuses_a_folder_named_otherwise(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="must equal the folder name"):
        write_parts(tmp_path / "other-name", tiny_parts())
    assert list(tmp_path.iterdir()) == []


def test_write_refuses_a_path_like_model_id(tmp_path: Path) -> None:
    parts = tiny_parts()
    with pytest.raises(InputError, match="not a slug"):
        write_round(
            tmp_path / "tiny-round",
            manifest=parts.manifest,
            models=parts.models,
            stigmas=parts.stigmas,
            structures=parts.structures,
            items=parts.items,
            responses={"../escape": parts.responses["alfa-1"]},
        )
    assert list(tmp_path.iterdir()) == []


def test_manifest_dict_round_trip() -> None:
    manifest = with_manifest(tiny_parts(), variant="continuous", parent_round="mae").manifest
    assert manifest_from_dict(manifest_to_dict(manifest)) == manifest
    data = manifest_to_dict(manifest)
    data["bootstrap"] = {"replicates": True, "seed": 1}
    with pytest.raises(ArchiveError, match="an integer from 1 to 100,000"):
        manifest_from_dict(data)


def test_append_annulment_chains_lines(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    first = append_annulment(
        round_dir, item_id="i-004", decided_on=date(2026, 7, 3), ref="c-1", reason=REASON
    )
    ledger_after_first = (round_dir / "annulments.jsonl").read_bytes()
    second = append_annulment(
        round_dir, item_id="i-009", decided_on=date(2026, 7, 4), ref="c-2", reason=REASON
    )
    assert first.prev_sha256 == ""
    assert second.prev_sha256 == hashlib.sha256(ledger_after_first).hexdigest()
    archive = read_round(round_dir)
    assert archive.annulments == (first, second)
    assert verify_round(round_dir) == []


def test_append_annulment_refuses_bad_requests(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path, annul=("i-004",))
    before = snapshot(round_dir)
    with pytest.raises(InputError, match="already annulled"):
        append_annulment(
            round_dir, item_id="i-004", decided_on=date(2026, 7, 5), ref="c", reason=REASON
        )
    with pytest.raises(InputError, match="no item 'i-999'"):
        append_annulment(
            round_dir, item_id="i-999", decided_on=date(2026, 7, 5), ref="c", reason=REASON
        )
    with pytest.raises(InputError, match="reason"):
        append_annulment(
            round_dir,
            item_id="i-005",
            decided_on=date(2026, 7, 5),
            ref="c",
            reason={"pt-BR": "Só em português."},
        )
    assert snapshot(round_dir) == before


def test_append_annulment_refuses_a_broken_chain(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path, annul=("i-004", "i-006"))
    ledger = round_dir / "annulments.jsonl"
    ledger.write_bytes(ledger.read_bytes().replace(b"contest-1", b"contest-9"))
    before = snapshot(round_dir)
    with pytest.raises(ArchiveError, match="prev_sha256"):
        append_annulment(
            round_dir, item_id="i-007", decided_on=date(2026, 7, 5), ref="c", reason=REASON
        )
    assert snapshot(round_dir) == before


def test_append_to_a_round_without_ledger_leaves_none_on_refusal(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    with pytest.raises(InputError):
        append_annulment(
            round_dir, item_id="nope", decided_on=date(2026, 7, 5), ref="c", reason=REASON
        )
    assert not (round_dir / "annulments.jsonl").exists()


def test_verify_command_says_ok(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path, annul=("i-001",))
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exit_code == 0, result.output
    assert result.output == "OK tiny-round: 3 model(s), 43 item(s), 1 annulled\n"


def test_verify_command_on_a_missing_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", str(tmp_path / "absent")])
    assert result.exit_code == 1
    assert "not a directory" in result.output
    assert "Traceback" not in result.output


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_label_assignment_round_trips(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    items = tiny_items("tiny-round")
    chosen: dict[tuple[str, str], Label] = {
        (model.model_id, item.item_id): data.draw(st.sampled_from(LABELS))
        for model in DEFAULT_MODELS[:2]
        for item in items
    }

    def labels(model: Model, item: Item) -> Label:
        return chosen[(model.model_id, item.item_id)]

    round_dir = make_round(
        tmp_path_factory.mktemp("labels"), models=DEFAULT_MODELS[:2], labels=labels
    )
    archive = read_round(round_dir, with_text=False)
    for model in DEFAULT_MODELS[:2]:
        codes = archive.responses[model.model_id].label_codes
        assert [LABELS[c] for c in codes] == [chosen[(model.model_id, i.item_id)] for i in items]


@pytest.mark.slow
def test_reading_a_full_size_round_keeps_every_item(tmp_path: Path) -> None:
    """About 8,700 items x 7 models, with text (how long it takes: bench/bench_archive_read.py)."""
    written = write_full_size_round(tmp_path / "tiny-round")
    archive = read_round(tmp_path / "tiny-round")
    assert len(archive.items) == written >= 8700


_single_line = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"),
    min_size=1,
    max_size=30,
).filter(lambda text: text == text.strip() and text != "")


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(display_name=_single_line, provider=_single_line, snapshot_text=st.just("") | _single_line)
def test_csv_texts_round_trip(
    tmp_path_factory: pytest.TempPathFactory,
    display_name: str,
    provider: str,
    snapshot_text: str,
) -> None:
    model = Model("m-1", display_name, provider, "api/m-1", snapshot_text, date(2026, 6, 24))
    round_dir = make_round(tmp_path_factory.mktemp("csv"), models=(model,))
    assert read_round(round_dir, with_text=False).models == (model,)


def test_write_refuses_a_line_break_in_a_csv_value(tmp_path: Path) -> None:
    model = Model("m-1", "Nome\rquebrado", "P", "api", "", date(2026, 6, 24))
    with pytest.raises(InputError, match=r"models.csv: row 1, display_name: .*single line"):
        make_round(tmp_path, models=(model,))
    assert list(tmp_path.iterdir()) == []


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    reasons=st.lists(st.tuples(_single_line, _single_line), min_size=1, max_size=4),
    tampered=st.integers(min_value=0, max_value=10),
)
def test_ledger_keeps_reasons_and_detects_rewrites(
    tmp_path_factory: pytest.TempPathFactory, reasons: list[tuple[str, str]], tampered: int
) -> None:
    round_dir = make_round(tmp_path_factory.mktemp("ledger"))
    for number, (pt, en) in enumerate(reasons):
        append_annulment(
            round_dir,
            item_id=f"i-{number + 1:03d}",
            decided_on=date(2026, 7, 1),
            ref=f"c-{number}",
            reason={"pt-BR": pt, "en": en},
        )
    archive = read_round(round_dir, with_text=False)
    assert [dict(a.reason) for a in archive.annulments] == [
        {"pt-BR": pt, "en": en} for pt, en in reasons
    ]
    if len(reasons) < 2:
        return
    # Rewriting any line but the last breaks the chain from the line after it onwards.
    ledger = round_dir / "annulments.jsonl"
    lines = ledger.read_bytes().splitlines(keepends=True)
    line = tampered % (len(lines) - 1)
    lines[line] = lines[line].replace(b'"ref": "c-', b'"ref": "x-')
    ledger.write_bytes(b"".join(lines))
    problems = verify_round(round_dir)
    assert [p.where for p in problems] == [f"line {n}" for n in range(line + 2, len(lines) + 1)]
    assert all("prev_sha256" in p.message for p in problems)


GOLDEN = Path(__file__).parent / "golden" / "archive" / "tiny-round"
GOLDEN_V1 = Path(__file__).parent / "golden" / "archive" / "tiny-round-v1"


@pytest.mark.parametrize(
    "name", ["round.json", "models.csv", "stigmas.csv", "structures.csv", "annulments.jsonl"]
)
def test_text_files_match_the_golden_bytes(tmp_path: Path, name: str) -> None:
    """The text files' exact bytes are part of the format (Parquet bytes depend on the
    pyarrow version, so they are covered by the determinism test instead). After an
    intended format change, copy the new files from a fresh `make_round(tmp,
    annul=("i-005", "i-020"))` into tests/golden/archive/tiny-round/."""
    round_dir = make_round(tmp_path, annul=("i-005", "i-020"))
    assert (round_dir / name).read_bytes() == (GOLDEN / name).read_bytes()


@pytest.mark.parametrize(
    "name", ["round.json", "models.csv", "stigmas.csv", "structures.csv", "annulments.jsonl"]
)
def test_the_version_1_converter_gives_the_version_1_golden_bytes(
    tmp_path: Path, name: str
) -> None:
    """tests/golden/archive/tiny-round-v1/ was written by the version-1 writer; the test
    helper that converts an archive to version 1 must give those bytes."""
    round_dir = convert_to_version_1(make_round(tmp_path, annul=("i-005", "i-020")))
    assert (round_dir / name).read_bytes() == (GOLDEN_V1 / name).read_bytes()


def test_verify_from_inside_the_round_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    round_dir = make_round(tmp_path)
    monkeypatch.chdir(round_dir)
    assert verify_round(Path(".")) == []
