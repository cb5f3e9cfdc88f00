"""The counterfactual kind's review part (`reportgen.kinds.review_part("counterfactual")`):
its `review sample --task calibration|extraction` (the judge's calibration and people's
extraction check), its export (calibration, mask audit, extraction checks) and its
`review mask-audit` command.

Its `sample`, `export` and `mask-audit` import what does the work when they run: the
review CLI's `--help` reads this part and loads none of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click
from sqlalchemy import Engine

from reportgen.kinds._review import (
    ExportRequest,
    KindPage,
    KindReview,
    SampleRequest,
    TaskShape,
)
from reportgen.kinds.counterfactual.review import CALIBRATION, EXTRACTION
from reportgen.kinds.review_task import COUNT_SHAPE, SCALE_SHAPE

if TYPE_CHECKING:
    from reportgen.kinds.counterfactual.model import Round

_PAGES = "reportgen.kinds.counterfactual.review.pages"


def sample(request: SampleRequest) -> str | None:
    """`sample --task calibration`: the blind sample of judged answers, stratified by
    system and group; `--task extraction`: people's check of the binary extractions and
    the model-extracted counts, stratified by system and extracted value
    (review.extraction); from an archive or a filled raw round (review.round)."""
    from reportgen.kinds.counterfactual.review import extraction, sampling
    from reportgen.kinds.counterfactual.review.round import read_cf_round
    from review_app.cli.batches import sample_own_task
    from review_app.core.spreadsheet import csv_text

    def csv_of(round_: Round, seed: int | None) -> str:
        assert seed is not None  # refused before: the draw needs it
        if request.task_type == EXTRACTION:
            drawn = sampling.drawn_rows(extraction.draw_extraction_check(round_, seed))
            return csv_text(sampling.DRY_RUN_HEADER, drawn)
        return sampling.dry_run_csv(round_, seed)

    create = (
        extraction.create_extraction_batch
        if request.task_type == EXTRACTION
        else sampling.create_scale_batch
    )
    return sample_own_task(
        request,
        lambda round_dir: read_cf_round(round_dir, with_text=True),
        csv_of,
        lambda engine, round_, seed, reviewers: create(
            engine, round_, seed=seed, reviewers=reviewers
        ),
        seed_reason="the draw and its order",
    )


def export(request: ExportRequest) -> str:
    """`export`: the hand scores, to freeze with the round: calibration.parquet of an
    archive, calibration.jsonl of a raw round (`--reviewer-map` is not used)."""
    from reportgen.kinds.counterfactual.review.export import export_calibration
    from reportgen.kinds.counterfactual.review.round import read_cf_round

    round_ = read_cf_round(request.round_dir, with_text=False)
    return export_calibration(request.open_engine(), round_, request.output, force=request.force)


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
    tasks=(CALIBRATION, EXTRACTION),
    export=export,
    commands=commands,
    tables="reportgen.kinds.counterfactual.review.tables",
    pages=(KindPage("cf_page_calibration", f"{_PAGES}.admin:cf_calibration_page"),),
    # The reviewer's views of its tasks' shapes: the calibration's one score and mask
    # flag, and a count of the extraction check typed as a number.
    shapes=(
        TaskShape(SCALE_SHAPE, f"{_PAGES}.scale:scale_view", "rubric_shortcuts_help"),
        TaskShape(COUNT_SHAPE, f"{_PAGES}.count:count_view", "cf_count_shortcuts_help"),
    ),
)
