"""The index of the 46 refusals of multidomain-round.md, each as an archive on disk.

Every case writes a valid archive, breaks exactly one rule of the round spec in it and
runs `reportgen verify` on it through the CLI: exit 1, no traceback, the expected problem
line(s) naming the file and the row or key, and the archive's bytes unchanged.

Base archive: `minimal_round()` of tests/factories/multidomain_rounds.py (the round of
the in-memory rule tests, so each case here is the archive twin of one of them), made
writable as a valid archive by `_archive_round` below, and written with the kind's own
writer (`write_round`) after the change, so that checksums and the ledger chain stay
consistent and only the broken rule shows. Changes that the typed round cannot hold (a
JSON float, an extra column, a file edited after freeze) are made on disk afterwards.

Index: refusal, the spec's example, and the other archive-level tests of the same refusal
(tests/test_multidomain_archive_<file>.py, by case id; "-" = only the in-memory rule
tests of tests/test_multidomain_rules_*.py before this file).

 #  | spec example                                   | other archive-level tests
----|------------------------------------------------|--------------------------
  1 | audit.parquet absent                           | tables: missing kind table, unlisted
  2 | jury.parquet has score_float                   | tables: extra column, wrong type
  3 | contamination.flag_above "7/10", no deviation  | manifest "3", "3 generation"
  4 | "adjudicate_above": 1.5                        | manifest "4"
  5 | ended_on 2026-11-01 < collected_on 2026-11-11  | manifest "5 null", "5 order"
  6 | 2028-11-29 for ended_on 2026-11-30             | manifest "6"
  7 | reserve 7 replaces 4 while reserve 6 ranks 1st | - (here also: a later round's reserves)
  8 | `en` for an annex entry `zh;en`                | tables "8 affinity", "8 organization"
  9 | weights_open true, checksum empty              | tables "9"
 10 | footnote_en empty                              | tables "10 footnote", "10 verified_on"
 11 | cerrado-3 ran at temperature 0.7               | tables "11"
 12 | juror j2 (group cerrado) scores cerrado-3      | -
 13 | j5 in jury.parquet                             | -
 14 | baoba-pro: b17 and b18                         | responses "14 two", "14 declared"
 15 | mcq item with weight 3                         | items "15 weight"
 16 | juridica declared 7 pt-BR / 9 en, has 8 / 8    | -
 17 | energia grades {2, 4} only                     | -
 18 | 317 declared, 316 computed                     | -
 19 | calc item, justification null                  | items "19 justification/key/rubric"
 20 | anchor_3 empty                                 | tables "20"
 21 | hash of an older text                          | items "21 content", "21 bank"
 22 | i-juri-01 differs from the previous round      | across (two rounds, previous round)
 23 | two items swapped                              | -
 24 | a calc prompt ends with its canary             | items "24 canary"
 25 | dragao-m's answer holds i-bank-02's canary     | -
 26 | variant one grade higher                       | items "26 grade", "26 hash"
 27 | estrela-open lacks (i-juri-01, run 3)          | -
 28 | a row for cal-1                                | responses "28"
 29 | one participant got an extra hint              | responses "29"
 30 | ok mcq with format_ok false                    | responses "30 *"
 31 | discarded_personal_data keeps "…Contato: …"    | responses "31"
 32 | extracted = key, correct false                 | responses "32 mcq", "32 calc"
 33 | 2026-12-02 with ended_on 2026-11-30            | responses "33"
 34 | a response with 2 jurors                       | -
 35 | score 6                                        | -
 36 | range 7/3 and no adjudication                  | -
 37 | j1 adjudicates its own jury                    | -
 38 | position 1 for rank 7                          | -
 39 | view says "Como Aurora 4, …"                   | -
 40 | one reviewer only                              | -
 41 | rows for an undrawn item                       | -
 42 | reviewer j1 (model)                            | -
 43 | i-medi-08 diverges, ledger silent              | -
 44 | audit line for an mcq item                     | -
 45 | prev_sha256 of line 2 wrong                    | (core ledger tests)
 46 | models.csv edited after freeze                 | tables: edited file

The three build-time refusals (`--as-of` before `ended_on`, a test-item text before the
embargo, a canary at any date) are not archive properties: they are tested with the site
build, not here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.kinds.multidomain.model import (
    Annulment,
    AuditScore,
    CalibrationScore,
    Composition,
    Deviation,
    Round,
)
from reportgen.kinds.multidomain.terms import (
    bank_sha256,
    canonical_json,
    content_sha256,
    sha256_text,
)
from reportgen.kinds.multidomain.write import write_round
from tests.factories.multidomain import refresh_checksums
from tests.factories.multidomain_rounds import (
    CANARY,
    CRITERIA,
    item,
    minimal_round,
    screening_of,
    with_judge,
    with_jury,
    with_manifest,
    with_participant,
    with_response,
)

# --- the valid base archive ------------------------------------------------------------

_DEVIATED = (
    "languages",
    "multidomain.cast_size",
    "multidomain.domains",
    "multidomain.composition",
    "multidomain.grade_counts",
    "multidomain.max_points",
    "multidomain.runs",
)


def _archive_round() -> Round:
    """`minimal_round()` completed into a valid archive: what the in-memory rules do not
    look at but the reader does (the deviations of a small round, the generation's
    system prompt hash, each participant's generation hash, the raw hash of the answer
    that quotes a canary, and a calibration item in English)."""
    round_ = minimal_round()
    generation = {**round_.manifest.generation, "system_prompt_sha256": sha256_text("Sistema.")}
    reason = {"pt-BR": "Rodada mínima de teste.", "en": "A minimal test round."}
    round_ = with_manifest(
        round_,
        generation=generation,
        deviations=tuple(Deviation(key, reason) for key in _DEVIATED),
    )
    digest = sha256_text(canonical_json(generation))
    round_ = replace(
        round_, models=tuple(replace(p, generation_sha256=digest) for p in round_.models)
    )
    quoted = next(r for r in round_.responses["p2"] if (r.item_id, r.run) == ("m1", 1))
    round_ = with_response(round_, ("m1", "p2", 1), raw_sha256=sha256_text(quoted.raw_text or ""))
    k2 = item("k2", "open", "en", 2, calibration=True, canary=None, published=True)
    text = "A pilot answer to the English calibration item."
    rows = tuple(
        CalibrationScore(
            "k2", "cr2", text, sha256_text(text), rater, criterion, 3, date(2026, 11, 5)
        )
        for rater in ("j1", "j2", "j3", "h1", "h2")
        for criterion in CRITERIA
    )
    items = (*round_.items, k2)
    calibration = (*round_.calibration, *rows)
    return replace(round_, items=items, calibration=calibration, screening=screening_of(items))


def _write(parent: Path, round_: Round) -> Path:
    round_dir = parent / round_.round_id
    write_round(round_, round_dir)
    return round_dir


# --- changing one thing ----------------------------------------------------------------


def _with_item(round_: Round, item_id: str, **changes: Any) -> Round:
    """`round_` with one item changed and every hash that follows from it recomputed
    (its content hash, the bank hash, the prompt hash of its responses)."""
    old = next(i for i in round_.items if i.item_id == item_id)
    changed = replace(old, **changes)
    changed = replace(changed, content_sha256=content_sha256(changed))
    items = tuple(changed if i.item_id == item_id else i for i in round_.items)
    round_ = with_manifest(replace(round_, items=items), bank_sha256=bank_sha256(items))
    prompt = sha256_text(changed.prompt)
    responses = {
        model_id: tuple(
            replace(r, prompt_sha256=prompt) if r.item_id == item_id else r for r in rows
        )
        for model_id, rows in round_.responses.items()
    }
    return replace(round_, responses=responses)


def _with_rows(round_: Round, model_id: str, keep: Callable[[Any], bool]) -> Round:
    rows = tuple(r for r in round_.responses[model_id] if keep(r))
    return replace(round_, responses={**round_.responses, model_id: rows})


def _response(round_: Round, item_id: str, model_id: str, run: int) -> Any:
    return next(r for r in round_.responses[model_id] if (r.item_id, r.run) == (item_id, run))


def _key(row: Any) -> tuple[str, str, int]:
    return (row.item_id, row.model_id, row.run)


def _edit_parquet(path: Path, change: Callable[[pa.Table], pa.Table]) -> None:
    pq.write_table(change(pq.read_table(path)), path)
    refresh_checksums(path.parent)


def _edit_json(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    refresh_checksums(path.parent)


Build = Callable[[Path], list[Path]]


def _typed(change: Callable[[Round], Round]) -> Build:
    """A case that changes the typed round before it is written."""
    return lambda parent: [_write(parent, change(_archive_round()))]


def _on_disk(change: Callable[[Path], None]) -> Build:
    """A case that changes the written archive's files."""

    def build(parent: Path) -> list[Path]:
        round_dir = _write(parent, _archive_round())
        change(round_dir)
        return [round_dir]

    return build


# --- the cases, one per refusal --------------------------------------------------------


def _r01_table_missing(round_dir: Path) -> None:
    (round_dir / "audit.parquet").unlink()
    refresh_checksums(round_dir)  # absent and unlisted: only the kind rule is broken


def _r02_extra_column(round_dir: Path) -> None:
    _edit_parquet(
        round_dir / "jury.parquet",
        lambda t: t.append_column("score_float", pa.array([1.0] * t.num_rows)),
    )


def _r03_profile(round_: Round) -> Round:
    rules = replace(round_.manifest.contamination, flag_above=Fraction(7, 10))
    return with_manifest(round_, contamination=rules)


def _r04_float(round_dir: Path) -> None:
    _edit_json(
        round_dir / "round.json",
        lambda data: data["multidomain"]["jury"].update(adjudicate_above=1.5),
    )


def _r05_dates(round_: Round) -> Round:
    return with_manifest(round_, ended_on=date(2026, 11, 1))


def _r06_retain(round_: Round) -> Round:
    return with_manifest(round_, retain_until=date(2028, 11, 29))


def _r07_reserve_order(round_: Round) -> Round:
    # Reserves rank by annex_id (no previous round): reserve 4 comes first, yet the
    # withdrawn entry 3 is replaced by reserve 5 (its own annex organization, so that
    # only the order is wrong).
    return with_participant(round_, "p4", annex_id=5, organization="Dunas")


def _r08_affinity(round_: Round) -> Round:
    return with_participant(round_, "p2", language_affinity=("en",))


def _r09_checksum(round_: Round) -> Round:
    return with_participant(round_, "p1", weights_open=True, checksum="")


def _r10_footnote(round_: Round) -> Round:
    return with_participant(
        round_, "p2", verification_status="verificar", footnote_pt="A confirmar.", footnote_en=""
    )


def _r11_generation(round_: Round) -> Round:
    hot = {**round_.manifest.generation, "temperature": 0.7}
    return with_participant(round_, "p4", generation_sha256=sha256_text(canonical_json(hot)))


def _r12_conflict(round_: Round) -> Round:
    return with_judge(round_, "j1", economic_group="grupo-baoba")  # p2's group


def _r13_declared(round_: Round) -> Round:
    # j5 (declared conflict) sits in j4's place on the panel of (o1, p1, run 1).
    rows = [
        replace(r, judge_id="j5") if r.judge_id == "j4" and _key(r) == ("o1", "p1", 1) else r
        for r in round_.jury
    ]
    return with_jury(round_, rows)


def _r14_snapshots(round_: Round) -> Round:
    return with_response(round_, ("m1", "p2", 2), snapshot="baoba-2026-11")


def _r15_weight(round_: Round) -> Round:
    return _with_item(round_, "m1", weight=3)


def _r16_composition(round_: Round) -> Round:
    declared = Composition({"pt-BR": 3, "en": 1}, {"mcq": 2, "open": 1, "calc": 1})
    return with_manifest(round_, composition={"d1": declared})


def _r17_grades(round_: Round) -> Round:
    # Domain d1 keeps grades {2, 4} only (c1 2, the variant m2v and its m2 4), with
    # grade_counts declared to match: only the grade rule (3 distinct grades) breaks.
    round_ = _with_item(round_, "c1", grade=2)
    round_ = _with_item(round_, "m2", grade=4)
    round_ = _with_item(round_, "m2v", grade=4)
    return with_manifest(round_, grade_counts={1: 0, 2: 2, 3: 0, 4: 2, 5: 0})


def _r18_max_points(round_: Round) -> Round:
    return with_manifest(round_, max_points=13)


def _r19_justification(round_: Round) -> Round:
    return _with_item(round_, "c1", justification=None)


def _r20_anchor(round_: Round) -> Round:
    rubrics = (round_.rubrics[0], replace(round_.rubrics[1], anchor_3=""))
    return replace(round_, rubrics=rubrics)


def _r21_content_hash(round_: Round) -> Round:
    # c1's stored hash is that of an older text; the bank hash is consistent with it.
    c1 = next(i for i in round_.items if i.item_id == "c1")
    older = content_sha256(replace(c1, prompt="Enunciado antigo do item c1."))
    items = tuple(
        replace(i, content_sha256=older) if i.item_id == "c1" else i for i in round_.items
    )
    return with_manifest(replace(round_, items=items), bank_sha256=bank_sha256(items))


def _r22_edited_across(parent: Path) -> list[Path]:
    first = _write(parent, _archive_round())
    second = with_manifest(_archive_round(), round_id="md-mini-b")
    second = _with_item(second, "c1", justification="Outra justificativa.")
    return [first, _write(parent, replace(second, path=parent / "md-mini-b"))]


def _r23_order(round_: Round) -> Round:
    orders = {i.item_id: i.order for i in round_.items}
    swapped = {"o1": orders["m1"], "m1": orders["o1"]}
    items = tuple(replace(i, order=swapped.get(i.item_id, i.order)) for i in round_.items)
    return replace(round_, items=items)


def _r24_canary_prompt(round_: Round) -> Round:
    c1 = next(i for i in round_.items if i.item_id == "c1")
    return _with_item(round_, "c1", prompt=f"{c1.prompt} {c1.canary}")


def _r25_canary_answer(round_: Round) -> Round:
    text = f"12.5 (copiado de {CANARY.format(item_id='m1')})"
    return with_response(round_, ("c1", "p1", 1), raw_text=text, raw_sha256=sha256_text(text))


def _r26_variant(round_: Round) -> Round:
    return _with_item(round_, "m2v", grade=4)


def _r27_missing_row(round_: Round) -> Round:
    return _with_rows(round_, "p2", lambda r: (r.item_id, r.run) != ("m2", 2))


def _r28_calibration_response(round_: Round) -> Round:
    k1 = next(i for i in round_.items if i.item_id == "k1")
    row = replace(
        _response(round_, "o1", "p1", 2), item_id="k1", prompt_sha256=sha256_text(k1.prompt)
    )
    return replace(round_, responses={**round_.responses, "p1": (*round_.responses["p1"], row)})


def _r29_prompt(round_: Round) -> Round:
    hinted = sha256_text("Enunciado do item c1. Dica: use a tabela.")
    return with_response(round_, ("c1", "p4", 1), prompt_sha256=hinted)


def _r30_status(round_: Round) -> Round:
    return with_response(round_, ("m1", "p1", 1), format_ok=False)


def _r31_discarded_text(round_: Round) -> Round:
    text = "A resposta segue. Contato: Maria, (11) 5555-0100."
    return with_response(round_, ("o1", "p2", 2), raw_text=text, raw_sha256=sha256_text(text))


def _r32_correct(round_: Round) -> Round:
    return with_response(round_, ("m1", "p1", 1), correct=False)


def _r33_called_at(round_: Round) -> Round:
    late = datetime(2026, 12, 2, 10, tzinfo=UTC)
    return with_response(round_, ("c1", "p4", 1), called_at=late)


def _r34_two_jurors(round_: Round) -> Round:
    return with_jury(
        round_, [r for r in round_.jury if (r.judge_id, _key(r)) != ("j3", ("o1", "p2", 1))]
    )


def _r35_score(round_: Round) -> Round:
    rows = [
        replace(r, score=6)
        if (r.judge_id, _key(r), r.criterion_id) == ("j1", ("o1", "p2", 1), "accuracy")
        else r
        for r in round_.jury
    ]
    return replace(round_, jury=tuple(rows))


def _r36_no_adjudication(round_: Round) -> Round:
    return replace(round_, adjudications=())


def _r37_own_jury(round_: Round) -> Round:
    return replace(
        round_, adjudications=tuple(replace(a, judge_id="j1") for a in round_.adjudications)
    )


def _r38_position(round_: Round) -> Round:
    first = round_.jury[0]
    return replace(round_, jury=(replace(first, position=first.position + 6), *round_.jury[1:]))


def _r39_view_names(round_: Round) -> Round:
    text = "Como Aurora Labs 4, respondo que o prazo legal se aplica."
    first = replace(round_.judge_views[0], view_text=text, view_sha256=sha256_text(text))
    return replace(round_, judge_views=(first, *round_.judge_views[1:]))


def _r40_one_reviewer(round_: Round) -> Round:
    rows = tuple(r for r in round_.calibration if (r.response_id, r.rater_id) != ("cr1", "h2"))
    return replace(round_, calibration=rows)


def _r41_undrawn(round_: Round) -> Round:
    extra = tuple(
        AuditScore(
            "au-9", "m1", "p1", 1, "h1", criterion, 3, True, datetime(2026, 11, 25, 12, tzinfo=UTC)
        )
        for criterion in CRITERIA
    )
    return replace(round_, audit=(*round_.audit, *extra))


def _r42_model_reviewer(round_: Round) -> Round:
    rows = tuple(replace(r, reviewer_id="j1") if r.model_id == "p4" else r for r in round_.audit)
    return replace(round_, audit=rows)


def _r43_ledger_silent(round_: Round) -> Round:
    return replace(round_, annulments=())


def _r44_audit_line_mcq(round_: Round) -> Round:
    line = Annulment("m1", date(2026, 12, 6), "audit", "au-2", {"pt-BR": "r", "en": "r"}, "")
    return replace(round_, annulments=(*round_.annulments, line))


def _r45_chain(parent: Path) -> list[Path]:
    line = Annulment(
        "c1",
        date(2026, 12, 6),
        "contestation",
        "ct-1",
        {"pt-BR": "Contestação procedente.", "en": "Contestation upheld."},
        "",
    )
    round_ = _archive_round()
    round_dir = _write(parent, replace(round_, annulments=(*round_.annulments, line)))
    ledger = round_dir / "annulments.jsonl"
    first, second = ledger.read_text(encoding="utf-8").splitlines()
    broken = json.loads(second)
    broken["prev_sha256"] = "0" * 64
    ledger.write_text(f"{first}\n{json.dumps(broken, ensure_ascii=False)}\n", encoding="utf-8")
    return [round_dir]


def _r46_edited(round_dir: Path) -> None:
    models = round_dir / "models.csv"
    models.write_text(
        models.read_text(encoding="utf-8").replace("Fulana de Tal", "Beltrana", 1), encoding="utf-8"
    )


@dataclass(frozen=True)
class Case:
    """One refusal: how to build the broken archive(s), and the problem line(s) expected,
    each as (file, where, message fragment)."""

    number: int
    build: Build
    lines: tuple[tuple[str, str, str], ...]
    why_more: str = ""  # when one broken thing honestly gives more than one line


CASES = [
    Case(1, _on_disk(_r01_table_missing), (("audit.parquet", "", "missing"),)),
    Case(2, _on_disk(_r02_extra_column), (("jury.parquet", "column score_float", "unexpected"),)),
    Case(
        3, _typed(_r03_profile), (("round.json", "multidomain.contamination.flag_above", "7/10"),)
    ),
    Case(4, _on_disk(_r04_float), (("round.json", "multidomain.jury.adjudicate_above", "1.5"),)),
    Case(5, _typed(_r05_dates), (("round.json", "ended_on", "collected_on"),)),
    Case(6, _typed(_r06_retain), (("round.json", "multidomain.retain_until", "2028-11-30"),)),
    Case(7, _typed(_r07_reserve_order), (("models.csv", "replaces", "reserve 4 replaces 3"),)),
    Case(8, _typed(_r08_affinity), (("models.csv", "row 2, language_affinity", "pt-BR"),)),
    Case(9, _typed(_r09_checksum), (("models.csv", "row 1, checksum", "open weights"),)),
    Case(10, _typed(_r10_footnote), (("models.csv", "row 2, footnote_en", "both"),)),
    Case(11, _typed(_r11_generation), (("models.csv", "row 3, generation_sha256", "same"),)),
    Case(12, _typed(_r12_conflict), (("jury.parquet", "judge j1", "economic group"),)),
    Case(13, _typed(_r13_declared), (("jury.parquet", "judge j5", "declared conflict"),)),
    Case(14, _typed(_r14_snapshots), (("responses/p2.parquet", "snapshot", "one snapshot"),)),
    Case(15, _typed(_r15_weight), (("items.parquet", "(item 'm1'), weight", "weighs 2"),)),
    Case(16, _typed(_r16_composition), (("items.parquet", "domain d1, language", "expected"),)),
    Case(17, _typed(_r17_grades), (("items.parquet", "domain d1, grade", "3 distinct"),)),
    Case(18, _typed(_r18_max_points), (("round.json", "multidomain.max_points", "expected 12"),)),
    Case(19, _typed(_r19_justification), (("items.parquet", "'c1'), justification", "required"),)),
    Case(20, _typed(_r20_anchor), (("rubrics.parquet", "anchor_3", "Art. 25"),)),
    Case(
        21, _typed(_r21_content_hash), (("items.parquet", "'c1'), content_sha256", "recomputed"),)
    ),
    Case(22, _r22_edited_across, (("md-mini-b/items.parquet", "item 'c1'", "same id"),)),
    Case(
        23,
        _typed(_r23_order),
        (
            ("items.parquet", "row 1 (item 'o1'), order", "expected 1"),
            ("items.parquet", "row 2 (item 'm1'), order", "expected 2"),
        ),
        why_more="a swap misplaces two rows: each is named with the position it should hold",
    ),
    Case(24, _typed(_r24_canary_prompt), (("items.parquet", "'c1'), prompt", "canary"),)),
    Case(
        25,
        _typed(_r25_canary_answer),
        (("responses/p1.parquet", "raw_text", "canary of item 'm1'"),),
    ),
    Case(26, _typed(_r26_variant), (("items.parquet", "'m2v'), variant_of", "grade"),)),
    Case(27, _typed(_r27_missing_row), (("responses/p2.parquet", "item 'm2', run 2", "missing"),)),
    Case(28, _typed(_r28_calibration_response), (("responses/p1.parquet", "'k1'", "calibration"),)),
    Case(29, _typed(_r29_prompt), (("responses/p4.parquet", "prompt_sha256", "same"),)),
    Case(30, _typed(_r30_status), (("responses/p1.parquet", "format_ok", "true"),)),
    Case(31, _typed(_r31_discarded_text), (("responses/p2.parquet", "raw_text", "Art. 39"),)),
    Case(32, _typed(_r32_correct), (("responses/p1.parquet", "correct", "true"),)),
    Case(33, _typed(_r33_called_at), (("responses/p4.parquet", "called_at", "outside"),)),
    Case(34, _typed(_r34_two_jurors), (("jury.parquet", "response (o1, p2, run 1)", "got 2"),)),
    Case(35, _typed(_r35_score), (("jury.parquet", "row ", "score 6"),)),
    Case(
        36,
        _typed(_r36_no_adjudication),
        (("adjudications.parquet", "response (o1, p1, run 1)", "missing"),),
    ),
    Case(37, _typed(_r37_own_jury), (("adjudications.parquet", "judge j1", "jurors"),)),
    Case(38, _typed(_r38_position), (("jury.parquet", "row 1", "expected"),)),
    Case(39, _typed(_r39_view_names), (("judge_views.parquet", "row 1", "names the cast"),)),
    Case(
        40,
        _typed(_r40_one_reviewer),
        (("calibration.parquet", "response 'cr1'", "reviewers {h1}"),),
    ),
    Case(
        41, _typed(_r41_undrawn), (("audit.parquet", "(m1, p1, run 1)", "not an audited response"),)
    ),
    Case(42, _typed(_r42_model_reviewer), (("audit.parquet", "(o1, p4, run 1)", "human"),)),
    Case(43, _typed(_r43_ledger_silent), (("annulments.jsonl", "item 'o1'", "3/2 > 1"),)),
    Case(44, _typed(_r44_audit_line_mcq), (("annulments.jsonl", "line 2", "open item"),)),
    Case(45, _r45_chain, (("annulments.jsonl", "line 2", "prev_sha256"),)),
    Case(46, _on_disk(_r46_edited), (("models.csv", "", "checksum mismatch"),)),
]


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


def test_every_refusal_has_a_case() -> None:
    assert [case.number for case in CASES] == list(range(1, 47))


@pytest.mark.parametrize("case", CASES, ids=[f"refusal-{case.number:02d}" for case in CASES])
def test_each_refusal_is_one_clear_line_and_writes_nothing(tmp_path: Path, case: Case) -> None:
    round_dirs = case.build(tmp_path)
    before = _files(round_dirs)
    code, output = _verify(*round_dirs)
    assert code == 1, output
    assert "Traceback" not in output
    lines = _problem_lines(output)
    assert len(case.lines) == 1 or case.why_more  # more than one line only with a reason
    assert len(lines) == len(case.lines), output
    for line, (file, where, fragment) in zip(lines, case.lines, strict=True):
        assert line.startswith(f"{file}: "), line
        assert where in line, line
        assert fragment in line, line
    assert _files(round_dirs) == before


# --- the valid bases --------------------------------------------------------------------


def test_the_base_archive_verifies(tmp_path: Path) -> None:
    round_dir = _write(tmp_path, _archive_round())
    before = _files([round_dir])
    code, output = _verify(round_dir)
    assert (code, output) == (0, "OK md-mini: 3 model(s), 7 item(s), 1 annulled\n")
    assert _files([round_dir]) == before


def test_two_base_archives_verify_together(tmp_path: Path) -> None:
    """The base of refusal 22: the same round under two ids is valid until an item differs."""
    first = _write(tmp_path, _archive_round())
    second = _write(tmp_path, with_manifest(_archive_round(), round_id="md-mini-b"))
    code, output = _verify(first, second)
    assert code == 0, output


# --- refusal 7 across archives: the reserve order from the previous round's ranks --------


def _later_round(round_: Round) -> Round:
    """`round_` run again in December 2026 after md-mini (its previous round)."""
    round_ = with_manifest(
        round_,
        round_id="md-mini-2",
        previous_round="md-mini",
        collected_on=date(2026, 12, 1),
        ended_on=date(2026, 12, 20),
        retain_until=date(2028, 12, 20),
    )
    responses = {
        model_id: tuple(
            replace(r, called_at=datetime(2026, 12, 2, 9 + r.run, tzinfo=UTC)) for r in rows
        )
        for model_id, rows in round_.responses.items()
    }
    annulments = tuple(replace(a, decided_on=date(2026, 12, 21)) for a in round_.annulments)
    return replace(round_, responses=responses, annulments=annulments)


def test_the_reserve_order_of_a_later_round_follows_the_previous_round(tmp_path: Path) -> None:
    previous = _write(tmp_path, _archive_round())
    later = _write(tmp_path, _later_round(_archive_round()))
    code, output = _verify(previous, later)
    assert code == 0, output
    assert output.splitlines()[1] == "OK md-mini-2: 3 model(s), 7 item(s), 1 annulled"


def test_a_later_round_with_the_reserve_out_of_order_is_one_line(tmp_path: Path) -> None:
    # Reserve 4 ranked in md-mini, reserve 5 did not run there: 4 replaces 3, not 5.
    previous = _write(tmp_path, _archive_round())
    later = _write(tmp_path, _r07_reserve_order(_later_round(_archive_round())))
    before = _files([previous, later])
    code, output = _verify(later)  # the previous round is read from beside it
    assert code == 1, output
    assert "Traceback" not in output
    assert _problem_lines(output) == [
        "md-mini-2/models.csv: replaces: reserves out of order (Art. 5): withdrawn entries in "
        "ascending annex_id are replaced by the reserves in rank order, expected reserve 4 "
        "replaces 3, got reserve 5 replaces 3"
    ]
    assert _files([previous, later]) == before
