"""People's check of a count extracted by a model (issue 21, point 3), end to end: a round
whose `opcoes` (concrete options offered) is counted by a model declares the extraction
check; `reportgen review sample --task extraction` draws `min_items` of its extractions
beside the binary variable's; the reviewer types the count (a whole number >= 0, or
cannot tell) on an integer field, never seeing the extracted value; the export writes
the counts, the round re-frozen with them verifies, and the results report the count's
exact-match agreement. A count made by code is not drawn.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import streamlit as st
from click.testing import CliRunner
from sqlalchemy import Engine, select

from reportgen.cli import main
from reportgen.kinds.counterfactual.model import ExtractionCheckPlan, Round
from reportgen.kinds.counterfactual.results import build_results
from reportgen.kinds.counterfactual.review.extraction import (
    create_extraction_batch,
    draw_extraction_check,
)
from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.rounds import read_round, verify_round
from review_app.core.db import judgments, samples
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import sample_keys
from review_app.rounds.admin import calibrate, judged_samples
from review_app.tasks.reviewing import load_sample, my_queue, submit_judgment
from tests.factories.counterfactual import (
    model_counted,
    refresh_checksums,
    small_round,
    with_plan,
    write,
)
from tests.factories.counterfactual_raw import fill, render, write_battery
from tests.factories.counterfactual_rounds import JUDGE_INPUT, ROUND_ID
from tests.review.app_login import logged_in
from tests.review.helpers import add_and_login, new_database, release_all

MIN_ITEMS = 4


def _round_dir(parent: Path, *, counted_by_model: bool = True) -> Path:
    plain = small_round()
    round_ = model_counted(plain) if counted_by_model else plain
    planned = with_plan(round_, extraction_check=ExtractionCheckPlan(MIN_ITEMS, Fraction(3, 4)))
    parent.mkdir(parents=True, exist_ok=True)
    return write(planned, parent)


def _keys(engine: Engine) -> dict[str, tuple[str, str]]:
    """sample code -> (unit key, extracted value): the administrator-only key."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(samples.c.code, sample_keys.c.unit_key, sample_keys.c.automatic).join(
                sample_keys, sample_keys.c.sample_id == samples.c.sample_id
            )
        ).all()
    return {code: (key, value) for code, key, value in rows}


def test_a_code_count_is_not_drawn(tmp_path: Path) -> None:
    round_ = read_cf_round(_round_dir(tmp_path, counted_by_model=False))
    drawn = draw_extraction_check(round_, seed=4)
    assert {unit.stratum[0] for unit in drawn} == {"reembolso"}
    counted = read_cf_round(_round_dir(tmp_path / "model", counted_by_model=True))
    drawn = draw_extraction_check(counted, seed=4)
    per_variable = {v: sum(u.stratum[0] == v for u in drawn) for v in ("reembolso", "opcoes")}
    # At least min_items of each checked variable (each stratum, each extracted count,
    # gives an even share: 3 counts x 2 for opcoes).
    assert per_variable == {"reembolso": MIN_ITEMS, "opcoes": 6}
    assert all(len(u.criteria) == (u.stratum[0] == "opcoes") for u in drawn)


def test_the_count_check_from_sample_to_results(tmp_path: Path) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    round_dir = _round_dir(tmp_path / "rounds")
    token = add_and_login(engine, "h1")
    db = ["--db", engine.url.render_as_string(hide_password=False)]
    runner = CliRunner()
    sampled = runner.invoke(
        main, ["review", "sample", str(round_dir), "--task", "extraction", "--seed", "4", *db]
    )
    assert sampled.exit_code == 0, sampled.output
    release_all(engine)
    keys = _keys(engine)
    counts = [
        c for c in (e.code for e in my_queue(engine, token)) if keys[c][0].startswith("opcoes|")
    ]
    binary = [e.code for e in my_queue(engine, token) if e.code not in counts]
    assert len(counts) >= MIN_ITEMS
    # A count sample takes a canonical whole number or na, nothing else; a binary one no number.
    for wrong in ("yes", "03", "-1", "2.0", " 2"):
        with pytest.raises(ReviewInputError, match="Unknown option"):
            submit_judgment(engine, token, counts[0], wrong)
    with pytest.raises(ReviewInputError, match="Unknown option"):
        submit_judgment(engine, token, binary[0], "2")
    assert load_sample(engine, token, counts[0]).criteria[0].criterion_id == "opcoes"
    for code in binary:
        submit_judgment(engine, token, code, keys[code][1])
    # One count is off by one, one cannot tell, the others agree.
    extracted = [keys[code][1] for code in counts]
    answers = [str(int(extracted[0]) + 1), "na", *extracted[2:]]
    for code, answer in zip(counts, answers, strict=True):
        submit_judgment(engine, token, code, answer)
    # The administrator's agreement and disagreement pages compare choices: the counts
    # stay out of them (their agreement is the export's), the binary checks are there.
    admin = add_and_login(engine, "chefe", "admin")
    judged = judged_samples(engine, admin)
    assert {sample.code for sample in judged} == set(binary)
    assert calibrate(judged, judged[0].task).judged_samples == len(binary)
    folder = tmp_path / "export"
    exported = runner.invoke(
        main, ["review", "export", str(round_dir), "--output", str(folder), *db]
    )
    assert exported.exit_code == 0, exported.output
    table = pq.read_table(folder / "extraction_checks.parquet").to_pylist()
    written = sorted(r["human_value"] for r in table if r["variable_id"] == "opcoes")
    assert written == sorted(answers)
    (folder / "extraction_checks.parquet").replace(round_dir / "extraction_checks.parquet")
    refresh_checksums(round_dir)
    assert verify_round(round_dir) == []
    frozen = read_round(round_dir)
    assert isinstance(frozen, Round)
    checks = {c.variable_id: c for c in build_results(frozen, replicates=10).extraction_checks}
    n = len(counts)
    assert (checks["opcoes"].n, checks["opcoes"].agreeing) == (n, n - 2)
    assert checks["opcoes"].passes is (Fraction(n - 2, n) >= Fraction(3, 4))
    assert (checks["reembolso"].n, checks["reembolso"].agreeing) == (len(binary), len(binary))
    engine.dispose()


@pytest.mark.parametrize(
    ("language", "labels"),
    [
        ("pt-BR", ("O que você conta: Opções", "Salvar a contagem", "Não dá para dizer")),
        ("en", ("What you count: Options", "Save the count", "Cannot tell")),
    ],
)
def test_the_reviewer_types_the_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, labels: tuple[str, ...]
) -> None:
    """The count page: the question, the masked answer, an empty integer field (never the
    extracted value) and two buttons; a typed count is stored, "cannot tell" stores na."""
    url = f"sqlite:///{tmp_path / 'app.db'}"
    engine = new_database(url)
    add_and_login(engine, "h1")
    create_extraction_batch(engine, read_cf_round(_round_dir(tmp_path / "rounds")), seed=4)
    release_all(engine)
    keys = _keys(engine)
    counts = sorted(code for code, (key, _) in keys.items() if key.startswith("opcoes|"))
    monkeypatch.setenv("REVIEW_DB_URL", url)
    try:
        at = logged_in("h1", language)
        for code, answer in ((counts[0], 7), (counts[1], None)):
            at.session_state["current_code"] = code
            at.run()
            assert not at.exception, at.exception
            field = at.number_input(key=f"count_{code}")
            assert field.value is None  # blind: the extracted value is not filled in
            assert (field.min, field.step) == (0, 1)
            seen = "\n".join(str(e.proto) for e in at.caption) + str(at.button)
            for label in labels:
                assert label in seen.replace("\\", ""), label
            assert keys[code][0] not in repr(at.session_state.to_dict())
            if answer is None:
                next(b for b in at.button if b.label == labels[2]).click().run()
            else:
                field.set_value(answer)
                next(b for b in at.button if b.label == labels[1]).click().run()
            assert not at.exception, at.exception
            assert at.session_state["current_code"] != code  # on to the next sample
        with engine.connect() as connection:
            stored = connection.execute(select(judgments.c.choice)).scalars().all()
        assert sorted(stored) == ["7", "na"]
    finally:
        engine.dispose()
        st.cache_resource.clear()


def test_a_raw_round_freezes_its_count_checks(tmp_path: Path) -> None:
    """A raw round whose `palavras` is counted by a model: extraction_checks.jsonl (as the
    export writes it) with counts and na is read by `reportgen freeze`, and the archive
    verifies and keeps the counts; a count spelled "07" is refused naming row and field."""
    write_battery(tmp_path / "battery")
    variables = tmp_path / "battery" / "variables.csv"
    lines = variables.read_text("utf-8").splitlines(keepends=True)
    lines = [
        line.replace(",code,", ",model,", 1) if line.startswith("palavras,") else line
        for line in lines
    ]
    variables.write_text("".join(lines), "utf-8")
    draft = json.loads((tmp_path / "battery" / "round.json").read_text("utf-8"))
    plan = draft["counterfactual"]["preregistration"]
    plan["extraction_check"] = {"min_items": 2, "threshold": "0.5"}
    (tmp_path / "battery" / "round.json").write_text(json.dumps(draft, ensure_ascii=False))
    raw = tmp_path / "raw"
    render(tmp_path / "battery", raw)
    fill(raw)
    for path in (raw / "extractions").glob("*.jsonl"):
        rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
        for row in rows:
            if row["variable_id"] == "palavras":
                row["input_text"] = JUDGE_INPUT  # a model read the masked answer
        path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    cells = [("t1--n1", 1), ("t1--i2", 2)]
    values = {"reembolso": ("yes", ("yes", "no")), "palavras": ("7", ("7", "na"))}
    checks = [
        {
            "variable_id": variable_id,
            "model_id": "bot-a",
            "item_id": item_id,
            "run": run,
            "extracted_value": extracted,
            "human_value": human,
            "reviewer": "R1",
            "checked_on": "2026-11-13",
        }
        for variable_id, (extracted, humans) in values.items()
        for (item_id, run), human in zip(cells, humans, strict=True)
    ]
    path = raw / "extraction_checks.jsonl"
    runner = CliRunner()
    bad = [dict(checks[0]), *checks[1:]]
    bad[2] = {**bad[2], "human_value": "07"}
    path.write_text("".join(json.dumps(c) + "\n" for c in bad))
    out = tmp_path / ROUND_ID
    refused = runner.invoke(main, ["freeze", str(raw), "--out", str(out)])
    assert refused.exit_code == 1
    assert "extraction_checks.parquet: row 3, human_value" in refused.output
    assert "got '07'" in refused.output
    assert not out.exists()
    path.write_text("".join(json.dumps(c) + "\n" for c in checks))
    frozen = runner.invoke(main, ["freeze", str(raw), "--out", str(out)])
    assert frozen.exit_code == 0, frozen.output
    assert verify_round(out) == []
    archive = read_round(out)
    assert isinstance(archive, Round)
    assert [r.human_value for r in archive.extraction_checks if r.variable_id == "palavras"] == [
        "7",
        "na",
    ]
    agreement = {c.variable_id: c for c in build_results(archive, replicates=10).extraction_checks}
    assert (agreement["palavras"].n, agreement["palavras"].agreeing) == (2, 1)
