"""`reportgen build`: the bilingual companion site from the round archives."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click
from rich.console import Console

import reportgen
from reportgen.cli.params import path_option

_REPO_ROOT = Path(reportgen.__file__).resolve().parent.parent


def default_path(name: str) -> Path:
    """`name` in the working directory, else beside the package (a source checkout)."""
    here = Path(name)
    return here if here.exists() else _REPO_ROOT / name


@click.command(name="build")
@click.argument("round_dirs", nargs=-1, type=click.Path(path_type=Path, file_okay=False))
@path_option(
    "--out",
    "out_dir",
    default=Path("site"),
    help="Directory the site is written to (replaced atomically).",
)
@path_option(
    "--rounds-dir",
    help="Where to look for archives when no ROUND_DIR is named [default: rounds].",
)
@path_option(
    "--config",
    "config_path",
    help="The article's metadata file [default: site.yml].",
)
@path_option(
    "--templates",
    "theme_dir",
    help="The theme overrides folder (main.html, assets/) [default: templates/overrides].",
)
@path_option(
    "--cache-dir",
    help="Cache of statistical results [default: $REPORTGEN_CACHE_DIR or ~/.cache/reportgen].",
)
@click.option(
    "--strict",
    is_flag=True,
    help="The publication build: refuse to build while site.yml still holds a value tagged"
    " !placeholder, naming each one.",
)
@click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="The date the site speaks for (YYYY-MM-DD): it decides embargoes, provisional"
    " notices and which ledger decisions a multidomain round shows and applies (those"
    " taken by then) [default: the date of $SOURCE_DATE_EPOCH, else today (UTC)].",
)
@click.option(
    "--draft",
    is_flag=True,
    help="Build rounds whose bootstrap has fewer than 1,000 replicates (their pages say so).",
)
def build(
    round_dirs: tuple[Path, ...],
    out_dir: Path,
    rounds_dir: Path | None,
    config_path: Path | None,
    theme_dir: Path | None,
    cache_dir: Path | None,
    strict: bool,
    as_of: datetime | None,
    draft: bool,
) -> None:
    """Build the companion site (pt-BR at the root, English under /en/).

    With no ROUND_DIR, every archive under rounds/ is built. A failed build leaves
    the previous site untouched. Without --strict, metadata still tagged !placeholder
    in site.yml is left off the pages, which then carry a draft notice.
    """  # fmt: skip
    from reportgen.build import build_site, find_rounds

    console = Console(stderr=True)
    chosen = list(round_dirs) or find_rounds(rounds_dir or default_path("rounds"))
    if not draft:
        _refuse_draft_rounds(chosen)
    report = build_site(
        chosen,
        out_dir,
        config_path=config_path or default_path("site.yml"),
        theme_dir=theme_dir or default_path("templates/overrides"),
        cache_dir=cache_dir,
        strict=strict,
        as_of=as_of.date() if as_of is not None else None,
        progress=(lambda message: console.print(f"[dim]•[/dim] {message}"))
        if console.is_terminal
        else None,
    )
    click.echo(f"built {len(report.rounds)} round(s), {report.files} files, into {report.out_dir}")


def _refuse_draft_rounds(round_dirs: list[Path]) -> None:
    """Stop before building when a round's bootstrap is too small for publication.

    A round.json that cannot be read is left for the build itself to report in full.
    """
    from reportgen.archive import MIN_PUBLICATION_REPLICATES, Problems, read_manifest_data
    from reportgen.errors import InputError

    for round_dir in round_dirs:
        data = read_manifest_data(round_dir, Problems())
        bootstrap = data.get("bootstrap") if isinstance(data, dict) else None
        replicates = bootstrap.get("replicates") if isinstance(bootstrap, dict) else None
        if isinstance(replicates, int) and replicates < MIN_PUBLICATION_REPLICATES:
            # The round's data is what falls short, not an option: exit 1, like bad data.
            raise InputError(
                f"{round_dir / 'round.json'}: bootstrap.replicates is {replicates:,}, fewer than"
                f" the {MIN_PUBLICATION_REPLICATES:,} a published site needs; add --draft to"
                " build a draft whose pages say so"
            )
