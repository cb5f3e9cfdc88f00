"""How the demonstration's participants answered, and how the raters scored them.

Each (participant, item, run) draws from its own generator seeded by those three
names, so every answer is fixed whatever the iteration order. P(correct) follows the
participant's `Behaviour`; a few responses are set by hand (`Specials`): a canary
reproduction, a suspicious canary fragment, prompt copies (8-gram flags), discarded
personal data (one scored, one not).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from reportgen.demo.multidomain.assemble import ResponseDraft
from reportgen.demo.multidomain.reg_answers import (
    CALC_ANSWER,
    CANARY_ECHO,
    FORMAT_VIOLATION,
    GOOD_POINTS,
    MCQ_ANSWER,
    OPEN_LEAD,
    PERSONAL_DATA,
    REFUSAL,
    SUSPICIOUS_ECHO,
    WEAK_POINTS,
)
from reportgen.demo.multidomain.reg_cast import Behaviour, behaviour
from reportgen.demo.multidomain.reg_items import SEED, decimal_text
from reportgen.demo.multidomain.reg_texts import LANGUAGE_INDEX, TOPICS
from reportgen.demo.multidomain.scoring import JuryDraft, Rating, Scores
from reportgen.kinds.multidomain.model import Item, Response, Status

Key = tuple[str, str, int]  # (item_id, model_id, run)
CRITERIA = 3


@dataclass(frozen=True)
class Session:
    """When and from which seed a round's answers and ratings are drawn."""

    seed: str = SEED
    first_call: date = date(2026, 11, 12)  # run r starts run_spacing x (r - 1) days later
    run_spacing: int = 2
    call_window_s: int = 4 * 86_400 + 36_000  # calls of one run spread over this window
    judged_from: datetime = datetime(2026, 11, 21, 9, 0, tzinfo=UTC)
    audited_from: datetime = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)


FIRST = Session()  # reg-2026-1


@dataclass(frozen=True)
class Specials:
    """Responses set by hand, keyed by (item_id, model_id, run)."""

    canary_echo: Key
    suspicious: Key
    copies: frozenset[Key]
    discarded_scored: Key
    discarded_unscored: Key
    invalidated_items: frozenset[str] = field(default_factory=frozenset)

    @property
    def forced(self) -> frozenset[Key]:
        """Responses that must be `ok` for their special text to be kept."""
        return frozenset({self.canary_echo, self.suspicious, *self.copies})


def probability(behaviour: Behaviour, item: Item) -> float:
    value = (
        behaviour.skill
        + behaviour.domains.get(item.domain_id, 0.0)
        + behaviour.languages.get(item.language, 0.0)
        - 0.05 * (item.grade - 3)
    )
    return min(0.97, max(0.05, value))


def quality(item: Item, model_id: str, run: int, session: Session = FIRST) -> float:
    """The open answer's true quality on 0..5 (the jury and the reviewers see it noisily)."""
    rng = random.Random(f"{session.seed}:quality:{model_id}:{item.item_id}:{run}")
    return min(5.0, max(0.0, 5 * probability(behaviour(model_id), item) + rng.gauss(0, 0.7)))


def _status(behaviour: Behaviour, item: Item, rng: random.Random) -> Status:
    u = rng.random()
    refusal = behaviour.refusal * (2 if item.domain_id in ("medica", "juridica") else 1)
    for status, share in (
        ("timeout", behaviour.timeout),
        ("error", behaviour.error),
        ("refusal", refusal),
        ("format_violation", behaviour.format_violation if item.type != "open" else 0.0),
    ):
        if u < share:
            return status  # type: ignore[return-value]
        u -= share
    return "ok"


def _objective_answer(item: Item, right: bool, rng: random.Random) -> str:
    assert item.answer_key is not None
    if item.type == "mcq":
        assert item.choices is not None
        return item.answer_key if right else rng.choice(item.choices.replace(item.answer_key, ""))
    key = Decimal(item.answer_key)
    if right:
        return decimal_text(key)
    factor = Decimal(rng.choice((-30, -20, -10, -5, 5, 10, 25))) / 100
    wrong = (key * (1 + factor)).quantize(Decimal("0.01"))
    return decimal_text(wrong if wrong != key else key + 1)


def _open_text(item: Item, level: float, language: str, rng: random.Random) -> str:
    index = LANGUAGE_INDEX[language]
    topic_index = next(
        (
            i
            for i, topic in enumerate(TOPICS[item.domain_id])
            if topic[LANGUAGE_INDEX[item.language]] in item.prompt
        ),
        0,
    )
    topic = TOPICS[item.domain_id][topic_index][index]
    count = max(0, min(len(GOOD_POINTS), round(level / 5 * 4 + rng.uniform(-0.5, 0.5))))
    points = [p[index] for p in rng.sample(GOOD_POINTS, count)]
    if level < 2.5 or not points:
        points.append(rng.choice(WEAK_POINTS)[index])
    separator = "" if language == "zh" else " "
    sentences = [point[:1].upper() + point[1:] for point in points]
    return OPEN_LEAD[index].format(topic=topic) + separator + separator.join(sentences)


def response_draft(
    item: Item, model_id: str, run: int, specials: Specials, runs: int = 3, session: Session = FIRST
) -> ResponseDraft:
    key = (item.item_id, model_id, run)
    conduct = behaviour(model_id)
    rng = random.Random(f"{session.seed}:response:{model_id}:{item.item_id}:{run}")
    status = _status(conduct, item, rng)
    if key in specials.forced:
        status = "ok"
    copied = key in specials.copies
    language = item.language
    if language == "zh" and status == "ok" and rng.random() < conduct.off_language and not copied:
        language = "en"
    index = LANGUAGE_INDEX[language]
    right = rng.random() < probability(conduct, item)
    answer: str | None = None
    text: str | None = None
    scored_before: bool | None = None
    if key in (specials.discarded_scored, specials.discarded_unscored):
        status, language = "discarded_personal_data", item.language
        scored_before = key == specials.discarded_scored
        text = PERSONAL_DATA[LANGUAGE_INDEX[language]]
        answer = _objective_answer(item, right, rng) if item.type != "open" else None
    elif status == "refusal":
        text = REFUSAL[index]
    elif status == "format_violation":
        text = FORMAT_VIOLATION[index]
    elif status == "ok" and item.type == "open":
        if copied:
            text = item.prompt + " " + GOOD_POINTS[0][index]
        else:
            text = _open_text(item, quality(item, model_id, run, session), language, rng)
    elif status == "ok":
        answer = _objective_answer(item, right, rng)
        frame = (MCQ_ANSWER if item.type == "mcq" else CALC_ANSWER)[index]
        text = frame.format(x=answer)
        if key == specials.canary_echo:
            text = CANARY_ECHO[index].format(x=answer, canary=item.canary)
        elif key == specials.suspicious:
            text = SUSPICIOUS_ECHO[index].format(x=answer, fragment=(item.canary or "")[:14])
    return ResponseDraft(
        item_id=item.item_id,
        model_id=model_id,
        run=run,
        status=status,
        text=text,
        latency_ms=_latency(status, conduct, text, rng),
        called_at=_called_at(run, runs, rng, session),
        extracted_answer=answer,
        scored_before_discard=scored_before,
        response_language=language if text is not None and status != "error" else None,
        cost_micro=0 if status == "error" else round(conduct.cost_micro * rng.uniform(0.8, 1.2)),
    )


def _latency(
    status: Status, behaviour: Behaviour, text: str | None, rng: random.Random
) -> float | None:
    if status == "error":
        return None
    if status == "timeout":
        return None if rng.random() < 0.5 else 120_000.0 + round(rng.uniform(0, 900), 1)
    spread = math.exp(rng.gauss(0, 0.35))
    return round(behaviour.latency_ms * spread + 2.0 * len(text or ""), 1)


def _called_at(run: int, runs: int, rng: random.Random, session: Session) -> datetime:
    # Up to 3 runs: run r from the first call's day + run_spacing (r - 1), over the call
    # window (reg-2026-1: days 12 + 2(r - 1) .. + 4 of November 2026). More runs share the
    # same 3 x run_spacing days, two days each. Every call falls within the round.
    first = datetime.combine(session.first_call, datetime.min.time(), UTC).replace(hour=8)
    if runs <= 3:
        start = first + timedelta(days=session.run_spacing * (run - 1))
        return start + timedelta(seconds=rng.randrange(0, session.call_window_s))
    start = first + timedelta(days=3 * session.run_spacing * (run - 1) // runs)
    return start + timedelta(seconds=rng.randrange(0, 2 * 86_400))


def responses(
    items: Sequence[Item],
    cast: Sequence[str],
    runs: int,
    specials: Specials,
    session: Session = FIRST,
) -> list[ResponseDraft]:
    """Every (item, run) of every participant, in cast order, items by `order`."""
    tests = sorted((i for i in items if not i.calibration), key=lambda i: (i.order or 0, i.item_id))
    return [
        response_draft(item, model_id, run, specials, runs, session)
        for model_id in cast
        for item in tests
        for run in range(1, runs + 1)
    ]


# --- raters --------------------------------------------------------------------------

_JUROR_BIAS: Mapping[str, float] = {"j1": 0.15, "j2": -0.2, "j3": 0.0}


def _clamp(value: float) -> int:
    return max(0, min(5, round(value)))


def jury(item: Item, response: Response, session: Session = FIRST) -> JuryDraft:
    """Three jurors around the answer's quality; now and then one strays (adjudication)."""
    level = quality(item, response.model_id, response.run, session)
    rng = random.Random(f"{session.seed}:jury:{response.model_id}:{item.item_id}:{response.run}")
    stray = rng.choice(("j1", "j2", "j3")) if rng.random() < 0.04 else None
    ratings: list[Rating] = []
    for judge_id, bias in _JUROR_BIAS.items():
        shift = (2.2 if level < 2.5 else -2.2) if judge_id == stray else 0.0
        scores = tuple(_clamp(level + bias + shift + rng.gauss(0, 0.45)) for _ in range(CRITERIA))
        ratings.append((judge_id, scores))
    adjudicator: Rating = ("a1", tuple(_clamp(level + rng.gauss(0, 0.3)) for _ in range(CRITERIA)))
    judged = session.judged_from + timedelta(minutes=rng.randrange(0, 7200))
    return JuryDraft((ratings[0], ratings[1], ratings[2]), adjudicator, judged)


class HumanAudit:
    """The reviewers' scores: close to the final score, except the first audited response
    of each item in `invalidated` (Art. 26: the divergence invalidates the item)."""

    def __init__(self, invalidated: frozenset[str], session: Session = FIRST) -> None:
        self.invalidated = invalidated
        self.session = session
        self.done: set[str] = set()

    def __call__(self, response: Response, final: Fraction) -> tuple[str, Scores, datetime]:
        rng = random.Random(
            f"{self.session.seed}:audit:{response.model_id}:{response.item_id}:{response.run}"
        )
        reviewer = "h1" if rng.random() < 0.5 else "h2"
        base = round(final)
        if response.item_id in self.invalidated and response.item_id not in self.done:
            self.done.add(response.item_id)
            target = base - 3 if base >= 3 else base + 3
            scores: Scores = (target,) * CRITERIA
        else:
            nudged = rng.randrange(CRITERIA)
            step = rng.choice((-1, 0, 0, 1))
            scores = tuple(_clamp(base + (step if c == nudged else 0)) for c in range(CRITERIA))
        at = self.session.audited_from + timedelta(minutes=rng.randrange(0, 5000))
        return reviewer, scores, at
