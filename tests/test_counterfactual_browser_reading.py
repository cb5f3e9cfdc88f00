"""The counterfactual findings' labels as a reader sees them (issue 24, point 4): on the
example site, in both languages, "Problema" and "Nenhuma diferença encontrada" differ by a
mark, a border and a weight, not by colour alone, and the mark adds nothing to the words a
screen reader reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.counterfactual.render.text import catalogue
from tests.support.browser import CHROMIUM, open_page, serve_directory
from tests.support.shared_builds import example_site

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]
playwright_sync = pytest.importorskip("playwright.sync_api")

BEFORE = "atendimento-2026-09"  # has findings of both kinds
PREFIX = {"pt-BR": "", "en": "en/"}
# What tells one label from another besides its colour.
_LOOK = """label => {
  const style = getComputedStyle(label), mark = getComputedStyle(label, '::before');
  return {text: label.innerText, mark: mark.content, border: style.borderTopStyle,
          width: style.borderTopWidth, weight: style.fontWeight, shown: label.offsetWidth > 0};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_site(tmp_path_factory, "counterfactual")


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_problem_and_no_difference_found_look_different(
    site: Path, browser: Any, language: str
) -> None:
    words = catalogue(language)
    for server in serve_directory(site):
        page = open_page(browser, server, f"{PREFIX[language]}{BEFORE}/index.html")
        looks = {
            finding: page.locator(
                f'li.cf-finding[data-finding="{finding}"] > strong'
            ).first.evaluate(_LOOK)
            for finding in ("problem", "no_difference_found")
        }
        problem, nothing = looks["problem"], looks["no_difference_found"]
        assert problem["shown"]
        assert nothing["shown"]
        # The words alone are what the label's text holds (the mark is decorative).
        assert problem["text"] == words["finding.problem"]
        assert nothing["text"] == words["finding.no_difference_found"]
        for look in (problem, nothing):
            assert look["mark"] not in ("none", "normal", ""), look
            assert look["border"] != "none", look
        assert problem["mark"] != nothing["mark"]
        assert problem["border"] != nothing["border"]
        assert problem["width"] != nothing["width"]
        assert problem["weight"] != nothing["weight"]
        page.close()
        assert server.blocked == []
