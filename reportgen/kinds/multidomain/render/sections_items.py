"""Section 14 of the report (only from `ended_on` + `embargo_days`): every test item in
full, with each participant's run-averaged points, on one page per domain under an
index page (`items.md` links `items-<domain_id>.md`)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

from markupsafe import Markup

from reportgen.kinds.multidomain.model import Item
from reportgen.kinds.multidomain.render.context import (
    ITEMS_SECTION,
    RoundContext,
    items_page,
    rubric_block,
)
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.sections_disclosure import synthetic_declaration
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.results import Exact
from reportgen.render.table import escape_markdown
from reportgen.render.text import bullets, in_language, paragraph


def _status(item: Item, context: RoundContext, text: Text) -> str:
    superseded = {i.variant_of for i in context.round_.items if i.variant_of}
    if item.item_id in context.round_.annulled_item_ids:
        return text.t("items.status.annulled")
    if item.item_id in superseded:
        return text.t("items.status.superseded")
    return text.t("items.status.scored")


def _declared_number(value: str | None, text: Text) -> str | None:
    """An answer key or tolerance that is a number, in the page's format ("0.01" is
    "0,01" in pt-BR); any other answer key (a choice letter) as the bank writes it."""
    try:
        return text.as_declared(value) if value and Decimal(value).is_finite() else value
    except InvalidOperation:
        return value


def _field(label: str, value: str | None, language: str | None = None) -> Markup:
    if not value:
        return Markup("")
    shown = in_language(value, language) if language else Markup.escape(value)
    return Markup(f"<p><strong>{Markup.escape(label)}:</strong> {shown}</p>")


def _item_blocks(
    context: RoundContext, text: Text, item: Item, points: dict[tuple[str, str], Fraction]
) -> list[Block]:
    rid = context.round_id
    facts = text.t(
        "items.facts",
        domain=context.domain_name(item.domain_id, text),
        language=item.language,
        type=text.t(f"type.{item.type}"),
        grade=item.grade,
        weight=item.weight,
        status=_status(item, context, text),
    )
    fields = [
        _field(text.t("items.choices"), item.choices),
        _field(text.t("items.key"), _declared_number(item.answer_key, text)),
        _field(text.t("items.tolerance"), _declared_number(item.tolerance_abs, text)),
        _field(text.t("items.unit"), item.unit),
        _field(text.t("items.justification"), item.justification, item.language),
        _field(text.t("items.reference"), item.reference),
    ]
    blocks: list[Block] = [
        Markup(f"## {Markup.escape(item.item_id)}"),
        paragraph(facts),
        in_language(item.prompt, item.language, block=True),
        Markup("\n".join(f for f in fields if f)),
    ]
    declared = synthetic_declaration(context, text, item)
    if declared is not None:
        blocks.insert(3, declared)
    if item.rubric_id:
        blocks.append(
            rubric_block(context, text, item.rubric_id, f"md-{rid}-item-{item.item_id}-rubric")
        )
    earned = [
        (m.display_name, text.exact(Exact.of(points.get((item.item_id, m.model_id), Fraction(0)))))
        for m in context.round_.models
    ]
    blocks.append(
        text.block(
            f"md-{rid}-item-{item.item_id}-points",
            text.t("items.points", item=item.item_id),
            [text.t("column.participant"), text.t("column.points")],
            earned,
        )
    )
    return blocks


def _tests(context: RoundContext, domain_id: str | None = None) -> list[Item]:
    """Test items in presentation order (Art. 21), of one domain when given."""
    return sorted(
        (
            i
            for i in context.round_.items
            if not i.calibration and (domain_id is None or i.domain_id == domain_id)
        ),
        key=lambda i: (i.order or 0, i.item_id),
    )


def items(context: RoundContext, text: Text) -> tuple[Block, ...]:
    """The items' index: one page per domain (700 items on one page are too long to read)."""
    links = []
    for domain_id in context.item_domains:
        name = escape_markdown(context.domain_name(domain_id, text))
        count = text.t("items.domain_count", count=len(_tests(context, domain_id)))
        links.append(Markup(f"[{name}]({items_page(domain_id)}.md): {escape_markdown(count)}"))
    return (paragraph(text.t("items.intro")), paragraph(text.t("items.by_domain")), bullets(links))


def domain_items(context: RoundContext, text: Text, domain_id: str) -> tuple[Block, ...]:
    """One domain's test items in full (its page under the items' index)."""
    points = context.item_points
    tests = _tests(context, domain_id)
    intro = text.tm(
        "items.domain_intro",
        count=str(len(tests)),
        domain=context.domain_name(domain_id, text),
        index=Markup(f"{ITEMS_SECTION}.md"),
    )
    blocks: list[Block] = [intro]
    for item in tests:
        blocks += _item_blocks(context, text, item, points)
    return tuple(blocks)
