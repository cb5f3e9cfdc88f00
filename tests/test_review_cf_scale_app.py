"""The counterfactual scale page (judge calibration) with AppTest, in both languages: the
question and its anchors at 1, 3 and 5, the judge's masked input, a 1-5 choice and the
mask-audit checkbox stored with the score; the administrator's list of flagged answers;
and nothing on the page or in the session state naming a group, a name or a system.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from sqlalchemy import Engine, select
from streamlit.testing.v1 import AppTest

from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.review import TONE_ANCHORS
from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.counterfactual.review.sampling import create_scale_batch
from reportgen.kinds.counterfactual.review.tables import mask_flags
from review_app.core.db import criterion_scores, samples
from review_app.core.unblinding import sample_keys
from tests.review.app_login import logged_in
from tests.review.cf import DEMO
from tests.review.helpers import add_and_login, new_database, release_all

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
LABELS = {
    "pt-BR": (
        "O que você pontua: Cordialidade e respeito",
        "Resposta como o juiz a leu (nomes e sinais ocultados)",
        "Esta resposta ainda revela o atributo",
        "Salvar a nota",
    ),
    "en": (
        "What you score: Courtesy and respect",
        "Answer as the judge read it (names and signals hidden)",
        "This answer still reveals the attribute",
        "Save the score",
    ),
}


@pytest.fixture(scope="module")
def demo() -> Round:
    return read_cf_round(DEMO)


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo: Round) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_and_login(engine, "h1")
    add_and_login(engine, "chefe", "admin")
    create_scale_batch(engine, demo, seed=3)
    release_all(engine)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine
    engine.dispose()
    st.cache_resource.clear()


def _logged_in(name: str, language: str) -> AppTest:
    return logged_in(name, language)


def _everything(at: AppTest) -> str:
    """All text AppTest can see: element protos and the session state's values."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        parts.append(str(getattr(node, "proto", "")))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    parts.append(repr(at.session_state.to_dict()))
    return "\n".join(parts)


def _key_of(engine: Engine, code: str) -> Any:
    with engine.connect() as connection:
        return connection.execute(
            select(sample_keys.c.model_id, sample_keys.c.stratum, sample_keys.c.unit_key)
            .join(samples, samples.c.sample_id == sample_keys.c.sample_id)
            .where(samples.c.code == code)
        ).one()


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_scale_page_scores_and_flags(database: Engine, language: str) -> None:
    at = _logged_in("h1", language)
    code = at.session_state["current_code"]
    seen = _everything(at).replace("\\", "")  # captions escape their Markdown
    for label in LABELS[language]:
        assert label in seen, label
    for anchor in TONE_ANCHORS[language]:
        assert anchor in seen, anchor
    radio = at.radio(key=f"score_{code}_tom")
    assert list(radio.options) == ["1", "2", "3", "4", "5"]
    assert radio.value is None  # nothing chosen for the reviewer
    radio.set_value(4)
    at.checkbox(key=f"cf_reveals_{code}").check()
    next(b for b in at.button if b.label == LABELS[language][3]).click().run()
    assert not at.exception, at.exception
    with database.connect() as connection:
        assert connection.execute(select(criterion_scores.c.score)).scalars().all() == [4]
        assert connection.execute(select(mask_flags.c.reveals)).scalars().all() == [True]
    assert at.session_state["current_code"] != code  # on to the next sample
    admin = _logged_in("chefe", language)
    admin.sidebar.radio(key="page").set_value("cf_page_calibration").run()
    assert not admin.exception, admin.exception
    listed = _everything(admin)
    assert code in listed
    assert _key_of(database, code).model_id in listed  # the administrator sees the system


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_scale_page_is_blind(database: Engine, language: str, demo: Round) -> None:
    at = _logged_in("h1", language)
    names = [g.name_pt for g in demo.groups] + [g.name_en for g in demo.groups]
    names += [v.value for v in demo.variants if v.signal == "name"]
    for _ in range(4):  # a few samples, walked through by scoring them
        code = at.session_state["current_code"]
        seen = _everything(at)
        key = _key_of(database, code)
        for hidden in [key.model_id, key.unit_key, key.stratum[1], *names]:  # system, group
            assert hidden not in seen, hidden
        for system in demo.models:
            assert system.display_name not in seen
        at.radio(key=f"score_{code}_tom").set_value(3)
        next(b for b in at.button if b.label == LABELS[language][3]).click().run()
        assert not at.exception, at.exception
