"""The index of the 44 refusals of counterfactual-round.md, each as an archive on disk.

Every case writes a valid archive, breaks exactly one rule of the round spec in it and
runs `reportgen verify` on it through the CLI: exit 1, no traceback, the expected problem
line(s) naming the file and the row or key, and the archive's bytes unchanged.

Two valid bases, both written with the kind's own writer through tests/factories/
counterfactual.py's `write` (battery_sha256 and SHA256SUMS recomputed after the change,
so that only the broken rule shows):
- refusals 1-28 (round.json, models.csv, the battery's tables) change `small_round()`
  of tests/factories/counterfactual.py, as the archive tests of those refusals do;
- refusals 29-44 (the cross-table rules) change `minimal_round()` of tests/factories/
  counterfactual_rounds.py, so that each case is the archive twin of one in-memory rule
  test of tests/test_counterfactual_rules_*.py (two systems, bot-a and bot-b).
Changes that the typed round cannot hold (an unknown round.json key, a negative rational,
an extraction file for no system) are made on disk afterwards.

Index: refusal, the break made here (the spec's own example where it names one), and the
other archive-level tests of the same refusal (tests/test_counterfactual_archive_<file>.py
by test name; "rules" = only the in-memory tests of tests/test_counterfactual_rules_*.py
before this file).

 #  | break made here                                  | other archive-level tests
----|--------------------------------------------------|-----------------------------------
  1 | unknown block key `limitations`                  | manifest: unknown/missing key, block
  2 | repetitions 1                                    | manifest: one_repetition
  3 | one byte of templates.csv changed                | manifest: wrong/byte_changed battery
  4 | preregistered_on after collected_on              | manifest: plan_fixed_after_collection
  5 | protocol_frozen_on after collected_on            | manifest: protocol_frozen_after
  6 | preregistration.variables lacks `opcoes`         | manifest: preregistered_variables
  7 | equal_opportunity on a count variable            | manifest: equal_opportunity_* (2)
  8 | acceptable_difference "-1"                       | manifest: negative / above_one / json
  9 | correction "bonferroni"                          | manifest: unsupported_*, another_test
 10 | min_items 4 in a round that is not synthetic     | manifest: few_calibration, threshold
 11 | mask_token "[HELENA]" (a mask term)              | manifest: empty_or_braced, signal
 12 | baseline_round names the round itself            | manifest: own_baseline; systems: 4
 13 | ended_on null                                    | manifest: null_ended_on, dates, langs
 14 | extractions/ file for no system                  | systems: 9 tests
 15 | a group of an unknown attribute                  | battery: unknown_attribute, one group
 16 | a variant of an unknown group                    | battery: variant_of_an_unknown_group
 17 | signal "gender"                                  | battery: signal/slot tests (6)
 18 | positions 1, 3 in group nome-a                   | battery: positions_not_one_to_k
 19 | groups of 3 and 2 names                          | battery: groups_of_unequal_size
 20 | one name per group                               | battery: one_name_per_group
 21 | an empty name                                    | battery: empty_value, repeated, mask
 22 | held_value of `nome` empty                       | battery: empty_held_value
 23 | t2 without slot ("template without slot")        | battery: template_without_slot
 24 | a stray brace "{cancelar."                       | battery: unknown_slot, stray, texts
 25 | language "es"                                    | battery: template_columns (4)
 26 | expected_reembolso "talvez"                      | battery: expected_columns, value
 27 | a missing rewrite (t3, e-c1)                     | battery: missing/extra rewrite (5)
 28 | level "urgent"                                   | battery: variable_columns, scale
 29 | item t1--n4 missing (with its rows)              | rules
 30 | "muito quebrada": an extra word in a prompt      | rules
 31 | prompt_sha256 of another text                    | rules
 32 | bot-a lacks (t1, n2, run 2)                      | rules
 33 | one call under another system prompt             | rules
 34 | called_at earlier than the previous call's       | battery: malformed_called_at
 35 | every call of group sul before nordeste's        | rules
 36 | bot-b lacks (t1--i1, run 2, palavras)            | battery: extraction_row_of_another
 37 | binary value "sim"                               | rules
 38 | count value "-1"                                 | rules
 39 | score 6 on a 1-5 scale                           | rules
 40 | a model extractor's input_text null              | rules
 41 | judge input "Olá, Maria do Socorro Nascimento!"  | rules
 42 | calibration.parquet with no judged score left    | battery: calibration_without_judged
 43 | 3 calibration items, min_items 4                 | rules
 44 | judge_score 5 where the frozen value is 4        | rules

Damaged files (a Parquet file cut short, a column of another type, an empty CSV, a CSV
with its header only, a CSV with a byte-order mark, a byte that is not UTF-8) are at the
end: one line each; a CSV with CRLF line ends is read like one with LF. Found while
writing this file and fixed in the kind: a variants.csv with no rows was blamed on
rewrites.csv, and an attribute whose groups hold no variant on the templates' slots
(archive_battery now names both in variants.csv, refusal 18 with K = 0); a responses or
extractions file with its rows gone gave a line per missing row, then lines on the
extractions and calibration rows of those responses (the rules now give one line).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.kinds.counterfactual.model import (
    Group,
    Round,
    VariablePlan,
    Variant,
)
from reportgen.kinds.counterfactual.terms import sha256_text
from tests.factories import counterfactual as small
from tests.factories import counterfactual_rounds as mini

RJ = "round.json"
PLAN = "counterfactual.preregistration"
BOT_A = "responses/bot-a.parquet"
EXT_A = "extractions/bot-a.parquet"
EXT_B = "extractions/bot-b.parquet"

Build = Callable[[Path], list[Path]]


# --- the valid bases and how a case changes one ------------------------------------------


def _small(change: Callable[[Round], Round]) -> Build:
    """A case that changes `small_round()` before it is written."""
    return lambda parent: [small.write(change(small.small_round()), parent)]


def _small_on_disk(change: Callable[[Path], None]) -> Build:
    """A case that changes the files of the written `small_round()`."""

    def build(parent: Path) -> list[Path]:
        round_dir = small.write(small.small_round(), parent)
        change(round_dir)
        return [round_dir]

    return build


def _mini(change: Callable[[Round], Round]) -> Build:
    """A case that changes `minimal_round()` before it is written."""
    return lambda parent: [small.write(change(mini.minimal_round()), parent)]


def _mini_on_disk(change: Callable[[Path], None]) -> Build:
    """A case that changes the files of the written `minimal_round()`."""

    def build(parent: Path) -> list[Path]:
        round_dir = small.write(mini.minimal_round(), parent)
        change(round_dir)
        return [round_dir]

    return build


def _edit_json(round_dir: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads((round_dir / RJ).read_text(encoding="utf-8"))
    change(data)
    (round_dir / RJ).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    small.refresh_checksums(round_dir)


def _rows(round_: Round, table: str, index: int, **changes: Any) -> Round:
    """`round_` with row `index` of one of its battery tables changed."""
    changed: dict[str, Any] = {table: small.replace_row(getattr(round_, table), index, **changes)}
    return replace(round_, **changed)


def _plan(round_: Round, **changes: Any) -> Round:
    return small.with_plan(round_, **changes)


# --- 1 to 14: round.json and models.csv (small_round) ------------------------------------


def _r01_unknown_key(round_dir: Path) -> None:
    _edit_json(round_dir, lambda d: d["counterfactual"].update(limitations={"pt-BR": "x"}))


def _r03_battery_byte(round_dir: Path) -> None:
    templates = round_dir / "templates.csv"
    templates.write_bytes(templates.read_bytes().replace(b"Cancelamento", b"Cancelamentos"))
    small.refresh_checksums(round_dir)  # SHA256SUMS follows; battery_sha256 does not


def _r06_variables(round_: Round) -> Round:
    plan = round_.manifest.preregistration
    return _plan(round_, variables={k: v for k, v in plan.variables.items() if k != "opcoes"})


def _r07_criterion(round_: Round) -> Round:
    plan = round_.manifest.preregistration
    wrong = VariablePlan("equal_opportunity", Fraction(1))
    return _plan(round_, variables={**plan.variables, "opcoes": wrong})


def _r08_negative(round_dir: Path) -> None:
    _edit_json(
        round_dir,
        lambda d: d["counterfactual"]["preregistration"]["variables"]["opcoes"].update(
            acceptable_difference="-1"
        ),
    )


def _r14_stray_file(round_dir: Path) -> None:
    folder = round_dir / "extractions"
    shutil.copy(folder / "assistente-v1.parquet", folder / "assistente-v9.parquet")
    small.refresh_checksums(round_dir)


# --- 15 to 28: the battery's tables (small_round) ----------------------------------------


def _r15_group(round_: Round) -> Round:
    return replace(round_, groups=(*round_.groups, Group("sobra", "idade", "Sobra", "Spare")))


def _r16_variant(round_: Round) -> Round:
    extra = Variant("x1", "nome-x", "name", "nome", "Joana Silva", 1, ())
    return replace(round_, variants=(*round_.variants, extra))


def _r19_unequal(round_: Round) -> Round:
    extra = Variant("n-a3", "nome-a", "name", "nome", "Beatriz Müller", 3, ())
    return replace(round_, variants=(*round_.variants, extra))


def _r20_one_name(round_: Round) -> Round:
    return replace(round_, variants=tuple(v for v in round_.variants if v.position == 1))


def _r23_no_slot(round_: Round) -> Round:
    return _rows(
        round_, "templates", 1, text_pt="Quero cancelar a assinatura.", text_en="I want to cancel."
    )


# --- 29 to 44: the cross-table rules (minimal_round) -------------------------------------


def _renumbered(round_: Round, model_id: str) -> Round:
    """run_order 1..N again after rows of `model_id` were removed (keeping their order)."""
    rows = sorted(round_.responses[model_id], key=lambda r: r.run_order)
    kept = tuple(replace(r, run_order=n) for n, r in enumerate(rows, start=1))
    return mini.with_responses(round_, model_id, kept)


def _r29_missing_item(round_: Round) -> Round:
    removed = "t1--n4"
    round_ = replace(
        round_,
        items=tuple(i for i in round_.items if i.item_id != removed),
        responses={
            m: tuple(r for r in rows if r.item_id != removed)
            for m, rows in round_.responses.items()
        },
        extractions={
            m: tuple(e for e in rows if e.item_id != removed)
            for m, rows in round_.extractions.items()
        },
    )
    return _renumbered(_renumbered(round_, "bot-a"), "bot-b")


def _with_prompt(round_: Round, index: int, prompt: str) -> Round:
    item = round_.items[index]
    return mini.with_item(round_, item.item_id, prompt=prompt, prompt_sha256=sha256_text(prompt))


def _r30_extra_word(round_: Round) -> Round:
    prompt = round_.items[2].prompt.replace("quebrada", "muito quebrada")
    return _with_prompt(round_, 2, prompt)


def _r32_missing_cell(round_: Round) -> Round:
    key = ("t1--n2", 2)
    rows = tuple(r for r in round_.responses["bot-a"] if (r.item_id, r.run) != key)
    extractions = tuple(e for e in round_.extractions["bot-a"] if (e.item_id, e.run) != key)
    round_ = mini.with_extractions(mini.with_responses(round_, "bot-a", rows), "bot-a", extractions)
    return _renumbered(round_, "bot-a")


def _r35_not_interleaved(round_: Round) -> Round:
    rows = round_.responses["bot-a"]
    southern = [r for r in rows if r.item_id in ("t1--n1", "t1--n2")]
    others = [r for r in rows if r.item_id not in ("t1--n1", "t1--n2")]
    reordered = tuple(
        replace(r, run_order=n, called_at=mini.START + timedelta(seconds=10 * n))
        for n, r in enumerate(southern + others, start=1)
    )
    return mini.with_responses(round_, "bot-a", reordered)


def _r36_missing_extraction(round_: Round) -> Round:
    key = ("t1--i1", 2, "palavras")
    rows = round_.extractions["bot-b"]
    kept = tuple(e for e in rows if (e.item_id, e.run, e.variable_id) != key)
    return mini.with_extractions(round_, "bot-b", kept)


def _extraction(key: tuple[str, int, str], **changes: Any) -> Callable[[Round], Round]:
    return lambda round_: mini.with_extraction(round_, "bot-b", key, **changes)


def _r41_leak(round_: Round) -> Round:
    text = "Olá, Maria do Socorro Nascimento! Vamos resolver."
    key = ("t1--n3", 1, "tom")
    return mini.with_extraction(
        round_, "bot-b", key, input_text=text, input_sha256=sha256_text(text)
    )


def _r42_no_judge(round_: Round) -> Round:
    variables = tuple(
        replace(v, type="count", scale=None) if v.variable_id == "tom" else v
        for v in round_.variables
    )
    return replace(round_, variables=variables)


def _r43_min_items(round_: Round) -> Round:
    plan = round_.manifest.preregistration
    return _plan(round_, calibration=replace(plan.calibration, min_items=4))


def _r44_judge_score(round_: Round) -> Round:
    return replace(round_, calibration=small.replace_row(round_.calibration, 2, judge_score=5))


# --- the cases ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One refusal: how to build the broken archive(s), and the problem line(s) expected,
    each as (file, where, message fragment)."""

    number: int
    build: Build
    lines: tuple[tuple[str, str, str], ...]
    why_more: str = ""  # when one broken thing honestly gives more than one line


def _case(number: int, build: Build, file: str, where: str, fragment: str) -> Case:
    return Case(number, build, ((file, where, fragment),))


CASES = [
    _case(1, _small_on_disk(_r01_unknown_key), RJ, "counterfactual.limitations", "unknown key"),
    _case(
        2,
        _small(lambda r: small.with_manifest(r, repetitions=1)),
        RJ,
        "counterfactual.repetitions",
        "expected an integer >= 2",
    ),
    _case(3, _small_on_disk(_r03_battery_byte), RJ, "counterfactual.battery_sha256", "sha256sum"),
    _case(
        4,
        _small(lambda r: _plan(r, preregistered_on=date(2026, 3, 3))),
        RJ,
        f"{PLAN}.preregistered_on",
        "after collected_on",
    ),
    _case(
        5,
        _small(lambda r: small.with_manifest(r, protocol_frozen_on=date(2026, 3, 3))),
        RJ,
        "protocol_frozen_on",
        "on or before collected_on",
    ),
    _case(6, _small(_r06_variables), RJ, f"{PLAN}.variables", "missing ['opcoes']"),
    _case(
        7,
        _small(_r07_criterion),
        RJ,
        f"{PLAN}.variables.opcoes.criterion",
        "binary variables only",
    ),
    _case(
        8,
        _small_on_disk(_r08_negative),
        RJ,
        f"{PLAN}.variables.opcoes.acceptable_difference",
        "a rational >= 0",
    ),
    _case(
        9,
        _small_on_disk(
            lambda d: _edit_json(
                d, lambda j: j["counterfactual"]["preregistration"].update(correction="bonferroni")
            )
        ),
        RJ,
        f"{PLAN}.correction",
        "the only value accepted",
    ),
    _case(
        10,
        _small(lambda r: small.with_manifest(r, synthetic=False)),
        RJ,
        f"{PLAN}.calibration.min_items",
        "expected >= 50",
    ),
    _case(
        11,
        _small(lambda r: small.with_manifest(r, mask_token="[HELENA]")),
        RJ,
        "counterfactual.mask_token",
        "'Helena'",
    ),
    _case(
        12,
        _small(lambda r: small.with_manifest(r, baseline_round=r.round_id)),
        RJ,
        "counterfactual.baseline_round",
        "its own round_id",
    ),
    _case(
        13,
        _small(lambda r: small.with_manifest(r, ended_on=None)),
        RJ,
        "ended_on",
        "frozen complete",
    ),
    _case(
        14,
        _small_on_disk(_r14_stray_file),
        "extractions/assistente-v9.parquet",
        "",
        "which models.csv lacks",
    ),
    _case(15, _small(_r15_group), "groups.csv", "row 5, attribute_id", "unknown attribute 'idade'"),
    _case(16, _small(_r16_variant), "variants.csv", "row 7, group_id", "unknown group 'nome-x'"),
    _case(
        17,
        _small(lambda r: _rows(r, "variants", 1, signal="gender")),
        "variants.csv",
        "row 2, signal",
        "name | age | postcode",
    ),
    _case(
        18,
        _small(lambda r: _rows(r, "variants", 1, position=3)),
        "variants.csv",
        "group 'nome-a'",
        "expected exactly 1..K",
    ),
    _case(
        19,
        _small(_r19_unequal),
        "variants.csv",
        "attribute 'nome'",
        "unequal numbers of variants [3, 2]",
    ),
    _case(
        20,
        _small(_r20_one_name),
        "variants.csv",
        "attribute 'nome'",
        "at least 2 names per group",
    ),
    _case(
        21,
        _small(lambda r: _rows(r, "variants", 1, value="")),
        "variants.csv",
        "row 2, value",
        "only an explicit control",
    ),
    _case(
        22,
        _small(lambda r: _rows(r, "attributes", 0, held_value="")),
        "attributes.csv",
        "row 1, held_value",
        "items of another attribute",
    ),
    _case(23, _small(_r23_no_slot), "templates.csv", "row 2, text_pt", "template without slot"),
    _case(
        24,
        _small(lambda r: _rows(r, "templates", 1, text_pt="Sou {nome} e quero {cancelar.")),
        "templates.csv",
        "row 2, text_pt",
        "a stray brace",
    ),
    _case(
        25,
        _small(lambda r: _rows(r, "templates", 1, language="es")),
        "templates.csv",
        "row 2, language",
        "pt-BR | en",
    ),
    _case(
        26,
        _small(lambda r: _rows(r, "templates", 1, expected={"reembolso": "talvez"})),
        "templates.csv",
        "row 2, expected_reembolso",
        "yes, no or empty",
    ),
    _case(
        27,
        _small(lambda r: replace(r, rewrites=r.rewrites[:-1])),
        "rewrites.csv",
        "template 't3', variant 'e-c1'",
        "missing row",
    ),
    _case(
        28,
        _small(lambda r: _rows(r, "variables", 0, level="urgent")),
        "variables.csv",
        "row 1, level",
        "decision | quality | tone",
    ),
    _case(
        29, _mini(_r29_missing_item), "items.parquet", "(template t1, variant n4)", "missing item"
    ),
    _case(
        30,
        _mini(_r30_extra_word),
        "items.parquet",
        "row 3 (template t1, variant n3), prompt",
        "non-minimal pair",
    ),
    _case(
        31,
        _mini(lambda r: mini.with_item(r, "t1--n2", prompt_sha256="a" * 64)),
        "items.parquet",
        "row 2, prompt_sha256",
        "expected the SHA-256 of prompt",
    ),
    _case(32, _mini(_r32_missing_cell), BOT_A, "(template t1, variant n2, run 2)", "missing cell"),
    _case(
        33,
        _mini(
            lambda r: mini.with_response(r, "bot-a", ("t1--n3", 1), system_prompt_sha256="d" * 64)
        ),
        BOT_A,
        "row 3 (t1--n3, run 1), system_prompt_sha256",
        "differs from the system's declaration",
    ),
    _case(
        34,
        _mini(lambda r: mini.with_response(r, "bot-b", ("t1--n3", 1), called_at=mini.START)),
        "responses/bot-b.parquet",
        "row 3 (run_order 3), called_at",
        "is earlier than the previous call's",
    ),
    _case(
        35,
        _mini(_r35_not_interleaved),
        BOT_A,
        "attribute nome, groups sul/nordeste",
        "non-interleaved collection",
    ),
    _case(
        36,
        _mini(_r36_missing_extraction),
        EXT_B,
        "(template t1, variant i1, run 2), variable palavras",
        "missing extraction",
    ),
    _case(
        37,
        _mini(_extraction(("t1--n1", 1, "reembolso"), value="sim")),
        EXT_B,
        "row 1, value",
        "expected yes, no or na",
    ),
    _case(
        38,
        _mini(_extraction(("t1--n1", 1, "palavras"), value="-1")),
        EXT_B,
        "row 2, value",
        "count variable palavras",
    ),
    _case(
        39,
        _mini(_extraction(("t1--n1", 1, "tom"), value="6")),
        EXT_B,
        "row 3, value",
        "score outside the declared scale",
    ),
    _case(
        40,
        _mini(_extraction(("t1--n2", 2, "tom"), input_text=None)),
        EXT_B,
        "input_text",
        "missing for variable tom",
    ),
    _case(
        41,
        _mini(_r41_leak),
        EXT_B,
        "row 9 (template t1, variant n3, run 1, variable tom), input_text",
        "signal term 'Maria do Socorro Nascimento'",
    ),
    _case(42, _mini(_r42_no_judge), "calibration.parquet", "", "present although not allowed"),
    _case(43, _mini(_r43_min_items), "calibration.parquet", "variable tom", "fewer calibration"),
    _case(
        44,
        _mini(_r44_judge_score),
        "calibration.parquet",
        "row 3, judge_score",
        "expected the frozen extraction value 4",
    ),
]


# --- running reportgen verify --------------------------------------------------------------


def _files(round_dirs: Iterable[Path]) -> dict[str, bytes]:
    return {
        str(path): path.read_bytes()
        for round_dir in round_dirs
        for path in sorted(round_dir.rglob("*"))
        if path.is_file()
    }


def _verify(*round_dirs: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", *map(str, round_dirs)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def _problem_lines(output: str) -> list[str]:
    return [line.removeprefix("  - ") for line in output.splitlines() if line.startswith("  - ")]


def _assert_refused(round_dirs: list[Path], expected: tuple[tuple[str, str, str], ...]) -> None:
    before = _files(round_dirs)
    code, output = _verify(*round_dirs)
    assert code == 1, output
    assert "Traceback" not in output
    lines = _problem_lines(output)
    assert len(lines) == len(expected), output
    for line, (file, where, fragment) in zip(lines, expected, strict=True):
        assert line.startswith(f"{file}: "), line
        assert where in line, line
        assert fragment in line, line
    assert _files(round_dirs) == before


def test_every_refusal_has_a_case() -> None:
    assert [case.number for case in CASES] == list(range(1, 45))


@pytest.mark.parametrize("case", CASES, ids=[f"refusal-{case.number:02d}" for case in CASES])
def test_each_refusal_is_one_clear_line_and_writes_nothing(tmp_path: Path, case: Case) -> None:
    assert len(case.lines) == 1 or case.why_more  # more than one line only with a reason
    _assert_refused(case.build(tmp_path), case.lines)


@pytest.mark.parametrize(
    ("base", "summary"),
    [
        (small.small_round, "OK cf-small-2026: 1 model(s), 12 item(s), 0 annulled\n"),
        (mini.minimal_round, "OK cf-mini: 2 model(s), 8 item(s), 0 annulled\n"),
    ],
    ids=["small_round", "minimal_round"],
)
def test_the_base_archives_verify(tmp_path: Path, base: Callable[[], Round], summary: str) -> None:
    round_dir = small.write(base(), tmp_path)
    before = _files([round_dir])
    assert _verify(round_dir) == (0, summary)
    assert _files([round_dir]) == before


# --- damaged files -------------------------------------------------------------------------


def _truncated(rel: str, keep: int) -> Callable[[Path], None]:
    def change(round_dir: Path) -> None:
        path = round_dir / rel
        path.write_bytes(path.read_bytes()[:keep])
        small.refresh_checksums(round_dir, battery=True)

    return change


def _run_as_float(round_dir: Path) -> None:
    path = round_dir / EXT_A
    table = pq.read_table(path)
    index = table.schema.get_field_index("run")
    pq.write_table(table.set_column(index, "run", table.column("run").cast(pa.float64())), path)
    small.refresh_checksums(round_dir)


def _no_rows(rel: str) -> Callable[[Path], None]:
    """The file emptied of its rows, its schema kept (an export that wrote nothing)."""

    def change(round_dir: Path) -> None:
        path = round_dir / rel
        pq.write_table(pq.read_table(path).slice(0, 0), path)
        small.refresh_checksums(round_dir)

    return change


def _bytes(rel: str, change: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def edit(round_dir: Path) -> None:
        path = round_dir / rel
        path.write_bytes(change(path.read_bytes()))
        small.refresh_checksums(round_dir, battery=True)

    return edit


DAMAGED = [
    pytest.param(
        _truncated(EXT_A, 200), (EXT_A, "", "unreadable Parquet file"), id="parquet-truncated"
    ),
    pytest.param(_no_rows(BOT_A), (BOT_A, "", "no rows"), id="responses-no-rows"),
    pytest.param(_no_rows(EXT_A), (EXT_A, "", "no rows"), id="extractions-no-rows"),
    pytest.param(_run_as_float, (EXT_A, "column run", "expected type integer"), id="column-type"),
    pytest.param(
        _truncated("variants.csv", 0), ("variants.csv", "header", "an empty file"), id="csv-empty"
    ),
    pytest.param(
        _bytes("variants.csv", lambda data: data.split(b"\n")[0] + b"\n"),
        ("variants.csv", "", "no rows"),
        id="csv-header-only",
    ),
    pytest.param(  # the core names the mark, which would not show in a header line
        _bytes("templates.csv", lambda data: b"\xef\xbb\xbf" + data),
        ("templates.csv", "header", "byte-order mark"),
        id="csv-bom",
    ),
    pytest.param(
        _bytes("groups.csv", lambda data: data.replace("padrão".encode(), b"padr\xe3o", 1)),
        ("groups.csv", "line ", "not valid UTF-8 (byte 0xe3"),
        id="csv-latin-1",
    ),
    pytest.param(
        _bytes("models.csv", lambda data: data[:-1] + b"\xff\n"),
        ("models.csv", "line 3", "not valid UTF-8 (byte 0xff"),
        id="csv-byte-ff",
    ),
]


@pytest.mark.parametrize(("damage", "expected"), DAMAGED)
def test_a_damaged_file_is_one_clear_line(
    tmp_path: Path, damage: Callable[[Path], None], expected: tuple[str, str, str]
) -> None:
    _assert_refused(_mini_on_disk(damage)(tmp_path), (expected,))


def test_a_file_damaged_after_freezing_says_so_and_why_it_cannot_be_read(
    tmp_path: Path,
) -> None:
    """Damage after freezing, SHA256SUMS as it was: two lines on the same file, honestly
    (it cannot be read, and it is not the file that was frozen), no more."""
    round_dir = small.write(mini.minimal_round(), tmp_path)
    path = round_dir / EXT_A
    path.write_bytes(path.read_bytes()[:200])
    expected = ((EXT_A, "", "unreadable Parquet file"), (EXT_A, "", "checksum mismatch"))
    _assert_refused([round_dir], expected)


def test_an_attribute_without_variants_is_one_line(tmp_path: Path) -> None:
    """Refusal 18 with K = 0: named as such, not as the templates' slot it leaves unknown."""
    round_ = mini.minimal_round()
    round_ = replace(round_, variants=tuple(v for v in round_.variants if v.signal != "age"))
    expected = ("variants.csv", "attribute 'idade'", "no variant in any of its groups")
    _assert_refused([small.write(round_, tmp_path)], (expected,))


def test_a_csv_with_crlf_line_ends_is_read_like_lf(tmp_path: Path) -> None:
    """The core reads CSV with the csv module: CRLF ends a row as LF does."""
    round_dir = small.write(mini.minimal_round(), tmp_path)
    _bytes("variants.csv", lambda data: data.replace(b"\n", b"\r\n"))(round_dir)
    assert _verify(round_dir) == (0, "OK cf-mini: 2 model(s), 8 item(s), 0 annulled\n")


def test_a_response_whose_sent_prompt_is_not_its_item_is_refused(tmp_path: Path) -> None:
    """Refusal 33, what was sent (issue 21): a call recording the hash of another text
    than its item's rendered prompt (here the next item's) is one line naming the file,
    row and column; exit 1; nothing written."""
    round_ = mini.minimal_round()
    other = next(i for i in round_.items if i.item_id == "t1--n4")
    changed = mini.with_response(round_, "bot-a", ("t1--n3", 1), prompt_sha256=other.prompt_sha256)
    expected = (BOT_A, "row 3 (t1--n3, run 1), prompt_sha256", "the call did not send its item")
    _assert_refused([small.write(changed, tmp_path)], (expected,))


def test_a_response_that_sent_no_context_is_refused(tmp_path: Path) -> None:
    """The guide runs the test with the production context: a call to an item with a
    context that records none sent is refused."""
    round_ = mini.minimal_round()
    item = next(i for i in round_.items if i.context is not None)
    changed = mini.with_response(round_, "bot-b", (item.item_id, 2), context_sha256=None)
    expected = ("responses/bot-b.parquet", f"({item.item_id}, run 2), context_sha256", "null")
    _assert_refused([small.write(changed, tmp_path)], (expected,))
