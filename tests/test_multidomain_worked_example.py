"""The worked example of multidomain-metrics.md §11: every figure, from the tiny round."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from reportgen.demo.multidomain.tiny import tiny_round
from reportgen.kinds.multidomain.derive import audit_draw
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results import Exact, ParticipantResults, Results, build_results
from reportgen.kinds.multidomain.score import round_points
from reportgen.kinds.multidomain.stats import scores
from reportgen.kinds.multidomain.stats.dates import embargo_over, is_provisional
from reportgen.kinds.multidomain.stats.integrity import integrity_report
from reportgen.kinds.multidomain.terms import active_items, scored_items


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Round:
    return tiny_round(tmp_path_factory.mktemp("tiny") / "tiny")


@pytest.fixture(scope="module")
def results(tiny: Round) -> Results:
    return build_results(tiny, replicates=200)


def _by_id(results: Results) -> dict[str, ParticipantResults]:
    return {p.model_id: p for p in results.participants}


def _slice(participant: ParticipantResults, name: str) -> Exact:
    entry = next(s for s in participant.slices if s.slice == name)
    assert entry.score is not None
    return entry.score


def test_points_possible_primary_and_global(results: Results) -> None:
    by_id = _by_id(results)
    assert [(by_id[m].points.fraction, by_id[m].possible) for m in ("p1", "p2", "p3")] == [
        (Fraction(49, 3), 19),
        (Fraction(37, 3), 19),
        (Fraction(50, 3), 19),
    ]
    primary = {m: by_id[m].primary.score for m in by_id}
    assert {m: (p.fraction, p.display()) for m, p in primary.items() if p is not None} == {
        "p1": (Fraction(5225, 63), "82.94"),
        "p2": (Fraction(7975, 126), "63.29"),
        "p3": (Fraction(1625, 18), "90.28"),
    }
    globals_ = {m: by_id[m].global_score.score for m in by_id}
    assert {m: g.display() for m, g in globals_.items() if g is not None} == {
        "p1": "85.96",
        "p2": "64.91",
        "p3": "87.72",
    }


def test_domain_scores_after_and_before_the_audit(tiny: Round, results: Results) -> None:
    by_id = _by_id(results)
    after = {
        m: (_slice(p, "domain:d1").display(), _slice(p, "domain:d2").display())
        for m, p in by_id.items()
    }
    assert after == {
        "p1": ("94.44", "71.43"),
        "p2": ("69.44", "57.14"),
        "p3": ("80.56", "100.00"),
    }
    # Before the audit: i7 is still scored.
    points = round_points(tiny, items=active_items(tiny.items))
    slices = scores.shared_slices(points, tiny.manifest)
    before = {
        model_id: tuple(
            Exact.of(value).display()
            for name in ("domain:d1", "domain:d2", "global")
            if (value := scores.slice_score(points, model, slices[name])) is not None
        )
        for model, model_id in enumerate(points.model_ids)
    }
    assert before == {
        "p1": ("94.44", "75.00", "84.72"),
        "p2": ("69.44", "66.67", "68.06"),
        "p3": ("80.56", "77.78", "79.17"),
    }


def test_ranks_and_no_technical_tie_with_point_intervals(results: Results) -> None:
    assert [(p.model_id, p.rank) for p in results.participants] == [
        ("p3", 1),
        ("p1", 2),
        ("p2", 3),
    ]
    for participant in results.participants:
        primary = participant.primary
        assert primary.lo == primary.score == primary.hi  # strata of one item never vary
        assert participant.global_score.lo == participant.global_score.score
    assert results.tie_groups == ()
    assert [(a.a, a.b, a.decided_by, a.technical_tie) for a in results.adjacent] == [
        ("p3", "p1", "primary", False),
        ("p1", "p2", "primary", False),
    ]


def test_elo_bradley_terry_and_head_to_head(results: Results) -> None:
    by_id = _by_id(results)
    assert {m: f"{p.elo:.2f}" for m, p in by_id.items()} == {
        "p1": "1503.70",
        "p2": "1473.86",
        "p3": "1522.44",
    }
    assert {m: f"{p.bt:.2f}" for m, p in by_id.items() if p.bt is not None} == {
        "p1": "1517.07",
        "p2": "1431.77",
        "p3": "1551.17",
    }
    pairs = {(r.a, r.b): r for r in results.pairwise.pairs}
    assert {k: (r.wins, r.losses, r.ties) for k, r in pairs.items()} == {
        ("p1", "p2"): (3, 1, 3),
        ("p1", "p3"): (1, 2, 4),
        ("p2", "p3"): (1, 3, 3),
    }
    probability = pairs[("p1", "p2")].p_a_beats_b
    assert probability is not None
    assert f"{probability:.3f}" == "0.620"


def test_refusal_rate_and_format_compliance(results: Results) -> None:
    by_id = _by_id(results)
    figures = {
        m: (p.process.refusals, p.process.n, p.process.format_compliant, p.process.format_counted)
        for m, p in by_id.items()
    }
    assert figures == {"p1": (0, 7, 6, 6), "p2": (0, 7, 5, 6), "p3": (1, 7, 5, 5)}
    assert by_id["p2"].process.format_compliance == Exact.of(Fraction(5, 6))


def test_audit_draw_and_invalidation(tiny: Round, results: Results) -> None:
    drawn = {item_id for ids in audit_draw(tiny.items, tiny.manifest).values() for item_id in ids}
    assert drawn == {"i3", "i7"}
    assert [
        (e.item_id, e.model_id, e.human.fraction, e.final.fraction, e.divergence.fraction)
        for e in results.audit.invalidations
    ] == [("i7", "p1", Fraction(5, 2), Fraction(4), Fraction(3, 2))]
    assert results.audit.ledgered == ("i7",)
    assert "i7" not in {item.item_id for item in scored_items(tiny)}


def test_eight_gram_containment(tiny: Round, results: Results) -> None:
    report = integrity_report(tiny)
    by_key = {(c.item_id, c.model_id): c for c in report.containment}
    assert (by_key[("i3", "p2")].shared, by_key[("i3", "p2")].total) == (10, 13)
    assert by_key[("i3", "p2")].flagged(Fraction(3, 5))
    assert by_key[("i7", "p3")].value == Fraction(9, 15)
    assert not by_key[("i7", "p3")].flagged(Fraction(3, 5))
    assert [(f.item_id, f.model_id) for f in results.contamination.ngram_flagged] == [("i3", "p2")]


def test_dates(tiny: Round, results: Results) -> None:
    assert str(results.dates.embargo_end) == "2027-02-28"
    assert str(results.dates.provisional_until) == "2027-03-20"
    assert str(results.dates.retain_until) == "2028-11-30"
    assert str(results.dates.contest_closes) == "2027-03-10"
    assert is_provisional(tiny.manifest, date(2027, 3, 19))
    assert not is_provisional(tiny.manifest, date(2027, 3, 20))
    assert not embargo_over(tiny.manifest, date(2027, 2, 27))
    assert embargo_over(tiny.manifest, date(2027, 2, 28))


def test_results_round_trip_through_json(results: Results) -> None:
    assert Results.from_json_dict(results.to_json_dict()) == results
