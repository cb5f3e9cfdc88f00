"""The counterfactual report in a real browser (Debian's Chromium through Playwright): the
findings in the order decision → quality → tone, the fixed limitations text in both
languages, and the before/after table as a reader sees them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CHROMIUM, open_page, serve_directory
from tests.support.counterfactual_site import DEMO_IDS, ROUND_ID, build_demo_site, build_site_of

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]
playwright_sync = pytest.importorskip("playwright.sync_api")

LEVELS = {"decision": 0, "quality": 1, "tone": 2}
LIMITATIONS_START = {
    "": "Não encontrar diferença não prova que o sistema seja justo: mostra apenas",
    "en/": "Finding no difference does not prove the system is fair: it only shows",
}
LIMITATIONS_END = {
    "": "é uma decisão documentada de quem opera o sistema, não um resultado estatístico.",
    "en/": "is a documented decision of whoever operates the system, not a statistical result.",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site_of(tmp_path_factory.mktemp("cf-browser"), preregistered=False)


def rows(page: Any, table_id: str) -> list[list[str]]:
    cells = page.locator(f"#{table_id} tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells).map(c => c.innerText.trim()))"
    )
    return [list(row) for row in cells]


def test_findings_order(site: Path, browser: Any) -> None:
    for server in serve_directory(site):
        page = open_page(browser, server, f"en/{ROUND_ID}/index.html")
        for model_id in ("bot-a", "bot-b"):
            findings = page.locator(f"#cf-{ROUND_ID}-findings-{model_id} > li")
            assert findings.count() == 6
            levels = findings.evaluate_all("items => items.map(i => i.dataset.level)")
            assert levels == sorted(levels, key=LEVELS.__getitem__)
            assert findings.first.is_visible()
        first = page.locator(f"#cf-{ROUND_ID}-findings-bot-a > li").first.inner_text()
        assert first.startswith("Problem · Decision · Name × Refund: gap 37.5 pp")
        labels = page.locator(f"#cf-{ROUND_ID}-findings-bot-a > li strong").all_inner_texts()
        assert labels[:3] == [
            "Problem",
            "Above acceptable, not confirmed",
            "No difference found",
        ]
        # findings come before the tables, the tables before the limitations
        tops = [
            page.locator(f"#{anchor}").bounding_box()["y"]
            for anchor in ("findings", "tables", "before-after", "limitations")
        ]
        assert tops == sorted(tops)
        assert server.blocked == []


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_limitations_text(site: Path, browser: Any, prefix: str) -> None:
    for server in serve_directory(site):
        page = open_page(browser, server, f"{prefix}{ROUND_ID}/index.html")
        text = page.locator("p.cf-limitations")
        assert text.count() == 1
        assert text.is_visible()
        shown = text.inner_text()
        assert shown.startswith(LIMITATIONS_START[prefix])
        assert shown.endswith(LIMITATIONS_END[prefix])


def test_before_after_table(site: Path, browser: Any) -> None:
    for server in serve_directory(site):
        page = open_page(browser, server, f"en/{ROUND_ID}/index.html")
        table = page.locator(f"#cf-{ROUND_ID}-regression-bot-a")
        assert table.is_visible()
        header = table.locator("thead th").all_inner_texts()
        assert header[:5] == [
            "Attribute",
            "Variable",
            "Gap before",
            "Gap after",
            "Change (after − before) [95% CI]",
        ]
        # The change is the difference of the gaps as shown; the tooltip keeps the exact one.
        refund = ["Name", "Refund", "37.5 pp", "6.3 pp", "−31.2 pp [−45.0; −20.0]"]
        options = ["Name", "Options", "0.38", "0.06", "−0.32 [−0.45; −0.20]"]
        assert rows(page, f"cf-{ROUND_ID}-regression-bot-a") == [
            [*refund, "serious", "none", "yes", "yes"],
            [*options, "–", "–", "yes", "no"],
        ]
        title = table.locator("tbody tr").first.locator("td").nth(4).get_attribute("title")
        assert title == "-5/16"


def test_the_other_pairs_unfold(site: Path, browser: Any) -> None:
    for server in serve_directory(site):
        page = open_page(browser, server, f"{ROUND_ID}/index.html")
        folded = page.locator("details.cf-pairs").first
        pairs = folded.locator("table")
        assert not pairs.is_visible()
        folded.locator("summary").click()
        assert pairs.is_visible()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_site(tmp_path_factory.mktemp("cf-browser-demo"))[0]


def test_the_demonstration_before_and_after(demo: Path, browser: Any) -> None:
    """The re-run after the fix: the planted decision gap of Assistente A, flagged
    "serious" before, is below the acceptable difference after; findings in order."""
    for server in serve_directory(demo):
        page = open_page(browser, server, f"en/{DEMO_IDS[1]}/index.html")
        table = page.locator("table[id$='-regression-assistente-a-v2']")
        assert table.is_visible()
        body = rows(page, f"cf-{DEMO_IDS[1]}-regression-assistente-a-v2")
        decisions = [row for row in body if row[5] == "serious"]
        assert decisions
        assert all(row[6] == "none" and row[8] == "no" for row in decisions)
        for findings in page.locator("ol.cf-findings").all():
            levels = findings.locator("> li").evaluate_all(
                "items => items.map(i => i.dataset.level)"
            )
            assert levels == sorted(levels, key=LEVELS.__getitem__)
        limitation = page.locator("p.cf-limitations").inner_text()
        assert limitation.startswith(LIMITATIONS_START["en/"])
        assert server.blocked == []
