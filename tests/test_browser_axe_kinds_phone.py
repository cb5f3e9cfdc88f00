"""The other kinds' pages at a 390 px phone width, in Portuguese (the phone's layout is the
same in English: the same elements, roles and colours, what axe judges, as in
test_browser_axe.py; every page's width in both languages at 390 px is
test_browser_fit.py's): no serious or critical axe-core violation and no page wider than
the phone. The desktop walk is tests/test_browser_axe_kinds.py's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import CHROMIUM, PHONE, Served, launched_chromium
from tests.support.kind_pages import pages_of, problems_on_pages, served_kind_sites

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    with served_kind_sites(tmp_path_factory) as served:
        yield served


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as chromium:
        yield chromium


@pytest.mark.parametrize("kind", ["multidomain", "counterfactual"])
def test_no_serious_violation_and_no_page_wider_than_the_phone(
    browser: Any, sites: dict[str, Served], kind: str
) -> None:
    served = sites[kind]
    found = problems_on_pages(browser, served, pages_of(kind, ""), PHONE)
    assert served.blocked == []
    assert found == {}
