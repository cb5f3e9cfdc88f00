"""A stale tab cannot overwrite a judgment: a save names the version of the judgment its
page showed, and is refused (nothing written) once another tab or window has changed it.

The three writers (choice, rubric scores, counterfactual scale), a first save from two
tabs, an undo in between; SQLite and, with REVIEW_TEST_POSTGRES_URL, PostgreSQL. The app
itself, with two tabs, is in test_review_stale_tab_app.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.counterfactual.review.sampling import create_scale_batch
from reportgen.kinds.counterfactual.review.scale import submit_scale
from reportgen.kinds.multidomain.model import Round
from review_app.core.db import judgment_changes, judgments
from review_app.core.errors import ReviewInputError
from review_app.i18n import LANGUAGES
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from review_app.tasks.rubric import submit_scores
from tests.factories import memory_review_round
from tests.review.cf import DEMO
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login, released
from tests.review.rubric import rubric_batch, tiny_round


@pytest.fixture(params=KINDS)
def choice_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Engine, str]]:
    engine = fresh_database(str(request.param), tmp_path)
    token = add_and_login(engine, "ana")
    round_ = memory_review_round(tmp_path / "r-demo")
    released(
        engine, create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=1, seed=4)
    )
    yield engine, token
    engine.dispose()


def _writes(engine: Engine) -> tuple[int, int]:
    with engine.connect() as connection:
        return (
            connection.execute(select(func.count()).select_from(judgments)).scalar_one(),
            connection.execute(select(func.count()).select_from(judgment_changes)).scalar_one(),
        )


def _first_code(engine: Engine, token: str) -> str:
    return reviewing.my_queue(engine, token)[0].code


def test_a_save_from_a_stale_tab_is_refused_and_writes_nothing(
    choice_db: tuple[Engine, str],
) -> None:
    engine, token = choice_db
    code = _first_code(engine, token)
    first_tab = reviewing.load_sample(engine, token, code).version
    second_tab = reviewing.load_sample(engine, token, code).version
    assert first_tab == second_tab == ""  # nothing judged yet
    assert reviewing.submit_judgment(engine, token, code, "refusal", seen=second_tab)
    before = _writes(engine)
    # The first tab still shows the sample unjudged: its first save is refused too.
    with pytest.raises(ReviewInputError) as refused:
        reviewing.submit_judgment(engine, token, code, "yes", seen=first_tab)
    assert refused.value.key == "error_judgment_changed"
    assert "another tab or window" in str(refused.value)
    assert _writes(engine) == before
    assert reviewing.load_sample(engine, token, code).choice == "refusal"
    # Reloaded, the first tab sees the judgment and may change it knowingly.
    reloaded = reviewing.load_sample(engine, token, code).version
    assert reloaded != ""
    assert reviewing.submit_judgment(engine, token, code, "yes", seen=reloaded)
    with pytest.raises(ReviewInputError, match="another tab or window"):
        reviewing.submit_judgment(engine, token, code, "refusal", seen=reloaded)  # now stale


def test_every_change_makes_a_new_version(choice_db: tuple[Engine, str]) -> None:
    engine, token = choice_db
    code = _first_code(engine, token)
    versions = [reviewing.load_sample(engine, token, code).version]
    for choice in ("refusal", "yes"):
        reviewing.submit_judgment(engine, token, code, choice)
        versions.append(reviewing.load_sample(engine, token, code).version)
    reviewing.undo_last_judgment(engine, token)
    versions.append(reviewing.load_sample(engine, token, code).version)
    assert len(set(versions)) == len(versions), versions
    # A save from the page that showed the judgment the undo took back is refused.
    with pytest.raises(ReviewInputError, match="another tab or window"):
        reviewing.submit_judgment(engine, token, code, "refusal", seen=versions[2])


def test_a_save_that_names_no_version_keeps_working(choice_db: tuple[Engine, str]) -> None:
    """Scripts and the CLI do not say what they saw: they record as before."""
    engine, token = choice_db
    code = _first_code(engine, token)
    assert reviewing.submit_judgment(engine, token, code, "refusal")
    assert reviewing.submit_judgment(engine, token, code, "yes")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_refusal_says_when_in_both_languages(
    choice_db: tuple[Engine, str], language: str
) -> None:
    engine, token = choice_db
    code = _first_code(engine, token)
    reviewing.submit_judgment(engine, token, code, "refusal")
    with pytest.raises(ReviewInputError) as refused:
        reviewing.submit_judgment(engine, token, code, "yes", seen="")
    with engine.connect() as connection:
        saved = connection.execute(select(judgments.c.submitted_at)).scalar_one()
    shown = refused.value.message(language)
    assert code in shown
    assert f"{saved:%H:%M}" in shown or f"{saved + timedelta(minutes=1):%H:%M}" in shown


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Round:
    return tiny_round(tmp_path_factory.mktemp("tiny"))


@pytest.mark.parametrize("kind", KINDS)
def test_rubric_scores_from_a_stale_tab_are_refused(kind: str, tmp_path: Path, tiny: Round) -> None:
    engine = fresh_database(kind, tmp_path)
    token = add_and_login(engine, "h1")
    rubric_batch(engine, tiny, "audit", ["h1"])
    code = _first_code(engine, token)
    stale = reviewing.load_sample(engine, token, code).version
    assert submit_scores(engine, token, code, {"correcao": 4, "clareza": 5}, seen=stale)
    shown = reviewing.load_sample(engine, token, code).version
    with pytest.raises(ReviewInputError, match="another tab or window"):
        submit_scores(engine, token, code, {"correcao": 1, "clareza": 1}, seen=stale)
    assert submit_scores(engine, token, code, {"correcao": 2, "clareza": 2}, seen=shown)
    with pytest.raises(ReviewInputError, match="another tab or window"):
        submit_scores(engine, token, code, {"correcao": 3, "clareza": 3}, seen=shown)
    assert dict(reviewing.load_sample(engine, token, code).scores) == {"correcao": 2, "clareza": 2}
    engine.dispose()


@pytest.mark.parametrize("kind", KINDS)
def test_a_scale_score_or_flag_from_a_stale_tab_is_refused(kind: str, tmp_path: Path) -> None:
    engine = fresh_database(kind, tmp_path)
    token = add_and_login(engine, "ana")
    released(engine, create_scale_batch(engine, read_cf_round(DEMO), seed=11))
    code = _first_code(engine, token)
    stale = reviewing.load_sample(engine, token, code).version
    assert submit_scale(engine, token, code, 4, False, seen=stale)
    with pytest.raises(ReviewInputError, match="another tab or window"):
        submit_scale(engine, token, code, 2, False, seen=stale)
    shown = reviewing.load_sample(engine, token, code).version
    assert submit_scale(engine, token, code, 4, True, seen=shown)  # the flag alone
    with pytest.raises(ReviewInputError, match="another tab or window"):
        submit_scale(engine, token, code, 4, False, seen=shown)  # the flag changed since
    engine.dispose()
