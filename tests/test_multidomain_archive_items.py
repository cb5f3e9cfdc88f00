"""items.parquet of a multidomain archive: each rule broken alone gives one problem
naming the file, the row and what was expected (multidomain-round.md, refusals 15, 19,
21, 24, 26 and the column rules per item type)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.factories.multidomain import RoundParts, only_problem, refused, small_round


def _weight(parts: RoundParts) -> None:
    parts.item("a-calc")["weight"] = 2
    parts.rehash_items()


def _no_justification(parts: RoundParts) -> None:
    parts.item("b-calc")["justification"] = None
    parts.rehash_items()


def _key_outside_choices(parts: RoundParts) -> None:
    parts.item("b-mcq")["answer_key"] = "E"
    parts.rehash_items()


def _open_without_rubric(parts: RoundParts) -> None:
    parts.item("b-open")["rubric_id"] = None
    parts.rehash_items()


def _unknown_rubric(parts: RoundParts) -> None:
    parts.item("b-open")["rubric_id"] = "r-none"
    parts.rehash_items()


def _stale_content_hash(parts: RoundParts) -> None:
    parts.item("b-calc")["prompt"] = "Pergunta editada depois do congelamento."


def _stale_bank_hash(parts: RoundParts) -> None:
    parts.block["bank_sha256"] = "0" * 64


def _canary_in_prompt(parts: RoundParts) -> None:
    item = parts.item("b-calc")
    item["prompt"] += " " + parts.item("a-open")["canary"]
    parts.rehash_items()
    for rows in parts.responses.values():
        for row in rows:
            if row["item_id"] == "b-calc":
                row["prompt_sha256"] = _sha(item["prompt"])


def _variant_grade(parts: RoundParts) -> None:
    parts.item("a-mcq-v")["grade"] = 3
    parts.rehash_items()


def _variant_same_hash(parts: RoundParts) -> None:
    parts.item("a-mcq-v")["prompt"] = parts.item("a-mcq")["prompt"]
    parts.rehash_items()
    for rows in parts.responses.values():
        for row in rows:
            if row["item_id"] == "a-mcq-v":
                row["prompt_sha256"] = _sha(parts.item("a-mcq")["prompt"])


def _published_test_item(parts: RoundParts) -> None:
    parts.item("a-open")["published"] = True


def _bad_type(parts: RoundParts) -> None:
    parts.item("a-open")["type"] = "essay"


def _calc_with_choices(parts: RoundParts) -> None:
    parts.item("a-calc")["choices"] = "AB"
    parts.rehash_items()


def _calibration_with_canary(parts: RoundParts) -> None:
    parts.item("cal-en")["canary"] = "CANARY-CAL-EN-1"
    parts.rehash_items()


def _sha(text: str) -> str:
    from reportgen.kinds.multidomain.terms import sha256_text

    return sha256_text(text)


CASES: list[tuple[str, Callable[[RoundParts], None], str, str, str]] = [
    ("15 weight", _weight, "items.parquet", "(item 'a-calc'), weight", "weighs 3"),
    (
        "19 justification",
        _no_justification,
        "items.parquet",
        "'b-calc'), justification",
        "required",
    ),
    ("19 key", _key_outside_choices, "items.parquet", "'b-mcq'), answer_key", "one letter of"),
    ("19 rubric", _open_without_rubric, "items.parquet", "'b-open'), rubric_id", "required"),
    ("19 unknown rubric", _unknown_rubric, "items.parquet", "'b-open'), rubric_id", "not a rubric"),
    ("21 content", _stale_content_hash, "items.parquet", "'b-calc'), content_sha256", "recomputed"),
    ("21 bank", _stale_bank_hash, "round.json", "multidomain.bank_sha256", "recomputed"),
    (
        "24 canary",
        _canary_in_prompt,
        "items.parquet",
        "'b-calc'), prompt",
        "canary of item 'a-open'",
    ),
    ("26 grade", _variant_grade, "items.parquet", "'a-mcq-v'), variant_of", "grade 3"),
    ("26 hash", _variant_same_hash, "items.parquet", "'a-mcq-v'), variant_of", "same content"),
    ("published", _published_test_item, "items.parquet", "'a-open'), published", "false"),
    ("type", _bad_type, "items.parquet", "'a-open'), type", "mcq | open | calc"),
    ("calc choices", _calc_with_choices, "items.parquet", "'a-calc'), choices", "null"),
    ("calibration canary", _calibration_with_canary, "items.parquet", "'cal-en'), canary", "null"),
]


@pytest.mark.parametrize(
    ("mutate", "file", "where", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_one_broken_rule_gives_one_problem(
    tmp_path: Path, mutate: Callable[[RoundParts], None], file: str, where: str, message: str
) -> None:
    parts = small_round()
    mutate(parts)
    round_dir = parts.write(tmp_path)
    problem = only_problem(round_dir)
    assert problem.file == file
    assert where in problem.where
    assert message in problem.message
    assert where in refused(round_dir)


def test_the_small_round_is_valid(tmp_path: Path) -> None:
    from reportgen.kinds.multidomain.model import Round
    from reportgen.kinds.rounds import read_round

    round_ = read_round(small_round().write(tmp_path))
    assert isinstance(round_, Round)
    assert [item.order for item in round_.items if item.calibration] == [None, None]
    orders = [item.order or 0 for item in round_.items if not item.calibration]
    assert sorted(orders) == list(range(1, 8))
