"""Judge calibration of a counterfactual round in the review app (issue 14, item 4).

The scale task the kind declares, its blind stratified sample (`review sample --task
calibration`, and --dry-run against a draw computed here from the archive's files alone),
scores off the 1-5 scale refused, the mask-audit flag stored and listed for the
administrator, and blindness: nothing a reviewer reaches names a group, a name, a system
or a judge score.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, func, select

from reportgen.cli import main
from reportgen.kinds import get_kind
from reportgen.kinds.counterfactual.model import NA, Round
from reportgen.kinds.counterfactual.review import (
    CALIBRATION_TASK,
    TONE_ANCHORS,
    in_language,
    parse_unit_key,
)
from reportgen.kinds.counterfactual.review.admin import calibration_progress, mask_flag_list
from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.counterfactual.review.sampling import (
    create_scale_batch,
    draw_calibration,
    drawn_rows,
)
from reportgen.kinds.counterfactual.review.scale import submit_scale
from reportgen.kinds.counterfactual.review.tables import mask_flags
from reportgen.kinds.counterfactual.terms import first_signal_term, signal_terms
from review_app.core.db import criterion_scores, judgments, samples
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.core.unblinding import sample_keys
from review_app.rounds.batches import leak_report
from review_app.tasks.reviewing import load_sample, my_queue
from tests.review.cf import DEMO, score_queue
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login, release_all

SEED = 11


@pytest.fixture(scope="module")
def demo() -> Round:
    return read_cf_round(DEMO)


def _spec_draw(round_dir: Path, seed: int) -> list[tuple[str, str, str, int]]:
    """The documented draw (reportgen.kinds.counterfactual.review.sampling), from the
    archive's files alone."""
    manifest = json.loads((round_dir / "round.json").read_text(encoding="utf-8"))
    wanted = manifest["counterfactual"]["preregistration"]["calibration"]["min_items"]
    variables = list(csv.DictReader(io.StringIO((round_dir / "variables.csv").read_text("utf-8"))))
    judged = [
        v["variable_id"] for v in variables if (v["type"], v["extractor"]) == ("score", "model")
    ]
    group_of = {
        row["variant_id"]: row["group_id"]
        for row in csv.DictReader(io.StringIO((round_dir / "variants.csv").read_text("utf-8")))
    }
    items = {row["item_id"]: row for row in pq.read_table(round_dir / "items.parquet").to_pylist()}
    systems = [
        row["model_id"]
        for row in csv.DictReader(io.StringIO((round_dir / "models.csv").read_text("utf-8")))
    ]
    rng = np.random.default_rng(seed)
    drawn: list[tuple[str, str, str, int]] = []
    for variable_id in judged:
        strata: dict[tuple[str, str, str], list[tuple[str, str, str, int]]] = defaultdict(list)
        for system in systems:
            table = pq.read_table(round_dir / "extractions" / f"{system}.parquet").to_pylist()
            for row in table:
                if row["variable_id"] == variable_id and row["value"] != "na":
                    item = items[row["item_id"]]
                    key = (system, item["attribute_id"], group_of[item["variant_id"]])
                    strata[key].append((variable_id, system, row["item_id"], row["run"]))
        per = math.ceil(wanted / len(strata))
        chosen, rest = [], []
        for key in sorted(strata):
            members = strata[key]
            picked = set(rng.choice(len(members), size=min(per, len(members)), replace=False))
            chosen += [m for i, m in enumerate(members) if i in picked]
            rest += [m for i, m in enumerate(members) if i not in picked]
        if len(chosen) < wanted:
            extra = np.sort(rng.choice(len(rest), size=wanted - len(chosen), replace=False))
            chosen += [rest[int(i)] for i in extra]
        drawn += chosen
    return sorted(drawn)


def test_the_kind_declares_the_scale_task(demo: Round) -> None:
    task = get_kind("counterfactual").review_task
    assert task is CALIBRATION_TASK
    assert task.scale == (1, 5)
    assert task.task_type == "calibration"
    units = list(task.units(demo))
    values = {
        (e.variable_id, e.model_id, e.item_id, e.run): e
        for rows in demo.extractions.values()
        for e in rows
    }
    assert len(units) == sum(1 for e in values.values() if e.variable_id == "tom" and e.value != NA)
    for unit in units:
        key = parse_unit_key(unit.unit_key)
        assert key is not None
        extraction = values[key]
        assert extraction.value != NA
        assert unit.output == extraction.input_text  # the judge's masked input, not raw_text
        assert unit.automatic == ""  # no judge score in a sample
        assert in_language(unit.prompt, "en") == demo.variables[-1].question_en
        (criterion,) = unit.criteria
        assert (criterion.criterion_id, criterion.name_en) == ("tom", "Courtesy and respect")
        for language in ("pt-BR", "en"):
            anchors = [in_language(a, language) for a in (criterion.anchor_0, criterion.anchor_5)]
            assert anchors == [TONE_ANCHORS[language][0], TONE_ANCHORS[language][2]]


def test_the_draw_is_stratified_reaches_min_items_and_never_takes_na(demo: Round) -> None:
    drawn = draw_calibration(demo, SEED)
    rows = drawn_rows(drawn)
    wanted = demo.manifest.preregistration.calibration.min_items
    assert len(rows) == len(set(rows)) >= wanted
    na = {
        (e.variable_id, e.model_id, e.item_id, e.run)
        for rows_ in demo.extractions.values()
        for e in rows_
        if e.value == NA and e.variable_id == "tom"
    }
    assert na
    assert not na & set(rows)
    per_stratum: dict[tuple[str, ...], int] = defaultdict(int)
    for unit in drawn:
        per_stratum[(unit.model_id, *unit.stratum)] += 1
    groups = {(s.model_id, g.attribute_id, g.group_id) for s in demo.models for g in demo.groups}
    assert set(per_stratum) == groups  # every system x group is in the sample
    assert min(per_stratum.values()) >= math.ceil(wanted / len(groups)) - 1  # a small stratum
    assert draw_calibration(demo, SEED) == drawn  # the seed fixes the draw and its order
    assert drawn_rows(draw_calibration(demo, SEED + 1)) != rows


def test_the_dry_run_prints_the_draw_and_writes_nothing(tmp_path: Path) -> None:
    database = tmp_path / "review.db"
    result = CliRunner().invoke(
        main,
        [
            *("review", "sample", str(DEMO), "--task", "calibration", "--seed", str(SEED)),
            *("--dry-run", "--db", f"sqlite:///{database}"),
        ],
    )
    assert result.exit_code == 0, result.output
    printed = list(csv.reader(io.StringIO(result.output)))
    assert printed[0] == ["variable_id", "model_id", "item_id", "run"]
    assert [(v, m, i, int(r)) for v, m, i, r in printed[1:]] == _spec_draw(DEMO, SEED)
    assert not database.exists()


def test_the_sample_needs_a_seed_and_the_calibration_task(tmp_path: Path) -> None:
    needs = "--task: a counterfactual round needs calibration or extraction"
    for arguments, hint in (
        (["--task", "calibration", "--dry-run"], "--seed"),
        (["--task", "audit", "--seed", "1", "--dry-run"], needs),
        (["--seed", "1", "--dry-run"], needs),
    ):
        result = CliRunner().invoke(main, ["review", "sample", str(DEMO), *arguments])
        assert result.exit_code == 2
        assert hint in result.output, result.output


@pytest.mark.parametrize("kind", KINDS)
def test_scores_off_the_scale_are_refused_and_the_flag_is_stored(
    kind: str, tmp_path: Path, demo: Round
) -> None:
    engine = fresh_database(kind, tmp_path)
    token = add_and_login(engine, "ana")
    admin = add_and_login(engine, "chefe", "admin")
    batch_id = create_scale_batch(engine, demo, seed=SEED)
    release_all(engine)
    code = my_queue(engine, token)[0].code
    for refused in (0, 6, 2.5, "3", None):
        with pytest.raises(ReviewInputError):
            submit_scale(engine, token, code, refused, False)
    with pytest.raises(ReviewInputError):
        submit_scale(engine, token, code, 3, "yes")
    assert _counts(engine) == (0, 0, 0)
    assert submit_scale(engine, token, code, 5, True, "obrigada no fim")
    assert not submit_scale(engine, token, code, 5, True, "obrigada no fim")  # recorded once
    assert _counts(engine) == (1, 1, 1)
    assert load_sample(engine, token, code).scores == {"tom": 5}
    (flag,) = mask_flag_list(engine, admin, demo.round_id)
    with engine.connect() as connection:
        key = connection.execute(
            select(sample_keys.c.unit_key)
            .join(samples, samples.c.sample_id == sample_keys.c.sample_id)
            .where(samples.c.code == code)
        ).scalar_one()
    assert (flag.code, flag.reviewer) == (code, "ana")
    assert parse_unit_key(key) == (flag.variable_id, flag.model_id, flag.item_id, flag.run)
    (progress,) = calibration_progress(engine, admin, demo.round_id)
    assert (progress.batch_id, progress.scored, progress.flagged) == (batch_id, 1, 1)
    assert submit_scale(engine, token, code, 5, False)  # the flag taken back
    assert mask_flag_list(engine, admin, demo.round_id) == []
    with pytest.raises(AccessDenied):
        mask_flag_list(engine, token, demo.round_id)  # administrators only
    engine.dispose()


def _counts(engine: Engine) -> tuple[int, int, int]:
    with engine.connect() as connection:
        return tuple(  # type: ignore[return-value]
            connection.execute(select(func.count()).select_from(table)).scalar_one()
            for table in (judgments, criterion_scores, mask_flags)
        )


@pytest.mark.parametrize("kind", KINDS)
def test_a_second_draw_and_a_short_round_are_refused(
    kind: str, tmp_path: Path, demo: Round
) -> None:
    engine = fresh_database(kind, tmp_path)
    add_and_login(engine, "ana")
    create_scale_batch(engine, demo, seed=SEED)
    release_all(engine)
    with pytest.raises(ReviewInputError, match="already drawn"):
        create_scale_batch(engine, demo, seed=SEED + 1)
    engine.dispose()
    plan = demo.manifest.preregistration.calibration
    greedy = dataclasses.replace(
        demo,
        manifest=dataclasses.replace(
            demo.manifest,
            preregistration=dataclasses.replace(
                demo.manifest.preregistration,
                calibration=dataclasses.replace(plan, min_items=10_000),
            ),
        ),
    )
    with pytest.raises(ReviewInputError, match="fewer than the 10000"):
        draw_calibration(greedy, SEED)


def test_what_a_reviewer_reaches_is_blind(tmp_path: Path, demo: Round) -> None:
    engine = fresh_database("sqlite", tmp_path)
    token = add_and_login(engine, "ana")
    create_scale_batch(engine, demo, seed=SEED)
    release_all(engine)
    terms = signal_terms(demo)
    identities = (
        [text.lower() for system in demo.models for text in (system.model_id, system.display_name)]
        + [group.name_pt.lower() for group in demo.groups]
        + [g.group_id for g in demo.groups]
    )
    score_queue(engine, token)
    for entry in my_queue(engine, token):
        sample = load_sample(engine, token, entry.code)
        seen = repr(sample).lower()
        assert first_signal_term(sample.output_text, terms) is None, sample.output_text
        assert first_signal_term(in_language(sample.prompt_text, "pt-BR"), terms) is None
        for identity in identities:
            assert identity not in seen, identity
        assert sample.scores == {"tom": 4}  # only the reviewer's own score
    engine.dispose()


def test_the_scrubber_and_the_leak_report_read_the_masked_inputs(
    tmp_path: Path, demo: Round
) -> None:
    """A masked input naming the system behind it reaches reviewers scrubbed, and the
    batch's leak report lists what the scrubber cannot know (a name it was never given)."""
    planted = "Sou o assistente-a. Aqui é o Zorblax, da zorblax.ai. Obrigada, [OCULTO]!"
    rows = {
        model_id: tuple(
            dataclasses.replace(row, input_text=planted) if row.variable_id == "tom" else row
            for row in extractions
        )
        for model_id, extractions in demo.extractions.items()
    }
    leaky = dataclasses.replace(demo, extractions=rows)
    engine = fresh_database("sqlite", tmp_path)
    add_and_login(engine, "ana")
    admin = add_and_login(engine, "chefe", "admin")
    batch_id = create_scale_batch(engine, leaky, seed=SEED)
    release_all(engine)
    with engine.connect() as connection:
        shown = set(connection.execute(select(samples.c.output_text)).scalars())
    assert len(shown) == 1
    (text,) = shown
    assert "assistente-a" not in text.lower()
    assert "[OCULTO]" in text  # the mask token is kept
    (flagged, *_) = leak_report(engine, admin, batch_id)
    assert {s.fragment for s in flagged.suspicions} >= {"zorblax.ai"}
    engine.dispose()
