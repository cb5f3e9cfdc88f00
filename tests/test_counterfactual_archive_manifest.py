"""round.json of a counterfactual archive, models.csv and the per-system folders
(counterfactual-round.md, refusals 1 to 14): each broken rule is one line naming the
file and the key or row, `reportgen verify` exits 1, and nothing is written."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.counterfactual.model import VariablePlan
from reportgen.kinds.counterfactual.terms import sha256_text
from reportgen.kinds.rounds import read_round, verify_round
from tests.factories.counterfactual import (
    assert_refused,
    edit_manifest,
    refresh_checksums,
    replace_row,
    small_round,
    with_manifest,
    with_plan,
    write,
)

RJ = "round.json"
PLAN = "counterfactual.preregistration"


def _edit_json(round_dir: Path, path: tuple[str, ...], value: Any) -> None:
    """Set (or, with value ..., delete) one nested key of round.json, then SHA256SUMS."""
    manifest = round_dir / RJ
    data = json.loads(manifest.read_text("utf-8"))
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is ...:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    manifest.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    refresh_checksums(round_dir)


def test_the_small_round_is_valid_and_written_the_same_twice(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = write(small_round(), tmp_path / "a")
    second = write(small_round(), tmp_path / "b")
    assert verify_round(first) == []
    for path in sorted(p for p in first.rglob("*") if p.is_file()):
        assert path.read_bytes() == (second / path.relative_to(first)).read_bytes(), path
    round_ = read_round(first)
    assert round_.manifest.preregistration.alpha == Fraction(1, 20)  # type: ignore[attr-defined]


# --- 1, 2 -----------------------------------------------------------------------------


def test_an_unknown_block_key_is_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    edit_manifest(round_dir, limitations={"pt-BR": "x", "en": "x"})
    assert_refused(round_dir, RJ, "counterfactual.limitations", "unknown key")


def test_a_missing_block_key_is_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    _edit_json(round_dir, ("counterfactual", "mask_token"), ...)
    assert_refused(round_dir, RJ, "counterfactual.mask_token", "missing key")


def test_a_missing_block_is_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    _edit_json(round_dir, ("counterfactual",), ...)
    assert_refused(round_dir, RJ, "counterfactual", "missing kind block")


def test_one_repetition_is_refused(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), repetitions=1), tmp_path)
    assert_refused(round_dir, RJ, "counterfactual.repetitions", "expected an integer >= 2")


# --- 3 ---------------------------------------------------------------------------------


def test_a_wrong_battery_sha256_is_refused(tmp_path: Path) -> None:
    round_ = with_manifest(small_round(), battery_sha256="a" * 64)
    round_dir = write(round_, tmp_path, rehash=False)
    assert_refused(round_dir, RJ, "counterfactual.battery_sha256", "sha256sum")


def test_a_byte_changed_in_a_battery_file_changes_the_battery(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    templates = round_dir / "templates.csv"
    templates.write_bytes(templates.read_bytes().replace(b"Cancelamento", b"Cancelamentos"))
    refresh_checksums(round_dir)
    assert_refused(round_dir, RJ, "counterfactual.battery_sha256", "sha256sum")


def test_battery_sha256_is_what_coreutils_prints(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    names = ["attributes.csv", "groups.csv", "rewrites.csv", "templates.csv"]
    names += ["variables.csv", "variants.csv"]
    listing = "".join(
        f"{sha256_text((round_dir / n).read_bytes().decode('utf-8'))}  {n}\n" for n in names
    )
    data = json.loads((round_dir / RJ).read_text("utf-8"))
    assert data["counterfactual"]["battery_sha256"] == sha256_text(listing)


# --- 4 to 10: the preregistration -------------------------------------------------------


def test_a_plan_fixed_after_collection_began_is_refused(tmp_path: Path) -> None:
    round_dir = write(with_plan(small_round(), preregistered_on=date(2026, 3, 3)), tmp_path)
    assert_refused(round_dir, RJ, f"{PLAN}.preregistered_on", "after collected_on")


def test_a_late_plan_is_allowed_when_labelled_not_preregistered(tmp_path: Path) -> None:
    round_ = with_plan(small_round(), preregistered_on=date(2026, 3, 3), status="not_preregistered")
    assert verify_round(write(round_, tmp_path)) == []


def test_a_protocol_frozen_after_collection_is_refused(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), protocol_frozen_on=date(2026, 3, 3)), tmp_path)
    assert_refused(round_dir, RJ, "protocol_frozen_on", "on or before collected_on")


def test_preregistered_variables_must_be_those_of_variables_csv(tmp_path: Path) -> None:
    plan = small_round().manifest.preregistration
    variables = {k: v for k, v in plan.variables.items() if k != "opcoes"}
    round_dir = write(with_plan(small_round(), variables=variables), tmp_path)
    assert_refused(round_dir, RJ, f"{PLAN}.variables", "missing ['opcoes']")


def test_equal_opportunity_on_a_count_is_refused(tmp_path: Path) -> None:
    plan = small_round().manifest.preregistration
    variables = {**plan.variables, "opcoes": VariablePlan("equal_opportunity", Fraction(1))}
    round_dir = write(with_plan(small_round(), variables=variables), tmp_path)
    assert_refused(round_dir, RJ, f"{PLAN}.variables.opcoes.criterion", "binary variables only")


def test_equal_opportunity_without_a_template_expecting_yes_is_refused(tmp_path: Path) -> None:
    round_ = small_round()
    templates = replace_row(round_.templates, 0, expected={"reembolso": "no"})
    round_dir = write(dataclasses.replace(round_, templates=templates), tmp_path)
    assert_refused(
        round_dir, RJ, f"{PLAN}.variables.reembolso.criterion", "none for ['nome', 'estilo']"
    )


def test_a_negative_acceptable_difference_is_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    _edit_json(
        round_dir,
        ("counterfactual", "preregistration", "variables", "opcoes", "acceptable_difference"),
        "-1",
    )
    assert_refused(
        round_dir, RJ, f"{PLAN}.variables.opcoes.acceptable_difference", "a rational >= 0"
    )


def test_a_binary_acceptable_difference_above_one_is_refused(tmp_path: Path) -> None:
    plan = small_round().manifest.preregistration
    wide = VariablePlan("equal_opportunity", Fraction(3, 2))
    variables = {**plan.variables, "reembolso": wide}
    round_dir = write(with_plan(small_round(), variables=variables), tmp_path)
    assert_refused(
        round_dir, RJ, f"{PLAN}.variables.reembolso.acceptable_difference", "proportion <= 1"
    )


@pytest.mark.parametrize("value", [0.05, 1, "5%", "1/0"])
def test_a_rational_is_a_json_string(tmp_path: Path, value: object) -> None:
    round_dir = write(small_round(), tmp_path)
    _edit_json(round_dir, ("counterfactual", "preregistration", "alpha"), value)
    assert_refused(round_dir, RJ, f"{PLAN}.alpha", 'a decimal "0.05" or a fraction "1/20"')


@pytest.mark.parametrize(
    ("key", "value"),
    [("correction", "bonferroni"), ("family", "global")],
)
def test_an_unsupported_correction_or_family_is_refused(
    tmp_path: Path, key: str, value: str
) -> None:
    round_dir = write(small_round(), tmp_path)
    _edit_json(round_dir, ("counterfactual", "preregistration", key), value)
    assert_refused(round_dir, RJ, f"{PLAN}.{key}", "the only value accepted")


@pytest.mark.parametrize(
    ("test", "key", "value"),
    [("binary", "exact_below_discordant", 30), ("binary", "continuity_correction", 1)],
)
def test_another_test_specification_is_refused(
    tmp_path: Path, test: str, key: str, value: object
) -> None:
    round_dir = write(small_round(), tmp_path)
    _edit_json(round_dir, ("counterfactual", "preregistration", "tests", test, key), value)
    assert_refused(round_dir, RJ, f"{PLAN}.tests", "unsupported test specification")


def test_few_calibration_items_outside_a_synthetic_round_are_refused(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), synthetic=False), tmp_path)
    assert_refused(round_dir, RJ, f"{PLAN}.calibration.min_items", "expected >= 50")


@pytest.mark.parametrize("threshold", ["0", "3/2"])
def test_a_calibration_threshold_outside_zero_one_is_refused(
    tmp_path: Path, threshold: str
) -> None:
    round_dir = write(small_round(), tmp_path)
    _edit_json(
        round_dir, ("counterfactual", "preregistration", "calibration", "threshold"), threshold
    )
    assert_refused(round_dir, RJ, f"{PLAN}.calibration.threshold", "in (0, 1]")


# --- 11, 12 ----------------------------------------------------------------------------


@pytest.mark.parametrize("token", ["", "[{OCULTO}]"])
def test_an_empty_or_braced_mask_token_is_refused(tmp_path: Path, token: str) -> None:
    round_dir = write(with_manifest(small_round(), mask_token=token), tmp_path)
    assert_refused(round_dir, RJ, "counterfactual.mask_token", "without { or }")


def test_a_mask_token_holding_a_signal_term_is_refused(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), mask_token="[HELENA]"), tmp_path)
    problem = assert_refused(round_dir, RJ, "counterfactual.mask_token", "'Helena'")
    assert "variant 'n-a1'" in problem.message


def test_a_round_cannot_be_its_own_baseline(tmp_path: Path) -> None:
    round_ = small_round()
    round_dir = write(with_manifest(round_, baseline_round=round_.round_id), tmp_path)
    assert_refused(round_dir, RJ, "counterfactual.baseline_round", "its own round_id")


# --- 13 ----------------------------------------------------------------------------------


def test_a_null_ended_on_is_refused(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), ended_on=None), tmp_path)
    assert_refused(round_dir, RJ, "ended_on", "frozen complete")


def test_collected_on_is_the_date_of_the_first_call(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), collected_on=date(2026, 3, 1)), tmp_path)
    assert_refused(round_dir, RJ, "collected_on", "2026-03-02, the UTC date of the first call")


def test_ended_on_is_the_date_of_the_last_call(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), ended_on=date(2026, 3, 3)), tmp_path)
    assert_refused(round_dir, RJ, "ended_on", "the UTC date of the last call")


def test_languages_are_the_templates_languages(tmp_path: Path) -> None:
    round_dir = write(with_manifest(small_round(), languages=("pt-BR", "en")), tmp_path)
    assert_refused(round_dir, RJ, "languages", "the templates' languages ['pt-BR']")


def test_a_system_prompt_hash_in_generation_is_refused(tmp_path: Path) -> None:
    generation = {"temperature": 0.0, "system_prompt_sha256": "a" * 64}
    round_dir = write(with_manifest(small_round(), generation=generation), tmp_path)
    assert_refused(round_dir, RJ, "generation.system_prompt_sha256", "per system")


def test_a_missing_counterfactual_interpretation_is_refused(tmp_path: Path) -> None:
    round_ = small_round()
    kept = tuple(i for i in round_.manifest.interpretations if i.id != "cf-na")
    round_dir = write(with_manifest(round_, interpretations=kept), tmp_path)
    assert_refused(round_dir, RJ, "interpretations", "cf-na")
