"""`reportgen add-model`: add one model's outputs to a continuous round."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from reportgen.cli.params import SLUG_TYPE, TRIMMED_TEXT


@click.command("add-model")
@click.argument("round_dir", type=click.Path(path_type=Path))
@click.argument("responses_file", metavar="RESPONSES.parquet", type=click.Path(path_type=Path))
@click.option(
    "--model-id", required=True, type=SLUG_TYPE, help="Slug of the new model, e.g. sabia-4."
)
@click.option("--display-name", required=True, type=TRIMMED_TEXT, help="Name shown on the site.")
@click.option(
    "--provider",
    required=True,
    type=TRIMMED_TEXT,
    help="Provider; models of one provider share a colour.",
)
@click.option(
    "--api-identifier",
    required=True,
    type=TRIMMED_TEXT,
    help="Identifier used to call the model's API.",
)
@click.option("--snapshot", default="", help="Build or snapshot the provider reported, if any.")
@click.option(
    "--evaluated-on",
    required=True,
    type=click.DateTime(formats=["%Y-%m-%d"]),
    metavar="YYYY-MM-DD",
    help="Date the outputs were collected (YYYY-MM-DD).",
)
def add_model(
    round_dir: Path,
    responses_file: Path,
    model_id: str,
    display_name: str,
    provider: str,
    api_identifier: str,
    snapshot: str,
    evaluated_on: datetime,
) -> None:
    """Add a model to the continuous round ROUND_DIR.

    RESPONSES.parquet holds the columns item_id, model_id, raw_text and optionally
    latency_ms (no label), one row for every item of the round. The archive is
    verified first; the outputs are labelled with the deterministic parser; then
    responses/<model-id>.parquet, one models.csv line and the matching SHA256SUMS
    lines are added. Nothing else changes, and nothing changes on error.
    """
    from reportgen.kinds.rounds import kind_of_round
    from reportgen.model import Model

    model = Model(
        model_id=model_id,
        display_name=display_name,
        provider=provider,
        api_identifier=api_identifier,
        snapshot=snapshot,
        evaluated_on=evaluated_on.date(),
    )
    kind_of_round(round_dir).add_model(round_dir, responses_file, model)
    click.echo(f"added {model_id} to {round_dir}")
