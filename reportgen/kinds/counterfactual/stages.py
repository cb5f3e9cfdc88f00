"""The counterfactual kind's hooks beyond the archive: summary and results.

Functions of the same names and signatures as the multidomain kind's `stages`, for
`CounterfactualKind` to call. Each imports its stage only when called, so reading an archive
(which loads the kind) does not load the statistics. The baseline round of the regression
view (§11) is read from the sibling folder `round_.path.parent / baseline_round`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.errors import ReportgenError
from reportgen.kinds.counterfactual.model import Round
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from rich.console import Console

    from reportgen.kinds.counterfactual.results import Results

TITLE = {"pt-BR": "Auditorias contrafactuais", "en": "Counterfactual audits"}


def counterfactual_round(round_: CoreRound) -> Round:
    """`round_` as the counterfactual round it must be (the registry routes by kind)."""
    if not isinstance(round_, Round):
        raise ReportgenError(
            f"{round_.path}: not a counterfactual round (kind {round_.manifest.kind})"
        )
    return round_


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


def _results(round_: Round, replicates: int | None = None, **cache: Any) -> Results:
    from reportgen.kinds.counterfactual.results import load_results

    return load_results(round_, replicates, baseline=baseline_of(round_), **cache)


def print_summary(round_: CoreRound, console: Console) -> None:
    from reportgen.kinds.counterfactual import summary

    counterfactual = counterfactual_round(round_)
    summary.print_summary(counterfactual, _results(counterfactual), console)


def summary_json(round_: CoreRound) -> dict[str, Any]:
    from reportgen.kinds.counterfactual import summary

    counterfactual = counterfactual_round(round_)
    return summary.summary_json(counterfactual, _results(counterfactual))


def replicates_of(round_: CoreRound, replicates: int | None) -> int:
    return round_.manifest.bootstrap_replicates if replicates is None else replicates


def results_steps(round_: CoreRound, replicates: int | None) -> int:
    """The crossed bootstrap reports all replicates once."""
    return replicates_of(round_, replicates)


def results_json(
    round_: CoreRound,
    *,
    replicates: int | None,
    cache_dir: Path | None,
    use_cache: bool,
    advance: Callable[[int], None] | None,
) -> dict[str, Any]:
    from reportgen.kinds.counterfactual.results import build_results

    counterfactual = counterfactual_round(round_)
    count = replicates_of(round_, replicates)
    if use_cache:
        results = _results(counterfactual, count, cache_dir=cache_dir, advance=advance)
    else:
        results = build_results(
            counterfactual,
            baseline=baseline_of(counterfactual),
            replicates=count,
            advance=advance,
        )
    return results.to_json_dict()
