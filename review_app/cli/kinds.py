"""`reportgen review sample` and `export` of the kinds whose review has tasks of its own:
multidomain (review_sampling, review_app.rubric_export) and counterfactual (the judge
calibration: review_app.cf_sampling, review_app.cf_export)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
from sqlalchemy import Engine


def sample_counterfactual(
    round_dir: Path,
    task_type: str | None,
    seed: int | None,
    reviewers: tuple[str, ...],
    dry_run: bool,
    open_engine: Callable[[], Engine],
) -> str | None:
    """`sample --task calibration`: the blind sample of judged answers, stratified by
    system and group; `--task extraction`: people's check of the binary extractions and
    the model-extracted counts,
    stratified by system and extracted value (review_app.cf_extraction); from an archive
    or a filled raw round (review_app.cf_round). The CSV of a dry run is printed here; a
    stored batch returns the line to print."""
    from review_app.cf_extraction import create_extraction_batch, draw_extraction_check
    from review_app.cf_round import read_cf_round
    from review_app.cf_sampling import create_scale_batch, drawn_rows, dry_run_csv

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
            from review_app.cf_sampling import DRY_RUN_HEADER
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


def export_counterfactual(
    round_dir: Path, output: Path | None, force: bool, open_engine: Callable[[], Engine]
) -> str:
    """`export`: the hand scores, to freeze with the round: calibration.parquet of an
    archive, calibration.jsonl of a raw round."""
    from review_app.cf_export import export_calibration
    from review_app.cf_round import read_cf_round

    round_ = read_cf_round(round_dir, with_text=False)
    return export_calibration(open_engine(), round_, output, force=force)


def sample_of_kind(
    round_dir: Path,
    task_type: str | None,
    seed: int | None,
    reviewers: tuple[str, ...],
    dry_run: bool,
    open_engine: Callable[[], Engine],
) -> bool:
    """`sample` of a multidomain or counterfactual round, done here (True); False for a
    kind whose sample is the plain stratified draw (which has no --task)."""
    from reportgen.kinds.rounds import kind_of_round
    from review_app.cli.sampling import sample_multidomain

    kind = kind_of_round(round_dir).name
    if kind not in ("multidomain", "counterfactual"):
        if task_type is not None:
            raise click.BadParameter(
                "only multidomain rounds have tasks, and counterfactual rounds their calibration",
                param_hint="--task",
            )
        return False
    sample_kind = sample_multidomain if kind == "multidomain" else sample_counterfactual
    batch = sample_kind(round_dir, task_type, seed, reviewers, dry_run, open_engine)
    if batch is not None:
        click.echo(batch)
    return True


def export_of_kind(
    round_dir: Path,
    output: Path | None,
    reviewer_map: Path | None,
    force: bool,
    open_engine: Callable[[], Engine],
) -> str | None:
    """`export` of a multidomain round (audit.parquet, calibration.parquet) or a
    counterfactual one (calibration.parquet): what to tell the user; None for another kind."""
    from reportgen.kinds.rounds import kind_of_round

    kind = kind_of_round(round_dir).name
    if kind == "counterfactual":
        return export_counterfactual(round_dir, output, force, open_engine)
    if kind != "multidomain":
        return None
    from review_app.md_round import read_md_round
    from review_app.rubric_export import export_round

    # Read as the app reads it mid-audit: this export is what completes it.
    round_ = read_md_round(round_dir, with_text=False)
    return export_round(open_engine(), round_, output, reviewer_map, force=force)
