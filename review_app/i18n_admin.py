"""The administration pages' messages (leak report, assignment, adjudication, agreement):
part of the catalogue in `review_app.i18n`, kept here so that each module stays short.

Messages that depend on a number have plural forms `key#one` and `key#other`, chosen by
`review_app.i18n.translate` from the `count` parameter.
"""

from __future__ import annotations

from collections.abc import Mapping

ADMIN_PT_BR: Mapping[str, str] = {
    "error_overlap#one": (
        "Cada amostra precisa de {overlap} revisores distintos, mas há {count} conta de revisor."
    ),
    "error_overlap#other": (
        "Cada amostra precisa de {overlap} revisores distintos, mas há {count} contas de revisor."
    ),
    "error_same_draw": (
        "A rodada {round_id} já tem um lote com a semente {seed}: ele sortearia as mesmas "
        "saídas. Use outra semente."
    ),
    "error_unknown_reviewer": "Não há conta de revisor chamada {name}.",
    "error_quota": (
        "As cotas não bastam: {samples} amostras × {overlap} revisores pedem mais do que "
        "as {capacity} vagas."
    ),
    "error_quota_negative": "A cota de {name} não pode ser negativa; recebi {quota}.",
    "error_hold_judged": "A amostra {code} já foi julgada; não pode mais ser retida.",
    "error_batch_is_closed": "O lote {batch_id} está fechado. Reabra-o antes de mudá-lo.",
    "error_decision_required": "Escolha uma decisão antes de registrá-la.",
    "disagreements_count#one": "{count} amostra aguarda decisão.",
    "disagreements_count#other": "{count} amostras aguardam decisão.",
    "batch_samples#one": "{count} amostra",
    "batch_samples#other": "{count} amostras",
    "queue_closed#one": (
        "O lote foi fechado antes do seu julgamento: {count} amostra ficou sem julgar e não "
        "pode mais receber julgamento."
    ),
    "queue_closed#other": (
        "O lote foi fechado antes do seu julgamento: {count} amostras ficaram sem julgar e "
        "não podem mais receber julgamento."
    ),
    "leak_heading": "Relatório de vazamentos",
    "leak_help": (
        "Trechos que ainda podem revelar o modelo. Retenha a amostra para tirá-la das filas "
        "antes que alguém a veja."
    ),
    "leak_none": "Nada suspeito neste lote.",
    "leak_line": "{where}: «{fragment}» ({reason})",
    "leak_in_prompt": "pergunta",
    "leak_in_output": "resposta",
    "leak_reason_self_identification": "autoidentificação",
    "leak_reason_domain": "domínio",
    "leak_reason_version": "versão",
    "leak_reason_name_word": "nome",
    "held": "retida",
    "hold": "Reter amostra",
    "release": "Devolver às filas",
    "reviewers_heading": "Revisores do lote",
    "reviewer_load": "{name}: {judged} de {assigned} julgadas",
    "reassign_from": "De",
    "reassign_to": "Para",
    "unassign_option": "(ninguém: retirar)",
    "reassign": "Passar as amostras não julgadas",
    "reassigned#one": "{count} amostra passada.",
    "reassigned#other": "{count} amostras passadas.",
    "close_confirm": (
        "Fechar o lote {batch}? Os julgamentos ficam definitivos e quem ainda não julgou "
        "será avisado."
    ),
    "confirm_close": "Sim, fechar",
    "cancel": "Cancelar",
    "reopen_batch": "Reabrir lote",
    "decision_placeholder": "Escolha…",
    "votes_heading": "Votos",
    "vote_line": "{name}: {choice}",
    "automatic_line": "{label}: {value}",
    "consensus_caption": (
        "κ do consenso sobre {used} de {judged} amostras: {splits} sem consenso (revisores "
        "divididos e sem decisão) ficam de fora; {adjudicated} por decisão da administração."
    ),
    "judgments_kappa": "κ de Cohen (cada julgamento × parser)",
    "interval": "IC {level} %",
    "n_column": "n",
    "figure": "Medida",
    "value": "Valor",
    "bootstrap_caption": "Intervalos por bootstrap: {replicates} réplicas, semente {seed}.",
    "pairwise_heading": "κ entre revisores",
    "pair": "Par",
    "over_time_heading": "Concordância de cada revisor com o parser, por dia",
    "day": "Dia",
}

ADMIN_EN: Mapping[str, str] = {
    "error_overlap#one": (
        "Each sample needs {overlap} distinct reviewers, but there is {count} reviewer account."
    ),
    "error_overlap#other": (
        "Each sample needs {overlap} distinct reviewers, but there are {count} reviewer accounts."
    ),
    "error_same_draw": (
        "Round {round_id} already has a batch with seed {seed}: it would draw the same "
        "outputs. Use another seed."
    ),
    "error_unknown_reviewer": "There is no reviewer account named {name}.",
    "error_quota": (
        "The quotas are too small: {samples} samples × {overlap} reviewers need more than "
        "the {capacity} places."
    ),
    "error_quota_negative": "The quota of {name} cannot be negative; got {quota}.",
    "error_hold_judged": "Sample {code} has already been judged; it can no longer be held.",
    "error_batch_is_closed": "Batch {batch_id} is closed. Reopen it before changing it.",
    "error_decision_required": "Choose a decision before recording it.",
    "disagreements_count#one": "{count} sample awaits a decision.",
    "disagreements_count#other": "{count} samples await a decision.",
    "batch_samples#one": "{count} sample",
    "batch_samples#other": "{count} samples",
    "queue_closed#one": (
        "The batch was closed before you judged everything: {count} sample was left unjudged "
        "and can no longer be judged."
    ),
    "queue_closed#other": (
        "The batch was closed before you judged everything: {count} samples were left "
        "unjudged and can no longer be judged."
    ),
    "leak_heading": "Leak report",
    "leak_help": (
        "Passages that may still reveal the model. Hold a sample back to take it out of the "
        "queues before anyone sees it."
    ),
    "leak_none": "Nothing suspicious in this batch.",
    "leak_line": "{where}: “{fragment}” ({reason})",
    "leak_in_prompt": "question",
    "leak_in_output": "answer",
    "leak_reason_self_identification": "self-identification",
    "leak_reason_domain": "domain",
    "leak_reason_version": "version",
    "leak_reason_name_word": "name",
    "held": "held",
    "hold": "Hold sample",
    "release": "Release to the queues",
    "reviewers_heading": "Reviewers of the batch",
    "reviewer_load": "{name}: {judged} of {assigned} judged",
    "reassign_from": "From",
    "reassign_to": "To",
    "unassign_option": "(nobody: unassign)",
    "reassign": "Move the unjudged samples",
    "reassigned#one": "{count} sample moved.",
    "reassigned#other": "{count} samples moved.",
    "close_confirm": (
        "Close batch {batch}? Its judgments become final and whoever has not finished will be told."
    ),
    "confirm_close": "Yes, close it",
    "cancel": "Cancel",
    "reopen_batch": "Reopen batch",
    "decision_placeholder": "Choose…",
    "votes_heading": "Votes",
    "vote_line": "{name}: {choice}",
    "automatic_line": "{label}: {value}",
    "consensus_caption": (
        "κ of the consensus on {used} of {judged} samples: {splits} without a consensus "
        "(reviewers split, no decision) are left out; {adjudicated} by an administrator's "
        "decision."
    ),
    "judgments_kappa": "Cohen's κ (each judgment × parser)",
    "interval": "{level}% CI",
    "n_column": "n",
    "figure": "Figure",
    "value": "Value",
    "bootstrap_caption": "Bootstrap intervals: {replicates} replicates, seed {seed}.",
    "pairwise_heading": "κ between reviewers",
    "pair": "Pair",
    "over_time_heading": "Each reviewer's agreement with the parser, by day",
    "day": "Day",
}
