"""The counterfactual kind's review part (`reportgen.kinds.review_part("counterfactual")`):
its `review sample --task calibration|extraction` (the judge's calibration and people's
extraction check), its export (calibration, mask audit, extraction checks) and its
`review mask-audit` command.

The modules that do the work are imported on first use, so that the review CLI's
`--help` loads none of them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from sqlalchemy import Engine

from reportgen.kinds._review import KindPage, KindReview, OpenEngine, TaskShape
from reportgen.kinds.review_task import COUNT_SHAPE, SCALE_SHAPE

_PAGES = "reportgen.kinds.counterfactual.review.pages"


def sample(
    round_dir: Path,
    task_type: str | None,
    seed: int | None,
    reviewers: tuple[str, ...],
    dry_run: bool,
    open_engine: OpenEngine,
) -> str | None:
    """`sample --task calibration`: the blind sample of judged answers, stratified by
    system and group; `--task extraction`: people's check of the binary extractions and
    the model-extracted counts, stratified by system and extracted value
    (review.extraction); from an archive or a filled raw round (review.round). The CSV
    of a dry run is printed here; a stored batch returns the line to print."""
    from reportgen.kinds.counterfactual.review.extraction import (
        create_extraction_batch,
        draw_extraction_check,
    )
    from reportgen.kinds.counterfactual.review.round import read_cf_round
    from reportgen.kinds.counterfactual.review.sampling import (
        DRY_RUN_HEADER,
        create_scale_batch,
        drawn_rows,
        dry_run_csv,
    )

    if task_type not in ("calibration", "extraction"):
        raise click.BadParameter(
            "a counterfactual round's tasks are calibration and extraction", param_hint="--task"
        )
    if seed is None:
        raise click.BadParameter("a seed is required (the draw and its order)", param_hint="--seed")
    round_ = read_cf_round(round_dir, with_text=True)
    extraction = task_type == "extraction"
    if dry_run:
        if extraction:
            from review_app.core.spreadsheet import csv_text

            rows = drawn_rows(draw_extraction_check(round_, seed))
            click.echo(csv_text(DRY_RUN_HEADER, rows), nl=False)
        else:
            click.echo(dry_run_csv(round_, seed), nl=False)
        return None
    from review_app.cli.batches import sample_summary

    engine = open_engine()
    create = create_extraction_batch if extraction else create_scale_batch
    batch_id = create(engine, round_, seed=seed, reviewers=list(reviewers) or None)
    return sample_summary(engine, batch_id)


def export(
    round_dir: Path,
    output: Path | None,
    reviewer_map: Path | None,
    force: bool,
    open_engine: OpenEngine,
) -> str:
    """`export`: the hand scores, to freeze with the round: calibration.parquet of an
    archive, calibration.jsonl of a raw round (`--reviewer-map` is not used)."""
    from reportgen.kinds.counterfactual.review.export import export_calibration
    from reportgen.kinds.counterfactual.review.round import read_cf_round

    round_ = read_cf_round(round_dir, with_text=False)
    return export_calibration(open_engine(), round_, output, force=force)


def commands(
    db_option: Callable[[Callable[..., Any]], Callable[..., Any]],
    open_engine: Callable[[str | None], Engine],
) -> tuple[click.Command, ...]:
    """`review mask-audit`, with the review group's `--db` option and engine."""

    @click.command("mask-audit")
    @click.argument("round_id")
    @db_option
    def mask_audit(round_id: str, db_url: str | None) -> None:
        """List a counterfactual round's flagged masked inputs with the administrator's
        decision (held, leaked, or undecided) and the number of judge scores voided. The
        decisions are taken on the app's counterfactual page; `reportgen review export`
        writes them into mask_audit.parquet (mask_audit.jsonl for a raw round) and refuses
        while a flag is undecided."""
        from reportgen.kinds.counterfactual.review.mask_audit import mask_audit_status

        with open_engine(db_url).connect() as connection:
            status = mask_audit_status(connection, round_id)
        for line in _mask_audit_lines(round_id, status):
            click.echo(line)

    return (mask_audit,)


def _mask_audit_lines(round_id: str, status: list[tuple[str, str, str | None]]) -> list[str]:
    from reportgen.kinds.counterfactual.review.mask_audit import LEAKED

    if not status:
        return [f"Round {round_id}: no reviewer flagged a masked input."]
    lines = [
        f"  {code}  {unit_key}  {decision or 'undecided'}" for code, unit_key, decision in status
    ]
    undecided = sum(1 for *_, decision in status if decision is None)
    voided = sum(1 for *_, decision in status if decision == LEAKED)
    return [
        *lines,
        f"Round {round_id}: {len(status)} flagged, {undecided} undecided, "
        f"{voided} judge score(s) voided (mask leaked).",
    ]


REVIEW = KindReview(
    sample=sample,
    tasks_phrase="counterfactual rounds their calibration",
    export=export,
    commands=commands,
    pages=(KindPage("cf_page_calibration", f"{_PAGES}.admin:cf_calibration_page"),),
    # The reviewer's views of its tasks' shapes: the calibration's one score and mask
    # flag, and a count of the extraction check typed as a number.
    shapes=(
        TaskShape(SCALE_SHAPE, f"{_PAGES}.scale:scale_view", "rubric_shortcuts_help"),
        TaskShape(COUNT_SHAPE, f"{_PAGES}.count:count_view", "cf_count_shortcuts_help"),
    ),
)
