"""`CounterfactualKind`: the `counterfactual` kind's hooks into the shared core.

Reading: round.json's block (archive_manifest), models.csv's columns and the battery's
tables (archive_tables), items, responses, extractions and calibration
(archive_rows); then, over the typed round, the checks across files (archive_round,
archive_battery) and, when those found nothing, the cross-table rules (rules); across
archives, the baseline round (archive_across).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pyarrow as pa

from reportgen.archive import ArchiveContent, FileProblems, Problems, RowChecker
from reportgen.errors import Problem
from reportgen.kinds import Kind, ModelFolderSpec, ParquetTableSpec, TableRead, TableSpec
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
    Attribute,
    Extraction,
    Group,
    Item,
    Manifest,
    Rewrite,
    Round,
    System,
    Template,
    Variable,
    Variant,
)
from reportgen.kinds.counterfactual.stages import STAGES
from reportgen.kinds.counterfactual.write import (
    attribute_row,
    group_row,
    rewrite_row,
    system_kind_row,
    variable_row,
    variant_row,
)
from reportgen.model import ItemRecord, Model
from reportgen.model import Manifest as CoreManifest
from reportgen.model import Round as CoreRound

if TYPE_CHECKING:
    from reportgen.collect.collected import Matched
    from reportgen.guard import GuardMaterial
    from reportgen.kinds.review_task import ReviewTask

_TITLE = {"pt-BR": "Auditorias contrafactuais", "en": "Counterfactual audits"}


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


class CounterfactualKind(Kind):
    """A counterfactual audit battery run against systems under test."""

    name = NAME
    stages = STAGES
    tables = TABLES
    model_folders = (ModelFolderSpec(cf.EXTRACTIONS_DIR, cf.EXTRACTIONS_SCHEMA, parse_extractions),)
    model_columns = cf.MODELS_KIND_HEADER
    single_run = False

    @property
    def title(self) -> Mapping[str, str]:
        return _TITLE

    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        return cf.ITEM_COLUMNS

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        return cf.RESPONSE_COLUMNS

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
        from reportgen.kinds.counterfactual.write import manifest_block

        return manifest_block(cast(Manifest, manifest))

    def parse_model(self, core: Model, row: RowChecker, manifest: CoreManifest | None) -> Model:
        return archive_tables.parse_system(core, row, manifest)

    def model_row(self, model: Model) -> list[str]:
        return system_kind_row(cast(System, model))

    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        return check_items(items, found)

    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        check_response_table(table, where, found)

    def build_round(self, content: ArchiveContent) -> Round:
        tables = content.tables
        responses = {model_id: responses_of(table) for model_id, table in content.responses.items()}
        extractions = cast(
            Mapping[str, tuple[Extraction, ...]], content.folders.get(cf.EXTRACTIONS_DIR, {})
        )
        return Round(
            path=content.path,
            manifest=cast(Manifest, content.manifest),
            models=cast(tuple[System, ...], content.models),
            items=cast(tuple[Item, ...], content.items),
            annulments=content.annulments,
            checksums=content.checksums,
            ledger_sha256=content.ledger_sha256,
            attributes=cast(tuple[Attribute, ...], tables[cf.ATTRIBUTES_FILE]),
            groups=cast(tuple[Group, ...], tables[cf.GROUPS_FILE]),
            variants=cast(tuple[Variant, ...], tables[cf.VARIANTS_FILE]),
            templates=cast(tuple[Template, ...], tables[cf.TEMPLATES_FILE]),
            rewrites=cast(tuple[Rewrite, ...], tables[cf.REWRITES_FILE]),
            variables=cast(tuple[Variable, ...], tables[cf.VARIABLES_FILE]),
            responses=types.MappingProxyType(responses),
            extractions=types.MappingProxyType(dict(extractions)),
            calibration=tables[cf.CALIBRATION_FILE],
            mask_audit=tables[cf.MASK_AUDIT_FILE],
            extraction_checks=tables[cf.EXTRACTION_CHECKS_FILE],
        )

    def check_round(self, round_: CoreRound, problems: Problems) -> None:
        from reportgen.kinds.counterfactual.rules import check_rules

        typed = cast(Round, round_)
        mark = problems.mark()
        check_round_files(typed, problems)
        # The rules read the files' values: after a file problem they would only
        # repeat it in other words.
        if problems.ok_since(mark):
            check_rules(typed, problems)

    def check_across(self, rounds: Sequence[CoreRound]) -> list[Problem]:
        return archive_across.check_across(rounds)

    # --- The other stages (reportgen.kinds.counterfactual.stages) ---

    def render_draft(self, draft_dir: Path, raw_dir: Path, *, seed: int | None) -> str:
        from reportgen.kinds.counterfactual.prepare import render_raw_round

        return render_raw_round(draft_dir, raw_dir, seed=seed)

    def collected_files(self, raw_dir: Path, system: Matched) -> dict[str, bytes]:
        from reportgen.kinds.counterfactual.collect import collected_files

        return collected_files(system)

    def freeze(self, raw_dir: Path, out_dir: Path) -> str:
        from reportgen.kinds.counterfactual.freeze import freeze_round

        return freeze_round(raw_dir, out_dir)

    @property
    def review_task(self) -> ReviewTask:
        from reportgen.kinds.counterfactual.review import REVIEW_TASK

        return REVIEW_TASK

    def guard_material(self, round_: CoreRound) -> GuardMaterial:
        from reportgen.kinds.counterfactual.render.guard import guard_material

        return guard_material(STAGES.round(round_))
