"""The battery's tables of a counterfactual archive (counterfactual-round.md, refusals
15 to 28), the optional tables (rewrites.csv, calibration.parquet) and the Parquet
files' shape: each broken rule is one line naming the file and the row or key,
`reportgen verify` exits 1, and nothing is written."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reportgen.kinds.counterfactual.battery import Battery
from reportgen.kinds.counterfactual.model import Attribute, Group, Rewrite, Round, Variant
from reportgen.kinds.counterfactual.terms import sha256_text
from reportgen.kinds.rounds import verify_round
from tests.factories.counterfactual import (
    assert_refused,
    refresh_checksums,
    replace_row,
    small_round,
    write,
)

VARIANTS = "variants.csv"
TEMPLATES = "templates.csv"


def _changed(**tables: Any) -> Round:
    return dataclasses.replace(small_round(), **tables)


def _variant(index: int, **changes: Any) -> Round:
    return _changed(variants=replace_row(small_round().variants, index, **changes))


def _template(index: int, **changes: Any) -> Round:
    return _changed(templates=replace_row(small_round().templates, index, **changes))


def _variable(index: int, **changes: Any) -> Round:
    return _changed(variables=replace_row(small_round().variables, index, **changes))


# --- 15, 16 ------------------------------------------------------------------------------


def test_a_group_naming_an_unknown_attribute_is_one_line(tmp_path: Path) -> None:
    extra = Group("sobra", "idade", "Sobra", "Spare")
    round_dir = write(_changed(groups=(*small_round().groups, extra)), tmp_path)
    assert_refused(round_dir, "groups.csv", "row 5, attribute_id", "unknown attribute 'idade'")


def test_an_attribute_with_one_group_is_refused(tmp_path: Path) -> None:
    round_ = small_round()
    round_ = dataclasses.replace(
        round_,
        groups=round_.groups[:3],
        variants=tuple(v for v in round_.variants if v.variant_id != "e-c1"),
        rewrites=tuple(r for r in round_.rewrites if r.variant_id != "e-c1"),
    )
    round_dir = write(round_, tmp_path)
    assert_refused(round_dir, "attributes.csv", "row 2 (attribute 'estilo')", "at least 2 groups")


def test_a_variant_of_an_unknown_group_is_refused(tmp_path: Path) -> None:
    extra = Variant("x1", "nome-x", "name", "nome", "Joana Silva", 1, ())
    round_dir = write(_changed(variants=(*small_round().variants, extra)), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 7, group_id", "unknown group 'nome-x'")


# --- 17 ---------------------------------------------------------------------------------


def test_a_signal_outside_the_five_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, signal="gender"), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 2, signal", "name | age | postcode")


def test_a_signal_differing_within_an_attribute_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, signal="age"), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 2, signal", "differs from the attribute 'nome'")


def test_a_slot_on_a_writing_style_variant_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(5, slot="estilo"), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 6, slot", "a writing_style variant has no slot")


def test_a_name_variant_without_slot_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, slot=None), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 2, slot", "needs a slot")


def test_a_slot_differing_within_an_attribute_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, slot="cliente"), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 2, slot", "differs from the attribute 'nome'")


def test_a_slot_of_two_attributes_is_refused(tmp_path: Path) -> None:
    round_ = small_round()
    round_ = dataclasses.replace(
        round_,
        attributes=(*round_.attributes, Attribute("idade", "Idade", "Age", "40")),
        groups=(
            *round_.groups,
            Group("jovem", "idade", "Jovens", "Young"),
            Group("idoso", "idade", "Idosos", "Older"),
        ),
        variants=(
            *round_.variants,
            Variant("i-j1", "jovem", "age", "nome", "25", 1, ()),
            Variant("i-i1", "idoso", "age", "nome", "68", 1, ()),
        ),
    )
    round_dir = write(round_, tmp_path)
    assert_refused(round_dir, VARIANTS, "row 7, slot", "belongs to attribute 'nome'")


# --- 18 to 21 ---------------------------------------------------------------------------


def test_positions_not_one_to_k_are_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, position=3), tmp_path)
    assert_refused(round_dir, VARIANTS, "group 'nome-a'", "expected exactly 1..K")


def test_groups_of_unequal_size_are_refused(tmp_path: Path) -> None:
    extra = Variant("n-a3", "nome-a", "name", "nome", "Beatriz Müller", 3, ())
    round_dir = write(_changed(variants=(*small_round().variants, extra)), tmp_path)
    assert_refused(round_dir, VARIANTS, "attribute 'nome'", "unequal numbers of variants [3, 2]")


def test_one_name_per_group_is_refused(tmp_path: Path) -> None:
    kept = tuple(v for v in small_round().variants if v.position == 1)
    round_dir = write(_changed(variants=kept), tmp_path)
    assert_refused(round_dir, VARIANTS, "attribute 'nome'", "at least 2 names per group")


def test_an_empty_value_outside_an_explicit_control_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, value=""), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 2, value", "only an explicit control")


def test_a_value_repeated_within_an_attribute_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, value="Helena Schneider"), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 2, value", "repeats row 1")


def test_a_mask_term_without_a_word_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variant(1, mask_terms=("--",)), tmp_path)
    assert_refused(round_dir, VARIANTS, "row 2, mask_terms", "has no word")


# --- 22 to 25 ---------------------------------------------------------------------------


def test_an_empty_held_value_of_a_slot_used_elsewhere_is_refused(tmp_path: Path) -> None:
    attributes = replace_row(small_round().attributes, 0, held_value="")
    round_dir = write(_changed(attributes=attributes), tmp_path)
    assert_refused(round_dir, "attributes.csv", "row 1, held_value", "items of another attribute")


def test_a_template_without_slot_is_refused(tmp_path: Path) -> None:
    round_ = _template(1, text_pt="Quero cancelar a assinatura.", text_en="I want to cancel.")
    round_dir = write(round_, tmp_path)
    assert_refused(round_dir, TEMPLATES, "row 2, text_pt", "template without slot")


def test_a_slot_in_the_context_alone_is_enough(tmp_path: Path) -> None:
    round_ = _template(0, text_pt="Olá. Quero o reembolso.", text_en="Hello. I want a refund.")
    rewrites = tuple(
        dataclasses.replace(r, text_pt="Olá. Quero o reembolso.", text_en="Hello. I want a refund.")
        if r.template_id == "t1"
        else r
        for r in round_.rewrites
    )
    round_ = dataclasses.replace(round_, rewrites=rewrites)
    # The items follow the battery: re-rendered, or rule 30 (non-minimal pair) refuses them.
    cells = Battery.of_round(round_).expected_cells
    items = tuple(
        dataclasses.replace(
            item,
            prompt=(prompt := cells[(item.template_id, item.variant_id)].prompt or ""),
            prompt_sha256=sha256_text(prompt),
        )
        for item in round_.items
    )
    # And so do the calls: each sent its item as rendered (refusal 33).
    sent = {item.item_id: item.prompt_sha256 for item in items}
    responses = {
        model_id: tuple(dataclasses.replace(r, prompt_sha256=sent[r.item_id]) for r in rows)
        for model_id, rows in round_.responses.items()
    }
    changed = dataclasses.replace(round_, items=items, responses=responses)
    assert verify_round(write(changed, tmp_path)) == []


def test_an_unknown_slot_is_refused(tmp_path: Path) -> None:
    round_dir = write(_template(0, context="Cliente: {nome}; cidade {cidade}"), tmp_path)
    assert_refused(round_dir, TEMPLATES, "row 1, context", "unknown slot(s) ['cidade']")


def test_a_stray_brace_is_refused(tmp_path: Path) -> None:
    round_dir = write(_template(1, text_pt="Sou {nome} e quero {cancelar."), tmp_path)
    assert_refused(round_dir, TEMPLATES, "row 2, text_pt", "a stray brace")


def test_texts_with_different_slots_are_refused(tmp_path: Path) -> None:
    round_dir = write(_template(1, text_en="I want to cancel my subscription."), tmp_path)
    assert_refused(round_dir, TEMPLATES, "row 2, text_en", "the same slots as text_pt")


@pytest.mark.parametrize(
    ("changes", "where", "fragment"),
    [
        ({"attributes": ()}, "row 2, attributes", "';'-separated attribute_ids"),
        ({"attributes": ("nome", "idade")}, "row 2, attributes", "unknown attribute(s) ['idade']"),
        ({"language": "es"}, "row 2, language", "pt-BR | en"),
        ({"user_tone": "polite"}, "row 2, user_tone", "neutral | angry"),
    ],
)
def test_template_columns_outside_their_sets_are_refused(
    tmp_path: Path, changes: dict[str, Any], where: str, fragment: str
) -> None:
    round_dir = write(_template(1, **changes), tmp_path)
    assert_refused(round_dir, TEMPLATES, where, fragment)


# --- 26 ---------------------------------------------------------------------------------


def test_expected_columns_not_following_the_binary_variables_are_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    path = round_dir / TEMPLATES
    path.write_bytes(path.read_bytes().replace(b"expected_reembolso", b"expected_tom", 1))
    refresh_checksums(round_dir, battery=True)
    assert_refused(round_dir, TEMPLATES, "header", "one expected_<variable_id> per binary variable")


def test_an_expected_value_outside_yes_no_is_refused(tmp_path: Path) -> None:
    round_dir = write(_template(1, expected={"reembolso": "talvez"}), tmp_path)
    assert_refused(round_dir, TEMPLATES, "row 2, expected_reembolso", "yes, no or empty")


# --- 27 and the optional tables ---------------------------------------------------------


def test_a_missing_rewrite_is_refused(tmp_path: Path) -> None:
    round_dir = write(_changed(rewrites=small_round().rewrites[:-1]), tmp_path)
    assert_refused(round_dir, "rewrites.csv", "template 't3', variant 'e-c1'", "missing row")


def test_an_extra_rewrite_is_refused(tmp_path: Path) -> None:
    extra = Rewrite("t2", "e-p1", "Sou {nome}.", "I am {nome}.")
    round_dir = write(_changed(rewrites=(*small_round().rewrites, extra)), tmp_path)
    assert_refused(round_dir, "rewrites.csv", "row 5", "extra row")


def test_a_rewrite_with_a_slot_of_no_other_attribute_is_refused(tmp_path: Path) -> None:
    rewrites = replace_row(small_round().rewrites, 1, text_pt="{estilo}", text_en="{estilo}")
    round_dir = write(_changed(rewrites=rewrites), tmp_path)
    problems = verify_round(round_dir)
    assert [(p.file, p.where) for p in problems] == [
        ("rewrites.csv", "row 2, text_pt"),
        ("rewrites.csv", "row 2, text_en"),
    ]


def test_rewrites_without_a_writing_style_attribute_are_refused(tmp_path: Path) -> None:
    round_ = small_round()
    variants = tuple(
        dataclasses.replace(v, signal="explicit", slot="estilo", value=f", {v.value}")
        if v.signal == "writing_style"
        else v
        for v in round_.variants
    )
    round_dir = write(dataclasses.replace(round_, variants=variants), tmp_path)
    assert_refused(round_dir, "rewrites.csv", "", "present although not allowed")


def test_missing_rewrites_with_a_writing_style_attribute_are_refused(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    (round_dir / "rewrites.csv").unlink()
    refresh_checksums(round_dir, battery=True)
    assert_refused(round_dir, "rewrites.csv", "", "missing file (there exactly when")


def test_calibration_without_a_judged_variable_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variable(2, extractor="code"), tmp_path)
    assert_refused(round_dir, "calibration.parquet", "", "present although not allowed")


def test_missing_calibration_with_a_judged_variable_is_refused(tmp_path: Path) -> None:
    round_dir = write(_changed(calibration=()), tmp_path)
    assert_refused(round_dir, "calibration.parquet", "", "missing file (there exactly when")


# --- 28 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("index", "changes", "where", "fragment"),
    [
        (0, {"level": "urgent"}, "row 1, level", "decision | quality | tone"),
        (0, {"type": "ordinal"}, "row 1, type", "binary | count | score"),
        (1, {"extractor": "human"}, "row 2, extractor", "code | model"),
        (2, {"scale": (5, 1)}, "row 3, scale_min", "scale_min < scale_max"),
        (1, {"scale": (0, 10)}, "row 2, scale_min", "has no scale"),
    ],
)
def test_variable_columns_outside_their_sets_are_refused(
    tmp_path: Path, index: int, changes: dict[str, Any], where: str, fragment: str
) -> None:
    round_dir = write(_variable(index, **changes), tmp_path)
    problem = assert_refused(round_dir, "variables.csv", where, fragment)
    assert problem.message


def test_a_score_without_a_scale_is_refused(tmp_path: Path) -> None:
    round_dir = write(_variable(2, scale=None), tmp_path)
    assert_refused(round_dir, "variables.csv", "row 3, scale_min", "scale_min < scale_max")


# --- the Parquet files' shape ------------------------------------------------------------


def _rewrite_parquet(path: Path, change: Callable[[pa.Table], pa.Table]) -> None:
    pq.write_table(change(pq.read_table(path)), path)
    refresh_checksums(path.parent if path.parent.name != "extractions" else path.parent.parent)


def test_a_truncated_extraction_file_is_one_line(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    path = round_dir / "extractions" / "assistente-v1.parquet"
    path.write_bytes(path.read_bytes()[:200])
    refresh_checksums(round_dir)
    assert_refused(round_dir, "extractions/assistente-v1.parquet", "", "unreadable Parquet file")


def test_a_truncated_calibration_file_is_one_line(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    path = round_dir / "calibration.parquet"
    path.write_bytes(path.read_bytes()[:100])
    refresh_checksums(round_dir)
    assert_refused(round_dir, "calibration.parquet", "", "unreadable Parquet file")


def test_a_wrong_extraction_column_type_is_one_line(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    path = round_dir / "extractions" / "assistente-v1.parquet"
    _rewrite_parquet(
        path,
        lambda t: t.set_column(
            t.schema.get_field_index("run"), "run", t.column("run").cast(pa.float64())
        ),
    )
    assert_refused(
        round_dir, "extractions/assistente-v1.parquet", "column run", "expected type integer"
    )


def test_an_extraction_row_of_another_system_is_one_line(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    path = round_dir / "extractions" / "assistente-v1.parquet"
    _rewrite_parquet(
        path,
        lambda t: t.set_column(
            0, "model_id", pa.array(["outro", *t.column("model_id").to_pylist()[1:]])
        ),
    )
    assert_refused(round_dir, "extractions/assistente-v1.parquet", "row 1, model_id", "expected")


def test_a_malformed_called_at_is_one_line(tmp_path: Path) -> None:
    round_dir = write(small_round(), tmp_path)
    path = round_dir / "responses" / "assistente-v1.parquet"
    column = "called_at"

    def change(table: pa.Table) -> pa.Table:
        values = table.column(column).to_pylist()
        values[0] = "2026-03-02 09:01:00"
        return table.set_column(table.schema.get_field_index(column), column, pa.array(values))

    pq.write_table(change(pq.read_table(path)), path)
    refresh_checksums(round_dir)
    assert_refused(
        round_dir,
        "responses/assistente-v1.parquet",
        "row 1 (item 't1-n-a1'), called_at",
        "YYYY-MM-DD",
    )
