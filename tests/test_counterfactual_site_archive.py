"""The counterfactual page of a real archive (tests/factories/counterfactual.py, written by
the kind's writer, read back by the reader, its results computed by the statistics):
built through the build's staging and the leak guard, every part present in both
languages, the downloads' columns and the claims check."""

from __future__ import annotations

import csv
import html
import io
import re
from datetime import date
from pathlib import Path

import pytest

from reportgen.guard import check_site
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.render.claims import forbidden_claims
from reportgen.kinds.counterfactual.render.downloads import GAP_COLUMNS
from reportgen.kinds.counterfactual.render.guard import guard_material
from reportgen.kinds.counterfactual.render.site_pages import site
from reportgen.kinds.counterfactual.render.text import catalogue
from reportgen.kinds.rounds import read_round
from reportgen.render.siteconfig import load_build_config
from tests.factories import CONFIG, THEME
from tests.factories.counterfactual import small_round, write

AS_OF = date(2026, 12, 1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Round]:
    from reportgen.build import _stage

    work = tmp_path_factory.mktemp("cf-archive")
    (work / "rounds").mkdir()
    round_ = read_round(write(small_round(), work / "rounds"), with_text=True)
    assert isinstance(round_, Round)
    config = load_build_config(CONFIG, AS_OF)
    source = site([round_], config, cache_dir=work / "cache")
    built = _stage(source, config, THEME, work / "staging")
    check_site(built, [guard_material(round_)], as_of=AS_OF)
    return built, round_


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_every_part_in_order(built: tuple[Path, Round], prefix: str) -> None:
    site_dir, round_ = built
    page = (site_dir / prefix / round_.round_id / "index.html").read_text(encoding="utf-8")
    numbers = re.findall(r"<h2 id=\"[^\"]+\">(\d+)\.", page)
    assert numbers == [str(n) for n in range(2, 12)]
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))
    language = "en" if prefix else "pt-BR"
    assert catalogue(language)["limitations.text"] in text
    allowed = [catalogue(lang)["limitations.text"] for lang in ("pt-BR", "en")]
    assert forbidden_claims(text, allowed) == []
    for variable in round_.variables:
        assert (variable.name_en if prefix else variable.name_pt) in text


def test_downloads_columns(built: tuple[Path, Round]) -> None:
    site_dir, round_ = built
    folder = site_dir / "data" / round_.round_id
    gaps = list(csv.reader(io.StringIO((folder / "gaps.csv").read_text(encoding="utf-8"))))
    assert tuple(gaps[0]) == GAP_COLUMNS
    systems = len(round_.models)
    assert len(gaps) - 1 >= systems * len(round_.attributes) * len(round_.variables)
    listed = (folder / "SHA256SUMS").read_text(encoding="utf-8")
    for name in ("gaps.csv", "groups.csv", "names.csv", "calibration.csv", "results.json"):
        assert f"  {name}\n" in listed
