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
