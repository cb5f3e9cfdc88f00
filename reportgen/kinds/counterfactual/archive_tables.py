"""models.csv's kind columns and the battery's CSV tables, read row by row
(counterfactual-round.md: refusals 14's models.csv columns, 17's signal, 21's mask
terms, 24's braces and slot sets, 25, 26, 28).

Each reader checks what one row shows on its own and returns the valid rows; what
needs another table (unknown ids, K per group, held values, ...) is `archive_battery`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import TypeVar, cast

from reportgen.archive import SLUG, FileProblems, Record, RowChecker, parse_rows
from reportgen.kinds import TableRead
from reportgen.kinds.counterfactual import schemas
from reportgen.kinds.counterfactual.model import (
    EXPECTED_VALUES,
    EXTRACTORS,
    LEVELS,
    SIGNALS,
    TEMPLATE_LANGUAGES,
    USER_TONES,
    VARIABLE_TYPES,
    Attribute,
    Expected,
    ExtractorKind,
    Group,
    Level,
    Manifest,
    Rewrite,
    Signal,
    System,
    Template,
    UserTone,
    Variable,
    VariableType,
    Variant,
)
from reportgen.kinds.counterfactual.terms import (
    IDENTIFIER,
    SLOT_NAME,
    has_stray_brace,
    is_sha256,
    slots_in,
    words,
)
from reportgen.model import Manifest as CoreManifest
from reportgen.model import Model

T = TypeVar("T")


def _identifier(row: RowChecker, field: str, seen: dict[str, int]) -> str:
    value = row.record[field]
    if not IDENTIFIER.fullmatch(value):
        row.bad(field, f"expected an id matching {IDENTIFIER.pattern}, got {value!r}")
    else:
        row.first_seen(field, value, seen)
    return value


def _reader(
    build: Callable[[RowChecker, dict[str, int]], T],
) -> Callable[[Sequence[Record], FileProblems], tuple[T, ...]]:
    """A table reader: `build` sees each row and the ids seen so far."""

    def parse(records: Sequence[Record], found: FileProblems) -> tuple[T, ...]:
        seen: dict[str, int] = {}
        return parse_rows(records, found, lambda row: build(row, seen))

    return parse


# --- models.csv ------------------------------------------------------------------------


def parse_system(core: Model, row: RowChecker, manifest: CoreManifest | None) -> System:
    """The models.csv row as a System; `baseline_model_id` checked against round.json's
    baseline_round when round.json is valid."""
    record = row.record
    for field in ("system_prompt_sha256", "tools_sha256"):
        if not is_sha256(record[field]):
            row.bad(field, f"expected 64 lower-case hex digits, got {record[field]!r}")
    tools = tuple(record["tools"].split(";")) if record["tools"] else ()
    if any(not tool or tool != "".join(tool.split()) for tool in tools) or list(tools) != sorted(
        set(tools)
    ):
        row.bad(
            "tools",
            "expected tool names ';'-separated, sorted, unique, without spaces, "
            f"got {record['tools']!r}",
        )
    baseline = record["baseline_model_id"] or None
    if baseline is not None and not SLUG.fullmatch(baseline):
        row.bad("baseline_model_id", f"{baseline!r} is not a model id [a-z0-9][a-z0-9-]*")
    elif (
        baseline is not None and isinstance(manifest, Manifest) and manifest.baseline_round is None
    ):
        row.bad("baseline_model_id", "set although round.json has no counterfactual.baseline_round")
    return System(
        **{f.name: getattr(core, f.name) for f in fields(Model)},
        system_prompt_sha256=record["system_prompt_sha256"],
        tools=tools,
        tools_sha256=record["tools_sha256"],
        context_source=row.text("context_source"),
        baseline_model_id=baseline,
    )


# --- the battery ---------------------------------------------------------------------


def _attribute(row: RowChecker, seen: dict[str, int]) -> Attribute:
    held = row.record["held_value"]
    if held != held.strip():
        row.bad("held_value", f"expected no surrounding spaces, got {held!r}")
    return Attribute(
        _identifier(row, "attribute_id", seen), row.text("name_pt"), row.text("name_en"), held
    )


def _group(row: RowChecker, seen: dict[str, int]) -> Group:
    return Group(
        _identifier(row, "group_id", seen),
        row.record["attribute_id"],
        row.text("name_pt"),
        row.text("name_en"),
    )


def _variant(row: RowChecker, seen: dict[str, int]) -> Variant:
    record = row.record
    signal = row.choice("signal", SIGNALS)
    slot = record["slot"] or None
    if slot is not None and not SLOT_NAME.fullmatch(slot):
        row.bad("slot", f"expected a slot name matching {SLOT_NAME.pattern}, got {slot!r}")
    value = record["value"]
    if value != value.strip():
        row.bad("value", f"expected no surrounding spaces, got {value!r}")
    position = record["position"]
    if not position.isdigit() or position.startswith("0"):
        row.bad("position", f"expected an integer k >= 1, got {position!r}")
    terms = tuple(record["mask_terms"].split(";")) if record["mask_terms"] else ()
    for term in terms:
        if not words(term):
            row.bad("mask_terms", f"the mask term {term!r} has no word")
    return Variant(
        variant_id=_identifier(row, "variant_id", seen),
        group_id=record["group_id"],
        signal=cast(Signal, signal),
        slot=slot,
        value=value,
        position=int(position) if position.isdigit() else 0,
        mask_terms=terms,
    )


def _check_texts(row: RowChecker, texts: Sequence[str], *, context: bool) -> None:
    """Refusal 24 on one row: no stray brace; the two texts with the same slot set."""
    names = ("text_pt", "text_en", "context") if context else ("text_pt", "text_en")
    for name in names:
        value = row.record[name]
        if has_stray_brace(value):
            row.bad(name, "a stray brace: { and } appear only around a slot name, as {slot}")
        elif any(not SLOT_NAME.fullmatch(slot) for slot in slots_in(value)):
            row.bad(name, f"a placeholder that is not a slot name {SLOT_NAME.pattern}")
    pt, en = (set(slots_in(text)) for text in texts)
    if pt != en:
        row.bad("text_en", f"expected the same slots as text_pt {sorted(pt)}, got {sorted(en)}")


def _template(row: RowChecker, seen: dict[str, int]) -> Template:
    record = row.record
    attributes = tuple(record["attributes"].split(";")) if record["attributes"] else ()
    if not attributes or not all(attributes):
        row.bad("attributes", f"expected ';'-separated attribute_ids, got {record['attributes']!r}")
    for name in ("text_pt", "text_en"):
        row.text(name)
    _check_texts(row, (record["text_pt"], record["text_en"]), context=True)
    expected: dict[str, Expected | None] = {}
    for column, value in record.items():
        if (
            column.startswith(schemas.EXPECTED_PREFIX)
            and column not in schemas.TEMPLATES_FIXED_HEADER
        ):
            if value not in ("", *EXPECTED_VALUES):
                row.bad(column, f"expected yes, no or empty, got {value!r}")
            expected[column.removeprefix(schemas.EXPECTED_PREFIX)] = (
                cast(Expected, value) if value else None
            )
    return Template(
        template_id=_identifier(row, "template_id", seen),
        attributes=attributes,
        language=row.choice("language", TEMPLATE_LANGUAGES),
        scenario_pt=row.text("scenario_pt"),
        scenario_en=row.text("scenario_en"),
        user_tone=cast(UserTone, row.choice("user_tone", USER_TONES)),
        text_pt=record["text_pt"],
        text_en=record["text_en"],
        context=record["context"] or None,
        published=row.boolean("published"),
        expected=expected,
    )


def _rewrite(row: RowChecker, seen: dict[str, int]) -> Rewrite:
    record = row.record
    key = f"{record['template_id']}/{record['variant_id']}"
    if key in seen:
        row.bad("variant_id", f"duplicate (template, variant) {key} (first in row {seen[key]})")
    seen.setdefault(key, row.row_number)
    for name in ("text_pt", "text_en"):
        row.text(name)
    _check_texts(row, (record["text_pt"], record["text_en"]), context=False)
    return Rewrite(
        record["template_id"], record["variant_id"], record["text_pt"], record["text_en"]
    )


def _scale(row: RowChecker, type_: str) -> tuple[int, int] | None:
    low, high = row.record["scale_min"], row.record["scale_max"]
    if type_ != "score":
        if low or high:
            row.bad(
                "scale_min",
                f"a {type_} variable has no scale: expected scale_min and scale_max empty",
            )
        return None
    try:
        scale = (int(low), int(high))
    except ValueError:
        scale = None
    if scale is None or str(scale[0]) != low or str(scale[1]) != high or scale[0] >= scale[1]:
        row.bad(
            "scale_min", f"a score needs integers scale_min < scale_max, got {low!r} and {high!r}"
        )
        return None
    return scale


def _variable(row: RowChecker, seen: dict[str, int]) -> Variable:
    variable_id = row.record["variable_id"]
    if not SLOT_NAME.fullmatch(variable_id):
        row.bad("variable_id", f"expected an id matching {SLOT_NAME.pattern}, got {variable_id!r}")
    elif variable_id in seen:
        row.bad(
            "variable_id",
            f"duplicate variable_id {variable_id!r} (first in row {seen[variable_id]})",
        )
    seen.setdefault(variable_id, row.row_number)
    type_ = row.choice("type", VARIABLE_TYPES)
    return Variable(
        variable_id=variable_id,
        level=cast(Level, row.choice("level", LEVELS)),
        type=cast(VariableType, type_),
        scale=_scale(row, type_),
        extractor=cast(ExtractorKind, row.choice("extractor", EXTRACTORS)),
        extractor_id=row.text("extractor_id"),
        extractor_version=row.text("extractor_version"),
        name_pt=row.text("name_pt"),
        name_en=row.text("name_en"),
        question_pt=row.text("question_pt"),
        question_en=row.text("question_en"),
    )


parse_attributes = _reader(_attribute)
parse_groups = _reader(_group)
parse_variants = _reader(_variant)
parse_templates = _reader(_template)
parse_rewrites = _reader(_rewrite)
parse_variables = _reader(_variable)


# --- what depends on another table ---------------------------------------------------


def _records(tables: Mapping[str, TableRead], name: str) -> tuple[Record, ...] | None:
    read = tables.get(name)
    return None if read is None else read.records


def binary_variable_columns(tables: Mapping[str, TableRead]) -> tuple[str, ...] | None:
    """templates.csv's tail: `expected_<v>` per binary variable in variables.csv order
    (None when variables.csv is unreadable)."""
    records = _records(tables, schemas.VARIABLES_FILE)
    if records is None:
        return None
    return tuple(
        schemas.expected_column(record["variable_id"])
        for _, record in records
        if record["type"] == "binary"
    )


def rewrites_present(tables: Mapping[str, TableRead]) -> bool | None:
    """rewrites.csv exists exactly when some variant has the writing_style signal
    (None, either way, when variants.csv is unreadable or has no rows: check_battery
    refuses an empty variants.csv, which would otherwise read as a rewrites.csv present
    although not allowed)."""
    records = _records(tables, schemas.VARIANTS_FILE)
    if not records:
        return None
    return any(record["signal"] == "writing_style" for _, record in records)


def calibration_present(tables: Mapping[str, TableRead]) -> bool | None:
    """calibration.parquet exists exactly when some variable is a judged score."""
    records = _records(tables, schemas.VARIABLES_FILE)
    if records is None:
        return None
    return any(r["type"] == "score" and r["extractor"] == "model" for _, r in records)
