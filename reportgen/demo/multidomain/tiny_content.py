"""The items, cast and raters of the tiny round (metrics §11): the texts we write.

Item letters of the design -> ids: a = i4, b = i1, c = i8, d = i2, e = i6, f = i5
(with item_order_seed 2037 the scored items come as a, b, i3, e, c, d, f).
"""

from __future__ import annotations

from datetime import date

from reportgen.demo.multidomain import profile
from reportgen.demo.multidomain.assemble import ItemDraft
from reportgen.kinds.multidomain.model import (
    AnnexEntry,
    Criterion,
    Domain,
    Judge,
    JudgeRole,
    Participant,
)

ROUND_ID = "tiny-2026-11"
ITEM_ORDER_SEED = 2037
DESIGN_IDS = {"a": "i4", "b": "i1", "c": "i8", "d": "i2", "e": "i6", "f": "i5"}

DOMAINS = (
    Domain("d1", {"pt-BR": "Finanças", "en": "Finance"}),
    Domain("d2", {"pt-BR": "Dados e conformidade", "en": "Data and compliance"}),
)

# i3's prompt has 20 tokens (13 distinct 8-grams); i7's 22 CJK characters (15).
I3_PROMPT = (
    "Explique por que uma empresa deve registrar as decisões do comitê de crédito antes "
    "de aprovar uma operação de financiamento."
)
I7_PROMPT = "请说明企业处理客户个人数据时应遵守的基本原则。"


def _canary(item_id: str) -> str:
    return f"MDCANARY-tiny-{item_id}-7c41e9"


def _mcq(
    item_id: str, domain: str, language: str, grade: int, prompt: str, key: str, why: str
) -> ItemDraft:
    return ItemDraft(
        item_id,
        language,
        prompt,
        domain,
        "mcq",
        grade,
        canary=_canary(item_id),
        choices="ABCD",
        answer_key=key,
        justification=why,
    )


# long: the eight test items and three calibration items, as data
def item_drafts() -> list[ItemDraft]:
    rubric = "rb-aberta"
    return [
        _mcq(
            "i1",
            "d1",
            "en",
            3,
            "Which statement describes simple interest? A) Interest is added to the principal "
            "every month. B) Interest is computed on the original principal only. C) The rate "
            "changes with inflation. D) No interest is charged.",
            "B",
            "Simple interest is always computed on the original principal.",
        ),
        _mcq(
            "i2",
            "d2",
            "pt-BR",
            2,
            "Qual destas é uma base legal para o tratamento de dados pessoais na LGPD? "
            "A) Consentimento do titular. B) Interesse comercial sem limites. "
            "C) Pedido verbal de um colega. D) Curiosidade do atendente.",
            "A",
            "O consentimento do titular é uma das bases legais previstas em lei.",
        ),
        ItemDraft(
            "i3",
            "pt-BR",
            I3_PROMPT,
            "d1",
            "open",
            4,
            canary=_canary("i3"),
            rubric_id=rubric,
            reference="Boas práticas de governança de crédito",
        ),
        _mcq(
            "i4",
            "d1",
            "pt-BR",
            2,
            "Qual índice mede a inflação oficial no Brasil? A) IPCA. B) IGP-M. C) INCC. D) Selic.",
            "A",
            "O IPCA é o índice oficial de inflação usado nas metas.",
        ),
        ItemDraft(
            "i5",
            "en",
            "A company keeps 1,200 customer records and deletes 15% of them "
            "after the retention period. How many records remain?",
            "d2",
            "calc",
            5,
            canary=_canary("i5"),
            answer_key="1020",
            tolerance_abs="0",
            unit="records",
            justification="1,200 x (1 - 0.15) = 1,020.",
        ),
        _mcq(
            "i6",
            "d2",
            "en",
            3,
            "Who should be told first when a personal data breach is found inside a company? "
            "A) The press. B) The data protection officer. C) A competitor. D) Nobody.",
            "B",
            "The data protection officer coordinates the response to a breach.",
        ),
        ItemDraft("i7", "zh", I7_PROMPT, "d2", "open", 4, canary=_canary("i7"), rubric_id=rubric),
        ItemDraft(
            "i8",
            "pt-BR",
            "Um empréstimo de R$ 1.000,00 a juros simples de 2% ao mês "
            "dura 3 meses. Quantos reais de juros são pagos?",
            "d1",
            "calc",
            1,
            canary=_canary("i8"),
            answer_key="60",
            tolerance_abs="0.5",
            unit="BRL",
            justification="1.000 x 0,02 x 3 = 60.",
        ),
        ItemDraft(
            "cal-pt",
            "pt-BR",
            "Resuma em duas frases o que é um orçamento doméstico.",
            "d1",
            "open",
            2,
            calibration=True,
            rubric_id="rb-calibracao",
        ),
        ItemDraft(
            "cal-en",
            "en",
            "In two sentences, explain why a company keeps an audit trail.",
            "d2",
            "open",
            2,
            calibration=True,
            rubric_id="rb-calibracao",
        ),
        ItemDraft(
            "cal-zh",
            "zh",
            "请用两句话说明为什么企业需要保存审计记录。",
            "d2",
            "open",
            2,
            calibration=True,
            rubric_id="rb-calibracao",
        ),
    ]


def rubrics() -> list[Criterion]:
    rows = []
    for rubric_id in ("rb-aberta", "rb-calibracao"):
        rows += [
            Criterion(
                rubric_id,
                "correcao",
                1,
                "Correção",
                "Correctness",
                "Afirma algo errado sobre o ponto central.",
                "Acerta o ponto central, com uma imprecisão.",
                "Acerta o ponto central sem imprecisões.",
            ),
            Criterion(
                rubric_id,
                "clareza",
                2,
                "Clareza",
                "Clarity",
                "Texto confuso ou fora do tema.",
                "Compreensível, mas desorganizado.",
                "Claro, direto e bem organizado.",
            ),
        ]
    return rows


ANNEX = (
    AnnexEntry(1, "Organização Alfa", "São Paulo", ("pt-BR",), False),
    AnnexEntry(2, "Beta Sistemas", "Recife", ("en",), False),
    AnnexEntry(3, "Gama Dados", "Curitiba", ("zh", "en"), False),
)


def _participant(
    annex: AnnexEntry, model_id: str, provider: str, model: str, person: str
) -> Participant:
    open_weights = model_id == "p3"
    return Participant(
        model_id=model_id,
        display_name=model_id.upper(),
        provider=provider,
        api_identifier=f"{provider.lower()}/{model.lower()}",
        snapshot=f"{provider.lower()}-2026-10",
        evaluated_on=date(2026, 11, 23),
        annex_id=annex.annex_id,
        organization=annex.organization,
        economic_group=f"grupo-{provider.lower()}",
        language_affinity=annex.language_affinity,
        reserve=False,
        replaces=None,
        operated_by_organization=False,
        weights_open=open_weights,
        checksum="sha256:" + "3" * 64 if open_weights else "",
        generation_sha256="",  # computed by the assembler
        executives=person,
        reference_models=f"{provider} {model}",
        reference_date=date(2026, 10, 1),
        verified_on=date(2026, 11, 20),
        verification_source="Consulta ao registro público da organização",
        verification_status="confirmed",
        footnote_pt="",
        footnote_en="",
    )


def participants() -> list[Participant]:
    return [
        _participant(ANNEX[0], "p1", "Alfa", "Lince", "Ana Souza"),
        _participant(ANNEX[1], "p2", "Beta", "Tucano", "Bruno Lima"),
        _participant(ANNEX[2], "p3", "Gama", "Arara", "Carla Dias"),
    ]


def _model_judge(judge_id: str, role: JudgeRole, name: str) -> Judge:
    api, snapshot = f"juizes/{judge_id}", f"{judge_id}-2026-10"
    group = "juizes-independentes"
    return profile.model_judge(judge_id, role, name, "Juízes Independentes", api, snapshot, group)


def judges() -> list[Judge]:
    jurors = [_model_judge(f"j{n}", "juror", f"Jurado {n}") for n in (1, 2, 3)]
    adjudicator = _model_judge("a1", "adjudicator", "Adjudicador 1")
    return [*jurors, adjudicator, *profile.human_reviewers("Revisora 1", "Revisor 2")]
