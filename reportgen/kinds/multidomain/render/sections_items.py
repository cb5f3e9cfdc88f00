"""Section 14 of the report (only from `ended_on` + `embargo_days`): every test item in
full, with each participant's run-averaged points."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from markupsafe import Markup

from reportgen.kinds.multidomain.derive import final_score, mean_score
from reportgen.kinds.multidomain.model import Item, Round
from reportgen.kinds.multidomain.render.context import RoundContext, rubric_block
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.text import Text, in_language, paragraph
from reportgen.kinds.multidomain.results import Exact
from reportgen.kinds.multidomain.terms import is_jury_scored, is_scored_response


def item_points(round_: Round) -> dict[tuple[str, str], Fraction]:
    """p̄(m, i) for every test item and participant (metrics §1), from the archive.

    The results object holds no per-item points; these follow metrics §1 with the same
    helpers as the statistics (derive.final_score)."""
    items = {i.item_id: i for i in round_.items}
    scores: dict[tuple[str, str, int], dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for row in round_.jury:
        scores[(row.item_id, row.model_id, row.run)][row.judge_id].append(row.score)
    adjudicated: dict[tuple[str, str, int], list[int]] = defaultdict(list)
    for adjudication in round_.adjudications:
        key = (adjudication.item_id, adjudication.model_id, adjudication.run)
        adjudicated[key].append(adjudication.score)
    above = round_.manifest.jury.adjudicate_above
    totals: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    for model_id, responses in round_.responses.items():
        for response in responses:
            item = items[response.item_id]
            key = (response.item_id, model_id, response.run)
            points = Fraction(0)
            if is_jury_scored(item, response) and scores.get(key):
                jurors = [mean_score(s) for s in scores[key].values()]
                adjudicator = mean_score(adjudicated[key]) if adjudicated.get(key) else None
                points = item.weight * final_score(jurors, adjudicator, above) / 5
            elif item.type != "open" and is_scored_response(response) and response.correct:
                points = Fraction(item.weight)
            totals[(response.item_id, model_id)] += points
    runs = round_.manifest.runs
    return {key: value / runs for key, value in totals.items()}


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


def items(context: RoundContext, text: Text) -> tuple[Block, ...]:
    points = item_points(context.round_)
    tests = sorted(
        (i for i in context.round_.items if not i.calibration),
        key=lambda i: (i.order or 0, i.item_id),
    )
    blocks: list[Block] = [paragraph(text.t("items.intro"))]
    for item in tests:
        blocks += _item_blocks(context, text, item, points)
    return tuple(blocks)
