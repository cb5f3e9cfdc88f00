"""A multidomain round read mid-audit (reportgen.kinds.multidomain.review.round): only the
audit's own refusals (41–43) are set aside; any other problem still refuses the archive.
A read round is kept per process while its archive stays the same, byte for byte."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from reportgen.archive import LEDGER_FILE
from reportgen.errors import ArchiveError
from reportgen.kinds.multidomain.review import round as md_round
from reportgen.kinds.multidomain.review.round import append_ledger_line, read_md_round
from reportgen.kinds.rounds import read_round
from reportgen.model import Round
from tests.review.multidomain import tiny_before_audit

REASON = {"pt-BR": "Motivo.", "en": "Reason."}


def test_a_round_awaiting_its_audit_line_is_read(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path)
    with pytest.raises(ArchiveError, match="expected an `audit` line"):
        read_round(round_dir)
    assert read_md_round(round_dir).round_id == "tiny-2026-11"


def test_a_broken_ledger_still_refuses(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path)
    (round_dir / LEDGER_FILE).write_text("not json\n", encoding="utf-8")
    with pytest.raises(ArchiveError):
        read_md_round(round_dir)


def test_an_audit_line_for_an_mcq_item_still_refuses(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path)
    append_ledger_line(
        round_dir, item_id="i4", decided_on=date(2026, 12, 4), source="audit", ref="AUD-X",
        reason=REASON,
    )  # fmt: skip
    with pytest.raises(ArchiveError, match="expected an open item"):
        read_md_round(round_dir)


def test_an_item_is_annulled_once(tmp_path: Path) -> None:
    from reportgen.errors import InputError

    round_dir = tiny_before_audit(tmp_path)
    first = append_ledger_line(
        round_dir, item_id="i7", decided_on=date(2026, 12, 4), source="audit", ref="AUD-A",
        reason=REASON,
    )  # fmt: skip
    again = append_ledger_line(
        round_dir, item_id="i7", decided_on=date(2026, 12, 4), source="audit", ref="AUD-A",
        reason=REASON,
    )  # fmt: skip
    assert again == first  # the same decision converges
    with pytest.raises(InputError, match="already annulled"):
        append_ledger_line(
            round_dir, item_id="i7", decided_on=date(2026, 12, 5), source="contamination",
            ref="CT-1", reason=REASON,
        )  # fmt: skip
    assert len((round_dir / LEDGER_FILE).read_bytes().splitlines()) == 1


def test_the_same_archive_is_read_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_dir = tiny_before_audit(tmp_path)
    reads = _counted_reads(monkeypatch)
    first = read_md_round(round_dir, with_text=False)
    assert read_md_round(round_dir, with_text=False) is first
    assert read_md_round(round_dir, with_text=True) is not first  # texts are another read
    assert len(reads) == 2


def test_a_changed_archive_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    round_dir = tiny_before_audit(tmp_path)
    reads = _counted_reads(monkeypatch)
    assert read_md_round(round_dir, with_text=False).annulments == ()
    append_ledger_line(
        round_dir, item_id="i7", decided_on=date(2026, 12, 4), source="audit", ref="AUD-A",
        reason=REASON,
    )  # fmt: skip
    (line,) = read_md_round(
        round_dir, with_text=False
    ).annulments  # the new line, not the kept round
    assert line.item_id == "i7"
    assert len(reads) == 2


def test_a_file_changed_in_place_with_its_size_and_times_kept_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_dir = tiny_before_audit(tmp_path)
    reads = _counted_reads(monkeypatch)
    read_md_round(round_dir, with_text=False)
    target = round_dir / "models.csv"
    data = target.read_bytes()
    status = target.stat()
    target.write_bytes(data.replace(b"P1", b"P9", 1))  # the same size
    os.utime(target, ns=(status.st_atime_ns, status.st_mtime_ns))
    with pytest.raises(ArchiveError, match="checksum mismatch"):
        read_md_round(round_dir, with_text=False)
    target.write_bytes(data)
    read_md_round(round_dir, with_text=False)
    assert len(reads) == 2  # the refusal was not kept; the restored archive was


def test_a_file_added_to_the_archive_is_seen(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path)
    read_md_round(round_dir, with_text=False)
    (round_dir / "extra.csv").write_text("a\n", encoding="utf-8")
    with pytest.raises(ArchiveError, match=r"extra\.csv"):
        read_md_round(round_dir, with_text=False)


def _counted_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The archive reads that `read_md_round` makes from now on."""
    reads: list[Path] = []

    def counted(round_dir: Path, **options: Any) -> Round:
        reads.append(round_dir)
        return read_round(round_dir, **options)

    monkeypatch.setattr(md_round, "read_round", counted)
    return reads
