"""Administration (issue 9): the leak report and held samples, reviewers and quotas per
batch, reassigning work, a refused second draw, adjudication beside the texts, closing with
confirmation, reopening, and the reviewer told that a batch closed.

Storage behaviour runs on SQLite and, when REVIEW_TEST_POSTGRES_URL is set, on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from click.testing import CliRunner
from sqlalchemy import Engine, select, update
from streamlit.testing.v1 import AppTest

from reportgen.cli import main as cli
from review_app.core.db import audit_log, samples
from review_app.core.errors import ReviewInputError
from review_app.i18n import translate
from review_app.rounds import admin, batches
from review_app.rounds.sampling import assign, create_batch
from review_app.tasks import reviewing
from tests.factories import make_round, memory_review_round
from tests.review.app_login import logged_in
from tests.review.databases import KINDS, empty_database_url
from tests.review.helpers import add_and_login, new_database, release_all

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")


@pytest.fixture(params=KINDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    url = empty_database_url(str(request.param), tmp_path)
    engine = new_database(url)
    yield url, engine
    engine.dispose()


def _team(engine: Engine, *names: str) -> dict[str, str]:
    tokens = {name: add_and_login(engine, name) for name in names}
    tokens["admin"] = add_and_login(engine, "admin", "admin")
    return tokens


def _actions(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(connection.execute(select(audit_log.c.action)).scalars())


def test_same_round_and_seed_is_refused(database: tuple[str, Engine], tmp_path: Path) -> None:
    _, engine = database
    _team(engine, "ana", "bruno")
    round_ = memory_review_round(tmp_path / "r-demo")
    create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=2, seed=3)
    release_all(engine)
    with pytest.raises(ReviewInputError, match="already has a batch with seed 3"):
        create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=2, seed=3)
    assert len(admin.list_batches(engine, add_and_login(engine, "boss", "admin"))) == 1
    create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=2, seed=4)
    release_all(engine)


def test_chosen_reviewers_and_quotas(database: tuple[str, Engine], tmp_path: Path) -> None:
    _, engine = database
    tokens = _team(engine, "ana", "bruno", "carla")
    round_ = memory_review_round(tmp_path / "r-demo")
    batch_id = create_batch(
        engine,
        round_,
        fraction=0.2,
        min_per_stratum=1,
        overlap=1,
        seed=3,
        reviewers=["ana", "bruno"],
        quotas={"ana": 2},
    )
    release_all(engine)
    loads = {
        load.name: load.assigned
        for load in batches.reviewer_loads(engine, tokens["admin"], batch_id)
    }
    total = admin.list_batches(engine, tokens["admin"])[0].samples
    assert loads == {"ana": 2, "bruno": total - 2}  # carla was not chosen
    assert reviewing.my_queue(engine, tokens["carla"]) == []
    with pytest.raises(ReviewInputError, match="no reviewer account named nobody"):
        create_batch(
            engine, round_, fraction=0.2, min_per_stratum=1, overlap=1, seed=5, reviewers=["nobody"]
        )
    with pytest.raises(ReviewInputError, match="quotas are too small"):
        create_batch(
            engine,
            round_,
            fraction=0.2,
            min_per_stratum=1,
            overlap=2,
            seed=6,
            quotas={"ana": 1, "bruno": 1, "carla": 1},
        )


def test_assign_respects_quotas_and_overlap() -> None:
    chosen = assign(10, [1, 2, 3], 2, {1: 3})
    assert all(len(set(reviewers)) == 2 for reviewers in chosen)
    assert sum(1 in reviewers for reviewers in chosen) <= 3
    assert assign(4, [1, 2], 1) == [(1,), (2,), (1,), (2,)]  # no quotas: the rotation


def test_reassign_and_unassign_move_only_unjudged_work(
    database: tuple[str, Engine], tmp_path: Path
) -> None:
    _, engine = database
    tokens = _team(engine, "ana", "bruno", "carla")
    round_ = memory_review_round(tmp_path / "r-demo")
    batch_id = create_batch(
        engine,
        round_,
        fraction=0.2,
        min_per_stratum=1,
        overlap=1,
        seed=3,
        reviewers=["ana", "bruno"],
    )
    release_all(engine)
    ana_queue = reviewing.my_queue(engine, tokens["ana"])
    reviewing.submit_judgment(engine, tokens["ana"], ana_queue[0].code, "yes")
    moved = batches.reassign(engine, tokens["admin"], batch_id, "ana", "carla")
    assert moved == len(ana_queue) - 1
    assert [e.code for e in reviewing.my_queue(engine, tokens["ana"])] == [ana_queue[0].code]
    assert len(reviewing.my_queue(engine, tokens["carla"])) == moved
    removed = batches.reassign(engine, tokens["admin"], batch_id, "carla", None)
    assert removed == moved
    assert reviewing.my_queue(engine, tokens["carla"]) == []
    assert {"reassign", "unassign"} <= set(_actions(engine))
    admin.close_batch(engine, tokens["admin"], batch_id)
    with pytest.raises(ReviewInputError, match="is closed"):
        batches.reassign(engine, tokens["admin"], batch_id, "bruno", "carla")


def test_leak_report_and_held_samples_leave_reviewer_queries(
    database: tuple[str, Engine], tmp_path: Path
) -> None:
    _, engine = database
    tokens = _team(engine, "ana", "bruno")
    round_ = memory_review_round(tmp_path / "r-demo")
    batch_id = create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=2, seed=3)
    release_all(engine)
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    with engine.begin() as connection:  # an output the scrubber could not know
        connection.execute(
            update(samples)
            .where(samples.c.code == code)
            .values(output_text="Sou o Zorblax 5.4-mini.")
        )
    report = batches.leak_report(engine, tokens["admin"], batch_id)
    flagged = {entry.code: entry for entry in report}
    assert code in flagged
    reasons = {s.reason for s in flagged[code].suspicions}
    assert {"self_identification", "version"} <= reasons
    assert all(s.text_index == 1 for s in flagged[code].suspicions)
    batches.hold_sample(engine, tokens["admin"], flagged[code].sample_id)
    for name in ("ana", "bruno"):
        assert code not in {e.code for e in reviewing.my_queue(engine, tokens[name])}
        with pytest.raises(ReviewInputError):
            reviewing.load_sample(engine, tokens[name], code)
        with pytest.raises(ReviewInputError):
            reviewing.submit_judgment(engine, tokens[name], code, "yes")
    held = {
        entry.code: entry.held for entry in batches.leak_report(engine, tokens["admin"], batch_id)
    }
    assert held[code] is True
    batches.release_sample(engine, tokens["admin"], flagged[code].sample_id)
    assert code in {e.code for e in reviewing.my_queue(engine, tokens["ana"])}
    reviewing.submit_judgment(engine, tokens["ana"], code, "no")
    with pytest.raises(ReviewInputError, match="already been judged"):
        batches.hold_sample(engine, tokens["admin"], flagged[code].sample_id)
    assert {"hold_sample", "release_sample"} <= set(_actions(engine))


def test_reopen_is_logged_and_allows_revision(database: tuple[str, Engine], tmp_path: Path) -> None:
    _, engine = database
    tokens = _team(engine, "ana", "bruno")
    batch_id = create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=2,
        seed=3,
    )
    release_all(engine)
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    admin.close_batch(engine, tokens["admin"], batch_id)
    with pytest.raises(ReviewInputError):
        reviewing.submit_judgment(engine, tokens["ana"], code, "yes")
    batches.reopen_batch(engine, tokens["admin"], batch_id)
    assert reviewing.submit_judgment(engine, tokens["ana"], code, "yes")
    assert _actions(engine).count("reopen_batch") == 1
    with pytest.raises(Exception, match="not allowed"):
        batches.reopen_batch(engine, tokens["ana"], batch_id)


def test_cli_sample_refuses_a_second_draw_and_reopens(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    _team(engine, "ana", "bruno")
    runner = CliRunner()
    arguments = ["review", "sample", str(round_dir), "--seed", "1", "--db", url]
    arguments += ["--overlap", "1", "--quota", "ana=3"]
    first = runner.invoke(cli, arguments)
    assert first.exit_code == 0, first.output
    second = runner.invoke(cli, arguments)
    assert second.exit_code == 1
    assert "already has a batch with seed 1" in second.output
    assert runner.invoke(cli, ["review", "close-batch", "1", "--db", url]).exit_code == 0
    reopened = runner.invoke(cli, ["review", "reopen-batch", "1", "--db", url])
    assert reopened.exit_code == 0, reopened.output
    assert "reopen_batch" in _actions(engine)


# The app: adjudication beside the texts, no default, closing asks first, reviewers told.


@pytest.fixture
def app_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    tokens = _team(engine, "ana", "bruno")
    create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=2,
        seed=4,
    )
    release_all(engine)
    queue = reviewing.my_queue(engine, tokens["ana"])
    reviewing.submit_judgment(engine, tokens["ana"], queue[0].code, "yes")
    reviewing.submit_judgment(engine, tokens["bruno"], queue[0].code, "cant_tell")
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield tokens
    engine.dispose()
    st.cache_resource.clear()


def _logged_in(name: str, language: str = "pt-BR") -> AppTest:
    return logged_in(name, language)


def _texts(at: AppTest) -> str:
    return "\n".join(
        [e.value for e in at.text]
        + [e.value for e in at.caption]
        + [e.value for e in at.error]
        + [e.value for e in at.warning]
        + [e.value for e in at.success]
        + [str(e.proto) for e in at.table]
    )


def test_adjudication_shows_texts_and_labels_with_no_default(app_database: dict[str, str]) -> None:
    at = _logged_in("admin")
    at.sidebar.radio(key="page").set_value("page_disagreements").run()
    shown = _texts(at)
    assert "Pergunta" in shown
    assert "Resposta do modelo" in shown
    assert "ana: Sim" in shown
    assert "bruno: Não sei" in shown
    assert "cant_tell" not in shown
    assert "1 amostra aguarda decisão." in shown
    box = at.selectbox[0] if at.selectbox[0].key != "language" else at.selectbox[1]
    assert box.value is None
    at.button(
        key=next(b.key for b in at.button if b.key and b.key.startswith("adjudicate_"))
    ).click().run()
    assert "Escolha uma decisão antes de registrá-la." in _texts(at)


def test_closing_asks_first_then_reviewer_is_told(app_database: dict[str, str]) -> None:
    at = _logged_in("admin")
    at.sidebar.radio(key="page").set_value("page_batches").run()
    at.button(key="close_1").click().run()
    assert any("Fechar o lote 1?" in w.value for w in at.warning)
    at.button(key="cancel_close_1").click().run()
    assert not at.warning
    at.button(key="close_1").click().run()
    at.button(key="confirm_close_1").click().run()
    assert "reopen_1" in {b.key for b in at.button}
    reviewer = _logged_in("ana")
    warnings = " ".join(w.value for w in reviewer.warning)
    assert "O lote foi fechado antes do seu julgamento" in warnings
    assert not any("Você julgou todas" in s.value for s in reviewer.success)


def test_calibration_page_states_denominators_in_english(app_database: dict[str, str]) -> None:
    at = _logged_in("admin", "en")
    shown = _texts(at)
    assert "κ of the consensus on 0 of 1 samples: 1 without a consensus" in shown
    assert "Confidence intervals by bootstrap: 2000 replicates, seed" in shown


def test_plurals_come_from_the_catalogue() -> None:
    assert translate("pt-BR", "disagreements_count", count=1) == "1 amostra aguarda decisão."
    assert translate("pt-BR", "disagreements_count", count=3) == "3 amostras aguardam decisão."
    assert translate("en", "disagreements_count", count=1) == "1 sample awaits a decision."
    assert translate("en", "disagreements_count", count=0) == "0 samples await a decision."
    assert translate("pt-BR", "batch_samples", count=1_000_000) == "1000000 amostras"  # "many"
    assert "1 conta de pessoa revisora." in translate("pt-BR", "error_overlap", overlap=2, count=1)


def test_reviewers_are_named_as_accounts_are_and_disabled_ones_get_no_work(
    database: tuple[str, Engine], tmp_path: Path
) -> None:
    from review_app.core.accounts import list_accounts, set_disabled

    _, engine = database
    tokens = _team(engine, "ana", "bruno", "carla")
    carla = next(a for a in list_accounts(engine, tokens["admin"]) if a.name == "carla")
    set_disabled(engine, tokens["admin"], carla.account_id, True)
    round_ = memory_review_round(tmp_path / "r-demo")
    batch_id = create_batch(
        engine,
        round_,
        fraction=0.2,
        min_per_stratum=1,
        overlap=1,
        seed=3,
        reviewers=["ANA", "Ｂruno"],  # matched by the NFKC, case-folded key
        quotas={"Ana": 2},
    )
    release_all(engine)
    loads = {
        load.name: load.assigned
        for load in batches.reviewer_loads(engine, tokens["admin"], batch_id)
    }
    assert set(loads) == {"ana", "bruno"}
    assert loads["ana"] == 2
    # With every reviewer by default, the disabled account is still left out.
    create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=2, seed=4)
    release_all(engine)
    assert "carla" not in batches.reviewer_names(engine, tokens["admin"])
    with pytest.raises(ReviewInputError, match="no reviewer account named carla"):
        create_batch(
            engine, round_, fraction=0.2, min_per_stratum=1, overlap=1, seed=5, reviewers=["carla"]
        )
