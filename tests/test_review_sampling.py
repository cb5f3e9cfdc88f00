"""Stratified sampling and assignment: minimum per stratum, overlap, reproducibility."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from review_app.core.db import assignments, audit_log, samples
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import sample_keys
from review_app.rounds.sampling import assign, create_batch, draw_sample
from tests.factories import memory_review_round, review_model_names
from tests.review.helpers import add_and_login, new_database


def test_every_stratum_gets_its_share(tmp_path: Path) -> None:
    round_ = memory_review_round(tmp_path / "r", items_per_cell=10)
    drawn = draw_sample(round_, fraction=0.25, min_per_stratum=3, seed=7)
    strata = Counter(
        (d.model_id, round_.items[d.item_index].style, round_.items[d.item_index].language)
        for d in drawn
    )
    # 3 models x 4 styles x 2 languages, 10 items each: ceil(2.5) = 3 per stratum.
    assert len(strata) == 24
    assert set(strata.values()) == {3}
    assert len(set(drawn)) == len(drawn)


@settings(max_examples=25, deadline=None)
@given(
    fraction=st.floats(min_value=0.01, max_value=1.0),
    minimum=st.integers(min_value=0, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_stratum_sizes_and_reproducibility(fraction: float, minimum: int, seed: int) -> None:
    round_ = _ROUND
    drawn = draw_sample(round_, fraction=fraction, min_per_stratum=minimum, seed=seed)
    strata = Counter((d.model_id, round_.items[d.item_index].style) for d in drawn)
    wanted = min(5, max(minimum, math.ceil(fraction * 5)))
    assert all(count == 2 * wanted for count in strata.values())  # two languages per style
    assert drawn == draw_sample(round_, fraction=fraction, min_per_stratum=minimum, seed=seed)


_ROUND = memory_review_round(Path("r-demo"), items_per_cell=5, write_items=False)


def test_different_seeds_give_different_orders() -> None:
    first = draw_sample(_ROUND, fraction=0.5, min_per_stratum=1, seed=1)
    second = draw_sample(_ROUND, fraction=0.5, min_per_stratum=1, seed=2)
    assert first != second


@given(
    count=st.integers(min_value=0, max_value=60),
    reviewers=st.integers(min_value=1, max_value=8),
    overlap=st.integers(min_value=1, max_value=8),
)
def test_assignment_is_distinct_and_balanced(count: int, reviewers: int, overlap: int) -> None:
    ids = list(range(100, 100 + reviewers))
    if overlap > reviewers:
        with pytest.raises(ReviewInputError):
            assign(count, ids, overlap)
        return
    result = assign(count, ids, overlap)
    assert all(len(set(r)) == overlap for r in result)
    load = Counter(r for reviewers_of in result for r in reviewers_of)
    assert not load or max(load.values()) - min(load.get(i, 0) for i in ids) <= 1


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ReviewInputError, match="fraction"):
        draw_sample(_ROUND, fraction=0, min_per_stratum=1, seed=1)
    with pytest.raises(ReviewInputError, match="negative"):
        draw_sample(_ROUND, fraction=0.1, min_per_stratum=-1, seed=1)


def test_create_batch_stores_anonymised_samples(tmp_path: Path) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    for name in ("ana", "bruno", "carla"):
        add_and_login(engine, name)
    round_ = memory_review_round(tmp_path / "r-demo")
    create_batch(engine, round_, fraction=0.5, min_per_stratum=1, overlap=2, seed=3)
    with engine.connect() as connection:
        rows = connection.execute(select(samples.c.prompt_text, samples.c.output_text)).all()
        n_keys = connection.execute(select(func.count()).select_from(sample_keys)).scalar()
        n_assignments = connection.execute(select(func.count()).select_from(assignments)).scalar()
        logged = connection.execute(select(audit_log.c.action)).scalars().all()
    assert len(rows) == n_keys == len(draw_sample(round_, fraction=0.5, min_per_stratum=1, seed=3))
    assert n_assignments == 2 * len(rows)
    assert "create_batch" in logged
    visible = " ".join(p + " " + o for p, o in rows).lower()
    for name in review_model_names():
        assert name.lower() not in visible


def test_too_few_reviewers_changes_nothing(tmp_path: Path) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    add_and_login(engine, "ana")
    with pytest.raises(ReviewInputError, match="2 distinct reviewers"):
        create_batch(engine, _ROUND, fraction=0.5, min_per_stratum=1, overlap=2, seed=3)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(samples)).scalar() == 0
