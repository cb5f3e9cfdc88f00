"""The human-audit export: one record, written by the review app, read by the site.

`reportgen review export` writes it (`audits/<round_id>.json`); the next build shows it
on the round's human-audit page. Reviewers appear as R1, R2, ...: the site publishes
agreement, not who reviewed. Both sides use these models, so the file the app writes is
exactly what the page reads; a file that does not fit is refused with its key named.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, StrictBool, ValidationError

from reportgen.atomic import write_atomic
from reportgen.errors import InputError, OutputExistsError

AUDIT_FORMAT: Final = "human-audit/2"
# Earlier versions, still read: without the `agreement` block (its denominators,
# intervals, pairwise κ and agreement over time).
_LEGACY_FORMATS = ("human-audit/1", "estigmas-human-audit/1")


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Confusion(_Record):
    """Reviewer choices (rows) × automatic answers (columns), in the task's orders."""

    rows: tuple[str, ...]
    columns: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]


class ContestationCounts(_Record):
    received: int
    accepted: int
    rejected: int
    pending: int
    overdue: int


class Estimate(_Record):
    """A coefficient with its denominator and its bootstrap interval (None: undefined)."""

    value: float | None
    n: int  # what it was computed on: samples, judgments or pairable samples (see its field)
    low: float | None = None
    high: float | None = None


class PairKappa(_Record):
    """Cohen's κ between two reviewers, on the n samples both judged."""

    first: str
    second: str
    kappa: float | None
    n: int


class AgreementPoint(_Record):
    """One reviewer's share of judgments agreeing with automatic scoring, on one day (UTC)."""

    reviewer: str
    day: date
    agreement: float | None
    n: int


class Bootstrap(_Record):
    replicates: int
    seed: int
    level: float


class Agreement(_Record):
    """Every agreement figure with what it stands on.

    The consensus (the adjudicated choice, else the strict majority of reviewers) exists only
    where reviewers do not split or an administrator decided: `splits_left_out` samples
    without one are left out of `consensus_vs_automatic`; `judgments_vs_automatic` counts
    every judgment, splits included."""

    samples_judged: int
    consensus_vs_automatic: Estimate  # n: samples with a consensus
    splits_left_out: int
    consensus_adjudicated: int  # of those n, how many by an administrator's decision
    judgments_vs_automatic: Estimate  # n: judgments
    alpha_reviewers: Estimate  # n: samples with two or more judgments
    kappa_by_reviewer: dict[str, Estimate]  # n: that reviewer's judgments
    kappa_pairwise: tuple[PairKappa, ...]
    over_time: tuple[AgreementPoint, ...]
    bootstrap: Bootstrap


class AuditExport(_Record):
    """Agreement of reviewers with each other and with automatic scoring, for one round.

    Coefficients are None where they are undefined (no pairable data)."""

    format: Literal["human-audit/2", "human-audit/1", "estigmas-human-audit/1"] = AUDIT_FORMAT
    round_id: str
    generated_at: datetime
    batches: int
    batches_closed: int
    samples_judged: int
    judgments: int
    reviewers: int
    adjudicated: int
    kappa_majority_vs_parser: float | None
    alpha_reviewers: float | None
    kappa_by_reviewer: dict[str, float | None]  # pseudonym (R1, R2, ...) -> κ
    confusion: Confusion
    agreement_by_model: dict[str, float | None]
    contestations: ContestationCounts
    agreement: Agreement | None = None  # absent from the first version
    # True only in the demonstration's export (review_app.demo_audit): its judgments were
    # made by generated, simulated reviewers, not people. Written only when true, so that
    # an export of people's judgments is the same file as before this key existed.
    demonstration: StrictBool = False  # a string such as "no" is refused, not read as true


def read_audit_export(path: Path) -> AuditExport | None:
    """The export at `path`, or None when there is no such file."""
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: not a readable JSON audit export ({error})") from None
    if not isinstance(data, dict) or data.get("format") not in (AUDIT_FORMAT, *_LEGACY_FORMATS):
        raise InputError(f"{path}: key 'format' must be {AUDIT_FORMAT!r}")
    try:
        return AuditExport.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        raise InputError(
            f"{path}: key {key!r}: {first['msg']} ({error.error_count()} problem(s))"
        ) from None


def write_audit_export(export: AuditExport, path: Path, *, force: bool = False) -> None:
    """Write `export` to `path` atomically; refuse to replace a file unless `force`."""
    if path.exists() and not force:
        raise OutputExistsError(f"{path}: already exists (use --force to replace it)")
    path.parent.mkdir(parents=True, exist_ok=True)
    document = export.model_dump(mode="json")
    if not export.demonstration:
        del document["demonstration"]
    write_atomic(path, json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n")
