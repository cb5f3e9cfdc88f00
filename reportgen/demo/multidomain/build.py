"""One call from a round's free content to a complete, valid multidomain `Round`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from pathlib import Path

from reportgen.archive import CHECKSUMS_FILE, LEDGER_FILE
from reportgen.archive._ledger import chained_ledger
from reportgen.demo.multidomain.assemble import (
    ItemDraft,
    ResponseDraft,
    finish_items,
    finish_manifest,
    finish_responses,
    generation_sha256,
)
from reportgen.demo.multidomain.scoring import (
    CalibrationDraft,
    HumanRating,
    JuryDraft,
    audit_tables,
    calibration_rows,
    jury_tables,
)
from reportgen.demo.multidomain.screening import ScreeningPlan, screening_rows
from reportgen.kinds.multidomain.model import (
    Annulment,
    Criterion,
    Item,
    Judge,
    Manifest,
    Participant,
    Response,
    ResponseKey,
    Round,
)
from reportgen.kinds.multidomain.terms import is_jury_scored
from reportgen.kinds.multidomain.write import archive_files


@dataclass(frozen=True)
class RoundContent:
    """What a generator writes. The manifest's derived values (composition,
    grade_counts, max_points, bank_sha256, retain_until) and the participants'
    generation_sha256 may be placeholders: they are computed."""

    manifest: Manifest
    participants: Sequence[Participant]
    judges: Sequence[Judge]
    rubrics: Sequence[Criterion]
    items: Sequence[ItemDraft]
    responses: Sequence[ResponseDraft]
    jury: Callable[[Item, Response], JuryDraft]
    human: HumanRating
    audit_decided_on: date
    audit_reason: Callable[[str, Fraction], Mapping[str, str]]
    calibration: Sequence[CalibrationDraft]
    annulments: Sequence[Annulment] = ()  # contestation and contamination lines
    # The build each participant's calls reported, where models.csv has no snapshot
    # (open weights run locally); otherwise models.csv's snapshot.
    call_snapshots: Mapping[str, str] = field(default_factory=dict)
    # Art. 37: who screened the items, when, and which declare synthetic personal data
    # (None: screened on protocol_frozen_on, none holds personal data).
    screening: ScreeningPlan | None = None


def assemble(content: RoundContent, path: Path) -> Round:
    """The complete round (its `path` as given), every derived value filled in; the
    ledger holds the audit lines and the given ones, by decision date."""
    manifest = content.manifest
    items = finish_items(content.items, weights=manifest.weights, seed=manifest.item_order_seed)
    manifest = finish_manifest(manifest, items)
    digest = generation_sha256(manifest.generation)
    participants = tuple(replace(p, generation_sha256=digest) for p in content.participants)
    responses = finish_responses(
        items,
        content.responses,
        {p.model_id: p.snapshot or content.call_snapshots[p.model_id] for p in participants},
    )
    by_id = {item.item_id: item for item in items}
    drafts: dict[ResponseKey, JuryDraft] = {
        (r.item_id, r.model_id, r.run): content.jury(by_id[r.item_id], r)
        for rows in responses.values()
        for r in rows
        if is_jury_scored(by_id[r.item_id], r)
    }
    discarded = {_key(d): d.text or "" for d in content.responses if _discarded(d)}
    jury = jury_tables(
        items,
        responses,
        drafts,
        rubrics=content.rubrics,
        manifest=manifest,
        participants=participants,
        discarded_texts=discarded,
    )
    audit = audit_tables(
        items,
        responses,
        jury.finals,
        rubrics=content.rubrics,
        manifest=manifest,
        human=content.human,
        decided_on=content.audit_decided_on,
        reason=content.audit_reason,
    )
    ledger, annulments = _ledger([*audit.annulments, *content.annulments])
    round_ = Round(
        path=path,
        manifest=manifest,
        models=participants,
        items=items,
        annulments=annulments,
        judges=tuple(content.judges),
        rubrics=tuple(content.rubrics),
        responses=responses,
        judge_views=jury.views,
        jury=jury.jury,
        adjudications=jury.adjudications,
        calibration=calibration_rows(content.calibration, items, content.rubrics),
        audit=audit.rows,
        screening=screening_rows(
            content.screening or ScreeningPlan(manifest.protocol_frozen_on), items
        ),
    )
    return _with_digests(round_, ledger)


def _ledger(lines: list[Annulment]) -> tuple[bytes, tuple[Annulment, ...]]:
    """The chained ledger of the lines, by decision date (then item id)."""
    return chained_ledger(sorted(lines, key=lambda a: (a.decided_on, a.item_id)))


def _key(draft: ResponseDraft) -> ResponseKey:
    return (draft.item_id, draft.model_id, draft.run)


def _discarded(draft: ResponseDraft) -> bool:
    return draft.status == "discarded_personal_data"


def _with_digests(round_: Round, ledger: bytes) -> Round:
    """The round with the checksums and ledger hash its archive will have (as read back)."""
    files = archive_files(round_)
    checksums = {
        rel: hashlib.sha256(data).hexdigest()
        for rel, data in files.items()
        if rel not in (CHECKSUMS_FILE, LEDGER_FILE)
    }
    ledger_sha256 = hashlib.sha256(ledger).hexdigest() if ledger else ""
    return replace(round_, checksums=checksums, ledger_sha256=ledger_sha256)
