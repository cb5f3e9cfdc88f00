"""A multidomain round as the review app reads it while its human audit is under way.

The round spec's refusals 41 and 43 ask of a frozen archive what the review app is
still producing: every drawn response audited (audit.parquet, exported by the app) and
an `audit` ledger line for each invalidated item (written by the admin's action). Until
both are done the archive cannot pass `read_round`. The app therefore reads it, and
appends to its ledger, with these audit-in-progress problems tolerated (`tolerate` of
`read_round` and `append_annulment`); any other problem still refuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import cast

from reportgen.archive import LEDGER_FILE
from reportgen.errors import Problem
from reportgen.kinds.multidomain.model import NAME, Round
from reportgen.kinds.multidomain.schemas import AUDIT_FILE
from reportgen.kinds.rounds import append_annulment, read_round
from reportgen.model import Annulment, Source
from review_app.core.errors import ReviewInputError

# Refusal 43's two messages (rules/audit.py): a divergence without its line, a line
# without its divergence. Other ledger problems (an audit line for an mcq item...) refuse.
_REFUSAL_43 = ("expected an `audit` line", "audit line without a triggering response")


def audit_pending(problem: Problem) -> bool:
    """A problem the unfinished audit explains: audit.parquet's rows (refusals 41–42), or
    the ledger's `audit` lines against them (refusal 43)."""
    if problem.file.endswith(AUDIT_FILE):
        return True
    return problem.file.endswith(LEDGER_FILE) and any(
        words in problem.message for words in _REFUSAL_43
    )


def read_md_round(round_dir: Path, *, with_text: bool = True) -> Round:
    """The multidomain round at `round_dir`, verified except for the audit in progress."""
    round_ = read_round(round_dir, with_text=with_text, tolerate=audit_pending)
    if round_.manifest.kind != NAME:
        raise ReviewInputError("md_error_not_multidomain", round_id=round_.round_id)
    return cast(Round, round_)


def append_ledger_line(
    round_dir: Path,
    *,
    item_id: str,
    decided_on: date,
    source: Source,
    ref: str,
    reason: Mapping[str, str],
) -> Annulment:
    """Append one annulment to the round's ledger through the core's `append_annulment`
    (locked, chained, fsynced; the same item, source and ref again writes nothing), with
    the unfinished audit tolerated: the line appended may be the one a rule waits for."""
    return append_annulment(
        round_dir,
        item_id=item_id,
        decided_on=decided_on,
        source=source,
        ref=ref,
        reason=reason,
        tolerate=audit_pending,
    )
