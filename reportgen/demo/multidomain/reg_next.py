"""The second demonstration round of the series, `reg-2026-2`: bank v1.1 (Art. 17).

Collected 2026-11-23 to 2026-11-30, right after `reg-2026-1` (its `previous_round`), by
the same 15 participants; two of them report a new snapshot (Art. 9). Its bank, v1.1,
is v1.0 with these changes, each item keeping its domain, language, type and grade so
that the composition and the grades of Art. 10-11 hold:

- revised under a new id (Art. 17, declared in `bank_revisions`): the item whose canary
  leaked in reg-2026-1 (its variant `…-v2` joins the bank) and the two items the human
  audit of reg-2026-1 invalidated (`…-r1`, with a clarified statement);
- retired: two items, replaced by two new items (`i-nego-101`, `i-prop-101`).

Everything else (answers, jury, audit, a new canary reproduction and its variant) is
drawn as for reg-2026-1, from the seed "reg-2026-2". reg-2026-1 itself, written before
the bank keys existed, records no `bank_version`: the series shows it by its hash.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, date, datetime
from functools import cache
from pathlib import Path

from reportgen.demo.multidomain.assemble import ItemDraft
from reportgen.demo.multidomain.reg import (
    REGULATION,
    Plan,
    Size,
    _manifest,
    _specials,
    first_of,
    item_drafts,
    reg_round,
)
from reportgen.demo.multidomain.reg_items import _draft, canary, variant_of
from reportgen.demo.multidomain.reg_responses import Session
from reportgen.demo.multidomain.reg_texts import LANGUAGE_INDEX
from reportgen.errors import InputError
from reportgen.kinds.multidomain.model import BankRevision, Round
from reportgen.kinds.multidomain.write import write_round

ROUND_ID = "reg-2026-2"
BANK_VERSION = "1.1"
SEED = "reg-2026-2"
# A sentence that clarifies a revised statement, per language.
CLARIFIED = (
    " Considere apenas as normas vigentes na data da rodada.",
    " Consider only the rules in force on the round's date.",
    "仅考虑本轮日期时有效的规定。",
)
RETIRED = (
    ("negocios", "pt-BR", "mcq", 3, "i-nego-101"),
    ("proptech", "en", "calc", 2, "i-prop-101"),
)


@cache
def _first_round_findings() -> tuple[str, tuple[str, ...]]:
    """reg-2026-1's leaked item and the items its audit invalidated (sorted)."""
    drafts, leaked = item_drafts(REGULATION)
    specials = _specials(drafts, leaked, _manifest(REGULATION, Plan()))
    return leaked, tuple(sorted(specials.invalidated_items))


def _revised(draft: ItemDraft) -> ItemDraft:
    """The item under a new id, its statement clarified (Art. 17)."""
    sentence = CLARIFIED[LANGUAGE_INDEX[draft.language]]
    item_id = f"{draft.item_id}-r1"
    return replace(draft, item_id=item_id, prompt=draft.prompt + sentence, canary=canary(item_id))


def _new_item(old: ItemDraft, item_id: str) -> ItemDraft:
    """A new item in the retired one's cell and grade."""
    rng = random.Random(f"{SEED}:new:{item_id}")
    number = int(item_id.rsplit("-", 1)[1])
    return _draft(item_id, old.domain_id, old.language, old.type, 0, old.grade, number, rng)


def bank_changes() -> tuple[list[ItemDraft], list[BankRevision]]:
    """Bank v1.1's test items (no variant yet) and its declared revisions."""
    if REGULATION.items != 700:  # pragma: no cover - the series has the regulation's size
        raise InputError("the second round is generated at the regulation's size only")
    drafts, _ = item_drafts(REGULATION)
    leaked, invalidated = _first_round_findings()
    bank = [d for d in drafts if not d.calibration and d.variant_of is None]
    variant = next(d for d in drafts if d.variant_of == leaked)
    retired = {
        first_of(bank, domain, lang, kind, skip): new for domain, lang, kind, skip, new in RETIRED
    }
    revised = {leaked: replace(variant, variant_of=None)}
    revised |= {
        item_id: _revised(next(d for d in bank if d.item_id == item_id)) for item_id in invalidated
    }
    kept: list[ItemDraft] = []
    for draft in bank:
        if draft.item_id in revised:
            kept.append(revised[draft.item_id])
        elif draft.item_id in retired:
            kept.append(_new_item(draft, retired[draft.item_id]))
        else:
            kept.append(draft)
    revisions = [BankRevision(new.item_id, old) for old, new in sorted(revised.items())]
    return kept, revisions


def _drafts(size: Size) -> tuple[list[ItemDraft], str]:
    """Bank v1.1, the variant of this round's leaked item, and the calibration items."""
    bank, _ = bank_changes()
    leaked = first_of(bank, "bank", "en", "mcq")  # this round's canary reproduction
    target = next(d for d in bank if d.item_id == leaked)
    calibration = [d for d in item_drafts(size)[0] if d.calibration]
    return [*bank, variant_of(target), *calibration], leaked


def plan() -> Plan:
    _, revisions = bank_changes()
    return Plan(
        round_id=ROUND_ID,
        title={
            "pt-BR": "REG-BC-2026-001 — segunda rodada de demonstração",
            "en": "REG-BC-2026-001 — second demonstration round",
        },
        protocol_frozen_on=date(2026, 11, 21),
        collected_on=date(2026, 11, 23),
        ended_on=date(2026, 11, 30),
        # The audit seed draws no item that reg-2026-1's embargo still hides on the day
        # this round's audit lines are decided (its pages name those items from then on).
        seeds=(20261130, 20261131, 20261134, 20261123),
        previous_round="reg-2026-1",
        bank_version=BANK_VERSION,
        bank_revisions=tuple(revisions),
        session=Session(
            seed=SEED,
            first_call=date(2026, 11, 23),
            run_spacing=2,
            call_window_s=86_400 + 36_000,
            judged_from=datetime(2026, 11, 28, 9, 0, tzinfo=UTC),
            audited_from=datetime(2026, 11, 29, 10, 0, tzinfo=UTC),
        ),
        audit_decided_on=date(2026, 12, 1),
        contested=False,
        snapshots={"aurora-4": "aurora-4-2026-11-20", "cerrado-3": "cerrado-3-2026-11-18"},
    )


def next_round(path: Path) -> Round:
    """reg-2026-2 as a typed round whose archive folder is `path`."""
    return reg_round(path, REGULATION, plan(), _drafts)


def write_next_round(out_dir: Path) -> Path:
    """Write the archive as `out_dir/reg-2026-2`; returns its folder."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / ROUND_ID
    write_round(next_round(target), target)
    return target
