"""Two parts of the methodology page that the regulation asks the organiser to disclose.

- The system instruction (Art. 8: the same instruction for every participant; issue 21
  lists it under Art. 13): its SHA-256 from the first day, its text once the embargo
  ends (the text is written with the items and kept off the site as they are).
- The personal-data screening of the items (Art. 37): how many items were screened, by
  whom and when, and how many hold synthetic personal data, declared as such.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from reportgen.kinds.multidomain.model import Item
from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.text import code, paragraph


def system_instruction(context: RoundContext, text: Text) -> tuple[Block, ...]:
    manifest = context.round_.manifest
    digest = str(manifest.generation.get("system_prompt_sha256", ""))
    blocks: list[Block] = [
        Markup(f"## {text.t('method.instruction')} {{ #system-instruction }}"),
        Markup(f"{escape(text.t('method.instruction_sha256'))} {code(digest)}"),
    ]
    if manifest.system_prompt is None:
        blocks.append(paragraph(text.t("method.instruction_absent")))
    elif context.embargo_over:
        blocks.append(paragraph(text.t("method.instruction_text")))
        blocks.append(Markup(f"<pre><code>{escape(manifest.system_prompt)}</code></pre>"))
    else:
        end = text.date(context.results.dates.embargo_end)
        blocks.append(paragraph(text.t("method.instruction_embargoed", date=end)))
    return tuple(blocks)


def synthetic_declaration(context: RoundContext, text: Text, item: Item) -> Block | None:
    """The declaration an item with synthetic personal data carries (Art. 37), printed
    wherever the item's text is; None for an item without personal data."""
    row = context.screening.get(item.item_id)
    if row is None or row.result != "synthetic_personal_data":
        return None
    declared = row.declaration_pt if text.language == "pt-BR" else row.declaration_en
    label = escape(text.t("items.synthetic"))
    return Markup(f"**{label}** {escape(declared or '')}")


def screening(context: RoundContext, text: Text) -> tuple[Block, ...]:
    """How the items were screened for personal data (Art. 37), in numbers."""
    rows = context.round_.screening
    blocks: list[Block] = [
        Markup(f"## {text.t('method.screening')} {{ #personal-data }}"),
    ]
    if not rows:
        return (*blocks, paragraph(text.t("method.screening_absent")))
    days = sorted(row.screened_on for row in rows)
    synthetic = sum(1 for row in rows if row.result == "synthetic_personal_data")
    blocks.append(
        paragraph(
            text.t(
                "method.screening_body",
                items=text.integer(len(rows)),
                who="; ".join(sorted({row.screened_by for row in rows})),
                first=text.date(days[0]),
                last=text.date(days[-1]),
                synthetic=text.integer(synthetic),
            )
        )
    )
    return tuple(blocks)


def adjudicator_rates(context: RoundContext, text: Text) -> tuple[Block, ...]:
    """Each model adjudicator's hit rate over the calibration test and whether it may
    score test items (Art. 16); human adjudicators are not named."""
    entries = context.results.calibration.adjudicators
    if not entries:
        return ()
    rows = [
        (
            e.display_name,
            text.integer(e.responses),
            text.rate(e.hit_rate),
            text.t("word.yes" if e.in_band else "word.no"),
        )
        for e in entries
    ]
    keys = ("adjudicator", "responses", "hit_rate", "may_score")
    return (
        text.block(
            f"md-{context.round_id}-adjudicator-hit-rates",
            text.t("calibration.adjudicators"),
            text.headers(keys),
            rows,
            numeric_from=1,
        ),
    )
