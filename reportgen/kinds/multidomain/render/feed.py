"""The Atom 1.0 feed (RFC 4287) of a round's register (Art. 43), one per site language,
written with the standard library (xml.etree).

Under `data/<round_id>/register-<language>.xml` beside the other downloads. The feed and
each entry have a stable `urn:uuid:` id (render/register.py); an entry is one ledger line,
`updated` the day it was decided (00:00 UTC), its link the entry on the register page
(relative to the feed, so the feed works wherever the site is served), its content the
reason and the erratum in words. A feed without entries is `updated` at the report's
publication (`ended_on`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date

from reportgen.i18n import SITE_LANGUAGES
from reportgen.kinds.multidomain.model import NAME
from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.register import (
    REGISTER_PAGE,
    RegisterEntry,
    entry_uuid,
    feed_uuid,
    register_entries,
)
from reportgen.kinds.multidomain.render.sections_register import feed_name
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.text import DASH

ATOM = "http://www.w3.org/2005/Atom"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _stamp(day: date) -> str:
    return f"{day.isoformat()}T00:00:00Z"


def page_path(round_id: str, language: str, section_depth: int) -> str:
    """The register page's path from the site's root."""
    prefix = "" if language == SITE_LANGUAGES[0] else f"{language}/"
    section = f"{NAME}/" if section_depth else ""
    return f"{prefix}{section}{round_id}/{REGISTER_PAGE}.html"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    if text is not None:
        element.text = text
    return element


def _content(entry: RegisterEntry, text: Text) -> str:
    changes = "; ".join(
        text.t(
            "feed.change",
            participant=c.display_name,
            before=DASH if c.before is None else text.decimal(c.before),
            after=DASH if c.after is None else text.decimal(c.after),
        )
        for c in entry.changes
    )
    return f"{text.pick(entry.line.reason)}\n\n{text.t('feed.erratum', changes=changes)}"


def _entry(feed: ET.Element, round_id: str, entry: RegisterEntry, text: Text, page: str) -> None:
    """One entry; `page`: the register page, relative to the feed."""
    line = entry.line
    element = _sub(feed, "entry")
    _sub(element, "id", entry_uuid(round_id, line))
    title = text.t(
        "register.entry_title",
        item=line.item_id,
        source=text.t(f"source.{line.source}"),
        date=text.date(line.decided_on),
    )
    _sub(element, "title", title)
    _sub(element, "updated", _stamp(line.decided_on))
    _sub(element, "link", rel="alternate", type="text/html", href=f"{page}#{entry.anchor}")
    _sub(element, "content", _content(entry, text), type="text")


def feed_xml(context: RoundContext, language: str, section_depth: int) -> bytes:
    """The register's Atom feed in `language`, as the bytes served."""
    ET.register_namespace("", ATOM)
    text = Text(language)
    entries = register_entries(context.round_)
    newest = max((e.line.decided_on for e in entries), default=context.results.dates.ended_on)
    feed = ET.Element(f"{{{ATOM}}}feed", {XML_LANG: language})
    title = text.t("feed.title", round=text.pick(context.round_.manifest.title))
    _sub(feed, "id", feed_uuid(context.round_id, language))
    _sub(feed, "title", title)
    _sub(feed, "subtitle", text.t("feed.subtitle"))
    _sub(feed, "updated", _stamp(newest))
    author = _sub(feed, "author")
    _sub(author, "name", text.t("feed.author"))
    page = f"../../{page_path(context.round_id, language, section_depth)}"
    _sub(feed, "link", rel="self", type="application/atom+xml", href=feed_name(language))
    _sub(feed, "link", rel="alternate", type="text/html", href=page)
    for entry in sorted(entries, key=lambda e: (e.line.decided_on, e.number), reverse=True):
        _entry(feed, context.round_id, entry, text, page)
    ET.indent(feed)
    written: bytes = ET.tostring(feed, encoding="utf-8", xml_declaration=True)
    return written + b"\n"


def feed_files(context: RoundContext, section_depth: int) -> dict[str, bytes]:
    """file name -> bytes of the register's feeds, one per site language."""
    return {
        feed_name(language): feed_xml(context, language, section_depth)
        for language in SITE_LANGUAGES
    }
