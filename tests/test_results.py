"""The results object: JSON form, determinism, cache, intervals for `summary --json`, CLI."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # altair's dependency; no stubs installed
import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from reportgen.cli import main
from reportgen.errors import InputError
from reportgen.kinds.estigmas.archive import read_round, write_round
from reportgen.kinds.estigmas.model import ResponseRow, Round
from reportgen.kinds.estigmas.results import (
    CACHE_ENV,
    SCHEMA,
    RoundResults,
    cache_key,
    compute_results,
    default_cache_dir,
    load_results,
    model_intervals,
    published_json_schema_text,
    results_json_schema_text,
)
from reportgen.kinds.estigmas.score import scored_items
from reportgen.kinds.estigmas.stats.bootstrap import (
    MODEL_STATISTICS,
    draw_replicates,
    percentile_interval,
)
from reportgen.kinds.schemas import main as main_schema_script
from tests.factories import make_round
from tests.support.reference import reference_replicates
from tests.support.synthetic import random_round


def write_archive(round_: Round, parent: Path) -> Path:
    """Write an in-memory round as a verified archive under `parent`."""
    dest = parent / round_.round_id
    write_round(
        dest,
        manifest=round_.manifest,
        models=round_.models,
        stigmas=round_.stigmas,
        structures=round_.structures,
        items=round_.items,
        responses={
            model.model_id: [
                ResponseRow(
                    item.item_id,
                    model.model_id,
                    round_.responses[model.model_id].raw_text[k],
                    round_.responses[model.model_id].label(k),
                )
                for k, item in enumerate(round_.items)
            ]
            for model in round_.models
        },
    )
    return dest


def small_random_round(seed: int = 17, replicates: int = 300) -> Round:
    return random_round(
        seed, models=4, stigmas=14, structures=6, cells=60, pairs=40, replicates=replicates
    )


@pytest.fixture(scope="module")
def results() -> RoundResults:
    return compute_results(small_random_round())


def test_json_form_round_trips_and_is_plain_json(results: RoundResults) -> None:
    text = json.dumps(results.to_json_dict(), allow_nan=False)
    data = json.loads(text)
    assert data["schema"] == SCHEMA
    assert list(data) == [field.alias or name for name, field in RoundResults.model_fields.items()]
    assert RoundResults.from_json_dict(data) == results
    assert RoundResults.model_validate_json(text) == results


def test_from_json_rejects_another_schema_or_a_missing_field(results: RoundResults) -> None:
    data = results.to_json_dict()
    with pytest.raises(ValueError, match="schema"):
        RoundResults.from_json_dict({**data, "schema": "reportgen-results/0"})
    del data["peril"]
    with pytest.raises(ValidationError, match="peril"):
        RoundResults.from_json_dict(data)


def test_from_json_checks_the_nested_values_strictly(results: RoundResults) -> None:
    data = results.to_json_dict()
    first_model = data["models"][0]
    unknown_key = {**data, "models": [{**first_model, "extra": 1}, *data["models"][1:]]}
    with pytest.raises(ValidationError, match=r"models\.0\.extra"):
        RoundResults.from_json_dict(unknown_key)
    text_count = {**data, "models": [{**first_model, "N": "7626"}, *data["models"][1:]]}
    with pytest.raises(ValidationError, match=r"models\.0\.N"):
        RoundResults.from_json_dict(text_count)
    fractional_count = {**data, "replicates": 300.5}
    with pytest.raises(ValidationError, match="replicates"):
        RoundResults.from_json_dict(fractional_count)


def test_results_json_is_valid_against_the_published_schema(results: RoundResults) -> None:
    schema = json.loads(published_json_schema_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate(results.to_json_dict())
    broken = {**results.to_json_dict(), "seed": "42"}
    assert not validator.is_valid(broken)


def test_the_published_schema_file_is_generated_from_the_models() -> None:
    # Stale? Run `python -m reportgen.kinds.schemas estigmas` and commit the file.
    assert published_json_schema_text() == results_json_schema_text()
    assert main_schema_script(["--check", "estigmas"]) == 0


def test_same_seed_same_round_gives_identical_results_bit_for_bit() -> None:
    first = json.dumps(compute_results(small_random_round()).to_json_dict())
    second = json.dumps(compute_results(small_random_round()).to_json_dict())
    assert first == second
    other_seed = json.dumps(compute_results(small_random_round(replicates=301)).to_json_dict())
    assert other_seed != first


def test_differences_cover_every_pair_and_adjacent_follows_the_ranking(
    results: RoundResults,
) -> None:
    ids = [m.model_id for m in results.models]
    pairs = {(d.model_a, d.model_b): d for d in results.differences}
    assert set(pairs) == {(a, b) for a in ids for b in ids if a != b}
    for (a, b), difference in pairs.items():
        mirror = pairs[b, a]
        assert mirror.estimate == pytest.approx(-difference.estimate)
        assert (mirror.lower, mirror.upper) == pytest.approx((-difference.upper, -difference.lower))  # type: ignore[operator]
        assert difference.separated == (difference.lower > 0 or difference.upper < 0)  # type: ignore[operator]
    ranked = [m.model_id for m in results.models if m.rank is not None]
    assert [(d.model_a, d.model_b) for d in results.adjacent] == list(itertools.pairwise(ranked))


def test_model_intervals_match_an_independent_reference_bootstrap(tmp_path: Path) -> None:
    round_dir = write_archive(small_random_round(replicates=2000), tmp_path)
    round_ = read_round(round_dir, with_text=False)
    intervals = model_intervals(load_results(round_, cache_dir=tmp_path / "cache"))
    items = scored_items(round_)
    stigmas, structures = len(set(items.stigma_index)), len(set(items.structure_index))
    reference = reference_replicates(items, draw_replicates(99, 1000, stigmas, structures))
    for m, model in enumerate(round_.models):
        assert set(intervals[model.model_id]) == set(MODEL_STATISTICS)
        for name in MODEL_STATISTICS:
            low, high = (float(v[0]) for v in percentile_interval(reference[name][:, m, None]))
            fast_low, fast_high = intervals[model.model_id][name]
            tolerance = 0.25 * (high - low)  # several Monte Carlo standard errors
            assert fast_low == pytest.approx(low, abs=tolerance), (model.model_id, name)
            assert fast_high == pytest.approx(high, abs=tolerance), (model.model_id, name)


def test_cache_is_reused_corrupt_entries_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_ = read_round(make_round(tmp_path))
    cache = tmp_path / "cache"
    first = load_results(round_, replicates=50, cache_dir=cache)
    (entry,) = cache.glob("results-*.json")
    assert entry.name == f"results-{cache_key(round_, 50)}.json"

    def fail(*args: object) -> RoundResults:
        raise AssertionError("recomputed although the cache holds the results")

    monkeypatch.setattr("reportgen.kinds.estigmas.results._compute.compute_results", fail)
    assert load_results(round_, replicates=50, cache_dir=cache) == first
    monkeypatch.undo()
    entry.write_text('{"schema": "reportgen-results/1", "round_id": 3', encoding="utf-8")
    assert load_results(round_, replicates=50, cache_dir=cache) == first
    assert RoundResults.from_json_dict(json.loads(entry.read_text(encoding="utf-8"))) == first


def _made(parent: Path, annul: tuple[str, ...] = ()) -> Round:
    parent.mkdir()
    return read_round(make_round(parent, annul=list(annul)))


def test_cache_key_follows_ledger_replicates_and_archive(tmp_path: Path) -> None:
    plain = _made(tmp_path / "a")
    annulled = _made(tmp_path / "b", ("i-005",))
    keys = {cache_key(plain, 50), cache_key(plain, 51), cache_key(annulled, 50)}
    assert len(keys) == 3
    assert cache_key(_made(tmp_path / "c"), 50) == cache_key(plain, 50)


def test_cache_dir_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "elsewhere"))
    assert default_cache_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv(CACHE_ENV)
    assert default_cache_dir() == Path.home() / ".cache" / "reportgen"


def test_annulled_items_leave_every_computation(tmp_path: Path) -> None:
    plain = compute_results(_made(tmp_path / "a"), 50)
    annulled = compute_results(_made(tmp_path / "b", ("i-005",)), 50)
    assert {m.N for m in annulled.models} == {m.N - 1 for m in plain.models}
    assert {i.failure.denominator_count for i in annulled.intervals} == {plain.models[0].N - 1}


def test_cli_writes_the_results_object(tmp_path: Path) -> None:
    round_dir = write_archive(small_random_round(replicates=200), tmp_path)
    out = tmp_path / "results.json"
    runner = CliRunner()
    arguments = ["stats", str(round_dir), "--out", str(out), "--cache-dir", str(tmp_path / "c")]
    result = runner.invoke(main, arguments)
    assert result.exit_code == 0, result.output
    written = RoundResults.from_json_dict(json.loads(out.read_text(encoding="utf-8")))
    assert written == compute_results(read_round(round_dir))
    arguments = ["stats", str(round_dir), "--no-cache", "--replicates", "20", "--draft"]
    fresh = runner.invoke(main, arguments)
    assert fresh.exit_code == 0, fresh.output
    assert json.loads(fresh.stdout)["replicates"] == 20


def test_cli_reports_a_bad_round_without_traceback(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["stats", str(tmp_path / "missing"), "--no-cache"])
    assert result.exit_code == 1
    assert "Error:" in result.stderr
    assert "Traceback" not in result.output


def test_continuous_round_with_annulments_uses_the_same_code(tmp_path: Path) -> None:
    round_ = read_round(make_round(tmp_path, variant="continuous", annul=["i-002", "i-009"]))
    results = compute_results(round_, 40)
    assert results.kind == "continuous"
    assert {m.N for m in results.models} == {34}
    assert RoundResults.from_json_dict(results.to_json_dict()) == results


def test_degenerate_rounds_give_reasons_not_errors() -> None:
    single = compute_results(random_round(3, models=1, stigmas=6, structures=4, cells=20, pairs=0))
    assert single.correlation.reason == "needs at least 3 models, found 1"
    assert single.mcnemar == ()
    assert single.differences == ()
    assert single.language.pairs == 0
    assert all(r.lower is None and r.mean_pt is None for r in single.language.regimes)
    cautious = random_round(3, models=3, stigmas=6, structures=4, cells=20, pairs=5)
    nobody_eligible = replace(cautious, manifest=replace(cautious.manifest, max_omission=0.0))
    results = compute_results(nobody_eligible, 30)
    assert all(m.rank is None for m in results.models)
    assert results.adjacent == ()
    assert results.leave_one_stigma_out.ranges == ()


def test_cli_reports_an_unwritable_output_and_zero_replicates(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    runner = CliRunner()
    arguments = ["stats", str(round_dir), "--no-cache", "--replicates", "5", "--draft"]
    result = runner.invoke(main, [*arguments, "--out", str(blocked / "results.json")])
    assert result.exit_code == 1
    assert "cannot write the results" in result.stderr
    assert "Traceback" not in result.output
    round_ = read_round(round_dir)
    with pytest.raises(InputError, match=r"bootstrap\.replicates"):
        compute_results(round_, 0)


def test_results_do_not_depend_on_blas_threads() -> None:
    # Weighted totals are exact integers, so the BLAS summation order cannot show. A round
    # this small runs on one BLAS thread (reportgen.stats.blas_threads): the script lifts
    # that bound, so that the library's own two threads are used where they are asked for.
    script = (
        "import hashlib, json\n"
        "import reportgen.stats._threads as threads\n"
        "from reportgen.kinds.estigmas.results import compute_results\n"
        "threads.SMALL_WORK = -1\n"
        "from tests.support.synthetic import random_round\n"
        "round_ = random_round(5, models=5, stigmas=40, structures=12, cells=300, pairs=80)\n"
        "text = json.dumps(compute_results(round_, 1000).to_json_dict())\n"
        "print(hashlib.sha256(text.encode()).hexdigest())\n"
    )
    digests = set()
    for threads in ("1", "2"):
        environment = {**os.environ, "OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads}
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=environment,
            cwd=Path(__file__).resolve().parents[1],  # tests.support is found from the root
        )
        assert done.returncode == 0, done.stderr
        digests.add(done.stdout.strip())
    assert len(digests) == 1


def test_results_without_text_never_answer_for_a_round_read_with_text(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    with_text = read_round(round_dir, with_text=True)
    without_text = read_round(round_dir, with_text=False)
    assert cache_key(with_text, 50) != cache_key(without_text, 50)
    cache = tmp_path / "cache"
    load_results(without_text, replicates=50, cache_dir=cache)
    full = load_results(with_text, replicates=50, cache_dir=cache)
    tests = [m.wilcoxon_p for m in full.language.models]
    assert tests == [
        m.wilcoxon_p for m in compute_results(with_text, replicates=50).language.models
    ]
