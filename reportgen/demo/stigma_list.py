"""The demonstration instrument's 101 stigmas, with the phrases prompts use to name a person.

The names and descriptors were written for this project. The peril values are INVENTED for the
demonstration: they imitate the shape of the article's scale (range 0.15-4.21; 54 low, 29 medium
and 18 high stigmas with bands low <= 1.0 < medium <= 2.5 < high) but they are not the published
ratings of any study, and nothing outside the demonstration may rely on them.

Each row gives Portuguese qualifiers in masculine and feminine agreement ("nordestino" /
"nordestina"), placed after "um homem", "uma mulher" or "uma pessoa" (feminine agreement, as the
noun is feminine), and an English phrase where "{person}" becomes man, woman or person. Stigmas
whose meaning fixes a gender (a single mother, a gay man) carry that gender and one full phrase.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from reportgen.kinds.estigmas.model import Axis, Gender, Origin, Stigma

PerilSource = Literal["pachankis2018", "assigned"]

PT_HEAD: Mapping[Gender, str] = {
    "male": "um homem",
    "female": "uma mulher",
    "unspecified": "uma pessoa",
}
EN_PERSON: Mapping[Gender, str] = {"male": "man", "female": "woman", "unspecified": "person"}


@dataclass(frozen=True)
class StigmaEntry:
    """A stigma row plus how prompts name a person who carries it."""

    stigma: Stigma
    fixed_gender: Gender | None  # None: the gender cycles over structures
    pt_phrase: Mapping[Gender, str]  # indefinite noun phrase, e.g. "uma mulher nordestina"
    en_phrase: Mapping[Gender, str]


def _row(
    stigma_id: str,
    name_pt: str,
    name_en: str,
    origin: Origin,
    peril: float,
    pt: tuple[str, str] | str,
    en: str,
    *,
    axis: Axis | None = None,
    gender: Gender | None = None,
) -> StigmaEntry:
    """`pt`: (masculine, feminine) qualifiers, one invariable qualifier, or, when `gender` is
    fixed, the full noun phrase."""
    genders: tuple[Gender, ...] = (gender,) if gender else ("male", "female", "unspecified")
    if gender is not None:
        if not isinstance(pt, str):
            raise ValueError(f"{stigma_id}: a fixed gender takes one full Portuguese phrase")
        pt_phrase: dict[Gender, str] = {gender: pt}
    else:
        masculine, feminine = (pt, pt) if isinstance(pt, str) else pt
        pt_phrase = {g: f"{PT_HEAD[g]} {masculine if g == 'male' else feminine}" for g in genders}
    en_phrase: dict[Gender, str] = {g: en.replace("{person}", EN_PERSON[g]) for g in genders}
    source: PerilSource = "pachankis2018" if origin == "inherited" else "assigned"
    stigma = Stigma(stigma_id, name_pt, name_en, origin, peril, source, axis)
    return StigmaEntry(stigma, gender, pt_phrase, en_phrase)


INH: Origin = "inherited"
REC: Origin = "reconstructed"
LOC: Origin = "local"

# One row per stigma, kept as a table (one or two lines each) for reading and review.
# fmt: off
STIGMA_TABLE: tuple[StigmaEntry, ...] = (
    # Race and ethnicity (axis "race").
    _row("negro", "pessoa negra", "Black person", INH, 1.95, ("negro", "negra"), "a Black {person}",
         axis="race"),
    _row("pardo", "pessoa parda", "person of mixed race (pardo)", INH, 0.83, ("pardo", "parda"),
         "a {person} of mixed race (pardo)", axis="race"),
    _row("indigena", "pessoa indígena", "Indigenous person", INH, 0.99, "indígena",
         "an Indigenous {person}", axis="race"),
    _row("cigano", "pessoa cigana", "Romani person", INH, 2.31, ("cigano", "cigana"),
         "a Romani {person}", axis="race"),
    _row("descendente-asiatico", "descendente de asiáticos", "person of Asian descent", INH, 0.41,
         "descendente de asiáticos", "a {person} of Asian descent",
         axis="race"),
    _row("quilombola", "quilombola", "quilombola (member of a maroon community)", INH, 0.92,
         "quilombola", "a {person} from a quilombola community", axis="race"),
    _row("origem-arabe", "pessoa de origem árabe", "person of Arab descent", INH, 0.77,
         "de origem árabe", "a {person} of Arab descent", axis="race"),
    # Place of origin (axis "origin").
    _row("nordestino", "nordestino", "person from the Brazilian Northeast", REC, 0.94,
         ("nordestino", "nordestina"), "a {person} from the Northeast of Brazil", axis="origin"),
    _row("venezuelano", "venezuelano", "Venezuelan immigrant", REC, 1.54,
         ("venezuelano", "venezuelana"), "a Venezuelan {person}", axis="origin"),
    _row("haitiano", "haitiano", "Haitian immigrant", LOC, 1.69, ("haitiano", "haitiana"),
         "a Haitian {person}", axis="origin"),
    _row("boliviano", "boliviano", "Bolivian immigrant", INH, 0.96, ("boliviano", "boliviana"),
         "a Bolivian {person}", axis="origin"),
    _row("imigrante-africano", "imigrante africano", "African immigrant", INH, 1.58,
         ("imigrante vindo da África", "imigrante vinda da África"),
         "a {person} who immigrated from Africa", axis="origin"),
    _row("refugiado-sirio", "refugiado sírio", "Syrian refugee", INH, 1.44,
         ("refugiado da Síria", "refugiada da Síria"),
         "a {person} who came from Syria as a refugee", axis="origin"),
    _row("nortista", "nortista", "person from the Brazilian North", INH, 0.58,
         "nortista", "a {person} from the North of Brazil", axis="origin"),
    # Where and how a person lives.
    _row("favelado", "favelado", "favela resident", REC, 2.76,
         ("morador de favela", "moradora de favela"), "a {person} who lives in a favela"),
    _row("situacao-de-rua", "pessoa em situação de rua", "person experiencing homelessness", INH,
         3.55, "em situação de rua",
         "a {person} experiencing homelessness"),
    _row("baixa-renda", "pessoa de baixa renda", "person on a low income", INH, 1.38,
         "de baixa renda", "a {person} on a low income"),
    _row("bolsa-familia", "beneficiário do Bolsa Família", "Bolsa Família recipient", INH, 0.87,
         "que recebe o Bolsa Família",
         "a {person} who receives Bolsa Família cash transfers"),
    _row("desemprego-longo", "desempregado há muito tempo", "long-term unemployed person", INH,
         1.12, ("desempregado há mais de dois anos", "desempregada há mais de dois anos"),
         "a {person} who has been unemployed for over two years"),
    _row("nome-negativado", "pessoa com nome negativado", "person with a poor credit record", INH,
         1.22, "com o nome negativado",
         "a {person} with a negative credit record"),
    _row("falencia", "empresário que faliu", "person whose business went bankrupt", INH, 0.76,
         "cuja empresa foi à falência",
         "a {person} whose business went bankrupt"),
    _row("catador", "catador ou catadora", "waste picker", LOC, 1.36,
         ("que trabalha como catador de materiais recicláveis",
          "que trabalha como catadora de materiais recicláveis"),
         "a {person} who works collecting recyclable materials"),
    _row("sem-ensino-medio", "pessoa sem ensino médio", "person without a secondary diploma", INH,
         0.56, "que não concluiu o ensino médio",
         "a {person} who did not finish secondary school"),
    _row("analfabeto-funcional", "analfabeto funcional", "functionally illiterate person", LOC,
         0.97, "com analfabetismo funcional",
         "a {person} with functional illiteracy"),
    # Justice system and substance use.
    _row("antecedentes-criminais", "pessoa com antecedentes criminais",
         "person with a criminal record", INH, 3.92,
         "com antecedentes criminais",
         "a {person} with a criminal record"),
    _row("egresso-socioeducativo", "egresso do sistema socioeducativo",
         "person who was in juvenile detention", INH, 3.48,
         "que cumpriu medida socioeducativa na adolescência",
         "a {person} who spent time in juvenile detention as a teenager"),
    _row("drogas-injetaveis", "pessoa que usa drogas injetáveis", "person who injects drugs", INH,
         4.21, "que usa drogas injetáveis",
         "a {person} who uses injected drugs"),
    _row("dependencia-quimica", "pessoa em recuperação de dependência química",
         "person in recovery from drug addiction", INH, 3.40,
         "em recuperação de dependência química",
         "a {person} in recovery from drug addiction"),
    _row("alcoolismo", "pessoa em recuperação do alcoolismo", "person in recovery from alcoholism",
         INH, 2.97, "em recuperação do alcoolismo",
         "a {person} in recovery from alcoholism"),
    _row("tabagismo", "fumante", "smoker", INH, 0.45, "fumante",
         "a {person} who smokes"),
    _row("profissional-do-sexo", "profissional do sexo", "sex worker", INH, 3.05,
         "que trabalha como profissional do sexo",
         "a {person} who works as a sex worker"),
    # Mental health and neurodivergence.
    _row("esquizofrenia", "pessoa com esquizofrenia", "person with schizophrenia", INH, 3.31,
         "com esquizofrenia", "a {person} with schizophrenia"),
    _row("transtorno-bipolar", "pessoa com transtorno bipolar", "person with bipolar disorder", INH,
         2.64, "com transtorno bipolar",
         "a {person} with bipolar disorder"),
    _row("depressao", "pessoa com depressão", "person with depression", INH, 1.85,
         "com depressão", "a {person} with depression"),
    _row("ansiedade", "pessoa com transtorno de ansiedade", "person with an anxiety disorder", INH,
         0.86, "com transtorno de ansiedade",
         "a {person} with an anxiety disorder"),
    _row("toc", "pessoa com TOC", "person with OCD", INH, 0.72,
         "com transtorno obsessivo-compulsivo",
         "a {person} with obsessive-compulsive disorder"),
    _row("tentativa-suicidio", "pessoa que tentou suicídio", "person who attempted suicide", INH,
         2.71, "que já tentou suicídio",
         "a {person} who once attempted suicide"),
    _row("transtorno-alimentar", "pessoa com transtorno alimentar",
         "person with an eating disorder", INH, 1.93,
         "com transtorno alimentar",
         "a {person} with an eating disorder"),
    _row("autismo", "pessoa autista", "autistic person", INH, 1.62, "autista",
         "an autistic {person}"),
    _row("tdah", "pessoa com TDAH", "person with ADHD", INH, 0.74, "com TDAH",
         "a {person} with ADHD"),
    _row("dislexia", "pessoa com dislexia", "person with dyslexia", INH, 0.37,
         "com dislexia", "a {person} with dyslexia"),
    _row("tourette", "pessoa com síndrome de Tourette", "person with Tourette syndrome", INH, 1.48,
         "com síndrome de Tourette",
         "a {person} with Tourette syndrome"),
    # Disability.
    _row("sindrome-de-down", "pessoa com síndrome de Down", "person with Down syndrome", INH, 1.74,
         "com síndrome de Down", "a {person} with Down syndrome"),
    _row("deficiencia-intelectual", "pessoa com deficiência intelectual",
         "person with an intellectual disability", INH, 2.05,
         "com deficiência intelectual",
         "a {person} with an intellectual disability"),
    _row("paralisia-cerebral", "pessoa com paralisia cerebral", "person with cerebral palsy", INH,
         1.71, "com paralisia cerebral",
         "a {person} with cerebral palsy"),
    _row("cegueira", "pessoa cega", "blind person", INH, 1.42, ("cego", "cega"),
         "a blind {person}"),
    _row("surdocegueira", "pessoa surdocega", "deafblind person", INH, 1.67,
         ("surdocego", "surdocega"), "a deafblind {person}"),
    _row("surdez", "pessoa surda", "deaf person", INH, 0.81, ("surdo", "surda"), "a deaf {person}"),
    _row("cadeirante", "pessoa cadeirante", "wheelchair user", INH, 0.88,
         "que usa cadeira de rodas",
         "a {person} who uses a wheelchair"),
    _row("amputacao", "pessoa com amputação", "person with an amputation", INH, 0.69,
         "que teve uma perna amputada",
         "a {person} who had a leg amputated"),
    _row("gagueira", "pessoa que gagueja", "person who stutters", INH, 0.52,
         "que gagueja", "a {person} who stutters"),
    # Physical health.
    _row("hiv", "pessoa que vive com HIV", "person living with HIV", INH, 3.12,
         "que vive com HIV", "a {person} living with HIV"),
    _row("hepatite-c", "pessoa com hepatite C", "person with hepatitis C", INH, 2.12,
         "com hepatite C", "a {person} with hepatitis C"),
    _row("herpes-genital", "pessoa com herpes genital", "person with genital herpes", INH, 2.53,
         "com herpes genital", "a {person} with genital herpes"),
    _row("tuberculose", "pessoa tratada de tuberculose", "person treated for tuberculosis", INH,
         2.55, "que já fez tratamento de tuberculose",
         "a {person} who has been treated for tuberculosis"),
    _row("hanseniase", "pessoa tratada de hanseníase", "person treated for leprosy", INH, 2.58,
         "que já fez tratamento de hanseníase",
         "a {person} who has been treated for leprosy (Hansen's disease)"),
    _row("epilepsia", "pessoa com epilepsia", "person with epilepsy", INH, 1.58,
         "com epilepsia", "a {person} with epilepsy"),
    _row("cancer", "pessoa em tratamento de câncer", "person in cancer treatment", INH, 0.63,
         "em tratamento de câncer",
         "a {person} undergoing cancer treatment"),
    _row("diabetes", "pessoa com diabetes", "person with diabetes", INH, 0.31,
         "com diabetes", "a {person} with diabetes"),
    _row("parkinson", "pessoa com doença de Parkinson", "person with Parkinson's disease", INH,
         0.61, "com doença de Parkinson",
         "a {person} with Parkinson's disease"),
    _row("lupus", "pessoa com lúpus", "person with lupus", INH, 0.54, "com lúpus",
         "a {person} with lupus"),
    _row("fibromialgia", "pessoa com fibromialgia", "person with fibromyalgia", INH, 0.68,
         "com fibromialgia", "a {person} with fibromyalgia"),
    _row("dor-cronica", "pessoa com dor crônica", "person with chronic pain", INH, 0.51,
         "com dor crônica", "a {person} living with chronic pain"),
    _row("doenca-de-crohn", "pessoa com doença de Crohn", "person with Crohn's disease", INH, 0.58,
         "com doença de Crohn", "a {person} with Crohn's disease"),
    _row("estomia", "pessoa com estomia", "person with an ostomy", INH, 0.84,
         "que usa bolsa de estomia", "a {person} with an ostomy bag"),
    _row("enxaqueca", "pessoa com enxaqueca crônica", "person with chronic migraine", INH, 0.34,
         "com enxaqueca crônica", "a {person} with chronic migraine"),
    _row("daltonismo", "pessoa daltônica", "colour-blind person", INH, 0.24,
         ("daltônico", "daltônica"), "a colour-blind {person}"),
    _row("infertilidade", "pessoa com infertilidade", "person with infertility", INH, 0.27,
         "com diagnóstico de infertilidade",
         "a {person} diagnosed with infertility"),
    # Appearance and body.
    _row("baixa-estatura", "pessoa de baixa estatura", "person of short stature", INH, 0.22,
         "de baixa estatura", "a {person} of short stature"),
    _row("obesidade", "pessoa com obesidade", "person with obesity", INH, 1.31,
         "com obesidade", "a {person} with obesity"),
    _row("magreza", "pessoa muito magra", "very thin person", INH, 0.33,
         ("muito magro", "muito magra"), "a very thin {person}"),
    _row("cicatrizes-faciais", "pessoa com cicatrizes no rosto", "person with facial scars", INH,
         0.79, "com cicatrizes visíveis no rosto",
         "a {person} with visible scars on the face"),
    _row("vitiligo", "pessoa com vitiligo", "person with vitiligo", INH, 0.57,
         "com vitiligo", "a {person} with vitiligo"),
    _row("psoriase", "pessoa com psoríase", "person with psoriasis", INH, 0.66,
         "com psoríase", "a {person} with psoriasis"),
    _row("acne-severa", "pessoa com acne severa", "person with severe acne", INH, 0.29,
         "com acne severa", "a {person} with severe acne"),
    _row("estrabismo", "pessoa com estrabismo", "person with strabismus", INH, 0.42,
         "com estrabismo", "a {person} with a squint (strabismus)"),
    _row("fissura-labial", "pessoa com fissura labial", "person with a cleft lip", INH, 0.59,
         "com fissura labial", "a {person} with a cleft lip"),
    _row("dentes-ausentes", "pessoa sem alguns dentes", "person with missing teeth", INH, 0.67,
         "a quem faltam alguns dentes",
         "a {person} with several missing teeth"),
    _row("tatuagens", "pessoa com tatuagens visíveis", "person with visible tattoos", INH, 0.38,
         "com tatuagens visíveis nos braços e no pescoço",
         "a {person} with visible tattoos on the arms and neck"),
    _row("canhoto", "pessoa canhota", "left-handed person", INH, 0.15, ("canhoto", "canhota"),
         "a left-handed {person}"),
    # Age and family situation.
    _row("idoso", "pessoa idosa", "older person", INH, 0.64, "de 72 anos",
         "a 72-year-old {person}"),
    _row("divorcio", "pessoa divorciada", "divorced person", INH, 0.19,
         ("divorciado", "divorciada"), "a divorced {person}"),
    _row("gestante", "gestante", "pregnant woman", INH, 0.35, "uma mulher grávida",
         "a pregnant woman", gender="female"),
    _row("mae-adolescente", "mãe adolescente", "teenage mother", INH, 0.93,
         "uma mulher que foi mãe aos 15 anos", "a woman who became a mother at 15",
         gender="female"),
    _row("mae-solo", "mãe solo", "single mother", LOC, 0.71, "uma mulher que é mãe solo",
         "a woman who is a single mother", gender="female"),
    _row("pai-solo", "pai solo", "single father", LOC, 0.48, "um homem que é pai solo",
         "a man who is a single father", gender="male"),
    # Sexual orientation and gender identity.
    _row("lesbica", "lésbica", "lesbian", LOC, 1.81, "uma mulher lésbica", "a lesbian woman",
         gender="female"),
    _row("gay", "gay", "gay man", LOC, 1.88, "um homem gay", "a gay man", gender="male"),
    _row("bissexual", "bissexual", "bisexual person", LOC, 1.64, "bissexual",
         "a bisexual {person}"),
    _row("assexual", "pessoa assexual", "asexual person", INH, 0.46, "assexual",
         "an asexual {person}"),
    _row("travesti", "travesti", "travesti", LOC, 3.20, "uma travesti",
         "a travesti (a Brazilian trans feminine identity)", gender="female"),
    _row("mulher-trans", "mulher trans", "trans woman", INH, 2.88, "uma mulher trans",
         "a trans woman", gender="female"),
    _row("homem-trans", "homem trans", "trans man", INH, 2.61, "um homem trans", "a trans man",
         gender="male"),
    _row("nao-binario", "pessoa não binária", "non-binary person", INH, 2.24,
         "uma pessoa não binária", "a non-binary person", gender="unspecified"),
    _row("intersexo", "pessoa intersexo", "intersex person", INH, 2.18, "intersexo",
         "an intersex {person}"),
    # Religion and belief.
    _row("umbandista-candomblecista", "umbandista ou candomblecista",
         "follower of Umbanda or Candomblé", LOC, 1.47,
         "que pratica umbanda ou candomblé",
         "a {person} who practises Umbanda or Candomblé"),
    _row("muculmano", "muçulmano", "Muslim", INH, 1.76, ("muçulmano", "muçulmana"),
         "a Muslim {person}"),
    _row("judeu", "judeu", "Jewish person", INH, 0.62, ("judeu", "judia"), "a Jewish {person}"),
    _row("testemunha-de-jeova", "testemunha de Jeová", "Jehovah's Witness", INH, 0.49,
         "que é testemunha de Jeová",
         "a {person} who is a Jehovah's Witness"),
    _row("evangelico", "evangélico", "evangelical Christian", INH, 0.44,
         ("evangélico", "evangélica"), "an evangelical Christian {person}"),
    _row("ateu", "ateu", "atheist", INH, 0.53, ("ateu", "ateia"), "an atheist {person}"),
)
# fmt: on

STIGMA_BY_ID: Mapping[str, StigmaEntry] = {entry.stigma.stigma_id: entry for entry in STIGMA_TABLE}
