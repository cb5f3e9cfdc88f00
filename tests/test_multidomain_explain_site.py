"""What a reader of the multidomain report needs explained (issue 24, point 3), on the built
demonstration site in both languages: the jury's effect, how to contest an item, the
outcome of every contamination flag, the technical-tie legend, the head-to-head matrices
in rank order and the items split into one page per domain."""

from __future__ import annotations

import csv
import html
import io
import itertools
import json
import re
from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.multidomain import model as md
from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.terms import round_as_of
from reportgen.model import Annulment
from tests.support.multidomain_site import WHEN, build_site_of, tiny_results, tiny_round
from tests.support.shared_builds import example_site

ROUND = "reg-2026-1"  # ended_on 2026-11-20: embargo ends 2027-02-18
PREFIX = {"pt-BR": ROUND, "en": f"en/{ROUND}"}
LANGUAGES = ["pt-BR", "en"]
DOMAINS = ("juridica", "medica", "proptech", "compliance", "bank", "energia", "negocios")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same builds as test_multidomain_example_site (shared, built once per run)."""
    return {
        "during": example_site(tmp_path_factory, "multidomain", "2026-12-01"),
        "after": example_site(tmp_path_factory, "multidomain", "2027-03-20"),
    }


class _Tables(HTMLParser):
    """The header and body cells (text as shown) of every table of a page, by id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._rows: list[list[str]] | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._rows = self.tables.setdefault(dict(attrs).get("id") or "", [])
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._rows is not None and self._cell is not None:
            self._rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._rows = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def page(site: Path, language: str, stem: str) -> str:
    return (site / PREFIX[language] / f"{stem}.html").read_text(encoding="utf-8")


def article(markup: str) -> str:
    """The page's own text (no navigation), tags dropped, entities decoded."""
    body = markup[markup.index("<article") : markup.index("</article>")]
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", body).split()))


def table(site: Path, language: str, stem: str, table_id: str) -> list[list[str]]:
    """The rows of a table as shown, the header first."""
    parser = _Tables()
    parser.feed(page(site, language, stem))
    assert table_id in parser.tables, f"{stem}: no table {table_id}"
    return parser.tables[table_id]


def results(site: Path) -> dict[str, Any]:
    loaded = json.loads((site / "data" / ROUND / "results.json").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def participants(site: Path) -> list[dict[str, str]]:
    text = (site / "data" / ROUND / "participants.csv").read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def count(value: int, language: str) -> str:
    """A count as the pages write it (the kind's own number format)."""
    return Text(language).decimal(Decimal(value), 0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_jury_effect_per_participant_and_per_judge(
    sites: dict[str, Path], language: str
) -> None:
    site, text = sites["during"], Text(language)
    found = results(site)["participants"]
    assert isinstance(found, list)
    rows = table(site, language, "classification", f"md-{ROUND}-jury")[1:]
    assert [row[0] for row in rows] == [p["display_name"] for p in found]
    for row, p in zip(rows, found, strict=True):
        assert row[1:3] == [count(p["jury_scored"], language), count(p["adjudicated"], language)]
    scored = sum(p["jury_scored"] for p in found)
    adjudicated = sum(p["adjudicated"] for p in found)
    assert adjudicated > 0
    words = article(page(site, language, "classification"))
    assert text.t("jury.title") in words
    assert count(adjudicated, language) in words
    assert count(scored, language) in words
    judges = table(site, language, "classification", f"md-{ROUND}-judge-means")[1:]
    assert [row[0] for row in judges] == [
        "Jurado Aroeira", "Jurado Ingá", "Jurado Cajá", "Adjudicador Umbu",
    ]  # fmt: skip
    assert judges[3][2] == count(adjudicated, language)
    assert "Revisora humana 1" not in words  # reviewers are not jurors, and never named


def test_the_jury_effect_is_what_the_adjudicator_moved() -> None:
    """Jurors 1, 3 and 5 on i3 for p1 (range 4 > 3/2): the Adjudicator's 4 replaces the
    mean 3, so p1 gains 5 × (4 − 3) / 5 = 1 point; i7 is annulled and does not count."""
    from reportgen.kinds.multidomain.stats.jury_effect import jury_effect

    base = tiny_round()
    scores = {"j1": 1, "j2": 3, "j3": 5}
    jury = tuple(
        replace(row, score=scores[row.judge_id])
        if (row.item_id, row.model_id) == ("i3", "p1")
        else row
        for row in base.jury
    )
    adjudication = md.Adjudication("i3", "p1", 1, "a1", "c1", 4, WHEN)
    effect = jury_effect(replace(base, jury=jury, adjudications=(adjudication,)))
    p1, p2 = effect.participants["p1"], effect.participants["p2"]
    one, four, zero = Fraction(1), Fraction(4), Fraction(0)
    assert (p1.scored, p1.adjudicated, p1.points_moved, p1.mean_range) == (1, 1, one, four)
    assert (p2.scored, p2.adjudicated, p2.points_moved, p2.mean_range) == (1, 0, zero, zero)
    assert effect.judges["j1"].mean == Fraction(1 + 4 + 4, 3)
    assert (effect.judges["a1"].responses, effect.judges["a1"].mean) == (1, four)


CONTEST = {
    "pt-BR": ["Como contestar um item (Art. 43)", "Art. 42", "MD-I16",
              "de 18 de fevereiro de 2027 a 28 de fevereiro de 2027", "10 dias corridos",
              "Itens de calibração", "responde em até 10 dias",
              "ainda não foi definido"],
    "en": ["How to challenge an item (Art. 43)", "Art. 42", "MD-I16",
           "from February 18, 2027 to February 28, 2027", "10 calendar days",
           "Calibration items", "replies within 10 days", "has not been set yet"],
}  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_round_page_says_how_to_contest_an_item(sites: dict[str, Path], language: str) -> None:
    words = article(page(sites["during"], language, "index"))
    for fragment in CONTEST[language]:
        assert fragment in words, fragment
    # examples/multidomain/site.yml still tags the address !placeholder: never printed.
    assert "contestacoes@example.org" not in words


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_contamination_flag_with_its_outcome(sites: dict[str, Path], language: str) -> None:
    text = Text(language)
    after = sites["after"]
    found = results(after)["contamination"]
    assert isinstance(found, dict)
    flags = table(after, language, "contamination", f"md-{ROUND}-flags")[1:]
    listed = len(found["full_canaries"]) + len(found["suspicious_canaries"])
    assert len(flags) == listed + len(found["ngram_flagged"])
    per_participant = table(after, language, "contamination", f"md-{ROUND}-ngram")[1:]
    ngram = text.t("contamination.check.ngram")
    for row in per_participant:  # the count beside each name is its rows below
        mine = [f for f in flags if f[0] == row[0] and f[1] == ngram]
        assert row[1] == count(len(mine), language), row
        assert row[2] == count(len({f[2] for f in mine}), language), row
    canary = next(f for f in flags if f[1] == text.t("contamination.check.full_canary"))
    assert canary[2] == "i-bank-011"
    assert canary[5] == text.t("contamination.outcome.variant_named", variant="i-bank-011-v2")
    assert {f[5] for f in flags if f[1] == ngram} == {text.t("contamination.outcome.none")}
    # Before the embargo: every flag and its outcome, no item id (nor the variant's).
    during = table(sites["during"], language, "contamination", f"md-{ROUND}-flags")[1:]
    assert len(during) == len(flags)
    assert not re.search(r"i-[a-z]+-\d", " ".join(" ".join(row) for row in during))
    assert text.t("contamination.outcome.variant") in {row[5] for row in during}


def test_a_flag_outcome_reads_the_ledger_up_to_the_date_of_the_site() -> None:
    from reportgen.kinds.multidomain.render.sections_integrity import outcome

    text = Text("en")
    confirmed = Annulment("i3", date(2027, 3, 1), "contamination", "CT-1", {}, "")
    round_ = replace(tiny_round(), annulments=(*tiny_round().annulments, confirmed))
    # As the site builds it: the context's round is the round as of the site's date.
    before = RoundContext(round_as_of(round_, date(2027, 2, 28)), tiny_results(), date(2027, 2, 28))
    after = RoundContext(round_as_of(round_, date(2027, 3, 1)), tiny_results(), date(2027, 3, 1))
    assert outcome(before, text, "i3") == text.t("contamination.outcome.none")
    assert outcome(after, text, "i3") == text.t(
        "contamination.outcome.annulled", date="March 1, 2027"
    )
    assert outcome(after, text, "i7") == text.t(
        "contamination.outcome.other", source="audit", date="December 5, 2026"
    )


@pytest.fixture(scope="module")
def tiny_with_contact(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The in-memory tiny round with a contamination ledger line for i3 (flagged for P2)
    and a contestation address set in the site's configuration."""
    confirmed = Annulment(
        "i3", date(2027, 3, 2), "contamination", "CT-1",
        {"pt-BR": "Contaminação confirmada.", "en": "Contamination confirmed."}, "",
    )  # fmt: skip
    round_ = replace(tiny_round(), annulments=(*tiny_round().annulments, confirmed))
    work = tmp_path_factory.mktemp("tiny-contact")
    return build_site_of(work, date(2027, 3, 25), round_, contact="contestar@exemplo.org")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_set_contact_and_a_confirmed_flag_on_the_built_pages(
    tiny_with_contact: Path, language: str
) -> None:
    text = Text(language)
    prefix = {"pt-BR": "md-tiny", "en": "en/md-tiny"}[language]
    home = article((tiny_with_contact / prefix / "index.html").read_text(encoding="utf-8"))
    assert "contestar@exemplo.org" in home
    assert text.t("contest.contact", contact="contestar@exemplo.org") in home
    found = (tiny_with_contact / prefix / "contamination.html").read_text(encoding="utf-8")
    parser = _Tables()
    parser.feed(found)
    row = parser.tables["md-md-tiny-flags"][1]
    assert row[:3] == ["Baobá Dois", text.t("contamination.check.ngram"), "i3"]
    assert row[5] == text.t("contamination.outcome.annulled", date=text.date(date(2027, 3, 2)))


PRIMARY = {"pt-BR": "nota principal", "en": "primary score"}
TIED = {"pt-BR": "empate técnico com o anterior", "en": "technically tied with the one above"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_tied_neighbours_are_not_decided_and_the_groups_have_a_legend(
    sites: dict[str, Path], language: str
) -> None:
    text = Text(language)
    site = sites["during"]
    groups = results(site)["tie_groups"]
    assert isinstance(groups, list)
    assert groups
    rows = table(site, language, "classification", f"md-{ROUND}-ranking")[1:]
    names = {p["model_id"]: p["display_name"] for p in participants(site)}
    group_of = {names[m]: n for n, group in enumerate(groups, 1) for m in group}
    for above, row in itertools.pairwise(rows):
        same = group_of.get(row[1]) is not None and group_of.get(row[1]) == group_of.get(above[1])
        assert not (same and row[10] == PRIMARY[language]), row
        assert (row[10] == TIED[language]) is same, row
    words = article(page(site, language, "classification"))
    assert text.t("classification.legend") in words
    for n, group in enumerate(groups, 1):
        line = text.t("ties.group_line", number=n, names=", ".join(names[m] for m in group))
        assert line in words


@pytest.mark.parametrize("language", LANGUAGES)
def test_head_to_head_matrices_follow_the_classification(
    sites: dict[str, Path], language: str
) -> None:
    site = sites["during"]
    order = [p["display_name"] for p in participants(site)]
    for table_id in (f"md-{ROUND}-matrix", f"md-{ROUND}-win-probability"):
        rows = table(site, language, "head-to-head", table_id)
        assert rows[0][1:] == order
        assert [row[0] for row in rows[1:]] == order


@pytest.mark.parametrize("language", LANGUAGES)
def test_items_come_one_page_per_domain_from_an_index(
    sites: dict[str, Path], language: str
) -> None:
    after, during = sites["after"], sites["during"]
    index = page(after, language, "items")
    article_html = index[index.index("<article") : index.index("</article>")]
    links = re.findall(r'href="(items-[a-z]+)\.html"', article_html)
    assert links == [f"items-{d}" for d in DOMAINS]
    assert 'lang="zh"' not in article_html  # the index holds no item
    seen: list[str] = []
    for domain in DOMAINS:
        markup = page(after, language, f"items-{domain}")
        ids = re.findall(r'<h2 id="[^"]*">(i-[a-z]+-\d{3}(?:-v\d)?)', markup)
        assert ids, domain
        assert all(i.startswith(f"i-{domain[:4]}-") for i in ids), domain
        seen += ids
        # The site's navigation lists every domain page, on every page of the round.
        assert all(f'href="items-{d}.html"' in markup for d in DOMAINS)
    assert len(seen) == len(set(seen)) == 701  # 700 active items and one superseded
    assert all(not (during / PREFIX[language] / f"items-{d}.html").exists() for d in DOMAINS)
