"""`reportgen import`: a client's answers into a raw round (inspect_ai logs, JSON lines)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

_INTO = click.option(
    "--into",
    "raw_dir",
    required=True,
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="The raw round `reportgen render` wrote.",
)
_LOGS = click.argument(
    "logs", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True)
)


def _row_of_logs_model(flag: str, column: str) -> Callable[[F], F]:
    """The option naming the row (`column`, e.g. "models.csv model_id") of the logs' model."""
    return click.option(
        flag,
        default=None,
        help=f"The {column} of the logs' model (default: the row whose api_identifier is "
        "the log's model, with or without its provider prefix).",
    )


def _imported(logs: tuple[Path, ...], raw_dir: Path, note: str) -> None:
    click.echo(f"imported {len(logs)} log(s) into {raw_dir} ({note})")


def _refuse_other_kind(raw_dir: Path, kind: str, refusal: str) -> None:
    """InputError `refusal` when the raw round at `raw_dir` is not of `kind`."""
    from reportgen.errors import InputError
    from reportgen.kinds.rounds import kind_of_round

    found = kind_of_round(raw_dir).name
    if found != kind:
        raise InputError(f"{raw_dir}: the {found} kind has no {refusal}")


@click.group(name="import")
def import_answers() -> None:
    """Import the answers of the round's calls into its raw round.

    Each answer is matched to a call of RAW_DIR/to_send.jsonl by item id and run. An
    answer that matches no call, a call without an answer, two answers to one call and
    a model that is no row of models.csv are refused, one line each, and nothing is
    written. The answers are written in the round's kind's raw format
    (responses/<model_id>.*), never over existing files.
    """


@import_answers.command(name="inspect")
@_LOGS
@_INTO
@_row_of_logs_model("--model-id", "models.csv model_id")
def inspect_logs(logs: tuple[Path, ...], raw_dir: Path, model_id: str | None) -> None:
    """Import inspect_ai eval LOGS (of the task `reportgen render` wrote) into --into.

    Needs the optional inspect extra: pip install 'reportgen[inspect]'. A log of
    another task is refused. From each sample: the output text, the model's name,
    the time of the call and latency, tokens and cost where the log has them, and
    the status (ok, refusal, error, timeout) from the log's own fields.
    """
    from reportgen.archive import Problems, read_manifest_data
    from reportgen.collect.collected import import_answers as write_answers
    from reportgen.collect.inspect_logs import read_logs
    from reportgen.kinds.rounds import kind_of_round

    problems = Problems()
    data = read_manifest_data(raw_dir, problems)
    problems.raise_if_any(str(raw_dir))
    round_id = str(data.get("round_id")) if isinstance(data, dict) else ""
    answers = read_logs(list(logs), raw_dir, round_id, model_id=model_id)
    _imported(logs, raw_dir, write_answers(raw_dir, answers, kind_of_round(raw_dir)))


@import_answers.command(name="jsonl")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@_INTO
def plain(file: Path, raw_dir: Path) -> None:
    """Import the answers in FILE (JSON lines, or CSV when it ends in .csv) into --into.

    \b
    Columns (docs/running-a-round.md):
      model_id, item_id, raw_text   required
      run                           an integer (1 when absent)
      status                        ok, refusal, error or timeout (ok when absent)
      called_at                     YYYY-MM-DDThh:mm:ss[.fff]Z, UTC
      latency_ms, input_tokens, output_tokens, cost, model_name,
      system_prompt_sha256, tools_sha256,
      prompt_sha256, context_sha256         optional
    Other columns (to_send's) are read past.
    """
    from reportgen.collect.collected import import_answers as write_answers
    from reportgen.collect.plain import read_plain
    from reportgen.kinds.rounds import kind_of_round

    note = write_answers(raw_dir, read_plain(file), kind_of_round(raw_dir))
    click.echo(f"imported {file} into {raw_dir} ({note})")


@import_answers.command(name="jury")
@_LOGS
@_INTO
@_row_of_logs_model("--judge-id", "judges.csv judge_id")
def jury(logs: tuple[Path, ...], raw_dir: Path, judge_id: str | None) -> None:
    """Import a multidomain round's jury scores from inspect_ai scorer LOGS into --into.

    One log per judge of judges.csv; each sample scores one response (its item_id,
    model_id and run in the sample's metadata), one integer of jury.scale per
    criterion of the item's rubric: a scorer whose value is a dictionary
    {criterion_id: score}, or one scorer per criterion named by its criterion_id.
    A juror's scores go to jury.parquet (position from jury.presentation_seed), an
    adjudicator's to adjudications.parquet. Needs the optional inspect extra.
    """
    from reportgen.kinds.multidomain.jury_logs import import_jury

    _refuse_other_kind(raw_dir, "multidomain", "jury (a multidomain round has one)")
    _imported(logs, raw_dir, import_jury(list(logs), raw_dir, judge_id=judge_id))


@import_answers.command(name="extractions")
@_LOGS
@_INTO
@click.option(
    "--variable-id",
    default=None,
    help="The variable the logs extract (default: each sample's variable_id metadata).",
)
def extractions(logs: tuple[Path, ...], raw_dir: Path, variable_id: str | None) -> None:
    """Import a counterfactual round's extractions from inspect_ai LOGS into --into.

    The outputs of a model extractor or judge run with inspect_ai over the masked
    answers: each sample's metadata carries the model_id, item_id and run it read
    (and its variable_id); its input is the masked text seen; its value is its one
    score, else its output text. Added to extractions/<model_id>.jsonl. Needs the
    optional inspect extra.
    """
    from reportgen.kinds.counterfactual.extraction_logs import import_extractions

    _refuse_other_kind(raw_dir, "counterfactual", "extractions (a counterfactual has)")
    _imported(logs, raw_dir, import_extractions(list(logs), raw_dir, variable_id=variable_id))
