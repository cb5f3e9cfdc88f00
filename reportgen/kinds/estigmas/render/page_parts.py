"""The small building blocks of the page contexts (`page_types`): the page head and its
synthetic notice, chart references, folded blocks, links, figures and text sections."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from reportgen.kinds.estigmas.render.charts import ChartOutput
from reportgen.render.table import Table


@dataclass(frozen=True)
class SyntheticNotice:
    """The warning shown on every page while a synthetic round is built."""

    title: str
    body: str


@dataclass(frozen=True)
class PageHead:
    """What every page starts with: its title and the synthetic-data notice."""

    title: str
    notice: SyntheticNotice | None


@dataclass(frozen=True)
class ChartRef:
    """A chart on a page: static SVG, live spec, data table, its downloads (SVG, PNG and
    CSV, written beside) and, in a <figcaption>, its caption and how to read it."""

    chart: ChartOutput
    description: str
    data_label: str
    depth: int  # folders between the page and the site root (for the files' addresses)
    downloads_label: str = ""  # the words before the download links
    caption: str | Markup | None = None  # "Figure 1 — ..."
    how_to_read: str | None = None  # a short note for readers new to the chart


@dataclass(frozen=True)
class Collapsed:
    """A long table folded behind a summary line."""

    summary: str
    table: Table


@dataclass(frozen=True)
class Moving:
    """A block of a model page that changes whenever a model joins the round (its rank
    among them; its paired comparisons, whose adjusted p-values count every pair). Kept
    out of the page's Markdown and search entries whatever its size, so that the rest of
    the page, unchanged, is not converted again (reportgen/render/page_cache.py)."""

    block: Table | Markup  # a Markup block is HTML
    slot: str  # names it in its placeholder: the round, model, page part and language


@dataclass(frozen=True)
class Link:
    label: str
    href: Markup


@dataclass(frozen=True)
class Figure:
    """A headline number and what it counts."""

    value: str
    label: str


@dataclass(frozen=True)
class TextSection:
    heading: str
    body: str | Markup


@dataclass(frozen=True)
class CompareOption:
    value: Markup  # the model id, a validated slug
    name: str


@dataclass(frozen=True)
class CompareRound:
    """One round on the compare page: its models, side by side, and their differences.

    The page's script shows the two models a permalink names
    (`compare.html?round=<id>&a=<id>&b=<id>`); without JavaScript every round's table
    shows every model."""

    round_id: Markup  # a validated slug
    title: str
    options: tuple[CompareOption, ...]  # ranking order, diagnostic cases last
    table: Table  # every model side by side
    differences: Collapsed | None  # every ordered pair's index difference; None without stats


@dataclass(frozen=True)
class Citation:
    """How to cite the article: a sentence linking CITATION.cff, and the BibTeX entry."""

    heading: str
    body: Markup
    bibtex: str
