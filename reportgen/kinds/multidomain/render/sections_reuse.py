"""The re-use page of a multidomain round (Art. 40, 42), shown only once the embargo is
over: the released items' downloads (render/reuse.py), their licence and the
no-training notice, and the register of the Organisation's written authorisations
(early release before the embargo, training).

A round's archive has no record of authorisations (round-archive/2 holds none): the
register says so and lists none, rather than claim that none was given."""

from __future__ import annotations

from markupsafe import Markup, escape

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.reuse import REUSE_FILES, terms_texts
from reportgen.kinds.multidomain.render.text import Text, bullets, paragraph
from reportgen.render.table import escape_markdown

REUSE_PAGE = "reuse"


def reuse(context: RoundContext, text: Text, data_href: str) -> tuple[Block, ...]:
    """The page's blocks; `data_href`: the round's downloads folder, relative to the
    page (ending in "/")."""
    links = [
        Markup(f"[{escape_markdown(name)}]({escape(data_href + name)})") for name in REUSE_FILES
    ]
    terms = terms_texts(context)[text.language].split("\n\n")
    authorisations = text.block(
        f"md-{context.round_id}-authorisations",
        text.t("reuse.authorisations"),
        [text.t(f"column.{k}") for k in ("id", "granted_on", "holder", "scope")],
        [],
        numeric_from=99,
    )
    return (
        paragraph(
            text.t(
                "reuse.intro",
                date=text.date(context.results.dates.embargo_end),
            )
        ),
        bullets(links),
        paragraph(text.t("reuse.contents")),
        Markup(f"## {escape_markdown(text.t('reuse.terms_title'))} {{ #terms }}"),
        *(paragraph(term) for term in terms),
        Markup(f"## {escape_markdown(text.t('reuse.authorisations'))} {{ #authorisations }}"),
        paragraph(text.t("reuse.authorisations_intro")),
        paragraph(text.t("reuse.authorisations_none")),
        authorisations,
    )
