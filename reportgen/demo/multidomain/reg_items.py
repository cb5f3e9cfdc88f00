"""The 700 test items (plus one superseded item and its variant) and the six
calibration items of the REG-BC-2026-001 demonstration round.

Per domain: 34 pt-BR / 33 en / 33 zh items, 60 mcq / 25 open / 15 calc, grades
3/41/47/7/2 (bank v1.0's 21/287/329/49/14 over seven domains). Texts come from
reg_texts; every choice is drawn from a generator seeded by the domain.
"""

from __future__ import annotations

import random
from decimal import Decimal

from reportgen.demo.multidomain.assemble import ItemDraft
from reportgen.demo.multidomain.reg_answers import CALIBRATION
from reportgen.demo.multidomain.reg_texts import (
    CALC_FRAMES,
    CALC_WHY,
    DOMAIN_CODES,
    LANGUAGE_INDEX,
    MCQ_FRAME,
    MCQ_GOOD,
    MCQ_POOR,
    MCQ_WHY,
    OPEN_FRAMES,
    RUBRIC_CRITERIA,
    TOPICS,
)
from reportgen.errors import InputError
from reportgen.kinds.multidomain.model import Criterion, ItemType
from reportgen.kinds.multidomain.terms import sha256_text

SEED = "reg-2026-1"
# (language, mcq, open, calc) per domain: 34/33/33 and 60/25/15.
CELLS: tuple[tuple[str, int, int, int], ...] = (
    ("pt-BR", 20, 9, 5),
    ("en", 20, 8, 5),
    ("zh", 20, 8, 5),
)
GRADES: tuple[int, ...] = (1,) * 3 + (2,) * 41 + (3,) * 47 + (4,) * 7 + (5,) * 2
CALIBRATION_RUBRIC = "rb-calibracao"
PER_DOMAIN = 100  # the regulation's items per domain


def canary(item_id: str) -> str:
    """The item's unique marker (never sent; it marks stored copies, MD-I13)."""
    return "REG26-" + sha256_text(f"{SEED}:canary:{item_id}")[:20].upper()


def decimal_text(value: Decimal) -> str:
    """A canonical decimal: no exponent, no trailing zeros (-?\\d+(\\.\\d+)?)."""
    text = format(value.normalize(), "f")
    return text


def _number(value: Decimal, language: str) -> str:
    text = decimal_text(value)
    return text.replace(".", ",") if language == "pt-BR" else text


def _calc(domain: str, language: str, rng: random.Random) -> tuple[str, str, str]:
    """(prompt, key, worked computation) of one calculation item."""
    d, t = Decimal, decimal_text
    if domain == "juridica":
        a, b = d(rng.randrange(20_000, 500_001, 5_000)), d(rng.choice((2, 5, 10, 15, 20)))
        values, key, work = {"a": a, "b": b}, a * b / 100, f"{t(a)} x {t(b)}% = {t(a * b / 100)}"
    elif domain == "medica":
        a, b = d(rng.randrange(40, 111)), d(rng.choice(("0.5", "1", "1.5", "2", "5", "10")))
        values, key, work = {"a": a, "b": b}, a * b, f"{t(a)} x {t(b)} = {t(a * b)}"
    elif domain == "proptech":
        a, b = d(rng.randrange(150_000, 900_001, 10_000)), d(rng.choice((10, 20, 25, 30)))
        key = a * (100 - b) / 100
        values, work = {"a": a, "b": b}, f"{t(a)} x (100% - {t(b)}%) = {t(key)}"
    elif domain == "compliance":
        a = d(rng.choice((200, 400, 500, 1000, 1250, 2000, 2500)))
        b = d(rng.randrange(1, int(a) // 10))
        values, key, work = (
            {"a": a, "b": b},
            100 * b / a,
            f"{t(b)} / {t(a)} x 100 = {t(100 * b / a)}",
        )
    elif domain == "bank":
        a, b = d(rng.randrange(1_000, 50_001, 500)), d(rng.choice(("0.5", "1", "1.5", "2")))
        c = d(rng.randrange(2, 25))
        key = a * b * c / 100
        values, work = {"a": a, "b": b, "c": c}, f"{t(a)} x {t(b)}% x {t(c)} = {t(key)}"
    elif domain == "energia":
        a, b = d(rng.choice((5, 10, 20, 30, 50, 100, 150))), d(rng.randrange(2, 25))
        values, key, work = {"a": a, "b": b}, a * b, f"{t(a)} x {t(b)} = {t(a * b)}"
    else:
        a = d(rng.choice((10_000, 20_000, 50_000)))
        b = d(rng.randrange(int(a) * 3 // 1000, int(a) * 95 // 10_000) * 100)
        key = 100 * (a - b) / a
        values, work = {"a": a, "b": b}, f"({t(a)} - {t(b)}) / {t(a)} x 100 = {t(key)}"
    frame = CALC_FRAMES[domain][0][LANGUAGE_INDEX[language]]
    prompt = frame.format(**{name: _number(v, language) for name, v in values.items()})
    return prompt, decimal_text(key), work


def _mcq(domain: str, language: str, n: int, rng: random.Random) -> tuple[str, str, str, str]:
    """(prompt, choices, key, justification) of one mcq item."""
    index = LANGUAGE_INDEX[language]
    topic = rng.choice(TOPICS[domain])[index]
    letters = "ABCDE" if rng.random() < 0.3 else "ABCD"
    options = [rng.choice(MCQ_GOOD)[index]] + [
        poor[index] for poor in rng.sample(MCQ_POOR, len(letters) - 1)
    ]
    position = rng.randrange(len(letters))
    options.insert(position, options.pop(0))
    listed = " ".join(f"{letter}) {text}." for letter, text in zip(letters, options, strict=True))
    key = letters[position]
    prompt = MCQ_FRAME[index].format(n=n, topic=topic, options=listed)
    return prompt, letters, key, MCQ_WHY[index].format(key=key)


def _open(domain: str, language: str, j: int) -> str:
    index = LANGUAGE_INDEX[language]
    topic = TOPICS[domain][j % len(TOPICS[domain])][index]
    return OPEN_FRAMES[(j // len(TOPICS[domain])) % len(OPEN_FRAMES)][index].format(topic=topic)


def domain_items(domain: str, per_domain: int = PER_DOMAIN) -> list[ItemDraft]:
    """The domain's items (100, or a multiple: every cell and grade count scaled); ids
    i-<code>-001..100 (or ..per_domain) in a shuffled order."""
    if per_domain <= 0 or per_domain % PER_DOMAIN:
        raise InputError(f"items per domain must be a multiple of {PER_DOMAIN}, got {per_domain}")
    scale = per_domain // PER_DOMAIN
    rng = random.Random(f"{SEED}:items:{domain}")
    grades = list(GRADES) * scale
    rng.shuffle(grades)
    numbers = list(range(1, per_domain + 1))
    rng.shuffle(numbers)
    plan: list[tuple[str, ItemType, int]] = []
    for language, mcq, open_, calc in CELLS:
        plan += [(language, "mcq", j) for j in range(mcq * scale)]
        plan += [(language, "open", j) for j in range(open_ * scale)]
        plan += [(language, "calc", j) for j in range(calc * scale)]
    width = max(3, len(str(per_domain)))
    drafts = []
    for (language, kind, j), grade, number in zip(plan, grades, numbers, strict=True):
        item_id = f"i-{DOMAIN_CODES[domain]}-{number:0{width}d}"
        drafts.append(_draft(item_id, domain, language, kind, j, grade, number, rng))
    return drafts


def _draft(
    item_id: str,
    domain: str,
    language: str,
    kind: ItemType,
    j: int,
    grade: int,
    number: int,
    rng: random.Random,
) -> ItemDraft:
    marker = canary(item_id)
    if kind == "mcq":
        prompt, choices, key, why = _mcq(domain, language, number, rng)
        return ItemDraft(
            item_id,
            language,
            prompt,
            domain,
            kind,
            grade,
            choices=choices,
            answer_key=key,
            justification=why,
            canary=marker,
        )
    if kind == "open":
        return ItemDraft(
            item_id,
            language,
            _open(domain, language, j),
            domain,
            kind,
            grade,
            rubric_id=f"rb-{domain}",
            canary=marker,
        )
    prompt, key, work = _calc(domain, language, rng)
    return ItemDraft(
        item_id,
        language,
        prompt,
        domain,
        kind,
        grade,
        answer_key=key,
        tolerance_abs="0.01",
        unit=CALC_FRAMES[domain][1],
        justification=CALC_WHY[LANGUAGE_INDEX[language]].format(work=work),
        canary=marker,
    )


def variant_of(target: ItemDraft) -> ItemDraft:
    """The replacement of a contaminated item (Art. 33): same domain, language, type
    and grade; new text and canary."""
    rng = random.Random(f"{SEED}:variant:{target.item_id}")
    item_id = f"{target.item_id}-v2"
    prompt, choices, key, why = _mcq(
        target.domain_id, target.language, 900 + rng.randrange(99), rng
    )
    return ItemDraft(
        item_id,
        target.language,
        prompt,
        target.domain_id,
        "mcq",
        target.grade,
        canary=canary(item_id),
        choices=choices,
        answer_key=key,
        justification=why,
        variant_of=target.item_id,
    )


def calibration_items() -> list[ItemDraft]:
    return [
        ItemDraft(
            item_id,
            language,
            prompt,
            domain,
            "open",
            2,
            calibration=True,
            rubric_id=CALIBRATION_RUBRIC,
        )
        for item_id, language, domain, prompt, _ in CALIBRATION
    ]


def rubrics(domains: tuple[str, ...]) -> list[Criterion]:
    rows = []
    for rubric_id in (*(f"rb-{d}" for d in domains), CALIBRATION_RUBRIC):
        for position, (criterion_id, name_pt, name_en, anchors) in enumerate(
            RUBRIC_CRITERIA, start=1
        ):
            rows.append(Criterion(rubric_id, criterion_id, position, name_pt, name_en, *anchors))
    return rows
