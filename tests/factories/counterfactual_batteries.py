"""Small counterfactual rounds built in memory (typed `Round`s, no archive on disk), for the
statistics tests: every number of counterfactual-metrics.md can be set cell by cell.

Usage::

    from tests.factories.counterfactual_batteries import Battery, Cell

    battery = Battery(groups={"idade": ("jovem", "idoso")}, positions=1, templates=5, runs=2)
    battery.set_rate("sys-a", "reembolso", "jovem", yes=4)     # 4 of the 10 cells "yes"
    round_ = battery.build()

Defaults: one attribute `idade` (signal age) with the given groups and K positions; templates
`t1..tN` crossed with every attribute; one binary decision variable `reembolso` (DP, acceptable
difference 1/20); one system `sys-a`; every value "no" unless set. Item ids are
`<template>-<variant>`, variant ids `<group>-<k>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

from reportgen.kinds.counterfactual.model import (
    PREREGISTERED_TESTS,
    Annulment,
    Attribute,
    CalibrationPlan,
    CalibrationRow,
    CriterionName,
    Extraction,
    Group,
    Item,
    Level,
    Manifest,
    Preregistration,
    Response,
    Round,
    System,
    Template,
    Variable,
    VariablePlan,
    VariableType,
    Variant,
)

HASH = "0" * 64


class Cell(NamedTuple):
    model_id: str
    variable_id: str
    template_id: str
    group_id: str
    position: int
    run: int


@dataclass(frozen=True)
class VariableSpec:
    variable_id: str
    type: VariableType = "binary"
    level: Level = "decision"
    criterion: CriterionName = "demographic_parity"
    acceptable: Fraction = Fraction(1, 20)
    scale: tuple[int, int] | None = None
    extractor: str = "code"


@dataclass
class Battery:
    groups: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: {"idade": ("jovem", "idoso")}
    )
    positions: int = 1
    templates: int = 5
    runs: int = 2
    systems: tuple[str, ...] = ("sys-a",)
    variables: tuple[VariableSpec, ...] = (VariableSpec("reembolso"),)
    expected: dict[tuple[str, str], str] = field(default_factory=dict)  # (template, var)
    values: dict[Cell, str] = field(default_factory=dict)
    default: Callable[[Cell], str] = lambda cell: "no"
    annulled: set[str] = field(default_factory=set)
    calibration: list[tuple[int, int]] = field(default_factory=list)  # (human, judge)
    calibration_metric: str = "quadratic_weighted_kappa"
    threshold: Fraction = Fraction(3, 5)
    baselines: dict[str, str] = field(default_factory=dict)  # system -> baseline system
    baseline_round: str | None = None
    round_id: str = "cf-test"
    alpha: Fraction = Fraction(1, 20)
    replicates: int = 200
    seed: int = 7

    def template_ids(self) -> list[str]:
        return [f"t{i}" for i in range(1, self.templates + 1)]

    def units(self) -> list[tuple[str, int, int]]:
        """(template, position, run) in a fixed order: templates, positions, runs."""
        return [
            (t, k, r)
            for t in self.template_ids()
            for k in range(1, self.positions + 1)
            for r in range(1, self.runs + 1)
        ]

    def set_values(self, model_id: str, variable_id: str, group_id: str, values: list[str]) -> None:
        """One value per unit of `units()`, in order."""
        units = self.units()
        assert len(values) == len(units), (len(values), len(units))
        for (t, k, r), value in zip(units, values, strict=True):
            self.values[Cell(model_id, variable_id, t, group_id, k, r)] = value

    def set_rate(self, model_id: str, variable_id: str, group_id: str, *, yes: int) -> None:
        """The first `yes` units "yes", the others "no"."""
        count = len(self.units())
        self.set_values(model_id, variable_id, group_id, ["yes"] * yes + ["no"] * (count - yes))

    def value(self, cell: Cell) -> str:
        return self.values.get(cell, self.default(cell))

    # long: one table of the battery per block
    def build(self, path: Path | None = None) -> Round:
        attributes = tuple(
            Attribute(attribute_id=a, name_pt=a, name_en=a, held_value="") for a in self.groups
        )
        groups = tuple(
            Group(group_id=g, attribute_id=a, name_pt=g, name_en=g)
            for a, members in self.groups.items()
            for g in members
        )
        variants = tuple(
            Variant(
                variant_id=f"{g.group_id}-{k}",
                group_id=g.group_id,
                signal="age",
                slot=g.attribute_id,
                value=f"{g.group_id}{k}",
                position=k,
                mask_terms=(),
            )
            for g in groups
            for k in range(1, self.positions + 1)
        )
        binary = [v.variable_id for v in self.variables if v.type == "binary"]
        templates = tuple(
            Template(
                template_id=t,
                attributes=tuple(self.groups),
                language="pt-BR",
                scenario_pt=t,
                scenario_en=t,
                user_tone="neutral",
                text_pt=t,
                text_en=t,
                context=None,
                published=True,
                expected={v: self.expected.get((t, v)) for v in binary},  # type: ignore[misc]
            )
            for t in self.template_ids()
        )
        group_attribute = {g.group_id: g.attribute_id for g in groups}
        items = tuple(
            Item(
                item_id=f"{t.template_id}-{v.variant_id}",
                language="pt-BR",
                prompt="p",
                canary=None,
                published=True,
                template_id=t.template_id,
                attribute_id=group_attribute[v.group_id],
                variant_id=v.variant_id,
                context=None,
                prompt_sha256=HASH,
                context_sha256=None,
            )
            for t in templates
            for v in variants
        )
        variant_of = {v.variant_id: v for v in variants}
        item_of = {i.item_id: i for i in items}
        called = datetime(2026, 5, 1, tzinfo=UTC)
        responses = {
            m: tuple(
                Response(
                    item_id=i.item_id,
                    model_id=m,
                    run=r,
                    raw_text="ok",
                    latency_ms=None,
                    called_at=called,
                    run_order=n + 1,
                    system_prompt_sha256=HASH,
                    tools_sha256=HASH,
                    prompt_sha256=i.prompt_sha256,
                    context_sha256=i.context_sha256,
                )
                for n, (i, r) in enumerate((i, r) for i in items for r in range(1, self.runs + 1))
            )
            for m in self.systems
        }
        extractions = {
            m: tuple(
                Extraction(
                    model_id=m,
                    item_id=row.item_id,
                    run=row.run,
                    variable_id=v.variable_id,
                    value=self.value(
                        Cell(
                            m,
                            v.variable_id,
                            item_of[row.item_id].template_id,
                            variant_of[item_of[row.item_id].variant_id].group_id,
                            variant_of[item_of[row.item_id].variant_id].position,
                            row.run,
                        )
                    ),
                    input_text=None,
                    input_sha256=None,
                )
                for row in responses[m]
                for v in self.variables
            )
            for m in self.systems
        }
        variables = tuple(
            Variable(
                variable_id=v.variable_id,
                level=v.level,
                type=v.type,
                scale=v.scale,
                extractor="model" if v.extractor == "model" else "code",
                extractor_id="x",
                extractor_version="1",
                name_pt=v.variable_id,
                name_en=v.variable_id,
                question_pt="?",
                question_en="?",
            )
            for v in self.variables
        )
        judged = [v.variable_id for v in variables if v.judged_score]
        calibration = (
            tuple(
                CalibrationRow(
                    variable_id=judged[0],
                    model_id=self.systems[0],
                    item_id=items[0].item_id,
                    run=n + 1,
                    input_sha256=HASH,
                    judge_score=j,
                    human_score=h,
                    reviewer="R1",
                    scored_on=date(2026, 5, 3),
                )
                for n, (h, j) in enumerate(self.calibration)
            )
            if judged
            else ()
        )
        preregistration = Preregistration(
            status="preregistered",
            preregistered_on=date(2026, 4, 1),
            alpha=self.alpha,
            correction="bh",
            family="per_system",
            tests=PREREGISTERED_TESTS,
            variables={
                v.variable_id: VariablePlan(
                    criterion=v.criterion, acceptable_difference=v.acceptable
                )
                for v in self.variables
            },
            calibration=CalibrationPlan(
                min_items=50,
                metric=self.calibration_metric,  # type: ignore[arg-type]
                threshold=self.threshold,
            ),
            rationale={"pt-BR": "r", "en": "r"},
        )
        manifest = Manifest(
            round_id=self.round_id,
            title={"pt-BR": "t", "en": "t"},
            synthetic=True,
            collected_on=date(2026, 5, 1),
            protocol_frozen_on=date(2026, 4, 1),
            ended_on=date(2026, 5, 2),
            generation={},
            bootstrap_replicates=self.replicates,
            bootstrap_seed=self.seed,
            system_under_test={"pt-BR": "s", "en": "s"},
            battery_sha256=HASH,
            repetitions=self.runs,
            mask_token="[OCULTO]",
            baseline_round=self.baseline_round,
            preregistration=preregistration,
        )
        models = tuple(
            System(
                model_id=m,
                display_name=m.upper(),
                provider="p",
                api_identifier=m,
                snapshot="",
                evaluated_on=date(2026, 5, 1),
                system_prompt_sha256=HASH,
                tools=(),
                tools_sha256=HASH,
                context_source="none",
                baseline_model_id=self.baselines.get(m),
            )
            for m in self.systems
        )
        annulments = tuple(
            Annulment(
                item_id=i,
                decided_on=date(2026, 5, 5),
                source="audit",
                ref="a1",
                reason={"pt-BR": "r", "en": "r"},
                prev_sha256=HASH,
            )
            for i in sorted(self.annulled)
        )
        return Round(
            path=path or Path("/nonexistent") / self.round_id,
            manifest=manifest,
            models=models,
            items=items,
            annulments=annulments,
            attributes=attributes,
            groups=groups,
            variants=variants,
            templates=templates,
            rewrites=(),
            variables=variables,
            responses=responses,
            extractions=extractions,
            calibration=calibration,
        )
