"""`MultidomainKind`: the `multidomain` kind's hooks into the shared core.

Reading: round.json's block (archive_manifest), models.csv's columns and the kind's
tables (archive_tables), the item columns (archive_items) and the response columns
(archive_responses); then, over the typed round, the checks across files
(archive_round) and the cross-table rules (rules), and across archives (archive_across).
"""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.archive import ArchiveContent, RowChecker
from reportgen.errors import Problem
from reportgen.kinds._adapters import (
    AdaptedKind,
    ArchiveAdapters,
    core_round_fields,
    same_when_raw,
)
from reportgen.kinds._stages import lazy
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
from reportgen.kinds.multidomain.model import NAME, Round
from reportgen.kinds.multidomain.stages import STAGES, TITLE
from reportgen.model import Manifest as CoreManifest
from reportgen.model import Model
from reportgen.model import Round as CoreRound


def build_round(content: ArchiveContent) -> Round:
    """The typed multidomain round from the core's read."""
    tables = content.tables
    return Round(
        **core_round_fields(content, lambda _, table: responses_of(table)),
        judges=tables[md_schemas.JUDGES_FILE],
        rubrics=tables[md_schemas.RUBRICS_FILE],
        judge_views=tables[md_schemas.JUDGE_VIEWS_FILE],
        jury=tables[md_schemas.JURY_FILE],
        adjudications=tables[md_schemas.ADJUDICATIONS_FILE],
        calibration=tables[md_schemas.CALIBRATION_FILE],
        audit=tables[md_schemas.AUDIT_FILE],
        screening=tables[md_schemas.SCREENING_FILE],
        authorizations=tables.get(AUTHORIZATIONS_FILE, ()),
    )


ARCHIVE = ArchiveAdapters(
    item_columns=md_schemas.ITEM_COLUMNS,
    response_columns=md_schemas.RESPONSE_COLUMNS,
    parse_manifest=same_when_raw(archive_manifest.parse_manifest),
    manifest_block=lazy("reportgen.kinds.multidomain.write:manifest_block"),
    check_items=check_items,
    check_responses=lambda table, where, found: check_response_table(table, found),
    build_round=build_round,
    check_files=check_round_files,
    check_rules=lazy("reportgen.kinds.multidomain.rules:check_rules"),
)


class MultidomainKind(AdaptedKind):
    """The blind multidomain multilingual benchmark of REG-BC-2026-001."""

    name = NAME
    titles = TITLE
    stages = STAGES
    archive = ARCHIVE
    tables = (*archive_tables.TABLES, archive_screening.SCREENING_TABLE, AUTHORIZATIONS_TABLE)
    single_run = False
    raw_text_nullable = True
    needs_text = True  # the contamination checks read every answer
    model_columns = md_schemas.MODELS_KIND_HEADER

    def parse_model(self, core: Model, row: RowChecker, manifest: CoreManifest | None) -> Model:
        return archive_tables.parse_participant(core, row, manifest)

    def model_row(self, model: Model) -> list[str]:
        return archive_tables.participant_row(model)

    def check_across(self, rounds: Sequence[CoreRound]) -> list[Problem]:
        from reportgen.kinds.multidomain.stages import reserve_order_problems

        return archive_across.check_across(rounds) + reserve_order_problems(rounds)
