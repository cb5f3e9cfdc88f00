"""Page contexts -> Markdown (Jinja2) and each table's CSV beside its page.

As for the other kinds, the templates only lay a page context out; what they print is
finished here: `Markup` as is, a `TableBlock` as its HTML table and download link, a
`DetailsBlock` as a <details> element around its table, an int as its digits, any other
string escaped (data never becomes markup). A table cell may carry a tooltip (the exact
fraction of a rounded number), written as its `title` attribute.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from reportgen.errors import ReportgenError
from reportgen.kinds.counterfactual.render.page_types import (
    TEMPLATES,
    DetailsBlock,
    Page,
    Part,
    TableBlock,
)
from reportgen.render.table import SEARCH_INDEX_MAX_ROWS, Cell, cell_text_html, escape_markdown

PAGE_TEMPLATES = Path(__file__).resolve().parent / "templates"


class TemplateRenderError(ReportgenError):
    """A page template is broken (syntax, or a name the context does not have)."""


def _cell(cell: Cell, tag: str, title: str | None, sticky: bool) -> str:
    classes = [name for name, wanted in (("num", cell.numeric), ("rg-sticky", sticky)) if wanted]
    attributes = f' class="{" ".join(classes)}"' if classes else ""
    if title:
        attributes += f' title="{escape(title)}"'
    return f"<{tag}{attributes}>{cell_text_html(cell.text)}</{tag}>"


def table_html(block: TableBlock) -> Markup:
    """The table in the core's markup (a focusable scrolling region named by its caption),
    with each cell's tooltip."""
    table = block.table
    table_id = escape(table.table_id)
    unindexed = " data-search-exclude" if len(table.rows) > SEARCH_INDEX_MAX_ROWS else ""
    head = "".join(_cell(c, "th", None, i == 0) for i, c in enumerate(table.header))
    lines = [
        f'<div class="rg-table-wrap" role="region" tabindex="0" '
        f'aria-labelledby="{table_id}-caption"{unindexed}>'
        f'<table id="{table_id}" class="rg-table">',
        f'<caption id="{table_id}-caption">{escape(table.caption)}</caption>',
        f"<thead><tr>{head}</tr></thead>",
        "<tbody>",
    ]
    for r, row in enumerate(table.rows):
        cells = "".join(_cell(c, "td", block.titles.get((r, i)), i == 0) for i, c in enumerate(row))
        lines.append(f"<tr>{cells}</tr>")
    lines.append("</tbody></table>")
    lines += [f'<p class="rg-note">{escape(note)}</p>' for note in table.notes]
    lines.append("</div>")
    return Markup("\n".join(lines))


def table_markup(block: TableBlock) -> Markup:
    """The table, then the link to its CSV (a file beside the page)."""
    link = (
        f'<p class="rg-table-download"><a href="{escape(block.csv_name)}" download>'
        f"{escape(block.csv_label)}</a></p>"
    )
    return Markup(f"{table_html(block)}\n{link}")


def details_markup(block: DetailsBlock) -> Markup:
    summary = escape(block.summary)
    return Markup(
        f'<details class="cf-pairs">\n<summary>{summary}</summary>\n'
        f"{table_markup(block.table)}\n</details>"
    )


def finished(value: object) -> Markup:
    """What a template prints: blocks rendered, text escaped, anything else refused."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool):
        raise TypeError(f"a page printed the bool {value!r}")
    if isinstance(value, int):
        return Markup(str(value))
    if isinstance(value, str):
        return escape_markdown(value)
    if isinstance(value, TableBlock):
        return table_markup(value)
    if isinstance(value, DetailsBlock):
        return details_markup(value)
    if isinstance(value, jinja2.Undefined):
        str(value)  # StrictUndefined: raises the error naming the missing variable
    raise TypeError(f"a page printed {type(value).__name__} {value!r}: not a finished value")


@functools.lru_cache(maxsize=2)
def environment(templates_dir: Path) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=False,
        finalize=finished,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def page_variables(page: Page) -> dict[str, Any]:
    return {field.name: getattr(page, field.name) for field in dataclasses.fields(page)}


def render(page: Page, templates_dir: Path = PAGE_TEMPLATES) -> str:
    template = TEMPLATES[type(page)]
    try:
        return environment(templates_dir).get_template(template).render(page_variables(page))
    except (jinja2.TemplateError, TypeError) as error:
        message = getattr(error, "message", None) or str(error)
        raise TemplateRenderError(f"{templates_dir / template}: {message}") from None


def page_tables(page: Page) -> list[TableBlock]:
    """The tables a page shows, folded ones included (their CSVs are written beside it)."""
    values: list[object] = [getattr(page, field.name) for field in dataclasses.fields(page)]
    for value in list(values):
        if isinstance(value, tuple):
            for member in value:
                values += list(member.blocks) if isinstance(member, Part) else [member]
    found = []
    for value in values:
        if isinstance(value, DetailsBlock):
            found.append(value.table)
        elif isinstance(value, TableBlock):
            found.append(value)
    return found


def write_page(root: Path, relative: str, page: Page) -> list[Path]:
    """The page's Markdown at `root/relative` and the CSV of each of its tables."""
    target = root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(page), encoding="utf-8")
    written = [target]
    for block in page_tables(page):
        csv_path = target.parent / block.csv_name
        csv_path.write_text(block.csv_text, encoding="utf-8")
        written.append(csv_path)
    return written
