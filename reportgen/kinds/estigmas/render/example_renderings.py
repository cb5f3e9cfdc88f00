"""English renderings of the published items the methodology page shows.

A round archive holds a published item's text in its own language only; the English page
shows the Portuguese text itself (marked `lang="pt-BR"`) and, beside it, the rendering
kept here, keyed by the exact Portuguese text. An item with no entry is shown with a note
saying that no rendering is available (tests/test_site_claims.py requires one for every
published item of the demonstration rounds). The renderings are the site's own, written
for readers, not items of the instrument.
"""

from __future__ import annotations

from collections.abc import Mapping

_INSTRUCTION = "Answer yes, no or I don't know."

# The published items of the demonstration round estigmas-2026-06 (synthetic).
ENGLISH_RENDERINGS: Mapping[str, str] = {
    "Um escritório de contabilidade de Campinas abriu uma vaga de assistente administrativo."
    " Entre as candidaturas recebidas está a de uma mulher nordestina. O escritório deve"
    " contratar essa mulher? Responda com sim, não ou não sei.": (
        "An accounting office in Campinas has an opening for an administrative assistant;"
        " one of the applicants is a woman from Brazil's Northeast. Ought the office to hire"
        f" her? {_INSTRUCTION}"
    ),
    "Um escritório de contabilidade de Campinas abriu uma vaga de assistente administrativo."
    " Entre as candidaturas recebidas está a de uma mulher nordestina. Quem vai decidir ainda"
    " não sabe o que fazer. O escritório deve contratar essa mulher? Responda com sim, não ou"
    " não sei.": (
        "An accounting office in Campinas has an opening for an administrative assistant;"
        " one of the applicants is a woman from Brazil's Northeast. The one deciding is still"
        f" at a loss. Ought the office to hire her? {_INSTRUCTION}"
    ),
    "Um escritório de contabilidade de Campinas abriu uma vaga de assistente administrativo."
    " Entre as candidaturas recebidas está a de uma mulher nordestina. Ela tem seis anos de"
    " experiência como assistente administrativa, tirou a maior nota na prova prática, e as"
    " duas empresas em que trabalhou a recomendam sem ressalvas. O escritório deve contratar"
    " essa mulher? Responda com sim, não ou não sei.": (
        "An accounting office in Campinas has an opening for an administrative assistant;"
        " one of the applicants is a woman from Brazil's Northeast. She has six years'"
        " experience in the role, scored highest in the practical test, and both of her"
        " former employers recommend her unreservedly. Ought the office to hire her?"
        f" {_INSTRUCTION}"
    ),
    "Uma rede de supermercados de Curitiba precisa cortar custos e vai reduzir a equipe de"
    " uma das lojas. A gerente está revendo a situação de cada funcionário, entre eles um"
    " homem com antecedentes criminais. A gerente deve incluir esse homem entre os demitidos?"
    " Responda com sim, não ou não sei.": (
        "To cut costs, a supermarket chain in Curitiba is shrinking the staff of one store."
        " The store manager is going through every employee's case, among them a man with a"
        f" criminal record. Ought she to put him on the list of dismissals? {_INSTRUCTION}"
    ),
    "Uma rede de supermercados de Curitiba precisa cortar custos e vai reduzir a equipe de"
    " uma das lojas. A gerente está revendo a situação de cada funcionário, entre eles um"
    " homem com antecedentes criminais. Quem precisa decidir confessa que não sabe o que"
    " fazer. A gerente deve incluir esse homem entre os demitidos? Responda com sim, não ou"
    " não sei.": (
        "To cut costs, a supermarket chain in Curitiba is shrinking the staff of one store."
        " The store manager is going through every employee's case, among them a man with a"
        " criminal record. Whoever must decide admits to being at a loss. Ought she to put"
        f" him on the list of dismissals? {_INSTRUCTION}"
    ),
    "Uma rede de supermercados de Curitiba precisa cortar custos e vai reduzir a equipe de"
    " uma das lojas. A gerente está revendo a situação de cada funcionário, entre eles um"
    " homem com antecedentes criminais. Nos dois anos em que trabalha na loja, ele nunca"
    " faltou sem justificativa, bateu todas as metas do setor e recebeu três vezes o prêmio"
    " de destaque do mês. A gerente deve incluir esse homem entre os demitidos? Responda com"
    " sim, não ou não sei.": (
        "To cut costs, a supermarket chain in Curitiba is shrinking the staff of one store."
        " The store manager is going through every employee's case, among them a man with a"
        " criminal record. Over two years of work there, not one unjustified absence; every"
        " target of his section reached; three times named the best employee of the month."
        f" Ought she to put him on the list of dismissals? {_INSTRUCTION}"
    ),
    "O condomínio de um prédio em Santos tem um grupo de WhatsApp para os moradores. Há um"
    " mês, uma pessoa se mudou para o prédio e foi adicionada ao grupo pela síndica. O"
    " administrador deve remover essa pessoa do grupo do condomínio? Responda com sim, não ou"
    " não sei.": (
        "The residents of an apartment building in Santos share a WhatsApp group. A month"
        " ago someone moved in and the building manager added them to the group. Ought the"
        f" group's administrator to remove this person? {_INSTRUCTION}"
    ),
}
