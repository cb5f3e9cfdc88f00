"""Nothing is lost: concurrent reviewers, repeated submits, a killed reviewer process.

Runs on SQLite and, when REVIEW_TEST_POSTGRES_URL is set (CI runs
review_app/ci_postgres.sh and exports it), on a real PostgreSQL server.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select, text

from review_app.core.db import judgments
from review_app.rounds.sampling import create_batch
from review_app.tasks.reviewing import my_queue, submit_judgment
from tests.factories import memory_review_round
from tests.review.databases import KINDS, empty_database_url
from tests.review.helpers import add_and_login, new_database, release_all

REVIEWERS = 20
PER_REVIEWER = 50
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(params=KINDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Engine]]:
    url = empty_database_url(str(request.param), tmp_path)
    engine = new_database(url)
    yield url, engine
    engine.dispose()


@pytest.mark.slow
@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
def test_twenty_reviewers_at_once_leave_exactly_a_thousand_judgments(
    database: tuple[str, Engine], tmp_path: Path
) -> None:
    _, engine = database
    tokens = [add_and_login(engine, f"reviewer-{n:02d}") for n in range(REVIEWERS)]
    # 3 models x 8 cells x 21 items = 504 samples, each judged by 2 of 20 reviewers:
    # every queue holds at least 50.
    round_ = memory_review_round(tmp_path / "r-demo", items_per_cell=21)
    create_batch(engine, round_, fraction=1.0, min_per_stratum=0, overlap=2, seed=11)
    release_all(engine)
    queues = [[e.code for e in my_queue(engine, token)][:PER_REVIEWER] for token in tokens]
    assert all(len(queue) == PER_REVIEWER for queue in queues)
    start = threading.Barrier(REVIEWERS)
    failures: list[BaseException] = []

    def work(token: str, codes: list[str]) -> None:
        try:
            start.wait()
            for code in codes:
                submit_judgment(engine, token, code, "no", "")
                # A double click: the second submit must record nothing.
                submit_judgment(engine, token, code, "no", "")
        except BaseException as error:
            failures.append(error)

    threads = [
        threading.Thread(target=work, args=(token, codes))
        for token, codes in zip(tokens, queues, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(judgments)).scalar()
    assert count == REVIEWERS * PER_REVIEWER


@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
def test_racing_submits_of_one_sample_record_once(
    database: tuple[str, Engine], tmp_path: Path
) -> None:
    _, engine = database
    token = add_and_login(engine, "ana")
    round_ = memory_review_round(tmp_path / "r-demo", items_per_cell=1)
    create_batch(engine, round_, fraction=1.0, min_per_stratum=0, overlap=1, seed=2)
    release_all(engine)
    codes = [entry.code for entry in my_queue(engine, token)][:5]
    start = threading.Barrier(8)
    failures: list[BaseException] = []

    def click() -> None:
        try:
            start.wait()
            for code in codes:
                submit_judgment(engine, token, code, "cant_tell")
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=click) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(judgments)).scalar() == 5


@pytest.mark.slow
@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
def test_killed_reviewer_process_loses_nothing_submitted(
    database: tuple[str, Engine], tmp_path: Path
) -> None:
    url, engine = database
    token = add_and_login(engine, "ana")
    round_ = memory_review_round(tmp_path / "r-demo", items_per_cell=10)
    create_batch(engine, round_, fraction=1.0, min_per_stratum=0, overlap=1, seed=2)
    release_all(engine)
    worker = subprocess.Popen(
        [sys.executable, "-m", "tests.review.submit_worker"],
        cwd=ROOT,
        env=dict(os.environ, REVIEW_DB_URL=url, REVIEW_TOKEN=token),
        stdout=subprocess.PIPE,
        text=True,
    )
    assert worker.stdout is not None
    committed = [worker.stdout.readline().strip() for _ in range(15)]
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=30)
    worker.stdout.close()
    assert worker.returncode == -signal.SIGKILL
    stored = {entry.code for entry in my_queue(engine, token) if entry.choice == "yes"}
    assert set(committed) <= stored
    if url.startswith("sqlite"):
        with engine.connect() as connection:
            assert connection.execute(text("PRAGMA integrity_check")).scalar() == "ok"
    # The killed session's token still works for the reviewer's next process.
    submit_judgment(engine, token, next(e.code for e in my_queue(engine, token)), "no")
