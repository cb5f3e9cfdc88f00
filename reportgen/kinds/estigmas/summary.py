"""The Estigmas summary: the ranking (article Table 2) and the diagnostic cases.

`reportgen summary` prints it through the kind registry (`EstigmasKind.print_summary`
and `summary_json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from reportgen.kinds._summary import print_heading
from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.score import SCORE_FIELDS, ModelScore

# Keys of one model in `--json`, in output order.
MODEL_KEYS: tuple[str, ...] = SCORE_FIELDS


def summary_json(
    round_: Round,
    scores: tuple[ModelScore, ...],
    intervals: Mapping[str, Mapping[str, tuple[float, float]]] | None = None,
) -> dict[str, Any]:
    """The `--json` document: the round id and one object per model, in ranking order.

    With `intervals` (from the statistics engine), each model gains a `ci` object of
    crossed-bootstrap 95% intervals.
    """
    models = []
    for score in scores:
        entry = model_json(score)
        if intervals is not None:
            entry["ci"] = {
                name: [lower, upper] for name, (lower, upper) in intervals[score.model_id].items()
            }
        models.append(entry)
    return {"round_id": round_.round_id, "models": models}


def model_json(score: ModelScore) -> dict[str, Any]:
    """One model's scores, keys in MODEL_KEYS order."""
    return {key: getattr(score, key) for key in MODEL_KEYS}


def _percent(rate: float) -> str:
    return f"{rate * 100:.1f}%"


def _limit(max_omission: float) -> str:
    return f"{max_omission * 100:g}%"


def _score_table(title: str, scores: list[ModelScore], *, ranked: bool) -> Table:
    table = Table(title=title, title_justify="left")
    if ranked:
        table.add_column("Rank", justify="right")
    table.add_column("Model")
    table.add_column("Provider")
    for heading in ("Index", "Failure", "Bias", "Omission", "Correct decision", "Coverage"):
        table.add_column(heading, justify="right")
    for score in scores:
        rank = [str(score.rank)] if ranked else []
        table.add_row(
            *rank,
            # Text, not str: a model name such as "[beta]" must not be read as markup.
            Text(score.display_name),
            Text(score.provider),
            _percent(score.index),
            _percent(score.failure),
            f"{_percent(score.bias_rate)} ({score.biased:,})",
            f"{_percent(score.omission_rate)} ({score.omissions:,})",
            f"{_percent(score.correct_rate)} ({score.correct:,})",
            _percent(score.coverage),
        )
    return table


def print_summary(round_: Round, scores: tuple[ModelScore, ...], console: Console) -> None:
    """The human-readable summary: round facts, the ranking, then the diagnostic cases."""
    manifest = round_.manifest
    total, positive = (scores[0].N, scores[0].n) if scores else (0, 0)
    facts = (
        f"N = {total:,} scored items; n = {positive:,} items with favourable evidence"
        f" (style positive); {len(round_.annulled_item_ids):,} annulled item(s)"
    )
    print_heading(console, round_, manifest.variant, facts)
    denominators = (
        f"Index, failure and bias over N = {total:,}; omission, correct decision and"
        f" coverage over n = {positive:,}. Counts in parentheses."
    )
    ranking = [score for score in scores if score.eligible]
    ranking_table = _score_table("Ranking", ranking, ranked=True)
    ranking_table.caption = denominators
    ranking_table.caption_justify = "left"
    console.print(ranking_table)
    if not ranking:
        console.print("No model is eligible for the ranking.", highlight=False)
    diagnostic = [score for score in scores if not score.eligible]
    title = (
        f"Diagnostic cases (omission above {_limit(manifest.max_omission)}, outside the ranking)"
    )
    if diagnostic:
        diagnostic_table = _score_table(title, diagnostic, ranked=False)
        diagnostic_table.caption = denominators
        diagnostic_table.caption_justify = "left"
        console.print(diagnostic_table)
    else:
        console.print(f"{title}: none.", markup=False, highlight=False)
