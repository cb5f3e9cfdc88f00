"""The human-audit record: what the review app writes is what the site reads."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reportgen.audit_export import (
    AuditExport,
    Confusion,
    ContestationCounts,
    read_audit_export,
    write_audit_export,
)
from reportgen.errors import InputError, OutputExistsError


def export() -> AuditExport:
    return AuditExport(
        round_id="r1",
        generated_at=datetime(2026, 7, 2, 10, tzinfo=UTC),
        batches=1,
        batches_closed=0,
        samples_judged=3,
        judgments=6,
        reviewers=2,
        adjudicated=0,
        kappa_majority_vs_parser=None,
        alpha_reviewers=0.5,
        kappa_by_reviewer={"R1": 1.0, "R2": None},
        confusion=Confusion(rows=("yes", "no"), columns=("yes", "no"), counts=((2, 1), (0, 3))),
        agreement_by_model={"m": 0.5},
        contestations=ContestationCounts(received=1, accepted=0, rejected=0, pending=1, overdue=0),
    )


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "audits" / "r1.json"
    write_audit_export(export(), path)
    assert read_audit_export(path) == export()
    with pytest.raises(OutputExistsError, match="already exists"):
        write_audit_export(export(), path)
    write_audit_export(export(), path, force=True)


def test_first_format_name_is_still_read(tmp_path: Path) -> None:
    document = export().model_dump(mode="json") | {"format": "estigmas-human-audit/1"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = read_audit_export(path)
    assert loaded is not None
    assert loaded.samples_judged == 3


def test_a_damaged_export_names_its_key(tmp_path: Path) -> None:
    document = export().model_dump(mode="json")
    del document["judgments"]
    document["confusion"]["counts"] = [[1, "x"]]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json: key '(judgments|confusion\.counts\.0\.1)'"):
        read_audit_export(path)
    assert read_audit_export(tmp_path / "absent.json") is None
