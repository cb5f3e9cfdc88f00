"""Page contexts -> Markdown (Jinja2) and each table's CSV beside its page.

As for Estigmas, the templates only lay a page context out; what they print is finished
here: `Markup` as is, a `TableBlock` as its HTML table and download link, an int as its
digits, any other string escaped (data never becomes markup).
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from reportgen.errors import ReportgenError
from reportgen.kinds.multidomain.render.page_types import TEMPLATES, RoundPage, TableBlock
from reportgen.render.table import escape_markdown, to_html

PAGE_TEMPLATES = Path(__file__).resolve().parent / "templates"


class TemplateRenderError(ReportgenError):
    """A page template is broken (syntax, or a name the context does not have)."""


def table_markup(block: TableBlock) -> Markup:
    """The table, then the link to its CSV (a file beside the page)."""
    link = (
        f'<p class="rg-table-download"><a href="{escape(block.csv_name)}" download>'
        f"{escape(block.csv_label)}</a></p>"
    )
    return Markup(f"{to_html(block.table)}\n{link}")


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


def page_variables(page: RoundPage) -> dict[str, Any]:
    return {field.name: getattr(page, field.name) for field in dataclasses.fields(page)}


def render(page: RoundPage, templates_dir: Path = PAGE_TEMPLATES) -> str:
    template = TEMPLATES[type(page)]
    try:
        return environment(templates_dir).get_template(template).render(page_variables(page))
    except (jinja2.TemplateError, TypeError) as error:
        message = getattr(error, "message", None) or str(error)
        raise TemplateRenderError(f"{templates_dir / template}: {message}") from None


def page_tables(page: RoundPage) -> list[TableBlock]:
    """The tables a page shows (their CSVs are written beside it)."""
    values = [getattr(page, field.name) for field in dataclasses.fields(page)]
    found = [v for v in values if isinstance(v, TableBlock)]
    for value in values:
        if isinstance(value, tuple):
            found += [v for v in value if isinstance(v, TableBlock)]
    return found


def write_page(root: Path, relative: str, page: RoundPage) -> list[Path]:
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
