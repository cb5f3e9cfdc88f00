"""`reportgen stats`: every uncertainty and test of a round, as one JSON results object."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from reportgen.archive import MAX_BOOTSTRAP_REPLICATES, MIN_PUBLICATION_REPLICATES
from reportgen.errors import InputError


@contextmanager
def _progress_bar(total: int) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on a terminal (stderr); nothing at all otherwise."""
    from rich.progress import Progress

    with Progress(transient=True, disable=total == 0 or not sys.stderr.isatty()) as progress:
        task = progress.add_task("bootstrap", total=total)
        yield lambda done: progress.advance(task, done)


@click.command()
@click.argument("round_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="File that receives the results object as JSON (default: standard output).",
)
@click.option(
    "--replicates",
    type=click.IntRange(min=1, max=MAX_BOOTSTRAP_REPLICATES),
    default=None,
    help="Bootstrap replicates (default: the round manifest's bootstrap.replicates);"
    f" at least {MIN_PUBLICATION_REPLICATES:,} unless --draft.",
)
@click.option(
    "--draft",
    is_flag=True,
    help=f"Allow fewer than {MIN_PUBLICATION_REPLICATES:,} replicates (a quick look, not for"
    " publication).",
)
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Results cache folder (default: $REPORTGEN_CACHE_DIR, else ~/.cache/reportgen).",
)
@click.option(
    "--no-cache", is_flag=True, help="Compute afresh: neither read nor write the results cache."
)
def stats(
    round_dir: Path,
    out_path: Path | None,
    replicates: int | None,
    cache_dir: Path | None,
    no_cache: bool,
    draft: bool,
) -> None:
    """Compute every interval and test of a round archive and write them as JSON.

    Runs the crossed bootstrap over stigmas and structures (intervals for failure, index,
    bias, omission and correct decision; rank intervals; index differences for every pair of
    models, or past 50 models for the neighbours in the ranking), the
    leave-one-out re-rankings, the chi-square, McNemar and Benjamini-Hochberg diagnostics,
    the group fairness gaps and the contrastive language study. Results are cached on disk,
    keyed by the archive's checksums, its annulment ledger, the package version and a hash
    of the code that computes the statistics.
    """
    from reportgen.kinds import get_kind
    from reportgen.kinds.rounds import read_round
    from reportgen.results import write_json

    if replicates is not None and replicates < MIN_PUBLICATION_REPLICATES and not draft:
        raise click.BadParameter(
            f"{replicates:,} replicates are too few for stable 95% interval endpoints;"
            f" use at least {MIN_PUBLICATION_REPLICATES:,}, or add --draft for a quick look",
            param_hint="'--replicates'",
        )
    round_ = read_round(round_dir, with_text=True)
    kind = get_kind(round_.manifest.kind)
    with _progress_bar(kind.results_steps(round_, replicates)) as on_progress:
        data = kind.results_json(
            round_,
            replicates=replicates,
            cache_dir=cache_dir,
            use_cache=not no_cache,
            advance=on_progress,
        )
    if out_path is None:
        click.echo(json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False))
    else:
        try:
            write_json(out_path, data)
        except OSError as error:
            raise InputError(f"{out_path}: cannot write the results: {error.strerror}") from error
        click.echo(f"wrote {out_path}", err=True)
