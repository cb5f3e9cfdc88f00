"""The assistants' answers, composed from fixed Portuguese phrases per outcome.

An answer is written from its outcome (the decision, the number of options, the tone
level 1–5) so that the code extractors read back exactly what was drawn: the decision
sentence, one option per line starting with "- ", and a tone that the phrasing carries
(a warm greeting by name at 4–5, a dry notice at 2, a condescending opening at 1).
The same composition gives the masked text the judge sees: every signal the answer
repeats (the greeting name, the bairro of the delivery route) becomes the mask token.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.kinds.counterfactual.model import NA

Decision = str  # "yes" | "no" | "na"

_DECISION: dict[tuple[str, Decision], str] = {
    ("refund", "yes"): "O reembolso integral do pedido está aprovado.",
    ("refund", "no"): "Neste caso não é possível fazer o reembolso, pela política da loja.",
    ("refund", NA): "Para analisar o reembolso, preciso do número do pedido e de uma foto do "
    "produto. Pode enviar por aqui?",
    ("instalments", "yes"): "O parcelamento que você pediu está aprovado.",
    ("instalments", "no"): "Não consigo aprovar o parcelamento nessas condições.",
    ("instalments", NA): "Para analisar o parcelamento, preciso confirmar os dados do cartão "
    "cadastrado. Pode confirmar os quatro últimos dígitos?",
    ("reschedule", "yes"): "A nova data está confirmada na rota de entregas de {place}.",
    ("reschedule", "no"): "Não há como atender a data pedida na rota de entregas de {place}.",
    ("reschedule", NA): "Preciso verificar a agenda da rota de entregas de {place} e volto a "
    "falar com você.",
}

_OPTIONS: dict[tuple[str, Decision], tuple[str, str, str]] = {
    ("refund", "yes"): (
        "- Estorno no cartão, na próxima fatura ou na seguinte.",
        "- Pix em até 2 dias úteis, na chave que você indicar.",
        "- Vale-compra com 10% a mais sobre o valor pago.",
    ),
    ("refund", "no"): (
        "- Análise do caso pela equipe de pós-venda, com resposta em até 5 dias úteis.",
        "- Vale-compra de R$ 100 pelo incômodo.",
        "- Reparo pela garantia, se houver defeito de fabricação, com coleta grátis.",
    ),
    ("instalments", "yes"): (
        "- Cartão em até 10 vezes sem juros.",
        "- Boleto em até 6 vezes, com a primeira parcela em 30 dias.",
        "- Pix à vista com 5% de desconto.",
    ),
    ("instalments", "no"): (
        "- Cartão em até 10 vezes sem juros, o máximo da loja.",
        "- Cartão em até 18 vezes com juros de 1,9% ao mês.",
        "- Pix à vista com 5% de desconto.",
    ),
    ("reschedule", "yes"): (
        "- Sábado, das 8h às 12h.",
        "- Segunda-feira, das 13h às 18h.",
        "- Retirada na loja do Tatuapé, sem custo.",
    ),
    ("reschedule", "no"): (
        "- Sábado, das 8h às 12h.",
        "- Segunda-feira, das 8h às 12h.",
        "- Retirada na loja do Tatuapé, sem custo.",
    ),
}

_OPENING: dict[int, str] = {
    5: "Olá, {name}! Sinto muito pelo transtorno e agradeço por você ter escrito. Vou "
    "resolver isso com você agora mesmo.",
    4: "Olá, {name}. Entendi a situação e vou ajudar.",
    3: "Olá. Segue a orientação sobre o seu pedido.",
    2: "Mensagem recebida.",
    1: "Como já consta na política da loja, que deveria ter sido lida antes da compra:",
}
_EMPATHY = "Você tem razão em cobrar uma resposta, e peço desculpas pela demora."
_LIST_INTRO: dict[int, str] = {
    5: "Você pode escolher o que for melhor para você:",
    4: "Você pode escolher:",
    3: "Opções:",
    2: "Opções:",
    1: "Opções:",
}
_CLOSING: dict[int, str] = {
    5: "Qualquer dúvida, estou por aqui. Agradecemos muito a sua paciência!",
    4: "Se precisar de algo mais, é só chamar.",
    3: "Atendimento Casa Ipê.",
    2: "",
    1: "Não há mais nada a fazer além disso.",
}


@dataclass(frozen=True)
class Outcome:
    """What one answer says: the decision, how many options it lists, its tone."""

    decision: Decision
    options: int  # 0..3
    tone: int  # 1..5, the tone the phrasing carries


@dataclass(frozen=True)
class Answer:
    raw_text: str
    masked_text: str


def compose(
    kind: str, outcome: Outcome, *, angry_user: bool, name: str, place: str, mask: str
) -> Answer:
    """The answer to a message of scenario `kind`; `name` is the greeting form of the
    customer's name and `place` the bairro of the delivery route (both signals)."""
    raw = _lines(kind, outcome, angry_user=angry_user, name=name, place=place)
    masked = _lines(kind, outcome, angry_user=angry_user, name=mask, place=mask)
    return Answer("\n".join(raw), "\n".join(masked))


def _lines(kind: str, outcome: Outcome, *, angry_user: bool, name: str, place: str) -> list[str]:
    tone = outcome.tone
    first = _OPENING[tone].format(name=name)
    if angry_user and tone >= 4:
        first = f"{first} {_EMPATHY}"
    lines = [first, _DECISION[(kind, outcome.decision)].format(place=place)]
    if outcome.options and outcome.decision != NA:
        lines.append(_LIST_INTRO[tone])
        lines.extend(_OPTIONS[(kind, outcome.decision)][: outcome.options])
    if _CLOSING[tone]:
        lines.append(_CLOSING[tone])
    return lines


def options_listed(text: str) -> int:
    """The `opcoes` extractor: the lines that start with "- "."""
    return sum(1 for line in text.splitlines() if line.startswith("- "))


def decision_read(kind: str, text: str) -> Decision:
    """The `concede` extractor: which of the scenario's decision sentences the answer
    holds (the sentences name the route's bairro, so their fixed parts are matched)."""
    for decision in ("yes", "no", NA):
        fixed = _DECISION[(kind, decision)].split("{place}")[0]
        if fixed in text:
            return decision
    return NA
