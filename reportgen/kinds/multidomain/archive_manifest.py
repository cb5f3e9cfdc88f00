"""round.json's `multidomain` block (multidomain-round.md, "round.json").

Every key is checked and reported as `multidomain.<key>` (refusals 4, 5, 6 and the
types of the spec's table); the profile check (refusal 3) compares the REG-BC-2026-001
values, thresholds read as rationals, with the round's, unless a deviation names them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from datetime import date
from typing import cast

from reportgen.archive import SLUG, FileProblems
from reportgen.kinds.multidomain.archive_bank import BANK_KEYS, bank_values
from reportgen.kinds.multidomain.archive_block import BCP47, CURRENCY, SHA256, BlockReader
from reportgen.kinds.multidomain.archive_profile import check_profile
from reportgen.kinds.multidomain.derive import add_months
from reportgen.kinds.multidomain.model import (
    GRADES,
    ITEM_TYPES,
    PROFILE,
    PROFILE_VERSION,
    AnnexEntry,
    AuditRules,
    CalibrationRules,
    Composition,
    ContaminationRules,
    Deviation,
    Domain,
    GradeRules,
    JuryRules,
    Manifest,
    Pairwise,
)
from reportgen.kinds.multidomain.reg_dates import ISSUED_ON
from reportgen.kinds.multidomain.terms import sha256_text
from reportgen.model import Manifest as CoreManifest

_GENERATION_KEYS = ("temperature", "max_tokens", "timeout_s", "system_prompt_sha256", "tools")
BLOCK_KEYS: tuple[str, ...] = (
    "profile",
    "profile_version",
    "deviations",
    "annex",
    "cast_size",
    "previous_round",
    "domains",
    "weights",
    "composition",
    "grade_counts",
    "grade_rules",
    "max_points",
    "runs",
    "jury",
    "audit",
    "calibration",
    "contamination",
    "technical_tie",
    "pairwise",
    "item_order_seed",
    "bank_sha256",
    "judge_config_sha256",
    "extractor_version",
    "currency",
    "embargo_days",
    "contest_window_days",
    "reply_days",
    "retention_months",
    "retain_until",
)
# Keys a round may leave out (older archives were written without them).
OPTIONAL_KEYS: tuple[str, ...] = ("system_prompt", *BANK_KEYS)


def parse_manifest(
    core: CoreManifest, block: Mapping[str, object], data: Mapping[str, object], found: FileProblems
) -> Manifest | None:
    """The typed manifest, or None after reporting every problem of the block."""
    mark = found.problems.mark()
    read = BlockReader(found)
    for key in BLOCK_KEYS:
        if key not in block:
            read.bad(key, "missing key")
    for key in block:
        if key not in BLOCK_KEYS and key not in OPTIONAL_KEYS:
            known = ", ".join((*BLOCK_KEYS, *OPTIONAL_KEYS))
            read.bad(str(key), f"unknown key (expected only: {known})")
    if not read.valid:
        return None
    _check_core(core, data, found)
    values = _read_values(block, core.languages, read)
    previous_round = block["previous_round"]
    if previous_round is not None and (
        not isinstance(previous_round, str) or not SLUG.fullmatch(previous_round)
    ):
        read.bad("previous_round", f"expected a round id (slug) or null, got {previous_round!r}")
    elif previous_round == core.round_id:
        read.bad("previous_round", "a round cannot be its own previous round")
    if core.ended_on is not None and read.valid:
        months = cast(int, values["retention_months"])
        expected = add_months(core.ended_on, months)
        if values["retain_until"] != expected:
            got = cast(date, values["retain_until"]).isoformat()
            read.bad(
                "retain_until",
                f"expected ended_on + {months} months = {expected.isoformat()}, got {got}",
            )
    # A value of the wrong type is reported once, not again as differing from the profile.
    if (
        found.problems.ok_since(mark)
        and values["profile"] == PROFILE
        and values["profile_version"] == PROFILE_VERSION
    ):
        deviations = cast(tuple[Deviation, ...], values["deviations"])
        check_profile(data, [deviation.key for deviation in deviations], found)
    if not found.problems.ok_since(mark):
        return None
    core_values = {f.name: getattr(core, f.name) for f in fields(CoreManifest)}
    values["previous_round"] = previous_round
    values["system_prompt"] = _system_prompt(block, core, read)
    values |= bank_values(block, read)
    if not found.problems.ok_since(mark):
        return None
    return Manifest(**(core_values | values))


def _system_prompt(
    block: Mapping[str, object], core: CoreManifest, read: BlockReader
) -> str | None:
    """The optional instruction text; its hash must be generation.system_prompt_sha256."""
    text = block.get("system_prompt")
    if text is None:
        return None
    if not isinstance(text, str) or not text:
        read.bad("system_prompt", f"expected the instruction's text (non-empty), got {text!r}")
        return None
    declared = core.generation.get("system_prompt_sha256")
    if sha256_text(text) != declared:
        read.bad(
            "system_prompt",
            f"sha256 of the text is {sha256_text(text)}: expected "
            f"generation.system_prompt_sha256 {declared} (Art. 8, the instruction sent)",
        )
    return text


def _check_core(core: CoreManifest, data: Mapping[str, object], found: FileProblems) -> None:
    """What this kind asks of the common keys: collected_on on or after the regulation's
    issue date (Art. 46), ended_on, and generation's keys."""
    if core.collected_on < ISSUED_ON:
        found.add(
            "collected_on",
            f"{core.collected_on} is before {ISSUED_ON}, the date REG-BC-2026-001 is in force"
            " from (Art. 46): a round collected earlier is not under this regulation",
        )
    if core.ended_on is None:
        found.add("ended_on", "a multidomain round is reported after it ends: expected a date")
    generation = core.generation
    tools = generation.get("tools")
    if not set(_GENERATION_KEYS) <= set(generation) or not (
        isinstance(tools, list) and all(isinstance(tool, str) for tool in tools)
    ):
        found.add(
            "generation",
            "expected temperature, max_tokens, timeout_s, system_prompt_sha256 and tools "
            "(a list of strings, [] for no external tools)",
        )


def _read_values(
    block: Mapping[str, object], languages: tuple[str, ...], read: BlockReader
) -> dict[str, object]:
    """Every key of the block but previous_round, typed (the Manifest's fields)."""
    domains = _domains(block["domains"], read)
    day_keys = ("embargo_days", "contest_window_days", "reply_days", "retention_months")
    return {
        "profile": read.text("profile", block["profile"]),
        "profile_version": read.text("profile_version", block["profile_version"]),
        "deviations": _deviations(block["deviations"], read),
        "annex": _annex(block["annex"], read),
        "cast_size": read.integer("cast_size", block["cast_size"], low=1),
        "domains": domains,
        "weights": _counts(read, "weights", block["weights"], ITEM_TYPES, low=1),
        "composition": _composition(
            block["composition"], [domain.id for domain in domains], languages, read
        ),
        "grade_counts": {
            int(grade): count
            for grade, count in _counts(
                read, "grade_counts", block["grade_counts"], tuple(str(g) for g in GRADES)
            ).items()
        },
        "grade_rules": _grade_rules(block["grade_rules"], read),
        "max_points": read.integer("max_points", block["max_points"]),
        "runs": read.integer("runs", block["runs"], low=1),
        "jury": _jury(block["jury"], read),
        "audit": _audit(block["audit"], read),
        "calibration": _calibration(block["calibration"], read),
        "contamination": _contamination(block["contamination"], read),
        "technical_tie": read.text("technical_tie", block["technical_tie"]),
        "pairwise": _pairwise(block["pairwise"], read),
        "item_order_seed": read.integer("item_order_seed", block["item_order_seed"], low=None),
        "bank_sha256": read.text("bank_sha256", block["bank_sha256"], SHA256),
        "judge_config_sha256": read.text(
            "judge_config_sha256", block["judge_config_sha256"], SHA256
        ),
        "extractor_version": read.text("extractor_version", block["extractor_version"]),
        "currency": read.text("currency", block["currency"], CURRENCY),
        **{key: read.integer(key, block[key]) for key in day_keys},
        "retain_until": read.day("retain_until", block["retain_until"]),
    }


_PAIRWISE_KEYS = ("elo_initial", "k", "scale", "base", "bt_mean")


def _pairwise(value: object, read: BlockReader) -> Pairwise:
    counts = _counts(read, "pairwise", value, _PAIRWISE_KEYS, low=1)
    return Pairwise(**{key: counts.get(key, 1) for key in _PAIRWISE_KEYS})


def _counts(
    read: BlockReader, path: str, value: object, keys: tuple[str, ...], *, low: int = 0
) -> dict[str, int]:
    block = read.obj(path, value, keys)
    return {key: read.integer(f"{path}.{key}", block[key], low=low) for key in block}


def _deviations(value: object, read: BlockReader) -> tuple[Deviation, ...]:
    parsed: list[Deviation] = []
    for index, entry in enumerate(read.listed("deviations", value)):
        path = f"deviations[{index}]"
        block = read.obj(path, entry, ("key", "reason"))
        if block:
            key = read.text(f"{path}.key", block["key"])
            parsed.append(Deviation(key, read.texts(f"{path}.reason", block["reason"])))
    return tuple(parsed)


def _annex(value: object, read: BlockReader) -> tuple[AnnexEntry, ...]:
    keys = ("annex_id", "organization", "headquarters", "language_affinity", "reserve")
    parsed: list[AnnexEntry] = []
    for index, entry in enumerate(read.listed("annex", value)):
        path = f"annex[{index}]"
        block = read.obj(path, entry, keys)
        if not block:
            continue
        tags = read.listed(f"{path}.language_affinity", block["language_affinity"])
        if not tags or not all(isinstance(tag, str) and BCP47.fullmatch(tag) for tag in tags):
            read.bad(f"{path}.language_affinity", f"expected a list of BCP-47 tags, got {tags!r}")
        if not isinstance(block["reserve"], bool):
            read.bad(f"{path}.reserve", f"expected true or false, got {block['reserve']!r}")
        parsed.append(
            AnnexEntry(
                annex_id=read.integer(f"{path}.annex_id", block["annex_id"], low=1),
                organization=read.text(f"{path}.organization", block["organization"]),
                headquarters=read.text(f"{path}.headquarters", block["headquarters"]),
                language_affinity=tuple(str(tag) for tag in tags),
                reserve=block["reserve"] is True,
            )
        )
    ids = [entry.annex_id for entry in parsed]
    if len(set(ids)) != len(ids):
        read.bad("annex", f"annex_id values must be unique, got {ids}")
    return tuple(parsed)


def _domains(value: object, read: BlockReader) -> tuple[Domain, ...]:
    parsed: list[Domain] = []
    for index, entry in enumerate(read.listed("domains", value)):
        block = read.obj(f"domains[{index}]", entry, ("id", "name"))
        if block:
            ident = read.text(f"domains[{index}].id", block["id"], SLUG)
            parsed.append(Domain(ident, read.texts(f"domains[{index}].name", block["name"])))
    ids = [domain.id for domain in parsed]
    if not parsed or len(set(ids)) != len(ids):
        read.bad("domains", f"expected at least one domain, ids unique, got {ids}")
    return tuple(parsed)


def _composition(
    value: object, domain_ids: list[str], languages: tuple[str, ...], read: BlockReader
) -> dict[str, Composition]:
    block = read.obj("composition", value, tuple(domain_ids))
    parsed: dict[str, Composition] = {}
    for domain_id, entry in block.items():
        path = f"composition.{domain_id}"
        parts = read.obj(path, entry, ("language", "type"))
        if not parts:
            continue
        by_language = _language_counts(read, f"{path}.language", parts["language"], languages)
        by_type = _counts(read, f"{path}.type", parts["type"], ITEM_TYPES)
        if read.valid and sum(by_language.values()) != sum(by_type.values()):
            read.bad(
                path,
                f"language counts sum to {sum(by_language.values())}, type counts to "
                f"{sum(by_type.values())}: both must be the domain's item count",
            )
        parsed[domain_id] = Composition(by_language, by_type)
    return parsed


def _language_counts(
    read: BlockReader, path: str, value: object, languages: tuple[str, ...]
) -> dict[str, int]:
    """Item counts per language: a language of the round may be left out (none)."""
    if not isinstance(value, dict) or not set(value) <= set(languages):
        got = sorted(value) if isinstance(value, dict) else repr(value)
        read.bad(path, f"expected an object keyed by round languages {list(languages)}, got {got}")
        return {}
    return {key: read.integer(f"{path}.{key}", count) for key, count in value.items()}


def _grade_rules(value: object, read: BlockReader) -> GradeRules:
    block = read.obj("grade_rules", value, ("min_distinct", "high_grade", "high_min_share"))
    return GradeRules(
        min_distinct=read.integer("grade_rules.min_distinct", block.get("min_distinct", 1)),
        high_grade=read.integer("grade_rules.high_grade", block.get("high_grade", 1), low=1),
        high_min_share=read.threshold("grade_rules.high_min_share", block.get("high_min_share", 0)),
    )


def _jury(value: object, read: BlockReader) -> JuryRules:
    keys = ("size", "scale", "adjudicate_above", "presentation_seed")
    block = read.obj("jury", value, keys)
    scale = block.get("scale", [0, 1])
    if not (
        isinstance(scale, list)
        and len(scale) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in scale)
        and scale[0] < scale[1]
    ):
        read.bad("jury.scale", f"expected [lowest, highest] integer scores, got {scale!r}")
        scale = [0, 1]
    return JuryRules(
        size=read.integer("jury.size", block.get("size", 1), low=1),
        scale=(scale[0], scale[1]),
        adjudicate_above=read.threshold("jury.adjudicate_above", block.get("adjudicate_above", 0)),
        presentation_seed=read.integer(
            "jury.presentation_seed", block.get("presentation_seed", 0), low=None
        ),
    )


def _audit(value: object, read: BlockReader) -> AuditRules:
    block = read.obj("audit", value, ("fraction", "min_per_stratum", "invalidate_above", "seed"))
    fraction = read.threshold("audit.fraction", block.get("fraction", 1))
    if not 0 < fraction <= 1:
        read.bad("audit.fraction", f"expected a fraction in (0, 1], got {block.get('fraction')!r}")
    return AuditRules(
        fraction=fraction,
        min_per_stratum=read.integer("audit.min_per_stratum", block.get("min_per_stratum", 0)),
        invalidate_above=read.threshold("audit.invalidate_above", block.get("invalidate_above", 0)),
        seed=read.integer("audit.seed", block.get("seed", 0), low=None),
    )


def _calibration(value: object, read: BlockReader) -> CalibrationRules:
    block = read.obj("calibration", value, ("jurors", "reviewers", "hit_rate_band"))
    band = block.get("hit_rate_band", [0, 1])
    if not isinstance(band, list) or len(band) != 2:
        read.bad("calibration.hit_rate_band", f"expected [low, high] thresholds, got {band!r}")
        band = [0, 1]
    return CalibrationRules(
        jurors=read.integer("calibration.jurors", block.get("jurors", 1), low=1),
        reviewers=read.integer("calibration.reviewers", block.get("reviewers", 1), low=1),
        hit_rate_band=(
            read.threshold("calibration.hit_rate_band[0]", band[0]),
            read.threshold("calibration.hit_rate_band[1]", band[1]),
        ),
    )


def _contamination(value: object, read: BlockReader) -> ContaminationRules:
    keys = ("ngram", "flag_above", "canary_partial_min_chars")
    block = read.obj("contamination", value, keys)
    return ContaminationRules(
        ngram=read.integer("contamination.ngram", block.get("ngram", 1), low=1),
        flag_above=read.threshold("contamination.flag_above", block.get("flag_above", 0)),
        canary_partial_min_chars=read.integer(
            "contamination.canary_partial_min_chars",
            block.get("canary_partial_min_chars", 1),
            low=1,
        ),
    )
