"""Fills in what a multidomain archive derives from its content (multidomain-round.md).

The generators write only the free content: item texts and keys, response texts and
statuses, juror and reviewer criterion scores. Everything the spec derives (hashes,
the seeded orders, `correct`, jury positions, adjudications where the range asks for
one, judge views, the audit rows and ledger lines, the manifest's counts) comes from
here, through the shared `derive` and `terms` functions, so that the archive passes
every rule by construction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from reportgen.kinds._fields import same_named
from reportgen.kinds.multidomain import derive
from reportgen.kinds.multidomain.model import (
    ITEM_TYPES,
    Composition,
    Item,
    ItemType,
    Manifest,
    Response,
    Status,
)
from reportgen.kinds.multidomain.terms import (
    active_items,
    bank_sha256,
    canonical_json,
    content_sha256,
    is_scored_response,
    sha256_text,
)

Scores = tuple[int, ...]  # one rater's criterion scores, in rubric position order


@dataclass(frozen=True)
class ItemDraft:
    """An item's free content; weight, order and content hash are derived."""

    item_id: str
    language: str
    prompt: str
    domain_id: str
    type: ItemType
    grade: int
    canary: str | None = None
    calibration: bool = False
    choices: str | None = None
    answer_key: str | None = None
    tolerance_abs: str | None = None
    unit: str | None = None
    justification: str | None = None
    reference: str | None = None
    rubric_id: str | None = None
    variant_of: str | None = None


# The fields an item keeps from its draft.
_DRAFTED = (
    "item_id language prompt canary choices answer_key tolerance_abs unit justification"
    " reference calibration domain_id type grade rubric_id variant_of"
)


def finish_items(
    drafts: Sequence[ItemDraft], *, weights: Mapping[str, int], seed: int
) -> tuple[Item, ...]:
    """Items with `weight`, `content_sha256`, `order` (derive.item_orders) and
    `published` (calibration items only), in the drafts' order."""
    items = [
        Item(
            **same_named(d, _DRAFTED),
            published=d.calibration,
            weight=weights[d.type],
            order=None,
            content_sha256="",
        )
        for d in drafts
    ]
    items = [replace(item, content_sha256=content_sha256(item)) for item in items]
    orders = derive.item_orders(items, seed)
    return tuple(replace(item, order=orders.get(item.item_id)) for item in items)


@dataclass(frozen=True)
class ResponseDraft:
    """A response's free content. `text` is the answer as the participant wrote it; for
    `discarded_personal_data` it is the text before the discard (only its hash is kept)."""

    item_id: str
    model_id: str
    run: int
    status: Status
    text: str | None
    latency_ms: float | None
    called_at: datetime
    extracted_answer: str | None = None
    scored_before_discard: bool | None = None
    response_language: str | None = None
    cost_micro: int = 0


def is_correct(item: Item, answer: str) -> bool:
    """mcq: the letter equals the key; calc: |x - key| <= tolerance, in exact decimals."""
    assert item.answer_key is not None
    if item.type == "mcq":
        return answer == item.answer_key
    tolerance = Decimal(item.tolerance_abs or "0")
    return abs(Decimal(answer) - Decimal(item.answer_key)) <= tolerance


def finish_response(item: Item, draft: ResponseDraft, snapshot: str) -> Response:
    """The response row with raw_text, raw_sha256, prompt_sha256, format_ok, correct and
    the status table's nulls filled in."""
    discarded = draft.status == "discarded_personal_data"
    scored = draft.status == "ok" or (discarded and draft.scored_before_discard is True)
    objective = item.type != "open"
    answer = draft.extracted_answer if objective and scored else None
    if objective and scored and answer is None:
        raise ValueError(f"{draft.item_id}/{draft.model_id}/{draft.run}: a scored answer")
    format_ok: bool | None = None
    if objective:
        format_ok = scored if (scored or not discarded) else None
    has_text = draft.status in ("ok", "format_violation", "refusal") or discarded
    if has_text and draft.text is None:
        raise ValueError(f"{draft.item_id}/{draft.model_id}/{draft.run}: text required")
    text = draft.text if has_text else None
    return Response(
        item_id=draft.item_id,
        model_id=draft.model_id,
        run=draft.run,
        raw_text=None if discarded else text,
        latency_ms=draft.latency_ms,
        status=draft.status,
        raw_sha256=sha256_text(text) if text is not None else None,
        prompt_sha256=sha256_text(item.prompt),
        extracted_answer=answer,
        format_ok=format_ok,
        correct=is_correct(item, answer) if answer is not None else None,
        scored_before_discard=draft.scored_before_discard if discarded else None,
        response_language=draft.response_language,
        cost_micro=draft.cost_micro,
        snapshot=snapshot,
        called_at=draft.called_at,
    )


def finish_responses(
    items: Sequence[Item], drafts: Sequence[ResponseDraft], snapshots: Mapping[str, str]
) -> dict[str, tuple[Response, ...]]:
    """Response rows per model_id (in `snapshots` order), each file in the drafts' order."""
    by_id = {item.item_id: item for item in items}
    rows: dict[str, list[Response]] = {model_id: [] for model_id in snapshots}
    for draft in drafts:
        item = by_id[draft.item_id]
        rows[draft.model_id].append(finish_response(item, draft, snapshots[draft.model_id]))
    return {model_id: tuple(found) for model_id, found in rows.items()}


def response_points(item: Item, response: Response, final: Fraction | None) -> Fraction:
    """Metrics §1: weight if scored and correct (mcq/calc); weight x F / 5 (open)."""
    if not is_scored_response(response):
        return Fraction(0)
    if item.type == "open":
        assert final is not None
        return item.weight * final / 5
    return Fraction(item.weight) if response.correct else Fraction(0)


# --- the manifest's derived values ------------------------------------------------------


def generation_sha256(generation: Mapping[str, object]) -> str:
    return sha256_text(canonical_json(dict(generation)))


def finish_manifest(manifest: Manifest, items: Sequence[Item]) -> Manifest:
    """`composition`, `grade_counts`, `max_points` (over the active test items),
    `bank_sha256` and `retain_until` computed; the rest as given."""
    active = active_items(items)
    composition: dict[str, Composition] = {}
    for domain in manifest.domains:
        mine = [item for item in active if item.domain_id == domain.id]
        languages = {lang: sum(i.language == lang for i in mine) for lang in manifest.languages}
        types = {kind: sum(i.type == kind for i in mine) for kind in ITEM_TYPES}
        # Only what is present: a count of 0 says nothing the absence does not.
        composition[domain.id] = Composition(
            language={lang: n for lang, n in languages.items() if n},
            type={kind: n for kind, n in types.items() if n},
        )
    assert manifest.ended_on is not None
    return replace(
        manifest,
        composition=composition,
        grade_counts={grade: sum(i.grade == grade for i in active) for grade in range(1, 6)},
        max_points=sum(manifest.weights[item.type] for item in active),
        bank_sha256=bank_sha256(items),
        retain_until=derive.add_months(manifest.ended_on, manifest.retention_months),
    )


def day_of(moment: datetime) -> date:
    return moment.date()
