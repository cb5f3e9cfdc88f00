"""A minimal valid multidomain round, built in memory as the typed dataclasses.

Small enough to read whole, yet it holds every case the cross-table rules look at: a
withdrawn annex entry replaced by a reserve, a superseded item and its variant, a
calibration item, two runs, a juror who is a participant (j3 is p1), an adjudicated
response (range 7/2) and one whose range is exactly 3/2 (not adjudicated), a scored
discarded response (view text null), a refusal, an audit divergence of exactly 1 (kept)
and one of 3/2 (its item o1 annulled by an `audit` line), and a superseded item's canary
reproduced in a response (allowed). `check_rules` reports nothing on it; each test
changes one thing with dataclasses.replace.

Item ids: o1 (open, pt-BR), m1 (mcq, en), c1 (calc, pt-BR), m2 (mcq, en, superseded by
m2v), k1 (calibration). Participants p1 (annex 1), p2 (annex 2), p4 (reserve annex 4,
replacing the withdrawn annex 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from reportgen.archive import Problems
from reportgen.errors import Problem
from reportgen.kinds.multidomain.derive import add_months, item_orders, presentation_ranks
from reportgen.kinds.multidomain.model import (
    PROFILE,
    PROFILE_VERSION,
    Adjudication,
    AnnexEntry,
    Annulment,
    AuditRules,
    AuditScore,
    CalibrationRules,
    CalibrationScore,
    Composition,
    ContaminationRules,
    Criterion,
    Domain,
    GradeRules,
    Item,
    Judge,
    JudgeView,
    JuryRules,
    JuryScore,
    Manifest,
    Pairwise,
    Participant,
    Response,
    ResponseKey,
    Round,
    Screening,
)
from reportgen.kinds.multidomain.rules import check_rules
from reportgen.kinds.multidomain.terms import bank_sha256, content_sha256, sha256_text

COLLECTED_ON = date(2026, 11, 11)
ENDED_ON = date(2026, 11, 30)
CRITERIA = ("clarity", "accuracy")
# A canary shape with a common prefix, as a real bank would have.
CANARY = "MD-CANARY-{item_id}-7f3a"
# Juror means per jury-scored o1 response: (clarity, accuracy) scores per juror.
JURY_SCORES: dict[ResponseKey, dict[str, tuple[int, int]]] = {
    ("o1", "p1", 1): {"j1": (5, 5), "j2": (3, 3), "j4": (1, 2)},  # range 7/2: adjudicated
    ("o1", "p1", 2): {"j1": (4, 4), "j2": (3, 2), "j4": (3, 3)},  # range 3/2: not
    ("o1", "p2", 1): {"j1": (3, 3), "j2": (3, 4), "j3": (4, 4)},  # F 7/2
    ("o1", "p2", 2): {"j1": (2, 2), "j2": (2, 3), "j3": (3, 3)},  # discarded, scored
    ("o1", "p4", 1): {"j1": (5, 4), "j2": (4, 4), "j3": (5, 5)},  # F 9/2
}
ADJUDICATED: dict[ResponseKey, tuple[str, tuple[int, int]]] = {("o1", "p1", 1): ("a1", (4, 4))}
# The human reviewer's scores: divergences 3/2 (triggers), 1/6, 1 (kept), 0.
AUDIT_SCORES: dict[ResponseKey, tuple[str, tuple[int, int]]] = {
    ("o1", "p1", 1): ("au-1", (2, 3)),
    ("o1", "p1", 2): ("au-2", (4, 2)),
    ("o1", "p2", 1): ("au-3", (3, 2)),
    ("o1", "p4", 1): ("au-4", (5, 4)),
}
PRESENTED_AS = {"p1": "SISTEMA-01", "p2": "SISTEMA-02", "p4": "SISTEMA-03"}


def at(day: int, hour: int = 12) -> datetime:
    return datetime(2026, 11, day, hour, tzinfo=UTC)


def manifest(items: tuple[Item, ...]) -> Manifest:
    return Manifest(
        round_id="md-mini",
        title={"pt-BR": "Rodada mínima", "en": "Minimal round"},
        synthetic=True,
        collected_on=COLLECTED_ON,
        protocol_frozen_on=date(2026, 11, 1),
        ended_on=ENDED_ON,
        languages=("pt-BR", "en"),
        generation={"temperature": 0.2, "max_tokens": 2048, "timeout_s": 120, "tools": []},
        bootstrap_replicates=1000,
        bootstrap_seed=7,
        profile=PROFILE,
        profile_version=PROFILE_VERSION,
        deviations=(),
        annex=tuple(
            AnnexEntry(annex_id, org, "Brasil", ("pt-BR",), reserve)
            for annex_id, org, reserve in (
                (1, "Aurora Labs", False),
                (2, "Baoba IA", False),
                (3, "Caatinga", False),
                (4, "Cerrado Sistemas", True),
                (5, "Dunas", True),
            )
        ),
        cast_size=3,
        previous_round=None,
        domains=(Domain("d1", {"pt-BR": "Domínio 1", "en": "Domain 1"}),),
        weights={"mcq": 2, "open": 5, "calc": 3},
        composition={
            "d1": Composition(language={"pt-BR": 2, "en": 2}, type={"mcq": 2, "open": 1, "calc": 1})
        },
        grade_counts={1: 0, 2: 1, 3: 2, 4: 1, 5: 0},
        grade_rules=GradeRules(min_distinct=3, high_grade=4, high_min_share=Fraction(1, 20)),
        max_points=12,
        runs=2,
        jury=JuryRules(size=3, scale=(0, 5), adjudicate_above=Fraction(3, 2), presentation_seed=11),
        audit=AuditRules(
            fraction=Fraction(1, 10), min_per_stratum=3, invalidate_above=Fraction(1), seed=13
        ),
        calibration=CalibrationRules(
            jurors=3, reviewers=2, hit_rate_band=(Fraction(1, 5), Fraction(19, 20))
        ),
        contamination=ContaminationRules(
            ngram=8, flag_above=Fraction(3, 5), canary_partial_min_chars=8
        ),
        technical_tie="half_mean_width",
        pairwise=Pairwise(elo_initial=1500, k=16, scale=400, base=10, bt_mean=1500),
        item_order_seed=5,
        bank_sha256=bank_sha256(items),
        judge_config_sha256="0" * 64,
        extractor_version="1.0",
        currency="USD",
        embargo_days=90,
        contest_window_days=10,
        reply_days=10,
        retention_months=24,
        retain_until=add_months(ENDED_ON, 24),
    )


def participant(
    model_id: str, annex_id: int, name: str, replaces: int | None = None
) -> Participant:
    slug = name.split()[0].lower()
    return Participant(
        model_id=model_id,
        display_name=f"{name} 4",
        provider=slug,
        api_identifier=f"{slug}/{slug}-large:v4",
        snapshot=f"{slug}-2026-10",
        evaluated_on=COLLECTED_ON,
        annex_id=annex_id,
        organization=name,
        economic_group=f"grupo-{slug}",
        language_affinity=("pt-BR",),
        reserve=replaces is not None,
        replaces=replaces,
        operated_by_organization=False,
        weights_open=False,
        checksum="",
        generation_sha256="0" * 64,
        executives="Fulana de Tal",
        reference_models=f"{name} 4",
        reference_date=date(2026, 1, 15),
        verified_on=date(2026, 11, 1),
        verification_source="https://example.org/annex-a",
        verification_status="confirmed",
        footnote_pt="",
        footnote_en="",
    )


PARTICIPANTS = (
    participant("p1", 1, "Aurora Labs"),
    participant("p2", 2, "Baoba IA"),
    participant("p4", 4, "Cerrado Sistemas", replaces=3),
)
PARTICIPANTS_BY_ID = {p.model_id: p for p in PARTICIPANTS}


def judge(judge_id: str, role: str, *, kind: str = "model", **changes: Any) -> Judge:
    fields: dict[str, Any] = {
        "judge_id": judge_id,
        "kind": kind,
        "role": role,
        "display_name": f"Judge {judge_id}",
        "provider": "" if kind == "human" else "judgeco",
        "api_identifier": "" if kind == "human" else f"judgeco/{judge_id}",
        "snapshot": "" if kind == "human" else "2026-09",
        "economic_group": "" if kind == "human" else f"grupo-{judge_id}",
        "participant_model_id": "",
        "operated_by_organization": False,
        "declared_conflict": False,
        "conflict_note": "",
    }
    return Judge(**{**fields, **changes})


JUDGES = (
    judge("j1", "juror"),
    judge("j2", "juror"),
    # j3 is the participant p1 itself (Art. 7 lets a participant judge, never itself).
    judge("j3", "juror", participant_model_id="p1", economic_group="grupo-aurora"),
    judge("j4", "juror"),
    judge("a1", "adjudicator"),
    judge("h1", "reviewer", kind="human"),
    judge("h2", "reviewer", kind="human"),
    judge("j5", "juror", declared_conflict=True, conflict_note="Consultoria para p2"),
)


def item(item_id: str, type_: str, language: str, grade: int, **changes: Any) -> Item:
    weights = {"mcq": 2, "open": 5, "calc": 3}
    fields: dict[str, Any] = {
        "item_id": item_id,
        "language": language,
        "prompt": f"Enunciado do item {item_id}.",
        "canary": CANARY.format(item_id=item_id),
        "published": False,
        "calibration": False,
        "domain_id": "d1",
        "type": type_,
        "grade": grade,
        "weight": weights[type_],
        "order": None,
        "choices": "ABCD" if type_ == "mcq" else None,
        "answer_key": {"mcq": "B", "calc": "12.5", "open": None}[type_],
        "tolerance_abs": "0.1" if type_ == "calc" else None,
        "unit": None,
        "justification": None if type_ == "open" else "Porque sim.",
        "reference": None,
        "rubric_id": "r1" if type_ == "open" else None,
        "content_sha256": "",
        "variant_of": None,
    }
    built = Item(**{**fields, **changes})
    return replace(built, content_sha256=content_sha256(built))


def items() -> tuple[Item, ...]:
    drafted = (
        item("o1", "open", "pt-BR", 2),
        item("m1", "mcq", "en", 4),
        item("c1", "calc", "pt-BR", 3),
        item("m2", "mcq", "en", 3),
        item("m2v", "mcq", "en", 3, variant_of="m2", prompt="Enunciado novo do item m2."),
        item("k1", "open", "pt-BR", 2, calibration=True, canary=None, published=True),
    )
    orders = item_orders(drafted, 5)
    return tuple(replace(i, order=orders.get(i.item_id)) for i in drafted)


def response(
    test_item: Item, model_id: str, run: int, status: str = "ok", **changes: Any
) -> Response:
    raw_text = f"Resposta de {model_id} ao item {test_item.item_id}."
    closed = test_item.type != "open"
    answer = test_item.answer_key if status == "ok" and closed else None
    fields: dict[str, Any] = {
        "item_id": test_item.item_id,
        "model_id": model_id,
        "run": run,
        "raw_text": raw_text,
        "latency_ms": 900.0,
        "status": status,
        "raw_sha256": sha256_text(raw_text),
        "prompt_sha256": sha256_text(test_item.prompt),
        "extracted_answer": answer,
        "format_ok": (status == "ok") if closed else None,
        "correct": (True if status == "ok" else None) if closed else None,
        "scored_before_discard": None,
        "response_language": test_item.language,
        "cost_micro": 1200,
        "snapshot": f"{PARTICIPANTS_BY_ID[model_id].snapshot}",
        "called_at": at(12, 9 + run),
    }
    return Response(**{**fields, **changes})


def responses(all_items: tuple[Item, ...]) -> dict[str, tuple[Response, ...]]:
    by_id = {i.item_id: i for i in all_items}
    special: dict[ResponseKey, Response] = {
        ("o1", "p2", 2): response(
            by_id["o1"],
            "p2",
            2,
            "discarded_personal_data",
            raw_text=None,
            scored_before_discard=True,
        ),
        ("o1", "p4", 2): response(by_id["o1"], "p4", 2, "refusal"),
        ("c1", "p2", 1): response(by_id["c1"], "p2", 1, "format_violation", format_ok=False),
        # The superseded item's canary in an answer is evidence, not a refusal.
        ("m1", "p2", 1): response(
            by_id["m1"], "p2", 1, raw_text=f"B. Vi isto antes: {CANARY.format(item_id='m2')}"
        ),
    }
    tests = [i for i in all_items if not i.calibration]
    return {
        p.model_id: tuple(
            special.get((i.item_id, p.model_id, run)) or response(i, p.model_id, run)
            for i in sorted(tests, key=lambda i: i.order or 0)
            for run in (1, 2)
        )
        for p in PARTICIPANTS
    }


def jury_rows(seed: int) -> tuple[JuryScore, ...]:
    keys = [(j, *key) for key, panel in JURY_SCORES.items() for j in panel]
    ranks = presentation_ranks(seed, keys)
    return tuple(
        JuryScore(*key, judge_id, criterion, score, ranks[(judge_id, *key)], at(20))
        for key, panel in JURY_SCORES.items()
        for judge_id, scores in panel.items()
        for criterion, score in zip(CRITERIA, scores, strict=True)
    )


def views() -> tuple[JudgeView, ...]:
    rows = []
    for number, (item_id, model_id, run) in enumerate(JURY_SCORES, start=1):
        text: str | None = f"Resposta anonimizada número {number}: o sistema explica o caso."
        digest = sha256_text(text or "")
        if (item_id, model_id, run) == ("o1", "p2", 2):
            text, digest = None, sha256_text("[resposta descartada]")
        rows.append(JudgeView(item_id, model_id, run, PRESENTED_AS[model_id], text, digest))
    return tuple(rows)


def calibration_rows() -> tuple[CalibrationScore, ...]:
    text = "Uma resposta piloto ao item de calibração."
    return tuple(
        CalibrationScore(
            "k1", "cr1", text, sha256_text(text), rater, criterion, 3, date(2026, 11, 5)
        )
        for rater in ("j1", "j2", "j3", "a1", "h1", "h2")
        for criterion in CRITERIA
    )


def screening_of(all_items: Iterable[Item]) -> tuple[Screening, ...]:
    """Art. 37: every item screened on 1 November 2026; none holds personal data."""
    return tuple(
        Screening(i.item_id, "Equipe de triagem", date(2026, 11, 1), "no_personal_data", None, None)
        for i in all_items
    )


def minimal_round() -> Round:
    all_items = items()
    the_manifest = manifest(all_items)
    return Round(
        path=Path("rounds/md-mini"),
        manifest=the_manifest,
        models=PARTICIPANTS,
        items=all_items,
        annulments=(
            Annulment(
                item_id="o1",
                decided_on=date(2026, 12, 5),
                source="audit",
                ref="au-1",
                reason={"pt-BR": "Divergência da auditoria", "en": "Audit divergence"},
                prev_sha256="",
            ),
        ),
        judges=JUDGES,
        rubrics=tuple(
            Criterion("r1", c, n, c.title(), c.title(), "nada", "parcial", "completo")
            for n, c in enumerate(CRITERIA, start=1)
        ),
        responses=responses(all_items),
        judge_views=views(),
        jury=jury_rows(the_manifest.jury.presentation_seed),
        adjudications=tuple(
            Adjudication(*key, judge_id, criterion, score, at(21))
            for key, (judge_id, scores) in ADJUDICATED.items()
            for criterion, score in zip(CRITERIA, scores, strict=True)
        ),
        calibration=calibration_rows(),
        screening=screening_of(all_items),
        audit=tuple(
            AuditScore(audit_id, *key, "h1", criterion, score, True, at(25))
            for key, (audit_id, scores) in AUDIT_SCORES.items()
            for criterion, score in zip(CRITERIA, scores, strict=True)
        ),
    )


# --- changing one thing ---------------------------------------------------------------


def rule_problems(round_: Round, previous_ranks: Mapping[int, int] | None = None) -> list[Problem]:
    """Every problem check_rules finds in `round_`."""
    problems = Problems()
    check_rules(round_, problems, previous_ranks)
    return problems.as_list()


def the_problem(round_: Round, previous_ranks: Mapping[int, int] | None = None) -> Problem:
    """The one problem check_rules finds (the test fails when there are more or none)."""
    found = rule_problems(round_, previous_ranks)
    assert len(found) == 1, "\n".join(map(str, found)) or "no problem found"
    return found[0]


def with_manifest(round_: Round, **changes: Any) -> Round:
    return replace(round_, manifest=replace(round_.manifest, **changes))


def with_judge(round_: Round, judge_id: str, **changes: Any) -> Round:
    judges = tuple(replace(j, **changes) if j.judge_id == judge_id else j for j in round_.judges)
    return replace(round_, judges=judges)


def with_participant(round_: Round, model_id: str, **changes: Any) -> Round:
    models = tuple(replace(p, **changes) if p.model_id == model_id else p for p in round_.models)
    return replace(round_, models=models)


def with_item(round_: Round, item_id: str, **changes: Any) -> Round:
    changed = tuple(replace(i, **changes) if i.item_id == item_id else i for i in round_.items)
    return replace(round_, items=changed)


def with_response(round_: Round, key: ResponseKey, **changes: Any) -> Round:
    """`round_` with the response `key` (item_id, model_id, run) changed."""
    item_id, model_id, run = key
    rows = tuple(
        replace(r, **changes) if (r.item_id, r.run) == (item_id, run) else r
        for r in round_.responses[model_id]
    )
    return replace(round_, responses={**round_.responses, model_id: rows})


def with_jury(round_: Round, rows: Iterable[JuryScore]) -> Round:
    """`round_` with these jury rows, their positions re-derived (so that a test that
    removes or adds a juror changes that alone)."""
    listed = tuple(rows)
    seed = round_.manifest.jury.presentation_seed
    ranks = presentation_ranks(seed, {(r.judge_id, r.item_id, r.model_id, r.run) for r in listed})
    return replace(
        round_,
        jury=tuple(
            replace(r, position=ranks[(r.judge_id, r.item_id, r.model_id, r.run)]) for r in listed
        ),
    )
