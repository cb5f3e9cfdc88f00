"""Tables of the contrastive language study (article Table 3 and its per-model detail).

Only formatting happens here: every number comes from the results' `LanguageStudy`.
"""

from __future__ import annotations

from reportgen.i18n import MISSING, Translator
from reportgen.kinds.estigmas.model import LANGUAGES
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.stats_tables import interval_text, require_stats
from reportgen.kinds.estigmas.stats.language import LanguageRates
from reportgen.render.table import Cell, Table, numeric_headers


def language_means(view: RoundView, tr: Translator) -> Table:
    """Table 3: mean across models of each rate, per language."""
    means = {rates.language: rates for rates in require_stats(view).language.means}
    metrics = ("abstention", "omission", "bias", "bias_among_decisions")
    rows = tuple(
        (
            Cell(tr(f"language.metric.{metric}")),
            *(
                Cell(
                    tr.percent(getattr(means[lang], metric)) if lang in means else MISSING,
                    numeric=True,
                )
                for lang in LANGUAGES
            ),
        )
        for metric in metrics
    )
    return Table(
        table_id=f"language-means-{view.round_id}",
        caption=tr("language.means.caption"),
        header=(Cell(tr("language.metric")), Cell("pt-BR", numeric=True), Cell("en", numeric=True)),
        rows=rows,
    )


def language_models(view: RoundView, tr: Translator) -> Table:
    rows = []
    for entry in require_stats(view).language.models:
        rates = {r.language: r for r in entry.rates}
        pt, en = rates.get("pt-BR"), rates.get("en")
        rates_in_order = (
            pt.abstention if pt else None,
            en.abstention if en else None,
            pt.omission if pt else None,
            en.omission if en else None,
        )
        rows.append(
            (
                Cell(view.name_of(entry.model_id)),
                *(Cell(tr.percent(rate), rate, numeric=True) for rate in rates_in_order),
                Cell(
                    tr.pvalue(entry.wilcoxon_p_adjusted),
                    entry.wilcoxon_p_adjusted,
                    numeric=True,
                ),
            )
        )
    return Table(
        table_id=f"language-models-{view.round_id}",
        caption=tr("language.models.caption"),
        header=(
            Cell(tr("table.model")),
            *numeric_headers(
                tr,
                "language.abstention_pt",
                "language.abstention_en",
                "language.omission_pt",
                "language.omission_en",
                "language.wilcoxon_p",
            ),
        ),
        rows=tuple(rows),
        sortable=True,
    )


def language_regimes(view: RoundView, tr: Translator) -> Table:
    rows = tuple(
        (
            Cell(tr(f"language.regime.{r.regime}")),
            Cell(tr.points(r.mean_difference), r.mean_difference, numeric=True),
            Cell(interval_text(tr, r.lower, r.upper)),
            Cell(tr.integer(r.more_in_en), r.more_in_en, numeric=True),
            Cell(tr.integer(r.more_in_pt), r.more_in_pt, numeric=True),
            Cell(tr.integer(r.equal), r.equal, numeric=True),
        )
        for r in require_stats(view).language.regimes
    )
    return Table(
        table_id=f"language-regimes-{view.round_id}",
        caption=tr("language.regimes.caption"),
        header=(
            Cell(tr("language.regime")),
            Cell(tr("language.mean_difference"), numeric=True),
            Cell(tr("stats.interval")),
            *numeric_headers(tr, "language.more_en", "language.more_pt", "language.equal"),
        ),
        rows=rows,
    )


def language_entry(view: RoundView, model_id: str) -> tuple[LanguageRates, LanguageRates] | None:
    """A model's (pt-BR, en) language-study rates, or None when the round has no pairs."""
    stats = require_stats(view)
    if not stats.language.pairs:
        return None
    for entry in stats.language.models:
        if entry.model_id == model_id:
            rates = {r.language: r for r in entry.rates}
            if "pt-BR" in rates and "en" in rates:
                return rates["pt-BR"], rates["en"]
    return None
