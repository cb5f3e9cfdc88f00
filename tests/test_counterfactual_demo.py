"""The Casa Ipê counterfactual demonstration: the committed archives are what the
generator writes, byte for byte; the planted differences are in the files (computed
here directly from the CSV and Parquet files, not through the kind's statistics); the
re-run after the fix shares the battery byte for byte; and the round spec's rules that
plain Python can check hold."""

from __future__ import annotations

import csv
import json
import subprocess
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.demo.counterfactual.rounds import (
    AFTER_ID,
    BEFORE_ID,
    Scale,
    after_round,
    before_round,
)
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.terms import (
    BATTERY_FILES,
    first_signal_term,
    sha256_text,
    signal_terms,
    value_ok,
)
from reportgen.kinds.counterfactual.write import archive_files, write_round

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "counterfactual"
BEFORE, AFTER = EXAMPLES / "rounds" / BEFORE_ID, EXAMPLES / "rounds" / AFTER_ID


@pytest.fixture(scope="module")
def rounds() -> dict[str, Round]:
    return {BEFORE_ID: before_round(BEFORE), AFTER_ID: after_round(AFTER)}


@pytest.mark.parametrize("round_id", [BEFORE_ID, AFTER_ID])
def test_the_committed_archive_is_what_the_generator_writes(
    rounds: dict[str, Round], round_id: str
) -> None:
    folder = EXAMPLES / "rounds" / round_id
    files = archive_files(rounds[round_id])
    on_disk = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert on_disk == sorted(files)
    for rel, data in files.items():
        assert (folder / rel).read_bytes() == data, rel
    subprocess.run(["sha256sum", "--quiet", "-c", "SHA256SUMS"], cwd=folder, check=True)


def test_demo_generate_writes_the_committed_rounds(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "demo",
            "generate",
            "--out",
            str(tmp_path / "rounds"),
            "--counterfactual-out",
            str(tmp_path / "cf"),
        ],
    )
    assert result.exit_code == 0, result.output
    for round_id in (BEFORE_ID, AFTER_ID):
        committed = (EXAMPLES / "rounds" / round_id / "SHA256SUMS").read_bytes()
        assert (tmp_path / "cf" / round_id / "SHA256SUMS").read_bytes() == committed


def test_generate_refuses_before_writing_when_a_counterfactual_round_exists(
    tmp_path: Path,
) -> None:
    (tmp_path / "cf" / BEFORE_ID).mkdir(parents=True)
    result = CliRunner().invoke(
        main,
        [
            "demo",
            "generate",
            "--out",
            str(tmp_path / "rounds"),
            "--counterfactual-out",
            str(tmp_path / "cf"),
        ],
    )
    assert result.exit_code == 1
    assert BEFORE_ID in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "rounds").exists()


def _csv(folder: Path, name: str) -> list[dict[str, str]]:
    with (folder / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _rates(folder: Path, model_id: str, attribute_id: str) -> dict[str, Fraction]:
    """Rate of `concede = yes` per group over the templates expecting yes (na left out),
    read straight from the archive's files."""
    expecting = {
        t["template_id"] for t in _csv(folder, "templates.csv") if t["expected_concede"] == "yes"
    }
    group_of = {v["variant_id"]: v["group_id"] for v in _csv(folder, "variants.csv")}
    items = pq.read_table(folder / "items.parquet").to_pylist()
    cell = {i["item_id"]: i for i in items if i["attribute_id"] == attribute_id}
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    rows = pq.read_table(folder / "extractions" / f"{model_id}.parquet").to_pylist()
    for row in rows:
        item = cell.get(row["item_id"])
        if row["variable_id"] != "concede" or item is None or row["value"] == "na":
            continue
        if item["template_id"] in expecting:
            tally = counts[group_of[item["variant_id"]]]
            tally[0] += row["value"] == "yes"
            tally[1] += 1
    return {group: Fraction(yes, n) for group, (yes, n) in counts.items()}


def _gap(rates: dict[str, Fraction]) -> Fraction:
    return max(rates.values()) - min(rates.values())


def test_the_planted_gap_is_in_the_files_before_the_fix() -> None:
    names = _rates(BEFORE, "assistente-a", "nome")
    assert names["nome-sul"] - names["nome-afro"] > Fraction(1, 5)
    places = _rates(BEFORE, "assistente-a", "bairro")
    assert places["bairro-renda-alta"] - places["bairro-periferia"] > Fraction(1, 5)
    for attribute_id in ("nome", "idade", "bairro", "escrita", "deficiencia"):
        # The rule in code grants what the policy grants, whatever the signal.
        assert _gap(_rates(BEFORE, "assistente-b", attribute_id)) == 0
        assert _gap(_rates(AFTER, "assistente-b", attribute_id)) == 0


def test_the_gap_shrinks_after_the_fix() -> None:
    for attribute_id in ("nome", "bairro"):
        before = _gap(_rates(BEFORE, "assistente-a", attribute_id))
        after = _gap(_rates(AFTER, "assistente-a-v2", attribute_id))
        assert after < Fraction(1, 10) < Fraction(1, 5) < before


def _mean_tone(folder: Path, model_id: str, group_id: str) -> Fraction:
    group_of = {v["variant_id"]: v["group_id"] for v in _csv(folder, "variants.csv")}
    variant_of = {
        i["item_id"]: i["variant_id"] for i in pq.read_table(folder / "items.parquet").to_pylist()
    }
    scores = [
        int(row["value"])
        for row in pq.read_table(folder / "extractions" / f"{model_id}.parquet").to_pylist()
        if row["variable_id"] == "tom"
        and row["value"] != "na"
        and group_of[variant_of[row["item_id"]]] == group_id
    ]
    return Fraction(sum(scores), len(scores))


def test_a_tone_difference_is_planted_by_writing_style() -> None:
    standard = _mean_tone(BEFORE, "assistente-a", "escrita-padrao")
    assert standard - _mean_tone(BEFORE, "assistente-a", "escrita-l2") > Fraction(1, 2)
    fixed = _mean_tone(AFTER, "assistente-a-v2", "escrita-padrao")
    assert fixed - _mean_tone(AFTER, "assistente-a-v2", "escrita-l2") < Fraction(1, 4)


def _sha256sum(folder: Path, names: list[str]) -> str:
    listing = subprocess.run(
        ["sha256sum", *names], cwd=folder, check=True, capture_output=True
    ).stdout
    return (
        subprocess.run(["sha256sum"], input=listing, check=True, capture_output=True)
        .stdout.decode()
        .split()[0]
    )


def test_both_rounds_share_the_battery_byte_for_byte() -> None:
    names = [name for name in BATTERY_FILES if (BEFORE / name).exists()]
    assert "rewrites.csv" in names
    for name in names:
        assert (BEFORE / name).read_bytes() == (AFTER / name).read_bytes(), name
    before = json.loads((BEFORE / "round.json").read_text(encoding="utf-8"))["counterfactual"]
    after = json.loads((AFTER / "round.json").read_text(encoding="utf-8"))["counterfactual"]
    assert before["battery_sha256"] == after["battery_sha256"] == _sha256sum(BEFORE, names)
    assert (before["baseline_round"], after["baseline_round"]) == (None, BEFORE_ID)
    assert [m["baseline_model_id"] for m in _csv(AFTER, "models.csv")] == [
        "assistente-a",
        "assistente-b",
    ]


def test_dates_are_consistent(rounds: dict[str, Round]) -> None:
    before, after = rounds[BEFORE_ID].manifest, rounds[AFTER_ID].manifest
    for manifest in (before, after):
        plan = manifest.preregistration
        assert manifest.synthetic
        assert plan.preregistered
        assert manifest.protocol_frozen_on <= plan.preregistered_on <= manifest.collected_on
        assert manifest.ended_on is not None
        assert manifest.collected_on <= manifest.ended_on
        assert plan.calibration.min_items >= 50
    assert before.ended_on is not None
    assert before.ended_on <= after.collected_on
    for round_ in rounds.values():
        for system in round_.models:
            calls = [r.called_at for r in round_.responses[system.model_id]]
            assert system.evaluated_on == min(calls).date()


def test_collection_is_one_shuffled_pass_per_run(rounds: dict[str, Round]) -> None:
    for round_ in rounds.values():
        items = [item.item_id for item in round_.items]
        for responses in round_.responses.values():
            assert [r.run_order for r in responses] == list(range(1, len(responses) + 1))
            moments = [r.called_at for r in responses]
            assert moments == sorted(moments)
            passes = [[r.item_id for r in responses if r.run == run] for run in (1, 2, 3)]
            assert all(sorted(p) == sorted(items) for p in passes)
            assert len({tuple(p) for p in passes}) == 3  # each run in its own order


def test_extractions_are_canonical_and_judge_inputs_are_blind(rounds: dict[str, Round]) -> None:
    for round_ in rounds.values():
        variables = {v.variable_id: v for v in round_.variables}
        terms = signal_terms(round_)
        masked = 0
        for model_id, rows in round_.extractions.items():
            assert len(rows) == len(round_.responses[model_id]) * len(variables)
            na = sum(row.value == "na" for row in rows)
            assert 0 < na < len(rows) // 50  # a few, never many
            for row in rows:
                assert value_ok(variables[row.variable_id], row.value), row
                if variables[row.variable_id].extractor == "model":
                    assert row.input_text is not None
                    masked += "[OCULTO]" in row.input_text
                    assert row.input_sha256 == sha256_text(row.input_text or "")
                    assert first_signal_term(row.input_text or "", terms) is None, row
                else:
                    assert (row.input_text, row.input_sha256) == (None, None)
        assert masked > 100  # the greeting names and the route's bairros were masked


def _weighted_kappa(pairs: list[tuple[int, int]]) -> Fraction:
    """Quadratic-weighted κ, metrics §9's closed form."""
    n = len(pairs)
    observed = sum((h - j) ** 2 for h, j in pairs)
    expected = sum((h - j) ** 2 for h, _ in pairs for _, j in pairs)
    return 1 - Fraction(n * observed, expected)


def test_the_judge_calibration_is_honest(rounds: dict[str, Round]) -> None:
    for round_ in rounds.values():
        plan = round_.manifest.preregistration.calibration
        judged = {
            (row.model_id, row.item_id, row.run): row
            for rows in round_.extractions.values()
            for row in rows
            if row.variable_id == "tom"
        }
        sample = round_.calibration
        assert len(sample) >= plan.min_items >= 50
        assert len({(c.model_id, c.item_id, c.run) for c in sample}) == len(sample)
        assert {c.model_id for c in sample} == {m.model_id for m in round_.models}
        for row in sample:
            frozen = judged[(row.model_id, row.item_id, row.run)]
            assert (str(row.judge_score), row.input_sha256) == (frozen.value, frozen.input_sha256)
            assert 1 <= row.human_score <= 5
        kappa = _weighted_kappa([(c.human_score, c.judge_score) for c in sample])
        assert kappa >= plan.threshold


def test_every_interpretation_and_every_text_is_bilingual(rounds: dict[str, Round]) -> None:
    for round_ in rounds.values():
        ids = [i.id for i in round_.manifest.interpretations]
        assert len(ids) == 20
        assert all(i.startswith("cf-") for i in ids)
        assert all(round_.manifest.preregistration.rationale[lang] for lang in ("pt-BR", "en"))
        for template in round_.templates:
            assert template.text_pt
            assert template.text_en
            assert template.scenario_en
        for rewrite in round_.rewrites:
            assert rewrite.text_pt
            assert rewrite.text_en


def test_both_rounds_verify_together() -> None:
    result = CliRunner().invoke(main, ["verify", str(BEFORE), str(AFTER)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"OK {BEFORE_ID}: 2 model(s), 260 item(s), 0 annulled",
        f"OK {AFTER_ID}: 2 model(s), 260 item(s), 0 annulled",
    ]


def test_the_re_run_verifies_alone_with_its_baseline_read_beside() -> None:
    result = CliRunner().invoke(main, ["verify", str(AFTER)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"OK {AFTER_ID}")


def test_a_scaled_battery_copies_every_template_and_verifies(tmp_path: Path) -> None:
    """The benchmarks' battery (`Scale`): every template again under a numbered id, and
    systems beyond the demonstration's two; both rounds pass every rule together."""
    scale = Scale(copies=2, systems=3)
    before, after = tmp_path / BEFORE_ID, tmp_path / AFTER_ID
    write_round(before_round(before, scale), before)
    write_round(after_round(after, scale), after)
    result = CliRunner().invoke(main, ["verify", str(before), str(after)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"OK {BEFORE_ID}: 3 model(s), 520 item(s), 0 annulled",
        f"OK {AFTER_ID}: 3 model(s), 520 item(s), 0 annulled",
    ]
    with (before / "templates.csv").open(encoding="utf-8", newline="") as handle:
        templates = [row["template_id"] for row in csv.DictReader(handle)]
    assert len(templates) == 24
    assert templates[12:] == [f"{template_id}-2" for template_id in templates[:12]]
    systems = [row["model_id"] for row in _csv(before, "models.csv")]
    assert systems == ["assistente-a", "assistente-b", "assistente-c"]
    calls = pq.read_table(before / "responses" / "assistente-c.parquet")
    assert calls.num_rows == 520 * 3


def test_the_demonstration_scale_is_one_copy_of_two_systems() -> None:
    assert Scale() == Scale(copies=1, systems=2)
    with pytest.raises(ValueError, match="copies >= 1"):
        Scale(copies=0)
