"""`CounterfactualKind`: the `counterfactual` kind's hooks into the shared core.

Reading: round.json's block (archive_manifest), models.csv's columns and the battery's
tables (archive_tables), items, responses, extractions and calibration
(archive_rows); then, over the typed round, the checks across files (archive_round,
archive_battery) and, when those found nothing, the cross-table rules (rules); across
archives, the baseline round (archive_across).
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import cast

from reportgen.archive import ArchiveContent
from reportgen.kinds import ModelFolderSpec, ParquetTableSpec, TableSpec
from reportgen.kinds._adapters import AdaptedKind, core_round_fields, package_adapters, table_fields
from reportgen.kinds.counterfactual import (
    archive_across,
    archive_tables,
    extraction_check,
    mask_audit,
)
from reportgen.kinds.counterfactual import schemas as cf
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
    extractions = cast(
        Mapping[str, tuple[Extraction, ...]], content.folders.get(cf.EXTRACTIONS_DIR, {})
    )
    return Round(
        **core_round_fields(content, lambda _, table: responses_of(table)),
        **table_fields(content),
        extractions=types.MappingProxyType(dict(extractions)),
    )


ARCHIVE = package_adapters(
    "reportgen.kinds.counterfactual",
    (cf.ITEM_COLUMNS, cf.RESPONSE_COLUMNS),
    check_items=lambda items, tables, found: check_items(items, found),
    check_responses=check_response_table,
    build_round=build_round,
    parse_model=archive_tables.parse_system,
    model_row=lambda model: system_kind_row(cast(System, model)),
    check_across=archive_across.check_across,
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
