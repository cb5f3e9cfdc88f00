"""`CounterfactualKind`: the `counterfactual` kind's hooks into the shared core.

Reading: round.json's block (archive_manifest), models.csv's columns and the battery's
tables (archive_tables), items, responses, extractions and calibration
(archive_rows); then, over the typed round, the checks across files (archive_round,
archive_battery) and, when those found nothing, the cross-table rules (rules); across
archives, the baseline round (archive_across).
"""

from __future__ import annotations

import types
from collections.abc import Mapping, Sequence
from typing import cast

from reportgen.archive import ArchiveContent, RowChecker
from reportgen.errors import Problem
from reportgen.kinds import ModelFolderSpec, ParquetTableSpec, TableSpec
from reportgen.kinds._adapters import (
    AdaptedKind,
    ArchiveAdapters,
    core_round_fields,
    same_when_raw,
)
from reportgen.kinds._stages import lazy
from reportgen.kinds.counterfactual import (
    archive_across,
    archive_manifest,
    archive_tables,
    extraction_check,
    mask_audit,
)
from reportgen.kinds.counterfactual import schemas as cf
from reportgen.kinds.counterfactual.archive_round import check_round_files
from reportgen.kinds.counterfactual.archive_rows import (
    check_items,
    check_response_table,
    parse_calibration,
    parse_extractions,
    responses_of,
)
from reportgen.kinds.counterfactual.model import (
    NAME,
    Extraction,
    Round,
    System,
    Template,
)
from reportgen.kinds.counterfactual.stages import STAGES, TITLE
from reportgen.kinds.counterfactual.write import (
    attribute_row,
    group_row,
    rewrite_row,
    system_kind_row,
    variable_row,
    variant_row,
)
from reportgen.model import Manifest as CoreManifest
from reportgen.model import Model
from reportgen.model import Round as CoreRound


def _template_row(template: Template) -> list[str]:
    """A templates.csv row; `expected` holds one entry per binary variable, in
    variables.csv order (as read), which is the header's tail."""
    from reportgen.kinds.counterfactual.write import template_row

    return template_row(template, tuple(template.expected))


# Read in this order: templates.csv's expected_ columns follow variables.csv, and
# rewrites.csv's presence follows variants.csv.
TABLES: tuple[TableSpec | ParquetTableSpec, ...] = (
    TableSpec(
        cf.ATTRIBUTES_FILE,
        cf.ATTRIBUTES_HEADER,
        archive_tables.parse_attributes,
        attribute_row,
        "attribute_id",
    ),
    TableSpec(cf.GROUPS_FILE, cf.GROUPS_HEADER, archive_tables.parse_groups, group_row, "group_id"),
    TableSpec(
        cf.VARIANTS_FILE,
        cf.VARIANTS_HEADER,
        archive_tables.parse_variants,
        variant_row,
        "variant_id",
    ),
    TableSpec(
        cf.VARIABLES_FILE,
        cf.VARIABLES_HEADER,
        archive_tables.parse_variables,
        variable_row,
        "variable_id",
    ),
    TableSpec(
        cf.TEMPLATES_FILE,
        cf.TEMPLATES_FIXED_HEADER,
        archive_tables.parse_templates,
        _template_row,
        "template_id",
        header_tail=archive_tables.binary_variable_columns,
        header_rule="then one expected_<variable_id> per binary variable, in variables.csv order",
    ),
    TableSpec(
        cf.REWRITES_FILE,
        cf.REWRITES_HEADER,
        archive_tables.parse_rewrites,
        rewrite_row,
        presence=archive_tables.rewrites_present,
        presence_rule="there exactly when an attribute uses the writing_style signal",
    ),
    ParquetTableSpec(
        cf.CALIBRATION_FILE,
        cf.CALIBRATION_SCHEMA,
        parse_calibration,
        presence=archive_tables.calibration_present,
        presence_rule="there exactly when a variable is a score scored by a model",
    ),
    ParquetTableSpec(
        cf.EXTRACTION_CHECKS_FILE,
        cf.EXTRACTION_CHECKS_SCHEMA,
        extraction_check.parse_extraction_checks,
        presence=extraction_check.extraction_checks_present,
        presence_rule=extraction_check.PRESENCE_RULE,
    ),
    ParquetTableSpec(
        cf.MASK_AUDIT_FILE,
        cf.MASK_AUDIT_SCHEMA,
        mask_audit.parse_mask_audit,
        presence=mask_audit.mask_audit_present,
        presence_rule=mask_audit.PRESENCE_RULE,
    ),
)


def build_round(content: ArchiveContent) -> Round:
    """The typed counterfactual round from the core's read."""
    tables = content.tables
    extractions = cast(
        Mapping[str, tuple[Extraction, ...]], content.folders.get(cf.EXTRACTIONS_DIR, {})
    )
    return Round(
        **core_round_fields(content, lambda _, table: responses_of(table)),
        attributes=tables[cf.ATTRIBUTES_FILE],
        groups=tables[cf.GROUPS_FILE],
        variants=tables[cf.VARIANTS_FILE],
        templates=tables[cf.TEMPLATES_FILE],
        rewrites=tables[cf.REWRITES_FILE],
        variables=tables[cf.VARIABLES_FILE],
        extractions=types.MappingProxyType(dict(extractions)),
        calibration=tables[cf.CALIBRATION_FILE],
        mask_audit=tables[cf.MASK_AUDIT_FILE],
        extraction_checks=tables[cf.EXTRACTION_CHECKS_FILE],
    )


ARCHIVE = ArchiveAdapters(
    item_columns=cf.ITEM_COLUMNS,
    response_columns=cf.RESPONSE_COLUMNS,
    parse_manifest=same_when_raw(archive_manifest.parse_manifest),
    manifest_block=lazy("reportgen.kinds.counterfactual.write:manifest_block"),
    check_items=lambda items, tables, found: check_items(items, found),
    check_responses=check_response_table,
    build_round=build_round,
    check_files=check_round_files,
    check_rules=lazy("reportgen.kinds.counterfactual.rules:check_rules"),
)


class CounterfactualKind(AdaptedKind):
    """A counterfactual audit battery run against systems under test."""

    name = NAME
    titles = TITLE
    stages = STAGES
    archive = ARCHIVE
    tables = TABLES
    model_folders = (ModelFolderSpec(cf.EXTRACTIONS_DIR, cf.EXTRACTIONS_SCHEMA, parse_extractions),)
    model_columns = cf.MODELS_KIND_HEADER
    single_run = False

    def parse_model(self, core: Model, row: RowChecker, manifest: CoreManifest | None) -> Model:
        return archive_tables.parse_system(core, row, manifest)

    def model_row(self, model: Model) -> list[str]:
        return system_kind_row(cast(System, model))

    def check_across(self, rounds: Sequence[CoreRound]) -> list[Problem]:
        return archive_across.check_across(rounds)
