"""The Estigmas kind's stages beyond the archive (`STAGES`): summary, results, pages.

Each hook imports its stage only when called, so reading an archive (which loads the
kind) does not load the statistics or the charts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.kinds._stages import Stages, lazy
from reportgen.kinds.estigmas.model import Round
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from rich.console import Console

    from reportgen.kinds.estigmas.results import RoundResults
    from reportgen.render.site_source import SiteSource
    from reportgen.render.siteconfig import SiteConfig

TITLE = {"pt-BR": "Estigmas", "en": "Estigmas"}


def estigmas_round(round_: CoreRound) -> Round:
    """`round_` as the Estigmas round it must be (the registry routes by kind)."""
    return STAGES.round(round_)


def _summary_table(round_: Round, console: Console) -> None:
    from reportgen.kinds.estigmas import summary
    from reportgen.kinds.estigmas.score import score_models

    summary.print_summary(round_, score_models(round_), console)


def _summary_data(round_: Round) -> dict[str, Any]:
    from reportgen.kinds.estigmas import summary
    from reportgen.kinds.estigmas.results import load_results, model_intervals
    from reportgen.kinds.estigmas.score import score_models

    intervals = model_intervals(load_results(round_))
    return summary.summary_json(round_, score_models(round_), intervals)


def site(
    rounds: Sequence[CoreRound],
    config: SiteConfig,
    *,
    cache_dir: Path | None,
    progress: Callable[[str], None] | None = None,
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


def _freeze(raw_dir: Path, out_dir: Path) -> str:
    from reportgen.kinds.estigmas.freeze import freeze_round
    from reportgen.kinds.estigmas.parse import PARSER_VERSION

    freeze_round(raw_dir, out_dir)
    return f"parser {PARSER_VERSION}"


STAGES: Stages[Round, RoundResults] = Stages(
    round_type=Round,
    noun="an Estigmas round",
    summary_table=_summary_table,
    summary_data=_summary_data,
    cached=lazy("reportgen.kinds.estigmas.results:load_results"),
    computed=lazy("reportgen.kinds.estigmas.results:compute_results"),
    results_schema="reportgen.kinds.estigmas.results:RESULTS_SCHEMA",
    site=site,
    # The per-model bootstrap and the language-study bootstrap each run them all.
    bootstrap_passes=2,
    render_draft=lazy("reportgen.kinds.estigmas.collect:render_draft"),
    freeze=_freeze,
    guard_material=lazy("reportgen.kinds.estigmas.guard:guard_material"),
    review_task="reportgen.kinds.estigmas.review:REVIEW_TASK",
)
