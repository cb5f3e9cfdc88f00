"""The counterfactual checks that need more than one file (counterfactual-round.md):
the battery's hash (refusal 3), the preregistration against variables.csv and the
templates (6, 7, 8's binary bound), the mask token against the signal terms (11), the
dates and languages against the calls and templates (13), models.csv against the
templates and the calls (14), and the battery's tables against each other
(`archive_battery`, 15 to 27)."""

from __future__ import annotations

from collections import Counter

from reportgen.archive import MANIFEST_FILE, MODELS_FILE, Problems
from reportgen.kinds.counterfactual.archive_battery import Battery, check_battery
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.terms import (
    BATTERY_FILES,
    battery_sha256,
    first_signal_term,
    rational_text,
    signal_terms,
)

_BLOCK = "counterfactual"
_PLAN = f"{_BLOCK}.preregistration"


def check_round_files(round_: Round, problems: Problems) -> None:
    """Every problem of the round's files that needs another file to see."""
    check_battery(round_, problems)
    _check_battery_sha256(round_, problems)
    _check_plan(round_, problems)
    _check_mask_token(round_, problems)
    _check_dates_and_languages(round_, problems)
    _check_systems(round_, problems)


def battery_bytes(round_: Round) -> dict[str, bytes]:
    """The battery files present in the round's folder, name -> exact bytes."""
    return {
        name: (round_.path / name).read_bytes()
        for name in BATTERY_FILES
        if (round_.path / name).is_file()
    }


def _check_battery_sha256(round_: Round, problems: Problems) -> None:
    recomputed = battery_sha256(battery_bytes(round_))
    if recomputed != round_.manifest.battery_sha256:
        problems.add(
            MANIFEST_FILE,
            f"{_BLOCK}.battery_sha256",
            f"expected {recomputed} (sha256 of `sha256sum` over the battery files), "
            f"got {round_.manifest.battery_sha256}",
        )


def _check_plan(round_: Round, problems: Problems) -> None:
    plan = round_.manifest.preregistration
    declared = [v.variable_id for v in round_.variables]
    if set(plan.variables) != set(declared):
        missing = sorted(set(declared) - set(plan.variables))
        extra = sorted(set(plan.variables) - set(declared))
        problems.add(
            MANIFEST_FILE,
            f"{_PLAN}.variables",
            f"expected one entry per variables.csv row: missing {missing}, not in "
            f"variables.csv {extra}",
        )
    known = {a.attribute_id for a in round_.attributes}  # an unknown one is refusal 25's
    crossed = list(dict.fromkeys(a for t in round_.templates for a in t.attributes if a in known))
    for variable in round_.variables:
        entry = plan.variables.get(variable.variable_id)
        if entry is None:
            continue
        where = f"{_PLAN}.variables.{variable.variable_id}"
        if entry.criterion == "equal_opportunity" and variable.type != "binary":
            problems.add(
                MANIFEST_FILE,
                f"{where}.criterion",
                f"equal_opportunity applies to binary variables only; this one is {variable.type}",
            )
        elif entry.criterion == "equal_opportunity":
            lacking = [
                attribute_id
                for attribute_id in crossed
                if not any(
                    attribute_id in t.attributes and t.expected.get(variable.variable_id) == "yes"
                    for t in round_.templates
                )
            ]
            if lacking:
                problems.add(
                    MANIFEST_FILE,
                    f"{where}.criterion",
                    f"equal_opportunity needs, for every crossed attribute, a template with "
                    f"expected_{variable.variable_id} = yes; none for {lacking}",
                )
        if variable.type == "binary" and entry.acceptable_difference > 1:
            problems.add(
                MANIFEST_FILE,
                f"{where}.acceptable_difference",
                f"a binary variable's acceptable difference is a proportion <= 1, got "
                f"{rational_text(entry.acceptable_difference)}",
            )


def _check_mask_token(round_: Round, problems: Problems) -> None:
    term = first_signal_term(round_.manifest.mask_token, signal_terms(round_))
    if term is not None:
        source = (
            f"variant {term.variant_id!r}"
            if term.variant_id
            else f"attribute {term.attribute_id!r}'s held value"
        )
        problems.add(
            MANIFEST_FILE,
            f"{_BLOCK}.mask_token",
            f"contains the signal term {term.term!r} ({source}): the mask would reveal it",
        )


def _check_dates_and_languages(round_: Round, problems: Problems) -> None:
    manifest = round_.manifest
    calls = [r.called_at for rows in round_.responses.values() for r in rows]
    if calls:
        first, last = min(calls).date(), max(calls).date()
        if manifest.collected_on != first:
            problems.add(
                MANIFEST_FILE,
                "collected_on",
                f"expected {first.isoformat()}, the UTC date of the first call, "
                f"got {manifest.collected_on.isoformat()}",
            )
        if manifest.ended_on != last:
            got = manifest.ended_on.isoformat() if manifest.ended_on else None
            problems.add(
                MANIFEST_FILE,
                "ended_on",
                f"expected {last.isoformat()}, the UTC date of the last call, got {got}",
            )
    languages = sorted({t.language for t in round_.templates})
    if sorted(set(manifest.languages)) != languages:
        problems.add(
            MANIFEST_FILE,
            "languages",
            f"expected the templates' languages {languages}, got {list(manifest.languages)}",
        )


def _check_systems(round_: Round, problems: Problems) -> None:
    with_context = [t.template_id for t in round_.templates if t.context]
    baselines = Counter(s.baseline_model_id for s in round_.models if s.baseline_model_id)
    for number, system in enumerate(round_.models, start=1):
        where = f"row {number} (model {system.model_id!r})"
        if system.context_source == "none" and with_context:
            problems.add(
                MODELS_FILE,
                f"{where}, context_source",
                f"'none' although templates carry a context ({', '.join(with_context[:3])})",
            )
        if system.baseline_model_id and baselines[system.baseline_model_id] > 1:
            problems.add(
                MODELS_FILE,
                f"{where}, baseline_model_id",
                f"{system.baseline_model_id!r} is re-measured by two systems",
            )
        calls = [r.called_at for r in round_.responses.get(system.model_id, ())]
        if calls and system.evaluated_on != min(calls).date():
            problems.add(
                MODELS_FILE,
                f"{where}, evaluated_on",
                f"expected {min(calls).date().isoformat()}, the UTC date of the system's first "
                f"call, got {system.evaluated_on.isoformat()}",
            )


__all__ = ["Battery", "battery_bytes", "check_round_files"]
