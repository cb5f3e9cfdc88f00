"""`reportgen counterfactual`: the counterfactual kind's commands (`render`)."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.kinds._render_options import raw_dir_option, seed_option


@click.group()
def counterfactual() -> None:
    """Commands of the counterfactual audit battery (kind `counterfactual`).

    `render` expands a battery into the calls to make (the same as `reportgen
    render`, which does it for every kind); a team runs them against its own system
    with inspect_ai or any client, imports or fills in the answers, and `reportgen
    freeze` turns the filled raw round into a verified archive.
    """


@counterfactual.command()
@click.argument("templates_dir", type=click.Path(path_type=Path, file_okay=False, exists=True))
@raw_dir_option
@seed_option("Seed of each run's shuffled order (default: round.json generation.seed, else 0).")
def render(templates_dir: Path, raw_dir: Path, seed: int | None) -> None:
    """Expand the battery in TEMPLATES_DIR into the raw round --out: every template x
    variant x run to send, in an interleaved order (the same as `reportgen render`).

    \b
    TEMPLATES_DIR holds round.json (a draft: the common keys and the
    "counterfactual" block; freeze fills in collected_on, ended_on, languages,
    battery_sha256 and the required interpretations), models.csv (one row per
    system; evaluated_on may be empty), attributes.csv, groups.csv, variants.csv,
    templates.csv, variables.csv and, with a writing_style attribute, rewrites.csv.

    \b
    The raw round gets those files unchanged, items.parquet (one rendered
    prompt per template x variant, item id <template_id>--<variant_id>), and
    to_send.jsonl / to_send.csv: one row per item x run with its run_order,
    and the same calls as an inspect_ai dataset (inspect_dataset.jsonl) with
    its task file (inspect_task.py; a system's private system prompt is given
    with -T system_prompt_file=PATH). Each run is one pass over all items in a
    seeded shuffled order, so that the groups are collected side by side.

    \b
    Send the calls in run_order to each system (`reportgen import inspect LOG
    --into RAW_DIR` writes the responses from inspect_ai logs), or fill in:
      responses/<model_id>.jsonl (or .csv): to_send's rows with raw_text,
        called_at (YYYY-MM-DDThh:mm:ss[.fff]Z, UTC), latency_ms (or empty),
        system_prompt_sha256 and tools_sha256 as actually sent;
      extractions/<model_id>.jsonl (or .csv): item_id, run, variable_id,
        value (yes/no/na, an integer or na), input_text (the masked text a
        model extractor or judge saw; empty for code), input_sha256 optional;
    and, with a judged score variable, calibration.jsonl (or .csv):
      variable_id, model_id, item_id, run, human_score, reviewer, scored_on
      (input_sha256 and judge_score are taken from the judge's extraction).
    The review app collects it from the filled raw round:
      reportgen review sample RAW_DIR --task calibration --seed N
      reportgen review export RAW_DIR --output RAW_DIR
    Then: reportgen freeze RAW_DIR --out ROUND_DIR (named after the round id).
    """
    from reportgen.kinds.counterfactual.prepare import render_raw_round

    note = render_raw_round(templates_dir, raw_dir, seed=seed)
    click.echo(f"rendered {templates_dir} into {raw_dir} ({note})")
