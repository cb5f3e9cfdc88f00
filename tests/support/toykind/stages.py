"""The toy kind's stages after the archive, declared once (`Stages`): its summary (for
people and for machines), its results (the mean scores: nothing to cache), its page,
what the leak guard keeps secret and its review task."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportgen.guard import GuardMaterial
from reportgen.kinds._stages import Advance, Progress, Stages
from reportgen.model import Round
from tests.support.toykind.model import ToyRound
from tests.support.toykind.pages import ToySite

if TYPE_CHECKING:
    from rich.console import Console

    from reportgen.render.siteconfig import SiteConfig


@dataclass(frozen=True)
class ToyResults:
    """`reportgen stats` of a round: each model's mean score."""

    round_id: str
    means: dict[str, float]

    def to_json_dict(self) -> dict[str, Any]:
        return {"schema": "toy-results/1", "round_id": self.round_id, "mean_score": self.means}


def computed(round_: ToyRound, replicates: int, advance: Advance | None) -> ToyResults:
    return ToyResults(round_.round_id, round_.mean_scores())


def cached(
    round_: ToyRound, replicates: int, cache_dir: Path | None, advance: Advance | None
) -> ToyResults:
    return computed(round_, replicates, advance)  # too cheap to cache


def summary_table(round_: ToyRound, console: Console) -> None:
    for model_id, mean in round_.mean_scores().items():
        console.print(f"{model_id}: mean score {mean:.2f}", markup=False)


def summary_data(round_: ToyRound) -> dict[str, Any]:
    return {"round_id": round_.round_id, "mean_score": round_.mean_scores()}


def site(
    rounds: Sequence[Round],
    config: SiteConfig,
    *,
    cache_dir: Path | None,
    progress: Progress | None = None,
    section_depth: int = 0,
) -> ToySite:
    return ToySite(tuple(r for r in rounds if isinstance(r, ToyRound)))


def guard_material(round_: ToyRound) -> GuardMaterial:
    """Unpublished prompts are secret; the canaries and the models' names are watched."""
    return GuardMaterial(
        round_id=round_.round_id,
        secret_texts=tuple((i.item_id, i.prompt) for i in round_.items if not i.published),
        public_texts=tuple(i.prompt for i in round_.items if i.published),
        canaries=tuple(i.canary for i in round_.items if i.canary),
        names=tuple(m.display_name for m in round_.models),
    )


STAGES: Stages[ToyRound, ToyResults] = Stages(
    round_type=ToyRound,
    noun="a round of the toy kind",
    cached=cached,
    computed=computed,
    summary_table=summary_table,
    summary_data=summary_data,
    site=site,
    guard_material=guard_material,
    review_task="tests.support.toykind.task:REVIEW_TASK",
)
