"""The register page of a multidomain round (Art. 43): every change to its published
results, each decision with its date, source, reference, reason, ledger line and
erratum (render/register.py), and the link to the register's Atom feed
(render/feed.py) so that participants are notified of each new decision."""

from __future__ import annotations

from fractions import Fraction

from markupsafe import Markup, escape

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.register import RegisterEntry, register_entries
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.table import escape_markdown
from reportgen.render.text import DASH, code, paragraph


def feed_name(language: str) -> str:
    """The feed's file name under `data/<round_id>/` (one feed per site language)."""
    return f"register-{language}.xml"


def _score(value: Fraction | None, text: Text) -> str:
    return DASH if value is None else text.decimal(value)


def _summary(context: RoundContext, text: Text, entries: tuple[RegisterEntry, ...]) -> Block:
    rows = [
        (
            text.integer(e.number),
            text.date(e.line.decided_on),
            text.t(f"source.{e.line.source}"),
            e.line.ref,
            e.line.item_id,
            text.pick(e.line.reason),
        )
        for e in entries
    ]
    keys = ("line", "decided_on", "source", "ref", "item", "reason")
    return text.block(
        f"md-{context.round_id}-register",
        text.t("register.summary"),
        text.headers(keys),
        rows,
        numeric_from=99,
    )


def _entry(context: RoundContext, text: Text, entry: RegisterEntry) -> list[Block]:
    line = entry.line
    title = text.t(
        "register.entry_title",
        item=line.item_id,
        source=text.t(f"source.{line.source}"),
        date=text.date(line.decided_on),
    )
    ledger = text.tm("register.ledger_line", number=str(entry.number), ref=line.ref)
    chain = (
        Markup(f"{escape_markdown(text.t('register.chain'))} {code(line.prev_sha256)}")
        if line.prev_sha256
        else escape_markdown(text.t("register.first_line"))
    )
    rows = []
    for change in entry.changes:
        difference = (
            text.decimal(change.after - change.before)
            if change.after is not None and change.before is not None
            else DASH
        )
        rows.append(
            (
                change.display_name,
                _score(change.before, text),
                _score(change.after, text),
                difference,
            )
        )
    erratum = text.block(
        f"md-{context.round_id}-erratum-{line.item_id}",
        text.t("register.erratum", item=line.item_id),
        text.headers(("participant", "before", "after", "difference")),
        rows,
        sticky=0,
    )
    return [
        Markup(f"## {escape_markdown(title)} {{ #{escape(entry.anchor)} }}"),
        paragraph(text.pick(line.reason)),
        Markup(f"{ledger} {chain}"),
        paragraph(text.t("register.erratum_intro")),
        erratum,
    ]


def register(context: RoundContext, text: Text, feed_href: str) -> tuple[Block, ...]:
    """The register page's blocks; `feed_href`: the feed of this language, relative to
    the page."""
    entries = register_entries(context.round_)
    dates = context.results.dates
    feed = Markup(f"[{escape_markdown(feed_name(text.language))}]({escape(feed_href)})")
    blocks: list[Block] = [
        paragraph(
            text.t(
                "register.intro",
                published=text.date(dates.ended_on),
                as_of=text.date(context.as_of),
            )
        ),
        text.tm("register.feed", feed=feed),
        paragraph(text.t("register.not_upheld")),
    ]
    if not entries:
        blocks.append(paragraph(text.t("register.none", as_of=text.date(context.as_of))))
        return tuple(blocks)
    blocks.append(_summary(context, text, entries))
    for entry in entries:
        blocks += _entry(context, text, entry)
    return tuple(blocks)
