"""The Estigmas kind's hooks beyond the archive: summary, results, pages, guard, review.

Each function imports its stage only when called, so reading an archive (which loads
the kind) does not load the statistics or the charts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.errors import ReportgenError
from reportgen.kinds.estigmas.model import Round
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from rich.console import Console

    from reportgen.render.site_source import SiteSource
    from reportgen.render.siteconfig import SiteConfig

TITLE = {"pt-BR": "Estigmas", "en": "Estigmas"}


def estigmas_round(round_: CoreRound) -> Round:
    """`round_` as the Estigmas round it must be (the registry routes by kind)."""
    if not isinstance(round_, Round):
        raise ReportgenError(f"{round_.path}: not an Estigmas round (kind {round_.manifest.kind})")
    return round_


def print_summary(round_: CoreRound, console: Console) -> None:
    from reportgen.kinds.estigmas import summary
    from reportgen.kinds.estigmas.score import score_models

    estigmas = estigmas_round(round_)
    summary.print_summary(estigmas, score_models(estigmas), console)


def summary_json(round_: CoreRound) -> dict[str, Any]:
    from reportgen.kinds.estigmas import summary
    from reportgen.kinds.estigmas.results import load_results, model_intervals
    from reportgen.kinds.estigmas.score import score_models

    estigmas = estigmas_round(round_)
    intervals = model_intervals(load_results(estigmas))
    return summary.summary_json(estigmas, score_models(estigmas), intervals)


def replicates_of(round_: CoreRound, replicates: int | None) -> int:
    return round_.manifest.bootstrap_replicates if replicates is None else replicates


def results_json(
    round_: CoreRound,
    *,
    replicates: int | None,
    cache_dir: Path | None,
    use_cache: bool,
    advance: Callable[[int], None] | None,
) -> dict[str, Any]:
    from reportgen.kinds.estigmas.results import compute_results, load_results

    estigmas = estigmas_round(round_)
    count = replicates_of(round_, replicates)
    if use_cache:
        results = load_results(estigmas, count, cache_dir, advance)
    else:
        results = compute_results(estigmas, count, advance)
    return results.to_json_dict()


def site(
    rounds: Sequence[CoreRound],
    config: SiteConfig,
    *,
    cache_dir: Path | None,
    progress: Callable[[str], None] | None,
    section_depth: int = 0,
) -> SiteSource:
    from reportgen.kinds.estigmas.render.charts import SvgCache
    from reportgen.kinds.estigmas.render.site_pages import estigmas_site
    from reportgen.results import default_cache_dir

    svgs = SvgCache((cache_dir or default_cache_dir()) / "svg")
    estigmas = [estigmas_round(r) for r in rounds]
    return estigmas_site(
        estigmas,
        config,
        cache_dir=cache_dir,
        svgs=svgs,
        progress=progress,
        section_depth=section_depth,
    )
