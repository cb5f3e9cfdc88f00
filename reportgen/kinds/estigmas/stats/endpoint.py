"""Monte Carlo error of the bootstrap's percentile intervals (docs/metrics.md).

Distribution-free: with R replicates, the order statistics at R q -/+ 1.96 sqrt(R q (1-q))
bracket the true q-quantile with about 95% probability, so half their distance over 1.96
estimates the standard error of the percentile.
"""

from __future__ import annotations

import numpy as np

from reportgen.kinds.estigmas.stats.bootstrap import (
    LOWER_PERCENTILE,
    UPPER_PERCENTILE,
    FloatArray,
)

_ENDPOINTS = (LOWER_PERCENTILE, UPPER_PERCENTILE)


def _bracket(count: int, percentile: float) -> tuple[int, int]:
    """Positions of the order statistics R q -/+ 1.96 sqrt(R q (1 - q)) among `count`."""
    q = percentile / 100
    spread = 1.96 * np.sqrt(count * q * (1 - q))
    low = int(np.clip(np.floor(count * q - spread), 0, count - 1))
    high = int(np.clip(np.ceil(count * q + spread), 0, count - 1))
    return low, high


def endpoint_error(values: FloatArray) -> float | None:
    """Largest Monte Carlo standard error of the 2.5th and 97.5th percentiles of the columns.

    Distribution-free: with R replicates, the order statistics at R q -/+ 1.96 sqrt(R q (1-q))
    bracket the true q-quantile with about 95% probability, so half their distance over 1.96
    estimates the standard error of the percentile. NaN replicates are left out; None when
    no column has a value.
    """
    errors = endpoint_errors(values.reshape(values.shape[0], -1))
    return None if np.isnan(errors).all() else float(np.nanmax(errors))


def endpoint_errors(columns: FloatArray) -> FloatArray:
    """(M,): `endpoint_error` of each column of an (R, M) array on its own (NaN: none).

    Each column's error is computed from that column alone, so a column's value is the same
    whichever columns stand beside it (the per-model results cache relies on it).
    """
    complete = ~np.isnan(columns).any(axis=0)
    errors = np.full(columns.shape[1], np.nan)
    if complete.any():
        # Columns without NaN share their order-statistic positions: partition them at once.
        positions = [_bracket(columns.shape[0], percentile) for percentile in _ENDPOINTS]
        kth = sorted({i for pair in positions for i in pair})
        ordered = np.partition(columns[:, complete], kth, axis=0)
        spreads = [(ordered[high] - ordered[low]) / (2 * 1.96) for low, high in positions]
        errors[complete] = np.maximum.reduce(spreads)
    for m in np.flatnonzero(~complete):
        column = columns[:, m]
        present = np.sort(column[~np.isnan(column)])
        if len(present) == 0:
            continue
        spread = []
        for percentile in _ENDPOINTS:
            low, high = _bracket(len(present), percentile)
            spread.append(float(present[high] - present[low]) / (2 * 1.96))
        errors[m] = max(spread)
    return errors
