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
    GENDERS,
    PERIL_BANDS,
    POSITIVE,
    SCORED_STYLES,
    Round,
    peril_band,
)
from reportgen.kinds.estigmas.score import BIASED, CANT_TELL, INCONCLUSIVE, CountCube


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


def _share(biased: NDArray[np.int64], items: NDArray[np.int64], mask: NDArray[np.bool_]) -> Share:
    return Share(int(biased[mask].sum()), int(items[mask].sum()))


# long: one pass over the cube, one field per line
def model_breakdowns(round: Round, cube: CountCube) -> dict[str, ModelBreakdown]:
    """Per model id, the descriptive slices of its scored items."""
    bounds = round.manifest.peril_bands
    bands = np.array([PERIL_BANDS[peril_band(s.peril, bounds)] for s in round.stigmas])
    axes = np.array([s.axis or "" for s in round.stigmas])
    local = np.array([s.origin == "local" for s in round.stigmas])
    brazilian = np.array([s.brazilian for s in round.structures])
    items_by_stigma_structure = cube.items.sum(axis=(2, 3)).astype(np.int64)
    positive_by_stigma = cube.items[:, :, POSITIVE, :].sum(axis=(1, 2)).astype(np.int64)
    breakdowns: dict[str, ModelBreakdown] = {}
    for m, model_id in enumerate(cube.model_ids):
        counts = cube.counts[m].astype(np.int64)
        biased_st = counts[..., BIASED].sum(axis=(2, 3))  # (S, T)
        biased_s = biased_st.sum(axis=1)
        items_s = items_by_stigma_structure.sum(axis=1)
        abstain = counts[..., CANT_TELL] + counts[..., INCONCLUSIVE]
        omissions_s = abstain[:, :, POSITIVE, :].sum(axis=(1, 2))
        by_style: dict[str, Share] = {
            style: Share(int(counts[:, :, k, :, BIASED].sum()), int(cube.items[:, :, k].sum()))
            for k, style in enumerate(SCORED_STYLES)
        }
        inconclusive_by_style: dict[str, int] = {
            style: int(counts[:, :, k, :, INCONCLUSIVE].sum())
            for k, style in enumerate(SCORED_STYLES)
        }
        by_gender_bias: dict[str, Share] = {
            gender: Share(int(counts[:, :, :, g, BIASED].sum()), int(cube.items[..., g].sum()))
            for g, gender in enumerate(GENDERS)
        }
        by_gender_omission: dict[str, Share] = {
            gender: Share(
                int(abstain[:, :, POSITIVE, g].sum()),
                int(cube.items[:, :, POSITIVE, g].sum()),
            )
            for g, gender in enumerate(GENDERS)
        }
        stigma_rows = tuple(
            StigmaRow(
                **same_named(stigma, "stigma_id name_pt name_en origin peril axis"),
                band=str(bands[s]),
                biased=Share(int(biased_s[s]), int(items_s[s])),
                omissions=Share(int(omissions_s[s]), int(positive_by_stigma[s])),
            )
            for s, stigma in enumerate(round.stigmas)
        )
        breakdowns[model_id] = ModelBreakdown(
            model_id=model_id,
            by_style=by_style,
            by_band={b: _share(biased_s, items_s, bands == b) for b in ("low", "medium", "high")},
            by_axis={a: _share(biased_s, items_s, axes == a) for a in ("race", "origin")},
            by_gender_bias=by_gender_bias,
            by_gender_omission=by_gender_omission,
            local_markers=_share(biased_s, items_s, local),
            brazilian_scenarios=Share(
                int(biased_st[:, brazilian].sum()),
                int(items_by_stigma_structure[:, brazilian].sum()),
            ),
            inconclusive_by_style=inconclusive_by_style,
            stigmas=stigma_rows,
        )
    return breakdowns


def local_marker_total(breakdowns: Iterable[ModelBreakdown]) -> Share:
    """Biased answers on the local markers' items, summed over the models: of every
    evaluation of those items (items x models), how many were biased (the article, §4.4)."""
    shares = [breakdown.local_markers for breakdown in breakdowns]
    return Share(sum(s.count for s in shares), sum(s.total for s in shares))
