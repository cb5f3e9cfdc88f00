"""Chart SVGs carry ids that do not depend on how many charts the process drew before."""

from __future__ import annotations

from reportgen.kinds.estigmas.render.charts import stable_ids

SVG = (
    '<defs><linearGradient id="gradient_{g}"></linearGradient><clipPath id="clip{c}">'
    '</clipPath></defs><rect fill="url(#gradient_{g})" clip-path="url(#clip{c})"/>'
)


def test_the_same_chart_drawn_later_in_a_process_gets_the_same_ids() -> None:
    early, later = SVG.format(g=0, c=1), SVG.format(g=7, c=12)
    assert early != later  # Vega's process-wide counters
    assert stable_ids(early, "a" * 64) == stable_ids(later, "a" * 64)


def test_ids_follow_the_chart_key_and_references_follow_the_ids() -> None:
    one, other = (
        stable_ids(SVG.format(g=0, c=1), "1" * 64),
        stable_ids(SVG.format(g=0, c=1), "2" * 64),
    )
    assert one != other  # two charts inlined in one page keep distinct ids
    assert 'id="rg-111111111111-0"' in one
    assert "url(#rg-111111111111-0)" in one
    assert "url(#rg-111111111111-1)" in one
    assert "gradient_" not in one
