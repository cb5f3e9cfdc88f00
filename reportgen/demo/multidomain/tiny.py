"""The tiny round: the worked example of multidomain-metrics.md §11, as a valid archive.

Three participants (p1, p2, p3), one run, eight test items in two domains, three
calibration items. Every figure of §11 follows from the points below (weight x correct
for mcq/calc, the final jury score F for open items):

    P1: i3 13/3, a 2, b 2, c 3, d 0, e 2, f 3, i7 4
    P2: i3 10/3, a 2, b 0 (format violation), c 3, d 2, e 2, f 0 (wrong), i7 4 (adjudicated)
    P3: i3 14/3, a 0 (refusal), b 2, c 3, d 2, e 2, f 3, i7 7/3

The audit draws i3 and i7 (each the only open item of its stratum); P1's i7 response
diverges by 3/2 (human 5/2, F 4), so the ledger's `audit` line invalidates i7.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from fractions import Fraction
from pathlib import Path

from reportgen.demo.multidomain import profile
from reportgen.demo.multidomain.assemble import ResponseDraft
from reportgen.demo.multidomain.build import RoundContent, assemble
from reportgen.demo.multidomain.scoring import CalibrationDraft, JuryDraft, Rating, Scores
from reportgen.demo.multidomain.tiny_content import (
    ANNEX,
    DESIGN_IDS,
    DOMAINS,
    ITEM_ORDER_SEED,
    ROUND_ID,
    item_drafts,
    judges,
    participants,
    rubrics,
)
from reportgen.kinds.multidomain.model import Item, Manifest, Response, Round, Status
from reportgen.kinds.multidomain.write import write_round

ENDED_ON = date(2026, 11, 30)
_ID = DESIGN_IDS

# (status, answer text, extracted answer) per (model, item).
_ANSWERS: dict[tuple[str, str], tuple[Status, str, str | None]] = {
    ("p1", _ID["a"]): ("ok", "Resposta: A", "A"),
    ("p1", _ID["b"]): ("ok", "Answer: B", "B"),
    ("p1", _ID["c"]): ("ok", "Juros: 60", "60"),
    ("p1", _ID["d"]): ("ok", "Resposta: B", "B"),
    ("p1", _ID["e"]): ("ok", "Answer: B", "B"),
    ("p1", _ID["f"]): ("ok", "Remaining records: 1020", "1020"),
    ("p2", _ID["a"]): ("ok", "A", "A"),
    ("p2", _ID["b"]): ("format_violation", "It depends on the contract.", None),
    ("p2", _ID["c"]): ("ok", "60 reais", "60"),
    ("p2", _ID["d"]): ("ok", "A", "A"),
    ("p2", _ID["e"]): ("ok", "B", "B"),
    ("p2", _ID["f"]): ("ok", "1180", "1180"),
    ("p3", _ID["a"]): ("refusal", "Prefiro não responder a perguntas sobre índices.", None),
    ("p3", _ID["b"]): ("ok", "B) original principal only", "B"),
    ("p3", _ID["c"]): ("ok", "R$ 60,00", "60"),
    ("p3", _ID["d"]): ("ok", "Alternativa A", "A"),
    ("p3", _ID["e"]): ("ok", "B", "B"),
    ("p3", _ID["f"]): ("ok", "1020 records", "1020"),
    ("p1", "i3"): (
        "ok",
        "O registro dá rastreabilidade, mostra quem decidiu e com que "
        "critérios, e permite revisar a concessão depois.",
        None,
    ),
    # 17 consecutive tokens of the prompt: 10 of its 13 8-grams (flagged, > 3/5).
    ("p2", "i3"): (
        "ok",
        "Uma empresa deve registrar as decisões do comitê de crédito antes de "
        "aprovar uma operação de financiamento porque o registro permite "
        "auditoria posterior.",
        None,
    ),
    ("p3", "i3"): (
        "ok",
        "Porque o registro preserva a memória da decisão, comprova a análise "
        "de risco e sustenta a auditoria interna.",
        None,
    ),
    ("p1", "i7"): ("ok", "应遵循合法、正当、必要和诚信原则，并明确告知处理目的。", None),
    ("p2", "i7"): ("ok", "主要原则包括目的明确、最小必要、公开透明和确保安全。", None),
    # 16 consecutive characters of the prompt: 9 of its 15 8-grams (= 3/5, not flagged).
    ("p3", "i7"): ("ok", "企业处理客户个人数据时应遵守的基础要求包括合法和透明。", None),
}

# Juror criterion scores (j1, j2, j3) of the open responses, and the adjudicator's.
_JURY: dict[tuple[str, str], tuple[tuple[Scores, Scores, Scores], Scores | None]] = {
    ("p1", "i3"): (((4, 4), (4, 5), (5, 4)), None),  # means 4, 9/2, 9/2 -> F 13/3
    ("p2", "i3"): (((3, 3), (3, 4), (4, 3)), None),  # 3, 7/2, 7/2 -> 10/3
    ("p3", "i3"): (((4, 5), (5, 4), (5, 5)), None),  # 9/2, 9/2, 5 -> 14/3
    ("p1", "i7"): (((4, 4), (3, 5), (5, 3)), None),  # 4, 4, 4 -> 4
    ("p2", "i7"): (((2, 2), (3, 3), (4, 4)), (4, 4)),  # range 2 > 3/2: adjudicated, F 4
    ("p3", "i7"): (((2, 2), (2, 3), (3, 2)), None),  # 2, 5/2, 5/2 -> 7/3
}
# The human reviewer's criterion scores of the audited responses.
_HUMAN: dict[tuple[str, str], Scores] = {
    ("p1", "i3"): (4, 5),  # 9/2 vs 13/3: 1/6
    ("p2", "i3"): (3, 4),  # 7/2 vs 10/3: 1/6
    ("p3", "i3"): (4, 5),  # 9/2 vs 14/3: 1/6
    ("p1", "i7"): (2, 3),  # 5/2 vs 4: 3/2 > 1 -> i7 invalidated
    ("p2", "i7"): (4, 4),  # 4 vs 4: 0
    ("p3", "i7"): (2, 3),  # 5/2 vs 7/3: 1/6
}
_LANGUAGE = {"pt-BR": "pt-BR", "en": "en", "zh": "zh"}


def _at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=UTC)


def _manifest() -> Manifest:
    dev = profile.deviation
    return Manifest(
        round_id=ROUND_ID,
        title={
            "pt-BR": "Rodada mínima — exemplo resolvido do §11",
            "en": "Tiny round — the worked example of §11",
        },
        synthetic=True,
        **profile.manifest_fields(),
        collected_on=date(2026, 11, 23),
        protocol_frozen_on=date(2026, 11, 2),
        ended_on=ENDED_ON,
        bootstrap_seed=42,
        deviations=tuple(
            dev(key, f"Exemplo resolvido com {what_pt}.", f"Worked example with {what_en}.")
            for key, what_pt, what_en in (
                ("multidomain.cast_size", "três participantes", "three participants"),
                ("multidomain.domains", "dois domínios", "two domains"),
                ("multidomain.composition", "oito itens", "eight items"),
                ("multidomain.grade_counts", "oito itens", "eight items"),
                ("multidomain.max_points", "oito itens (24 pontos)", "eight items (24 points)"),
                ("multidomain.runs", "uma execução", "one run"),
            )
        ),
        annex=ANNEX,
        cast_size=3,
        previous_round=None,
        domains=DOMAINS,
        runs=1,
        jury=profile.jury_rules(presentation_seed=7),
        audit=profile.audit_rules(seed=11),
        item_order_seed=ITEM_ORDER_SEED,
    )


def _responses(items: list[tuple[str, str]]) -> list[ResponseDraft]:
    drafts = []
    for number, (model_id, item_id, language) in enumerate(
        (m, i, lang) for m in ("p1", "p2", "p3") for i, lang in items
    ):
        status, text, answer = _ANSWERS[(model_id, item_id)]
        drafts.append(
            ResponseDraft(
                item_id=item_id,
                model_id=model_id,
                run=1,
                status=status,
                text=text,
                latency_ms=float(800 + 37 * number + 5 * len(text)),
                called_at=_at(23 + number % 5, 9 + number % 8, number),
                extracted_answer=answer,
                response_language=_LANGUAGE[language],
                cost_micro=150 + 3 * len(text),
            )
        )
    return drafts


def _jury(item: Item, response: Response) -> JuryDraft:
    scores, adjudicator = _JURY[(response.model_id, item.item_id)]
    jurors: tuple[Rating, Rating, Rating] = (
        ("j1", scores[0]),
        ("j2", scores[1]),
        ("j3", scores[2]),
    )
    return JuryDraft(jurors, None if adjudicator is None else ("a1", adjudicator), _at(28, 14))


def _human(response: Response, final: Fraction) -> tuple[str, Scores, datetime]:
    reviewer = "h1" if response.item_id == "i3" else "h2"
    return (
        reviewer,
        _HUMAN[(response.model_id, response.item_id)],
        datetime(2026, 12, 2, 10, 0, tzinfo=UTC),
    )


def _audit_reason(audit_id: str, divergence: Fraction) -> dict[str, str]:
    return {
        "pt-BR": f"Auditoria humana {audit_id}: divergência {divergence} acima de 1 (Art. 26).",
        "en": f"Human audit {audit_id}: divergence {divergence} above 1 (Art. 26).",
    }


def _calibration() -> list[CalibrationDraft]:
    texts = {
        "cal-pt": "Um orçamento doméstico lista receitas e despesas do mês. Ele ajuda a decidir "
        "onde economizar.",
        "cal-en": "An audit trail records who did what and when. It lets others check decisions "
        "later.",
        "cal-zh": "审计记录说明谁在何时做了什么。它帮助日后核查决定。",
    }
    ratings: tuple[tuple[str, Scores], ...] = (
        ("j1", (4, 4)),
        ("j2", (4, 5)),
        ("j3", (3, 4)),
        ("a1", (5, 4)),  # Art. 16: the hit rate is the adjudicator's (9/10; jurors 4/5)
        ("h1", (4, 4)),
        ("h2", (5, 4)),
    )
    return [
        CalibrationDraft(item_id, f"{item_id}-r1", text, ratings, date(2026, 11, 16))
        for item_id, text in texts.items()
    ]


def tiny_round(path: Path) -> Round:
    """The tiny round of metrics §11 as a typed round whose archive folder is `path`."""
    drafts = item_drafts()
    tests = [(d.item_id, d.language) for d in drafts if not d.calibration]
    content = RoundContent(
        manifest=_manifest(),
        participants=participants(),
        judges=judges(),
        rubrics=rubrics(),
        items=drafts,
        responses=_responses(tests),
        jury=_jury,
        human=_human,
        audit_decided_on=date(2026, 12, 4),
        audit_reason=_audit_reason,
        calibration=_calibration(),
    )
    return assemble(content, path)


def write_tiny_round(out_dir: Path) -> Path:
    """Write the tiny round's archive as `out_dir/<round_id>`; returns its folder."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / ROUND_ID
    write_round(tiny_round(target), target)
    return target
