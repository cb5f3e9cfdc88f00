"""`reportgen review export` and `export-judgments`: what leaves the review database."""

from __future__ import annotations

from pathlib import Path

import click

from review_app.cli.common import db_option, open_engine


@click.command()
@click.argument("round_dir", type=click.Path(path_type=Path))
@click.option(
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help=(
        "Where to write: the JSON file (default: audits/<round_id>.json, read by `reportgen "
        "build`); for a multidomain (counterfactual) round the folder of audit.parquet and "
        "calibration.parquet (calibration.parquet and mask_audit.parquet; their .jsonl "
        "forms for a raw round, e.g. --output RAW_DIR) (default: review-export/<round_id>/), "
        "to freeze with the round."
    ),
)
@click.option(
    "--reviewer-map",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help=(
        "Multidomain: CSV `account,judge_id` naming each review account's human reviewer "
        "in judges.csv (default: an account is the judge whose judge_id is its name)."
    ),
)
@click.option("--force", is_flag=True, help="Replace existing output files.")
@db_option
def export(
    round_dir: Path, output: Path | None, reviewer_map: Path | None, force: bool, db_url: str | None
) -> None:
    """Write the audit results (agreement, confusion, contestations) the site's page shows;
    for a multidomain round, the human scores (audit.parquet, calibration.parquet); for a
    counterfactual round, the hand scores of the judge's masked inputs (calibration.parquet;
    calibration.jsonl, the raw form freeze reads, for a raw round) and the mask audit's
    decisions (mask_audit.parquet; mask_audit.jsonl)."""
    from reportgen.kinds.rounds import read_round
    from review_app.cli.kinds import export_of_kind
    from review_app.rounds.export import audit_results, write_export

    done = export_of_kind(round_dir, output, reviewer_map, force, lambda: open_engine(db_url))
    if done is not None:
        click.echo(done)
        return
    round_id = read_round(round_dir, with_text=False).round_id
    results = audit_results(open_engine(db_url), round_id)
    target = output or Path("audits") / f"{round_id}.json"
    if target.is_dir():
        raise click.BadParameter(f"{target} is a folder; name the JSON file", param_hint="--output")
    write_export(results, target, force=force)
    click.echo(f"Audit results of round {round_id} written to {target}.")


@click.command("export-judgments")
@click.argument("round_dir", type=click.Path(path_type=Path))
@click.option(
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="The file to write: .csv, or .jsonl (JSON Lines). It unblinds the samples.",
)
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@db_option
def export_judgments(round_dir: Path, output: Path, force: bool, db_url: str | None) -> None:
    """Write every judgment of a round: pseudonymised reviewer, time, sample, answer,
    note and adjudication, one row each."""
    from reportgen.kinds.rounds import read_round
    from review_app.rounds.judgment_export import export_format, judgment_rows, write_judgments

    export_format(output)  # a wrong suffix fails before any work
    round_id = read_round(round_dir, with_text=False).round_id
    rows = judgment_rows(open_engine(db_url), round_id)
    write_judgments(rows, output, force=force)
    noun = "judgment" if len(rows) == 1 else "judgments"
    click.echo(f"{len(rows)} {noun} of round {round_id} written to {output}.")
