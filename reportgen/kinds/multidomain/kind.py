"""`MultidomainKind`: the `multidomain` kind's hooks into the shared core.

Reading: round.json's block (archive_manifest), models.csv's columns and the kind's
tables (archive_tables), the item columns (archive_items) and the response columns
(archive_responses); then, over the typed round, the checks across files
(archive_round) and the cross-table rules (rules), and across archives (archive_across).
"""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.archive import ArchiveContent
from reportgen.errors import Problem
from reportgen.kinds._adapters import AdaptedKind, core_round_fields, package_adapters, table_fields
from reportgen.kinds.multidomain import (
    archive_across,
    archive_screening,
    archive_tables,
)
from reportgen.kinds.multidomain import schemas as md_schemas
from reportgen.kinds.multidomain.archive_authorizations import (
    AUTHORIZATIONS_TABLE,
)
from reportgen.kinds.multidomain.archive_items import check_items
from reportgen.kinds.multidomain.archive_responses import check_response_table, responses_of
from reportgen.kinds.multidomain.model import NAME, Round
from reportgen.kinds.multidomain.stages import STAGES, TITLE
from reportgen.model import Round as CoreRound


def build_round(content: ArchiveContent) -> Round:
    """The typed multidomain round from the core's read."""
    return Round(
        **core_round_fields(content, lambda _, table: responses_of(table)),
        **table_fields(content),
    )


def _check_across(rounds: Sequence[CoreRound]) -> list[Problem]:
    from reportgen.kinds.multidomain.stages import reserve_order_problems

    return archive_across.check_across(rounds) + reserve_order_problems(rounds)


ARCHIVE = package_adapters(
    "reportgen.kinds.multidomain",
    (md_schemas.ITEM_COLUMNS, md_schemas.RESPONSE_COLUMNS),
    check_items=check_items,
    check_responses=lambda table, where, found: check_response_table(table, found),
    build_round=build_round,
    parse_model=archive_tables.parse_participant,
    model_row=archive_tables.participant_row,
    check_across=_check_across,
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
