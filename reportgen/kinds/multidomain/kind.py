"""`MultidomainKind`: the `multidomain` kind's hooks into the shared core.

Reading: round.json's block (archive_manifest), models.csv's columns and the kind's
tables (archive_tables), the item columns (archive_items) and the response columns
(archive_responses); then, over the typed round, the checks across files
(archive_round) and the cross-table rules (rules), and across archives (archive_across).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pyarrow as pa

from reportgen.archive import ArchiveContent, FileProblems, Problems, RowChecker
from reportgen.errors import Problem
from reportgen.kinds import Kind, TableRead
from reportgen.kinds.multidomain import (
    archive_across,
    archive_manifest,
    archive_screening,
    archive_tables,
)
from reportgen.kinds.multidomain import schemas as md_schemas
from reportgen.kinds.multidomain.archive_authorizations import (
    AUTHORIZATIONS_FILE,
    AUTHORIZATIONS_TABLE,
)
from reportgen.kinds.multidomain.archive_items import check_items
from reportgen.kinds.multidomain.archive_responses import check_response_table, responses_of
from reportgen.kinds.multidomain.archive_round import check_round_files
from reportgen.kinds.multidomain.model import NAME, Item, Manifest, Participant, Round
from reportgen.kinds.multidomain.stages import STAGES
from reportgen.model import ItemRecord, Model
from reportgen.model import Manifest as CoreManifest
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from reportgen.collect.collected import Matched
    from reportgen.guard import GuardMaterial
    from reportgen.kinds.review_task import ReviewTask

_TITLE = {"pt-BR": "Multidomínio", "en": "Multidomain"}


class MultidomainKind(Kind):
    """The blind multidomain multilingual benchmark of REG-BC-2026-001."""

    name = NAME
    stages = STAGES
    tables = (*archive_tables.TABLES, archive_screening.SCREENING_TABLE, AUTHORIZATIONS_TABLE)
    single_run = False
    raw_text_nullable = True
    needs_text = True  # the contamination checks read every answer
    model_columns = md_schemas.MODELS_KIND_HEADER

    @property
    def title(self) -> Mapping[str, str]:
        return _TITLE

    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        return md_schemas.ITEM_COLUMNS

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        return md_schemas.RESPONSE_COLUMNS

    def parse_manifest(
        self,
        core: CoreManifest,
        block: Mapping[str, object],
        data: Mapping[str, object],
        found: FileProblems,
        *,
        raw: bool,
    ) -> Manifest | None:
        return archive_manifest.parse_manifest(core, block, data, found)

    def manifest_block(self, manifest: CoreManifest) -> dict[str, object]:
        from reportgen.kinds.multidomain.write import manifest_block

        return manifest_block(cast(Manifest, manifest))

    def parse_model(self, core: Model, row: RowChecker, manifest: CoreManifest | None) -> Model:
        return archive_tables.parse_participant(core, row, manifest)

    def model_row(self, model: Model) -> list[str]:
        return archive_tables.participant_row(model)

    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        return check_items(items, tables, found)

    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        check_response_table(table, found)

    def build_round(self, content: ArchiveContent) -> Round:
        tables = content.tables
        responses = {model_id: responses_of(table) for model_id, table in content.responses.items()}
        return Round(
            path=content.path,
            manifest=cast(Manifest, content.manifest),
            models=cast(tuple[Participant, ...], content.models),
            items=cast(tuple[Item, ...], content.items),
            annulments=content.annulments,
            checksums=content.checksums,
            ledger_sha256=content.ledger_sha256,
            judges=tables[md_schemas.JUDGES_FILE],
            rubrics=tables[md_schemas.RUBRICS_FILE],
            responses=types.MappingProxyType(responses),
            judge_views=tables[md_schemas.JUDGE_VIEWS_FILE],
            jury=tables[md_schemas.JURY_FILE],
            adjudications=tables[md_schemas.ADJUDICATIONS_FILE],
            calibration=tables[md_schemas.CALIBRATION_FILE],
            audit=tables[md_schemas.AUDIT_FILE],
            screening=tables[md_schemas.SCREENING_FILE],
            authorizations=tables.get(AUTHORIZATIONS_FILE, ()),
        )

    def check_round(self, round_: CoreRound, problems: Problems) -> None:
        from reportgen.kinds.multidomain.rules import check_rules

        typed = cast(Round, round_)
        mark = problems.mark()
        check_round_files(typed, problems)
        # The rules read the files' values: after a file problem they would only
        # repeat it in other words.
        if problems.ok_since(mark):
            check_rules(typed, problems)

    def check_across(self, rounds: Sequence[CoreRound]) -> list[Problem]:
        from reportgen.kinds.multidomain.stages import reserve_order_problems

        return archive_across.check_across(rounds) + reserve_order_problems(rounds)

    # --- The other stages (reportgen.kinds.multidomain.stages) ---

    def render_draft(self, draft_dir: Path, raw_dir: Path, *, seed: int | None) -> str:
        from reportgen.kinds.multidomain.collect import render_draft

        return render_draft(draft_dir, raw_dir)  # the order is the bank's (Art. 21)

    def collected_files(self, raw_dir: Path, system: Matched) -> dict[str, bytes]:
        from reportgen.kinds.multidomain.collect import collected_files

        return collected_files(raw_dir, system)

    def freeze(self, raw_dir: Path, out_dir: Path) -> str:
        from reportgen.kinds.multidomain.freeze import freeze_round

        return freeze_round(raw_dir, out_dir)

    @property
    def review_task(self) -> ReviewTask:
        from reportgen.kinds.multidomain.review import REVIEW_TASK

        return REVIEW_TASK

    def guard_material(self, round_: CoreRound) -> GuardMaterial:
        from reportgen.kinds.multidomain.render.guard import guard_material

        return guard_material(STAGES.round(round_))
