"""The tiny round (metrics §11) as the demonstration writes it: the designed points,
the item order, the audit draw and invalidation, the 8-gram figures, the schemas and a
byte-identical rewrite."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from reportgen.demo.multidomain.assemble import response_points
from reportgen.demo.multidomain.tiny import tiny_round, write_tiny_round
from reportgen.demo.multidomain.tiny_content import DESIGN_IDS, ROUND_ID
from reportgen.kinds.multidomain import derive, schemas
from reportgen.kinds.multidomain.model import ResponseKey, Round
from reportgen.kinds.multidomain.terms import ngrams, sha256_text, tokens

F = Fraction
DESIGNED: dict[str, dict[str, Fraction]] = {
    "p1": {
        "i3": F(13, 3),
        "a": F(2),
        "b": F(2),
        "c": F(3),
        "d": F(0),
        "e": F(2),
        "f": F(3),
        "i7": F(4),
    },
    "p2": {
        "i3": F(10, 3),
        "a": F(2),
        "b": F(0),
        "c": F(3),
        "d": F(2),
        "e": F(2),
        "f": F(0),
        "i7": F(4),
    },
    "p3": {
        "i3": F(14, 3),
        "a": F(0),
        "b": F(2),
        "c": F(3),
        "d": F(2),
        "e": F(2),
        "f": F(3),
        "i7": F(7, 3),
    },
}
ALLOWED_ORDERS = (
    ("a", "b", "i3", "e", "c", "d", "f"),
    ("a", "b", "i3", "c", "e", "d", "f"),
    ("a", "f", "i3", "e", "c", "d", "b"),
    ("a", "f", "i3", "c", "e", "d", "b"),
)


@pytest.fixture(scope="module")
def tiny() -> Round:
    return tiny_round(Path("/nonexistent") / ROUND_ID)


def _finals(round_: Round) -> dict[ResponseKey, Fraction]:
    jurors: dict[ResponseKey, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row in round_.jury:
        jurors[(row.item_id, row.model_id, row.run)][row.judge_id].append(row.score)
    adjudicated: dict[ResponseKey, list[int]] = defaultdict(list)
    for adj in round_.adjudications:
        adjudicated[(adj.item_id, adj.model_id, adj.run)].append(adj.score)
    above = round_.manifest.jury.adjudicate_above
    finals = {}
    for key, by_judge in jurors.items():
        means = [derive.mean_score(scores) for scores in by_judge.values()]
        assert len(means) == 3
        assert derive.needs_adjudication(means, above) == (key in adjudicated)
        adjudicator = derive.mean_score(adjudicated[key]) if key in adjudicated else None
        finals[key] = derive.final_score(means, adjudicator, above)
    return finals


def test_points_per_participant_and_item_are_the_designed_ones(tiny: Round) -> None:
    items = {item.item_id: item for item in tiny.items}
    finals = _finals(tiny)
    letter = {item_id: name for name, item_id in DESIGN_IDS.items()}
    got = {
        model_id: {
            letter.get(r.item_id, r.item_id): response_points(
                items[r.item_id], r, finals.get((r.item_id, r.model_id, r.run))
            )
            for r in rows
        }
        for model_id, rows in tiny.responses.items()
    }
    assert got == DESIGNED
    statuses = {
        (r.model_id, letter.get(r.item_id)): r.status
        for rows in tiny.responses.values()
        for r in rows
    }
    assert statuses[("p2", "b")] == "format_violation"
    assert statuses[("p2", "f")] == "ok"
    assert statuses[("p3", "a")] == "refusal"
    assert [a.judge_id for a in tiny.adjudications] == ["a1", "a1"]  # P2 on i7 only


def test_the_scored_items_come_in_an_order_of_the_design(tiny: Round) -> None:
    letter = {item_id: name for name, item_id in DESIGN_IDS.items()}
    tests = [item for item in tiny.items if not item.calibration]
    orders = derive.item_orders(tests, tiny.manifest.item_order_seed)
    assert all(orders[item.item_id] == item.order for item in tests)
    in_order = sorted((item for item in tests if item.item_id != "i7"), key=lambda i: i.order or 0)
    assert tuple(letter.get(item.item_id, item.item_id) for item in in_order) in ALLOWED_ORDERS


def test_the_audit_draws_i3_and_i7_and_invalidates_i7_on_p1(tiny: Round) -> None:
    drawn = {i for ids in derive.audit_draw(tiny.items, tiny.manifest).values() for i in ids}
    assert drawn == {"i3", "i7"}
    finals = _finals(tiny)
    human: dict[tuple[str, ResponseKey], list[int]] = defaultdict(list)
    for row in tiny.audit:
        human[(row.audit_id, (row.item_id, row.model_id, row.run))].append(row.score)
    divergences = {
        key: (audit_id, abs(derive.mean_score(scores) - finals[key]))
        for (audit_id, key), scores in human.items()
    }
    assert len(divergences) == 6
    audit_id, p1_i7 = divergences[("i7", "p1", 1)]
    assert p1_i7 == Fraction(3, 2)
    assert all(d <= 1 for key, (_, d) in divergences.items() if key != ("i7", "p1", 1))
    [line] = tiny.annulments
    assert (line.item_id, line.source, line.ref) == ("i7", "audit", audit_id)
    assert line.decided_on >= (tiny.manifest.ended_on or line.decided_on)


def _containment(prompt: str, answer: str) -> Fraction:
    grams = ngrams(tokens(prompt), 8)
    return Fraction(len(grams & ngrams(tokens(answer), 8)), len(grams))


def test_eight_gram_containments_are_10_13_and_9_15(tiny: Round) -> None:
    prompts = {item.item_id: item.prompt for item in tiny.items}
    answers = {
        (r.item_id, r.model_id): r.raw_text or "" for rows in tiny.responses.values() for r in rows
    }
    assert len(tokens(prompts["i3"])) == 20
    assert len(tokens(prompts["i7"])) == 22
    i3_p2 = _containment(prompts["i3"], answers[("i3", "p2")])
    i7_p3 = _containment(prompts["i7"], answers[("i7", "p3")])
    assert (i3_p2.numerator, i3_p2.denominator, i3_p2 > Fraction(3, 5)) == (10, 13, True)
    assert i7_p3 == Fraction(9, 15)
    assert len(ngrams(tokens(prompts["i7"]), 8) & ngrams(tokens(answers[("i7", "p3")]), 8)) == 9
    others = [k for k in answers if k[0] in ("i3", "i7") and k not in (("i3", "p2"), ("i7", "p3"))]
    assert all(_containment(prompts[k[0]], answers[k]) <= Fraction(3, 5) for k in others)


def test_derived_values_hold(tiny: Round) -> None:
    manifest = tiny.manifest
    assert (manifest.max_points, manifest.runs, manifest.cast_size) == (24, 1, 3)
    assert dict(manifest.grade_counts) == {1: 1, 2: 2, 3: 2, 4: 2, 5: 1}
    assert {d.key for d in manifest.deviations} >= {"multidomain.cast_size", "multidomain.runs"}
    assert str(manifest.retain_until) == "2028-11-30"
    assert {item.language for item in tiny.items if item.calibration} == {"pt-BR", "en", "zh"}
    prompts = {item.item_id: item.prompt for item in tiny.items}
    for rows in tiny.responses.values():
        assert all(r.prompt_sha256 == sha256_text(prompts[r.item_id]) for r in rows)
    canaries = [item.canary for item in tiny.items if item.canary]
    assert not any(c in p for c in canaries for p in prompts.values())


def test_written_archive_has_the_spec_schemas_and_rewrites_byte_identically(tmp_path: Path) -> None:
    first = write_tiny_round(tmp_path / "one")
    second = write_tiny_round(tmp_path / "two")
    names = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert names == sorted(
        p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file()
    )
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    expected = {
        "items.parquet": schemas.ITEMS_SCHEMA,
        **schemas.KIND_PARQUET_SCHEMAS,
        **{f"responses/{m}.parquet": schemas.RESPONSES_SCHEMA for m in ("p1", "p2", "p3")},
    }
    for name, schema in expected.items():
        assert pq.read_schema(first / name).remove_metadata().equals(schema), name
    listed = {line.split("  ", 1)[1] for line in (first / "SHA256SUMS").read_text().splitlines()}
    assert listed == set(names) - {"SHA256SUMS", "annulments.jsonl"}
    block = json.loads((first / "round.json").read_text(encoding="utf-8"))["multidomain"]
    assert (block["jury"]["adjudicate_above"], block["jury"]["scale"]) == ("3/2", [0, 5])
    assert (block["audit"]["fraction"], block["audit"]["invalidate_above"]) == ("1/10", "1")
    header = (first / "models.csv").read_text(encoding="utf-8").splitlines()[0]
    assert tuple(header.split(",")) == schemas.MODELS_HEADER
