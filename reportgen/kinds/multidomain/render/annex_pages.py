"""The round's pages beside the report's 14 sections, their links and their downloads.

- `<round_id>/register.md` (always): the register of changes to the published results
  (Art. 43) and the link to its Atom feed;
- `<round_id>/reuse.md` (only once the embargo is over): the released items' downloads,
  their terms and the authorizations register (Art. 40, 42).

Their downloads go under `data/<round_id>/` with the others (render/downloads.py lists
them all in SHA256SUMS): the register's feeds always, the released items only after
the embargo.
"""

from __future__ import annotations

from markupsafe import Markup

from reportgen.i18n import SITE_LANGUAGES
from reportgen.kinds.multidomain.render import sections_register, sections_reuse
from reportgen.kinds.multidomain.render.context import RoundContext, page_head
from reportgen.kinds.multidomain.render.feed import feed_files
from reportgen.kinds.multidomain.render.page_types import AnnexPage, Block
from reportgen.kinds.multidomain.render.register import REGISTER_PAGE
from reportgen.kinds.multidomain.render.reuse import reuse_files
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.table import escape_markdown
from reportgen.render.text import bullets, paragraph

REUSE_PAGE = sections_reuse.REUSE_PAGE


def annex_stems(context: RoundContext) -> tuple[str, ...]:
    """The annex pages' file stems on the site's date, in navigation order."""
    return (REGISTER_PAGE, REUSE_PAGE) if context.embargo_over else (REGISTER_PAGE,)


def data_href(round_id: str, language: str, section_depth: int) -> str:
    """The round's downloads folder relative to one of its pages ("../data/<id>/")."""
    up = "../" * (section_depth + 1) + ("" if language == SITE_LANGUAGES[0] else "../")
    return f"{up}data/{round_id}/"


def annex_pages(
    context: RoundContext, text: Text, section_depth: int
) -> list[tuple[str, AnnexPage]]:
    """(path under the language's folder, page) of the annex pages shown on `as_of`."""
    rid, data = context.round_id, data_href(context.round_id, text.language, section_depth)
    feed = data + sections_register.feed_name(text.language)
    pages = [
        (
            f"{rid}/{REGISTER_PAGE}.md",
            AnnexPage(
                page_head(context, text.t("register.title"), text),
                Markup(REGISTER_PAGE),
                sections_register.register(context, text, feed),
            ),
        )
    ]
    if context.embargo_over:
        page = AnnexPage(
            page_head(context, text.t("reuse.title"), text),
            Markup(REUSE_PAGE),
            sections_reuse.reuse(context, text, data),
        )
        pages.append((f"{rid}/{REUSE_PAGE}.md", page))
    return pages


def annex_links(context: RoundContext, text: Text) -> tuple[Block, ...]:
    """The round's first page: links to the annex pages (after the contestation rules)."""
    links = [
        Markup(f"[{escape_markdown(text.t(f'{stem}.title'))}]({stem}.md)")
        for stem in annex_stems(context)
    ]
    return (
        Markup(f"## {escape_markdown(text.t('annex.title'))} {{ #annex }}"),
        paragraph(text.t("annex.intro")),
        bullets(links),
    )


def annex_downloads(context: RoundContext, section_depth: int) -> dict[str, bytes]:
    """file name -> bytes of the annex pages' downloads on `as_of`."""
    return {**feed_files(context, section_depth), **reuse_files(context)}
