"""A multidomain round read mid-audit (reportgen.kinds.multidomain.review.round): only the
audit's own refusals (41–43) are set aside; any other problem still refuses the archive."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from reportgen.archive import LEDGER_FILE
from reportgen.errors import ArchiveError
from reportgen.kinds.multidomain.review.round import append_ledger_line, read_md_round
from reportgen.kinds.rounds import read_round
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
