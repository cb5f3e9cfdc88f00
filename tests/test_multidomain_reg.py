"""The REG-BC-2026-001 demonstration round: the committed archive is what the generator
writes, byte for byte, and it keeps the round spec's rules that plain Python can check
(the reader and `verify` check all of them)."""

from __future__ import annotations

import json
import subprocess
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reportgen.demo.multidomain.reg import ROUND_ID, reg_round
from reportgen.demo.multidomain.scoring import cast_names, names_in
from reportgen.kinds.multidomain import derive, schemas
from reportgen.kinds.multidomain.model import ResponseKey, Round
from reportgen.kinds.multidomain.terms import (
    active_items,
    is_jury_scored,
    ngrams,
    normalise,
    sha256_text,
    superseded_ids,
    tokens,
)
from reportgen.kinds.multidomain.write import archive_files

COMMITTED = Path(__file__).resolve().parents[1] / "examples" / "multidomain" / "rounds" / ROUND_ID


@pytest.fixture(scope="module")
def reg() -> Round:
    return reg_round(COMMITTED)


def test_the_committed_archive_is_what_the_generator_writes(reg: Round) -> None:
    files = archive_files(reg)
    on_disk = sorted(
        p.relative_to(COMMITTED).as_posix() for p in COMMITTED.rglob("*") if p.is_file()
    )
    assert on_disk == sorted(files)
    for rel, data in files.items():
        assert (COMMITTED / rel).read_bytes() == data, rel
    subprocess.run(["sha256sum", "--quiet", "-c", "SHA256SUMS"], cwd=COMMITTED, check=True)
    assert sum(len(data) for data in files.values()) < 15_000_000


def test_tables_have_the_spec_schemas() -> None:
    expected = {"items.parquet": schemas.ITEMS_SCHEMA, **schemas.KIND_PARQUET_SCHEMAS}
    expected.update(
        {
            f"responses/{p.name}": schemas.RESPONSES_SCHEMA
            for p in (COMMITTED / "responses").iterdir()
        }
    )
    for name, schema in expected.items():
        assert pq.read_schema(COMMITTED / name).remove_metadata().equals(schema), name


def test_the_round_holds_the_full_profile(reg: Round) -> None:
    manifest = reg.manifest
    assert manifest.deviations == ()
    assert (manifest.cast_size, manifest.runs, manifest.max_points) == (15, 3, 2030)
    assert dict(manifest.grade_counts) == {1: 21, 2: 287, 3: 329, 4: 49, 5: 14}
    for part in manifest.composition.values():
        assert dict(part.language) == {"pt-BR": 34, "en": 33, "zh": 33}
        assert dict(part.type) == {"mcq": 60, "open": 25, "calc": 15}
    assert [d.id for d in manifest.domains] == [
        "juridica",
        "medica",
        "proptech",
        "compliance",
        "bank",
        "energia",
        "negocios",
    ]
    assert len(manifest.interpretations) == 23
    assert str(manifest.retain_until) == "2028-11-20"
    data = json.loads((COMMITTED / "round.json").read_text(encoding="utf-8"))
    assert data["synthetic"] is True
    assert data["multidomain"]["jury"]["adjudicate_above"] == "3/2"


def test_cast_follows_the_annex_and_the_reserve_order(reg: Round) -> None:
    assert len(reg.models) == 15
    annex = {entry.annex_id: entry for entry in reg.manifest.annex}
    for p in reg.models:
        entry = annex[p.annex_id]
        assert (p.organization, p.language_affinity, p.reserve) == (
            entry.organization,
            entry.language_affinity,
            entry.reserve,
        )
        assert p.checksum if p.weights_open else True
        assert p.generation_sha256 == sha256_text(
            json.dumps(dict(reg.manifest.generation), sort_keys=True, separators=(",", ":"))
        )
    [reserve] = [p for p in reg.models if p.reserve]
    withdrawn = {a for a, e in annex.items() if not e.reserve} - {p.annex_id for p in reg.models}
    assert withdrawn == {reserve.replaces}
    assert reserve.annex_id == min(a for a, e in annex.items() if e.reserve)


def test_every_participant_answers_every_test_item_in_every_run(reg: Round) -> None:
    tests = {i.item_id: i for i in reg.items if not i.calibration}
    manifest = reg.manifest
    for rows in reg.responses.values():
        assert Counter((r.item_id, r.run) for r in rows) == {
            (i, run): 1 for i in tests for run in (1, 2, 3)
        }
        assert len({r.snapshot for r in rows}) == 1
        for r in rows:
            assert r.prompt_sha256 == sha256_text(tests[r.item_id].prompt)
            assert (
                manifest.collected_on
                <= r.called_at.date()
                <= (manifest.ended_on or r.called_at.date())
            )
            objective = tests[r.item_id].type != "open"
            if r.status in ("timeout", "error"):
                assert (r.raw_text, r.format_ok) == (None, False if objective else None)
            if r.status == "ok" and objective:
                assert r.format_ok is True
                assert r.correct == (r.extracted_answer == tests[r.item_id].answer_key) or (
                    tests[r.item_id].type == "calc"
                )
            if r.status == "discarded_personal_data":
                assert r.raw_text is None
                assert r.raw_sha256 is not None
    statuses = Counter(r.status for rows in reg.responses.values() for r in rows)
    assert statuses["discarded_personal_data"] == 2
    assert min(statuses.values()) >= 2


def test_jury_positions_adjudications_and_views(reg: Round) -> None:
    items = {i.item_id: i for i in reg.items}
    scored = {
        (r.item_id, r.model_id, r.run)
        for rows in reg.responses.values()
        for r in rows
        if is_jury_scored(items[r.item_id], r)
    }
    judges: dict[ResponseKey, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row in reg.jury:
        judges[(row.item_id, row.model_id, row.run)][row.judge_id].append(row.score)
    assert set(judges) == scored
    adjudicated = {(a.item_id, a.model_id, a.run) for a in reg.adjudications}
    above = reg.manifest.jury.adjudicate_above
    for key, by_judge in judges.items():
        assert sorted(by_judge) == ["j1", "j2", "j3"]
        assert all(len(scores) == 3 for scores in by_judge.values())
        means = [derive.mean_score(s) for s in by_judge.values()]
        assert derive.needs_adjudication(means, above) == (key in adjudicated)
    assert 0 < len(adjudicated) < len(scored) // 10
    ranks = derive.presentation_ranks(
        reg.manifest.jury.presentation_seed,
        {(j.judge_id, j.item_id, j.model_id, j.run) for j in reg.jury},
    )
    assert all(ranks[(j.judge_id, j.item_id, j.model_id, j.run)] == j.position for j in reg.jury)
    assert {(v.item_id, v.model_id, v.run) for v in reg.judge_views} == scored
    labels = Counter((v.item_id, v.run, v.presented_as) for v in reg.judge_views)
    assert max(labels.values()) == 1
    names = cast_names(reg.models)
    assert not [v for v in reg.judge_views if v.view_text and names_in(v.view_text, names)]


def test_audit_sample_invalidations_and_ledger(reg: Round) -> None:
    drawn = derive.audit_draw(reg.items, reg.manifest)
    assert (len(drawn), sum(len(ids) for ids in drawn.values())) == (21, 63)
    drawn_ids = {i for ids in drawn.values() for i in ids}
    ok = {
        (r.item_id, r.model_id, r.run)
        for rows in reg.responses.values()
        for r in rows
        if r.item_id in drawn_ids and r.status == "ok"
    }
    audited = {(a.item_id, a.model_id, a.run) for a in reg.audit}
    assert audited == ok
    assert all(a.blind and a.reviewer_id in ("h1", "h2") for a in reg.audit)
    sources = Counter(line.source for line in reg.annulments)
    assert sources == {"audit": 2, "contestation": 1}
    assert all(
        line.decided_on >= (reg.manifest.ended_on or line.decided_on) for line in reg.annulments
    )
    active = {i.item_id for i in active_items(reg.items)}
    assert all(line.item_id in active for line in reg.annulments)


def test_canaries_variant_and_eight_gram_flags(reg: Round) -> None:
    items = {i.item_id: i for i in reg.items}
    canaries = {i.item_id: normalise(i.canary) for i in reg.items if i.canary}
    assert not [i for i in reg.items for c in canaries.values() if c in normalise(i.prompt)]
    answers = [normalise(r.raw_text) for rows in reg.responses.values() for r in rows if r.raw_text]
    reproduced = {
        item_id for answer in answers for item_id, canary in canaries.items() if canary in answer
    }
    assert reproduced == superseded_ids(reg.items)
    assert len(reproduced) == 1
    [variant] = [i for i in reg.items if i.variant_of]
    target = items[variant.variant_of or ""]
    assert (variant.domain_id, variant.language, variant.type, variant.grade) == (
        target.domain_id,
        target.language,
        target.type,
        target.grade,
    )
    flagged = 0
    for rows in reg.responses.values():
        for r in rows:
            item = items[r.item_id]
            if item.type == "open" and r.raw_text:
                grams = ngrams(tokens(item.prompt), 8)
                shared = len(grams & ngrams(tokens(r.raw_text), 8))
                flagged += Fraction(shared, len(grams)) > Fraction(3, 5)
    assert 3 <= flagged <= 10


def test_calibration_items_and_raters(reg: Round) -> None:
    calibration = [i for i in reg.items if i.calibration]
    assert {i.language for i in calibration} == {"pt-BR", "en", "zh"}
    assert all(i.published and i.canary is None and i.order is None for i in calibration)
    raters: dict[str, set[str]] = defaultdict(set)
    for row in reg.calibration:
        raters[row.response_id].add(row.rater_id)
        assert row.response_sha256 == sha256_text(row.response_text)
    assert {frozenset(found) for found in raters.values()} == {
        frozenset({"j1", "j2", "j3", "a1", "h1", "h2"})  # a1: Art. 16, the adjudicator
    }
