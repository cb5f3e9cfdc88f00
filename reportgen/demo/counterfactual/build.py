"""From a round's free content (its manifest and its systems' calls) to a complete
counterfactual `Round`: the battery, the items, every system's collection, the judge's
calibration sample, the reviews after it (people's check of the extractions, the mask
audit's decisions: `reviews`), and the derived values (dates, languages,
battery_sha256)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from reportgen.archive import CHECKSUMS_FILE, LEDGER_FILE
from reportgen.demo.counterfactual.battery_rewrites import rewrites
from reportgen.demo.counterfactual.battery_signals import ATTRIBUTES, GROUPS, VARIABLES, VARIANTS
from reportgen.demo.counterfactual.battery_templates import templates
from reportgen.demo.counterfactual.behaviour import human_score
from reportgen.demo.counterfactual.collect import Collected, SystemCalls, collect
from reportgen.demo.counterfactual.render import Cell, cells, items_of
from reportgen.demo.counterfactual.reviews import extraction_checks, mask_audit
from reportgen.kinds.counterfactual.model import (
    NA,
    CalibrationRow,
    Extraction,
    Manifest,
    Round,
    System,
)
from reportgen.kinds.counterfactual.terms import battery_sha256
from reportgen.kinds.counterfactual.write import archive_files, battery_files

CALIBRATION_PER_SYSTEM = 32  # 64 blind hand scores per round: above the guide's 50
REVIEWERS = ("R1", "R2", "R3")


@dataclass(frozen=True)
class SystemPlan:
    """A system under test and how it was called."""

    system: System  # evaluated_on is recomputed from the first call
    calls: SystemCalls


@dataclass(frozen=True)
class RoundContent:
    manifest: Manifest  # collected_on, ended_on, languages, battery_sha256: recomputed
    systems: Sequence[SystemPlan]
    seed: int
    calibration_scored_on: date
    copies: int = 1  # each template this many times (battery_templates.texts)


def assemble(content: RoundContent, path: Path) -> Round:
    all_cells = cells(content.copies)
    mask = content.manifest.mask_token
    collected = {
        plan.system.model_id: collect(plan.calls, all_cells, content.seed, mask)
        for plan in content.systems
    }
    systems = tuple(
        replace(
            plan.system,
            evaluated_on=collected[plan.system.model_id].responses[0].called_at.date(),
        )
        for plan in content.systems
    )
    moments = [r.called_at for c in collected.values() for r in c.responses]
    manifest = replace(
        content.manifest,
        collected_on=min(moments).date(),
        ended_on=max(moments).date(),
        languages=tuple(sorted({t.language for t in templates(content.copies)})),
    )
    round_ = Round(
        path=path,
        manifest=manifest,
        models=systems,
        items=items_of(all_cells),
        annulments=(),
        attributes=ATTRIBUTES,
        groups=GROUPS,
        variants=VARIANTS,
        templates=templates(content.copies),
        rewrites=rewrites(content.copies),
        variables=VARIABLES,
        responses={m: c.responses for m, c in collected.items()},
        extractions={m: c.extractions for m, c in collected.items()},
        calibration=_calibration(collected, all_cells, content),
    )
    round_ = replace(
        round_,
        extraction_checks=extraction_checks(round_, content.seed, content.calibration_scored_on),
        mask_audit=mask_audit(round_, content.calibration_scored_on),
    )
    battery = battery_sha256(battery_files(round_))
    round_ = replace(round_, manifest=replace(manifest, battery_sha256=battery))
    return _with_digests(round_)


def _calibration(
    collected: dict[str, Collected], all_cells: Sequence[Cell], content: RoundContent
) -> tuple[CalibrationRow, ...]:
    """A blind sample of judged answers per system, stratified by group: one answer of
    each group in turn, drawn at random, until the system's quota is met."""
    group_of = {cell.item.item_id: cell.group_id for cell in all_cells}
    judged = [v.variable_id for v in VARIABLES if v.judged_score]
    rows: list[CalibrationRow] = []
    for variable_id in judged:
        for model_id, found in collected.items():
            sample = _stratified(found.extractions, variable_id, group_of, content.seed, model_id)
            for number, extraction in enumerate(sample):
                key = (extraction.item_id, extraction.run)
                rows.append(
                    CalibrationRow(
                        variable_id=variable_id,
                        model_id=model_id,
                        item_id=extraction.item_id,
                        run=extraction.run,
                        input_sha256=extraction.input_sha256 or "",
                        judge_score=int(extraction.value),
                        human_score=human_score(content.seed, model_id, *key, found.tones[key]),
                        reviewer=REVIEWERS[number % len(REVIEWERS)],
                        scored_on=content.calibration_scored_on,
                    )
                )
    return tuple(rows)


def _stratified(
    extractions: Sequence[Extraction],
    variable_id: str,
    group_of: dict[str, str],
    seed: int,
    model_id: str,
) -> list[Extraction]:
    pools: dict[str, list[Extraction]] = {}
    for extraction in extractions:
        if extraction.variable_id == variable_id and extraction.value != NA:
            pools.setdefault(group_of[extraction.item_id], []).append(extraction)
    rng = random.Random(f"{seed}|{model_id}|calibration")
    for pool in pools.values():
        rng.shuffle(pool)
    chosen: list[Extraction] = []
    while len(chosen) < CALIBRATION_PER_SYSTEM:
        for group_id in sorted(pools):
            if pools[group_id] and len(chosen) < CALIBRATION_PER_SYSTEM:
                chosen.append(pools[group_id].pop())
    return sorted(chosen, key=lambda e: (e.item_id, e.run))


def _with_digests(round_: Round) -> Round:
    """The round with the checksums its archive will have (as the reader gives them)."""
    files = archive_files(round_)
    checksums = {
        rel: hashlib.sha256(data).hexdigest()
        for rel, data in files.items()
        if rel not in (CHECKSUMS_FILE, LEDGER_FILE)
    }
    return replace(round_, checksums=checksums)
