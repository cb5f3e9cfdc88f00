"""The Art. 33–34 contamination queue: findings of the kind's integrity checks, decided.

The findings come from `stats.integrity.integrity_report` over the archive: responses
whose 8-gram containment is strictly above `contamination.flag_above`, and suspicious
canary reproductions (part of the item's own canary, not all of it). The administrator
records an outcome, confirmed or dismissed, with a note. A confirmed finding annuls its
item: a ledger line with `source = "contamination"` (`ref` = the finding's id), unless
the item is already annulled or was superseded by a variant (then the outcome is
recorded alone, and says so).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction

from sqlalchemy import Engine, select

from reportgen.errors import InputError
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.review.audit import AppendLine, round_folder
from reportgen.kinds.multidomain.review.round import append_ledger_line, read_md_round
from reportgen.kinds.multidomain.review.tables import contamination_reviews
from reportgen.kinds.multidomain.stats.integrity import integrity_report
from reportgen.kinds.multidomain.terms import active_items
from reportgen.model import TEXT_LANGUAGES
from review_app.core.auth import require
from review_app.core.db import NOTE_MAX_CHARS, audit, now_utc
from review_app.core.errors import ReviewInputError
from review_app.core.ledger_provenance import check_ledger, record_append
from review_app.core.round_identity import check_identity
from review_app.i18n import translate

OUTCOMES = ("confirmed", "dismissed")


@dataclass(frozen=True)
class Finding:
    """One response the integrity checks flag (administrator only)."""

    finding: str  # "ngram" | "canary"
    item_id: str
    model_id: str
    run: int
    containment: Fraction | None  # ngram: |G(prompt) ∩ G(answer)| / |G(prompt)|
    common_chars: int | None  # canary: the longest common substring with its canary
    outcome: str | None = None  # None: awaiting a decision
    note: str = ""
    ledger_ref: str = ""

    @property
    def finding_id(self) -> str:
        """A short, stable id: the ledger line's `ref` when confirmed."""
        key = f"{self.finding}|{self.item_id}|{self.model_id}|{self.run}"
        return "CT-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:10].upper()


def findings_of(round_: Round) -> list[Finding]:
    """The round's findings, 8-gram ones first, each in the report's order."""
    report = integrity_report(round_)
    found = [Finding("ngram", c.item_id, c.model_id, c.run, c.value, None) for c in report.flagged]
    found += [
        Finding("canary", h.item_id, h.model_id, h.run, None, h.common_chars)
        for h in report.suspicious
    ]
    return found


def contamination_queue(engine: Engine, token: str | None, round_id: str) -> list[Finding]:
    """Every finding of `round_id`, with its recorded outcome if any."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        round_dir, _ = round_folder(connection, round_id)
        decided = {
            (row.finding, row.item_id, row.model_id, row.run): row
            for row in connection.execute(
                select(contamination_reviews).where(contamination_reviews.c.round_id == round_id)
            )
        }
    queue = []
    for finding in findings_of(read_md_round(round_dir, with_text=True)):
        row = decided.get((finding.finding, finding.item_id, finding.model_id, finding.run))
        if row is not None:
            finding = Finding(
                **{**finding.__dict__, "outcome": row.outcome, "note": row.note}
                | {"ledger_ref": row.ledger_ref}
            )
        queue.append(finding)
    return queue


# long: the checks, the stored outcome, the audit entry and the ledger in one transaction.
def record_outcome(
    engine: Engine,
    token: str | None,
    round_id: str,
    finding_id: str,
    outcome: str,
    note: str,
    *,
    clock: Callable[[], datetime] = now_utc,
    append_line: AppendLine = append_ledger_line,
) -> str:
    """Record the outcome of one finding; returns the ledger line's ref ("" if none)."""
    me = require(engine, token, "admin")
    text = note.strip()
    if outcome not in OUTCOMES:
        raise ReviewInputError("md_error_outcome", outcome=outcome)
    if not text:
        raise ReviewInputError("md_error_outcome_note")
    if len(text) > NOTE_MAX_CHARS:
        raise ReviewInputError("error_note_long", maximum=NOTE_MAX_CHARS, length=len(text))
    with engine.begin() as connection:
        round_dir, sums = round_folder(connection, round_id)
        check_identity(round_dir, round_id, sums)
        check_ledger(connection, round_id, round_dir)
        round_ = read_md_round(round_dir, with_text=True)
        finding = next((f for f in findings_of(round_) if f.finding_id == finding_id), None)
        if finding is None:
            raise ReviewInputError("md_error_unknown_finding", finding_id=finding_id)
        key = (finding.finding, finding.item_id, finding.model_id, finding.run)
        known = connection.execute(
            select(contamination_reviews.c.outcome).where(
                contamination_reviews.c.round_id == round_id,
                contamination_reviews.c.finding == key[0],
                contamination_reviews.c.item_id == key[1],
                contamination_reviews.c.model_id == key[2],
                contamination_reviews.c.run == key[3],
            )
        ).scalar()
        if known is not None:
            raise ReviewInputError("md_error_finding_decided", finding_id=finding_id, outcome=known)
        annuls = outcome == "confirmed" and _annullable(round_, finding.item_id)
        ref = finding.finding_id if annuls else ""
        connection.execute(
            contamination_reviews.insert().values(
                round_id=round_id,
                finding=key[0],
                item_id=key[1],
                model_id=key[2],
                run=key[3],
                outcome=outcome,
                note=text,
                ledger_ref=ref,
                decided_by=me.account_id,
                decided_at=clock(),
            )
        )
        audit(
            connection,
            me.account_id,
            "md_contamination_outcome",
            {"round_id": round_id, "finding_id": finding_id, "outcome": outcome, "ref": ref},
        )
        if annuls:
            record_append(
                connection, me.account_id, round_id, item_id=finding.item_id,
                source="contamination", ref=ref,
            )  # fmt: skip
            _append(append_line, round_, finding, clock().date())
    return ref


def _annullable(round_: Round, item_id: str) -> bool:
    """An active test item not yet in the ledger (the ledger names each item once)."""
    active = {item.item_id for item in active_items(round_.items)}
    return item_id in active and item_id not in round_.annulled_item_ids


def _append(append_line: AppendLine, round_: Round, finding: Finding, decided_on: date) -> None:
    reason = {
        language: translate(
            language,
            f"md_contamination_reason_{finding.finding}",
            finding_id=finding.finding_id,
        )
        for language in TEXT_LANGUAGES
    }
    try:
        # Last in the transaction: a database error above leaves the ledger untouched.
        append_line(
            round_.path,
            item_id=finding.item_id,
            decided_on=decided_on,
            source="contamination",
            ref=finding.finding_id,
            reason=reason,
        )
    except InputError as error:
        raise ReviewInputError("md_error_ledger", item_id=finding.item_id, why=str(error)) from None
