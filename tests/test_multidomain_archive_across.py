"""Rules across multidomain archives (multidomain-round.md, "Across archives"): an item
edited under the same id (refusal 22), a rubric changed under its id, and the previous
round (absent, of another kind, or not ended before this round was collected)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import main
from reportgen.kinds.rounds import check_across, read_round
from tests.factories import make_round
from tests.factories.multidomain import later_round, refused, small_round


def test_two_valid_rounds_verify_together(tmp_path: Path) -> None:
    first = small_round("md-one-2026").write(tmp_path)
    second = later_round("md-two-2026", "md-one-2026").write(tmp_path)
    result = CliRunner().invoke(main, ["verify", str(first), str(second)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "OK md-one-2026: 3 model(s), 9 item(s), 0 annulled",
        "OK md-two-2026: 3 model(s), 9 item(s), 0 annulled",
    ]


def test_an_item_edited_under_its_id_is_refused(tmp_path: Path) -> None:
    first = small_round("md-one-2026").write(tmp_path)
    edited = small_round("md-two-2026")
    edited.item("b-calc")["justification"] = "Outra justificativa."
    edited.rehash_items()
    second = edited.write(tmp_path)
    problems = check_across([read_round(first), read_round(second)])
    assert len(problems) == 1
    assert (problems[0].file, problems[0].where) == ("md-two-2026/items.parquet", "item 'b-calc'")
    assert "never edited under the same id" in problems[0].message
    assert "md-two-2026/items.parquet: item 'b-calc'" in refused(first, second)


def test_a_rubric_changed_under_its_id_is_refused(tmp_path: Path) -> None:
    first = small_round("md-one-2026").write(tmp_path)
    changed = small_round("md-two-2026")
    changed.tables["rubrics.parquet"][0]["anchor_5"] = "Outro exemplo."
    second = changed.write(tmp_path)
    problems = check_across([read_round(first), read_round(second)])
    assert [(p.file, p.where) for p in problems] == [
        ("md-two-2026/rubrics.parquet", "rubric 'r-open'")
    ]


def test_the_previous_round_is_read_from_beside_the_round(tmp_path: Path) -> None:
    edited = small_round("md-one-2026")
    edited.item("a-open")["prompt"] = "Pergunta antiga sobre o domínio dom-a."
    edited.rehash_items()
    for rows in edited.responses.values():
        for row in rows:
            if row["item_id"] == "a-open":
                from reportgen.kinds.multidomain.terms import sha256_text

                row["prompt_sha256"] = sha256_text(edited.item("a-open")["prompt"])
    edited.write(tmp_path)
    second = later_round("md-two-2026", "md-one-2026").write(tmp_path)
    output = refused(second)
    assert "md-two-2026/items.parquet: item 'a-open'" in output


def test_an_absent_previous_round_is_refused(tmp_path: Path) -> None:
    second = later_round("md-two-2026", "md-zero-2026").write(tmp_path)
    output = refused(second)
    assert (
        "md-two-2026/round.json: multidomain.previous_round: 'md-zero-2026': no archive" in output
    )


def test_a_previous_round_of_another_kind_is_refused(tmp_path: Path) -> None:
    make_round(tmp_path)  # tmp_path/tiny-round, an estigmas round
    second = later_round("md-two-2026", "tiny-round").write(tmp_path)
    assert "'tiny-round' is a 'estigmas' round, expected a multidomain one" in refused(second)


def test_a_previous_round_that_had_not_ended_is_refused(tmp_path: Path) -> None:
    small_round("md-one-2026").write(tmp_path)
    overlapping = small_round("md-two-2026")
    overlapping.block["previous_round"] = "md-one-2026"
    second = overlapping.write(tmp_path)
    output = refused(second)
    assert "'md-one-2026' ended on 2026-11-30, expected before" in output


def test_verify_reports_each_invalid_archive_and_fails(tmp_path: Path) -> None:
    good = small_round("md-one-2026").write(tmp_path)
    broken = small_round("md-two-2026")
    broken.item("a-calc")["weight"] = 5
    bad = broken.write(tmp_path)
    output = refused(good, bad)
    assert "md-two-2026: invalid round archive (1 problem(s))" in output
    assert "items.parquet: row" in output
    assert "1 of 2 archives are invalid" in output
    assert "OK md-one-2026" in output
