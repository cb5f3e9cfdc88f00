"""The toy kind itself: the `Kind` interface a kind implements for the core (its tables,
manifest block, checks, round, summary, statistics, pages, leak-guard material and review
task). Its name, `toykind`, is what a round's `round.json` says under "kind"."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pyarrow as pa

from reportgen.archive import ArchiveContent, FileProblems
from reportgen.guard import GuardMaterial
from reportgen.kinds import Kind, TableRead
from reportgen.kinds.review_task import ReviewTask
from reportgen.model import ItemRecord, Manifest, Round
from tests.support.toykind.model import SCORES_FILE, TABLES, ToyItem, ToyRound, ToyScore
from tests.support.toykind.pages import ToySite
from tests.support.toykind.task import REVIEW_TASK

if TYPE_CHECKING:
    from rich.console import Console

    from reportgen.render.site_source import SiteSource
    from reportgen.render.siteconfig import SiteConfig

NAME = "toykind"


class ToyKind(Kind):
    name = NAME
    tables = TABLES

    @property
    def title(self) -> Mapping[str, str]:
        return {"pt-BR": "Brinquedo", "en": "Toy"}

    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        return ()

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        return ()

    def parse_manifest(
        self,
        core: Manifest,
        block: Mapping[str, object],
        data: Mapping[str, object],
        found: FileProblems,
        *,
        raw: bool,
    ) -> Manifest | None:
        return core

    def manifest_block(self, manifest: Manifest) -> dict[str, object]:
        return {}

    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        columns = [items.column(n).to_pylist() for n in ToyItem.__dataclass_fields__]
        return tuple(ToyItem(*values) for values in zip(*columns, strict=True))

    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        return None

    def build_round(self, content: ArchiveContent) -> Round:
        outputs = {
            model_id: tuple(
                str(t) for t in table.column("raw_text").to_pylist()
            )  # the round is read with its texts in these tests
            if "raw_text" in table.column_names
            else ()
            for model_id, table in content.responses.items()
        }
        return ToyRound(
            path=content.path,
            manifest=content.manifest,
            models=content.models,
            items=content.items,
            annulments=content.annulments,
            checksums=content.checksums,
            ledger_sha256=content.ledger_sha256,
            scores=cast(tuple[ToyScore, ...], content.tables[SCORES_FILE]),
            outputs=types.MappingProxyType(outputs),
        )

    def summary_json(self, round_: Round) -> dict[str, Any]:
        assert isinstance(round_, ToyRound)
        means = round_.mean_scores()
        return {"round_id": round_.round_id, "mean_score": means}

    def print_summary(self, round_: Round, console: Console) -> None:
        assert isinstance(round_, ToyRound)
        for model_id, mean in round_.mean_scores().items():
            console.print(f"{model_id}: mean score {mean:.2f}", markup=False)

    def results_json(
        self,
        round_: Round,
        *,
        replicates: int | None,
        cache_dir: Path | None,
        use_cache: bool,
        advance: Callable[[int], None] | None = None,
    ) -> dict[str, Any]:
        return {"schema": "toy-results/1", **self.summary_json(round_)}

    def site(
        self,
        rounds: Sequence[Round],
        config: SiteConfig,
        *,
        cache_dir: Path | None,
        progress: Callable[[str], None] | None = None,
        section_depth: int = 0,
    ) -> SiteSource:
        return ToySite(tuple(cast(ToyRound, r) for r in rounds))

    def guard_material(self, round_: Round) -> GuardMaterial:
        return GuardMaterial(
            round_id=round_.round_id,
            secret_texts=tuple((i.item_id, i.prompt) for i in round_.items if not i.published),
            public_texts=tuple(i.prompt for i in round_.items if i.published),
            canaries=tuple(i.canary for i in round_.items if i.canary),
            names=tuple(m.display_name for m in round_.models),
        )

    @property
    def review_task(self) -> ReviewTask:
        return REVIEW_TASK
