"""The counterfactual pages' writer: the shared one (reportgen.render.pages) with this
kind's templates and its folded tables. What a template prints is finished there:
`Markup` as is, a `TableBlock` as its HTML table and download link (its CSV is written
beside the page; a cell may carry a tooltip, the exact fraction of a rounded number), a
`DetailsBlock` as a <details> element around its table, an int as its digits, any other
string escaped (data never becomes markup).
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup, escape

from reportgen.kinds.counterfactual.render.page_types import TEMPLATES, DetailsBlock
from reportgen.render.pages import TABLE_BLOCKS, PageWriter, table_markup

PAGE_TEMPLATES = Path(__file__).resolve().parent / "templates"


def details_markup(block: DetailsBlock) -> Markup:
    summary = escape(block.summary)
    return Markup(
        f'<details class="cf-pairs">\n<summary>{summary}</summary>\n'
        f"{table_markup(block.table)}\n</details>"
    )


WRITER = PageWriter(PAGE_TEMPLATES, TEMPLATES, (*TABLE_BLOCKS, (DetailsBlock, details_markup)))
