"""Agreement with its denominators (issue 9, point 12) and the per-judgment export (13).

κ is checked against statsmodels; α and the bootstrap intervals against slow references
written here from their definitions.
"""

from __future__ import annotations

import csv
import io
import json
import math
import warnings
from collections.abc import Hashable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine
from statsmodels.stats.inter_rater import cohens_kappa as statsmodels_kappa

from reportgen.cli import main as cli
from reportgen.errors import InputError, OutputExistsError
from reportgen.kinds.estigmas.review import REVIEW_TASK
from review_app.rounds import admin
from review_app.rounds.admin import JudgedSample
from review_app.rounds.agreement import agreement
from review_app.rounds.calibration import (
    alpha_interval,
    cohens_kappa,
    kappa_interval,
    krippendorff_alpha_nominal,
)
from review_app.rounds.export import audit_results
from review_app.rounds.judgment_export import judgment_rows, render_judgments, write_judgments
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import make_round, memory_review_round
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login, new_database, release_all

LABELS = ("yes", "no", "cant_tell")


def _kappa_by_statsmodels(first: Sequence[str], second: Sequence[str]) -> float:
    categories = sorted(set(first) | set(second))
    table = np.zeros((len(categories), len(categories)))
    for a, b in zip(first, second, strict=True):
        table[categories.index(a), categories.index(b)] += 1
    with warnings.catch_warnings():  # statsmodels divides 0 by 0 where κ is undefined
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(statsmodels_kappa(table, return_results=False))


def _slow_alpha(units: Sequence[Sequence[Hashable]]) -> float:
    """Krippendorff's α = 1 - D_o / D_e, by counting pairs one by one."""
    pairable = [u for u in units if len(u) >= 2]
    values = [v for u in pairable for v in u]
    n = len(values)
    if n < 2:
        return math.nan
    observed = (
        sum(
            sum(1 for i, a in enumerate(u) for j, b in enumerate(u) if i != j and a != b)
            / (len(u) - 1)
            for u in pairable
        )
        / n
    )
    expected = sum(
        1 for i, a in enumerate(values) for j, b in enumerate(values) if i != j and a != b
    ) / (n * (n - 1))
    return math.nan if expected == 0 else 1 - observed / expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LABELS), st.sampled_from(LABELS)), min_size=2))
def test_kappa_matches_statsmodels(pairs: list[tuple[str, str]]) -> None:
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    ours = cohens_kappa(first, second)
    theirs = _kappa_by_statsmodels(first, second)
    if math.isnan(ours):
        assert math.isnan(theirs) or len(set(first) | set(second)) == 1
    else:
        assert ours == pytest.approx(theirs, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(LABELS), min_size=1, max_size=4), min_size=1))
def test_alpha_matches_a_slow_reference(units: list[list[str]]) -> None:
    ours, slow = krippendorff_alpha_nominal(units), _slow_alpha(units)
    assert (math.isnan(ours) and math.isnan(slow)) or ours == pytest.approx(slow, abs=1e-9)


def _draws(units: int, replicates: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, units, size=(replicates, units))


def _quantiles(values: list[float]) -> tuple[float, float]:
    defined = np.array([v for v in values if not math.isnan(v)])
    low, high = np.quantile(defined, [0.025, 0.975])
    return float(low), float(high)


def test_bootstrap_intervals_match_a_slow_loop_and_repeat_with_the_seed() -> None:
    rng = np.random.default_rng(0)
    first = list(rng.choice(LABELS, 40))
    second = [a if rng.random() < 0.7 else str(rng.choice(LABELS)) for a in first]
    draws = _draws(40, 300, seed=11)
    slow = _quantiles([cohens_kappa([first[i] for i in d], [second[i] for i in d]) for d in draws])
    fast = kappa_interval(first, second, replicates=300, seed=11)
    assert fast == pytest.approx(slow, abs=1e-9)
    assert fast == kappa_interval(first, second, replicates=300, seed=11)
    assert fast != kappa_interval(first, second, replicates=300, seed=12)
    low, high = fast
    assert low <= cohens_kappa(first, second) <= high
    units = [[a, b] for a, b in zip(first, second, strict=True)] + [["yes"]]
    draws = _draws(40, 300, seed=5)  # the unit of one value is not pairable: left out
    slow = _quantiles([krippendorff_alpha_nominal([units[i] for i in d]) for d in draws])
    assert alpha_interval(units, replicates=300, seed=5) == pytest.approx(slow, abs=1e-9)


def _sample(
    number: int, automatic: str, adjudicated: str | None = None, **votes: str
) -> JudgedSample:
    return JudgedSample(
        sample_id=number,
        code=f"S{number}",
        batch_id=1,
        round_id="r",
        model_id="m",
        item_id=f"i{number}",
        stratum=(),
        automatic=automatic,
        choices=dict(votes),
        notes={},
        adjudicated=adjudicated,
        task=REVIEW_TASK,
        submitted={name: datetime(2026, 7, 1 + number % 2, 12, tzinfo=UTC) for name in votes},
    )


def test_denominators_state_what_each_coefficient_stands_on() -> None:
    judged = [
        _sample(1, "yes", ana="yes", bruno="yes"),
        _sample(2, "no", ana="no", bruno="yes"),  # a split: no consensus
        _sample(3, "cant_tell", ana="refusal", bruno="no"),  # a split
        _sample(4, "no", "no", ana="yes", bruno="no"),  # a split, adjudicated
        _sample(5, "yes", ana="no", carla="no"),
        _sample(6, "no", carla="no"),  # one judgment: not pairable
    ]
    detail = agreement(judged, REVIEW_TASK, replicates=200, seed=3)
    assert detail.samples_judged == 6
    assert detail.consensus_vs_automatic.n == 4
    assert detail.splits_left_out == 2
    assert detail.consensus_adjudicated == 1
    consensus = [("yes", "yes"), ("no", "no"), ("no", "yes"), ("no", "no")]
    assert detail.consensus_vs_automatic.value == pytest.approx(
        _kappa_by_statsmodels([a for a, _ in consensus], [b for _, b in consensus]), abs=1e-6
    )
    assert detail.judgments_vs_automatic.n == 11
    assert detail.alpha_reviewers.n == 5
    pairs = {(p.first, p.second): p.n for p in detail.kappa_pairwise}
    assert pairs == {("ana", "bruno"): 4, ("ana", "carla"): 1}
    assert detail.kappa_by_reviewer["carla"].n == 2
    assert detail.bootstrap.replicates == 200
    assert detail.bootstrap.seed == 3
    days = {(p.reviewer, p.day.day): (p.agreement, p.n) for p in detail.over_time}
    assert days[("carla", 2)] == (0.0, 1)  # sample 5 (odd): day 2, "no" against "yes"
    assert days[("carla", 1)] == (1.0, 1)


@pytest.fixture(params=KINDS)
def judged_round(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A round of a batch with overlap 2, where Ana and Bruno split on every other sample."""
    engine = fresh_database(str(request.param), tmp_path)
    tokens = {name: add_and_login(engine, name) for name in ("ana", "bruno")}
    tokens["admin"] = add_and_login(engine, "admin", "admin")
    round_ = memory_review_round(tmp_path / "r-demo")
    create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=2, seed=5)
    release_all(engine)
    for number, entry in enumerate(reviewing.my_queue(engine, tokens["ana"])):
        reviewing.submit_judgment(engine, tokens["ana"], entry.code, "yes", "=1+1, quoted")
        other = "yes" if number % 2 else "no"
        reviewing.submit_judgment(engine, tokens["bruno"], entry.code, other)
    first = admin.judged_samples(engine, tokens["admin"])[0]
    admin.adjudicate(engine, tokens["admin"], first.sample_id, "no", "decided")
    yield engine
    engine.dispose()


def test_export_carries_the_denominators(judged_round: Engine) -> None:
    export = audit_results(judged_round, "r-demo", replicates=100, seed=9)
    detail = export.agreement
    assert detail is not None
    judged = export.samples_judged
    splits = sum(1 for n in range(judged) if n % 2 == 0) - 1  # the first one adjudicated
    assert detail.splits_left_out == splits
    assert detail.consensus_vs_automatic.n == judged - splits
    assert detail.consensus_vs_automatic.value == export.kappa_majority_vs_parser
    assert detail.judgments_vs_automatic.n == export.judgments == 2 * judged
    assert set(detail.kappa_by_reviewer) == {"R1", "R2"}
    assert [(p.first, p.second, p.n) for p in detail.kappa_pairwise] == [("R1", "R2", judged)]
    assert detail.bootstrap.seed == 9
    assert {p.reviewer for p in detail.over_time} == {"R1", "R2"}


def test_judgment_export_csv_and_jsonl(judged_round: Engine, tmp_path: Path) -> None:
    rows = judgment_rows(judged_round, "r-demo")
    assert len(rows) == 2 * len({row["sample_code"] for row in rows})
    assert {row["reviewer"] for row in rows} == {"R1", "R2"}
    assert all("ana" not in json.dumps(row) for row in rows)
    decided = [row for row in rows if row["adjudication"] is not None]
    assert {row["adjudication"] for row in decided} == {"no"}
    assert {row["adjudication_note"] for row in decided} == {"decided"}
    target = tmp_path / "out" / "judgments.jsonl"
    write_judgments(rows, target)
    lines = target.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == rows
    assert target.stat().st_mode & 0o777 == 0o600
    with pytest.raises(OutputExistsError):
        write_judgments(rows, target)
    table = list(csv.DictReader(io.StringIO(render_judgments(rows, "csv"))))
    assert len(table) == len(rows)
    assert table[0]["note"] in ("'=1+1, quoted", "")  # neutralised: review_app.core.spreadsheet
    assert set(table[0]) >= {"reviewer", "submitted_at", "sample_code", "choice", "note"}
    with pytest.raises(InputError, match=r"must end in \.csv"):
        write_judgments(rows, tmp_path / "judgments.txt")


def test_cli_exports_judgments(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    token = add_and_login(engine, "ana")
    runner = CliRunner()
    drawn = runner.invoke(
        cli, ["review", "sample", str(round_dir), "--seed", "2", "--overlap", "1", "--db", url]
    )
    assert drawn.exit_code == 0, drawn.output
    released = runner.invoke(cli, ["review", "release-batch", "1", "--yes", "--db", url])
    assert released.exit_code == 0, released.output
    code = reviewing.my_queue(engine, token)[0].code
    reviewing.submit_judgment(engine, token, code, "no", "a note")
    target = tmp_path / "judgments.csv"
    result = runner.invoke(
        cli, ["review", "export-judgments", str(round_dir), "--output", str(target), "--db", url]
    )
    assert result.exit_code == 0, result.output
    assert "1 judgment of round" in result.output
    (row,) = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert (row["sample_code"], row["reviewer"], row["choice"], row["note"]) == (
        code,
        "R1",
        "no",
        "a note",
    )
