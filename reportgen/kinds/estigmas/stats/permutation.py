"""Permutation p-values of 2 x k tables with fixed margins, many tables sharing one set of draws.

Under "the first row does not depend on the column", relabelling the items at random keeps
both margins and leaves the first row a multivariate hypergeometric draw. A random ordering
of the items' column labels gives that draw for every first-row total B at once: the labels
among its first B positions. So the tests whose tables have the same column totals (one
family or one fairness gap across models: the same items, a different count of hits) share
one set of seeded orderings, drawn once, whatever the number of models; each test reads its
own first row from the counts of each ordering's first B labels (docs/metrics.md). With
few distinct B (at most `DIRECT_UP_TO`), direct multivariate hypergeometric draws per B
are cheaper, and the tables with that B share them.

Sequential stopping (Besag and Clifford 1991): the orderings are read in order, and a test
stops at the draw L where `STOP_AFTER` draws have reached its observed statistic, with
p = STOP_AFTER / L (only possible when p is about STOP_AFTER / `PERMUTATIONS` or more, that
is, clearly large). A test that never gets there reads all `PERMUTATIONS` draws and has
p = (1 + reached) / (1 + PERMUTATIONS). Each test keeps the count of draws it read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reportgen.kinds.estigmas.stats.significance import PERMUTATIONS, test_generator

# Draws that reach the observed statistic before a test stops early (Besag-Clifford h).
STOP_AFTER = 200
# Orderings drawn and read per step: a short first step lets large p-values stop early.
_FIRST_STEP = 500
# The smallest step of the adaptive schedule of direct draws (`_next_step`).
_MIN_STEP = 100
# Bound on the (orderings x items x columns) prefix counts of one step, in cells.
_STEP_CELLS = 8_000_000
# Up to this many distinct first-row totals, direct multivariate hypergeometric draws per
# total are cheaper than orderings of every item.
DIRECT_UP_TO = 24
# A statistic this close to the observed one counts as reaching it (float round-off).
TIE_TOLERANCE = 1e-9

IntArray = NDArray[np.int64]
# statistic(first_rows (D, K, k), column_totals (k,)) -> (D, K): one statistic per table.
Statistic = Callable[[IntArray, IntArray], NDArray[np.float64]]


@dataclass(frozen=True)
class PermutationPs:
    """p-values of K tables and the draws each one read."""

    p_values: NDArray[np.float64]  # (K,)
    draws: IntArray  # (K,)


def _prefix_counts(orderings: NDArray[np.int16], columns: int, stops: IntArray) -> IntArray:
    """(D, len(stops), columns): labels of each column among the first `stops` of each ordering.

    Only the first max(stops) positions are read.
    """
    counts = np.zeros((orderings.shape[0], len(stops), columns), dtype=np.int64)
    longest = int(stops.max(initial=0))
    if longest == 0:
        return counts
    prefix = orderings[:, :longest]
    at = np.maximum(stops - 1, 0)
    for column in range(columns):
        running = np.cumsum(prefix == column, axis=1, dtype=np.int32)
        counts[:, :, column] = np.where(stops > 0, running[:, at], 0)
    return counts


def _partial_shuffle(
    generator: np.random.Generator, labels: NDArray[np.int16], size: int, prefix: int
) -> NDArray[np.int16]:
    """The first `prefix` positions of `size` random orderings of `labels` (Fisher-Yates,
    stopped after `prefix` swaps: the same distribution as a full shuffle's first positions)."""
    drawn = np.tile(labels, (size, 1))
    rows = np.arange(size)
    for position in range(prefix):
        chosen = generator.integers(position, len(labels), size=size)
        picked = drawn[rows, chosen]
        drawn[rows, chosen] = drawn[:, position]
        drawn[:, position] = picked
    return drawn[:, :prefix]


def _first_rows(
    orderings: NDArray[np.int16], column_totals: IntArray, row_totals: IntArray
) -> tuple[IntArray, IntArray]:
    """The first row of each distinct B of `row_totals` in each ordering (the labels of its
    first B items), (D, distinct, k), and each table's position among the distinct B.

    A B above half the items reads its second row from the first n - B items instead (the
    same distribution, fewer positions to count): first = totals - that.
    """
    items = int(column_totals.sum())
    distinct, which = np.unique(row_totals, return_inverse=True)
    flipped = distinct > items - distinct
    stops = np.where(flipped, items - distinct, distinct)
    if stops.max(initial=0) > orderings.shape[1]:
        raise ValueError(f"a table needs {stops.max()} positions, {orderings.shape[1]} drawn")
    counts = _prefix_counts(orderings, len(column_totals), stops)
    counts[:, flipped] = column_totals - counts[:, flipped]
    return counts, which.ravel()


def shared_permutation_p(
    first_rows: IntArray,
    column_totals: IntArray,
    statistic: Statistic,
    seed: int,
    key: str,
    tolerance: float = TIE_TOLERANCE,
    longest: int | None = None,
) -> PermutationPs:
    """Permutation p of each table (first_rows[i], column_totals - first_rows[i]).

    `longest`, where given, bounds min(B, n - B) of every table the caller may pass for
    these column totals (a function of the totals alone, so that a table's draws never
    depend on the others): the orderings then only draw that many positions.

    Every row of `first_rows` (K, k) is a table with the same column totals. With at most
    `DIRECT_UP_TO` distinct first-row totals B, the tables with the same B share
    multivariate hypergeometric draws from `test_generator(seed, f"{key}/B")`; with more,
    every table reads its first row from the same seeded orderings of the items
    (`test_generator(seed, key)`, module docstring). Either way a table's draws depend only
    on the seed, the key, the column totals and its own B, not on the other tables.
    """
    first_rows = np.asarray(first_rows, dtype=np.int64)
    column_totals = np.asarray(column_totals, dtype=np.int64)
    observed = statistic(first_rows[None], column_totals)[0]
    row_totals = first_rows.sum(axis=1)
    distinct = np.unique(row_totals)
    if len(distinct) > DIRECT_UP_TO:
        labels = np.repeat(np.arange(len(column_totals), dtype=np.int16), column_totals)
        generator = test_generator(seed, key)

        prefix = len(labels) if longest is None else min(len(labels), longest)

        def orderings(size: int, active: IntArray) -> tuple[IntArray, IntArray]:
            if 4 * prefix < len(labels):
                drawn = _partial_shuffle(generator, labels, size, prefix)
            else:
                drawn = generator.permuted(np.broadcast_to(labels, (size, len(labels))), axis=1)
            return _first_rows(drawn, column_totals, row_totals[active])

        step = max(1, _STEP_CELLS // max(1, len(labels) * len(column_totals)))
        return _sequential(observed, orderings, statistic, column_totals, tolerance, step)
    p_values = np.empty(len(first_rows))
    draws = np.empty(len(first_rows), dtype=np.int64)
    for total in distinct:
        chosen = np.flatnonzero(row_totals == total)
        urn = test_generator(seed, f"{key}/{int(total)}")

        def hypergeometric(
            size: int, active: IntArray, urn: np.random.Generator = urn, total: int = int(total)
        ) -> tuple[IntArray, IntArray]:
            drawn = urn.multivariate_hypergeometric(column_totals, total, size=size)
            return drawn[:, None, :], np.zeros(len(active), dtype=np.int64)

        rules = (statistic, column_totals, tolerance, PERMUTATIONS)
        found = _sequential(observed[chosen], hypergeometric, *rules, adaptive=True)
        p_values[chosen], draws[chosen] = found.p_values, found.draws
    return PermutationPs(p_values=p_values, draws=draws)


def _sequential(
    observed: NDArray[np.float64],
    draw: Callable[[int, IntArray], tuple[IntArray, IntArray]],
    statistic: Statistic,
    column_totals: IntArray,
    tolerance: float,
    largest_step: int,
    adaptive: bool = False,
) -> PermutationPs:
    """Read draws step by step until every table has stopped (Besag-Clifford) or read all.

    `draw(size, active)` gives (size, u, k) first rows and, for each active table, which of
    the u is its own: the statistic is computed once per distinct first row total.

    Steps grow fourfold from `_FIRST_STEP`; `adaptive` steps (draws that do not depend on
    how they are split into calls) go to where the active tables should stop (`_next_step`).
    """
    tables = len(observed)
    reached = np.zeros(tables, dtype=np.int64)
    read = np.zeros(tables, dtype=np.int64)
    stopped = np.zeros(tables, dtype=bool)
    step = max(1, min(STOP_AFTER if adaptive else _FIRST_STEP, largest_step))
    done = 0
    while done < PERMUTATIONS and not stopped.all():
        size = min(step, PERMUTATIONS - done)
        active = np.flatnonzero(~stopped)
        rows, which = draw(size, active)
        hits = statistic(rows, column_totals)[:, which] >= observed[active] - tolerance
        running = reached[active] + np.cumsum(hits, axis=0)
        finishing = running[-1] >= STOP_AFTER
        # The first draw of this step at which a finishing table reaches STOP_AFTER.
        at = np.argmax(running >= STOP_AFTER, axis=0)
        read[active] = done + np.where(finishing, at + 1, size)
        reached[active] = np.where(finishing, STOP_AFTER, running[-1])
        stopped[active] = finishing
        done += size
        if adaptive:
            step = _next_step(reached[~stopped], done, largest_step)
        else:
            step = max(step, min(4 * step, largest_step))
    p_values = np.where(stopped, STOP_AFTER / np.maximum(read, 1), (1 + reached) / (1 + read))
    return PermutationPs(p_values=p_values.astype(np.float64), draws=read)


def _next_step(reached: IntArray, done: int, largest_step: int) -> int:
    """Draws to make next: where the slowest active table is expected to reach STOP_AFTER.

    A table that reached r of `done` draws reaches STOP_AFTER after about
    done * STOP_AFTER / r draws; a tenth more keeps most tables to one more step, and
    `_MIN_STEP` bounds the number of steps.
    """
    slowest = int(reached.min(initial=STOP_AFTER))
    if slowest == 0:
        return largest_step
    expected = done * (STOP_AFTER - slowest) / slowest
    return int(min(largest_step, max(_MIN_STEP, 1.1 * expected)))


def chi_square_statistics(first: IntArray, column_totals: IntArray) -> NDArray[np.float64]:
    """Pearson's statistic of every 2 x k table whose first rows are `first` (..., k).

    `column_totals` (..., k) broadcasts against `first`.
    """
    total = column_totals.sum(axis=-1, keepdims=True)
    row_total = first.sum(axis=-1, keepdims=True)
    expected_first = row_total * column_totals / total
    expected_second = (total - row_total) * column_totals / total
    second = column_totals - first
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = ((first - expected_first) ** 2 / expected_first).sum(axis=-1) + (
            (second - expected_second) ** 2 / expected_second
        ).sum(axis=-1)
    result: NDArray[np.float64] = statistic
    return result


def rate_gaps(first: IntArray, column_totals: IntArray) -> NDArray[np.float64]:
    """max - min across the columns of first / column_totals (every column total positive).

    Column by column: a max or min along a short last axis (a stigma axis has about ten
    columns) is about three times slower than ten elementwise passes, and gives the same.
    """
    columns = np.moveaxis(first / column_totals, -1, 0)
    highest, lowest = columns[0].copy(), columns[0].copy()
    for column in columns[1:]:
        np.maximum(highest, column, out=highest)
        np.minimum(lowest, column, out=lowest)
    gaps: NDArray[np.float64] = highest - lowest
    return gaps
