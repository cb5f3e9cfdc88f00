"""Agreement statistics of the review app, against hand-computed and published values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import cohens_kappa as statsmodels_kappa

from reportgen.kinds.estigmas.review import REVIEW_TASK
from review_app.rounds.calibration import (
    cohens_kappa,
    confusion_matrix,
    krippendorff_alpha_nominal,
    majority,
)


def test_kappa_hand_example() -> None:
    # 10 units; 7 agreements; marginals A: yes 5 / no 5, B: yes 6 / no 4.
    first = ["yes"] * 5 + ["no"] * 5
    second = ["yes", "yes", "yes", "yes", "no", "yes", "yes", "no", "no", "no"]
    # p_o = 0.7, p_e = 0.5*0.6 + 0.5*0.4 = 0.5, kappa = 0.2 / 0.5 = 0.4
    assert cohens_kappa(first, second) == pytest.approx(0.4)


@given(st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from("abc")), min_size=2, max_size=60))
def test_kappa_matches_statsmodels(pairs: list[tuple[str, str]]) -> None:
    first = [a for a, _ in pairs]
    second = [b for _, b in pairs]
    table = confusion_matrix(first, second, "abc", "abc")
    ours = cohens_kappa(first, second)
    expected_agreement = (table.sum(axis=1) @ table.sum(axis=0)) / len(pairs) ** 2
    if math.isclose(expected_agreement, 1.0):
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(statsmodels_kappa(table, return_results=False))


def test_kappa_perfect_and_empty() -> None:
    assert cohens_kappa(["a", "b", "a"], ["a", "b", "a"]) == pytest.approx(1.0)
    assert math.isnan(cohens_kappa([], []))
    with pytest.raises(ValueError, match="same units"):
        cohens_kappa(["a"], [])


def test_alpha_krippendorff_reliability_example() -> None:
    # Krippendorff's worked example (4 coders, 12 units, missing values):
    # published nominal alpha 0.743.
    coders = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = [[c[u] for c in coders if c[u] is not None] for u in range(12)]
    assert krippendorff_alpha_nominal(units) == pytest.approx(0.743, abs=5e-4)


def test_alpha_hand_example_two_coders() -> None:
    # Two coders, 4 units: (a,a) (a,b) (b,b) (b,b). n=8, n_a=3, n_b=5, D_o pairs=2.
    # alpha = 1 - (n-1) * 2 / (n^2 - 9 - 25) = 1 - 14 / 30
    units = [["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"]]
    assert krippendorff_alpha_nominal(units) == pytest.approx(1 - 14 / 30)


@given(st.lists(st.lists(st.sampled_from("xyz"), min_size=0, max_size=4), max_size=30))
def test_alpha_properties(units: list[list[str]]) -> None:
    alpha = krippendorff_alpha_nominal(units)
    relabelled = [[{"x": "y", "y": "z", "z": "x"}[v] for v in unit] for unit in units]
    other = krippendorff_alpha_nominal(relabelled)
    assert (math.isnan(alpha) and math.isnan(other)) or alpha == pytest.approx(other)
    if not math.isnan(alpha):
        assert alpha <= 1.0 + 1e-9


def test_alpha_perfect_agreement_and_undefined() -> None:
    assert krippendorff_alpha_nominal([["a", "a"], ["b", "b", "b"]]) == pytest.approx(1.0)
    assert math.isnan(krippendorff_alpha_nominal([["a"], []]))
    assert math.isnan(krippendorff_alpha_nominal([["a", "a"], ["a", "a"]]))


def test_confusion_matrix_and_majority() -> None:
    matrix = confusion_matrix(["a", "a", "b"], ["x", "y", "y"], ["a", "b"], ["x", "y"])
    assert np.array_equal(matrix, np.array([[1, 1], [0, 1]]))
    assert majority(["a", "a", "b"]) == "a"
    assert majority(["a", "b"]) is None
    assert majority([]) is None


def test_scoring_space() -> None:
    assert [
        REVIEW_TASK.compare(v) for v in ("yes", "no", "inconclusive", "refusal", "unclassifiable")
    ] == [
        "yes",
        "no",
        "cant_tell",
        "cant_tell",
        "cant_tell",
    ]
