"""The report of the real tiny round (metrics §11, reportgen.demo) with its computed
results: the worked example's figures on the built pages in both languages, the embargo
of the items, and leaks planted in the built pages."""

from __future__ import annotations

import html
import re
import shutil
from datetime import date
from pathlib import Path

import pytest

from reportgen.guard import LeakError, check_site
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.render.guard import guard_material
from tests.support.multidomain_site import build_tiny_site

BEFORE = date(2027, 1, 10)
AFTER = date(2027, 3, 25)
ROUND = "tiny-2026-11"
PREFIX = {"pt-BR": ROUND, "en": f"en/{ROUND}"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Round]]:
    return {
        "before": build_tiny_site(tmp_path_factory.mktemp("before"), BEFORE),
        "after": build_tiny_site(tmp_path_factory.mktemp("after"), AFTER),
    }


def text_of(site_dir: Path, language: str, stem: str) -> str:
    page = (site_dir / PREFIX[language] / f"{stem}.html").read_text(encoding="utf-8")
    page = page[page.index("<article") : page.index("</article>")]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize(
    ("language", "figures"),
    [
        ("en", ["1 P3 90.28 [90.28, 90.28] 7 87.72", "2 P1 82.94 [82.94, 82.94] 7 85.96",
                "3 P2 63.29 [63.29, 63.29] 7 64.91"]),
        ("pt-BR", ["1 P3 90,28 [90,28; 90,28] 7 87,72", "2 P1 82,94 [82,94; 82,94] 7 85,96",
                   "3 P2 63,29 [63,29; 63,29] 7 64,91"]),
    ],
)  # fmt: skip
def test_classification_of_the_worked_example(
    built: dict[str, tuple[Path, Round]], language: str, figures: list[str]
) -> None:
    text = text_of(built["before"][0], language, "classification")
    for figure in figures:
        assert figure in text


def test_head_to_head_of_the_worked_example(built: dict[str, tuple[Path, Round]]) -> None:
    text = text_of(built["before"][0], "en", "head-to-head")
    # Rows and columns in rank order: P3, P1, P2.
    assert "P3 – 2/1/4 3/1/3" in text
    assert "P1 1/2/4 – 3/1/3" in text
    assert "P2 1/3/3 1/3/3 –" in text
    assert re.search(r"P1 0\.\d{3} – 0\.620 ", text)
    for rating in ("1,503.70", "1,473.86", "1,522.44", "1,517.07", "1,431.77", "1,551.17"):
        assert rating in text


def test_audit_and_contamination_of_the_worked_example(
    built: dict[str, tuple[Path, Round]],
) -> None:
    before, after = built["before"][0], built["after"][0]
    assert "i7 1.50" in text_of(before, "en", "human-audit")
    assert "P2 1 1" in text_of(before, "en", "contamination")  # one flag, one item
    assert "P2 8-grams (Art. 34) published when the embargo ends 1" in text_of(
        before, "en", "contamination"
    )
    assert "P2 8-grams (Art. 34) i3 1" in text_of(after, "en", "contamination")


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_items_appear_only_from_the_embargo_end(
    built: dict[str, tuple[Path, Round]], language: str
) -> None:
    before, round_ = built["before"]
    after = built["after"][0]
    assert not (before / PREFIX[language] / "items.html").exists()
    pages = {
        domain: (after / PREFIX[language] / f"items-{domain}.html").read_text(encoding="utf-8")
        for domain in ("d1", "d2")
    }
    for item in round_.items:
        if not item.calibration:
            shown = f'<div lang="{item.language}">{html.escape(item.prompt)}</div>'
            assert shown in pages[item.domain_id]
    assert any('lang="zh"' in page for page in pages.values())


def test_leaks_planted_in_the_built_pages(
    built: dict[str, tuple[Path, Round]], tmp_path: Path
) -> None:
    site_dir = tmp_path / "site"
    shutil.copytree(built["after"][0], site_dir)
    round_ = built["after"][1]
    material = [guard_material(round_)]
    zh = next(i for i in round_.items if i.language == "zh" and not i.calibration)
    canary = next(i.canary for i in round_.items if i.canary)
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in canary)
    target = site_dir / "en" / ROUND / "process.html"
    clean = target.read_text(encoding="utf-8")
    cjk = "".join(c for c in zh.prompt if "\u4e00" <= c <= "\u9fff")
    for leak, when in ((cjk[:8], BEFORE), (fullwidth, AFTER), (canary, AFTER)):
        target.write_text(clean.replace("</article>", f"<p>{leak}</p></article>"), "utf-8")
        with pytest.raises(LeakError):
            check_site(site_dir, material, as_of=when)
    target.write_text(clean, encoding="utf-8")
    check_site(site_dir, material, as_of=AFTER)
    # The same page as built on BEFORE holds no item text: the guard passes there too.
    check_site(built["before"][0], material, as_of=BEFORE)


def cli_build(tmp_path: Path, as_of: str) -> tuple[int, str, Path]:
    from click.testing import CliRunner

    from reportgen.cli import main
    from reportgen.demo.multidomain.tiny import write_tiny_round
    from tests.factories import CONFIG, THEME

    round_dir = tmp_path / "rounds" / ROUND
    if not round_dir.exists():
        write_tiny_round(tmp_path / "rounds")
    out = tmp_path / "site"
    result = CliRunner().invoke(
        main,
        ["build", str(round_dir), "--out", str(out), "--config", str(CONFIG),
         "--templates", str(THEME), "--cache-dir", str(tmp_path / "cache"), "--as-of", as_of],
    )  # fmt: skip
    return result.exit_code, result.output, out


def test_build_as_of_before_ended_on_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    code, output, out = cli_build(tmp_path, "2026-11-29")
    assert code == 1
    assert output.strip().splitlines() == [
        f"Error: --as-of 2026-11-29: earlier than the end of round {ROUND} (2026-11-30);"
        " a multidomain round is reported only after it ends"
    ]
    assert not out.exists()
    assert {p.name for p in tmp_path.iterdir()} <= {"rounds", "cache"}  # no staging left


def test_build_as_of_decides_the_items_page(tmp_path: Path) -> None:
    code, output, out = cli_build(tmp_path, "2027-02-27")
    assert code == 0, output
    assert not (out / ROUND / "items.html").exists()
    code, output, out = cli_build(tmp_path, "2027-02-28")
    assert code == 0, output
    assert (out / ROUND / "items.html").is_file()
    assert (out / "data" / ROUND / "SHA256SUMS").is_file()


@pytest.mark.parametrize(
    ("language", "heading", "later"),
    [("en", "System instruction", "published with the test items when the embargo ends"),
     ("pt-BR", "Instrução de sistema", "publicado com os itens da prova ao fim do embargo")],
)  # fmt: skip
def test_system_instruction_hash_from_the_start_text_after_the_embargo(
    built: dict[str, tuple[Path, Round]], language: str, heading: str, later: str
) -> None:
    """Art. 8 (issue 21 point 5): the hash is on the methodology page from the first
    day; the text only once the embargo is over."""
    round_ = built["before"][1]
    instruction = round_.manifest.system_prompt
    assert instruction
    digest = str(round_.manifest.generation["system_prompt_sha256"])
    before = text_of(built["before"][0], language, "methodology")
    after = text_of(built["after"][0], language, "methodology")
    assert heading in before
    assert digest in before
    assert later in before
    assert instruction not in before
    assert digest in after
    assert instruction in after
    assert later not in after


@pytest.mark.parametrize(
    ("language", "rule"),
    [("en", "the adjudicating judge's mean score"), ("pt-BR", "nota média do juiz-adjudicador")],
)
def test_calibration_hit_rates_are_the_adjudicators(
    built: dict[str, tuple[Path, Round]], language: str, rule: str
) -> None:
    """Art. 16 as written: the page says whose hit rate it is, and the figure is the
    adjudicator's (a1 scores 5 and 4 on every pilot response: 90 %; the jurors' mean
    would give 80 %)."""
    text = text_of(built["before"][0], language, "calibration")
    assert rule in text
    assert re.search(r"cal-en en 1 90[.,]0 ?%", text), text
    may_score = {"en": "yes", "pt-BR": "sim"}[language]
    assert re.search(rf"Adjudicador 1 3 90[.,]0 ?% {may_score}", text), text
