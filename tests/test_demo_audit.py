"""The demonstration ships a real human audit (issue 21, point 11): a blind audit of
estigmas-2026-06 made through the review app by generated reviewers
(`python -m review_app.demo_audit`), which the human-audit page shows, labelled as the
demonstration reviewers' work, in both languages."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tests.review.helpers  # noqa: F401  (argon2's cheapest parameters for the accounts)
from reportgen.audit_export import (
    AuditExport,
    Confusion,
    ContestationCounts,
    read_audit_export,
    write_audit_export,
)
from reportgen.errors import InputError
from reportgen.i18n import Translator
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render.page_common import PageText
from reportgen.kinds.estigmas.render.reference_pages import audit_page, methodology_page
from reportgen.kinds.estigmas.render.site import SiteContext, site_context
from reportgen.render.siteconfig import load_site_config
from review_app.demo_audit import REVIEWERS, write_demo_audit
from review_app.demo_audit import main as demo_main
from tests.factories import CONFIG, DEMO_ROUNDS, tiny_rounds
from tests.support.shared_builds import demo_site

REPO = Path(__file__).resolve().parents[1]
COMMITTED = REPO / "audits" / "estigmas-2026-06.json"
ROUND = DEMO_ROUNDS / "estigmas-2026-06"


def committed() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(COMMITTED.read_text(encoding="utf-8"))
    return data


def export() -> AuditExport:
    """An export of people's judgments (no demonstration key)."""
    return AuditExport(
        round_id="r1",
        generated_at=datetime(2026, 7, 2, 10, tzinfo=UTC),
        batches=1,
        batches_closed=1,
        samples_judged=3,
        judgments=6,
        reviewers=2,
        adjudicated=1,
        kappa_majority_vs_parser=0.5,
        alpha_reviewers=0.5,
        kappa_by_reviewer={"R1": 1.0, "R2": None},
        confusion=Confusion(rows=("yes", "no"), columns=("yes", "no"), counts=((2, 1), (0, 3))),
        agreement_by_model={"m": 0.5},
        contestations=ContestationCounts(received=0, accepted=0, rejected=0, pending=0, overdue=0),
    )


def plain(path: Path) -> str:
    text = re.sub(r"<script.*?</script>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


# --- the committed export --------------------------------------------------------------


def test_the_committed_export_is_a_demonstration_audit_with_splits_and_a_decision() -> None:
    loaded = read_audit_export(COMMITTED)
    assert loaded is not None
    assert loaded.demonstration is True
    assert loaded.round_id == "estigmas-2026-06"
    assert loaded.reviewers == len(REVIEWERS)
    assert loaded.judgments == 2 * loaded.samples_judged  # each sample judged twice
    assert loaded.adjudicated >= 1
    assert loaded.agreement is not None
    assert loaded.agreement.splits_left_out >= 1  # reviewers disagree somewhere
    assert loaded.agreement.consensus_adjudicated == loaded.adjudicated
    assert loaded.kappa_majority_vs_parser is not None
    assert loaded.alpha_reviewers is not None
    assert loaded.kappa_majority_vs_parser < 1  # people and parser do not agree perfectly


@pytest.mark.slow
def test_regenerating_the_demonstration_audit_reproduces_the_committed_file(
    tmp_path: Path,
) -> None:
    target = tmp_path / "audits" / "estigmas-2026-06.json"
    write_demo_audit(ROUND, target)
    assert target.read_bytes() == COMMITTED.read_bytes()


def test_an_existing_export_is_refused_before_any_work(tmp_path: Path) -> None:
    target = tmp_path / "estigmas-2026-06.json"
    target.write_text("{}", encoding="utf-8")
    result = CliRunner().invoke(demo_main, ["--round-dir", str(tmp_path), "--output", str(target)])
    assert result.exit_code == 1
    assert result.output.strip().endswith("already exists (use --force to replace it)")
    assert str(target) in result.output
    assert target.read_text(encoding="utf-8") == "{}"


# --- the export's demonstration key ----------------------------------------------------


def test_the_demonstration_key_is_written_only_when_true(tmp_path: Path) -> None:
    path = tmp_path / "r1.json"
    write_audit_export(export(), path)
    assert "demonstration" not in json.loads(path.read_text(encoding="utf-8"))
    write_audit_export(export().model_copy(update={"demonstration": True}), path, force=True)
    assert json.loads(path.read_text(encoding="utf-8"))["demonstration"] is True
    loaded = read_audit_export(path)
    assert loaded is not None
    assert loaded.demonstration


def test_a_demonstration_key_that_is_not_true_or_false_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r1.json"
    document = export().model_dump(mode="json") | {"demonstration": "no"}
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(InputError, match=r"r1\.json: key 'demonstration'"):
        read_audit_export(path)


# --- the pages ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> SiteContext:
    paths = tiny_rounds(tmp_path_factory.mktemp("tiny") / "rounds")
    rounds = [read_round(path, with_text=True) for path in paths]
    return site_context(rounds, load_site_config(CONFIG), with_statistics=False)


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_only_a_demonstration_audit_is_labelled_and_claims_no_people(
    tiny_site: SiteContext, language: str
) -> None:
    text = PageText(Translator(language))
    people = export().model_dump(mode="json")
    primary = tiny_site.primary.round_id
    for audit, labelled in ((people, False), (people | {"demonstration": True}, True)):
        site = replace(tiny_site, audits={primary: audit})
        (section,) = [s for s in audit_page(site, text).rounds if s.audit is not None]
        assert (section.demonstration == text.t("audit.demonstration")) is labelled
        limitations = str(methodology_page(site, text).limitations.body)
        demo = text.t("method.parser_audited_demo")
        assert (demo in limitations) is labelled
        assert (text.t("method.parser_audited") in limitations) is not labelled


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "label", "none", "kappa", "alpha", "adjudicated", "n"),
    [
        (
            "audit.html",
            "Revisoras de demonstração: ",
            "Nenhuma auditoria foi publicada ainda",
            "κ de Cohen: maioria das pessoas revisoras × parser {kappa}",
            "α de Krippendorff entre pessoas revisoras {alpha}",
            "Divergências arbitradas {adjudicated}",
            "Amostras julgadas {n}",
        ),
        (
            "en/audit.html",
            "Demonstration reviewers: ",
            "No audit has been published for this round yet.",
            "Cohen's κ: reviewers' majority × parser {kappa}",
            "Krippendorff's α among reviewers {alpha}",
            "Adjudicated disagreements {adjudicated}",
            "Samples judged {n}",
        ),
    ],
)
def test_the_demonstration_sites_audit_page_shows_the_audit(
    tmp_path_factory: pytest.TempPathFactory,
    page: str,
    label: str,
    none: str,
    kappa: str,
    alpha: str,
    adjudicated: str,
    n: str,
) -> None:
    """The site the README builds (`reportgen build`, the repository's site.yml) reads
    audits/estigmas-2026-06.json: κ, α, n and the adjudications, with the label."""
    data = committed()
    tr = Translator("en" if page.startswith("en/") else "pt-BR")
    text = plain(demo_site(tmp_path_factory) / page)
    title = json.loads((ROUND / "round.json").read_text(encoding="utf-8"))["title"][tr.language]
    start = text.index(title, text.index(title) + 1)  # the section, after the page's nav
    others = [text.index(t, start + 1) for t in (" IDJÉ Avalia",) if t in text[start + 1 :]]
    section = text[start : min(others) if others else len(text)]
    assert label in section
    assert none not in section
    assert kappa.format(kappa=tr.decimal(data["kappa_majority_vs_parser"], 2)) in section
    assert alpha.format(alpha=tr.decimal(data["alpha_reviewers"], 2)) in section
    assert adjudicated.format(adjudicated=tr.integer(data["adjudicated"])) in section
    assert n.format(n=tr.integer(data["samples_judged"])) in section
