"""How to contest an item of the round (Art. 42, 43; MD-I16), on the round's first page.

The days come from the round's archive (round.json: `contest_window_days`, `reply_days`),
the dates from the results (`contest_opens`, `contest_closes`), the address from site.yml
(`contestations.contact`; a placeholder is never printed: the page says it is not set yet).
A calibration item is published with the report, so its window opens at the report's
publication, a moment the archive does not record: the page gives the rule, not a date.
"""

from __future__ import annotations

from markupsafe import Markup

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.text import bullets, paragraph


def contestation(context: RoundContext, text: Text) -> tuple[Block, ...]:
    manifest, dates = context.round_.manifest, context.results.dates
    window, reply = manifest.contest_window_days, manifest.reply_days
    contact = (
        text.t("contest.contact", contact=context.contact)
        if context.contact
        else text.t("contest.no_contact")
    )
    lines = [
        text.t("contest.who"),
        contact,
        text.t(
            "contest.test_items",
            opens=text.date(dates.contest_opens),
            closes=text.date(dates.contest_closes),
            days=window,
        ),
        text.t("contest.calibration_items", days=window),
        text.t("contest.reply", days=reply),
        text.t("contest.upheld"),
    ]
    status = (
        text.t("contest.provisional", date=text.date(dates.provisional_until))
        if context.provisional
        else text.t("contest.final", date=text.date(dates.provisional_until))
    )
    return (
        Markup(f"## {text.t('contest.title')} {{ #contestation }}"),
        bullets(lines),
        paragraph(status),
    )
