"""The published report of a multidomain round (report spec): every section on the built
pages in both languages, the notices, the embargo, the downloads and the leak guard."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from datetime import date
from pathlib import Path

import pytest

from reportgen.guard import LeakError, check_site
from reportgen.kinds.multidomain.render.context import SECTIONS
from reportgen.kinds.multidomain.render.downloads import (
    PAIRWISE_COLUMNS,
    PARTICIPANT_COLUMNS,
    SLICE_COLUMNS,
)
from reportgen.kinds.multidomain.render.guard import guard_material
from reportgen.kinds.multidomain.render.site_pages import site
from reportgen.render.siteconfig import load_site_config
from tests.factories import CONFIG
from tests.support.multidomain_site import (
    A_JUSTIFICATION,
    CANARIES,
    EMBARGO_END,
    I3_ANCHOR_5,
    I3_PROMPT,
    I7_PROMPT,
    build_site_of,
    tiny_round,
)

BEFORE = date(2027, 1, 10)  # after ended_on, before the embargo end
AFTER = date(2027, 3, 25)  # after the embargo and the provisional period
ART2 = {
    "pt-BR": "Este resultado não constitui certificação, selo de qualidade nem recomendação de"
    " contratação.",
    "en": "This result is not a certification, a quality seal or a hiring recommendation.",
}
PREFIX = {"pt-BR": "md-tiny", "en": "en/md-tiny"}


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site_of(tmp_path_factory.mktemp("before"), BEFORE)


@pytest.fixture(scope="module")
def after(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site_of(tmp_path_factory.mktemp("after"), AFTER)


def page(site_dir: Path, language: str, stem: str) -> str:
    return (site_dir / PREFIX[language] / f"{stem}.html").read_text(encoding="utf-8")


def visible(html: str) -> str:
    """The page's text with tags dropped and entities decoded (what a reader sees)."""
    import html as html_module

    # A <span> (table.py's layout marks) is inline: it adds no space between words.
    inline = re.sub(r"</?span\b[^>]*>", "", html)
    return html_module.unescape(re.sub(r"<[^>]+>", " ", inline))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_every_page_of_the_round_carries_the_art2_banner_and_synthetic_notice(
    before: Path, language: str
) -> None:
    stems = ["index", *(stem for stem, _ in SECTIONS if stem != "items")]
    synthetic = "Dados sintéticos" if language == "pt-BR" else "Synthetic data"
    for stem in stems:
        text = visible(page(before, language, stem))
        assert ART2[language] in text, stem
        assert synthetic in text, stem


@pytest.mark.parametrize(
    ("language", "notice"),
    [("pt-BR", "Resultados provisórios até 20 de março de 2027"),
     ("en", "Provisional results until March 20, 2027")],
)  # fmt: skip
def test_provisional_notice_until_ended_on_plus_110_days(
    before: Path, after: Path, language: str, notice: str
) -> None:
    assert notice in visible(page(before, language, "classification"))
    assert notice not in visible(page(after, language, "classification"))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_sections_come_in_the_spec_order_with_stable_anchors(after: Path, language: str) -> None:
    for number, (stem, _) in enumerate(SECTIONS, start=1):
        html = page(after, language, stem)
        heading = re.search(rf'<h1 id="{stem}">\s*{number}\.', html)
        assert heading, stem
    home = page(after, language, "index")
    home = home[home.index("<article") : home.index("</article>")]
    links = re.findall(r'href="([a-z-]+)\.html"', home)
    assert [s for s in links if s in dict(SECTIONS)] == [stem for stem, _ in SECTIONS]


def test_methodology_prints_deviations_interpretations_and_what_cannot_be_checked(
    before: Path,
) -> None:
    text = visible(page(before, "en", "methodology"))
    assert "multidomain.cast_size" in text
    assert "Demonstration round with 3 participants." in text
    assert "MD-I10" in text
    assert "Reading R2." in text
    for article in ("Art. 18", "Art. 35", "Art. 40"):
        assert article in text
    assert "b" * 64 in text
    assert "c" * 64 in text
    assert "1,000 replicates, seed 7" in text


def test_cast_has_footnotes_for_verificar_and_no_reviewer_names(before: Path) -> None:
    text = visible(page(before, "pt-BR", "cast"))
    assert "Cerrado Três [1]" in text
    assert "Dados em verificação." in text
    assert "Maria Revisora" not in text


@pytest.mark.parametrize(
    ("language", "primary"), [("pt-BR", "90,28 [90,28; 90,28]"), ("en", "90.28 [90.28, 90.28]")]
)
def test_classification_shows_each_score_with_its_interval(
    before: Path, language: str, primary: str
) -> None:
    html = page(before, language, "classification")
    table = html[html.index('id="md-md-tiny-ranking"') :]
    first_row = table[table.index("<tbody>") : table.index("</tr>", table.index("<tbody>"))]
    assert "Cerrado Três" in first_row
    assert primary in visible(first_row)
    assert 'href="md-md-tiny-ranking.csv"' in html


def test_domains_and_languages_tables(before: Path) -> None:
    html = page(before, "en", "domains-languages")
    for table_id in ("md-md-tiny-domains", "md-md-tiny-languages", "md-md-tiny-types"):
        assert f'id="{table_id}"' in html
    assert "Legal" in html
    assert "Banking" in html


@pytest.mark.parametrize(
    ("language", "words"),
    [("pt-BR", "Leitura de robustez; não altera a classificação."),
     ("en", "Robustness reading; does not change the ranking.")],
)  # fmt: skip
def test_head_to_head_matrix_and_robustness_note(before: Path, language: str, words: str) -> None:
    html = page(before, language, "head-to-head")
    assert words in visible(html)
    matrix = html[html.index('id="md-md-tiny-matrix"') :]
    assert "3/1/3" in matrix[: matrix.index("</table>")]


def test_process_says_it_does_not_change_the_score(before: Path) -> None:
    assert "Não altera a nota." in visible(page(before, "pt-BR", "process"))
    assert "Does not change the score." in visible(page(before, "en", "process"))


def test_discarded_items_list_the_ledger(before: Path) -> None:
    text = visible(page(before, "en", "discarded"))
    assert "Audit divergence above 1." in text
    assert "i7" in text


def test_audit_shows_the_divergence_not_the_reviewer_score(before: Path) -> None:
    html = page(before, "en", "human-audit")
    invalid = html[html.index('id="md-md-tiny-invalidated"') :]
    invalid = invalid[: invalid.index("</table>")]
    assert "i7" in invalid
    assert "1.50" in invalid
    assert "2.50" not in invalid  # the human score of one response


def test_calibration_items_are_published_in_full(before: Path) -> None:
    text = visible(page(before, "pt-BR", "calibration"))
    assert "Resuma em três frases" in text
    assert "Nomeia partes, imóvel, prazo" in text


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_contamination_names_flagged_items_only_after_the_embargo(
    before: Path, after: Path, language: str
) -> None:
    def row(site_dir: Path) -> str:
        html = page(site_dir, language, "contamination")
        table = html[html.index('id="md-md-tiny-flags"') :]
        return table[: table.index("</table>")]

    assert re.search(r">i3<", row(after))
    assert not re.search(r"\bi3\b", row(before))


def test_limitations_come_from_our_catalogue(before: Path) -> None:
    text = visible(page(before, "en", "limitations"))
    assert "Elo depends on the public item order" in text
    assert "multidomain.cast_size" in text
    assert "provisional until March 20, 2027" in text


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_items_only_from_the_embargo_end(before: Path, after: Path, language: str) -> None:
    assert not (before / PREFIX[language] / "items.html").exists()
    assert not (before / PREFIX[language] / "items-d1.html").exists()
    # One page per domain under the items' index: d1 holds a and i3, d2 f and i7.
    assert 'href="items-d2.html"' in page(after, language, "items")
    assert f'<div lang="zh">{I7_PROMPT}</div>' in page(after, language, "items-d2")
    text = visible(page(after, language, "items-d1"))
    assert I3_PROMPT in text
    assert A_JUSTIFICATION in text
    assert I3_ANCHOR_5 in text


def test_no_secret_text_before_the_embargo(before: Path) -> None:
    everything = "".join(
        p.read_text(encoding="utf-8", errors="replace") for p in before.rglob("*") if p.is_file()
        and p.suffix in (".html", ".csv", ".json")
    )  # fmt: skip
    for secret in (I3_PROMPT[:40], I7_PROMPT[:8], A_JUSTIFICATION[:40], I3_ANCHOR_5[:30]):
        assert secret not in everything
    for canary in CANARIES.values():
        assert canary not in everything


def test_downloads_have_the_spec_columns_and_checksums(before: Path) -> None:
    folder = before / "data" / "md-tiny"
    expected = {
        "participants.csv": PARTICIPANT_COLUMNS,
        "slices.csv": SLICE_COLUMNS,
        "pairwise.csv": PAIRWISE_COLUMNS,
    }
    for name, columns in expected.items():
        header = next(csv.reader(io.StringIO((folder / name).read_text(encoding="utf-8"))))
        assert tuple(header) == columns
    assert PARTICIPANT_COLUMNS[:4] == ("model_id", "display_name", "rank", "primary")
    rows = list(csv.DictReader(io.StringIO((folder / "participants.csv").read_text("utf-8"))))
    assert [r["model_id"] for r in rows] == ["p3", "p1", "p2"]
    assert rows[1]["primary"] == repr(5225 / 63)
    sums: dict[str, str] = {}
    for line in (folder / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ")
        sums[name] = digest
    report = {
        "participants.csv", "slices.csv", "pairwise.csv", "process.csv", "results.json",
        "results.schema.json",
    }  # fmt: skip
    # The register's Atom feeds (Art. 43) are listed too; the released items are not
    # there before the embargo (tests/test_multidomain_register.py).
    assert set(sums) == report | {"register-pt-BR.xml", "register-en.xml"}
    for name, digest in sums.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    home = page(before, "en", "index")
    for name in report:
        assert f'href="../../data/md-tiny/{name}"' in home
    published = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    assert [f["item_id"] for f in published["contamination"]["ngram_flagged"]] == [""]


def test_planted_leaks_on_built_pages_are_refused(after: Path, tmp_path: Path) -> None:
    import shutil

    site_dir = tmp_path / "site"
    shutil.copytree(after, site_dir)
    target = site_dir / "md-tiny" / "limitations.html"
    clean = target.read_text(encoding="utf-8")
    material = [guard_material(tiny_round())]
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c
                        for c in CANARIES["i3"])  # fmt: skip
    for leak, when in (
        (I7_PROMPT[3:11], BEFORE),  # eight Chinese characters of a test prompt
        (fullwidth, AFTER),  # a canary in fullwidth form, after the embargo too
        (CANARIES["f"], AFTER),
    ):
        target.write_text(clean.replace("</article>", f"<p>{leak}</p></article>"), "utf-8")
        with pytest.raises(LeakError):
            check_site(site_dir, material, as_of=when)
    target.write_text(clean, encoding="utf-8")
    check_site(site_dir, material, as_of=AFTER)


def test_as_of_before_ended_on_is_refused() -> None:
    config = load_site_config(CONFIG)
    from dataclasses import replace

    from reportgen.errors import InputError

    with pytest.raises(InputError, match=r"^--as-of 2026-11-29: earlier than the end of round"):
        site([tiny_round()], replace(config, as_of=date(2026, 11, 29)), cache_dir=None)
    assert EMBARGO_END > BEFORE


def test_both_catalogues_have_the_same_keys() -> None:
    from reportgen.kinds.multidomain.render.text import catalogue

    assert set(catalogue("pt-BR")) == set(catalogue("en"))


@pytest.mark.parametrize(
    ("language", "row"),
    [("pt-BR", "Prazo para reverter divergências da reverificação (Art. 6) 9 de novembro de 2026"
      " (5 dias úteis após a reverificação de 1º de novembro de 2026; feriados nacionais"
      " excluídos)"),
     ("en", "Divergences found on re-verification reverted by (Art. 6) November 9, 2026"
      " (5 business days after the re-verification of November 1, 2026; Brazil's national"
      " holidays excluded)")],
)  # fmt: skip
def test_the_dates_table_shows_the_art6_deadline_and_the_art36_end(
    after: Path, language: str, row: str
) -> None:
    # Re-verified Sunday 1 November: All Souls' Day (2 November) is a national holiday, so
    # the 5 business days are 3 to 6 and 9 November.
    text = " ".join(visible(page(after, language, "index")).split())
    assert row in text
    kept = {"pt-BR": "(Art. 36: 24 meses após o fim) 30 de novembro de 2028",
            "en": "(Art. 36: 24 months after the end) November 30, 2028"}  # fmt: skip
    assert kept[language] in text
