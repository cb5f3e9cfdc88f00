"""Issue 21, points 8 and 9, on the demonstration round (examples/multidomain, ended
2026-11-20, embargo to 2027-02-18; ledger: two audit lines of 2026-11-27 and the upheld
contestation of i-juri-003 of 2027-03-01).

8. The register of changes (Art. 43): every ledger line in force on the site's date, in
   both languages, each with its anchor, reference, ledger line and erratum; its Atom 1.0
   feed per language, well formed (xml.etree), linked from the page, listed in SHA256SUMS.
9. The released items (Art. 40, 42): after the embargo, items.jsonl and items.parquet with
   answer keys and rubrics, never a canary, the license and the no-training notice, and the
   (honestly empty) authorizations register; before the embargo none of it exists.

The site checks read the shared demonstration builds of 2026-12-01 and 2027-03-20."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import xml.etree.ElementTree as ET
from datetime import date
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reportgen.demo.multidomain.tiny import tiny_round
from reportgen.guard import GuardMaterial, SecretIndex, scan_file
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.render.register import register_entries
from reportgen.kinds.multidomain.results import build_results
from reportgen.kinds.multidomain.terms import round_as_of
from reportgen.kinds.rounds import read_round
from tests.support.shared_builds import EXAMPLES, example_site

ROUND = "reg-2026-1"
BEFORE = "2026-12-01"  # during the embargo, before the contestation's decision
AFTER = "2027-03-20"  # after both
LANGUAGES = {"pt-BR": ROUND, "en": f"en/{ROUND}"}
ATOM = "{http://www.w3.org/2005/Atom}"
AUDITED = ("i-ener-035", "i-medi-053")
CONTESTED = "i-juri-003"
REUSE = ("items.jsonl", "items.parquet", "items-terms.txt")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        BEFORE: example_site(tmp_path_factory, "multidomain", BEFORE),
        AFTER: example_site(tmp_path_factory, "multidomain", AFTER),
    }


@pytest.fixture(scope="module")
def archive() -> Round:
    found = read_round(EXAMPLES / "multidomain" / "rounds" / ROUND)
    assert isinstance(found, Round)
    return found


def page(site: Path, language: str, stem: str) -> str:
    return html.unescape((site / LANGUAGES[language] / f"{stem}.html").read_text("utf-8"))


def data(site: Path) -> Path:
    return site / "data" / ROUND


def feed(site: Path, language: str) -> ET.Element:
    return ET.fromstring((data(site) / f"register-{language}.xml").read_bytes())


# --- 8. the register and its feed -----------------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_register_lists_each_decision_from_its_date_with_its_ledger_line(
    sites: dict[str, Path], language: str
) -> None:
    before, after = (
        page(sites[BEFORE], language, "register"),
        page(sites[AFTER], language, "register"),
    )
    for item in AUDITED:
        assert f'id="ledger-{item}"' in before
        assert f'id="ledger-{item}"' in after
    assert CONTESTED not in before
    assert f'id="ledger-{CONTESTED}"' in after
    assert "CT-2027-001" in after
    assert "AUD-1722" in before
    # the contestation's line is linked to the ledger by its chain hash
    ledger = (EXAMPLES / "multidomain" / "rounds" / ROUND / "annulments.jsonl").read_text("utf-8")
    third = json.loads(ledger.splitlines()[2])
    assert third["prev_sha256"] in after
    assert third["prev_sha256"] not in before
    assert f"register-{language}.xml" in after
    home = page(sites[BEFORE], language, "index")
    assert 'href="register.html"' in home
    assert 'href="register.html"' in page(sites[BEFORE], language, "discarded")


def test_the_register_pages_speak_each_language(sites: dict[str, Path]) -> None:
    pt, en = (page(sites[AFTER], language, "register") for language in LANGUAGES)
    assert "Registro de alterações" in pt
    assert "Errata" in pt
    assert "feed Atom" in pt
    assert "Register of changes" in en
    assert "Erratum" in en
    assert "Atom feed" in en
    assert "Contestação acolhida" in pt
    assert "Contestation upheld" in en


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_atom_feed_is_valid_atom_and_follows_the_date(
    sites: dict[str, Path], language: str
) -> None:
    counts = {}
    for when, site in sites.items():
        root = feed(site, language)
        assert root.tag == f"{ATOM}feed"
        assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == language
        for tag in ("id", "title", "updated", "author"):
            assert root.find(f"{ATOM}{tag}") is not None, tag
        entries = root.findall(f"{ATOM}entry")
        counts[when] = entries
        stamps = []
        for entry in entries:
            for tag in ("id", "title", "updated", "content"):
                assert (entry.findtext(f"{ATOM}{tag}") or "").strip(), tag
            assert entry.findtext(f"{ATOM}id", "").startswith("urn:uuid:")
            stamps.append(entry.findtext(f"{ATOM}updated", ""))
            link = entry.find(f"{ATOM}link")
            assert link is not None
            target, anchor = link.get("href", "").split("#")
            resolved = (data(site) / target).resolve()
            assert resolved == (site / LANGUAGES[language] / "register.html").resolve()
            assert f'id="{anchor}"' in resolved.read_text("utf-8")
        assert root.findtext(f"{ATOM}updated") == max(stamps)
        ids = [e.findtext(f"{ATOM}id") for e in entries]
        assert len(set(ids)) == len(ids)
    assert len(counts[BEFORE]) == 2
    assert len(counts[AFTER]) == 3
    newest = counts[AFTER][0]
    assert CONTESTED in newest.findtext(f"{ATOM}title", "")
    assert newest.findtext(f"{ATOM}updated") == "2027-03-01T00:00:00Z"
    # an entry keeps its id when later lines are added (a reader is not notified twice)
    old = {e.findtext(f"{ATOM}id") for e in counts[BEFORE]}
    assert old <= {e.findtext(f"{ATOM}id") for e in counts[AFTER]}


def test_the_feeds_are_listed_in_the_downloads_checksums(sites: dict[str, Path]) -> None:
    for site in sites.values():
        sums: dict[str, str] = {}
        for line in (data(site) / "SHA256SUMS").read_text().splitlines():
            digest, name = line.split("  ", 1)
            sums[name] = digest
        for language in LANGUAGES:
            name = f"register-{language}.xml"
            assert sums[name] == hashlib.sha256((data(site) / name).read_bytes()).hexdigest()


def test_the_last_erratum_ends_at_the_published_primary_scores() -> None:
    tiny = tiny_round(Path("md-tiny"))
    (entry,) = register_entries(tiny)
    results = build_results(tiny, replicates=20)
    published = {p.model_id: p.primary.score for p in results.participants}
    for change in entry.changes:
        score = published[change.model_id]
        assert score is not None
        assert change.after is not None
        assert change.after == score.fraction
    p1 = next(c for c in entry.changes if c.model_id == "p1")
    assert p1.after == Fraction(5225, 63)  # metrics §11, after i7 is invalidated
    assert p1.before != p1.after
    assert register_entries(round_as_of(tiny, entry.line.decided_on.replace(year=2000))) == ()


def test_the_erratum_after_the_contestation_matches_the_participants_download(
    sites: dict[str, Path],
) -> None:
    rows = csv.DictReader(io.StringIO((data(sites[AFTER]) / "participants.csv").read_text()))
    primary = {r["display_name"]: float(r["primary"]) for r in rows}
    text = page(sites[AFTER], "en", "register")
    table = text[text.index(f'id="ledger-{CONTESTED}"') :]
    for name, value in primary.items():
        assert f"{name}</td>" in table
        assert f"{value:.2f}" in table


# --- 9. the released items -----------------------------------------------------------


def test_before_the_embargo_no_released_item_is_published(sites: dict[str, Path]) -> None:
    site = sites[BEFORE]
    for name in REUSE:
        assert not (data(site) / name).exists()
    assert "items." not in (data(site) / "SHA256SUMS").read_text()
    for language in LANGUAGES:
        assert not (site / LANGUAGES[language] / "reuse.html").exists()
        assert 'href="reuse.html"' not in page(site, language, "index")


def test_after_the_embargo_the_items_read_back_with_keys_and_rubrics(
    sites: dict[str, Path], archive: Round
) -> None:
    folder = data(sites[AFTER])
    lines = (folder / "items.jsonl").read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    table = pq.read_table(folder / "items.parquet")
    assert table.to_pylist() == records
    assert len(records) == len(archive.items)
    by_id = {r["item_id"]: r for r in records}
    for item in archive.items:
        record = by_id[item.item_id]
        assert record["prompt"] == item.prompt
        assert record["answer_key"] == item.answer_key
        assert record["justification"] == item.justification
        assert "canary" not in record
        if item.rubric_id:
            anchors = {
                (c.criterion_id, c.anchor_5)
                for c in archive.rubrics
                if c.rubric_id == item.rubric_id
            }
            assert {(c["criterion_id"], c["anchor_5"]) for c in record["rubric"]} == anchors
    assert by_id[CONTESTED]["status"] == "annulled"
    assert by_id["i-bank-011"]["status"] == "superseded"
    tests = [r for r in records if not r["calibration"]]
    assert [r["order"] for r in tests] == sorted(r["order"] for r in tests)
    for path in (folder / "items.jsonl", folder / "items.parquet"):
        raw = path.read_bytes()
        assert not [i.canary for i in archive.items if i.canary and i.canary.encode() in raw]
    sums = (folder / "SHA256SUMS").read_text()
    for name in REUSE:
        assert f"{hashlib.sha256((folder / name).read_bytes()).hexdigest()}  {name}" in sums


def test_the_items_carry_the_license_and_the_no_training_notice(sites: dict[str, Path]) -> None:
    folder = data(sites[AFTER])
    metadata = pq.read_schema(folder / "items.parquet").metadata
    terms = (folder / "items-terms.txt").read_text("utf-8")
    for language, words in (("pt-BR", "Art. 40"), ("en", "Art. 40")):
        notice = metadata[f"reuse_terms.{language}".encode()].decode("utf-8")
        assert words in notice
        assert notice in terms
    assert "sem autorização escrita" in terms
    assert "without the written authorization" in terms
    pt, en = (page(sites[AFTER], language, "reuse") for language in LANGUAGES)
    assert "Proibido treinar" in pt
    assert "Not for training" in en
    assert 'href="../data/reg-2026-1/items.parquet"' in pt
    assert 'href="../../data/reg-2026-1/items.jsonl"' in en
    for text, words in (
        (pt, "não registra autorização concedida"),
        (en, "records no authorization granted by"),
    ):
        assert words in text
        assert 'id="md-reg-2026-1-authorizations"' in text


def test_the_leak_guard_reads_jsonl_downloads(tmp_path: Path) -> None:
    material = GuardMaterial(
        round_id="r", secret_texts=(), public_texts=(), canaries=("CANARY-0123456789",), names=()
    )
    index = SecretIndex.from_material([material], as_of=date(2030, 1, 1))
    leaked = tmp_path / "items.jsonl"
    leaked.write_text('{"prompt": "x", "canary": "CANARY-0123456789"}\n', "utf-8")
    assert scan_file(leaked, "data/r/items.jsonl", index)
