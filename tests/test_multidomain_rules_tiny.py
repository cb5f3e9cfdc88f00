"""The cross-table rules on the tiny round of metrics §11 (reportgen.demo.multidomain):
a realistic valid round reports nothing, and its audit invalidation needs its ledger."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from reportgen.demo.multidomain.tiny import tiny_round
from tests.factories.multidomain_rounds import rule_problems, the_problem


def test_the_tiny_round_breaks_no_rule(tmp_path: Path) -> None:
    assert rule_problems(tiny_round(tmp_path / "tiny")) == []


def test_the_tiny_round_without_its_audit_line(tmp_path: Path) -> None:
    round_ = tiny_round(tmp_path / "tiny")
    kept = tuple(a for a in round_.annulments if a.source != "audit")
    problem = the_problem(replace(round_, annulments=kept))
    assert (problem.file, problem.where) == ("annulments.jsonl", "item 'i7'")
    assert "audit divergence 3/2 > 1" in problem.message
