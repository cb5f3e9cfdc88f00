"""The home page's finding stated in numbers, for one language.

Every number comes from the primary round's own computation (its scores and the
statistics engine's results), never from the catalogue: the lowest bias rate beside
that model's omission, the correlation of bias and omission across models, the shift
between the languages of the language study, and how many differences between
neighbours in the ranking are technical ties."""

from __future__ import annotations

from markupsafe import Markup

from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.page_common import PageText, rate_params
from reportgen.kinds.estigmas.render.stats_tables import interval_text


def lowest_bias(view: RoundView, text: PageText) -> Markup | None:
    """The model with the round's lowest bias rate, beside its omission rate."""
    if not view.models:
        return None
    tr, score = text.tr, min((row.score for row in view.models), key=lambda s: s.bias_rate)
    return text.tm(
        "home.lowest_bias",
        model=score.display_name,
        **rate_params(tr, score),
    )


def correlation(view: RoundView, text: PageText) -> Markup | None:
    """Figure 1's correlation sentence (only with statistics and enough models)."""
    if view.stats is None:
        return None
    tr, found = text.tr, view.stats.correlation
    if found.pearson_r is None or found.spearman_rho is None:
        return None
    return text.tm(
        "home.correlation",
        r=tr.decimal(found.pearson_r, 2),
        rho=tr.decimal(found.spearman_rho, 2),
        models=tr.integer(found.models),
    )


def language_shift(view: RoundView, text: PageText) -> Markup | None:
    """Omission and bias in Portuguese and in English (the language study's means)."""
    if view.stats is None or not view.stats.language.pairs:
        return None
    tr, study = text.tr, view.stats.language
    means = {rates.language: rates for rates in study.means}
    omission = next((r for r in study.regimes if r.regime == "omission"), None)
    pt, en = means.get("pt-BR"), means.get("en")
    if omission is None or pt is None or en is None:
        return None
    return text.tm(
        "home.language_shift",
        om_pt=tr.percent(omission.mean_pt),
        om_en=tr.percent(omission.mean_en),
        difference=tr.points(omission.mean_difference),
        interval=interval_text(tr, omission.lower, omission.upper),
        more_en=tr.integer(omission.more_in_en),
        models=tr.integer(len(study.models)),
        bias_pt=tr.percent(pt.bias),
        bias_en=tr.percent(en.bias),
    )


def finding_numbers(view: RoundView, text: PageText) -> tuple[Markup, ...]:
    found = (lowest_bias(view, text), correlation(view, text), language_shift(view, text))
    return tuple(line for line in found if line is not None)


def adjacent_ties(view: RoundView, text: PageText) -> Markup | None:
    """How many differences between neighbours in the ranking are technical ties."""
    if view.stats is None or not view.stats.adjacent:
        return None
    tr, count = text.tr, len(view.stats.adjacent)
    ties = sum(not difference.separated for difference in view.stats.adjacent)
    if ties == count:
        return text.tm(tr.plural("home.ties_all", count), count=tr.integer(count))
    if ties == 0:
        return text.tm(tr.plural("home.ties_none", count), count=tr.integer(count))
    return text.tm(
        tr.plural("home.ties_some", ties), ties=tr.integer(ties), count=tr.integer(count)
    )
