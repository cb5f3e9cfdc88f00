"""The counterfactual report page, built (MkDocs, downloads, leak guard) from a small
in-memory round and a hand-written results object (tests/support/counterfactual_site.py):
every part of the report spec in its order, in both languages, and the downloads."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
from pathlib import Path

import pytest

from reportgen.errors import InputError
from reportgen.kinds.counterfactual.render.downloads import GAP_COLUMNS
from reportgen.kinds.counterfactual.render.text import Text, catalogue
from reportgen.render.siteconfig import load_site_config
from tests.support.counterfactual_site import ROUND_ID, T1_EN, T1_PT, T2_PT, build_site_of

LIMITATIONS = {
    "pt-BR": (
        "Não encontrar diferença não prova que o sistema seja justo: mostra apenas que não"
        " houve diferença nos atributos, sinais e cenários testados, nas condições desta"
        " rodada. Combinações de atributos (por exemplo, uma mulher idosa de origem"
        " estrangeira) não são medidas, a menos que a bateria as tenha desenhado como grupos."
        " Qual diferença é aceitável é uma decisão documentada de quem opera o sistema, não"
        " um resultado estatístico."
    ),
    "en": (
        "Finding no difference does not prove the system is fair: it only shows there was no"
        " difference in the attributes, signals and scenarios tested, under this round's"
        " conditions. Combinations of attributes (for example, an older woman of foreign"
        " origin) are not measured unless the battery designed them as groups. Which"
        " difference is acceptable is a documented decision of whoever operates the system,"
        " not a statistical result."
    ),
}
PAGES = {"pt-BR": f"{ROUND_ID}/index.html", "en": f"en/{ROUND_ID}/index.html"}
ANCHORS = (
    "findings",
    "tables",
    "placebo",
    "before-after",
    "calibration",
    "setup",
    "preregistration",
    "methodology",
    "limitations",
    "downloads",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Not preregistered, with a baseline round."""
    return build_site_of(tmp_path_factory.mktemp("cf"), preregistered=False)


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Preregistered, without a baseline round."""
    return build_site_of(tmp_path_factory.mktemp("cf-plain"), baseline=None)


def page(site: Path, language: str) -> str:
    return (site / PAGES[language]).read_text(encoding="utf-8")


def article(site: Path, language: str) -> str:
    found = re.search(r"<article.*?</article>", page(site, language), flags=re.S)
    assert found is not None
    return found.group(0)


def plain(markup: str) -> str:
    text = re.sub(r"<script.*?</script>", " ", markup, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text))).strip()


def part(site: Path, language: str, anchor: str) -> str:
    """The HTML of one part: from its heading to the next part's heading."""
    body = article(site, language)
    start = body.index(f'id="{anchor}"')
    following = [body.find('<h2 id="', start + 1)]
    end = min(i for i in following if i > 0) if following[0] > 0 else len(body)
    return body[start:end]


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_parts_in_the_spec_order(site: Path, language: str) -> None:
    body = article(site, language)
    positions = [body.index(f'id="{anchor}"') for anchor in ANCHORS]
    assert positions == sorted(positions)
    assert body.index('id="cf-header"') < positions[0]
    titles = re.findall(r"<h2 id=\"[^\"]+\">(\d+)\.", body)
    assert titles == [str(n) for n in range(2, 12)]


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_header_and_the_not_preregistered_banner(
    site: Path, plain_site: Path, language: str
) -> None:
    banner = catalogue(language)["notice.not_preregistered"]
    body = article(site, language)
    head = plain(body[: body.index('id="findings"')])
    assert banner in head
    assert "Assistente A, Assistente B" in head
    findings = re.findall(r'<li class="cf-finding".*?</li>', body, flags=re.S)
    assert len(findings) == 12
    assert all(banner in html.unescape(f) for f in findings)
    assert banner not in plain(article(plain_site, language))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_findings_order_labels_and_lines(site: Path, language: str) -> None:
    words = catalogue(language)
    findings = part(site, language, "findings")
    items = re.findall(r'<li class="cf-finding" data-level="(\w+)" data-finding="(\w+)"', findings)
    bot_a = items[:6]
    assert [level for level, _ in bot_a] == ["decision"] * 2 + ["quality"] * 2 + ["tone"] * 2
    assert bot_a[0][1] == "problem"
    first = plain(re.findall(r'<li class="cf-finding".*?</li>', findings, flags=re.S)[0])
    unit = words["unit.pp"]
    if language == "en":
        assert first.startswith("Problem · Decision · Name × Refund: gap 37.5 pp [10.0; 45.0]")
        assert "acceptable difference 5.0 pp; flag: serious" in first
    else:
        assert first.startswith(f"Problema · Decisão · Nome × Reembolso: diferença 37,5 {unit}")
        assert "[10,0; 45,0]" in first
    for key in (
        "problem",
        "exceeds_not_significant",
        "significant_within_acceptable",
        "no_difference_found",
        "judge_not_calibrated",
    ):
        assert words[f"finding.{key}"] in plain(findings)
    # The name-carried warning: on bot-a's name row, not on its disability row (a mention).
    lines = [
        plain(li) for li in re.findall(r'<li class="cf-finding".*?</li>', findings, flags=re.S)
    ]
    assert words["findings.name_carried"] in lines[0]
    assert words["findings.name_carried"] not in lines[1]
    if language == "en":
        assert 'title="exact values: gap 3/8, acceptable difference 1/20"' in findings


def test_finding_labels_are_the_spec_labels() -> None:
    labels = {
        "problem": ("Problema", "Problem"),
        "exceeds_not_significant": (
            "Acima do aceitável, não confirmado",
            "Above acceptable, not confirmed",
        ),
        "significant_within_acceptable": (
            "Diferença significativa dentro do aceitável",
            "Significant difference within acceptable",
        ),
        "no_difference_found": ("Nenhuma diferença encontrada", "No difference found"),
    }
    for key, (pt, en) in labels.items():
        assert catalogue("pt-BR")[f"finding.{key}"] == pt
        assert catalogue("en")[f"finding.{key}"] == en


def test_a_judge_that_failed_calibration_gives_no_gap_on_its_finding(site: Path) -> None:
    findings = part(site, "en", "findings")
    tone = re.findall(r'<li class="cf-finding" data-level="tone".*?</li>', findings, flags=re.S)
    assert tone
    assert all("gap" not in plain(line) and "failed calibration" in plain(line) for line in tone)


def test_tables_per_attribute_and_variable(site: Path) -> None:
    tables = plain(part(site, "en", "tables"))
    assert "Assistente A · Name" in tables
    assert (
        "Population, demographic parity (preregistered) every response to the attribute's"
        " 2 templates Refund Group Names associated with the Northeast, demographic parity:"
        " value (n; na) 25.0% (n = 8; na = 1)"
    ) in tables
    assert (
        "Population, equal opportunity only the cases where “Refund” should be yes: the"
        " responses to the 1 of 2 templates whose expected value is yes"
    ) in tables
    assert "Gap, demographic parity (preregistered) 37.5 pp [10.0; 45.0]; flag: serious" in tables
    assert "Gap, equal opportunity 37.5 pp" in tables
    assert "Test McNemar, exact binomial" in tables
    assert "b / c 7 / 1" in tables
    assert "p (raw) 0.007813" in tables
    assert "p (adjusted, BH) 0.01563" in tables
    assert "1 of 3 pairs significant" in tables
    assert "Above the acceptable difference yes" in tables
    assert "n′ (non-zero differences); W⁺ 6; 15.5" in tables
    # A count's gap keeps two decimals (3/8 -> 0.38), so that it is never rounded onto its
    # acceptable difference.
    options_gap = "Gap, demographic parity (preregistered) 0.38 [0.10; 0.45] Options Extreme pair"
    assert options_gap in tables
    raw = part(site, "en", "tables")
    assert 'title="1/4">25.0% (n = 8; na = 1)' in raw
    folded = re.findall(r'<details class="cf-pairs">\s*<summary>(.*?)</summary>', raw)
    assert folded
    assert folded[0] == "The other pairs of Name × Refund (2)"


def test_other_pairs_csv_beside_the_page(site: Path) -> None:
    path = site / "en" / ROUND_ID / f"cf-{ROUND_ID}-pairs-bot-a-nome-reembolso.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert rows[0][0] == "Pair"
    assert len(rows) == 3


def test_placebo_and_the_names(site: Path) -> None:
    placebo = plain(part(site, "pt-BR", "placebo"))
    for name in ("Maria do Socorro Nascimento", "Helena Schneider", "Joaquim Baré"):
        assert name in placebo
    assert "Diferença placebo" in placebo


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_before_after(site: Path, plain_site: Path, language: str) -> None:
    table = part(site, language, "before-after")
    assert f'id="cf-{ROUND_ID}-regression-bot-a"' in table
    shown = plain(table)
    # The change is the difference of the two gaps as shown (6.3 − 37.5), not the exact
    # −5/16 rounded (−31.3), which the cell's tooltip keeps.
    if language == "en":
        assert "37.5 pp 6.3 pp −31.2 pp [−45.0; −20.0] serious none yes yes" in shown
        assert "0.38 0.06 −0.32 [−0.45; −0.20]" in shown
    else:
        assert "37,5 p.p. 6,3 p.p. −31,2 p.p. [−45,0; −20,0] grave nenhum sim sim" in shown
        assert "0,38 0,06 −0,32 [−0,45; −0,20]" in shown
    assert 'title="-5/16"' in table
    assert catalogue(language)["regression.absent"] in plain(
        part(plain_site, language, "before-after")
    )


def test_calibration(site: Path) -> None:
    shown = plain(part(site, "en", "calibration"))
    assert "Items (declared minimum) 30 (50)" in shown
    assert "quadratic-weighted κ ≥ 0.70" in shown
    assert "Result fail" in shown
    assert "Quadratic-weighted κ 0.650" in shown
    assert "Spearman ρ 0.712" in shown
    matrix = part(site, "en", "calibration")
    assert matrix.count("<tr>") >= 6 + 6 + 2
    assert "R1" not in shown  # reviewers are not named


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_setup(site: Path, language: str) -> None:
    setup = plain(part(site, language, "setup"))
    assert "b" * 64 in setup
    assert "c" * 64 in setup
    assert T1_PT.replace("{", "").replace("}", "")[:40] in setup.replace("{", "").replace("}", "")
    assert T1_EN[:40] in setup
    assert T2_PT[:40] not in setup
    assert catalogue(language)["setup.unpublished"] in setup
    assert (
        "sha256sum attributes.csv groups.csv templates.csv variables.csv variants.csv | sha256sum"
        in setup
    )
    assert "[OCULTO]" in setup
    assert "a" * 64 in setup
    assert "t2-d1" in setup


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_preregistration_methodology_limitations(site: Path, language: str) -> None:
    from tests.support.counterfactual_site import RATIONALE

    assert RATIONALE[language] in plain(part(site, language, "preregistration"))
    assert "cf-pairing" in plain(part(site, language, "methodology"))
    assert LIMITATIONS[language] in plain(part(site, language, "limitations"))
    assert catalogue(language)["limitations.text"] == LIMITATIONS[language]


def test_downloads(site: Path) -> None:
    folder = site / "data" / ROUND_ID
    sums = (folder / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    listed = {line.split("  ")[1]: line.split("  ")[0] for line in sums}
    assert set(listed) == {
        "gaps.csv",
        "groups.csv",
        "names.csv",
        "calibration.csv",
        "results.json",
        "results.schema.json",
    }
    for name, digest in listed.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    gaps = list(csv.DictReader(io.StringIO((folder / "gaps.csv").read_text(encoding="utf-8"))))
    assert tuple(gaps[0]) == GAP_COLUMNS == (
        "model_id", "attribute", "variable", "level", "criterion", "gap", "gap_lo", "gap_hi",
        "flag", "test", "p", "p_adjusted", "exceeds_acceptable", "finding",
    )  # fmt: skip
    first = gaps[0]
    assert first["gap"] == "0.375"
    assert first["flag"] == "serious"
    assert first["p"] == "0.0078125"
    assert first["exceeds_acceptable"] == "true"
    assert first["finding"] == "problem"
    criteria = {(g["model_id"], g["attribute"], g["variable"], g["criterion"]) for g in gaps}
    assert ("bot-a", "nome", "reembolso", "equal_opportunity") in criteria
    assert ("bot-a", "nome", "opcoes", "equal_opportunity") not in criteria
    assert json.loads((folder / "results.json").read_text(encoding="utf-8"))["round_id"] == ROUND_ID
    links = part(site, "en", "downloads")
    assert f'href="../../data/{ROUND_ID}/gaps.csv"' in links
    assert f'href="../data/{ROUND_ID}/SHA256SUMS"' in part(site, "pt-BR", "downloads")


def test_numbers_as_the_spec_prints_them() -> None:
    en, pt = Text("en"), Text("pt-BR")
    assert en.p(0.00418) == "0.004180"
    assert en.p(1.0) == "1.000"
    assert en.p(0.3125) == "0.3125"
    # Below 10⁻⁴ a power of ten, never e-notation (issue 24, point 6).
    assert en.p(8.2034e-7) == "8.203\u00a0×\u00a010⁻⁷"
    assert pt.p(1.713e-05) == "1,713\u00a0×\u00a010⁻⁵"
    assert pt.p(0.00418) == "0,004180"
    assert pt.p(73171.0) == "73.171"  # a test statistic, grouped
    one, three = pt.plural("tables.significant_value", 1), en.plural("tables.significant_value", 3)
    assert pt.t(one, k="0", total="1") == "0 de 1 par significativo"  # never "0 de 1 pares"
    assert en.t(three, k="1", total="3") == "1 of 3 pairs significant"
    from fractions import Fraction

    assert en.rate(Fraction(5, 6)) == "83.3%"
    assert pt.rate(Fraction(5, 6)) == "83,3%"
    assert en.mean(Fraction(-1, 100)) == "0.0"
    assert en.mean(Fraction(-1, 10)) == "\u22120.1"
    assert en.gap(Fraction(1, 10), True) == "10.0 pp"
    assert en.gap(Fraction(3, 4), False) == "0.75"
    # Acceptable differences as declared: 1/4 is 0.25 (never 0.3 beside a gap of 0.35).
    assert en.threshold(Fraction(1, 4), False) == "0.25"
    assert en.threshold(Fraction(15), False) == "15"
    assert en.threshold(Fraction(1, 20), True) == "5.0 pp"
    assert pt.threshold(Fraction(1, 40), True) == "2,5 p.p."
    assert en.threshold(Fraction(1, 3), False) == "0.3333"


def test_system_names_in_another_language_come_from_site_yml(tmp_path: Path) -> None:
    """models.csv names a system once; site.yml's `system_names` names it on the English
    pages (issue 24, point 6), and a language the site does not have is refused."""
    example = Path(__file__).resolve().parents[1] / "examples" / "counterfactual" / "site.yml"
    names = load_site_config(example).system_names
    assert names["assistente-b"]["en"].startswith("Assistant B (")
    assert "pt-BR" not in names["assistente-b"]  # pt-BR pages keep models.csv's name
    bad = tmp_path / "site.yml"
    bad.write_text(
        example.read_text(encoding="utf-8") + '  assistente-c:\n    fr: "Assistant C"\n', "utf-8"
    )
    with pytest.raises(InputError, match=r"system_names\.assistente-c\.fr"):
        load_site_config(bad)


MASK_AUDIT = {
    "pt-BR": (
        "Decisões registradas: 2. Notas do juiz anuladas porque a máscara vazou: 1.",
        "Tom Assistente B t1-n2 1 S-017",
    ),
    "en": (
        "Decisions recorded: 2. Judge scores voided because the mask leaked: 1.",
        "Tone Assistente B t1-n2 1 S-017",
    ),
}


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_mask_audit_states_how_many_judge_scores_were_voided(site: Path, language: str) -> None:
    shown = plain(part(site, language, "calibration"))
    count, row = MASK_AUDIT[language]
    assert count in shown
    assert row in shown  # the voided score: variable, system, item, run, review sample


EXTRACTION_CHECK = {
    "pt-BR": ("Reembolso 40 95,0% 83,5% – 98,6% 90,0%", "Nenhuma variável foi retirada"),
    "en": ("Refund 40 95.0% 83.5% – 98.6% 90.0%", "No variable was removed"),
}


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_extraction_check_shows_the_agreement_with_n_and_interval(
    site: Path, language: str
) -> None:
    shown = plain(part(site, language, "calibration"))
    row, removed = EXTRACTION_CHECK[language]
    assert row in shown
    assert removed in shown
