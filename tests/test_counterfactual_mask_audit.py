"""mask_audit.parquet (issue 21): a leaked mask voids exactly that judge score in the
results, `reportgen verify` refuses a malformed or unknown-reference decision with one
line naming the file, row and field, and the report states how many scores were voided."""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reportgen.errors import ArchiveError
from reportgen.kinds.counterfactual.model import MaskDecision, Round
from reportgen.kinds.counterfactual.results import build_results
from reportgen.kinds.counterfactual.score import AttributeCells, round_cells
from reportgen.kinds.counterfactual.terms import sha256_text
from reportgen.kinds.rounds import read_round, verify_round
from tests.factories.counterfactual import assert_refused, small_round, write

FILE = "mask_audit.parquet"


def _decision(
    round_: Round, index: int, decision: str = "leaked", **changes: object
) -> MaskDecision:
    """A decision on the `index`-th judge score of the round's first system."""
    judged = [e for e in round_.extractions[round_.models[0].model_id] if e.variable_id == "tom"]
    extraction = judged[index]
    fields = {
        "variable_id": "tom",
        "model_id": extraction.model_id,
        "item_id": extraction.item_id,
        "run": extraction.run,
        "input_sha256": extraction.input_sha256 or "",
        "decision": decision,
        "ref": f"S{index:03d}",
        "decided_on": date(2026, 3, 6),
    }
    return MaskDecision(**(fields | changes))  # type: ignore[arg-type]


def _with(round_: Round, *decisions: MaskDecision) -> Round:
    return dataclasses.replace(round_, mask_audit=decisions)


def test_a_leaked_mask_removes_exactly_that_score_from_the_results() -> None:
    plain = small_round()
    held = _with(plain, _decision(plain, 0, "held"))
    leaked = _with(plain, _decision(plain, 0, "held"), _decision(plain, 1, "leaked"))
    voided = _decision(plain, 1).key
    assert leaked.voided_scores == {voided}
    assert held.voided_scores == frozenset()
    before = {a.attribute_id: a for a in round_cells(plain)}
    for attribute in round_cells(leaked):
        for key, cells in attribute.cells.items():
            old = before[attribute.attribute_id].cells[key]
            flipped = int(np.sum(old.determined & ~cells.determined))
            assert not np.any(cells.determined & ~old.determined)
            assert np.array_equal(old.values[cells.determined], cells.values[cells.determined])
            expected = 1 if key == (voided[1], "tom") and _carries(attribute, voided) else 0
            assert flipped == expected, (attribute.attribute_id, key)
    without = build_results(plain, replicates=20)
    with_held = build_results(held, replicates=20)
    with_leak = build_results(leaked, replicates=20)
    assert with_held.systems == without.systems  # a held mask changes nothing
    assert (with_leak.counts.voided_scores, without.counts.voided_scores) == (1, 0)
    [entry] = with_leak.voided_scores
    assert (entry.variable_id, entry.model_id, entry.item_id, entry.run) == voided
    assert entry.ref == "S001"
    for new, previous in zip(with_leak.systems[0].rows, without.systems[0].rows, strict=True):
        if new.variable_id != "tom":
            # the other variables' gaps are untouched (their q-values share the family)
            assert (new.demographic_parity, new.equal_opportunity) == (
                previous.demographic_parity,
                previous.equal_opportunity,
            )
    tom = [
        (n, o)
        for n, o in zip(with_leak.systems[0].rows, without.systems[0].rows, strict=True)
        if n.variable_id == "tom" and n.attribute_id == _attribute_of(plain, voided)
    ]
    assert tom
    assert all(n.demographic_parity != o.demographic_parity for n, o in tom)


def _attribute_of(round_: Round, key: tuple[str, str, str, int]) -> str:
    return next(i.attribute_id for i in round_.items if i.item_id == key[2])


def _carries(attribute: AttributeCells, key: tuple[str, str, str, int]) -> bool:
    return attribute.attribute_id == _attribute_of(small_round(), key)


def test_the_decisions_are_frozen_and_read_back(tmp_path: Path) -> None:
    plain = small_round()
    round_dir = write(_with(plain, _decision(plain, 0, "held"), _decision(plain, 1)), tmp_path)
    assert verify_round(round_dir) == []
    assert FILE in (round_dir / "SHA256SUMS").read_text("utf-8")
    read = read_round(round_dir)
    assert isinstance(read, Round)
    assert [row.decision for row in read.mask_audit] == ["held", "leaked"]
    assert read.voided_scores == {_decision(plain, 1).key}


@pytest.mark.parametrize(
    ("changes", "where", "fragment"),
    [
        ({"decision": "maybe"}, "row 1, decision", "expected held or leaked, got 'maybe'"),
        ({"ref": " "}, "row 1, ref", "expected the review app's sample code"),
        ({"item_id": "nowhere"}, "row 1", "unknown reference: no tom judge score"),
        ({"variable_id": "reembolso"}, "row 1, variable_id", "expected a judged score"),
        ({"input_sha256": "0" * 64}, "row 1, input_sha256", "differs from the judge's"),
    ],
)
def test_verify_refuses_a_bad_decision(
    tmp_path: Path, changes: dict[str, Any], where: str, fragment: str
) -> None:
    plain = small_round()
    round_dir = write(_with(plain, dataclasses.replace(_decision(plain, 0), **changes)), tmp_path)
    assert_refused(round_dir, FILE, where, fragment)


def test_verify_refuses_two_decisions_on_one_score(tmp_path: Path) -> None:
    plain = small_round()
    round_dir = write(_with(plain, _decision(plain, 0, "held"), _decision(plain, 0)), tmp_path)
    assert_refused(round_dir, FILE, "row 2", "duplicate: a second decision")


def _raw_decision(**changes: object) -> str:
    import json

    from tests.factories.counterfactual_rounds import JUDGE_INPUT, minimal_round

    item = minimal_round().items[0]
    line = {
        "variable_id": "tom",
        "model_id": "bot-a",
        "item_id": item.item_id,
        "run": 1,
        "input_sha256": sha256_text(JUDGE_INPUT),
        "decision": "leaked",
        "ref": "S001",
        "decided_on": "2026-11-12",
    }
    return json.dumps(line | changes) + "\n"


def test_freeze_carries_the_raw_decisions_into_the_archive(tmp_path: Path) -> None:
    from reportgen.kinds.counterfactual.freeze import freeze_round
    from tests.factories.counterfactual_raw import fill, render, write_battery
    from tests.factories.counterfactual_rounds import ROUND_ID

    write_battery(tmp_path / "battery")
    render(tmp_path / "battery", tmp_path / "raw")
    fill(tmp_path / "raw")
    (tmp_path / "raw" / "mask_audit.jsonl").write_text(_raw_decision(), "utf-8")
    out = tmp_path / ROUND_ID
    freeze_round(tmp_path / "raw", out)
    assert verify_round(out) == []
    frozen = read_round(out)
    assert isinstance(frozen, Round)
    assert [(row.decision, row.ref) for row in frozen.mask_audit] == [("leaked", "S001")]
    assert build_results(frozen, replicates=5).counts.voided_scores == 1
    from click.testing import CliRunner

    from reportgen.cli import main

    summary = CliRunner().invoke(main, ["summary", str(out)])
    assert summary.exit_code == 0, summary.output
    assert "Mask audit: 1 judge score(s) voided" in summary.output
    # An unknown reference in the raw file: freeze refuses, names the row, writes nothing.
    (tmp_path / "raw" / "mask_audit.jsonl").write_text(_raw_decision(item_id="x-9"), "utf-8")
    (tmp_path / "again").mkdir()
    with pytest.raises(ArchiveError) as refused:
        freeze_round(tmp_path / "raw", tmp_path / "again" / ROUND_ID)
    assert [p.file for p in refused.value.problems] == [FILE]
    assert "row 1: unknown reference" in str(refused.value.problems[0])
    assert not (tmp_path / "again" / ROUND_ID).exists()
