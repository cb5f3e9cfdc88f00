"""Chart SVGs carry ids that do not depend on how many charts the process drew before."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import altair as alt
import pytest

from reportgen.kinds.estigmas.render import charts, pages
from reportgen.kinds.estigmas.render.charts import stable_ids
from tests.factories import build_tiny

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


def test_every_chart_of_a_build_is_a_valid_vega_lite_spec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Builds skip the schema check for speed; here every chart of a site is checked.
    monkeypatch.setattr(charts, "VALIDATE_SPECS", True)
    calls: list[bool] = []
    original = alt.TopLevelMixin.to_dict

    def checked(self: alt.TopLevelMixin, *args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(bool(kwargs.get("validate", True)))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(alt.TopLevelMixin, "to_dict", checked)
    build_tiny(tmp_path)  # an invalid spec would raise here
    assert True in calls  # the charts were validated (altair's inner calls skip it)


def test_an_edited_page_template_is_used_by_the_next_build(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(pages.PAGE_TEMPLATES, templates)
    first = pages.PageWriter(templates, tmp_path / "a")
    before = first.env.get_template("methodology.md.j2").render
    page = templates / "methodology.md.j2"
    page.write_text(page.read_text("utf-8") + "\n<!-- edited -->\n", "utf-8")
    os.utime(page, (page.stat().st_atime, page.stat().st_mtime + 5))
    second = pages.PageWriter(templates, tmp_path / "b")
    assert second.env is first.env  # compiled templates are shared...
    assert second.env.get_template("methodology.md.j2").render is not before  # ...edits seen
    source = second.env.loader.get_source(second.env, "methodology.md.j2")[0]  # type: ignore[union-attr]
    assert source.endswith("<!-- edited -->\n")
