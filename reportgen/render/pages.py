"""The one page writer of every kind: page contexts -> Markdown (Jinja2).

A kind's templates only lay out a page context: each gets exactly the fields of its page
class as variables, with no helpers, filters or translator. What a template prints is
finished here: `Markup` passes as is, every other string goes through `escape_markdown`
(data never becomes markup), and a value of one of the kind's block types is rendered by
the kind's finisher for it (`Finisher`): a `TableBlock` as its HTML table and the link to
its CSV beside the page, an int as its digits where the kind allows numbers. Anything
else printed (None, a float, a bool) is a template error that names the template and,
where Jinja knows it, the line.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import jinja2
from markupsafe import Markup, escape

from reportgen.errors import ReportgenError
from reportgen.render.table import Table, escape_markdown, to_html

# A block type a kind's pages print, and how it is printed.
Finisher = tuple[type, Callable[[Any], Markup]]


class TemplateRenderError(ReportgenError):
    """A page template is broken (syntax, or a name the context does not have)."""


@dataclass(frozen=True)
class Notice:
    """A banner above a page's content (an admonition)."""

    css_class: Markup  # "rg-synthetic", "rg-provisional", ... (fixed by the kind, not data)
    title: str
    body: str  # may be empty: the title says it all


@dataclass(frozen=True)
class PageHead:
    """What a page of a round carries above its content: its title and its banners."""

    title: str
    notices: tuple[Notice, ...]


H = TypeVar("H")  # the page's head (a kind may have its own)
E = TypeVar("E")


@dataclass(frozen=True)
class ListPage(Generic[H, E]):
    """A page that introduces a list: a kind's landing page (its rounds), the models."""

    head: H
    intro: str  # a `Markup` intro is printed as is
    rounds: tuple[E, ...]


@dataclass(frozen=True)
class TableBlock:
    """A table and the CSV file (beside the page) that downloads it."""

    table: Table
    csv_name: str  # file name beside the page
    csv_label: str  # "Baixar CSV" / "Download CSV"
    csv_text: str  # the file's content


def table_markup(block: TableBlock) -> Markup:
    """The table, then the link to its CSV (a file beside the page)."""
    link = (
        f'<p class="rg-table-download"><a href="{escape(block.csv_name)}" download>'
        f"{escape(block.csv_label)}</a></p>"
    )
    return Markup(f"{to_html(block.table)}\n{link}")


def _refused_bool(value: bool) -> Markup:
    raise TypeError(f"a page printed the bool {value!r}")


def _digits(value: int) -> Markup:
    return Markup(str(value))


# The finishers of a kind whose pages print counts and tables with their CSVs.
NUMBERS: tuple[Finisher, ...] = ((bool, _refused_bool), (int, _digits))
TABLE_BLOCKS: tuple[Finisher, ...] = (*NUMBERS, (TableBlock, table_markup))


def finished(value: object, finishers: tuple[Finisher, ...] = ()) -> Markup:
    """What a template prints: text escaped, blocks rendered, anything else refused."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, str):
        return escape_markdown(value)
    for block_type, finish in finishers:
        if isinstance(value, block_type):
            return finish(value)
    if isinstance(value, jinja2.Undefined):
        str(value)  # StrictUndefined: raises the error naming the missing variable
    raise TypeError(f"a page printed {type(value).__name__} {value!r}: not a finished value")


@functools.lru_cache(maxsize=8)
def environment(templates_dir: Path, finishers: tuple[Finisher, ...]) -> jinja2.Environment:
    """One Jinja environment per templates folder, shared by both languages and by later
    builds of the process (`serve --watch`): compiled templates are kept, and Jinja's
    loader still notices an edited template by its modification time."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=False,
        finalize=functools.partial(finished, finishers=finishers),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def page_variables(page: object) -> dict[str, Any]:
    """The template's variables: the page's fields, one level deep."""
    return {field.name: getattr(page, field.name) for field in dataclasses.fields(page)}  # type: ignore[arg-type]


def page_tables(value: object) -> list[TableBlock]:
    """The tables a page shows, wherever they stand in it (a field, a tuple of blocks, a
    folded block or a part of the page), in the order the page lists them."""
    if isinstance(value, TableBlock):
        return [value]
    if isinstance(value, tuple):
        return [block for member in value for block in page_tables(member)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return [block for f in fields for block in page_tables(getattr(value, f.name))]
    return []


def _template_line(error: BaseException) -> int | None:
    """The template line an error was raised on (Jinja puts template frames in the traceback)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.endswith(".j2")]
    return frames[-1].lineno if frames else None


PageListener = Callable[[Path, str], None]  # a written page's path and its Markdown
_listener: ContextVar[PageListener | None] = ContextVar("rg_page_listener", default=None)


@contextlib.contextmanager
def listening(listener: PageListener) -> Iterator[None]:
    """Tell `listener` of each page written while the body runs: the build hands the pages
    it converts outside MkDocs (reportgen/render/shell_convert.py) to its workers as they
    are written, rather than once a language is whole."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


def announce(path: Path, text: str) -> None:
    """Tell the listener of `listening`, if any, that the page `path` now holds `text`
    (`PageWriter.write` does; a site source writing a page by other means may)."""
    listener = _listener.get()
    if listener is not None:
        listener(path, text)


@dataclass(frozen=True, eq=False)
class PageWriter:
    """A kind's pages: its templates folder, the template of each page class, and how
    the blocks its pages hold are printed."""

    templates_dir: Path
    templates: Mapping[type, str]
    finishers: tuple[Finisher, ...] = TABLE_BLOCKS

    @property
    def env(self) -> jinja2.Environment:
        """The Jinja environment of these templates (shared with every writer of them)."""
        return environment(self.templates_dir, self.finishers)

    def finished(self, value: object) -> Markup:
        """What a template of this kind prints for `value`."""
        return finished(value, self.finishers)

    def render(self, page: object) -> str:
        template = self.templates[type(page)]
        try:
            return self.env.get_template(template).render(page_variables(page))
        except (jinja2.TemplateError, TypeError) as error:
            message = getattr(error, "message", None) or str(error)
            line = getattr(error, "lineno", None) or _template_line(error)
            where = f"{template}, line {line}" if line else template
            raise TemplateRenderError(f"{self.templates_dir / where}: {message}") from None

    def write(self, root: Path, relative: str, page: object) -> Path:
        """The page's Markdown at `root/relative` (told to the listener of `listening`)."""
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        text = self.render(page)
        target.write_text(text, encoding="utf-8")
        announce(target, text)
        return target

    def write_page(self, root: Path, relative: str, page: object) -> list[Path]:
        """The page's Markdown at `root/relative` and the CSV of each of its tables."""
        target = self.write(root, relative, page)
        written = [target]
        for block in page_tables(page):
            csv_path = target.parent / block.csv_name
            csv_path.write_text(block.csv_text, encoding="utf-8")
            written.append(csv_path)
        return written

    def with_templates(self, templates_dir: Path) -> PageWriter:
        """The same pages from another templates folder (a test's, a theme's)."""
        return dataclasses.replace(self, templates_dir=templates_dir)
