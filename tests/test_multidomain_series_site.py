"""The history pages of the example site (issue 21, point 7): `reportgen build
examples/multidomain/rounds/*` receives reg-2026-1 and reg-2026-2. Every participant's
figures on its history page and on the series page, in both languages, are those of
each round's `reportgen stats`; the bank version register lists exactly the changes the
generator made (reportgen/demo/multidomain/reg_next.py); during the embargo the register
names none of the items a round singled out."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.demo.multidomain.reg import REGULATION, item_drafts
from reportgen.demo.multidomain.reg_next import bank_changes
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.results import Results
from tests.support.shared_builds import EXAMPLES, example_site, run_folder

AFTER = "2027-03-20"  # after both embargoes and every ledger line: as `reportgen stats`
DURING = "2026-12-01"
ROUNDS = ("reg-2026-1", "reg-2026-2")
PREFIX = {"pt-BR": "", "en": "en/"}


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        "after": example_site(tmp_path_factory, "multidomain", AFTER),
        "during": example_site(tmp_path_factory, "multidomain", DURING),
    }


@pytest.fixture(scope="module")
def stats(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Results]:
    """Each round's `reportgen stats` (the example builds' cache: the same ledger)."""
    cache = run_folder(tmp_path_factory) / "example-multidomain-cache"
    out = tmp_path_factory.mktemp("stats")
    found = {}
    for round_id in ROUNDS:
        target = out / f"{round_id}.json"
        arguments = ["stats", str(EXAMPLES / "multidomain" / "rounds" / round_id)]
        result = CliRunner().invoke(
            main, [*arguments, "--out", str(target), "--cache-dir", str(cache)]
        )
        assert result.exit_code == 0, result.output
        found[round_id] = Results.model_validate_json(target.read_text(encoding="utf-8"))
    return found


def text_of(site: Path, language: str, page: str) -> str:
    raw = (site / f"{PREFIX[language]}{page}.html").read_text(encoding="utf-8")
    raw = raw[raw.index("<article") : raw.index("</article>")]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", raw)))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_each_participants_history_is_each_rounds_stats(
    sites: dict[str, Path], stats: dict[str, Results], language: str
) -> None:
    text = Text(language)
    overview = text_of(sites["after"], language, "series/index")
    model_ids = [p.model_id for p in stats[ROUNDS[0]].participants]
    assert len(model_ids) == 15
    for model_id in model_ids:
        page = text_of(sites["after"], language, f"series/{model_id}")
        cells = []
        for round_id in ROUNDS:
            results = stats[round_id]
            own = next(p for p in results.participants if p.model_id == model_id)
            groups = {m: n for n, g in enumerate(results.tie_groups, start=1) for m in g}
            tie = text.t("ties.group", number=groups[model_id]) if model_id in groups else "–"
            rank = text.t("series.rank_of", rank=own.rank, of=len(results.participants))
            row = (
                f"{round_id} "
                f"{text.t('series.version', version='1.1') if round_id == ROUNDS[1] else ''}"
            )
            figures = (
                f"{rank} {tie} {text.score(own.primary)} {text.integer(own.primary.n)} "
                f"{text.score(own.global_score)} {text.integer(own.global_score.n)}"
            )
            assert row.strip() in page
            assert figures in page, (model_id, round_id, figures)
            cells.append(text.t("series.rank_score", rank=own.rank, score=text.score(own.primary)))
        assert f"{stats[ROUNDS[1]].participants[0].display_name}" in overview
        name = next(p.display_name for p in stats[ROUNDS[1]].participants if p.model_id == model_id)
        assert f"{name} {cells[0]} {cells[1]}" in overview


def _expected_changes() -> tuple[set[tuple[str, str]], set[str], set[str]]:
    """(revised pairs, added ids, removed ids) as the generator made them."""
    v11, revisions = bank_changes()
    v10 = {d.item_id for d in item_drafts(REGULATION)[0] if not d.calibration and not d.variant_of}
    new = {d.item_id for d in v11}
    pairs = {(r.revises, r.item_id) for r in revisions}
    olds, news = {old for old, _ in pairs}, {n for _, n in pairs}
    return pairs, new - v10 - news, v10 - new - olds


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_bank_register_lists_exactly_the_changed_items(
    sites: dict[str, Path], language: str
) -> None:
    pairs, added, removed = _expected_changes()
    assert len(pairs) == 3
    assert added == {"i-nego-101", "i-prop-101"}
    assert len(removed) == 2
    page = text_of(sites["after"], language, "series/bank-versions")
    text = Text(language)
    counts = text.t("series.step_counts", kept="695", added="2", removed="2", revised="3")
    assert counts in page
    named = set(re.findall(r"\bi-[a-z]+-\d{3}(?:-v2|-r1)?\b", page))
    assert named == {i for pair in pairs for i in pair} | added | removed
    for old, new in pairs:
        assert re.search(rf"{re.escape(old)} [0-9a-f]{{64}} {re.escape(new)} [0-9a-f]{{64}}", page)


def test_during_the_embargo_the_register_names_no_singled_out_item(sites: dict[str, Path]) -> None:
    for language in ("pt-BR", "en"):
        page = text_of(sites["during"], language, "series/bank-versions")
        assert not re.search(r"i-bank-011(-v2)?\b", page)  # reg-2026-1's leaked item, variant
        hidden = Text(language).t("series.hidden", count="COUNT").split("COUNT")
        assert re.search(re.escape(hidden[0]) + r"\d+" + re.escape(hidden[1]), page)
        assert "i-nego-101" in page  # a new item no round singled out


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_home_page_links_the_history(sites: dict[str, Path], language: str) -> None:
    home = (sites["after"] / f"{PREFIX[language]}index.html").read_text(encoding="utf-8")
    assert 'href="series/index.html"' in home
    assert Text(language).t("series.title") in html.unescape(home)
