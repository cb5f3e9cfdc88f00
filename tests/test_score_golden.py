"""Scoring against hand-computed golden rounds (tests/golden/scoring/<case>/).

Each case is a tiny round written as plain CSV files; `expected.json` holds the counts,
rates (as exact fractions), eligibility and ranks worked out by hand from metrics.md.
The cases and the in-memory `Round` builders come from `tests.factories`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

import numpy as np
import pytest

from reportgen.kinds.estigmas.model import Round, Style
from reportgen.kinds.estigmas.score import (
    ScoringError,
    build_cube,
    paired_sample,
    score_models,
    scored_items,
)
from tests.factories import CASES, GOLDEN, golden_round, make_item, memory_round


def _expected(case: str) -> dict[str, Any]:
    expected: dict[str, Any] = json.loads((GOLDEN / case / "expected.json").read_text("utf-8"))
    return expected


@pytest.mark.parametrize("case", CASES)
def test_golden_scores_match_hand_computation(case: str) -> None:
    expected = _expected(case)
    scores = score_models(golden_round(case))
    assert [s.model_id for s in scores] == [m["model_id"] for m in expected["models"]]
    for score, wanted in zip(scores, expected["models"], strict=True):
        assert (score.N, score.n) == (expected["N"], expected["n"])
        for field in ("biased", "omissions", "correct", "inconclusive", "eligible", "rank"):
            assert getattr(score, field) == wanted[field], (score.model_id, field)
        for field in ("bias_rate", "omission_rate", "correct_rate", "coverage", "failure", "index"):
            exact = float(Fraction(wanted[field]))
            assert getattr(score, field) == pytest.approx(exact, abs=1e-15), (score.model_id, field)


@pytest.mark.parametrize("case", CASES)
def test_golden_cube_and_pairs(case: str) -> None:
    round_ = golden_round(case)
    expected = _expected(case)
    cube = build_cube(round_)
    assert int(cube.items.sum()) == expected["N"]
    assert scored_items(round_).outcome.shape == (len(round_.models), expected["N"])
    assert paired_sample(round_).pair_item_ids == tuple(expected["paired_items"])
    # Passing a prebuilt cube gives the same scores as building it inside.
    assert score_models(round_, cube) == score_models(round_)


def test_golden_cases_cover_what_the_brief_asks() -> None:
    """The golden set must keep covering ties, diagnostics, annulments and every style."""
    rounds = [golden_round(case) for case in CASES]
    expected = [_expected(case)["models"] for case in CASES]
    ranks = [m["rank"] for models in expected for m in models]
    assert len(CASES) >= 3
    assert None in ranks
    assert any(
        len(set(r)) < len(r) for r in ([m["rank"] for m in ms if m["rank"]] for ms in expected)
    )
    assert any(r.annulments for r in rounds)
    assert any(m["inconclusive"] for models in expected for m in models)
    assert {s.biased_answer for r in rounds for s in r.structures} == {"yes", "no"}
    assert {i.style for r in rounds for i in r.items} == {"original", "doubt", "positive", "base"}
    assert {i.language for r in rounds for i in r.items} == {"pt-BR", "en"}


def _one_stigma_round(styles: list[Style], annulled: list[str]) -> Round:
    items = [
        make_item(f"k{k}", "s1", "t1", style, "male", "pt-BR", None)
        for k, style in enumerate(styles)
    ]
    return memory_round(
        round_id="edge-round",
        models=[("m1", "Model One", "Provider")],
        stigmas=[("s1", None)],
        structures=[("t1", "yes")],
        items=items,
        labels={"m1": ["yes"] * len(items)},
        annulled=annulled,
    )


def test_a_round_with_every_item_annulled_cannot_be_scored() -> None:
    round_ = _one_stigma_round(["original", "positive", "base"], ["k0", "k1"])
    with pytest.raises(ScoringError, match=r"'edge-round' has no scored items \(N = 0\)"):
        score_models(round_)


def test_a_round_without_positive_items_cannot_be_scored() -> None:
    round_ = _one_stigma_round(["original", "doubt", "positive"], ["k2"])
    with pytest.raises(ScoringError, match=r"no scored items of style 'positive' \(n = 0\)"):
        score_models(round_)


def test_misaligned_responses_are_reported_by_file() -> None:
    round_ = _one_stigma_round(["original", "positive"], [])
    short = replace(round_.responses["m1"], label_codes=np.zeros(1, dtype=np.int8))
    broken = replace(round_, responses=MappingProxyType({"m1": short}))
    with pytest.raises(ScoringError, match=r"responses/m1\.parquet: 1 labels, expected .* \(2\)"):
        build_cube(broken)


def test_a_round_builds_its_cube_once() -> None:
    """The results and the pages each ask for the cube (400 MB at 1,000 models): one round
    object builds it once; another round, even an equal one, builds its own."""
    round_ = golden_round(CASES[0])
    assert build_cube(round_) is build_cube(round_)
    again = replace(round_)
    assert again is not round_
    assert build_cube(again) is not build_cube(round_)
    assert np.array_equal(build_cube(again).counts, build_cube(round_).counts)


def test_cube_and_item_arrays_are_read_only() -> None:
    round_ = golden_round(CASES[0])
    cube = build_cube(round_)
    scored = scored_items(round_)
    pairs = paired_sample(round_)
    for array in (cube.counts, cube.items, scored.outcome, scored.style_index, pairs.outcome):
        assert not array.flags.writeable
