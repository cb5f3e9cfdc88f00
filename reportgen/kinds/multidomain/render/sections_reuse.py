"""The re-use page of a multidomain round (Art. 40, 42), shown only once the embargo is
over: the released items' downloads (render/reuse.py), their license and the
no-training notice, and the register of the Organisation's written authorizations
(early release before the embargo, training), from the archive's optional
`authorizations.csv` (archive_authorizations.py), as granted by the site's date."""

from __future__ import annotations

from markupsafe import Markup, escape

from reportgen.kinds.multidomain.render.context import RoundContext
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.reuse import REUSE_FILES, terms_texts
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.table import escape_markdown
from reportgen.render.text import bullets, paragraph

REUSE_PAGE = "reuse"


def reuse(context: RoundContext, text: Text, data_href: str) -> tuple[Block, ...]:
    """The page's blocks; `data_href`: the round's downloads folder, relative to the
    page (ending in "/")."""
    links = [
        Markup(f"[{escape_markdown(name)}]({escape(data_href + name)})") for name in REUSE_FILES
    ]
    terms = terms_texts(context)[text.language].split("\n\n")
    granted = [a for a in context.round_.authorizations if a.granted_on <= context.as_of]
    rows = [
        (
            a.authorization_id,
            text.date(a.granted_on),
            text.t(f"reuse.purpose.{a.purpose}"),
            a.holder,
            a.scope_pt if text.language == "pt-BR" else a.scope_en,
        )
        for a in sorted(granted, key=lambda a: (a.granted_on, a.authorization_id))
    ]
    authorizations = text.block(
        f"md-{context.round_id}-authorizations",
        text.t("reuse.authorizations"),
        text.headers(("id", "granted_on", "purpose", "holder", "scope")),
        rows,
        numeric_from=99,
    )
    count = (
        text.t("reuse.authorizations_count", count=text.integer(len(rows)))
        if rows
        else text.t("reuse.authorizations_none", date=text.date(context.as_of))
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
        Markup(f"## {escape_markdown(text.t('reuse.authorizations'))} {{ #authorizations }}"),
        paragraph(text.t("reuse.authorizations_intro")),
        paragraph(count),
        authorizations,
    )
