"""The multidomain pages' writer: the shared one (reportgen.render.pages) with this kind's
templates. What a template prints is finished there: `Markup` as is, a `TableBlock` as
its HTML table and download link (its CSV is written beside the page), an int as its
digits, any other string escaped (data never becomes markup).
"""

from __future__ import annotations

from pathlib import Path

from reportgen.kinds.multidomain.render.page_types import TEMPLATES
from reportgen.render.pages import PageWriter

PAGE_TEMPLATES = Path(__file__).resolve().parent / "templates"
WRITER = PageWriter(PAGE_TEMPLATES, TEMPLATES)
