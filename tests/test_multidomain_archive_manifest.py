"""round.json of a multidomain archive: the profile and its deviations (refusal 3),
thresholds read exactly (4), the dates (5, 6) and the block's keys; each broken rule
is one problem naming `multidomain.<key>`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.kinds.rounds import verify_round
from tests.factories.multidomain import RoundParts, only_problem, refused, small_round


def test_the_cli_accepts_the_small_round(tmp_path: Path) -> None:
    round_dir = small_round().write(tmp_path)
    result = CliRunner().invoke(main, ["verify", str(round_dir)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK md-small-2026: 3 model(s), 9 item(s)")


def _flag_above(parts: RoundParts) -> None:
    parts.block["contamination"]["flag_above"] = "7/10"


def _float_threshold(parts: RoundParts) -> None:
    parts.block["jury"]["adjudicate_above"] = 1.5


def _no_end(parts: RoundParts) -> None:
    parts.manifest["ended_on"] = None


def _ends_before_collection(parts: RoundParts) -> None:
    parts.manifest["ended_on"] = "2026-11-05"


def _retain_until(parts: RoundParts) -> None:
    parts.block["retain_until"] = "2028-11-29"


def _no_tools(parts: RoundParts) -> None:
    del parts.manifest["generation"]["tools"]
    for model in parts.models:  # the participants ran under the same (toolless) conditions
        from reportgen.kinds.multidomain.terms import canonical_json, sha256_text

        model["generation_sha256"] = sha256_text(canonical_json(parts.manifest["generation"]))


def _unknown_key(parts: RoundParts) -> None:
    parts.block["jury_size"] = 3


def _bad_threshold(parts: RoundParts) -> None:
    parts.block["audit"]["invalidate_above"] = "one"


def _temperature(parts: RoundParts) -> None:
    parts.manifest["generation"]["temperature"] = 0.7
    for model in parts.models:
        from reportgen.kinds.multidomain.terms import canonical_json, sha256_text

        model["generation_sha256"] = sha256_text(canonical_json(parts.manifest["generation"]))


CASES: list[tuple[str, Callable[[RoundParts], None], str, str]] = [
    ("3", _flag_above, "multidomain.contamination.flag_above", '"3/5", the round has "7/10"'),
    ("3 generation", _temperature, "generation.temperature", "sets 0.2, the round has 0.7"),
    ("4", _float_threshold, "multidomain.jury.adjudicate_above", "not the JSON float 1.5"),
    ("5 null", _no_end, "ended_on", "expected a date"),
    ("5 order", _ends_before_collection, "ended_on", "on or after collected_on"),
    ("6", _retain_until, "multidomain.retain_until", "2028-11-30, got 2028-11-29"),
    ("tools", _no_tools, "generation", "tools"),
    ("unknown key", _unknown_key, "multidomain.jury_size", "unknown key"),
    ("threshold", _bad_threshold, "multidomain.audit.invalidate_above", "rational"),
]


@pytest.mark.parametrize(
    ("mutate", "where", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_one_broken_rule_gives_one_problem(
    tmp_path: Path, mutate: Callable[[RoundParts], None], where: str, message: str
) -> None:
    parts = small_round()
    mutate(parts)
    round_dir = parts.write(tmp_path)
    problem = only_problem(round_dir)
    assert (problem.file, problem.where, message in problem.message) == (
        "round.json",
        where,
        True,
    ), str(problem)
    assert f"round.json: {where}" in refused(round_dir)


def test_thresholds_compare_as_rationals(tmp_path: Path) -> None:
    """ "0.6" is the profile's "3/5"; 3/2 written "1.5" is its "3/2"."""
    parts = small_round()
    parts.block["contamination"]["flag_above"] = "0.6"
    parts.block["jury"]["adjudicate_above"] = "1.5"
    assert verify_round(parts.write(tmp_path)) == []


def test_a_deviation_allows_the_profile_value_to_differ(tmp_path: Path) -> None:
    parts = small_round()
    parts.block["contamination"]["flag_above"] = "7/10"
    reason = {"pt-BR": "Limiar mais alto.", "en": "A higher threshold."}
    parts.block["deviations"].append({"key": "multidomain.contamination", "reason": reason})
    assert verify_round(parts.write(tmp_path)) == []


def test_another_profile_is_not_held_to_reg_values(tmp_path: Path) -> None:
    parts = small_round()
    parts.block["profile"] = "LOCAL-1"
    parts.block["contamination"]["flag_above"] = "7/10"
    assert verify_round(parts.write(tmp_path)) == []


def test_an_undeclared_difference_is_reported_once_per_profile_path(tmp_path: Path) -> None:
    parts = small_round()
    parts.block["deviations"] = [
        d for d in parts.block["deviations"] if d["key"] != "multidomain.composition"
    ]
    problem = only_problem(parts.write(tmp_path))
    assert problem.where.startswith("multidomain.composition.")
    assert "more differing value(s)" in problem.message


def test_the_tiny_demonstration_round_reads_without_problems(tmp_path: Path) -> None:
    """The round md-demo's writer lays out (metrics §11) is valid for the reader, and
    its round.json is what the kind writes back for the manifest read."""
    import json

    from reportgen.demo.multidomain.tiny import write_tiny_round
    from reportgen.kinds.rounds import manifest_to_dict, read_round

    round_dir = write_tiny_round(tmp_path)
    assert verify_round(round_dir) == []
    round_ = read_round(round_dir)
    written = json.loads((round_dir / "round.json").read_text(encoding="utf-8"))
    assert manifest_to_dict(round_.manifest) == written


@pytest.mark.parametrize(
    "key",
    [
        "annex",
        "domains",
        "composition",
        "jury",
        "audit",
        "pairwise",
        "calibration",
        "contamination",
        "grade_rules",
        "weights",
        "grade_counts",
        "deviations",
        "retain_until",
        "runs",
    ],
)
@pytest.mark.parametrize("value", ["x", None, [1], {"a": 1}])
def test_a_value_of_the_wrong_shape_is_a_problem_not_a_crash(
    tmp_path: Path, key: str, value: object
) -> None:
    parts = small_round()
    parts.block[key] = value
    problems = verify_round(parts.write(tmp_path))
    assert problems
    assert all(p.file == "round.json" for p in problems)
    assert any(p.where.startswith(f"multidomain.{key}") for p in problems), problems
