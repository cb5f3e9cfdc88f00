"""The pages of the other kinds' example sites that the accessibility walks visit, and the
walk itself: shared by tests/test_browser_axe_kinds.py (desktop) and
tests/test_browser_axe_kinds_phone.py (390 px), two modules so that two test workers can
share the work (one module runs on one worker)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.axe import blocking
from tests.support.browser import Served, open_page
from tests.support.browser import serve_directory as serve
from tests.support.shared_builds import example_site

MULTIDOMAIN_SECTIONS = (
    "index", "methodology", "cast", "classification", "domains-languages", "technical-ties",
    "head-to-head", "process", "refusals", "discarded", "human-audit", "calibration",
    "contamination", "limitations", "register", "reuse",
)  # fmt: skip
MULTIDOMAIN = ("reg-2026-1", MULTIDOMAIN_SECTIONS)
# The history pages of the example's two rounds (Art. 2(d)): the series, the bank
# version register and one participant's history.
MULTIDOMAIN_SERIES = ("series/index", "series/bank-versions", "series/aurora-4")
COUNTERFACTUAL = ("atendimento-2026-09", "atendimento-2026-10")


@contextlib.contextmanager
def served_kind_sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    """The multidomain example (after its embargo) and the counterfactual example, each
    built once per test run (shared between workers) and served on localhost."""
    multidomain = example_site(tmp_path_factory, "multidomain", "2027-03-20")
    counterfactual = example_site(tmp_path_factory, "counterfactual")
    with contextlib.ExitStack() as stack:
        yield {
            "multidomain": stack.enter_context(contextlib.contextmanager(serve)(multidomain)),
            "counterfactual": stack.enter_context(contextlib.contextmanager(serve)(counterfactual)),
        }


def pages_of(kind: str, prefix: str) -> list[str]:
    if kind == "multidomain":
        round_id, stems = MULTIDOMAIN
        series = [f"{prefix}{stem}.html" for stem in MULTIDOMAIN_SERIES]
        return [f"{prefix}{round_id}/{stem}.html" for stem in stems] + series
    return [f"{prefix}index.html"] + [f"{prefix}{r}/index.html" for r in COUNTERFACTUAL]


def problems_on_pages(
    browser: Any, served: Served, paths: list[str], viewport: dict[str, int]
) -> dict[str, list[str]]:
    """Each page's serious or critical axe violations and its overflow past the window."""
    found: dict[str, list[str]] = {}
    for path in paths:
        page = open_page(browser, served, path, viewport)
        problems = blocking(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > viewport["width"]:
            problems.append(f"page {width} px wide in a {viewport['width']} px window")
        if problems:
            found[path] = problems
        page.close()
    return found
