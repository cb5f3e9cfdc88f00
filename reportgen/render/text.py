"""A kind's words and numbers in one language: the base of each kind's `Text`.

Labels come from the kind's own catalogues (`<kind package>/render/locales/<language>.json`,
flat keys, read by `reportgen.i18n.read_catalogue`; a missing key is an error, never a
fallback). Numbers are rounded half-up on their exact value and written in the
language's format by the site's one formatter (`reportgen.i18n.exact_text`, through the
core `Translator`), which also writes dates. A kind adds the formats of its own values
(scores, gaps, p-values) in its subclass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import ClassVar

from markupsafe import Markup, escape

from reportgen.i18n import (
    MISSING,
    SITE_LANGUAGES,
    Catalogue,
    MissingMessageError,
    Translator,
    read_catalogue,
)
from reportgen.render.pages import Notice, TableBlock
from reportgen.render.table import Cell, Table, cell_download, escape_markdown, to_csv

DASH = MISSING


def kind_catalogue(package: str, language: str) -> Catalogue:
    """The catalogue of the kind whose render package is `package`, in `language`."""
    kind = package.split(".")[-2]
    if language not in SITE_LANGUAGES:
        raise MissingMessageError(f"no {kind} catalogue for language {language!r}")
    path = f"locales/{language}.json"
    return read_catalogue(package, path, language, f"{kind} {path}")


@dataclass(frozen=True)
class KindText:
    """Catalogue text and number formats of one language, for one kind's pages."""

    # The kind's render package, where its locales/ folder is.
    PACKAGE: ClassVar[str]
    PLACES: ClassVar[int] = 2  # decimals of a number (`decimal`) unless told
    REAL_PLACES: ClassVar[int] = 2  # decimals of a measured float (`real`) unless told

    language: str

    @property
    def tr(self) -> Translator:
        return Translator(self.language)

    def t(self, key: str, **params: object) -> str:
        return kind_catalogue(self.PACKAGE, self.language).message(key, **params)

    def plural(self, key: str, count: int) -> str:
        """The key of message `key`'s plural form for `count` (`Catalogue.plural_key`)."""
        return kind_catalogue(self.PACKAGE, self.language).plural_key(key, count)

    def tm(self, key: str, **params: object) -> Markup:
        """A catalogue message holding Markdown; its parameters are data (escaped)."""
        safe = {k: v if isinstance(v, Markup) else escape_markdown(v) for k, v in params.items()}
        return Markup(self.t(key, **safe))

    def pick(self, value: Mapping[str, str]) -> str:
        return self.tr.pick(value)

    def decimal(self, value: Decimal | Fraction, places: int | None = None) -> str:
        """Rounded half-up by the site's shared formatter (reportgen.i18n); a value that
        rounds to zero is "0,0", never "−0,0"."""
        return self.tr.rounded(value, self.PLACES if places is None else places)

    def integer(self, value: int | None) -> str:
        """A count, grouped by thousands ("73.171" / "73,171")."""
        return DASH if value is None else self.tr.integer(value)

    def real(self, value: float | None, places: int | None = None) -> str:
        """A measured float (a rating, a statistic), rounded half-up on its shortest repr."""
        if value is None:
            return DASH
        return self.decimal(Decimal(repr(value)), self.REAL_PLACES if places is None else places)

    def as_declared(self, value: str | Decimal | Fraction | float | None) -> str:
        """A declared number (a tolerance, an answer key, α) with the decimals it was
        given, or for a fraction the fewest that write it exactly."""
        return DASH if value is None else self.tr.as_declared(value)

    def interval(self, lo: str, hi: str) -> str:
        return self.t("number.interval", lo=lo, hi=hi)

    def yes_no(self, value: bool | None) -> str:
        return DASH if value is None else self.t("word.yes" if value else "word.no")

    def date(self, value: date) -> str:
        return self.tr.date(value)

    def block(
        self,
        table_id: str,
        caption: str,
        header: Sequence[str],
        rows: Sequence[Sequence[str | Cell]],
        *,
        numeric_from: int = 1,
        notes: Sequence[str] = (),
        sticky: int = 0,
    ) -> TableBlock:
        """A table with its CSV and the download label. A body cell is text (a name, a
        label: the CSV writes it as shown) or a `Cell` carrying its value, which the CSV
        writes in full precision, and perhaps a tooltip (the exact fraction). Columns from
        `numeric_from` on are numeric; the column `sticky` (the one that names a row) stays
        in view while a phone scrolls the rest."""
        head = tuple(Cell(h, numeric=i >= numeric_from) for i, h in enumerate(header))
        body = tuple(
            tuple(_body_cell(c, numeric=i >= numeric_from) for i, c in enumerate(row))
            for row in rows
        )
        table = Table(table_id, caption, head, body, notes=tuple(notes), sticky_column=sticky)
        csv = to_csv(tuple(header), [tuple(cell_download(c) for c in row) for row in body])
        return TableBlock(table, f"{table_id}.csv", self.t("table.csv"), csv)


def _body_cell(cell: str | Cell, *, numeric: bool) -> Cell:
    return Cell(cell, numeric=numeric) if isinstance(cell, str) else replace(cell, numeric=numeric)


def synthetic_notice(text: KindText, body: str | None = None) -> Notice:
    """The banner of synthetic data: the kind's `notice.synthetic.title`, and `body` or
    its `notice.synthetic.body`."""
    shown = text.t("notice.synthetic.body") if body is None else body
    return Notice(Markup("rg-synthetic"), text.t("notice.synthetic.title"), shown)


def paragraph(text: str) -> Markup:
    """Plain text as a Markdown paragraph (escaped)."""
    return escape_markdown(text)


def bullets(lines: Sequence[Markup | str]) -> Markup:
    """A Markdown list; a line that is not Markup is data (escaped)."""
    return Markup(
        "\n".join(
            f"- {line if isinstance(line, Markup) else escape_markdown(line)}" for line in lines
        )
    )


def code(value: str) -> Markup:
    """A hash or identifier shown as code (escaped)."""
    return Markup(f"<code>{escape(value)}</code>")


def in_language(text: str, language: str, *, block: bool = False) -> Markup:
    """Text in an element that says its language (`lang="zh"`)."""
    tag = "div" if block else "span"
    return Markup(f'<{tag} lang="{escape(language)}">{escape(text)}</{tag}>')
