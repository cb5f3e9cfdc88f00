"""The multidomain kind's review part (`reportgen.kinds.review_part("multidomain")`): its
`review sample --task audit|calibration`, its export (audit.parquet, calibration.parquet),
the export frozen into the archive, and its own contestation dates and ledger.

The modules that do the work are imported on first use, so that the review CLI's
`--help` loads none of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from pathlib import Path

import click
from sqlalchemy import Engine

from reportgen.kinds._review import ContestRules, KindPage, KindReview, OpenEngine
from reportgen.model import Annulment, Source

_PAGES = "reportgen.kinds.multidomain.review.pages"


def sample(
    round_dir: Path,
    task_type: str | None,
    seed: int | None,
    reviewers: tuple[str, ...],
    dry_run: bool,
    open_engine: OpenEngine,
) -> str | None:
    """`sample --task` of a multidomain round: the CSV (dry run) is printed here; a
    stored batch returns the line to print."""
    from reportgen.kinds.multidomain.review.round import read_md_round
    from reportgen.kinds.multidomain.review.sampling import create_rubric_batch, dry_run_csv

    if task_type not in ("audit", "calibration"):
        raise click.BadParameter(
            "a multidomain round needs audit or calibration", param_hint="--task"
        )
    round_ = read_md_round(round_dir, with_text=True)
    if dry_run:
        click.echo(dry_run_csv(round_, task_type), nl=False)
        return None
    if seed is None:
        raise click.BadParameter(
            "a seed is required (the order reviewers see)", param_hint="--seed"
        )
    from review_app.cli.batches import sample_summary

    engine = open_engine()
    batch_id = create_rubric_batch(
        engine, round_, task_type=task_type, seed=seed, reviewers=list(reviewers) or None
    )
    return sample_summary(engine, batch_id)


def export(
    round_dir: Path,
    output: Path | None,
    reviewer_map: Path | None,
    force: bool,
    open_engine: OpenEngine,
) -> str:
    """`export`: the human scores (audit.parquet, calibration.parquet)."""
    from reportgen.kinds.multidomain.review.export import export_round
    from reportgen.kinds.multidomain.review.round import read_md_round

    # Read as the app reads it mid-audit: this export is what completes it.
    round_ = read_md_round(round_dir, with_text=False)
    return export_round(open_engine(), round_, output, reviewer_map, force=force)


def freeze_export(engine: Engine, export_dir: Path, round_dir: Path) -> str:
    """`freeze-export`: audit.parquet and calibration.parquet into the archive."""
    from reportgen.kinds.multidomain.review.freeze import freeze_export as freeze

    frozen = freeze(engine, export_dir, round_dir)
    return (
        f"Round {frozen.round_id}: {', '.join(frozen.tables)} frozen into {round_dir}; "
        f"SHA256SUMS {frozen.sums_sha256[:12]}… recorded."
    )


def _window(
    round_dir: Path, round_id: str, item_id: str, published: datetime | None
) -> tuple[datetime, datetime]:
    from reportgen.kinds.multidomain.review.contest import contest_window

    return contest_window(round_dir, round_id, item_id, published)


def _reply_days(round_dir: Path) -> int:
    from reportgen.kinds.multidomain.review.contest import contest_terms

    return contest_terms(round_dir).reply_days


def _annulments(round_dir: Path) -> Sequence[Annulment]:
    from reportgen.kinds.multidomain.review.round import read_md_round

    # Read as the app reads it while the audit is under way.
    return read_md_round(round_dir, with_text=False).annulments


def _append(
    round_dir: Path,
    *,
    item_id: str,
    decided_on: date,
    source: Source,
    ref: str,
    reason: Mapping[str, str],
) -> object:
    from reportgen.kinds.multidomain.review.round import append_ledger_line

    return append_ledger_line(
        round_dir, item_id=item_id, decided_on=decided_on, source=source, ref=ref, reason=reason
    )


REVIEW = KindReview(
    sample=sample,
    tasks_phrase="multidomain rounds have tasks",
    export=export,
    freeze_export=freeze_export,
    contest=ContestRules(
        window=_window, reply_days=_reply_days, annulments=_annulments, append=_append
    ),
    # The administrator's pages (review.pages): the Art. 26 audit, the Art. 22
    # calibration, the Art. 33-34 contamination queue.
    pages=(
        KindPage("md_page_audit", f"{_PAGES}:md_audit_page"),
        KindPage("md_page_calibration", f"{_PAGES}:md_calibration_page"),
        KindPage("md_page_contamination", f"{_PAGES}:md_contamination_page"),
    ),
)
