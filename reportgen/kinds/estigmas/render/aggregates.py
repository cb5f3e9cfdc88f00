"""Descriptive counts the pages show, summed from the count cube.

These are sums of counts (biased over evaluated items in a slice of the cube),
not statistics: intervals and tests come from the statistics engine's results.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reportgen.kinds._fields import same_named
from reportgen.kinds.estigmas.model import (
    AXES,
    GENDERS,
    PERIL_BANDS,
    POSITIVE,
    SCORED_STYLES,
    Round,
    peril_band,
)
from reportgen.kinds.estigmas.score import BIASED, CANT_TELL, INCONCLUSIVE, OUTCOMES, CountCube


@dataclass(frozen=True)
class Share:
    """`count` of `total` (the rate is None when nothing was evaluated)."""

    count: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.count / self.total if self.total else None


@dataclass(frozen=True)
class StigmaRow:
    stigma_id: str
    name_pt: str
    name_en: str
    origin: str
    peril: float
    band: str
    axis: str | None
    biased: Share
    omissions: Share  # cant_tell on positive items


@dataclass(frozen=True)
class ModelBreakdown:
    """One model's biased shares by the slices the pages discuss."""

    model_id: str
    by_style: dict[str, Share]  # original / doubt / positive
    by_band: dict[str, Share]  # low / medium / high
    by_axis: dict[str, Share]  # race / origin
    by_gender_bias: dict[str, Share]  # male / female / unspecified
    by_gender_omission: dict[str, Share]
    local_markers: Share  # the stigmas of origin "local"
    brazilian_scenarios: Share  # the structures flagged brazilian
    inconclusive_by_style: dict[str, int]
    stigmas: tuple[StigmaRow, ...]


def _cell_weights() -> NDArray[np.int32]:
    """(styles x genders x outcomes, 2): which counts of a cube cell make its biased
    answers (column 0) and its abstentions on positive items (column 1)."""
    # int32 like the cube, which is not copied then (a cell holds a few answers).
    weights = np.zeros((len(SCORED_STYLES), len(GENDERS), len(OUTCOMES), 2), dtype=np.int32)
    weights[..., BIASED, 0] = 1
    weights[POSITIVE, :, CANT_TELL, 1] = weights[POSITIVE, :, INCONCLUSIVE, 1] = 1
    return weights.reshape(-1, 2)


_CELL_SUMS = _cell_weights()


def _slice(biased_s: np.ndarray, items_s: np.ndarray, mask: np.ndarray) -> tuple[list[int], int]:
    """Each model's biased count over the stigmas of `mask`, and those stigmas' items."""
    return biased_s[:, mask].sum(axis=1).tolist(), int(items_s[mask].sum())


# long: the cube summed once for every model, then one record per model, a field per line
def model_breakdowns(round: Round, cube: CountCube) -> dict[str, ModelBreakdown]:
    """Per model id, the descriptive slices of its scored items."""
    bounds = round.manifest.peril_bands
    bands = np.array([PERIL_BANDS[peril_band(s.peril, bounds)] for s in round.stigmas])
    axes = np.array([s.axis or "" for s in round.stigmas])
    local = np.array([s.origin == "local" for s in round.stigmas])
    brazilian = np.array([s.brazilian for s in round.structures])
    # The items are the same for every model: their totals are summed once.
    items = cube.items.astype(np.int64)
    items_s = items.sum(axis=(1, 2, 3))
    positive_s = items[:, :, POSITIVE, :].sum(axis=(1, 2))
    items_k, items_g = items.sum(axis=(0, 1, 3)), items.sum(axis=(0, 1, 2))
    positive_g = items[:, :, POSITIVE, :].sum(axis=(0, 1))
    brazilian_items = int(items[:, brazilian].sum())
    # Every model's counts summed over the whole cube in two passes (M models first), not
    # a model at a time: at a thousand models the loop was most of a rebuild's page data.
    models, stigmas, structures = cube.counts.shape[:3]
    # (M, S, T): the biased answers, and the abstentions on positive items, of each cell.
    cells = cube.counts.reshape(models * stigmas * structures, -1) @ _CELL_SUMS
    biased_st = cells[:, 0].reshape(models, stigmas, structures).astype(np.int64)
    omissions_st = cells[:, 1].reshape(models, stigmas, structures).astype(np.int64)
    # (M, K, G, O): each model's outcomes by style and gender, over stigmas and structures.
    kgo = cube.counts.reshape(models, stigmas * structures, *cube.counts.shape[3:])
    kgo = kgo.sum(axis=1, dtype=np.int64)
    abstain_g = kgo[:, POSITIVE, :, CANT_TELL] + kgo[:, POSITIVE, :, INCONCLUSIVE]
    biased_s = biased_st.sum(axis=2)
    sums = {
        "omissions_s": omissions_st.sum(axis=2).tolist(),
        "biased_s": biased_s.tolist(),
        "biased_k": kgo[..., BIASED].sum(axis=2).tolist(),
        "inconclusive_k": kgo[..., INCONCLUSIVE].sum(axis=2).tolist(),
        "biased_g": kgo[..., BIASED].sum(axis=1).tolist(),
        "omissions_g": abstain_g.tolist(),
        "brazilian": biased_st[:, :, brazilian].sum(axis=(1, 2)).tolist(),
    }
    # slice -> (each model's biased count, the slice's items)
    by_band = {b: _slice(biased_s, items_s, bands == b) for b in PERIL_BANDS}
    by_axis = {a: _slice(biased_s, items_s, axes == a) for a in AXES}
    by_local = _slice(biased_s, items_s, local)
    stigma_fields = [
        {**same_named(stigma, "stigma_id name_pt name_en origin peril axis"), "band": str(band)}
        for stigma, band in zip(round.stigmas, bands, strict=True)
    ]
    items_list, positive_list = items_s.tolist(), positive_s.tolist()
    breakdowns: dict[str, ModelBreakdown] = {}
    for m, model_id in enumerate(cube.model_ids):
        biased_m, omissions_m = sums["biased_s"][m], sums["omissions_s"][m]
        breakdowns[model_id] = ModelBreakdown(
            model_id=model_id,
            by_style={
                style: Share(sums["biased_k"][m][k], int(items_k[k]))
                for k, style in enumerate(SCORED_STYLES)
            },
            by_band={band: Share(count[m], total) for band, (count, total) in by_band.items()},
            by_axis={axis: Share(count[m], total) for axis, (count, total) in by_axis.items()},
            by_gender_bias={
                gender: Share(sums["biased_g"][m][g], int(items_g[g]))
                for g, gender in enumerate(GENDERS)
            },
            by_gender_omission={
                gender: Share(sums["omissions_g"][m][g], int(positive_g[g]))
                for g, gender in enumerate(GENDERS)
            },
            local_markers=Share(by_local[0][m], by_local[1]),
            brazilian_scenarios=Share(sums["brazilian"][m], brazilian_items),
            inconclusive_by_style={
                style: sums["inconclusive_k"][m][k] for k, style in enumerate(SCORED_STYLES)
            },
            stigmas=tuple(
                StigmaRow(
                    **fields,
                    biased=Share(biased_m[s], items_list[s]),
                    omissions=Share(omissions_m[s], positive_list[s]),
                )
                for s, fields in enumerate(stigma_fields)
            ),
        )
    return breakdowns


def local_marker_total(breakdowns: Iterable[ModelBreakdown]) -> Share:
    """Biased answers on the local markers' items, summed over the models: of every
    evaluation of those items (items x models), how many were biased (the article, §4.4)."""
    shares = [breakdown.local_markers for breakdown in breakdowns]
    return Share(sum(s.count for s in shares), sum(s.total for s in shares))
