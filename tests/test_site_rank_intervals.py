"""Rank intervals and the pairs the statistics cover, on the pages (issue 19, all-pairs work).

A built tiny site, in both languages: the ranking shows each ranked model's 95% rank
interval with one sentence saying what it is, and models.csv carries it (integers) beside
the other intervals (full precision). On page contexts: the McNemar captions and the
ranking's matrix follow the pairs the results hold, never the number of models, so that
no caption claims a test that was not computed.
"""

from __future__ import annotations

import csv
import html
import io
import itertools
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render import stats_tables
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.pair_scope import pair_scope, pairwise_note
from reportgen.kinds.estigmas.render.site import site_context
from reportgen.model import Model
from reportgen.render.siteconfig import load_site_config
from tests.factories import CONFIG, make_round
from tests.factories._archives import DEFAULT_MODELS
from tests.support.shared_builds import tiny_site

LANGUAGES = {"pt-BR": "", "en": "en/"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_site(tmp_path_factory)


def _page(site: Path, language: str, name: str) -> str:
    return html.unescape((site / f"{LANGUAGES[language]}{name}").read_text(encoding="utf-8"))


def _results(site: Path, round_id: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((site / "data" / round_id / "results.json").read_text())
    return data


def _rows(page: str, table_id: str) -> list[list[str]]:
    table = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    ]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_ranking_shows_each_rank_interval_and_says_what_it_is(
    site: Path, language: str
) -> None:
    tr = Translator(language)
    page = _page(site, language, "ranking.html")
    ranks = _results(site, "tiny-round")["ranks"]
    assert isinstance(ranks, list)
    assert ranks
    assert tr("table.rank_interval") in page
    note = tr("table.rank_interval_note", replicates=tr.integer(200))
    assert note.split(":")[0] + ":" in page  # the sentence under the table
    rows = _rows(page, "ranking-tiny-round")
    assert len(rows) == len(ranks)
    for row, entry in zip(rows, ranks, strict=True):
        best, worst = tr.integer(entry["best"]), tr.integer(entry["worst"])
        assert row[1] == (best if best == worst else f"{best}–{worst}")


def test_models_csv_carries_the_rank_interval_and_full_precision_intervals(site: Path) -> None:
    results = _results(site, "tiny-round")
    text = (site / "data" / "tiny-round" / "models.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0])[-2:] == ["rank_best", "rank_worst"]
    ranks = {r["model_id"]: r for r in results["ranks"]}  # type: ignore[attr-defined]
    intervals = {i["model_id"]: i for i in results["intervals"]}  # type: ignore[attr-defined]
    for row in rows:
        entry = ranks.get(row["model_id"])
        if entry is None:  # a diagnostic case: no rank, no rank interval
            assert row["rank_best"] == row["rank_worst"] == ""
            continue
        assert (row["rank_best"], row["rank_worst"]) == (str(entry["best"]), str(entry["worst"]))
        index = intervals[row["model_id"]]["index"]
        assert float(row["index_lo"]) == index["lower"]  # unrounded
        assert float(row["index_hi"]) == index["upper"]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_data_dictionary_names_the_rank_interval_columns(site: Path, language: str) -> None:
    tr = Translator(language)
    page = _page(site, language, "data.html")
    for column in ("rank_best", "rank_worst"):
        assert column in page
        assert tr(f"dict.{column}") in page


# The captions follow the pairs the results hold.


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> RoundView:
    """A full round of four models with statistics (McNemar for every pair)."""
    root = tmp_path_factory.mktemp("pair-scope")
    extra = Model("gama-3", "Gama 3", "Provedora C", "gama-3", "", DEFAULT_MODELS[0].evaluated_on)
    models = (*DEFAULT_MODELS, extra)
    round_ = read_round(make_round(root, models=models), with_text=False)
    context = site_context([round_], load_site_config(CONFIG), cache_dir=root / "cache")
    return context.primary


def _with_mcnemar(view: RoundView, keep: set[frozenset[str]]) -> RoundView:
    assert view.stats is not None
    tests = tuple(t for t in view.stats.mcnemar if frozenset((t.model_a, t.model_b)) in keep)
    return replace(view, stats=view.stats.model_copy(update={"mcnemar": tests}))


def _neighbours(view: RoundView) -> set[frozenset[str]]:
    ranked = [row.model_id for row in view.ranked]
    return {frozenset(pair) for pair in itertools.pairwise(ranked)}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_mcnemar_caption_never_claims_a_pair_that_was_not_tested(
    view: RoundView, language: str
) -> None:
    tr = Translator(language)
    every_pair = tr("stats.mcnemar_all.caption")
    every_model = tr("stats.mcnemar.caption", model="X").replace("X", "")
    assert view.stats is not None
    assert len(view.models) == 4
    assert len(view.stats.mcnemar) == 6  # every pair: the caption may say so
    assert stats_tables.mcnemar_all(view, tr).caption == every_pair
    ids = [row.model_id for row in view.models]
    some = {frozenset(ids[:2]), frozenset((ids[0], ids[3]))}
    for keep, scope in ((_neighbours(view), "neighbours"), (some, "some")):
        partial = _with_mcnemar(view, keep)
        assert partial.stats is not None
        assert pair_scope(partial, ((t.model_a, t.model_b) for t in partial.stats.mcnemar)) == scope
        caption = stats_tables.mcnemar_all(partial, tr).caption
        assert caption != every_pair
        assert tr.integer(len(keep)) in caption  # how many pairs were tested
        for model_id in ids:
            own = stats_tables.mcnemar(partial, tr, model_id)
            assert every_model not in own.caption
            tests = partial.stats.mcnemar
            tested = [t for t in tests if model_id in (t.model_a, t.model_b)]
            assert len(own.rows) == len(tested)


def test_the_matrix_is_drawn_only_when_every_pair_has_its_difference(view: RoundView) -> None:
    tr = Translator("en")
    assert view.stats is not None
    assert pairwise_note(view, tr) is None  # every ordered pair: the matrix is drawn
    neighbours = _neighbours(view)
    adjacent_only = tuple(
        d for d in view.stats.differences if frozenset((d.model_a, d.model_b)) in neighbours
    )
    partial = replace(view, stats=view.stats.model_copy(update={"differences": adjacent_only}))
    note = pairwise_note(partial, tr)
    assert note is not None
    assert tr.integer(len(view.stats.adjacent)) in note
