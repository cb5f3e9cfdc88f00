"""Paired tests between groups (metrics §4-§5) and between names of a group (§8).

A group pair (g, h), g before h in groups.csv order, pairs the units (t, r, k) of the
population: the name at position k of g against the name at position k of h (never all
names crossed, which would pseudo-replicate). A placebo pair (k, k′) of one group pairs the
units (t, r) over DP. Units with `na` on either side leave the test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from reportgen.kinds.counterfactual.score import AttributeCells, BoolArray, Cells, IntArray
from reportgen.kinds.counterfactual.stats.mcnemar import mcnemar_paired
from reportgen.kinds.counterfactual.stats.paired import PairedTest
from reportgen.kinds.counterfactual.stats.wilcoxon import wilcoxon


def test_pair(
    binary: bool,
    g_values: IntArray,
    g_determined: BoolArray,
    h_values: IntArray,
    h_determined: BoolArray,
) -> PairedTest:
    """McNemar (binary) or Wilcoxon (count, score) over aligned units."""
    kept = (g_determined & h_determined).ravel()
    if binary:
        return mcnemar_paired(g_values.ravel() == 1, h_values.ravel() == 1, kept)
    return wilcoxon((g_values.ravel() - h_values.ravel())[kept])


@dataclass(frozen=True, slots=True)
class GroupPair:
    g: int  # group indices, g < h
    h: int
    test: PairedTest


def group_pair_tests(
    attribute: AttributeCells, cells: Cells, population: BoolArray, binary: bool
) -> tuple[GroupPair, ...]:
    """Every group pair of the attribute on the population, groups.csv order."""
    values = cells.values[population]
    determined = cells.determined[population]
    count = len(attribute.group_ids)
    return tuple(
        GroupPair(
            g,
            h,
            test_pair(binary, values[:, g], determined[:, g], values[:, h], determined[:, h]),
        )
        for g in range(count)
        for h in range(g + 1, count)
    )


@dataclass(frozen=True, slots=True)
class NamePair:
    group: int
    k: int  # positions, 1-based, k < k_other
    k_other: int
    test: PairedTest


def placebo_pair_tests(
    attribute: AttributeCells, cells: Cells, binary: bool
) -> tuple[NamePair, ...]:
    """Within each group with K ≥ 2, every positions k < k′ over DP(a) (§8)."""
    found: list[NamePair] = []
    positions = attribute.positions
    for g in range(len(attribute.group_ids)):
        values = cells.values[:, g]  # (T, K, R)
        determined = cells.determined[:, g]
        for k in range(positions):
            for other in range(k + 1, positions):
                test = test_pair(
                    binary,
                    np.ascontiguousarray(values[:, k]),
                    determined[:, k],
                    np.ascontiguousarray(values[:, other]),
                    determined[:, other],
                )
                found.append(NamePair(g, k + 1, other + 1, test))
    return tuple(found)
