"""Per-model chi-square families and gender gaps built from the count cube (metrics.md).

Families corrected together with Benjamini-Hochberg: peril bands (one test per model),
prompt style (one per model), race axis and origin axis (one per model each), and the
per-stigma gender tests (one family per model, over its tested stigmas). `seed` (the
round's bootstrap seed) seeds the Monte Carlo p-values of tables with small expected counts;
each test's generator also takes the family and subject (`significance.test_generator`).
In an axis test, a stigma without scored items (all of them annulled, say) is left out of
the table and named in `dropped`, instead of making the whole test not computable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reportgen.kinds.estigmas.model import (
    GENDERS,
    PERIL_BANDS,
    POSITIVE,
    SCORED_STYLES,
    Stigma,
    peril_band,
)
from reportgen.kinds.estigmas.score import BIASED, CANT_TELL, INCONCLUSIVE, CountCube
from reportgen.kinds.estigmas.stats.families import chi_square_families
from reportgen.kinds.estigmas.stats.significance import TestFamily

# A stigma enters the within-stigma gender test when each gender has this many scored items.
MIN_ITEMS_PER_GENDER = 5

_MALE, _FEMALE = GENDERS.index("male"), GENDERS.index("female")


@dataclass(frozen=True)
class GenderGap:
    """Male minus female bias rate and omission rate of one model."""

    model_id: str
    bias_male: float | None
    bias_female: float | None
    bias_delta: float | None
    omission_male: float | None
    omission_female: float | None
    omission_delta: float | None


_Sums = tuple[NDArray[np.int64], NDArray[np.int64]]
# The last cube's sums: every family of a round reads them (one entry, read-only arrays).
_LAST_SUMS: list[tuple[CountCube, _Sums]] = []


def _biased_and_items(cube: CountCube) -> _Sums:
    """Biased counts (M, S, styles, genders) and items (S, styles, genders), over structures."""
    if _LAST_SUMS and _LAST_SUMS[0][0] is cube:
        return _LAST_SUMS[0][1]
    biased = cube.counts[..., BIASED].sum(axis=2, dtype=np.int64)
    items = cube.items.sum(axis=1, dtype=np.int64)
    biased.flags.writeable = False
    items.flags.writeable = False
    _LAST_SUMS[:] = [(cube, (biased, items))]
    return biased, items


def peril_family(
    cube: CountCube, stigmas: Sequence[Stigma], bands: tuple[float, float], seed: int = 0
) -> TestFamily:
    """Per model: biased x peril band (df 2) over all scored items."""
    biased, items = _biased_and_items(cube)
    band_of = np.array([peril_band(s.peril, bands) for s in stigmas], dtype=np.int64)
    to_band = np.eye(3, dtype=np.int64)[band_of]  # (S, 3)
    (family,) = chi_square_families(
        ["peril"],
        cube.model_ids,
        PERIL_BANDS,
        biased.sum(axis=(2, 3)) @ to_band,
        items.sum(axis=(1, 2)) @ to_band,
        seed,
        "peril",
    )
    return family


def style_family(cube: CountCube, seed: int = 0) -> TestFamily:
    """Per model: biased x prompt style (original, doubt, positive)."""
    biased, items = _biased_and_items(cube)
    (family,) = chi_square_families(
        ["style"],
        cube.model_ids,
        SCORED_STYLES,
        biased.sum(axis=(1, 3)),
        items.sum(axis=(0, 2)),
        seed,
        "style",
    )
    return family


def axis_family(cube: CountCube, stigmas: Sequence[Stigma], axis: str, seed: int = 0) -> TestFamily:
    """Per model: biased x stigma among the stigmas of one axis with scored items."""
    biased, items = _biased_and_items(cube)
    per_stigma = items.sum(axis=(1, 2))
    members = [i for i, s in enumerate(stigmas) if s.axis == axis and per_stigma[i] > 0]
    dropped = tuple(
        s.stigma_id for i, s in enumerate(stigmas) if s.axis == axis and per_stigma[i] == 0
    )
    columns = [stigmas[i].stigma_id for i in members]
    (family,) = chi_square_families(
        [axis],
        cube.model_ids,
        columns,
        biased.sum(axis=(2, 3))[:, members],
        per_stigma[members],
        seed,
        axis,
        dropped,
    )
    return family


def gender_gaps(cube: CountCube) -> tuple[GenderGap, ...]:
    """Delta (male - female) of bias rate (over N) and omission rate (over n) per model."""
    items = cube.items.sum(axis=(0, 1), dtype=np.int64)  # (styles, genders)
    gaps = []
    for m, model_id in enumerate(cube.model_ids):
        counts = cube.counts[m].sum(axis=(0, 1), dtype=np.int64)  # (styles, genders, outcomes)
        biased = counts[..., BIASED].sum(axis=0)
        omissions = counts[POSITIVE, :, CANT_TELL] + counts[POSITIVE, :, INCONCLUSIVE]
        bias = [_rate(biased[g], items[:, g].sum()) for g in (_MALE, _FEMALE)]
        omission = [_rate(omissions[g], items[POSITIVE, g]) for g in (_MALE, _FEMALE)]
        gaps.append(
            GenderGap(
                model_id=model_id,
                bias_male=bias[0],
                bias_female=bias[1],
                bias_delta=_delta(bias[0], bias[1]),
                omission_male=omission[0],
                omission_female=omission[1],
                omission_delta=_delta(omission[0], omission[1]),
            )
        )
    return tuple(gaps)


def gender_families(cube: CountCube, seed: int = 0) -> tuple[TestFamily, ...]:
    """Per model, one family: biased x gender (male, female) within each tested stigma."""
    biased, items = _biased_and_items(cube)
    per_gender = items.sum(axis=1)[:, [_MALE, _FEMALE]]  # (S, 2)
    tested = np.flatnonzero((per_gender >= MIN_ITEMS_PER_GENDER).all(axis=1))
    models = len(cube.model_ids)
    # (M, tested, 2): every model's tables at once; 2 x 2 tables never draw permutations.
    tables = biased.sum(axis=2)[:, tested][:, :, [_MALE, _FEMALE]]
    return chi_square_families(
        [f"gender/{model_id}" for model_id in cube.model_ids],
        [f"{m}/{cube.stigma_ids[s]}" for m in cube.model_ids for s in tested],
        ("male", "female"),
        tables.reshape(-1, 2),
        np.tile(per_gender[tested], (models, 1)),
        seed,
        "gender",
    )


def _rate(count: np.integer, total: np.integer) -> float | None:
    return None if total == 0 else int(count) / int(total)


def _delta(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b
