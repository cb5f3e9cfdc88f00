"""A built site of a continuous round past `ALL_PAIRS_UP_TO` models (issue 19, all-pairs work;
the run's shared scale site, tests/support/shared_builds.py),
in both languages: the ranking shows every model's rank interval, its matrix is not drawn
and says why, the McNemar captions (bias page, model pages) say that only adjacent ranks
were tested and every McNemar row is a pair the results hold, the compare page lists
each model and the next, both ways, with the differences read from the replicates (the
results' values wherever they hold the pair), and the bias page's heatmaps show the first
`HEATMAP_MODELS` models and link every model's rates."""

from __future__ import annotations

import csv
import html
import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render.heatmaps import HEATMAP_MODELS
from reportgen.kinds.estigmas.results import ALL_PAIRS_UP_TO
from tests.support.shared_builds import SCALE_MODELS, scale_site

pytestmark = pytest.mark.slow

MODELS = SCALE_MODELS
ROUND = "idje-avalia-2026-07"
LANGUAGES = {"pt-BR": "", "en": "en/"}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert MODELS > ALL_PAIRS_UP_TO  # past the all-pairs work: adjacent ranks only
    return scale_site(tmp_path_factory)


@pytest.fixture(scope="module")
def results(site: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((site / "data" / ROUND / "results.json").read_text())
    return data


def _page(site: Path, language: str, name: str) -> str:
    return html.unescape((site / f"{LANGUAGES[language]}{name}").read_text(encoding="utf-8"))


def _table(page: str, table_id: str) -> tuple[str, list[list[str]]]:
    """The caption and the body's cells (text, tags stripped) of the table `table_id`."""
    table = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    caption = re.sub(r"<[^>]+>", "", table.split("<caption", 1)[1].split("</caption>", 1)[0])
    body = table.split("<tbody>", 1)[1]
    rows = [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    ]
    return caption.split(">", 1)[-1].strip(), rows


def _counts(tr: Translator, tested: int) -> dict[str, str]:
    return {
        "models": tr.integer(MODELS),
        "pairs": tr.integer(MODELS * (MODELS - 1) // 2),
        "count": tr.integer(tested),
    }


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_ranking_has_rank_intervals_and_no_matrix(
    site: Path, results: dict[str, Any], language: str
) -> None:
    tr = Translator(language)
    page = _page(site, language, "ranking.html")
    _, rows = _table(page, f"ranking-{ROUND}")
    assert len(rows) == len(results["ranks"]) > ALL_PAIRS_UP_TO // 2
    for row, entry in zip(rows, results["ranks"], strict=True):
        best, worst = tr.integer(entry["best"]), tr.integer(entry["worst"])
        assert row[1] == (best if best == worst else f"{best}–{worst}")
    assert f'id="pairwise-{ROUND}"' not in page
    note = tr(
        "ranking.pairwise_neighbours",
        models=tr.integer(MODELS),
        pairs=tr.integer(MODELS * MODELS),
        count=tr.integer(len(results["adjacent"])),
    )
    assert note in page


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_mcnemar_captions_say_only_adjacent_ranks_were_tested(
    site: Path, results: dict[str, Any], language: str
) -> None:
    tr = Translator(language)
    tested = {frozenset((t["model_a"], t["model_b"])) for t in results["mcnemar"]}
    ranked = [entry["model_id"] for entry in results["ranks"]]
    assert tested == {frozenset(pair) for pair in itertools.pairwise(ranked)}
    names = {m["display_name"]: m["model_id"] for m in results["models"]}
    bias = _page(site, language, "bias.html")
    caption, rows = _table(bias, f"mcnemar-{ROUND}")
    assert caption == tr("stats.mcnemar_neighbours.caption", **_counts(tr, len(tested)))
    assert tr("stats.mcnemar_all.caption") not in bias
    assert {frozenset((names[row[0]], names[row[1]])) for row in rows} == tested
    first = ranked[0]
    model = _page(site, language, f"models/{first}.html")
    caption, rows = _table(model, f"mcnemar-{first}")
    name = next(m["display_name"] for m in results["models"] if m["model_id"] == first)
    assert caption == tr(
        "stats.mcnemar_neighbours.model_caption", model=name, **_counts(tr, len(tested))
    )
    assert [names[row[0]] for row in rows] == [ranked[1]]  # its one neighbour


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_compare_page_lists_each_model_and_the_next(
    site: Path, results: dict[str, Any], language: str
) -> None:
    tr = Translator(language)
    page = _page(site, language, "compare.html")
    caption, rows = _table(page, f"differences-{ROUND}")
    assert caption == tr(
        "compare.differences.caption_next",
        models=tr.integer(MODELS),
        pairs=tr.integer(MODELS * (MODELS - 1)),
    )
    order = [m["model_id"] for m in results["models"]]
    names = {m["display_name"]: m["model_id"] for m in results["models"]}
    listed = [(names[row[0]], names[row[1]]) for row in rows]
    assert listed == [p for x, y in itertools.pairwise(order) for p in ((x, y), (y, x))]
    stored = {(d["model_a"], d["model_b"]): d for d in results["differences"]}
    held = [(pair, row) for pair, row in zip(listed, rows, strict=True) if pair in stored]
    assert len(held) == 2 * len(results["adjacent"])
    for pair, row in held:
        d = stored[pair]
        assert row[2] == tr.points(d["estimate"])
        assert row[3] == f"[{tr.points(d['lower'])}; {tr.points(d['upper'])}]"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_heatmaps_show_the_first_models_and_link_every_models_rates(
    site: Path, results: dict[str, Any], language: str
) -> None:
    tr = Translator(language)
    page = _page(site, language, "bias.html")
    first = [m["display_name"] for m in results["models"]][:HEATMAP_MODELS]
    assert MODELS > HEATMAP_MODELS
    for chart in (f"heatmap-stigma-{ROUND}", f"heatmap-axis-{ROUND}"):
        table = page.split(f'id="{chart}-data"', 1)[1].split("</thead>", 1)[0]
        header = [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<th[^>]*>(.*?)</th>", table)
        ]
        assert header[1:] == first  # a column per model shown, in ranking order
        text = (site / LANGUAGES[language] / "charts" / f"{chart}.csv").read_text(encoding="utf-8")
        assert {row["model"] for row in csv.DictReader(io.StringIO(text))} == set(first)
    root = "" if language == "pt-BR" else "../"
    links = {name: f"{root}data/{ROUND}/{name}" for name in ("stigmas.csv", "axes.csv")}
    note = tr(
        "bias.heatmaps_capped",
        total=tr.integer(MODELS),
        shown=tr.integer(HEATMAP_MODELS),
        stigmas=links["stigmas.csv"],
        axes=links["axes.csv"],
    )
    shown = re.sub(r"\[([^]]+)\]\([^)]+\)", r"\1", note)  # its Markdown links, as read
    paragraphs = [re.sub(r"<[^>]+>", "", p) for p in re.findall(r"<p>(.*?)</p>", page, re.S)]
    assert shown in paragraphs
    for name, link in links.items():
        assert f'href="{link}"' in page
        text = (site / "data" / ROUND / name).read_text(encoding="utf-8")
        listed = {row["model_id"] for row in csv.DictReader(io.StringIO(text))}
        assert listed == {m["model_id"] for m in results["models"]}
