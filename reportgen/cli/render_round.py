"""`reportgen render`: a kind's draft folder into the raw round of the calls to send."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.kinds._render_options import raw_dir_option, seed_option


@click.command()
@click.argument("draft_dir", type=click.Path(path_type=Path, file_okay=False, exists=True))
@raw_dir_option
@seed_option(
    "Seed of the runs' shuffled order, for a kind of several runs "
    "(default: round.json generation.seed, else 0)."
)
def render(draft_dir: Path, raw_dir: Path, seed: int | None) -> None:
    """Write the calls to send of the round drafted in DRAFT_DIR into the raw round --out.

    \b
    The raw round gets the draft's files and:
      to_send.jsonl / to_send.csv   every item x run to send, in run_order
      inspect_dataset.jsonl         the same as an inspect_ai dataset (one
                                    sample per item x run; item_id, run and
                                    language in its metadata)
      inspect_task.py               an inspect_ai task that sends them with the
                                    round's temperature, max tokens, seed and
                                    system instruction

    \b
    What the draft holds depends on the kind (round.json's "kind"):
      estigmas        round.json, models.csv, stigmas.csv, structures.csv and the
                      instrument's items.parquet (one run, in the items' order)
      counterfactual  round.json, models.csv and the battery CSVs (see
                      `reportgen counterfactual render --help`)
      multidomain     round.json, models.csv and the bank's items.parquet
                      (test items in their Art. 21 order, once per run)

    \b
    Then, with inspect_ai:
      inspect eval RAW_DIR/inspect_task.py --model PROVIDER/MODEL
      reportgen import inspect LOG --into RAW_DIR
    or with any other client, the answers as JSON lines or CSV:
      reportgen import jsonl FILE --into RAW_DIR
    and: reportgen freeze RAW_DIR --out ROUND_DIR.  See docs/running-a-round.md.
    """
    from reportgen.kinds.rounds import kind_of_round

    note = kind_of_round(draft_dir).render_draft(draft_dir, raw_dir, seed=seed)
    click.echo(f"rendered {draft_dir} into {raw_dir} ({note})")
