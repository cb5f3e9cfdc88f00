"""A small multidomain round in memory and a hand-written results object for it, for the
page and guard tests of the multidomain report (before the tiny round's generator and
`build_results` exist, and independently of them: the pages only lay values out).

Three participants, two domains, languages pt-BR/en/zh; i3 (open, pt-BR) whose prompt P2
copies, i7 (open, zh), "a" (mcq) and "f" (calc), a calibration item "cal-1" with its own
rubric. Figures follow the worked example of metrics §11 where it has them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path

from reportgen.kinds.multidomain import model as md
from reportgen.kinds.multidomain.results import (
    SCHEMA,
    Audit,
    AuditDivergence,
    AuditStratum,
    Calibration,
    CalibrationItem,
    Contamination,
    Counts,
    Dates,
    Exact,
    Jury,
    LanguageHitRate,
    NgramFinding,
    PairRecord,
    Pairwise,
    ParticipantResults,
    ProcessMetrics,
    Results,
    SliceScore,
)
from reportgen.model import Annulment, Interpretation

ENDED_ON = date(2026, 11, 30)
EMBARGO_END = date(2027, 2, 28)
PROVISIONAL_UNTIL = date(2027, 3, 20)
I3_PROMPT = (
    "Explique quais obrigações de prevenção à lavagem de dinheiro cabem ao banco quando"
    " um cliente novo movimenta valores altos sem origem comprovada"
)
I7_PROMPT = "请根据中国人民银行的规定说明商业银行在跨境支付中应当履行的反洗钱义务与报告程序"
CAL_PROMPT = "Resuma em três frases o que um contrato de locação residencial deve conter"
I3_ANCHOR_5 = "Cita a comunicação ao órgão de controle e a diligência reforçada sobre o cliente"
CAL_ANCHOR_5 = "Nomeia partes, imóvel, prazo, valor e garantias em frases curtas e claras"
P2_I3_ANSWER = "Resposta: " + I3_PROMPT + " e comunicar."
CANARIES = {"i3": "MDCANARY-aa11-i3", "i7": "MDCANARY-bb22-i7", "a": "MDCANARY-cc33-a"}
CANARIES["f"] = "MDCANARY-dd44-f"
LABEL = "SISTEMA-Q7"
A_JUSTIFICATION = (
    "A alternativa B segue a norma de conduta vigente para instituições financeiras brasileiras."
)
F_JUSTIFICATION = (
    "Divide the interest by the principal and multiply by one hundred to obtain the rate."
)
WHEN = datetime(2026, 11, 20, 12, tzinfo=UTC)
PARTICIPANTS = (("p1", "Aurora Um"), ("p2", "Baobá Dois"), ("p3", "Cerrado Três"))


def _item(item_id: str, **fields: object) -> md.Item:
    base: dict[str, object] = {
        "item_id": item_id,
        "language": "pt-BR",
        "prompt": f"Pergunta {item_id}",
        "canary": CANARIES.get(item_id),
        "published": False,
        "calibration": False,
        "domain_id": "d1",
        "type": "mcq",
        "grade": 3,
        "weight": 2,
        "order": None,
        "choices": None,
        "answer_key": None,
        "tolerance_abs": None,
        "unit": None,
        "justification": None,
        "reference": None,
        "rubric_id": None,
        "content_sha256": "0" * 64,
        "variant_of": None,
    }
    base.update(fields)
    return md.Item(**base)  # type: ignore[arg-type]


def items() -> tuple[md.Item, ...]:
    return (
        _item(
            "a",
            order=1,
            choices="ABCD",
            answer_key="B",
            justification=A_JUSTIFICATION,
        ),
        _item("i3", order=2, type="open", weight=5, prompt=I3_PROMPT, rubric_id="r-test"),
        _item(
            "f",
            order=3,
            type="calc",
            weight=3,
            domain_id="d2",
            language="en",
            answer_key="12.5",
            tolerance_abs="0.1",
            unit="%",
            justification=F_JUSTIFICATION,
        ),
        _item(
            "i7",
            order=4,
            type="open",
            weight=5,
            domain_id="d2",
            language="zh",
            prompt=I7_PROMPT,
            rubric_id="r-test",
        ),
        _item(
            "cal-1",
            canary=None,
            published=True,
            calibration=True,
            type="open",
            weight=5,
            prompt=CAL_PROMPT,
            rubric_id="r-cal",
        ),
    )


def _criterion(rubric_id: str, anchor_5: str) -> md.Criterion:
    return md.Criterion(
        rubric_id,
        "c1",
        1,
        "Correção",
        "Correctness",
        "Não responde.",
        "Responde em parte.",
        anchor_5,
    )


def _response(item_id: str, model_id: str, text: str, correct: bool | None = None) -> md.Response:
    return md.Response(
        item_id=item_id,
        model_id=model_id,
        run=1,
        raw_text=text,
        latency_ms=900.0,
        status="ok",
        raw_sha256=None,
        prompt_sha256="0" * 64,
        extracted_answer="B" if correct is not None else None,
        format_ok=True if correct is not None else None,
        correct=correct,
        scored_before_discard=None,
        response_language="pt-BR",
        cost_micro=100,
        snapshot="s1",
        called_at=WHEN,
    )


def _participant(model_id: str, name: str, annex_id: int) -> md.Participant:
    return md.Participant(
        model_id=model_id,
        display_name=name,
        provider=f"prov-{model_id}",
        api_identifier=f"api/{model_id}",
        snapshot="s1",
        evaluated_on=date(2026, 11, 20),
        annex_id=annex_id,
        organization=f"Org {name}",
        economic_group=f"g{annex_id}",
        language_affinity=("pt-BR",) if model_id != "p3" else ("zh", "en"),
        reserve=False,
        replaces=None,
        operated_by_organization=False,
        weights_open=False,
        checksum="",
        generation_sha256="0" * 64,
        executives="x",
        reference_models="y",
        reference_date=date(2026, 1, 1),
        verified_on=date(2026, 11, 1),
        verification_source="site",
        footnote_pt="Dados em verificação." if model_id == "p3" else "",
        verification_status="verificar" if model_id == "p3" else "confirmed",
        footnote_en="Data being verified." if model_id == "p3" else "",
    )


def manifest(synthetic: bool = True) -> md.Manifest:
    return md.Manifest(
        round_id="md-tiny",
        title={"pt-BR": "Rodada mínima", "en": "Tiny round"},
        synthetic=synthetic,
        collected_on=date(2026, 11, 11),
        protocol_frozen_on=date(2026, 11, 1),
        ended_on=ENDED_ON,
        languages=("pt-BR", "en", "zh"),
        generation={"temperature": 0.2, "max_tokens": 2048, "timeout_s": 120, "tools": []},
        bootstrap_replicates=1000,
        bootstrap_seed=7,
        interpretations=(
            Interpretation(
                "MD-I10",
                {"pt-BR": "Art. 30 — empate técnico", "en": "Art. 30 — technical tie"},
                {"pt-BR": "Leitura R2.", "en": "Reading R2."},
            ),
        ),
        profile="REG-BC-2026-001",
        profile_version="1.0",
        deviations=(
            md.Deviation(
                "multidomain.cast_size",
                {
                    "pt-BR": "Rodada de demonstração com 3 Participantes.",
                    "en": "Demonstration round with 3 participants.",
                },
            ),
        ),
        annex=(),
        cast_size=3,
        previous_round=None,
        domains=(
            md.Domain("d1", {"pt-BR": "Jurídica", "en": "Legal"}),
            md.Domain("d2", {"pt-BR": "Bancária", "en": "Banking"}),
        ),
        weights={"mcq": 2, "open": 5, "calc": 3},
        composition={},
        grade_counts={},
        grade_rules=md.GradeRules(3, 4, Fraction(1, 20)),
        max_points=15,
        runs=1,
        jury=md.JuryRules(3, (0, 5), Fraction(3, 2), 11),
        audit=md.AuditRules(Fraction(1, 10), 3, Fraction(1), 13),
        calibration=md.CalibrationRules(3, 2, (Fraction(1, 5), Fraction(19, 20))),
        contamination=md.ContaminationRules(8, Fraction(3, 5), 8),
        technical_tie="half_mean_width",
        pairwise=md.Pairwise(1500, 16, 400, 10, 1500),
        item_order_seed=5,
        bank_sha256="b" * 64,
        judge_config_sha256="c" * 64,
        extractor_version="1.0.0",
        currency="USD",
        embargo_days=90,
        contest_window_days=10,
        reply_days=10,
        retention_months=24,
        retain_until=date(2028, 11, 30),
    )


def tiny_round(synthetic: bool = True) -> md.Round:
    participants = tuple(_participant(m, n, k) for k, (m, n) in enumerate(PARTICIPANTS, 1))
    responses = {
        m: (
            _response("a", m, "A alternativa correta é B.", correct=m != "p3"),
            _response(
                "i3", m, P2_I3_ANSWER if m == "p2" else "Deve comunicar ao órgão de controle."
            ),
            _response("f", m, "12.5", correct=m != "p2"),
            _response("i7", m, "应当报告可疑交易。"),
        )
        for m, _ in PARTICIPANTS
    }
    jury = tuple(
        md.JuryScore(i, m, 1, f"j{j}", "c1", 4, 1, WHEN)
        for i in ("i3", "i7")
        for m, _ in PARTICIPANTS
        for j in (1, 2, 3)
    )
    jurors = [
        md.Judge(
            f"j{j}",
            "model",
            "juror",
            f"Juiz {j}",
            "prov-j",
            f"api/j{j}",
            "s",
            f"gj{j}",
            "",
            False,
            False,
            "",
        )
        for j in (1, 2, 3)
    ]
    reviewer = md.Judge(
        "h1", "human", "reviewer", "Maria Revisora", "", "", "", "", "", False, False, ""
    )
    judges = (*jurors, reviewer)
    return md.Round(
        path=Path("rounds/md-tiny"),
        manifest=manifest(synthetic),
        models=participants,
        items=items(),
        judges=judges,
        rubrics=(_criterion("r-test", I3_ANCHOR_5), _criterion("r-cal", CAL_ANCHOR_5)),
        responses=responses,
        judge_views=tuple(
            md.JudgeView(
                i,
                "p1",
                1,
                LABEL,
                "Texto visto pelos juízes sem o nome do sistema avaliado nesta rodada.",
                "0" * 64,
            )
            for i in ("i3",)
        ),
        jury=jury,
        adjudications=(),
        calibration=(),
        audit=(),
        annulments=(
            Annulment(
                "i7",
                date(2026, 12, 5),
                "audit",
                "aud-1",
                {
                    "pt-BR": "Divergência da auditoria acima de 1.",
                    "en": "Audit divergence above 1.",
                },
                "0" * 64,
            ),
        ),
    )


def _e(value: Fraction | int) -> Exact:
    return Exact.of(Fraction(value))


def _slice(name: str, score: Fraction, n: int, possible: int) -> SliceScore:
    return SliceScore(
        slice=name,
        score=_e(score),
        lo=_e(score),
        hi=_e(score),
        n=n,
        possible=possible,
        undefined_replicates=0,
    )


def _process(refusals: int, compliance: Fraction) -> ProcessMetrics:
    return ProcessMetrics(
        n=7,
        latency_p50=900.0,
        latency_p95=1200.5,
        timeouts=0,
        timeout_rate=_e(0),
        errors=0,
        error_rate=_e(0),
        cost_micro=700,
        cost_per_1000=_e(Fraction(1, 10)),
        format_compliance=_e(compliance),
        format_compliant=5,
        format_counted=6,
        refusals=refusals,
        refusal_rate=_e(Fraction(refusals, 7)),
        discarded_scored=0,
        discarded_unscored=0,
        language_compliance=_e(1),
        language_detected=7,
    )


def _participant_results(
    model_id: str,
    name: str,
    rank: int,
    primary: Fraction,
    glob: Fraction,
    elo: float,
    bt: float,
    refusals: int,
    compliance: Fraction,
) -> ParticipantResults:
    slices = (
        _slice("domain:d1", primary + 5, 4, 12),
        _slice("domain:d2", primary - 5, 3, 7),
        _slice("language:pt-BR", glob, 4, 12),
        _slice("language:en", glob, 3, 7),
        _slice("type:mcq", glob, 4, 8),
        _slice("type:open", glob, 1, 5),
        _slice("type:calc", glob, 2, 6),
        _slice("high_grade", glob, 2, 5),
        _slice("non_native", glob, 3, 7),
        _slice("run:1", glob, 7, 19),
    )
    return ParticipantResults(
        model_id=model_id,
        display_name=name,
        rank=rank,
        points=_e(glob * 19 / 100),
        possible=19,
        primary=_slice("primary", primary, 7, 19),
        global_score=_slice("global", glob, 7, 19),
        slices=slices,
        judge_variance=_e(0),
        cost_per_point=_e(Fraction(1, 3)),
        elo=elo,
        elo_lo=elo - 10,
        elo_hi=elo + 10,
        bt=bt,
        bt_lo=bt - 20,
        bt_hi=bt + 20,
        process=_process(refusals, compliance),
        jury_scored=2,
        adjudicated=0,
    )


def tiny_results() -> Results:
    participants = (
        _participant_results(
            "p3",
            "Cerrado Três",
            1,
            Fraction(1625, 18),
            Fraction(8772, 100),
            1522.44,
            1551.17,
            1,
            Fraction(1),
        ),
        _participant_results(
            "p1",
            "Aurora Um",
            2,
            Fraction(5225, 63),
            Fraction(8596, 100),
            1503.70,
            1517.07,
            0,
            Fraction(1),
        ),
        _participant_results(
            "p2",
            "Baobá Dois",
            3,
            Fraction(7975, 126),
            Fraction(6491, 100),
            1473.86,
            1431.77,
            0,
            Fraction(5, 6),
        ),
    )
    pairs = (
        PairRecord(a="p1", b="p2", wins=3, losses=1, ties=3, p_a_beats_b=0.620),
        PairRecord(a="p1", b="p3", wins=1, losses=2, ties=4, p_a_beats_b=0.452),
        PairRecord(a="p2", b="p3", wins=1, losses=3, ties=3, p_a_beats_b=0.336),
    )
    return Results(
        schema=SCHEMA,
        round_id="md-tiny",
        kind="multidomain",
        synthetic=True,
        package_version="0",
        replicates=1000,
        seed=7,
        counts=Counts(
            test_items=4,
            active_items=4,
            superseded_items=0,
            annulled_items=1,
            scored_items=3,
            possible=10,
            annulled_by_source={"audit": 1},
        ),
        participants=participants,
        adjacent=(),
        tie_groups=(),
        pairwise=Pairwise(
            battles=21, pairs=pairs, bt_estimable=True, bt_non_estimable_replicates=0
        ),
        jury=Jury(jury_scored=6, adjudicated=0, adjudicated_share=_e(0), criterion_ranges_above=0),
        audit=Audit(
            strata=(
                AuditStratum(
                    domain_id="d1", language="pt-BR", size=1, drawn=("i3",), audited_responses=3
                ),
            ),
            audited_items=2,
            audited_responses=6,
            mean_divergence=_e(Fraction(1, 2)),
            share_above=_e(Fraction(1, 6)),
            invalidations=(
                AuditDivergence(
                    item_id="i7",
                    model_id="p1",
                    run=1,
                    audit_id="aud-1",
                    human=_e(Fraction(5, 2)),
                    final=_e(4),
                    divergence=_e(Fraction(3, 2)),
                    above=True,
                ),
            ),
            ledgered=("i7",),
        ),
        calibration=Calibration(
            items=(
                CalibrationItem(
                    item_id="cal-1",
                    language="pt-BR",
                    responses=2,
                    hit_rate=_e(Fraction(3, 5)),
                    flagged=False,
                ),
            ),
            languages=(
                LanguageHitRate(language="pt-BR", responses=2, hit_rate=_e(Fraction(3, 5))),
            ),
            parity_gap=_e(0),
            alpha=0.71,
            mean_abs_jury_human=_e(Fraction(1, 3)),
        ),
        contamination=Contamination(
            full_canaries=(),
            full_canary_items=(),
            suspicious_canaries=(),
            ngram_checked=6,
            ngram_not_computable=0,
            ngram_flagged=(
                NgramFinding(
                    item_id="i3",
                    model_id="p2",
                    run=1,
                    shared=10,
                    total=13,
                    containment=_e(Fraction(10, 13)),
                ),
            ),
        ),
        dates=Dates(
            ended_on=ENDED_ON,
            embargo_end=EMBARGO_END,
            contest_opens=EMBARGO_END,
            contest_closes=date(2027, 3, 10),
            provisional_until=PROVISIONAL_UNTIL,
            retain_until=date(2028, 11, 30),
            # Re-verified Sunday 1 November; Monday 2 November (All Souls' Day) is a
            # national holiday: the 5 business days are 3 to 6 and 9 November (Art. 6).
            reverified_on=date(2026, 11, 1),
            reverify_until=date(2026, 11, 9),
        ),
    )


def build_site_of(
    work: Path, as_of: date, round_: md.Round | None = None, contact: str | None = None
) -> Path:
    """The built site (MkDocs, downloads, leak guard) of the in-memory round on `as_of`,
    through the build's own staging (the archive reader is not needed); `contact`: the
    contestation address of site.yml (the repository's is a placeholder)."""
    from dataclasses import replace

    from reportgen.build import _stage
    from reportgen.guard import check_site
    from reportgen.kinds.multidomain.render.guard import guard_material
    from reportgen.kinds.multidomain.render.site_pages import site
    from reportgen.render.siteconfig import load_build_config
    from tests.factories import CONFIG, THEME

    round_ = round_ or tiny_round()
    config = load_build_config(CONFIG, as_of)
    if contact is not None:
        config = replace(config, contest_contact=contact)
    source = site([round_], config, cache_dir=None, results={round_.round_id: tiny_results()})
    work.mkdir(parents=True, exist_ok=True)
    built = _stage(source, config, THEME, work)
    check_site(built, [guard_material(round_)], as_of=as_of)
    return built


def build_tiny_site(work: Path, as_of: date) -> tuple[Path, md.Round]:
    """The built site of the real tiny round (metrics §11, reportgen.demo) on `as_of`, with
    its computed results, through the build's staging and the leak guard."""
    from reportgen.build import _stage
    from reportgen.demo.multidomain.tiny import write_tiny_round
    from reportgen.guard import check_site
    from reportgen.kinds.multidomain.render.guard import guard_material
    from reportgen.kinds.multidomain.render.site_pages import site
    from reportgen.kinds.multidomain.results import build_results
    from reportgen.kinds.rounds import read_round
    from reportgen.render.siteconfig import load_build_config
    from tests.factories import CONFIG, THEME

    round_ = read_round(write_tiny_round(work / "rounds"), with_text=True)
    assert isinstance(round_, md.Round)
    config = load_build_config(CONFIG, as_of)
    results = {round_.round_id: build_results(round_)}
    source = site([round_], config, cache_dir=None, results=results)
    built = _stage(source, config, THEME, work / "staging")
    check_site(built, [guard_material(round_)], as_of=as_of)
    return built, round_
