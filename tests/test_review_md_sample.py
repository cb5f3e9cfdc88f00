"""`reportgen review sample --task audit|calibration` on multidomain rounds, and --dry-run.

The expected audit draw is computed here from the archive's files alone, as metrics §7
words it (per domain × language of active open test items, the first
n = min(size, max(3, ⌈size/10⌉)) by (sha256(seed:item_id), item_id); every status-ok
response of a drawn item), without the kind's code.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from reportgen.cli import main
from reportgen.kinds.multidomain.review.round import read_md_round
from reportgen.kinds.multidomain.review.sampling import create_rubric_batch
from reportgen.kinds.rounds import read_round
from review_app.core.db import assignments, batches, make_engine, samples
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import sample_keys
from review_app.rounds.sampling import draw_sample
from tests.factories import make_round
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login
from tests.review.multidomain import audit_batch, tiny_before_audit

DEMO = Path(__file__).resolve().parents[1] / "examples" / "multidomain" / "rounds" / "reg-2026-1"


def _spec_draw(round_dir: Path) -> list[tuple[str, str, int]]:
    """Metrics §7's audit draw and audited responses, from the files."""
    manifest = json.loads((round_dir / "round.json").read_text(encoding="utf-8"))
    rules = manifest["multidomain"]["audit"]
    num, _, den = str(rules["fraction"]).partition("/")
    items = pq.read_table(round_dir / "items.parquet").to_pylist()
    replaced = {row["variant_of"] for row in items if row["variant_of"]}
    strata: dict[tuple[str, str], list[str]] = defaultdict(list)
    for row in items:
        if not row["calibration"] and row["type"] == "open" and row["item_id"] not in replaced:
            strata[(row["domain_id"], row["language"])].append(row["item_id"])
    drawn: set[str] = set()
    for members in strata.values():
        size = len(members)
        n = min(size, max(rules["min_per_stratum"], math.ceil(size * int(num) / int(den or 1))))

        def rank(item_id: str) -> tuple[str, str]:
            digest = hashlib.sha256(f"{rules['seed']}:{item_id}".encode()).hexdigest()
            return (digest, item_id)

        drawn.update(sorted(members, key=rank)[:n])
    audited = []
    for path in sorted((round_dir / "responses").glob("*.parquet")):
        for row in pq.read_table(
            path, columns=["item_id", "model_id", "run", "status"]
        ).to_pylist():
            if row["item_id"] in drawn and row["status"] == "ok":
                audited.append((row["item_id"], row["model_id"], row["run"]))
    return sorted(audited)


def _csv_rows(output: str) -> list[tuple[str, str, int]]:
    lines = output.strip().splitlines()
    assert lines[0] == "item_id,model_id,run"
    rows = [line.split(",") for line in lines[1:]]
    return sorted((item, model, int(run)) for item, model, run in rows)


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(main, ["review", "sample", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _folder_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_dry_run_of_the_tiny_round_is_the_spec_draw_and_writes_nothing(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path / "rounds")
    before = _folder_bytes(tmp_path)
    db = tmp_path / "review.db"
    output = _invoke(str(round_dir), "--task", "audit", "--dry-run", "--db", f"sqlite:///{db}")
    assert _csv_rows(output) == _spec_draw(round_dir)
    assert {row[0] for row in _csv_rows(output)} == {"i3", "i7"}
    assert len(_csv_rows(output)) == 6
    assert not db.exists()
    assert _folder_bytes(tmp_path) == before


def test_dry_run_of_the_demonstration_round_is_the_spec_draw(tmp_path: Path) -> None:
    db = tmp_path / "review.db"
    output = _invoke(str(DEMO), "--task", "audit", "--dry-run", "--db", f"sqlite:///{db}")
    expected = _spec_draw(DEMO)
    assert _csv_rows(output) == expected
    assert len({row[0] for row in expected}) == 63
    assert not db.exists()


def test_calibration_dry_run_lists_every_calibration_response(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path)
    output = _invoke(str(round_dir), "--task", "calibration", "--dry-run")
    assert output.splitlines() == [
        "item_id,response_id",
        "cal-en,cal-en-r1",
        "cal-pt,cal-pt-r1",
        "cal-zh,cal-zh-r1",
    ]


def test_estigmas_dry_run_prints_the_draw_and_writes_nothing(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    db = tmp_path / "review.db"
    output = _invoke(str(round_dir), "--seed", "3", "--dry-run", "--db", f"sqlite:///{db}")
    lines = output.splitlines()
    assert lines[0] == "item_id,model_id"
    assert len(lines) > 1
    assert not db.exists()
    # The same draw, in the same order, as the batch `sample` stores with this seed.
    drawn = draw_sample(read_round(round_dir), fraction=0.1, min_per_stratum=3, seed=3)
    assert lines[1:] == [f"{unit.item_id},{unit.model_id}" for unit in drawn]


@pytest.mark.parametrize("task", [[], ["--task", "extraction"], ["--task", "verdict"]])
def test_a_multidomain_round_needs_one_of_its_tasks(task: list[str], tmp_path: Path) -> None:
    """No task, or another kind's: the multidomain part refuses it (the option takes any
    name, since each kind's review part brings its own tasks)."""
    round_dir = tiny_before_audit(tmp_path)
    result = CliRunner().invoke(main, ["review", "sample", str(round_dir), "--dry-run", *task])
    assert result.exit_code == 2
    assert "a multidomain round needs audit or calibration" in result.output


def test_an_estigmas_round_has_no_task(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    result = CliRunner().invoke(
        main, ["review", "sample", str(round_dir), "--seed", "1", "--task", "audit"]
    )
    assert result.exit_code == 2
    assert "--task: estigmas rounds have no task; the kinds with tasks:" in result.output
    assert "multidomain (audit, calibration), counterfactual (calibration, extraction)" in (
        " ".join(result.output.split())
    )


@pytest.mark.parametrize("kind", KINDS)
def test_audit_batch_gives_each_response_one_reviewer(kind: str, tmp_path: Path) -> None:
    engine = fresh_database(kind, tmp_path)
    for name in ("ana", "bruno"):
        add_and_login(engine, name)
    round_dir = tiny_before_audit(tmp_path)
    batch_id = audit_batch(engine, round_dir)
    with engine.connect() as connection:
        keys = connection.execute(
            select(sample_keys.c.item_id, sample_keys.c.model_id, sample_keys.c.run)
        ).all()
        reviewers_per_sample = connection.execute(
            select(func.count(assignments.c.reviewer_id)).group_by(assignments.c.sample_id)
        ).scalars()
        task = connection.execute(
            select(batches.c.task_type).where(batches.c.batch_id == batch_id)
        ).scalar()
        languages = set(connection.execute(select(samples.c.language)).scalars())
    assert sorted(tuple(k) for k in keys) == _spec_draw(round_dir)
    assert set(reviewers_per_sample) == {1}
    assert task == "audit"
    assert languages == {"pt-BR", "zh"}
    engine.dispose()


@pytest.mark.parametrize("kind", KINDS)
def test_calibration_batch_gives_each_response_the_two_reviewers(kind: str, tmp_path: Path) -> None:
    engine = fresh_database(kind, tmp_path)
    for name in ("ana", "bruno", "carla"):
        add_and_login(engine, name)
    round_ = read_md_round(tiny_before_audit(tmp_path))
    create_rubric_batch(engine, round_, task_type="calibration", seed=2, reviewers=["ana", "bruno"])
    with engine.connect() as connection:
        unit_keys = sorted(connection.execute(select(sample_keys.c.unit_key)).scalars())
        counts = set(
            connection.execute(
                select(func.count(assignments.c.reviewer_id)).group_by(assignments.c.sample_id)
            ).scalars()
        )
    assert unit_keys == ["cal-en-r1", "cal-pt-r1", "cal-zh-r1"]
    assert counts == {2}
    engine.dispose()


@pytest.mark.parametrize("kind", KINDS)
def test_a_second_audit_batch_is_refused(kind: str, tmp_path: Path) -> None:
    engine = fresh_database(kind, tmp_path)
    add_and_login(engine, "ana")
    round_dir = tiny_before_audit(tmp_path)
    audit_batch(engine, round_dir, seed=5)
    with pytest.raises(ReviewInputError) as caught:
        audit_batch(engine, round_dir, seed=6)
    assert caught.value.key == "md_error_task_drawn"
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(batches)).scalar() == 1
    engine.dispose()


def test_the_cli_stores_the_audit_batch(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path / "rounds")
    db = f"sqlite:///{tmp_path / 'review.db'}"
    CliRunner().invoke(main, ["review", "init", "--db", db])
    CliRunner().invoke(main, ["review", "add-reviewer", "ana", "--db", db])
    output = _invoke(str(round_dir), "--task", "audit", "--seed", "4", "--db", db)
    # One line: how many samples, for whom, and that the batch waits for its leak review.
    (line,) = output.strip().splitlines()
    engine = make_engine(db)
    with engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(samples)).scalar_one()
    engine.dispose()
    assert line.startswith(
        f"Batch 1 (audit) of round tiny-2026-11 created: {count} samples drawn; "
        f"per reviewer: ana {count}. Held: no reviewer sees it until an administrator"
    )
    assert "reportgen review release-batch 1" in line


def test_a_stored_multidomain_batch_needs_a_seed(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path / "rounds")
    db = tmp_path / "review.db"
    result = CliRunner().invoke(
        main, ["review", "sample", str(round_dir), "--task", "audit", "--db", f"sqlite:///{db}"]
    )
    assert result.exit_code == 2
    assert "--seed" in result.output
    assert not db.exists()
