"""Refusals 32 to 35 on responses/<model_id>.parquet, one system at a time.

32: one row per (item, run), run in 1..R, no cell missing. 33: every call ran with the
system's declared system prompt and tools, and sent its item as rendered: the hashes of
the user message and context it records are those of its item as the battery renders
it (what rules 30 and 31 check items.parquet's texts and hashes against). 34:
`run_order` is a permutation of 1..N and `called_at` never goes back in that order.
35 (interleaving): for each attribute and each pair of its groups (g, h) in groups.csv
order, neither group's calls all come before the other's. A system without a responses
file is rule 14's (cf-core); 34's called_at and 35 are skipped when run_order is no
permutation (they would only repeat it). A file with no rows is one line, not one per
missing cell.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations, pairwise

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.model import Response, Round, System
from reportgen.kinds.counterfactual.rules._index import RoundIndex, response_path
from reportgen.kinds.counterfactual.terms import sha256_text

Entries = list[tuple[str, str]]


def check_responses(round_: Round, index: RoundIndex, problems: Problems) -> None:
    for system in round_.models:
        rows = round_.responses.get(system.model_id)
        if rows is None:
            continue
        found = problems.in_file(response_path(system.model_id))
        if not rows and index.cell_item_ids:  # an emptied file: one line, not every cell
            found.add(
                "",
                "no rows: expected one response per (item, run) of the battery, every run "
                f"1..{round_.manifest.repetitions}",
            )
            continue
        found.rows(_cell_problems(round_, index, rows), "cells missing or extra")
        found.rows(_condition_problems(system, rows), "calls under other conditions")
        found.rows(_sent_problems(index, rows), "calls that sent other than their item")
        order_problem = _order_problem(rows)
        if order_problem is not None:
            found.add("run_order", order_problem)
            continue
        found.rows(_called_at_problems(rows), "calls out of order")
        found.rows(_interleaving_problems(index, rows), "non-interleaved group pairs")


def _cell_problems(round_: Round, index: RoundIndex, rows: Sequence[Response]) -> Entries:
    """Refusal 32: missing cells, duplicate (item, run), run outside 1..R."""
    repetitions = round_.manifest.repetitions
    runs = range(1, repetitions + 1)
    first_row: dict[tuple[str, int], int] = {}
    entries: Entries = []
    for number, row in enumerate(rows, start=1):
        key = (row.item_id, row.run)
        if row.item_id not in index.items:
            entries.append(
                (f"row {number}, item_id", f"{row.item_id!r} is not an item of items.parquet")
            )
        elif row.item_id not in index.cell_item_ids:
            pass  # an item the battery does not cross: rule 29 reports it
        elif row.run not in runs:
            entries.append(
                (
                    f"row {number} (item {row.item_id}), run",
                    f"{row.run} is outside 1..{repetitions} (counterfactual.repetitions)",
                )
            )
        elif key in first_row:
            entries.append(
                (
                    f"row {number}",
                    f"duplicate: a second response of {index.cell_where(*key)} (first in "
                    f"row {first_row[key]}); expected one per (item, run)",
                )
            )
        first_row.setdefault(key, number)
    entries += [
        (
            index.cell_where(item_id, run),
            f"missing cell: no response; expected one per (item, run), every run 1..{repetitions}",
        )
        for item_id in index.items
        if item_id in index.cell_item_ids
        for run in runs
        if (item_id, run) not in first_row
    ]
    return entries


def _condition_problems(system: System, rows: Sequence[Response]) -> Entries:
    """Refusal 33: the system prompt and tools of each call are the system's. When every
    call carries the same other value (the declaration is what is wrong, most likely),
    one line says so instead of one per call."""
    entries: Entries = []
    for column, want in (
        ("system_prompt_sha256", system.system_prompt_sha256),
        ("tools_sha256", system.tools_sha256),
    ):
        sent = [getattr(row, column) for row in rows]
        if rows and len(set(sent)) == 1 and sent[0] != want:
            entries.append(
                (
                    column,
                    f"every call ran with {sent[0]}, which differs from the system's "
                    f"declaration {want} (models.csv)",
                )
            )
            continue
        entries += [
            (
                f"row {number} ({row.item_id}, run {row.run}), {column}",
                f"{got} differs from the system's declaration {want} (models.csv): "
                "variants would have been run under different conditions",
            )
            for number, (row, got) in enumerate(zip(rows, sent, strict=True), start=1)
            if got != want
        ]
    return entries


def _sent_problems(index: RoundIndex, rows: Sequence[Response]) -> Entries:
    """Refusal 33: the prompt and context each call records having sent are its item as
    rendered from the battery (a null context_sha256: no context sent, which only an
    item without one allows). Compared with the rendering, not with items.parquet's
    hashes, so that a wrong item is rule 30's or 31's alone."""
    rendered = _rendered_hashes(index)
    entries: Entries = []
    for number, row in enumerate(rows, start=1):
        want = rendered.get(row.item_id)
        if want is None:
            continue  # not a cell of the battery, or no rewrite: rules 29, 27 and 32
        for column, got, expected in (
            ("prompt_sha256", row.prompt_sha256, want[0]),
            ("context_sha256", row.context_sha256, want[1]),
        ):
            if got != expected:
                entries.append(
                    (
                        f"row {number} ({row.item_id}, run {row.run}), {column}",
                        f"{_hash(got)} is not the hash of the item as rendered, "
                        f"{_hash(expected)}: the call did not send its item",
                    )
                )
    return entries


def _rendered_hashes(index: RoundIndex) -> dict[str, tuple[str, str | None]]:
    """item_id -> the hashes of its prompt and context as the battery renders them."""
    expected = index.battery.expected_cells
    hashes: dict[str, tuple[str, str | None]] = {}
    for item_id in index.cell_item_ids:
        item = index.items[item_id]
        cell = expected[(item.template_id, item.variant_id)]
        if cell.prompt is not None:
            context = None if cell.context is None else sha256_text(cell.context)
            hashes[item_id] = (sha256_text(cell.prompt), context)
    return hashes


def _hash(value: str | None) -> str:
    return "null (nothing sent)" if value is None else value


def _order_problem(rows: Sequence[Response]) -> str | None:
    """Refusal 34: run_order is a permutation of 1..N (N = the file's rows)."""
    size = len(rows)
    counted = Counter(row.run_order for row in rows)
    if all(counted.get(order) == 1 for order in range(1, size + 1)):
        return None
    missing = [order for order in range(1, size + 1) if order not in counted]
    twice = sorted(order for order, n in counted.items() if n > 1)
    outside = sorted(order for order in counted if not 1 <= order <= size)
    parts = [
        f"{label} {_listed(orders)}"
        for label, orders in (("missing", missing), ("repeated", twice), ("outside", outside))
        if orders
    ]
    return f"not a permutation of 1..{size} ({'; '.join(parts)})"


def _listed(numbers: Sequence[int]) -> str:
    shown = ", ".join(map(str, numbers[:8]))
    return shown + (f" and {len(numbers) - 8} more" if len(numbers) > 8 else "")


def _called_at_problems(rows: Sequence[Response]) -> Entries:
    """Refusal 34: called_at is non-decreasing in run_order."""
    ordered = sorted(enumerate(rows, start=1), key=lambda numbered: numbered[1].run_order)
    entries: Entries = []
    for (before_number, before), (number, row) in pairwise(ordered):
        if row.called_at < before.called_at:
            entries.append(
                (
                    f"row {number} (run_order {row.run_order}), called_at",
                    f"{_moment(row)} is earlier than the previous call's {_moment(before)} "
                    f"(run_order {before.run_order}, row {before_number}): expected "
                    "non-decreasing in run_order",
                )
            )
    return entries


def _moment(row: Response) -> str:
    return row.called_at.isoformat().replace("+00:00", "Z")


def _interleaving_problems(index: RoundIndex, rows: Sequence[Response]) -> Entries:
    """Refusal 35: for each attribute and group pair, the run_orders are not separated."""
    battery = index.battery
    spans: dict[str, tuple[int, int]] = {}  # group_id -> (min, max) run_order
    for row in rows:
        item = index.items.get(row.item_id)
        variant = battery.variants_by_id.get(item.variant_id) if item is not None else None
        if variant is None:
            continue
        low, high = spans.get(variant.group_id, (row.run_order, row.run_order))
        spans[variant.group_id] = (min(low, row.run_order), max(high, row.run_order))
    groups_of: dict[str, list[str]] = {}
    for group in battery.groups:
        groups_of.setdefault(group.attribute_id, []).append(group.group_id)
    entries: Entries = []
    for attribute_id, group_ids in groups_of.items():
        for g, h in combinations(group_ids, 2):
            problem = _separated(g, h, spans)
            if problem is not None:
                entries.append((f"attribute {attribute_id}, groups {g}/{h}", problem))
    return entries


def _separated(g: str, h: str, spans: Mapping[str, tuple[int, int]]) -> str | None:
    if g not in spans or h not in spans:
        return None
    (g_low, g_high), (h_low, h_high) = spans[g], spans[h]
    if g_high < h_low:
        first, second = (g, g_low, g_high), (h, h_low, h_high)
    elif h_high < g_low:
        first, second = (h, h_low, h_high), (g, g_low, g_high)
    else:
        return None
    return (
        f"non-interleaved collection: every call of group {first[0]} (run_order "
        f"{first[1]}..{first[2]}) came before every call of group {second[0]} (run_order "
        f"{second[1]}..{second[2]}); expected the groups collected side by side"
    )
