"""The fictional cast of the REG-BC-2026-001 demonstration round: Annex A, the 15
participants (annex entry 9 withdrew; reserve 16 replaces it), the judges, and how
each participant behaves (skill per domain and language, refusals, timeouts)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from reportgen.demo.multidomain import profile
from reportgen.errors import InputError
from reportgen.kinds.multidomain.model import (
    AnnexEntry,
    Judge,
    JudgeRole,
    Participant,
    VerificationStatus,
)
from reportgen.kinds.multidomain.terms import sha256_text

# (annex_id, model_id, display name, organization, headquarters, language affinity, reserve)
_Entry = tuple[int, str, str, str, str, tuple[str, ...], bool]
_ANNEX: tuple[_Entry, ...] = (
    (1, "cerrado-3", "Cerrado 3", "Cerrado Inteligência S.A.", "Brasília", ("pt-BR",), False),
    (2, "baoba-pro", "Baobá Pro", "Baobá Tecnologia Ltda.", "Salvador", ("pt-BR", "en"), False),
    (3, "aurora-4", "Aurora 4", "Aurora Sistemas Cognitivos", "São Paulo", ("pt-BR",), False),
    (4, "dragao-m", "Dragão M", "Dragão Digital Ltda.", "Campinas", ("zh", "en"), False),
    (5, "estrela-open", "Estrela Open", "Fundação Estrela de Dados", "Recife", ("pt-BR",), False),
    (6, "ipe-2", "Ipê 2", "Ipê Labs", "Curitiba", ("pt-BR",), False),
    (7, "jacaranda-7", "Jacarandá 7", "Jacarandá Analytics", "Belo Horizonte", ("en",), False),
    (8, "mandacaru-1", "Mandacaru 1", "Mandacaru IA", "Fortaleza", ("pt-BR",), False),
    (9, "pantanal-5", "Pantanal 5", "Pantanal Computação", "Campo Grande", ("pt-BR",), False),
    (10, "buriti-4", "Buriti 4", "Buriti Tecnologia", "Goiânia", ("pt-BR",), False),
    (11, "araucaria-3", "Araucária 3", "Araucária Dados", "Porto Alegre", ("pt-BR", "en"), False),
    (12, "tuiuiu-2", "Tuiuiú 2", "Tuiuiú Sistemas", "Cuiabá", ("pt-BR",), False),
    (13, "guara-9", "Guará 9", "Guará Inteligência", "Belém", ("en", "pt-BR"), False),
    (14, "jequitiba-1", "Jequitibá 1", "Jequitibá IA", "Vitória", ("pt-BR",), False),
    (15, "carnauba-x", "Carnaúba X", "Carnaúba Labs", "Teresina", ("pt-BR",), False),
    (16, "boto-1", "Boto 1", "Boto Computação", "Manaus", ("pt-BR",), True),
    (17, "capivara-3", "Capivara 3", "Capivara IA", "Florianópolis", ("pt-BR", "en"), True),
    (18, "pequi-mini", "Pequi Mini", "Pequi Tecnologia", "Palmas", ("pt-BR",), True),
)
WITHDRAWN = {9: 16}  # withdrawn annex_id -> the reserve that replaces it (Art. 5)
CAST_SIZE = 15  # the regulation's cast: the annex entries above, less one withdrawn
ANNEX = tuple(
    AnnexEntry(annex_id, organization, headquarters, affinity, reserve)
    for annex_id, _, _, organization, headquarters, affinity, reserve in _ANNEX
)
# Cities and languages the extra participants of a larger round cycle through.
_EXTRA_CITIES = ("Natal", "Maceió", "Aracaju", "João Pessoa", "São Luís", "Macapá", "Boa Vista")
_EXTRA_AFFINITY: tuple[tuple[str, ...], ...] = (("pt-BR",), ("en",), ("pt-BR", "en"), ("zh",))


def _extra_entries(count: int) -> tuple[_Entry, ...]:
    """`count` more annex entries after the reserves (annex ids 19, 20, ...), for rounds
    larger than the regulation's: fictional participants named "Sintético NN"."""
    first = len(_ANNEX) + 1
    return tuple(
        (
            annex_id,
            f"sintetico{annex_id:03d}-m",
            f"Sintético {annex_id:03d}",
            f"Laboratório Sintético {annex_id:03d}",
            _EXTRA_CITIES[annex_id % len(_EXTRA_CITIES)],
            _EXTRA_AFFINITY[annex_id % len(_EXTRA_AFFINITY)],
            False,
        )
        for annex_id in range(first, first + count)
    )


def _entries(cast_size: int) -> tuple[_Entry, ...]:
    if cast_size < CAST_SIZE:
        raise InputError(f"the demonstration cast has at least {CAST_SIZE} participants")
    return _ANNEX + _extra_entries(cast_size - CAST_SIZE)


def annex(cast_size: int = CAST_SIZE) -> tuple[AnnexEntry, ...]:
    """Annex A of a cast of `cast_size` (the regulation's 18 entries, then extra ones)."""
    if cast_size == CAST_SIZE:
        return ANNEX
    return tuple(
        AnnexEntry(annex_id, organization, headquarters, affinity, reserve)
        for annex_id, _, _, organization, headquarters, affinity, reserve in _entries(cast_size)
    )


@dataclass(frozen=True)
class Behaviour:
    """How a participant answers: P(correct) = skill + domain + language - difficulty."""

    skill: float
    domains: Mapping[str, float] = field(default_factory=dict)
    languages: Mapping[str, float] = field(default_factory=dict)
    refusal: float = 0.004
    timeout: float = 0.002
    error: float = 0.001
    format_violation: float = 0.004
    latency_ms: float = 2400.0
    cost_micro: int = 900
    off_language: float = 0.0  # share of zh items answered in English


BEHAVIOUR: dict[str, Behaviour] = {
    "cerrado-3": Behaviour(0.80, {"juridica": 0.06, "bank": 0.05, "energia": -0.08}, {"zh": -0.12}),
    "baoba-pro": Behaviour(
        0.80, {"medica": 0.08, "proptech": -0.07}, {"zh": -0.08}, cost_micro=1500
    ),
    "aurora-4": Behaviour(
        0.84, {"compliance": 0.06}, {"pt-BR": 0.02, "zh": -0.10}, latency_ms=3100
    ),
    "dragao-m": Behaviour(0.74, {"energia": 0.07}, {"zh": 0.12, "pt-BR": -0.06}, latency_ms=1900),
    "estrela-open": Behaviour(0.66, {}, {"zh": -0.15}, cost_micro=300, off_language=0.1),
    "ipe-2": Behaviour(0.70, {"negocios": 0.06, "medica": -0.05}, {"zh": -0.06}),
    "jacaranda-7": Behaviour(0.72, {"bank": 0.05}, {"en": 0.06, "pt-BR": -0.04}, cost_micro=1200),
    "mandacaru-1": Behaviour(0.60, {"medica": -0.05}, {"zh": -0.10}, refusal=0.05),
    "buriti-4": Behaviour(0.68, {"proptech": 0.07}, {"zh": -0.09}, timeout=0.03, latency_ms=5200),
    "araucaria-3": Behaviour(0.76, {"energia": 0.04}, {"zh": -0.07}, cost_micro=400),
    "tuiuiu-2": Behaviour(0.58, {"compliance": 0.05}, {"zh": -0.12}, format_violation=0.06),
    "guara-9": Behaviour(0.64, {"negocios": 0.04}, {"en": 0.04, "zh": -0.10}, error=0.02),
    "jequitiba-1": Behaviour(0.76, {"juridica": 0.03}, {"zh": -0.07}, cost_micro=700),
    "carnauba-x": Behaviour(0.52, {}, {"zh": -0.14}, refusal=0.012, off_language=0.2),
    "boto-1": Behaviour(0.62, {"energia": 0.05}, {"zh": -0.09}, latency_ms=2900),
}
SNAPSHOT_DAY = "2026-10-15"


def behaviour(model_id: str) -> Behaviour:
    """The participant's behaviour; an extra participant's is drawn from its number."""
    known = BEHAVIOUR.get(model_id)
    if known is not None:
        return known
    number = int(model_id.split("-")[0].removeprefix("sintetico"))
    domains = ("juridica", "medica", "proptech", "compliance", "bank", "energia", "negocios")
    return Behaviour(
        0.5 + 0.35 * ((number * 37) % 100) / 100,
        {domains[number % len(domains)]: 0.05},
        {"zh": -0.02 * (number % 6)},
        latency_ms=1800.0 + 100.0 * (number % 30),
        cost_micro=300 + 50 * (number % 25),
    )


def _provider(organization: str) -> str:
    return organization.split()[0] + " IA"


def participants(cast_size: int = CAST_SIZE) -> list[Participant]:
    """models.csv rows in cast order: annex order, the reserve in the withdrawn one's place."""
    rows = []
    entries = _entries(cast_size)
    by_id = {row[0]: row for row in entries}
    for annex_id, *_ in entries:
        if annex_id in WITHDRAWN:
            rows.append(_participant(by_id[WITHDRAWN[annex_id]], replaces=annex_id))
        elif not by_id[annex_id][6]:
            rows.append(_participant(by_id[annex_id], replaces=None))
    return rows


def _participant(entry: _Entry, *, replaces: int | None) -> Participant:
    annex_id, model_id, name, organization, _, affinity, reserve = entry
    open_weights = model_id in ("estrela-open", "araucaria-3")
    status: VerificationStatus = _STATUS.get(model_id, "confirmed")
    provider = _provider(organization)
    slug = model_id.split("-")[0] + "-ia"  # the provider's ASCII handle
    return Participant(
        model_id=model_id,
        display_name=name,
        provider=provider,
        api_identifier=f"{slug}/{model_id}",
        snapshot="" if open_weights else f"{model_id}-{SNAPSHOT_DAY}",
        evaluated_on=date(2026, 11, 12),
        annex_id=annex_id,
        organization=organization,
        economic_group="grupo-" + model_id.split("-")[0],
        language_affinity=affinity,
        reserve=reserve,
        replaces=replaces,
        operated_by_organization=model_id in ("aurora-4", "baoba-pro"),
        weights_open=open_weights,
        checksum="sha256:" + sha256_text(f"{model_id}-weights") if open_weights else "",
        generation_sha256="",  # computed by the assembler
        executives=f"Diretoria executiva da {organization}",
        reference_models=f"{name} (família {name.split()[0]})",
        reference_date=date(2026, 9, 30),
        verified_on=date(2026, 11, 11),
        verification_source="Registro público e declaração da organização (Art. 6)",
        verification_status=status,
        footnote_pt=_FOOTNOTES[0] if status == "verificar" else "",
        footnote_en=_FOOTNOTES[1] if status == "verificar" else "",
    )


_STATUS: dict[str, VerificationStatus] = {"jacaranda-7": "reverted", "guara-9": "verificar"}
_FOOTNOTES = (
    "Os modelos de referência declarados ainda aguardam confirmação da organização.",
    "The declared reference models still await the organisation's confirmation.",
)


def _model_judge(judge_id: str, role: JudgeRole, name: str, group: str) -> Judge:
    provider = name.split()[-1] + " Avaliações"
    api, snapshot = f"{group}/{judge_id}-judge", f"{judge_id}-{SNAPSHOT_DAY}"
    return profile.model_judge(judge_id, role, name, provider, api, snapshot, f"grupo-{group}")


def judges() -> list[Judge]:
    return [
        _model_judge("j1", "juror", "Jurado Aroeira", "aroeira"),
        _model_judge("j2", "juror", "Jurado Ingá", "inga"),
        _model_judge("j3", "juror", "Jurado Cajá", "caja"),
        _model_judge("a1", "adjudicator", "Adjudicador Umbu", "umbu"),
        *profile.human_reviewers("Revisora humana 1", "Revisor humano 2"),
    ]
