"""The article's metadata file and the human-audit page."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from reportgen.audit_export import AUDIT_FORMAT
from reportgen.build import build_site
from reportgen.errors import InputError
from reportgen.kinds.estigmas.render.reference_tables import load_audit
from reportgen.render.siteconfig import load_site_config
from tests.factories import CONFIG, THEME, complete_config, tiny_rounds


def audit_export(round_id: str) -> dict[str, object]:
    """An export shaped like `reportgen review export` writes it."""
    return {
        "format": AUDIT_FORMAT,
        "round_id": round_id,
        "generated_at": "2026-07-02T10:00:00+00:00",
        "batches": 1,
        "batches_closed": 1,
        "samples_judged": 120,
        "judgments": 240,
        "reviewers": 2,
        "adjudicated": 7,
        "kappa_majority_vs_parser": 0.912345,
        "alpha_reviewers": 0.87,
        "kappa_by_reviewer": {"R1": 0.9, "R2": None},
        "confusion": {
            "rows": ["yes", "no"],
            "columns": ["yes", "no"],
            "counts": [[50, 2], [3, 65]],
        },
        "agreement_by_model": {},
        "contestations": {"received": 0, "accepted": 0, "rejected": 0, "pending": 0, "overdue": 0},
    }


def config_with_audits(tmp_path: Path, audits: Path) -> Path:
    text = CONFIG.read_text(encoding="utf-8").replace(
        'exports_dir: "audits"', f'exports_dir: "{audits}"'
    )
    path = tmp_path / "site.yml"
    path.write_text(text, encoding="utf-8")
    return path


def plain(path: Path) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(path.read_text("utf-8"))))


def test_audit_page_shows_export_and_empty_state(tmp_path: Path) -> None:
    audits = tmp_path / "audits"
    audits.mkdir()
    # the name `reportgen review export` writes by default
    (audits / "human-audit-tiny-round.json").write_text(
        json.dumps(audit_export("tiny-round")), "utf-8"
    )
    site = tmp_path / "site"
    build_site(
        tiny_rounds(tmp_path / "rounds"),
        site,
        config_path=config_with_audits(tmp_path, audits),
        theme_dir=THEME,
        cache_dir=tmp_path / "cache",
    )
    english = plain(site / "en" / "audit.html")
    assert "Cohen's κ: reviewers' majority × parser 0.91" in english
    assert "Samples judged 120" in english
    assert "No audit has been published for this round yet." in english  # tiny-cont
    portuguese = plain(site / "audit.html")
    assert "0,91" in portuguese


def test_bad_audit_export_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "something-else"}), "utf-8")
    with pytest.raises(InputError, match=r"r\.json: key 'format' must be"):
        load_audit(path)
    path.write_text("{not json", "utf-8")
    with pytest.raises(InputError, match=r"r\.json: not a readable JSON audit export"):
        load_audit(path)
    assert load_audit(tmp_path / "absent.json") is None


def test_site_config_is_read_from_the_file(tmp_path: Path) -> None:
    config = load_site_config(complete_config(tmp_path))
    assert config.title["en"]
    assert config.contest_window_days > 0
    assert config.region_max_bias is not None
    assert 0 < config.region_max_bias <= 1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("window_days: 10", "window_days: -1", "contestation windows must be positive"),
        ("max_bias: 0.05", "max_bias: 5", r"'figure1\.max_bias' must be a rate"),
        ("  authors:", "  authors: []\n  old_authors:", r"'article\.authors' must be a non-empty"),
        ('    en: "Estigmas"', '    en: ""', r"article\.short_title\.en must be a non-empty"),
    ],
)
def test_bad_site_config(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = complete_config(tmp_path).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "site.yml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_site_config(path)


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="site configuration file not found"):
        load_site_config(tmp_path / "nope.yml")


def _agreement_block() -> dict[str, object]:
    """The agreement block `reportgen review export` writes (review_app.rounds.agreement)."""
    estimate = {"value": 0.735, "n": 19, "low": 0.5, "high": 0.9}
    return {
        "samples_judged": 34,
        "consensus_vs_automatic": estimate,
        "splits_left_out": 15,
        "consensus_adjudicated": 2,
        "judgments_vs_automatic": {"value": 0.559, "n": 68, "low": 0.4, "high": 0.7},
        "alpha_reviewers": {"value": 0.61, "n": 34, "low": None, "high": None},
        "kappa_by_reviewer": {"R1": {"value": 0.9, "n": 34, "low": 0.8, "high": 0.95}},
        "kappa_pairwise": [{"first": "R1", "second": "R2", "kappa": 0.42, "n": 33}],
        "over_time": [{"reviewer": "R1", "day": "2026-07-01", "agreement": 0.75, "n": 12}],
        "bootstrap": {"replicates": 2000, "seed": 20260701, "level": 0.95},
    }


def test_audit_page_shows_denominators_intervals_and_labels(tmp_path: Path) -> None:
    audits = tmp_path / "audits"
    audits.mkdir()
    document = audit_export("tiny-round") | {"agreement": _agreement_block()}
    document["confusion"] = {
        "rows": ["yes", "cant_tell"],
        "columns": ["yes", "inconclusive"],
        "counts": [[50, 2], [3, 65]],
    }
    (audits / "tiny-round.json").write_text(json.dumps(document), "utf-8")
    site = tmp_path / "site"
    build_site(
        tiny_rounds(tmp_path / "rounds"),
        site,
        config_path=config_with_audits(tmp_path, audits),
        theme_dir=THEME,
        cache_dir=tmp_path / "cache",
    )
    english = plain(site / "en" / "audit.html")
    # The consensus κ with its interval and n, and the κ over every judgment beside it.
    assert "Cohen's κ: reviewers' majority × parser 0.74 [0.50; 0.90] 19" in english
    assert "Cohen's κ: each judgment × parser 0.56 [0.40; 0.70] 68" in english
    assert "exists on 19 of 34 samples judged: 15 where reviewers split" in english
    assert "2,000 replicates, seed 20260701" in english
    assert "R1 × R2 0.42 33" in english
    assert "July 1, 2026 75.0% 12" in english
    assert "Can't tell" in english
    assert "cant_tell" not in english
    portuguese = plain(site / "audit.html")
    assert "0,74 [0,50; 0,90] 19" in portuguese
    assert "Sim" in portuguese
    assert "Não sei" in portuguese
    assert "Inconclusivo" in portuguese
    assert "cant_tell" not in portuguese
    assert "inconclusive" not in portuguese


def test_counts_choose_their_plural_form() -> None:
    from reportgen.i18n import Translator

    portuguese, english = Translator("pt-BR"), Translator("en")
    one = portuguese(portuguese.plural("contest.effect", 1), annulled="1", N="9", n="3")
    assert one.startswith("1 item anulado;")
    many = portuguese(portuguese.plural("contest.effect", 2), annulled="2", N="9", n="3")
    assert many.startswith("2 itens anulados;")
    assert english(english.plural("contest.effect", 1), annulled="1", N="9", n="3").startswith(
        "1 item voided;"
    )
    assert english.plural("audit.consensus_n", 0) == "audit.consensus_n.other"
