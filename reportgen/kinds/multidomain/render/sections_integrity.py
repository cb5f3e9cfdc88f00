"""Section 12 of the report: contamination (Art. 33–34). The counts of the checks, the
8-gram flags per participant, then every flag (8-gram, full or partial canary) with what
the round's ledger and bank say became of its item.

The archive records a confirmed finding as a ledger line (`source = "contamination"`) and
a full canary as a variant that supersedes the item; a flag dismissed by the reviewers
leaves no line. So the outcome of a flag is read from the ledger (lines dated on or before
the date the site speaks for) and from the variants, and the page says which it found.
Item ids (and variant ids, which contain them) appear only after the embargo.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from markupsafe import Markup

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.text import Text
from reportgen.model import Annulment
from reportgen.render.text import bullets, paragraph

CHECKS = ("full_canary", "suspicious_canary", "ngram")
FLAG_COLUMNS = ("participant", "check", "item", "run", "measure", "outcome")


@dataclass(frozen=True)
class Flag:
    """One flagged response: which check, on which item (for a canary: the item whose
    canary was found), and its measure as shown."""

    check: str  # one of CHECKS
    item_id: str
    model_id: str
    run: int
    measure: str


def _count(value: int, text: Text) -> str:
    return text.decimal(Decimal(value), 0)


def flags(context: RoundContext, text: Text) -> list[Flag]:
    """Every flag of the round, by participant (rank order), check, item order and run."""
    found = context.results.contamination
    listed: list[Flag] = []
    for check, hits in (
        ("full_canary", found.full_canaries),
        ("suspicious_canary", found.suspicious_canaries),
    ):
        for hit in hits:
            measure = text.t("contamination.characters", count=_count(hit.common_chars, text))
            listed.append(Flag(check, hit.canary_item_id, hit.model_id, hit.run, measure))
    for ngram in found.ngram_flagged:
        measure = text.t(
            "contamination.containment",
            shared=_count(ngram.shared, text),
            total=_count(ngram.total, text),
            rate=text.rate(ngram.containment),
        )
        listed.append(Flag("ngram", ngram.item_id, ngram.model_id, ngram.run, measure))
    rank = {p.model_id: i for i, p in enumerate(context.results.participants)}
    order = {item.item_id: item.order or 0 for item in context.round_.items}
    return sorted(
        listed,
        key=lambda f: (
            rank.get(f.model_id, len(rank)),
            CHECKS.index(f.check),
            order.get(f.item_id, 0),
            f.item_id,
            f.run,
        ),
    )


def _ledger(context: RoundContext) -> dict[str, list[Annulment]]:
    """The ledger lines in force on the date the site speaks for, by item (the context's
    round is already the round as of that date: terms.round_as_of)."""
    lines: dict[str, list[Annulment]] = {}
    for line in context.round_.annulments:
        lines.setdefault(line.item_id, []).append(line)
    return lines


def outcome(context: RoundContext, text: Text, item_id: str) -> str:
    """What became of a flagged item: annulled for contamination, replaced by a variant,
    already annulled for another reason, or nothing recorded (it still counts)."""
    lines = _ledger(context).get(item_id, [])
    confirmed = [line for line in lines if line.source == "contamination"]
    if confirmed:
        return text.t("contamination.outcome.annulled", date=text.date(confirmed[0].decided_on))
    variants = sorted(i.item_id for i in context.round_.items if i.variant_of == item_id)
    if variants:
        if all(context.shows_id(variant) for variant in variants):
            return text.t("contamination.outcome.variant_named", variant=", ".join(variants))
        return text.t("contamination.outcome.variant")
    if lines:
        first = lines[0]
        return text.t(
            "contamination.outcome.other",
            source=text.t(f"source.{first.source}"),
            date=text.date(first.decided_on),
        )
    return text.t("contamination.outcome.none")


def _per_participant(context: RoundContext, text: Text) -> Block:
    found = context.results.contamination
    rows = []
    for p in context.results.participants:
        mine = [f for f in found.ngram_flagged if f.model_id == p.model_id]
        items = {f.item_id for f in mine}
        rows.append((p.display_name, _count(len(mine), text), _count(len(items), text)))
    return text.block(
        f"md-{context.round_id}-ngram",
        text.t("contamination.caption"),
        [text.t("column.participant"), text.t("column.flags"), text.t("column.flagged_items")],
        rows,
        notes=(text.t("contamination.per_participant_note"),),
    )


def _each_flag(context: RoundContext, text: Text) -> Block:
    rows = [
        (
            context.name_of(f.model_id),
            text.t(f"contamination.check.{f.check}"),
            f.item_id if context.shows_id(f.item_id) else text.t("contamination.id_embargoed"),
            str(f.run),
            f.measure,
            outcome(context, text, f.item_id),
        )
        for f in flags(context, text)
    ]
    return text.block(
        f"md-{context.round_id}-flags",
        text.t("contamination.flags_caption"),
        text.headers(FLAG_COLUMNS, "contamination.column"),
        rows,
        numeric_from=99,
    )


def contamination(context: RoundContext, text: Text) -> tuple[Block, ...]:
    found = context.results.contamination
    listed = flags(context, text)
    summary = bullets(
        [
            text.t("contamination.full", count=len(found.full_canary_items)),
            text.t(
                "contamination.suspicious",
                count=len({f.canary_item_id for f in found.suspicious_canaries}),
            ),
            text.t(
                "contamination.ngram_checked",
                checked=_count(found.ngram_checked, text),
                not_computable=_count(found.ngram_not_computable, text),
            ),
        ]
    )
    blocks: list[Block] = [summary, _per_participant(context, text)]
    blocks.append(Markup(f"## {text.t('contamination.flags_caption')} {{ #flags }}"))
    blocks.append(paragraph(text.t("contamination.outcomes_intro")))
    if listed:
        blocks.append(_each_flag(context, text))
    else:
        blocks.append(paragraph(text.t("contamination.no_flags")))
    return tuple(blocks)
