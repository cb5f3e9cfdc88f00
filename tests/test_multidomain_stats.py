"""Boundaries of the multidomain statistics against independent references."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from datetime import date
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

from reportgen.demo.multidomain.tiny import tiny_round
from reportgen.kinds.multidomain.model import Annulment, Pairwise, Round
from reportgen.kinds.multidomain.results import build_results
from reportgen.kinds.multidomain.stats import bootstrap as bs
from reportgen.kinds.multidomain.stats import pairwise
from reportgen.kinds.multidomain.stats.classify import CRITERIA, classify
from reportgen.kinds.multidomain.stats.integrity import integrity_report, longest_common_substring
from reportgen.kinds.multidomain.terms import normalise
from reportgen.stats import krippendorff_alpha

RULES = Pairwise(elo_initial=1500, k=16, scale=400, base=10, bt_mean=1500)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Round:
    return tiny_round(tmp_path_factory.mktemp("tiny") / "tiny")


# --- percentiles and the bootstrap draws -------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 7, 40, 1000])
def test_exact_percentiles_agree_with_numpy_linear(count: int) -> None:
    rng = random.Random(count)
    values = [Fraction(rng.randint(0, 300), rng.randint(1, 9)) for _ in range(count)]
    floats = np.array([float(v) for v in values])
    for q in (bs.LOWER_Q, bs.UPPER_Q, Fraction(50)):
        got = bs.exact_percentile(floats, lambda r: values[r], q)
        assert got == bs.linear_percentile(values, q)
        assert got is not None
        assert float(got) == pytest.approx(np.percentile(floats, float(q), method="linear"))


def test_percentiles_leave_out_undefined_replicates_and_settle_near_ties_exactly() -> None:
    values = [Fraction(1, 3), Fraction(1, 3) + Fraction(1, 10**30), Fraction(2, 3)]
    floats = np.array([float(v) for v in values] + [np.nan])
    low = bs.exact_percentile(floats, lambda r: values[r], Fraction(50))
    assert low == values[1]  # the float values of 0 and 1 are equal; the exact ones are not
    assert bs.exact_percentile(np.array([np.nan]), lambda r: Fraction(0), Fraction(50)) is None


def test_bootstrap_weights_follow_the_spec_draw_by_draw(tiny: Round) -> None:
    from reportgen.kinds.multidomain.terms import scored_items

    items = scored_items(tiny)[:5] + scored_items(tiny)[5:]
    weights = bs.draw_weights(items, 7, 50)
    generator = np.random.Generator(np.random.PCG64(7))
    keys = sorted({(i.domain_id, i.language, i.type) for i in items})
    expected = np.zeros((50, len(items)), dtype=np.int64)
    for key in keys:
        members = sorted(
            (n for n, i in enumerate(items) if (i.domain_id, i.language, i.type) == key),
            key=lambda n: items[n].order or 0,
        )
        draws = generator.integers(0, len(members), size=(50, len(members)))
        for r in range(50):
            for d in draws[r]:
                expected[r, members[d]] += 1
    assert np.array_equal(weights, expected)
    assert np.all(weights == 1)  # the tiny round: strata of one item


# --- technical ties ----------------------------------------------------------------------


def _interval(lo: int, hi: int) -> bs.Interval:
    return bs.Interval(Fraction(lo), Fraction(hi), 0)


def test_technical_tie_reading_r2_and_its_exact_boundary() -> None:
    tied = bs.technically_tied
    assert tied(Fraction(80), _interval(74, 86), Fraction(76), _interval(70, 82))
    assert not tied(Fraction(80), _interval(74, 86), Fraction(73), _interval(67, 79))
    # |Δ| = (w_a + w_b) / 4 exactly: not tied (strict).
    assert not tied(Fraction(80), _interval(74, 86), Fraction(74), _interval(68, 80))
    assert tied(
        Fraction(80), _interval(74, 86), Fraction(74) + Fraction(1, 10**9), _interval(68, 80)
    )
    # Point intervals never tie, even at equal scores.
    assert not tied(Fraction(5), _interval(5, 5), Fraction(5), _interval(5, 5))


def test_tie_groups_are_connected_components_of_chains() -> None:
    order = ["a", "b", "c", "d", "e"]
    tied = dict.fromkeys(itertools.combinations(order, 2), False)
    tied[("a", "b")] = tied[("b", "c")] = tied[("d", "e")] = True
    assert bs.tie_groups(order, tied) == [["a", "b", "c"], ["d", "e"]]
    assert bs.tie_groups(order, dict.fromkeys(tied, False)) == []


# --- classification ------------------------------------------------------------------------


def test_classification_skips_undefined_criteria_and_ranks_by_competition() -> None:
    def values(*chain: Fraction | None) -> dict[str, Fraction | None]:
        return dict(zip(CRITERIA, chain, strict=True))

    f = Fraction
    table = {
        "a": values(f(90), f(80), None, f(1), f(2), f(10)),
        "b": values(f(80), f(70), f(50), f(1), f(1), f(10)),
        "c": values(f(80), f(70), f(60), f(1), f(1), f(10)),
        "d": values(f(80), f(70), f(60), f(1), f(1), f(10)),
        "e": values(f(70), f(60), f(10), None, f(3), f(1)),
        "f": values(f(70), f(60), f(10), f(0), f(1), f(5)),
    }
    result = classify(list(table), table)
    assert result.order == ("a", "c", "d", "b", "f", "e")
    assert [result.ranks[m] for m in result.order] == [1, 2, 2, 4, 5, 6]
    # c, d share everything; e/f: non-native undefined for e -> skipped; variance decides.
    assert result.decided_by == ("primary", None, "high_grade", "primary", "judge_variance")


# --- head to head ------------------------------------------------------------------------


def _random_battles(models: int, items: int, seed: int) -> pairwise.Battles:
    rng = np.random.default_rng(seed)
    pairs = tuple(itertools.combinations(range(models), 2))
    outcome = rng.choice([0.0, 0.5, 1.0], size=(items, len(pairs)))
    valid = rng.random((items, len(pairs))) > 0.1
    return pairwise.Battles(pairs=pairs, outcome=outcome, valid=valid)


def _sequential_elo(fought: pairwise.Battles, models: int, sequence: list[int]) -> list[float]:
    ratings = [1500.0] * models
    for item in sequence:
        for index, (a, b) in enumerate(fought.pairs):
            if not fought.valid[item, index]:
                continue
            expected = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
            change = 16 * (fought.outcome[item, index] - expected)
            ratings[a] += change
            ratings[b] -= change
    return ratings


def test_vectorised_elo_replicates_equal_the_sequential_loop() -> None:
    fought = _random_battles(6, 12, 1)
    rng = np.random.default_rng(2)
    weights = rng.multinomial(12, [1 / 12] * 12, size=20).astype(np.int64)
    ratings = pairwise.elo(fought, 6, RULES, pairwise.replicate_sequence(weights))
    for r in range(20):
        sequence = [i for i in range(12) for _ in range(weights[r, i])]
        assert ratings[r].tolist() == pytest.approx(_sequential_elo(fought, 6, sequence), abs=1e-9)
    single = pairwise.elo(fought, 6, RULES)[0]
    assert single.tolist() == pytest.approx(_sequential_elo(fought, 6, list(range(12))), abs=1e-9)


def _likelihood_fit(wins: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    models = wins.shape[0]

    def negative(beta: np.ndarray[Any, Any]) -> float:
        total = 0.0
        for a in range(models):
            for b in range(models):
                if a != b and wins[a, b] > 0:
                    p = 1 / (1 + 10 ** ((beta[b] - beta[a]) / 400))
                    total -= wins[a, b] * math.log(p)
        return total

    def gradient(beta: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        # The analytic gradient: with finite differences BFGS stopped up to 0.002 points
        # short of the optimum on some BLAS builds, which made this comparison fail.
        slope = np.zeros(models)
        for a in range(models):
            for b in range(models):
                if a != b:
                    p = 1 / (1 + 10 ** ((beta[b] - beta[a]) / 400))
                    flow = (wins[a, b] * (1 - p) - wins[b, a] * p) * math.log(10) / 400
                    slope[a] -= flow
        return slope

    fitted = minimize(
        negative, np.zeros(models), jac=gradient, method="BFGS", options={"gtol": 1e-10}
    ).x
    return np.asarray(fitted - fitted.mean() + 1500)


def test_bradley_terry_is_the_maximum_likelihood_fit() -> None:
    fought = _random_battles(5, 30, 3)
    wins = fought.win_mass(5).sum(axis=0)
    assert pairwise.estimable(wins[None])[0]
    ratings = pairwise.bradley_terry(wins[None], RULES)[0]
    assert ratings.mean() == pytest.approx(1500)
    assert ratings == pytest.approx(_likelihood_fit(wins), abs=1e-3)


def test_bradley_terry_is_not_estimable_without_strong_connection() -> None:
    wins = np.array([[0, 2, 1], [0, 0, 1], [0, 1, 0]], dtype=float)  # model 0 never loses
    no_battle = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=float)
    connected = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]], dtype=float)
    assert pairwise.estimable(np.stack([wins, no_battle, connected])).tolist() == [
        False,
        False,
        True,
    ]
    rng = np.random.default_rng(5)
    for _ in range(50):
        random_wins = (rng.random((4, 4)) > 0.6) * np.ones((4, 4)) * (1 - np.eye(4))
        count, _labels = connected_components(random_wins > 0, connection="strong")
        assert pairwise.estimable(random_wins[None])[0] == (count == 1)


# --- calibration agreement ----------------------------------------------------------------


def _squared(values: list[Fraction]) -> Fraction:
    total = Fraction(0)
    for i, first in enumerate(values):
        for j, second in enumerate(values):
            if i != j:
                total += (first - second) * (first - second)
    return total


def _slow_alpha(units: list[list[Fraction]]) -> Fraction:
    """α straight from the definition: every ordered pair of values, one by one."""
    pairable = [u for u in units if len(u) >= 2]
    values = [v for u in pairable for v in u]
    n = len(values)
    observed = Fraction(0)
    for unit in pairable:
        observed += _squared(unit) / (len(unit) - 1)
    return 1 - (observed / n) / (_squared(values) / (n * (n - 1)))


def test_krippendorff_alpha_by_hand_and_against_the_definition() -> None:
    assert krippendorff_alpha([[Fraction(1), Fraction(2)], [Fraction(3), Fraction(3)]]) == (
        Fraction(8, 11)
    )
    rng = random.Random(4)
    units = [[Fraction(rng.randint(0, 10), 2) for _ in range(5)] for _ in range(9)]
    assert krippendorff_alpha(units) == _slow_alpha(units)
    assert krippendorff_alpha([[Fraction(3), Fraction(3)]]) is None  # D_e = 0


# --- integrity -----------------------------------------------------------------------------


def test_full_and_suspicious_canaries(tiny: Round) -> None:
    canary = {item.item_id: item.canary or "" for item in tiny.items}
    own = canary["i3"]
    half = own[: math.ceil(len(own) / 2) + 1]
    changed = {}
    for model_id, rows in tiny.responses.items():
        new_rows = []
        for row in rows:
            if (model_id, row.item_id) == ("p1", "i3"):
                row = dataclasses.replace(row, raw_text=f"{row.raw_text} {canary['i7'].upper()}")
            if (model_id, row.item_id) == ("p3", "i3"):
                row = dataclasses.replace(row, raw_text=f"{row.raw_text} {half}")
            new_rows.append(row)
        changed[model_id] = tuple(new_rows)
    report = integrity_report(dataclasses.replace(tiny, responses=changed))
    assert [(h.canary_item_id, h.item_id, h.model_id) for h in report.full] == [("i7", "i3", "p1")]
    assert report.full_items == ("i7",)
    assert [(h.item_id, h.model_id, h.common_chars) for h in report.suspicious] == [
        ("i3", "p3", longest_common_substring(normalise(half), normalise(own)))
    ]


def test_longest_common_substring() -> None:
    assert longest_common_substring("xxabcdyy", "zabcdz") == 4
    assert longest_common_substring("abc", "") == 0


# --- whole rounds ---------------------------------------------------------------------------


def test_everything_annulled_leaves_every_score_undefined(tiny: Round) -> None:
    annulled = tuple(
        Annulment(
            item_id=item.item_id,
            decided_on=date(2026, 12, 5),
            source="contestation",
            ref="c-1",
            reason={"pt-BR": "anulado", "en": "annulled"},
            prev_sha256="",
        )
        for item in tiny.items
        if not item.calibration
    )
    results = build_results(dataclasses.replace(tiny, annulments=annulled), replicates=20)
    assert all(p.primary.score is None and p.rank == 1 for p in results.participants)
    assert all(p.primary.lo is None and p.bt is None for p in results.participants)
    assert results.pairwise.battles == 0
    assert not results.pairwise.bt_estimable
    assert results.pairwise.bt_non_estimable_replicates == 20


def test_nothing_annulled_scores_i7_for_everyone(tiny: Round) -> None:
    results = build_results(dataclasses.replace(tiny, annulments=()), replicates=20)
    assert results.counts.scored_items == 8
    assert results.counts.possible == 24
    assert [p.model_id for p in results.participants] == ["p1", "p3", "p2"]
    assert {
        p.model_id: p.global_score.score.display()
        for p in results.participants
        if p.global_score.score
    } == {"p1": "84.72", "p2": "68.06", "p3": "79.17"}


def test_results_do_not_depend_on_anything_but_the_round(tiny: Round) -> None:
    assert build_results(tiny, replicates=30) == build_results(tiny, replicates=30)


# --- the bootstrap against a slow exact reference ---------------------------------------


def test_bootstrap_intervals_equal_a_slow_exact_reference(tiny: Round) -> None:
    from reportgen.kinds.multidomain.results._participants import score_tables
    from reportgen.kinds.multidomain.score import round_points
    from reportgen.kinds.multidomain.stats.scores import domain_slices
    from tests.support.multidomain_synthetic import reg_sized_round

    small = reg_sized_round(tiny, models=3, domains=2, per_domain=20, seed=3)
    points = round_points(small)
    weights = bs.draw_weights(points.items, small.manifest.bootstrap_seed, 60)
    tables = score_tables(small, points, weights)
    domains = list(domain_slices(points, small.manifest).values())

    def slow(model: int, r: int, indices: list[int]) -> Fraction:
        num = sum((weights[r, i] * points.item_points[model][i] for i in indices), Fraction(0))
        return 100 * num / sum(int(weights[r, i]) * points.items[i].weight for i in indices)

    for model in range(3):
        primaries = [
            sum((slow(model, r, d) for d in domains), Fraction(0)) / len(domains) for r in range(60)
        ]
        interval = tables.primary_intervals[model]
        assert interval.lo == bs.linear_percentile(primaries, bs.LOWER_Q)
        assert interval.hi == bs.linear_percentile(primaries, bs.UPPER_Q)
        everything = list(range(len(points.items)))
        global_ = next(s for s in tables.slice_scores[model] if s.slice == "global")
        assert global_.lo is not None
        assert global_.lo.fraction == bs.linear_percentile(
            [slow(model, r, everything) for r in range(60)], bs.LOWER_Q
        )
    assert interval.lo != interval.hi  # strata of 3+ items: the replicates vary


def test_a_larger_round_ranks_by_primary_and_marks_ties_consistently(tiny: Round) -> None:
    from tests.support.multidomain_synthetic import reg_sized_round

    round_ = reg_sized_round(tiny, models=6, domains=3, per_domain=20, seed=8)
    results = build_results(round_, replicates=200)
    primaries = [p.primary.score.fraction for p in results.participants if p.primary.score]
    assert primaries == sorted(primaries, reverse=True)
    assert [p.rank for p in results.participants] == sorted(p.rank for p in results.participants)
    assert results.pairwise.bt_estimable
    bounds = [(p.bt_lo, p.bt_hi) for p in results.participants]
    assert all(lo is not None and hi is not None and lo <= hi for lo, hi in bounds)
    grouped = {m for group in results.tie_groups for m in group}
    assert all(
        pair.technical_tie <= (pair.a in grouped and pair.b in grouped) for pair in results.adjacent
    )
    assert results.jury.adjudicated > 0
    assert sum(s.audited_responses for s in results.audit.strata) == results.audit.audited_responses
