"""The multidomain kind's review part (`reportgen.kinds.review_part("multidomain")`): its
`review sample --task audit|calibration`, its export (audit.parquet, calibration.parquet),
the export frozen into the archive, and its own contestation dates and ledger.

What does the work is imported when a command runs (the review CLI's `--help` reads
this part, never those modules)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Engine

from reportgen.kinds._review import (
    ContestRules,
    ExportRequest,
    KindPage,
    KindReview,
    SampleRequest,
    lazy,
)
from reportgen.kinds.multidomain.review import AUDIT, CALIBRATION
from reportgen.model import Annulment

_PAGES = "reportgen.kinds.multidomain.review.pages"


def sample(request: SampleRequest) -> str | None:
    """`sample --task audit|calibration` of a multidomain round: the spec's sample, so the
    seed orders it only (a dry run needs none)."""
    from reportgen.kinds.multidomain.review.round import read_md_round
    from reportgen.kinds.multidomain.review.sampling import create_rubric_batch, dry_run_csv
    from review_app.cli.batches import sample_own_task

    task = request.task_type
    return sample_own_task(
        request,
        lambda round_dir: read_md_round(round_dir, with_text=True),
        lambda round_, seed: dry_run_csv(round_, task),
        lambda engine, round_, seed, reviewers: create_rubric_batch(
            engine, round_, task_type=task, seed=seed, reviewers=reviewers
        ),
        seed_reason="the order reviewers see",
        dry_run_needs_seed=False,
    )


def export(request: ExportRequest) -> str:
    """`export`: the human scores (audit.parquet, calibration.parquet)."""
    from reportgen.kinds.multidomain.review.export import export_round
    from reportgen.kinds.multidomain.review.round import read_md_round

    # Read as the app reads it mid-audit: this export is what completes it.
    round_ = read_md_round(request.round_dir, with_text=False)
    return export_round(
        request.open_engine(), round_, request.output, request.reviewer_map, force=request.force
    )


def freeze_export(engine: Engine, export_dir: Path, round_dir: Path) -> str:
    """`freeze-export`: audit.parquet and calibration.parquet into the archive."""
    from reportgen.kinds.multidomain.review.freeze import freeze_export as freeze

    frozen = freeze(engine, export_dir, round_dir)
    return (
        f"Round {frozen.round_id}: {', '.join(frozen.tables)} frozen into {round_dir}; "
        f"SHA256SUMS {frozen.sums_sha256[:12]}… recorded."
    )


def _reply_days(round_dir: Path) -> int:
    from reportgen.kinds.multidomain.review.contest import contest_terms

    return contest_terms(round_dir).reply_days


def _annulments(round_dir: Path) -> Sequence[Annulment]:
    from reportgen.kinds.multidomain.review.round import read_md_round

    # Read as the app reads it while the audit is under way.
    return read_md_round(round_dir, with_text=False).annulments


REVIEW = KindReview(
    sample=sample,
    tasks=(AUDIT, CALIBRATION),
    export=export,
    freeze_export=freeze_export,
    contest=ContestRules(
        window=lazy("reportgen.kinds.multidomain.review.contest:contest_window"),
        reply_days=_reply_days,
        annulments=_annulments,
        append=lazy("reportgen.kinds.multidomain.review.round:append_ledger_line"),
    ),
    tables="reportgen.kinds.multidomain.review.tables",
    # The administrator's pages (review.pages): the Art. 26 audit, the Art. 22
    # calibration, the Art. 33-34 contamination queue.
    pages=(
        KindPage("md_page_audit", f"{_PAGES}:md_audit_page"),
        KindPage("md_page_calibration", f"{_PAGES}:md_calibration_page"),
        KindPage("md_page_contamination", f"{_PAGES}:md_contamination_page"),
    ),
)
