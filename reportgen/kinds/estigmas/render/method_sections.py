"""The methodology page's instrument section (the round's counts beside the scored N) and
its section on related benchmarks (the article's Box 1, in the site's own words)."""

from __future__ import annotations

from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.page_common import PageText
from reportgen.kinds.estigmas.render.page_types import TextSection


def instrument(view: RoundView, text: PageText) -> TextSection:
    """What the instrument holds, then what of it is scored: every count is the round's."""
    tr = text.tr
    scored = view.N
    local_share = view.local_marker_items / scored if scored else None
    body = text.tm(
        "method.instrument_body",
        stigmas=tr.integer(view.stigma_count),
        local=tr.integer(view.local_stigmas),
        structures=tr.integer(view.structure_count),
        brazilian=tr.integer(view.brazilian_structures),
        scenarios=tr.integer(view.scenario_count),
        N=tr.integer(view.N),
        n=tr.integer(view.n),
    )
    counts = text.tm(
        "method.instrument_counts",
        prompts=tr.integer(view.instrument_prompts),
        base=tr.integer(view.base_controls),
        local_items=tr.integer(view.local_marker_items),
        N=tr.integer(scored),
        share=tr.percent(local_share),
    )
    return TextSection(text.t("method.instrument"), body + " " + counts)


def related(text: PageText) -> TextSection:
    """Where Estigmas sits among the related benchmarks, as the article frames it."""
    return TextSection(text.t("method.related"), text.t("method.related_body"))
