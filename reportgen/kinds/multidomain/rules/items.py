"""Refusals 16, 17, 18 and 23: the bank's composition, grades, points and order.

Composition, grade counts, grade rules and `max_points` are checked on the active test
items (superseded ones are out, their variants in); `order` on every test item.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from reportgen.archive import Problems
from reportgen.kinds.multidomain.derive import item_orders
from reportgen.kinds.multidomain.model import GRADES, Item, Manifest, Round
from reportgen.kinds.multidomain.rules._index import ITEMS
from reportgen.kinds.multidomain.terms import active_items


def check_items(round_: Round, problems: Problems) -> None:
    manifest = round_.manifest
    active = active_items(round_.items)
    _check_composition(active, manifest, problems)
    _check_grades(active, manifest, problems)
    _check_max_points(active, manifest, problems)
    _check_order(round_.items, manifest, problems)


def _counts_text(counts: Mapping[str, int]) -> str:
    return "{" + ", ".join(f"{key}: {n}" for key, n in sorted(counts.items()) if n) + "}"


def _check_composition(active: Sequence[Item], manifest: Manifest, problems: Problems) -> None:
    """Refusal 16: per domain, active test items per language and per type."""
    found = problems.in_file(ITEMS)
    by_language: dict[str, Counter[str]] = defaultdict(Counter)
    by_type: dict[str, Counter[str]] = defaultdict(Counter)
    for item in active:
        by_language[item.domain_id][item.language] += 1
        by_type[item.domain_id][item.type] += 1
    declared_domains = set(manifest.composition)
    for domain_id in sorted(declared_domains | by_language.keys()):
        declared = manifest.composition.get(domain_id)
        if declared is None:
            found.add(
                f"domain {domain_id}",
                f"{sum(by_language[domain_id].values())} active test items but no "
                "multidomain.composition entry",
            )
            continue
        for axis, want, got in (
            ("language", declared.language, by_language[domain_id]),
            ("type", declared.type, by_type[domain_id]),
        ):
            if {k: n for k, n in want.items() if n} != {k: n for k, n in got.items() if n}:
                found.add(
                    f"domain {domain_id}, {axis}",
                    f"active test items per {axis}: expected {_counts_text(want)} "
                    f"(multidomain.composition.{domain_id}.{axis}), got {_counts_text(got)}",
                )


def _check_grades(active: Sequence[Item], manifest: Manifest, problems: Problems) -> None:
    """Refusal 17: grade_counts, and Art. 11's grade rules per domain (exact share)."""
    found = problems.in_file(ITEMS)
    counted = Counter(item.grade for item in active)
    declared = {grade: n for grade, n in manifest.grade_counts.items() if n}
    if declared != {grade: n for grade, n in counted.items() if n}:
        expected = ", ".join(f"{g}: {manifest.grade_counts.get(g, 0)}" for g in GRADES)
        got = ", ".join(f"{g}: {counted.get(g, 0)}" for g in sorted({*GRADES, *counted}))
        found.add(
            "grade",
            f"active test items per grade: expected {{{expected}}} "
            f"(multidomain.grade_counts), got {{{got}}}",
        )
    rules = manifest.grade_rules
    grades_by_domain: dict[str, list[int]] = defaultdict(list)
    for item in active:
        grades_by_domain[item.domain_id].append(item.grade)
    for domain_id, grades in sorted(grades_by_domain.items()):
        distinct = sorted(set(grades))
        if len(distinct) < rules.min_distinct:
            found.add(
                f"domain {domain_id}, grade",
                f"expected at least {rules.min_distinct} distinct grades "
                f"(multidomain.grade_rules.min_distinct), got {distinct}",
            )
        high = sum(1 for grade in grades if grade >= rules.high_grade)
        if high < rules.high_min_share * len(grades):
            found.add(
                f"domain {domain_id}, grade",
                f"expected at least {rules.high_min_share} of its {len(grades)} active items "
                f"with grade >= {rules.high_grade} (multidomain.grade_rules), got {high}",
            )


def _check_max_points(active: Sequence[Item], manifest: Manifest, problems: Problems) -> None:
    """Refusal 18: max_points = sum of weights[type] over the active test items."""
    computed = sum(manifest.weights.get(item.type, 0) for item in active)
    if computed != manifest.max_points:
        problems.in_file("round.json").add(
            "multidomain.max_points",
            f"expected {computed} (the weights of the {len(active)} active test items), "
            f"got {manifest.max_points}",
        )


def _check_order(items: Sequence[Item], manifest: Manifest, problems: Problems) -> None:
    """Refusal 23: every test item's `order` is its place in the seeded order (Art. 21)."""
    expected = item_orders(items, manifest.item_order_seed)
    entries = [
        (
            f"row {number} (item {item.item_id!r}), order",
            f"expected {expected[item.item_id]} (seeded order, multidomain.item_order_seed), "
            f"got {item.order}",
        )
        for number, item in enumerate(items, start=1)
        if item.item_id in expected and item.order != expected[item.item_id]
    ]
    problems.in_file(ITEMS).rows(entries, "items out of the seeded order")
