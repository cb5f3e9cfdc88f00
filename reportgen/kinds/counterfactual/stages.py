"""The counterfactual kind's stages beyond the archive (`STAGES`): summary, results, pages.

Each hook imports its stage only when called, so reading an archive (which loads the
kind) does not load the statistics. The baseline round of the regression
view (§11) is read from the sibling folder `round_.path.parent / baseline_round`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportgen.errors import ReportgenError
from reportgen.kinds._stages import Advance, Stages, lazy
from reportgen.kinds.counterfactual.model import Round
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from reportgen.kinds.counterfactual.results import Results

TITLE = {"pt-BR": "Auditorias contrafactuais", "en": "Counterfactual audits"}


def counterfactual_round(round_: CoreRound) -> Round:
    """`round_` as the counterfactual round it must be (the registry routes by kind)."""
    return STAGES.round(round_)


def baseline_of(round_: Round) -> Round | None:
    """The baseline round read from the sibling folder; None when there is none, or when it
    cannot be read (verify's cross-round check names that problem)."""
    from reportgen.kinds.rounds import read_round

    baseline_id = round_.manifest.baseline_round
    if baseline_id is None:
        return None
    try:
        baseline = read_round(round_.path.parent / baseline_id, with_text=True)
    except ReportgenError:
        return None
    return baseline if isinstance(baseline, Round) else None


def _cached(r: Round, count: int | None, cache: Path | None, advance: Advance | None) -> Results:
    from reportgen.kinds.counterfactual.results import load_results

    return load_results(r, count, cache, advance, baseline=baseline_of(r))


def _computed(round_: Round, count: int, advance: Advance | None) -> Results:
    from reportgen.kinds.counterfactual.results import build_results

    return build_results(round_, baseline=baseline_of(round_), replicates=count, advance=advance)


STAGES: Stages[Round, Results] = Stages(
    round_type=Round,
    noun="a counterfactual round",
    summary="reportgen.kinds.counterfactual.summary",
    cached=_cached,
    computed=_computed,
    results_schema="reportgen.kinds.counterfactual.results:RESULTS_SCHEMA",
    site=lazy("reportgen.kinds.counterfactual.render.site_pages:site"),
    bootstrap_passes=1,  # the crossed bootstrap reports all replicates once
    render_draft=lazy("reportgen.kinds.counterfactual.prepare:render_raw_round"),
    collected_files=lazy("reportgen.kinds.counterfactual.collect:collected_files"),
    freeze=lazy("reportgen.kinds.counterfactual.freeze:freeze_round"),
    guard_material=lazy("reportgen.kinds.counterfactual.render.guard:guard_material"),
    review_task="reportgen.kinds.counterfactual.review:REVIEW_TASK",
)
