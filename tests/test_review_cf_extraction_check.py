"""People's check of the extracted decisions, end to end (issue 21, point 3): the round
declares `preregistration.extraction_check`; `reportgen review sample --task extraction`
draws a stratified sample of the binary extractions (a choice task: the reviewer reads
the question and the answer, never the extracted value); the answers are exported
(`reportgen review export`: extraction_checks.parquet), frozen with the round, verified,
and the results report the agreement with n and interval; a disagreeing extractor
leaves the findings.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, select

from reportgen.cli import main
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.results import build_results
from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.counterfactual.review.scale import submit_scale
from reportgen.kinds.counterfactual.schemas import EXTRACTION_CHECKS_SCHEMA
from reportgen.kinds.review_task import CHOICE_SHAPE, COUNT_SHAPE
from reportgen.kinds.rounds import read_round, verify_round
from review_app.core.db import samples
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import sample_keys
from review_app.tasks.reviewing import load_sample, my_queue, submit_judgment
from tests.factories.counterfactual import refresh_checksums
from tests.review.cf import DEMO, before_reviews
from tests.review.databases import fresh_database
from tests.review.helpers import add_and_login, release_all

MIN_ITEMS = 12


def _planned(parent: Path) -> Path:
    """The demonstration round with an extraction check declared (12 checks, 90 %)."""
    target = parent / DEMO.name
    shutil.copytree(DEMO, target)
    before_reviews(target)  # the check the demonstration ships is redone here
    path = target / "round.json"
    data = json.loads(path.read_text("utf-8"))
    data["counterfactual"]["preregistration"]["extraction_check"] = {
        "min_items": MIN_ITEMS,
        "threshold": "0.9",
    }
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    refresh_checksums(target)
    return target


def _cli(engine: Engine, *arguments: str) -> str:
    result = CliRunner().invoke(
        main, [*arguments, "--db", engine.url.render_as_string(hide_password=False)]
    )
    assert result.exit_code == 0, result.output
    return result.output


def _answer(engine: Engine, token: str, wrong: int) -> int:
    """Answer every sample of the queue with the extracted value, except the first
    `wrong` ones; returns how many samples were answered."""
    codes = [entry.code for entry in my_queue(engine, token)]
    with engine.connect() as connection:
        automatic = dict(
            connection.execute(
                select(samples.c.code, sample_keys.c.automatic).join(
                    sample_keys, sample_keys.c.sample_id == samples.c.sample_id
                )
            ).all()
        )
    flip = {"yes": "no", "no": "yes", "na": "yes"}
    for number, code in enumerate(codes):
        sample = load_sample(engine, token, code)
        assert sample.criteria == ()  # a choice task, not a scale
        assert sample.task.choices == ("yes", "no", "na")
        value = str(automatic[code])
        submit_judgment(engine, token, code, flip[value] if number < wrong else value)
    return len(codes)


@pytest.mark.parametrize(
    ("kind", "wrong", "passes"),
    [("sqlite", 1, True), ("sqlite", 4, False), ("postgresql", 1, True)],
)
def test_the_extraction_check_from_sample_to_results(
    tmp_path: Path, kind: str, wrong: int, passes: bool
) -> None:
    engine = fresh_database(kind, tmp_path)
    round_dir = _planned(tmp_path / "rounds")
    token = add_and_login(engine, "h1")
    _cli(engine, "review", "sample", str(round_dir), "--task", "extraction", "--seed", "4")
    release_all(engine)
    answered = _answer(engine, token, wrong)
    assert answered >= MIN_ITEMS  # one binary variable (concede), every stratum evenly
    # The reviewer never sees the extracted value: it is only in the admin-only key.
    demo = read_cf_round(round_dir)
    with engine.connect() as connection:
        texts = connection.execute(select(samples.c.prompt_text, samples.c.output_text)).all()
    assert all("Does the answer grant" in prompt for prompt, _ in texts)
    before = build_results(demo, replicates=20)
    folder = tmp_path / "export"
    output = _cli(engine, "review", "export", str(round_dir), "--output", str(folder))
    assert f"{answered} extraction check(s)" in output
    table = pq.read_table(folder / "extraction_checks.parquet")
    assert table.schema.remove_metadata() == EXTRACTION_CHECKS_SCHEMA
    shutil.copy(folder / "extraction_checks.parquet", round_dir)
    refresh_checksums(round_dir)
    assert verify_round(round_dir) == []
    frozen = read_round(round_dir)
    assert isinstance(frozen, Round)
    after = build_results(frozen, replicates=20)
    assert before.extraction_checks[0].n == 0  # declared, not yet checked
    [check] = after.extraction_checks
    assert (check.variable_id, check.n, check.agreeing) == ("concede", answered, answered - wrong)
    assert check.interval_lo is not None
    assert check.interval_hi is not None
    assert check.interval_lo < check.agreement.value < check.interval_hi  # type: ignore[union-attr]
    assert check.passes is passes
    concede = [r for s in after.systems for r in s.rows if r.variable_id == "concede"]
    assert concede
    assert all((r.finding == "extractor_below_agreement") is not passes for r in concede)
    engine.dispose()


def test_a_sample_of_another_shape_is_not_scored_on_the_scale(tmp_path: Path) -> None:
    """The scale submission takes a sample whose task has the `scale` shape only (what
    the kind declares, not its task's name): an extraction check's is refused, unchanged."""
    engine = fresh_database("sqlite", tmp_path)
    round_dir = _planned(tmp_path / "rounds")
    token = add_and_login(engine, "h1")
    _cli(engine, "review", "sample", str(round_dir), "--task", "extraction", "--seed", "4")
    release_all(engine)
    code = my_queue(engine, token)[0].code
    sample = load_sample(engine, token, code)
    assert sample.shape.name in (CHOICE_SHAPE, COUNT_SHAPE)
    with pytest.raises(ReviewInputError) as refused:
        submit_scale(engine, token, code, 3, False)
    assert refused.value.key == "cf_error_not_scale"
    assert load_sample(engine, token, code).choice is None
    engine.dispose()


@pytest.mark.parametrize(
    ("language", "labels"),
    [("pt-BR", ("Sim", "Não", "Não dá para dizer")), ("en", ("Yes", "No", "Cannot tell"))],
)
def test_the_reviewer_answers_on_the_choice_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, labels: tuple[str, ...]
) -> None:
    """The app's ordinary choice page: the question, the answer, three labelled buttons;
    a click stores the choice (the extracted value stays in the administrator-only key)."""
    import streamlit as st

    from reportgen.kinds.counterfactual.review.extraction import create_extraction_batch
    from review_app.core.db import judgments
    from tests.review.app_login import logged_in
    from tests.review.helpers import new_database

    url = f"sqlite:///{tmp_path / 'app.db'}"
    engine = new_database(url)
    add_and_login(engine, "h1")
    create_extraction_batch(engine, read_cf_round(_planned(tmp_path / "rounds")), seed=4)
    release_all(engine)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    try:
        at = logged_in("h1", language)
        code = at.session_state["current_code"]
        buttons = [b for b in at.button if b.key and b.key.startswith(f"choose_{code}_")]
        assert [b.label for b in buttons] == list(labels)
        buttons[1].click().run()  # "no"
        assert not at.exception, at.exception
        with engine.connect() as connection:
            assert connection.execute(select(judgments.c.choice)).scalars().all() == ["no"]
    finally:
        engine.dispose()
        st.cache_resource.clear()
