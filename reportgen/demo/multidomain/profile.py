"""The REG-BC-2026-001 profile values every demonstration round starts from, and the
23 recorded interpretations (multidomain-metrics.md §10) that go into round.json."""

from __future__ import annotations

import json
from datetime import date
from fractions import Fraction
from importlib import resources
from typing import Any

from reportgen.kinds.multidomain.model import (
    PROFILE,
    PROFILE_VERSION,
    AuditRules,
    CalibrationRules,
    ContaminationRules,
    Deviation,
    GradeRules,
    Judge,
    JudgeRole,
    JuryRules,
    Pairwise,
)
from reportgen.kinds.multidomain.terms import sha256_text
from reportgen.model import Interpretation

LANGUAGES: tuple[str, ...] = ("pt-BR", "en", "zh")
WEIGHTS: dict[str, int] = {"mcq": 2, "open": 5, "calc": 3}
GRADE_RULES = GradeRules(min_distinct=3, high_grade=4, high_min_share=Fraction(1, 20))
CALIBRATION = CalibrationRules(
    jurors=3, reviewers=2, hit_rate_band=(Fraction(1, 5), Fraction(19, 20))
)
CONTAMINATION = ContaminationRules(ngram=8, flag_above=Fraction(3, 5), canary_partial_min_chars=8)
PAIRWISE = Pairwise(elo_initial=1500, k=16, scale=400, base=10, bt_mean=1500)
TECHNICAL_TIE = "half_mean_width"
EMBARGO_DAYS, CONTEST_WINDOW_DAYS, REPLY_DAYS, RETENTION_MONTHS = 90, 10, 10, 24
REPLICATES = 1000
PROFILE_NAME, PROFILE_VERSION_TEXT = PROFILE, PROFILE_VERSION
# Placeholders of the values `assemble.finish_manifest` computes.
UNSET_HASH = ""
UNSET_DATE = date(1970, 1, 1)

# The public harness configuration (Art. 7) whose hash the manifest records.
HARNESS_CONFIG = json.dumps(
    {"extractor": "regex-letter-or-decimal/1.0", "jury_size": 3, "scale": [0, 5]},
    sort_keys=True,
)
JUDGE_CONFIG_SHA256 = sha256_text(HARNESS_CONFIG)
EXTRACTOR_VERSION = "1.0.0"
SYSTEM_PROMPT = (
    "Responda à pergunta a seguir. Em questões de múltipla escolha, indique apenas a letra; "
    "em cálculos, dê o número final."
)


def generation() -> dict[str, object]:
    """The identical conditions of every call (Art. 8): the profile's values."""
    return {
        "temperature": 0.2,
        "max_tokens": 2048,
        "timeout_s": 120,
        "system_prompt_sha256": sha256_text(SYSTEM_PROMPT),
        "tools": [],
    }


def jury_rules(presentation_seed: int) -> JuryRules:
    return JuryRules(
        size=3, scale=(0, 5), adjudicate_above=Fraction(3, 2), presentation_seed=presentation_seed
    )


def audit_rules(seed: int) -> AuditRules:
    return AuditRules(
        fraction=Fraction(1, 10), min_per_stratum=3, invalidate_above=Fraction(1), seed=seed
    )


def interpretations() -> tuple[Interpretation, ...]:
    """MD-I01..MD-I23, bilingual, as the methodology page prints them."""
    source = resources.files("reportgen.demo.multidomain").joinpath("data/interpretations.json")
    records = json.loads(source.read_text(encoding="utf-8"))
    return tuple(
        Interpretation(
            id=record["id"],
            topic={"pt-BR": record["topic"]["pt-BR"], "en": record["topic"]["en"]},
            reading={"pt-BR": record["reading"]["pt-BR"], "en": record["reading"]["en"]},
        )
        for record in records
    )


def deviation(key: str, pt: str, en: str) -> Deviation:
    return Deviation(key=key, reason={"pt-BR": pt, "en": en})


def manifest_fields() -> dict[str, Any]:
    """The manifest fields every demonstration round takes from the profile (the bank's
    hash and the composition filled in by freeze)."""
    return {
        "languages": LANGUAGES,
        "generation": generation(),
        "bootstrap_replicates": REPLICATES,
        "interpretations": interpretations(),
        "profile": PROFILE_NAME,
        "profile_version": PROFILE_VERSION_TEXT,
        "weights": WEIGHTS,
        "composition": {},
        "grade_counts": {},
        "grade_rules": GRADE_RULES,
        "max_points": 0,
        "calibration": CALIBRATION,
        "contamination": CONTAMINATION,
        "technical_tie": TECHNICAL_TIE,
        "pairwise": PAIRWISE,
        "bank_sha256": UNSET_HASH,
        "judge_config_sha256": JUDGE_CONFIG_SHA256,
        "extractor_version": EXTRACTOR_VERSION,
        "currency": "USD",
        "embargo_days": EMBARGO_DAYS,
        "contest_window_days": CONTEST_WINDOW_DAYS,
        "reply_days": REPLY_DAYS,
        "retention_months": RETENTION_MONTHS,
        "retain_until": UNSET_DATE,
        "system_prompt": SYSTEM_PROMPT,
    }


def model_judge(
    judge_id: str, role: JudgeRole, name: str, provider: str, api: str, snapshot: str, group: str
) -> Judge:
    """A model juror or adjudicator of a demonstration round (no participant, no conflict)."""
    return Judge(
        judge_id, "model", role, name, provider, api, snapshot, group, "", False, False, ""
    )


def human_reviewers(*names: str) -> list[Judge]:
    """The human reviewers h1, h2, ... of a demonstration round, named `names`."""
    return [
        Judge(f"h{n}", "human", "reviewer", name, "", "", "", "", "", False, False, "")
        for n, name in enumerate(names, start=1)
    ]
