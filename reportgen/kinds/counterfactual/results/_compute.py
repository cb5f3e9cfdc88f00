"""The counterfactual results object of a round: computed, or read from the core cache.

`build_results(round_, baseline=...)` runs every computation of counterfactual-metrics.md;
`load_results` does the same through the core results cache (`reportgen.results`), keyed by
the round's checksums and ledger, the package version, the results schema, the bootstrap
settings and, when there is one, the baseline round's own key.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.results import _sections as sections
from reportgen.kinds.counterfactual.results._rows import pending_rows, system_results
from reportgen.kinds.counterfactual.results._schema import (
    SCHEMA,
    Counts,
    Regression,
    Results,
    VoidedScore,
)
from reportgen.kinds.counterfactual.results._values import Exact
from reportgen.kinds.counterfactual.score import round_cells
from reportgen.kinds.counterfactual.stats.bootstrap import draw
from reportgen.results import cache_key as round_cache_key
from reportgen.results import replicate_count, results_header
from reportgen.results._cache import results_loader

Advance = Callable[[int], None]


def _counts(round_: Round) -> Counts:
    runs = round_.manifest.repetitions
    return Counts(
        systems=len(round_.models),
        attributes=len(round_.attributes),
        templates=len(round_.templates),
        variables=len(round_.variables),
        items=len(round_.items),
        runs=runs,
        calls_per_system=len(round_.items) * runs,
        annulled_items=len(round_.annulled_item_ids),
        voided_scores=len(round_.voided_scores),
    )


def _voided(round_: Round) -> tuple[VoidedScore, ...]:
    """The judge scores a leaked mask voids, sorted by (variable, system, item, run)."""
    leaked = sorted((row.key, row.ref) for row in round_.mask_audit if row.decision == "leaked")
    return tuple(
        VoidedScore(variable_id=v, model_id=m, item_id=i, run=r, ref=ref)
        for (v, m, i, r), ref in leaked
    )


def _preregistration_differs(round_: Round, baseline: Round) -> bool:
    """Whether the baseline's own criteria or acceptable differences differed (§11)."""
    ours = round_.manifest.preregistration.variables
    theirs = baseline.manifest.preregistration.variables
    return dict(ours) != dict(theirs)


def build_results(
    round_: Round,
    *,
    baseline: Round | None = None,
    replicates: int | None = None,
    advance: Advance | None = None,
) -> Results:
    """Every computation of counterfactual-metrics.md on `round_` (replicates default to
    the manifest's `bootstrap.replicates`); the regression view when `baseline` is given."""
    manifest = round_.manifest
    count = replicate_count(round_, replicates)
    attributes = round_cells(round_)
    draws = [
        draw(manifest.bootstrap_seed, count, len(a.template_ids), a.positions) for a in attributes
    ]
    calibration = sections.calibration_section(round_)
    failed = sections.failed_variables(calibration)
    checks = sections.extraction_section(round_)
    unchecked = sections.failed_variables(checks)
    systems = tuple(
        system_results(
            round_,
            system,
            pending_rows(round_, system, attributes, draws, failed | unchecked, unchecked),
        )
        for system in round_.models
    )
    if advance is not None:
        advance(count)
    regression: tuple[Regression, ...] = ()
    if baseline is not None:
        regression = sections.regression_section(
            round_, baseline, attributes, round_cells(baseline), draws
        )
    return Results(
        **results_header(SCHEMA, "counterfactual", manifest, count),
        preregistered=manifest.preregistration.preregistered,
        alpha=Exact.of(manifest.preregistration.alpha),
        counts=_counts(round_),
        attributes=sections.attribute_summaries(attributes),
        removed_templates=sections.removed_templates(attributes),
        voided_scores=_voided(round_),
        calibration=calibration,
        extraction_checks=checks,
        systems=systems,
        baseline_round=None if baseline is None else baseline.round_id,
        baseline_preregistration_differs=None
        if baseline is None
        else _preregistration_differs(round_, baseline),
        regression=regression,
    )


def _cache_parameters(round_: Round, replicates: int, baseline: Round | None) -> list[str]:
    parameters = [SCHEMA, str(replicates), str(round_.manifest.bootstrap_seed)]
    if baseline is not None:  # the regression view depends on the baseline's bytes too
        parameters += [baseline.round_id, round_cache_key(baseline, [SCHEMA])]
    return parameters


def cache_key(round_: Round, replicates: int, baseline: Round | None = None) -> str:
    return round_cache_key(round_, _cache_parameters(round_, replicates, baseline))


def load_results(
    round_: Round,
    replicates: int | None = None,
    cache_dir: Path | None = None,
    advance: Advance | None = None,
    *,
    baseline: Round | None = None,
) -> Results:
    """The results of `round_`, read from the cache when a valid entry exists (the
    core's `results_loader`, with `baseline` in the key and the computation)."""

    def parameters(round_: Round, count: int) -> list[str]:
        return _cache_parameters(round_, count, baseline)

    def compute(round_: Round, count: int, steps: Advance | None) -> Results:
        return build_results(round_, baseline=baseline, replicates=count, advance=steps)

    loader = results_loader(Results, parameters, compute)
    return loader(round_, replicates, cache_dir, advance)
