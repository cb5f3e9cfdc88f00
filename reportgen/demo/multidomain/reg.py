"""The REG-BC-2026-001 demonstration round `reg-2026-1`: the full profile (15
participants, 700 items in 7 domains and 3 languages, 3 runs), synthetic, generated
from fixed seeds (byte-identical on regeneration).

Collected 2026-11-12 to 2026-11-20 (after the regulation's issue date, 2026-11-11, Art. 46),
so the embargo ends on 2027-02-18. One Annex A
entry withdrew and the first reserve replaces it; dragao-m reproduced one item's
canary, so that item is superseded by a variant; the human audit invalidates two
items and a contestation annuls a third.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from fractions import Fraction
from pathlib import Path

from reportgen.demo.multidomain import profile
from reportgen.demo.multidomain.assemble import ItemDraft, finish_items, finish_manifest
from reportgen.demo.multidomain.build import RoundContent, assemble
from reportgen.demo.multidomain.reg_answers import CALIBRATION
from reportgen.demo.multidomain.reg_cast import CAST_SIZE, annex, judges, participants
from reportgen.demo.multidomain.reg_items import (
    PER_DOMAIN,
    calibration_items,
    domain_items,
    rubrics,
    variant_of,
)
from reportgen.demo.multidomain.reg_responses import (
    FIRST,
    HumanAudit,
    Session,
    Specials,
    jury,
    responses,
)
from reportgen.demo.multidomain.reg_texts import DOMAIN_NAMES
from reportgen.demo.multidomain.scoring import CalibrationDraft, JuryDraft
from reportgen.demo.multidomain.screening import ScreeningPlan, fictitious_patient
from reportgen.errors import InputError
from reportgen.kinds.multidomain import derive
from reportgen.kinds.multidomain.model import (
    Annulment,
    BankRevision,
    Domain,
    Item,
    Manifest,
    Response,
    Round,
)
from reportgen.kinds.multidomain.write import write_round

ROUND_ID = "reg-2026-1"
COLLECTED_ON, ENDED_ON = date(2026, 11, 12), date(2026, 11, 20)


@dataclass(frozen=True)
class Size:
    """The round's size: the regulation's by default (the committed demonstration round).
    Larger rounds (for benchmarks) add participants after the reserves and scale every
    domain's items (a multiple of 700 items: 7 domains x 100)."""

    participants: int = CAST_SIZE
    items: int = 7 * PER_DOMAIN
    runs: int = 3

    @property
    def per_domain(self) -> int:
        return self.items // len(DOMAIN_NAMES)


REGULATION = Size()
TITLE = {
    "pt-BR": "REG-BC-2026-001 — rodada de demonstração",
    "en": "REG-BC-2026-001 — demonstration round",
}
Drafts = Callable[[Size], tuple[list[ItemDraft], str]]


@dataclass(frozen=True)
class Plan:
    """What differs from one demonstration round of the series to the next: its id, dates,
    public seeds, its bank (the item drafts and the item whose canary leaked), when its
    answers were drawn, and the Art. 43 contestations decided on it."""

    round_id: str = ROUND_ID
    title: dict[str, str] = field(default_factory=lambda: dict(TITLE))
    protocol_frozen_on: date = date(2026, 11, 11)
    collected_on: date = COLLECTED_ON
    ended_on: date = ENDED_ON
    # The public seeds: bootstrap, jury presentation, audit draw, item order (Art. 21).
    seeds: tuple[int, int, int, int] = (20261120, 20261121, 20261122, 20261103)
    previous_round: str | None = None
    bank_version: str | None = None
    bank_revisions: tuple[BankRevision, ...] = ()
    session: Session = FIRST
    audit_decided_on: date = date(2026, 11, 27)
    contested: bool = True  # the contestation of 1 March 2027
    snapshots: dict[str, str] = field(default_factory=dict)  # model_id -> a new snapshot


def _manifest(size: Size, plan: Plan) -> Manifest:
    boot, presentation, audit, order = plan.seeds
    return Manifest(
        round_id=plan.round_id,
        title=plan.title,
        synthetic=True,
        **profile.manifest_fields(),
        collected_on=plan.collected_on,
        protocol_frozen_on=plan.protocol_frozen_on,
        ended_on=plan.ended_on,
        bootstrap_seed=boot,
        deviations=(),
        annex=annex(size.participants),
        cast_size=size.participants,
        previous_round=plan.previous_round,
        domains=tuple(Domain(d, {"pt-BR": pt, "en": en}) for d, (pt, en) in DOMAIN_NAMES.items()),
        runs=size.runs,
        jury=profile.jury_rules(presentation_seed=presentation),
        audit=profile.audit_rules(seed=audit),
        item_order_seed=order,
        bank_version=plan.bank_version,
        bank_revisions=plan.bank_revisions,
    )


def first_of(drafts: list[ItemDraft], domain: str, language: str, kind: str, skip: int = 0) -> str:
    found = sorted(
        d.item_id
        for d in drafts
        if (d.domain_id, d.language, d.type) == (domain, language, kind) and not d.calibration
    )
    return found[skip]


def item_drafts(size: Size) -> tuple[list[ItemDraft], str]:
    """Every item, and the id of the item whose canary leaked (superseded by a variant)."""
    if size.items % len(DOMAIN_NAMES):
        raise InputError(f"items must be a multiple of {len(DOMAIN_NAMES)}, got {size.items}")
    drafts = [d for domain in DOMAIN_NAMES for d in domain_items(domain, size.per_domain)]
    leaked = first_of(drafts, "bank", "pt-BR", "mcq")
    target = next(d for d in drafts if d.item_id == leaked)
    return [*drafts, variant_of(target), *calibration_items()], leaked


def _specials(drafts: list[ItemDraft], leaked: str, manifest: Manifest) -> Specials:
    items = finish_items(drafts, weights=manifest.weights, seed=manifest.item_order_seed)
    drawn = derive.audit_draw(items, finish_manifest(manifest, items))
    copy_compliance = first_of(drafts, "compliance", "pt-BR", "open")
    return Specials(
        canary_echo=(leaked, "dragao-m", 2),
        suspicious=(first_of(drafts, "negocios", "en", "mcq"), "guara-9", 3),
        copies=frozenset(
            {
                (copy_compliance, "carnauba-x", 1),
                (copy_compliance, "carnauba-x", 2),
                (first_of(drafts, "compliance", "pt-BR", "open", 1), "carnauba-x", 1),
                (first_of(drafts, "energia", "zh", "open"), "estrela-open", 1),
                (first_of(drafts, "juridica", "en", "open"), "carnauba-x", 3),
            }
        ),
        discarded_scored=(first_of(drafts, "medica", "pt-BR", "open"), "baoba-pro", 2),
        discarded_unscored=(first_of(drafts, "juridica", "pt-BR", "mcq"), "mandacaru-1", 1),
        invalidated_items=frozenset({drawn[("medica", "pt-BR")][0], drawn[("energia", "zh")][0]}),
    )


def _audit_reason(audit_id: str, divergence: Fraction) -> dict[str, str]:
    shown = f"{float(divergence):.2f}"
    shown_pt = shown.replace(".", ",")
    return {
        "pt-BR": f"Auditoria humana {audit_id}: divergência de {shown_pt} entre a nota humana e a "
        "final, acima de 1,0 (Art. 26); o item sai do cálculo para todos.",
        "en": f"Human audit {audit_id}: a divergence of {shown} between the human and the final "
        "score, above 1.0 (Art. 26); the item leaves every calculation.",
    }


def _contestation(drafts: list[ItemDraft]) -> Annulment:
    return Annulment(
        item_id=first_of(drafts, "juridica", "en", "mcq", 1),
        decided_on=date(2027, 3, 1),
        source="contestation",
        ref="CT-2027-001",
        reason={
            "pt-BR": "Contestação acolhida (Art. 43): duas alternativas descrevem práticas "
            "igualmente adequadas.",
            "en": "Contestation upheld (Art. 43): two options describe equally appropriate "
            "practices.",
        },
        prev_sha256="",
    )


def _calibration() -> list[CalibrationDraft]:
    drafts = []
    for item_id, _, _, _, answers in CALIBRATION:
        for number, text in enumerate(answers, start=1):
            good = number == 1
            high, low = (4, 5, 4), (1, 1, 2)
            base = high if good else low
            ratings = tuple(
                (rater, tuple(max(0, min(5, s + shift)) for s in base))
                for rater, shift in (
                    ("j1", 0),
                    ("j2", -1 if good else 1),
                    ("j3", 0),
                    ("a1", 0),  # Art. 16: the adjudicator's hit rate
                    ("h1", 0),
                    ("h2", -1 if good else 0),
                )
            )
            drafts.append(
                CalibrationDraft(item_id, f"{item_id}-p{number}", text, ratings, date(2026, 10, 28))
            )
    return drafts


def reg_round(
    path: Path, size: Size = REGULATION, plan: Plan | None = None, drafts_of: Drafts | None = None
) -> Round:
    """The demonstration round as a typed round whose archive folder is `path`; `size`
    other than the regulation's gives a larger synthetic round of the same design; `plan`
    and `drafts_of` (its bank) another round of the series (reg_next.py)."""
    if not 1 <= size.runs <= 9:
        raise InputError(f"runs must be 1 to 9, got {size.runs}")
    plan = plan or Plan()
    manifest = _manifest(size, plan)
    drafts, leaked = (drafts_of or item_drafts)(size)
    specials = _specials(drafts, leaked, manifest)
    items = finish_items(drafts, weights=manifest.weights, seed=manifest.item_order_seed)
    snapshots = plan.snapshots
    cast = [
        replace(p, evaluated_on=plan.collected_on, snapshot=snapshots.get(p.model_id, p.snapshot))
        for p in participants(size.participants)
    ]
    session = plan.session

    def rate(item: Item, response: Response) -> JuryDraft:
        return jury(item, response, session)

    model_ids = [p.model_id for p in cast]
    content = RoundContent(
        manifest=manifest,
        participants=cast,
        judges=judges(),
        rubrics=rubrics(tuple(DOMAIN_NAMES)),
        items=drafts,
        responses=responses(items, model_ids, manifest.runs, specials, session),
        jury=rate,
        human=HumanAudit(specials.invalidated_items, session),
        audit_decided_on=plan.audit_decided_on,
        audit_reason=_audit_reason,
        calibration=_calibration(),
        annulments=(_contestation(drafts),) if plan.contested else (),
        call_snapshots={p.model_id: f"local-{p.checksum[7:19]}" for p in cast if p.weights_open},
        screening=ScreeningPlan(date(2026, 10, 15), fictitious_patient),
    )
    return assemble(content, path)


def write_reg_round(out_dir: Path, size: Size = REGULATION) -> Path:
    """Write the round's archive as `out_dir/reg-2026-1`; returns its folder."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / ROUND_ID
    write_round(reg_round(target, size), target)
    return target
