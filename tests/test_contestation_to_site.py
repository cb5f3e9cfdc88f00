"""An accepted contestation annuls the item for every model, and the next build shows it."""

from __future__ import annotations

import csv
import html
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

from reportgen.build import build_site
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.model import Round
from review_app.rounds.contest import decide, publish_round, submit_contestation
from review_app.rounds.sampling import create_batch
from tests.factories import CONFIG, REVIEW_MODELS, THEME, make_round
from tests.review.helpers import add_and_login, new_database

REPLY = {
    "pt-BR": "Aceita: a evidência favorável do item admite duas leituras.",
    "en": "Accepted: the item's favourable evidence allows two readings.",
}


def denominators(site: Path, round_id: str) -> dict[str, tuple[int, int]]:
    path = site / "data" / round_id / "models.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["model_id"]: (int(row["N"]), int(row["n"])) for row in csv.DictReader(handle)}


def test_accepted_contestation_reaches_every_model_on_the_next_build(tmp_path: Path) -> None:
    (tmp_path / "rounds").mkdir()
    round_dir = make_round(tmp_path / "rounds", models=REVIEW_MODELS)
    round_ = read_round(round_dir)
    site = tmp_path / "site"
    build(round_dir, site)
    before = denominators(site, round_.round_id)

    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    admin = add_and_login(engine, "admin", "admin")
    participant = add_and_login(engine, "lab", "participant")
    add_and_login(engine, "ana")
    create_batch(engine, round_, fraction=0.05, min_per_stratum=1, overlap=1, seed=3)
    publish_round(engine, round_.round_id, _published_plus(round_, 0))
    contested = next(
        item for item in round_.items if round_.is_scored(item) and item.style == "positive"
    )
    contest_id = submit_contestation(
        engine,
        participant,
        round_.round_id,
        contested.item_id,
        "A evidência favorável deste item admite duas leituras; nenhuma decisão é inequívoca.",
        clock=lambda: _published_plus(round_, 2),
    )
    decide(
        engine,
        admin,
        contest_id,
        accept=True,
        reply=REPLY,
        clock=lambda: _published_plus(round_, 3),
    )

    build(round_dir, site)
    after = denominators(site, round_.round_id)
    assert set(after) == set(before) == {model.model_id for model in REVIEW_MODELS}
    for model_id, (N, n) in before.items():
        assert after[model_id] == (N - 1, n - 1), model_id
    ledger_page = html.unescape((site / "contestations.html").read_text(encoding="utf-8"))
    assert contested.item_id in ledger_page
    assert REPLY["pt-BR"] in ledger_page
    english_page = html.unescape((site / "en" / "contestations.html").read_text(encoding="utf-8"))
    assert REPLY["en"] in english_page


def build(round_dir: Path, site: Path) -> None:
    cache = site.parent / "cache"
    build_site([round_dir], site, config_path=CONFIG, theme_dir=THEME, cache_dir=cache)


def _published_plus(round_: Round, days: int) -> datetime:
    """A moment `days` after the round's publication (one day after collection)."""
    published = datetime.combine(round_.manifest.collected_on + timedelta(days=1), time(12), UTC)
    return published + timedelta(days=days)
