"""The page of the demonstration rounds (examples/counterfactual: Casa Ipê before and
after the fix), built from the committed archives with their computed results: every part
in order in both languages, the findings of both systems, the before/after table of the
re-run, the downloads' columns, and nothing claimed."""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path

import pytest

from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.render.claims import forbidden_claims
from reportgen.kinds.counterfactual.render.downloads import GAP_COLUMNS
from reportgen.kinds.counterfactual.render.text import catalogue
from tests.support.counterfactual_site import DEMO_IDS, build_demo_site

BEFORE, AFTER = DEMO_IDS
LEVELS = {"decision": 0, "quality": 1, "tone": 2}
FINDINGS = {
    "problem": 0,
    "exceeds_not_significant": 1,
    "significant_within_acceptable": 2,
    "no_difference_found": 3,
    "not_computable": 4,
    "judge_not_calibrated": 5,
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Round]]:
    return build_demo_site(tmp_path_factory.mktemp("cf-demo"))


def html_of(site: Path, prefix: str, round_id: str) -> str:
    return (site / prefix / round_id / "index.html").read_text(encoding="utf-8")


def plain(markup: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", markup))).strip()


@pytest.mark.parametrize("prefix", ["", "en/"])
@pytest.mark.parametrize("round_id", DEMO_IDS)
def test_parts_limitations_and_no_claims(
    demo: tuple[Path, list[Round]], prefix: str, round_id: str
) -> None:
    page = html_of(demo[0], prefix, round_id)
    assert re.findall(r"<h2 id=\"[^\"]+\">(\d+)\.", page) == [str(n) for n in range(2, 12)]
    text = plain(page)
    language = "en" if prefix else "pt-BR"
    assert catalogue(language)["limitations.text"] in text
    allowed = [catalogue(lang)["limitations.text"] for lang in ("pt-BR", "en")]
    assert forbidden_claims(text, allowed) == []


@pytest.mark.parametrize("round_id", DEMO_IDS)
def test_findings_in_the_metrics_order(demo: tuple[Path, list[Round]], round_id: str) -> None:
    page = html_of(demo[0], "en/", round_id)
    lists = re.findall(r'<ol class="cf-findings" id="[^"]+">(.*?)</ol>', page, flags=re.S)
    assert len(lists) == 2  # both systems
    for found in lists:
        keys = re.findall(r'data-level="(\w+)" data-finding="(\w+)"', found)
        ranks = [(LEVELS[level], FINDINGS[finding]) for level, finding in keys]
        assert ranks == sorted(ranks)


def test_the_planted_gap_and_the_fix(demo: tuple[Path, list[Round]]) -> None:
    site, _ = demo
    before = html_of(site, "en/", BEFORE)
    first = re.search(r'<li class="cf-finding"[^>]*>(.*?)</li>', before, flags=re.S)
    assert first is not None
    assert plain(first.group(1)).startswith("Problem · Decision")
    after = html_of(site, "en/", AFTER)
    tables = re.findall(r'<table id="cf-[^"]+-regression-([^"]+)"', after)
    assert len(tables) == 2
    assert 'id="before-after"' in after
    assert "This round re-measures no earlier round." in plain(before)


def test_downloads(demo: tuple[Path, list[Round]]) -> None:
    site, rounds = demo
    for round_ in rounds:
        folder = site / "data" / round_.round_id
        gaps = list(csv.reader(io.StringIO((folder / "gaps.csv").read_text(encoding="utf-8"))))
        assert tuple(gaps[0]) == GAP_COLUMNS
        listed = (folder / "SHA256SUMS").read_text(encoding="utf-8")
        assert listed.count("\n") == 6
