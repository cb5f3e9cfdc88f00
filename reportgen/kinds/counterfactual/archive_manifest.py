"""round.json's `counterfactual` block (counterfactual-round.md, "round.json").

Every key is checked and reported as `counterfactual.<path>` (refusals 1, 2, 4, 8's
sign, 9, 10, 11's form, 12's self-reference, 13's ended_on, generation and
interpretations). What needs another file (the battery's hash, the preregistered
variables against variables.csv, the call dates) is `archive_round`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from datetime import date
from fractions import Fraction
from typing import cast

from reportgen.archive import SLUG, FileProblems
from reportgen.archive._block import BlockReader as CoreBlockReader
from reportgen.kinds.counterfactual.extraction_check import PLAN_KEY, parse_plan
from reportgen.kinds.counterfactual.model import (
    CALIBRATION_METRICS,
    CORRECTION,
    CRITERIA,
    DEFAULT_MIN_ITEMS,
    FAMILY,
    NAME,
    PREREGISTERED_TESTS,
    PREREGISTRATION_STATUSES,
    CalibrationMetric,
    CalibrationPlan,
    CriterionName,
    Manifest,
    Preregistration,
    PreregistrationStatus,
    VariablePlan,
)
from reportgen.kinds.counterfactual.terms import (
    SLOT_NAME,
    is_sha256,
    rational_text,
    read_rational,
    required_interpretation_ids,
)
from reportgen.model import Manifest as CoreManifest

BLOCK_KEYS: tuple[str, ...] = (
    "system_under_test",
    "battery_sha256",
    "repetitions",
    "mask_token",
    "baseline_round",
    "preregistration",
)
PREREGISTRATION_KEYS: tuple[str, ...] = (
    "status",
    "preregistered_on",
    "alpha",
    "correction",
    "family",
    "tests",
    "variables",
    "calibration",
    "rationale",
)
_PLAN = "preregistration"


class BlockReader(CoreBlockReader):
    """Typed reads of the `counterfactual` block's values (`CoreBlockReader`'s and these)."""

    block = NAME

    def keys(
        self, path: str, value: object, required: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> Mapping[str, object] | None:
        """An object with every `required` key and no key outside `required + optional`."""
        if not isinstance(value, dict):
            self.bad(path, f"expected a JSON object, got {value!r}")
            return None
        allowed = (*required, *optional)
        ok = True
        for key in required:
            if key not in value:
                self.bad(f"{path}.{key}" if path else key, "missing key")
                ok = False
        for key in value:
            if key not in allowed:
                where = f"{path}.{key}" if path else str(key)
                self.bad(where, f"unknown key (expected only: {', '.join(allowed)})")
                ok = False
        return cast(Mapping[str, object], value) if ok else None

    def integer(self, path: str, value: object, *, low: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            self.bad(path, f"expected an integer >= {low}, got {value!r}")
            return low
        return value

    def choice(self, path: str, value: object, allowed: tuple[str, ...]) -> str:
        if value not in allowed:
            self.bad(path, f"expected {' | '.join(map(repr, allowed))}, got {value!r}")
            return allowed[0]
        return value

    def rational(self, path: str, value: object) -> Fraction | None:
        """A JSON string "0.05" or "1/20"; a JSON number is refused (never a float compare)."""
        parsed = read_rational(value)
        if parsed is None:
            kind = "the JSON number" if isinstance(value, int | float) else "got"
            self.bad(
                path,
                f'expected a rational as a JSON string, a decimal "0.05" or a fraction "1/20", '
                f"{kind} {value!r}",
            )
        return parsed


def parse_manifest(
    core: CoreManifest, block: Mapping[str, object], data: Mapping[str, object], found: FileProblems
) -> Manifest | None:
    """The typed manifest, or None after reporting every problem of the block."""
    mark = found.problems.mark()
    read = BlockReader(found)
    checked = read.keys("", block, BLOCK_KEYS)
    _check_core(core, found)
    if checked is None:
        return None
    repetitions = checked["repetitions"]
    if not isinstance(repetitions, int) or isinstance(repetitions, bool) or repetitions < 2:
        read.bad(
            "repetitions",
            f"expected an integer >= 2 (a difference seen in one run may be noise), "
            f"got {repetitions!r}",
        )
    battery = checked["battery_sha256"]
    if not isinstance(battery, str) or not is_sha256(battery):
        read.bad("battery_sha256", f"expected 64 lower-case hex digits, got {battery!r}")
    mask_token = checked["mask_token"]
    if (
        not isinstance(mask_token, str)
        or not mask_token.strip()
        or "{" in mask_token
        or "}" in mask_token
    ):
        read.bad("mask_token", f"expected a non-empty marker without {{ or }}, got {mask_token!r}")
    baseline = checked["baseline_round"]
    if baseline is not None and (not isinstance(baseline, str) or not SLUG.fullmatch(baseline)):
        read.bad("baseline_round", f"expected a round id (slug) or null, got {baseline!r}")
    elif baseline == core.round_id:
        read.bad("baseline_round", "a round cannot re-measure itself: it names its own round_id")
    system_under_test = read.texts("system_under_test", checked["system_under_test"])
    plan = _preregistration(checked["preregistration"], core, read)
    if not found.problems.ok_since(mark) or plan is None:
        return None
    core_values = {f.name: getattr(core, f.name) for f in fields(CoreManifest)}
    return Manifest(
        **core_values,
        system_under_test=system_under_test,
        battery_sha256=cast(str, battery),
        repetitions=cast(int, repetitions),
        mask_token=cast(str, mask_token),
        baseline_round=cast(str | None, baseline),
        preregistration=plan,
    )


def _check_core(core: CoreManifest, found: FileProblems) -> None:
    """What this kind asks of the common keys: ended_on, generation, interpretations."""
    if core.ended_on is None:
        found.add("ended_on", "a counterfactual battery is frozen complete: expected a date")
    if "system_prompt_sha256" in core.generation:
        found.add(
            "generation.system_prompt_sha256",
            "not allowed in a counterfactual round: the system prompt is per system "
            "(models.csv, system_prompt_sha256)",
        )
    present = {interpretation.id for interpretation in core.interpretations}
    missing = [i for i in required_interpretation_ids() if i not in present]
    if missing:
        found.add(
            "interpretations",
            f"missing the required counterfactual interpretation(s) {', '.join(missing)} "
            "(counterfactual-metrics.md §12)",
        )


def _preregistration(
    value: object, core: CoreManifest, read: BlockReader
) -> Preregistration | None:
    plan = read.keys(_PLAN, value, PREREGISTRATION_KEYS, (PLAN_KEY,))
    if plan is None:
        return None
    status = read.choice(f"{_PLAN}.status", plan["status"], PREREGISTRATION_STATUSES)
    preregistered_on = read.day(f"{_PLAN}.preregistered_on", plan["preregistered_on"])
    if status == "preregistered" and date.min < core.collected_on < preregistered_on:
        read.bad(
            f"{_PLAN}.preregistered_on",
            f"{preregistered_on.isoformat()} is after collected_on "
            f"{core.collected_on.isoformat()}: a plan fixed after collection began is "
            'status "not_preregistered"',
        )
    alpha = read.rational(f"{_PLAN}.alpha", plan["alpha"])
    if alpha is not None and not 0 < alpha < 1:
        read.bad(f"{_PLAN}.alpha", f"expected 0 < alpha < 1, got {rational_text(alpha)}")
    for key, supported in (("correction", CORRECTION), ("family", FAMILY)):
        if plan[key] != supported:
            read.bad(
                f"{_PLAN}.{key}",
                f"unsupported: the only value accepted is {supported!r}, got {plan[key]!r}",
            )
    if plan["tests"] != PREREGISTERED_TESTS or not _same_types(plan["tests"], PREREGISTERED_TESTS):
        read.bad(
            f"{_PLAN}.tests",
            "unsupported test specification: expected exactly the spec's McNemar and Wilcoxon "
            "settings (counterfactual-round.md, preregistration.tests)",
        )
    variables = _variables(plan["variables"], read)
    calibration = _calibration(plan["calibration"], core, read)
    rationale = read.texts(f"{_PLAN}.rationale", plan["rationale"])
    checks = None if PLAN_KEY not in plan else parse_plan(plan[PLAN_KEY], core, read)
    if not read.valid or alpha is None or variables is None or calibration is None:
        return None
    return Preregistration(
        status=cast(PreregistrationStatus, status),
        preregistered_on=preregistered_on,
        alpha=alpha,
        correction=CORRECTION,
        family=FAMILY,
        tests=PREREGISTERED_TESTS,
        variables=variables,
        calibration=calibration,
        rationale=rationale,
        extraction_check=checks,
    )


def _same_types(value: object, expected: object) -> bool:
    """`==` says True == 1 and 25 == 25.0: the specification's values are typed too."""
    if isinstance(expected, Mapping):
        return isinstance(value, Mapping) and all(
            _same_types(value.get(key), item) for key, item in expected.items()
        )
    return type(value) is type(expected)


def _variables(value: object, read: BlockReader) -> Mapping[str, VariablePlan] | None:
    path = f"{_PLAN}.variables"
    if not isinstance(value, dict):
        read.bad(path, f"expected an object with one entry per variables.csv row, got {value!r}")
        return None
    plans: dict[str, VariablePlan] = {}
    for variable_id, entry in value.items():
        where = f"{path}.{variable_id}"
        if not SLOT_NAME.fullmatch(variable_id):
            read.bad(where, f"expected a variable_id matching {SLOT_NAME.pattern}")
        checked = read.keys(where, entry, ("criterion", "acceptable_difference"))
        if checked is None:
            continue
        criterion = read.choice(f"{where}.criterion", checked["criterion"], CRITERIA)
        difference = read.rational(
            f"{where}.acceptable_difference", checked["acceptable_difference"]
        )
        if difference is not None and difference < 0:
            read.bad(
                f"{where}.acceptable_difference",
                f"expected a rational >= 0, got {checked['acceptable_difference']!r}",
            )
        if difference is not None:
            plans[variable_id] = VariablePlan(cast(CriterionName, criterion), difference)
    return plans if read.valid else None


def _calibration(value: object, core: CoreManifest, read: BlockReader) -> CalibrationPlan | None:
    path = f"{_PLAN}.calibration"
    checked = read.keys(path, value, ("metric", "threshold"), ("min_items",))
    if checked is None:
        return None
    min_items = read.integer(
        f"{path}.min_items", checked.get("min_items", DEFAULT_MIN_ITEMS), low=1
    )
    if min_items < DEFAULT_MIN_ITEMS and not core.synthetic:
        read.bad(
            f"{path}.min_items",
            f"expected >= {DEFAULT_MIN_ITEMS} hand-scored responses per judged variable "
            f"(fewer only in a synthetic round), got {min_items}",
        )
    metric = read.choice(f"{path}.metric", checked["metric"], CALIBRATION_METRICS)
    threshold = read.rational(f"{path}.threshold", checked["threshold"])
    if threshold is not None and not 0 < threshold <= 1:
        read.bad(f"{path}.threshold", f"expected a value in (0, 1], got {rational_text(threshold)}")
    if threshold is None:
        return None
    return CalibrationPlan(min_items, cast(CalibrationMetric, metric), threshold)
