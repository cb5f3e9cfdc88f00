"""People's check of the extracted decisions (issue 21, point 3): extraction_checks.parquet
and `preregistration.extraction_check`. The agreement per checked variable (binary, or a
count whose extractor is a model: exact match) comes with its n and a Wilson interval
(statsmodels); an extractor below the threshold removes its variable from the findings;
a count made by code is not checked; `reportgen verify` refuses a bad check with the
file, row and field; the plan round-trips through round.json."""

from __future__ import annotations

import dataclasses
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from statsmodels.stats.proportion import proportion_confint

from reportgen.kinds.counterfactual.model import (
    ExtractionCheckPlan,
    ExtractionCheckRow,
    Round,
)
from reportgen.kinds.counterfactual.results import build_results
from reportgen.kinds.rounds import read_round, verify_round
from tests.factories.counterfactual import (
    assert_refused,
    model_counted,
    small_round,
    with_plan,
    write,
)

FILE = "extraction_checks.parquet"


def _checks(round_: Round, wrong: int = 0, **changes: Any) -> tuple[ExtractionCheckRow, ...]:
    """A check of every reembolso extraction of the round; the first `wrong` disagree."""
    rows = [e for rows in round_.extractions.values() for e in rows if e.variable_id == "reembolso"]
    flip = {"yes": "no", "no": "yes", "na": "yes"}
    return tuple(
        ExtractionCheckRow(
            variable_id="reembolso",
            model_id=e.model_id,
            item_id=e.item_id,
            run=e.run,
            extracted_value=e.value,
            human_value=flip[e.value] if index < wrong else e.value,
            reviewer="R1",
            checked_on=date(2026, 3, 7),
        )
        for index, e in enumerate(rows)
    )


def _checked(wrong: int, threshold: Fraction = Fraction(9, 10)) -> Round:
    plain = small_round()
    planned = with_plan(plain, extraction_check=ExtractionCheckPlan(4, threshold))
    return dataclasses.replace(planned, extraction_checks=_checks(plain, wrong))


def test_agreement_with_n_and_a_wilson_interval() -> None:
    round_ = _checked(wrong=1)
    [entry] = build_results(round_, replicates=10).extraction_checks
    n = len(round_.extraction_checks)
    assert (entry.variable_id, entry.n, entry.agreeing) == ("reembolso", n, n - 1)
    assert entry.agreement is not None
    assert entry.agreement.fraction == Fraction(n - 1, n)
    lo, hi = proportion_confint(n - 1, n, alpha=0.05, method="wilson")
    assert (entry.interval_lo, entry.interval_hi) == pytest.approx((lo, hi))
    assert entry.passes is (Fraction(n - 1, n) >= Fraction(9, 10))


def test_an_extractor_below_the_threshold_leaves_the_findings() -> None:
    good = build_results(_checked(wrong=0), replicates=10)
    bad_round = _checked(wrong=len(_checks(small_round())) // 2)
    bad = build_results(bad_round, replicates=10)
    assert [c.passes for c in good.extraction_checks] == [True]
    assert [c.passes for c in bad.extraction_checks] == [False]
    for system_good, system_bad in zip(good.systems, bad.systems, strict=True):
        for row_good, row_bad in zip(system_good.rows, system_bad.rows, strict=True):
            if row_bad.variable_id == "reembolso":
                assert row_bad.finding == "extractor_below_agreement"
                assert row_good.finding != "extractor_below_agreement"
                assert all(p.p_adjusted is None for p in row_bad.pairs)  # out of the family
            else:
                assert row_bad.finding == row_good.finding
    # Without a declared check, nothing is reported nor removed.
    assert build_results(small_round(), replicates=10).extraction_checks == ()


def test_the_plan_and_the_checks_round_trip_through_the_archive(tmp_path: Path) -> None:
    round_dir = write(_checked(wrong=1), tmp_path)
    assert verify_round(round_dir) == []
    read = read_round(round_dir)
    assert isinstance(read, Round)
    assert read.manifest.preregistration.extraction_check == ExtractionCheckPlan(4, Fraction(9, 10))
    assert len(read.extraction_checks) == len(_checks(small_round()))


@pytest.mark.parametrize(
    ("changes", "where", "fragment"),
    [
        ({"human_value": "talvez"}, "row 1, human_value", "expected yes / no / na or a whole"),
        ({"human_value": "2"}, "row 1, human_value", "expected yes / no / na for the binary"),
        ({"item_id": "nowhere"}, "row 1", "unknown reference: no reembolso extraction"),
        ({"variable_id": "tom"}, "row 1, variable_id", "expected a binary variable"),
        # opcoes is a count made by code: not checked.
        ({"variable_id": "opcoes"}, "row 1, variable_id", "or a count variable whose extractor"),
        ({"extracted_value": "maybe"}, "row 1, extracted_value", "expected the frozen"),
    ],
)
def test_verify_refuses_a_bad_check(
    tmp_path: Path, changes: dict[str, Any], where: str, fragment: str
) -> None:
    round_ = _checked(wrong=0)
    rows = list(round_.extraction_checks)
    rows[0] = dataclasses.replace(rows[0], **changes)
    round_dir = write(dataclasses.replace(round_, extraction_checks=tuple(rows)), tmp_path)
    assert_refused(round_dir, FILE, where, fragment)


def test_verify_refuses_too_few_checks_and_checks_without_a_plan(tmp_path: Path) -> None:
    round_ = _checked(wrong=0)
    (tmp_path / "few").mkdir()
    (tmp_path / "unplanned").mkdir()
    few = dataclasses.replace(round_, extraction_checks=round_.extraction_checks[:3])
    assert_refused(write(few, tmp_path / "few"), FILE, "variable reembolso", "fewer checked")
    unplanned = with_plan(round_, extraction_check=None)
    assert_refused(write(unplanned, tmp_path / "unplanned"), FILE, "", "present without")


# --- count variables whose extractor is a model ---------------------------------------


def _model_counted() -> Round:
    return model_counted(small_round())


def _count_checks(round_: Round, wrong: int = 0) -> tuple[ExtractionCheckRow, ...]:
    """A check of every opcoes extraction; the first `wrong` counted one more."""
    rows = [e for rows in round_.extractions.values() for e in rows if e.variable_id == "opcoes"]
    return tuple(
        ExtractionCheckRow(
            variable_id="opcoes",
            model_id=e.model_id,
            item_id=e.item_id,
            run=e.run,
            extracted_value=e.value,
            human_value=str(int(e.value) + 1) if index < wrong else e.value,
            reviewer="R2",
            checked_on=date(2026, 3, 8),
        )
        for index, e in enumerate(rows)
    )


def _count_checked(wrong: int, threshold: Fraction = Fraction(9, 10)) -> Round:
    counted = _model_counted()
    planned = with_plan(counted, extraction_check=ExtractionCheckPlan(4, threshold))
    checks = (*_checks(counted), *_count_checks(counted, wrong))
    return dataclasses.replace(planned, extraction_checks=checks)


def test_a_model_count_is_checked_by_exact_match_and_leaves_the_findings_below() -> None:
    good = build_results(_count_checked(wrong=0), replicates=10)
    wrong = len(_count_checks(_model_counted())) // 2
    bad_round = _count_checked(wrong=wrong)
    bad = build_results(bad_round, replicates=10)
    assert [c.variable_id for c in bad.extraction_checks] == ["reembolso", "opcoes"]
    entry = bad.extraction_checks[1]
    n = len(_count_checks(_model_counted()))
    assert (entry.n, entry.agreeing) == (n, n - wrong)  # one more is a disagreement
    lo, hi = proportion_confint(n - wrong, n, alpha=0.05, method="wilson")
    assert (entry.interval_lo, entry.interval_hi) == pytest.approx((lo, hi))
    assert [c.passes for c in good.extraction_checks] == [True, True]
    assert [c.passes for c in bad.extraction_checks] == [True, False]
    for system_good, system_bad in zip(good.systems, bad.systems, strict=True):
        for row_good, row_bad in zip(system_good.rows, system_bad.rows, strict=True):
            if row_bad.variable_id == "opcoes":
                assert row_bad.finding == "extractor_below_agreement"
                assert row_good.finding != "extractor_below_agreement"
            else:
                assert row_bad.finding == row_good.finding
    # A count made by code (the plain small round's opcoes) is not checked.
    plain = _checked(wrong=0)
    assert [c.variable_id for c in build_results(plain, replicates=10).extraction_checks] == [
        "reembolso"
    ]


def test_a_model_count_check_round_trips_and_verifies(tmp_path: Path) -> None:
    round_dir = write(_count_checked(wrong=1), tmp_path)
    assert verify_round(round_dir) == []
    read = read_round(round_dir)
    assert isinstance(read, Round)
    counts = [r.human_value for r in read.extraction_checks if r.variable_id == "opcoes"]
    assert counts == [r.human_value for r in _count_checks(_model_counted(), wrong=1)]


@pytest.mark.parametrize(
    ("human_value", "where", "fragment"),
    [
        ("03", "row {row}, human_value", "expected yes / no / na or a whole number >= 0, got '03'"),
        ("-1", "row {row}, human_value", "got '-1'"),
        ("yes", "row {row}, human_value", "expected a whole number >= 0 or na for the count"),
    ],
)
def test_verify_refuses_a_count_that_is_not_a_whole_number(
    tmp_path: Path, human_value: str, where: str, fragment: str
) -> None:
    round_ = _count_checked(wrong=0)
    rows = list(round_.extraction_checks)
    index = next(i for i, r in enumerate(rows) if r.variable_id == "opcoes")
    rows[index] = dataclasses.replace(rows[index], human_value=human_value)
    round_dir = write(dataclasses.replace(round_, extraction_checks=tuple(rows)), tmp_path)
    assert_refused(round_dir, FILE, where.format(row=index + 1), fragment)


def test_verify_refuses_a_model_count_without_checks(tmp_path: Path) -> None:
    """The declared check covers every model-extracted count: binary rows alone are refused."""
    round_ = _count_checked(wrong=0)
    binary_only = tuple(r for r in round_.extraction_checks if r.variable_id != "opcoes")
    round_dir = write(dataclasses.replace(round_, extraction_checks=binary_only), tmp_path)
    assert_refused(round_dir, FILE, "variable opcoes", "no checks of this count variable (model")
