"""The multidomain results models: the published schema file and the exact values."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # altair's dependency; no stubs installed

from reportgen.demo.multidomain.tiny import tiny_round
from reportgen.kinds.multidomain.results import (
    Exact,
    Results,
    build_results,
    published_json_schema_text,
    results_json_schema_text,
)
from reportgen.kinds.schemas import main


def test_the_published_schema_file_is_generated_from_the_models() -> None:
    assert published_json_schema_text() == results_json_schema_text()
    assert main(["--check", "multidomain"]) == 0


def test_exact_values_keep_the_rational_and_round_half_up() -> None:
    value = Exact.of(Fraction(5225, 63))
    assert value.exact == "5225/63"
    assert value.fraction == Fraction(5225, 63)
    assert value.display() == "82.94"
    assert Exact.of(Fraction(1, 8)).display() == "0.13"  # half-up, not half-even
    assert Exact.of(Fraction(5, 6)).percent() == "83.3"
    assert Exact.of(Fraction(3)).exact == "3"


def test_the_tiny_round_results_are_valid_against_the_published_schema(tmp_path: Path) -> None:
    results = build_results(tiny_round(tmp_path / "tiny"), replicates=10)
    validator = jsonschema.Draft202012Validator(json.loads(published_json_schema_text()))
    validator.validate(results.to_json_dict())
    assert not validator.is_valid({**results.to_json_dict(), "seed": "42"})
    assert Results.from_json_dict(results.to_json_dict()) == results
