"""A multidomain site speaks for one date (`reportgen build --as-of`), and shows nothing
decided later or still under embargo on that date (issue 24, points 1 and 2):

- only ledger lines decided on or before the date, on the pages and in the scores and
  downloads (the demonstration's contestation of i-juri-003 is decided on 2027-03-01);
- before the embargo ends (2027-02-18), no flagged, superseded or audit-drawn item id on
  any page of either language or in any download (the replaced canary item i-bank-011
  was named on the discarded page); after it, those ids are there.

The site checks read the two shared demonstration builds (2026-12-01, 2027-03-20)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from reportgen.demo.multidomain.tiny import tiny_round
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.render.embargo import id_embargo
from reportgen.kinds.multidomain.results import build_results, cache_key
from reportgen.kinds.multidomain.terms import round_as_of
from tests.support.shared_builds import EXAMPLES, example_site

ROUND = "reg-2026-1"
BEFORE = "2026-12-01"  # during the embargo, before the contestation's decision
AFTER = "2027-03-20"  # after both
LANGUAGES = {"pt-BR": ROUND, "en": f"en/{ROUND}"}
CONTESTED = "i-juri-003"
LEDGER = EXAMPLES / "multidomain" / "rounds" / ROUND / "annulments.jsonl"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Round:
    return tiny_round(tmp_path_factory.mktemp("tiny") / "tiny")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        BEFORE: example_site(tmp_path_factory, "multidomain", BEFORE),
        AFTER: example_site(tmp_path_factory, "multidomain", AFTER),
    }


# --- the ledger as of a date ---------------------------------------------------------


def test_a_decision_counts_from_its_date_in_the_results_and_their_cache_key(
    tiny: Round,
) -> None:
    (line,) = tiny.annulments  # the audit invalidation of the tiny round
    before = round_as_of(tiny, line.decided_on - timedelta(days=1))
    on = round_as_of(tiny, line.decided_on)
    assert before.annulments == ()
    assert on.annulments == (line,)
    counted = build_results(before, replicates=20).counts
    assert build_results(on, replicates=20).counts.scored_items == counted.scored_items - 1
    # The cache key holds the ledger in effect: no build reads the other date's results,
    # and two dates with the same lines share an entry.
    assert cache_key(before, 20) != cache_key(on, 20)
    assert cache_key(on, 20) == cache_key(round_as_of(tiny, date(2030, 1, 1)), 20)


def test_an_embargoed_id_is_shown_from_its_ledger_line_or_the_embargo_end(tiny: Round) -> None:
    (line,) = tiny.annulments
    embargo = id_embargo(tiny, build_results(tiny, replicates=20).contamination)
    assert {"i3", line.item_id} <= embargo.ids  # 8-gram flag; audit-drawn and invalidated
    assert not embargo.shown(line.item_id, line.decided_on - timedelta(days=1))
    assert embargo.shown(line.item_id, line.decided_on)
    assert not embargo.shown("i3", embargo.ends - timedelta(days=1))
    assert embargo.shown("i3", embargo.ends)
    calibration = next(item.item_id for item in tiny.items if item.calibration)
    assert embargo.shown(calibration, line.decided_on)  # never embargoed


# --- the demonstration site before and after the contestation's decision --------------


def page(site: Path, language: str, stem: str) -> str:
    return html.unescape((site / LANGUAGES[language] / f"{stem}.html").read_text("utf-8"))


def download(site: Path, name: str) -> str:
    return (site / "data" / ROUND / name).read_text("utf-8")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_discarded_page_lists_a_decision_only_from_its_date(
    sites: dict[str, Path], language: str
) -> None:
    assert CONTESTED not in page(sites[BEFORE], language, "discarded")
    assert CONTESTED in page(sites[AFTER], language, "discarded")


def test_the_scores_and_downloads_leave_the_item_out_only_from_the_decision(
    sites: dict[str, Path],
) -> None:
    counts = {when: json.loads(download(s, "results.json"))["counts"] for when, s in sites.items()}
    assert counts[BEFORE]["annulled_by_source"] == {"audit": 2}
    assert counts[AFTER]["annulled_by_source"] == {"audit": 2, "contestation": 1}
    assert counts[BEFORE]["scored_items"] == counts[AFTER]["scored_items"] + 1
    slices = {}
    for when, site in sites.items():
        rows = csv.DictReader(io.StringIO(download(site, "slices.csv")))
        slices[when] = {(r["model_id"], r["slice"]): r for r in rows}
    for key, row in slices[AFTER].items():
        n = int(slices[BEFORE][key]["n"])
        # A juridica mcq item: back in every slice holding it, in no other.
        holds = key[1] in ("primary", "global", "domain:juridica") or key[1].startswith("run:")
        if holds:
            assert n == int(row["n"]) + 1, key
    participants = {
        when: list(csv.DictReader(io.StringIO(download(site, "participants.csv"))))
        for when, site in sites.items()
    }
    assert [r["primary"] for r in participants[BEFORE]] != [
        r["primary"] for r in participants[AFTER]
    ]


# --- the embargo of ids on every page ------------------------------------------------


def embargoed_ids(after: Path, as_of: str) -> set[str]:
    """The ids the embargo covers, read from the site after it (results.json and the
    superseded table), less those a ledger line decided by `as_of` names."""
    results = json.loads(download(after, "results.json"))
    found = results["contamination"]
    ids = {f["item_id"] for f in found["ngram_flagged"]} | set(found["full_canary_items"])
    ids |= {f["canary_item_id"] for f in found["suspicious_canaries"]}
    ids |= {i for stratum in results["audit"]["strata"] for i in stratum["drawn"]}
    table = (after / ROUND / f"md-{ROUND}-superseded.csv").read_text("utf-8")
    ids |= {i for row in list(csv.reader(io.StringIO(table)))[1:] for i in row}
    lines = [json.loads(line) for line in LEDGER.read_text("utf-8").splitlines()]
    return ids - {line["item_id"] for line in lines if line["decided_on"] <= as_of}


def named(text: str, item_id: str) -> bool:
    # Also inside a longer id: "i-bank-011-v2" names i-bank-011.
    return re.search(rf"(?<![\w-]){re.escape(item_id)}(?!\w)", text) is not None


def test_no_page_or_download_names_an_embargoed_id_before_the_embargo(
    sites: dict[str, Path],
) -> None:
    ids = embargoed_ids(sites[AFTER], BEFORE)
    assert {"i-bank-011", "i-bank-011-v2", "i-nego-007", "i-comp-012"} <= ids
    files = [p for p in sites[BEFORE].rglob("*") if p.suffix in (".html", ".csv", ".json", ".xml")]
    assert {"index.html", "discarded.html"} <= {p.name for p in files}
    assert any(p.parts[-3:-1] == ("en", ROUND) for p in files)
    found = []
    for path in files:
        text = html.unescape(path.read_text("utf-8"))
        found += [f"{path.relative_to(sites[BEFORE])}: {i}" for i in sorted(ids) if named(text, i)]
    assert found == []


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_ids_are_named_after_the_embargo(sites: dict[str, Path], language: str) -> None:
    discarded = page(sites[AFTER], language, "discarded")
    assert named(discarded, "i-bank-011")
    assert named(discarded, "i-bank-011-v2")
    contamination = page(sites[AFTER], language, "contamination")
    assert all(named(contamination, i) for i in ("i-comp-012", "i-ener-002", "i-juri-022"))
    results = json.loads(download(sites[AFTER], "results.json"))
    assert results["contamination"]["full_canary_items"] == ["i-bank-011"]
