"""The scoring tables of a multidomain archive from the raters' criterion scores.

Given each jury-scored response's three juror score vectors (and an adjudicator's,
used only where derive.needs_adjudication says so), this writes jury.parquet rows with
their seeded `position`, adjudications exactly where the range asks for one, the
anonymised judge views, the human audit of the drawn responses with its `audit` ledger
lines, and the calibration rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction

from reportgen.kinds.multidomain import derive
from reportgen.kinds.multidomain.model import (
    Adjudication,
    Annulment,
    AuditScore,
    CalibrationScore,
    Criterion,
    Item,
    JudgeView,
    JuryScore,
    Manifest,
    Participant,
    Response,
    ResponseKey,
)
from reportgen.kinds.multidomain.terms import is_jury_scored, rank_key, sha256_text, tokens

Scores = tuple[int, ...]
Rating = tuple[str, Scores]  # (judge_id, criterion scores in rubric position order)


@dataclass(frozen=True)
class JuryDraft:
    """The raters of one jury-scored response."""

    jurors: tuple[Rating, Rating, Rating]
    adjudicator: Rating | None
    judged_at: datetime


@dataclass(frozen=True)
class JuryTables:
    views: tuple[JudgeView, ...]
    jury: tuple[JuryScore, ...]
    adjudications: tuple[Adjudication, ...]
    finals: Mapping[ResponseKey, Fraction]  # F of every jury-scored response


def criteria_of(rubrics: Sequence[Criterion]) -> dict[str, list[str]]:
    """criterion ids per rubric, in position order."""
    found: dict[str, list[Criterion]] = {}
    for criterion in rubrics:
        found.setdefault(criterion.rubric_id, []).append(criterion)
    return {
        rubric_id: [c.criterion_id for c in sorted(rows, key=lambda c: c.position)]
        for rubric_id, rows in found.items()
    }


def cast_names(participants: Sequence[Participant]) -> list[tuple[str, ...]]:
    """The token runs a judge view may not contain (Art. 19, judge_views rule)."""
    names: set[str] = set()
    for p in participants:
        names.update((p.model_id, p.display_name, p.organization, p.provider, p.api_identifier))
        names.update(part for part in re.split("[/:@]", p.api_identifier) if len(part) >= 2)
        if p.snapshot:
            names.add(p.snapshot)
    return [tuple(tokens(name)) for name in sorted(names) if tokens(name)]


def names_in(text: str, names: Sequence[tuple[str, ...]]) -> list[str]:
    """The cast names whose token run occurs in `text` (one set lookup per window)."""
    words = tokens(text)
    wanted = set(names)
    found = []
    for width in sorted({len(name) for name in names}):
        for i in range(len(words) - width + 1):
            window = tuple(words[i : i + width])
            if window in wanted:
                found.append(" ".join(window))
    return found


def jury_tables(  # long: one pass over the responses builds the three related tables
    items: Sequence[Item],
    responses: Mapping[str, Sequence[Response]],
    drafts: Mapping[ResponseKey, JuryDraft],
    *,
    rubrics: Sequence[Criterion],
    manifest: Manifest,
    participants: Sequence[Participant],
    discarded_texts: Mapping[ResponseKey, str],
) -> JuryTables:
    """The jury, adjudication and judge-view rows; ValueError when a draft is missing,
    extra, or lacks the adjudicator its range requires, or a view names the cast."""
    by_id = {item.item_id: item for item in items}
    criteria = criteria_of(rubrics)
    names = cast_names(participants)
    above = manifest.jury.adjudicate_above
    scored: list[tuple[Item, Response]] = [
        (by_id[r.item_id], r)
        for rows in responses.values()
        for r in rows
        if is_jury_scored(by_id[r.item_id], r)
    ]
    keys = {(r.item_id, r.model_id, r.run) for _, r in scored}
    if set(drafts) != keys:
        raise ValueError(f"jury drafts differ from the jury-scored responses: {set(drafts) ^ keys}")
    labels = _labels(scored, manifest.jury.presentation_seed)
    positions = derive.presentation_ranks(
        manifest.jury.presentation_seed,
        [(judge, *key) for key, d in drafts.items() for judge, _ in d.jurors],
    )
    views: list[JudgeView] = []
    jury: list[JuryScore] = []
    adjudications: list[Adjudication] = []
    finals: dict[ResponseKey, Fraction] = {}
    for item, response in scored:
        key = (response.item_id, response.model_id, response.run)
        draft = drafts[key]
        assert item.rubric_id is not None
        ids = criteria[item.rubric_id]
        seen = response.raw_text if response.raw_text is not None else discarded_texts[key]
        if names_in(seen, names):
            raise ValueError(f"{key}: the judges' view names {names_in(seen, names)}")
        views.append(JudgeView(*key, labels[key], response.raw_text, view_sha256=sha256_text(seen)))
        means = []
        for judge_id, scores in draft.jurors:
            means.append(derive.mean_score(_checked(scores, ids, key)))
            position = positions[(judge_id, *key)]
            jury.extend(
                JuryScore(*key, judge_id, criterion, score, position, draft.judged_at)
                for criterion, score in zip(ids, scores, strict=True)
            )
        adjudicated: Fraction | None = None
        if derive.needs_adjudication(means, above):
            if draft.adjudicator is None:
                raise ValueError(f"{key}: range above {above} needs an adjudicator")
            judge_id, scores = draft.adjudicator
            adjudicated = derive.mean_score(_checked(scores, ids, key))
            adjudications.extend(
                Adjudication(*key, judge_id, criterion, score, draft.judged_at)
                for criterion, score in zip(ids, scores, strict=True)
            )
        finals[key] = derive.final_score(means, adjudicated, above)
    return JuryTables(tuple(views), tuple(jury), tuple(adjudications), finals)


def _checked(scores: Scores, ids: Sequence[str], key: ResponseKey) -> Scores:
    if len(scores) != len(ids) or not all(0 <= s <= 5 for s in scores):
        raise ValueError(f"{key}: expected {len(ids)} scores in 0..5, got {scores}")
    return scores


def _labels(scored: Sequence[tuple[Item, Response]], seed: int) -> dict[ResponseKey, str]:
    """`SISTEMA-XX`, distinct among the responses of one (item, run), in a seeded order."""
    groups: dict[tuple[str, int], list[str]] = {}
    for _, r in scored:
        groups.setdefault((r.item_id, r.run), []).append(r.model_id)
    labels: dict[ResponseKey, str] = {}
    for (item_id, run), model_ids in groups.items():
        ordered = sorted(model_ids, key=lambda m: rank_key(seed, "view", item_id, str(run), m))
        for number, model_id in enumerate(ordered, start=1):
            labels[(item_id, model_id, run)] = f"SISTEMA-{number:02d}"
    return labels


# --- the human audit (Art. 26) ------------------------------------------------------------

HumanRating = Callable[[Response, Fraction], tuple[str, Scores, datetime]]


@dataclass(frozen=True)
class AuditTables:
    rows: tuple[AuditScore, ...]
    annulments: tuple[Annulment, ...]  # one `audit` line per invalidated item
    divergences: Mapping[ResponseKey, Fraction]


def audit_tables(
    items: Sequence[Item],
    responses: Mapping[str, Sequence[Response]],
    finals: Mapping[ResponseKey, Fraction],
    *,
    rubrics: Sequence[Criterion],
    manifest: Manifest,
    human: HumanRating,
    decided_on: date,
    reason: Callable[[str, Fraction], Mapping[str, str]],
) -> AuditTables:
    """Audit rows for every status-`ok` response of the drawn items (derive.audit_draw),
    and the ledger line of each item with a divergence |h - F| > invalidate_above.

    `human(response, F)` gives the reviewer, its criterion scores and the time;
    `reason(audit_id, divergence)` the ledger line's bilingual reason."""
    by_id = {item.item_id: item for item in items}
    criteria = criteria_of(rubrics)
    drawn = [item_id for ids in derive.audit_draw(items, manifest).values() for item_id in ids]
    rows: list[AuditScore] = []
    lines: list[Annulment] = []
    divergences: dict[ResponseKey, Fraction] = {}
    number = 0
    for item_id in drawn:
        ids = criteria[by_id[item_id].rubric_id or ""]
        trigger: tuple[str, Fraction] | None = None
        audited = [
            r
            for model_rows in responses.values()
            for r in model_rows
            if r.item_id == item_id and r.status == "ok"
        ]
        for response in sorted(audited, key=lambda r: (r.model_id, r.run)):
            number += 1
            audit_id = f"AUD-{number:04d}"
            key = (response.item_id, response.model_id, response.run)
            reviewer, scores, at = human(response, finals[key])
            rows.extend(
                AuditScore(audit_id, *key, reviewer, criterion, score, True, at)
                for criterion, score in zip(ids, _checked(scores, ids, key), strict=True)
            )
            divergence = abs(derive.mean_score(scores) - finals[key])
            divergences[key] = divergence
            if divergence > manifest.audit.invalidate_above and trigger is None:
                trigger = (audit_id, divergence)
        if trigger is not None:
            lines.append(Annulment(item_id, decided_on, "audit", trigger[0], reason(*trigger), ""))
    return AuditTables(tuple(rows), tuple(lines), divergences)


# --- calibration (Art. 22) ------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationDraft:
    item_id: str
    response_id: str
    text: str
    ratings: tuple[Rating, ...]  # 3 jurors, the adjudicator (Art. 16), 2 human reviewers
    scored_on: date


def calibration_rows(
    drafts: Sequence[CalibrationDraft], items: Sequence[Item], rubrics: Sequence[Criterion]
) -> tuple[CalibrationScore, ...]:
    by_id = {item.item_id: item for item in items}
    criteria = criteria_of(rubrics)
    rows: list[CalibrationScore] = []
    for draft in drafts:
        ids = criteria[by_id[draft.item_id].rubric_id or ""]
        digest = sha256_text(draft.text)
        for rater, scores in draft.ratings:
            rows.extend(
                CalibrationScore(
                    draft.item_id,
                    draft.response_id,
                    draft.text,
                    digest,
                    rater,
                    criterion,
                    score,
                    draft.scored_on,
                )
                for criterion, score in zip(
                    ids, _checked(scores, ids, (draft.item_id, draft.response_id, 0)), strict=True
                )
            )
    return tuple(rows)
