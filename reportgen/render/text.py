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
from reportgen.render.table import (
    Cell,
    Estimate,
    Table,
    ValueText,
    cell_download,
    escape_markdown,
    to_csv,
)

# A value that does not exist: shown as a dash, an empty field in a table's CSV.
DASH: str = ValueText(MISSING, None)


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
        shown = self.tr.rounded(value, self.PLACES if places is None else places)
        return ValueText(shown, value if isinstance(value, Fraction) else Fraction(value))

    def integer(self, value: int | None) -> str:
        """A count, grouped by thousands ("73.171" / "73,171")."""
        return DASH if value is None else ValueText(self.tr.integer(value), value)

    def real(self, value: float | None, places: int | None = None) -> str:
        """A measured float (a rating, a statistic), rounded half-up on its shortest repr."""
        if value is None:
            return DASH
        shown = self.decimal(Decimal(repr(value)), self.REAL_PLACES if places is None else places)
        return ValueText(shown, value)

    def as_declared(self, value: str | Decimal | Fraction | float | None) -> str:
        """A declared number (a tolerance, an answer key, α) with the decimals it was
        given, or for a fraction the fewest that write it exactly."""
        return DASH if value is None else ValueText(self.tr.as_declared(value), _declared(value))

    def interval(self, lo: str, hi: str) -> str:
        return self.t("number.interval", lo=lo, hi=hi)

    def yes_no(self, value: bool | None) -> str:
        if value is None:
            return DASH
        return ValueText(self.t("word.yes" if value else "word.no"), value)

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
        """A table with its CSV and the download label. A body cell is text, a number's
        `ValueText` or a `Cell` (with a tooltip, say): the CSV writes each cell's value in
        full precision (a column of estimates as three columns: the value and its bounds),
        and text (a name, a label) as shown; never a rounded or localized number. Columns
        from `numeric_from` on are numeric; the column `sticky` (the one that names a row)
        stays in view while a phone scrolls the rest."""
        head = tuple(Cell(h, numeric=i >= numeric_from) for i, h in enumerate(header))
        body = tuple(
            tuple(_body_cell(c, numeric=i >= numeric_from) for i, c in enumerate(row))
            for row in rows
        )
        table = Table(table_id, caption, head, body, notes=tuple(notes), sticky_column=sticky)
        return TableBlock(table, f"{table_id}.csv", self.t("table.csv"), self._csv(header, body))

    def _csv(self, header: Sequence[str], body: Sequence[Sequence[Cell]]) -> str:
        widths = [
            3 if any(isinstance(row[i].value, Estimate) for row in body) else 1
            for i in range(len(header))
        ]
        names: list[str] = []
        for name, width in zip(header, widths, strict=True):
            names.append(name)
            if width == 3:
                names += [self.t(f"table.column_{end}", column=name) for end in ("lo", "hi")]
        rows = [
            tuple(
                f
                for cell, width in zip(row, widths, strict=True)
                for f in cell_download(cell, width)
            )
            for row in body
        ]
        return to_csv(tuple(names), rows)


def _declared(value: str | Decimal | Fraction | float) -> Fraction | float | str:
    """A declared number's value: as written when it is text ("0.01"), else exact."""
    return Fraction(value) if isinstance(value, Decimal) else value


def _body_cell(cell: str | Cell, *, numeric: bool) -> Cell:
    if isinstance(cell, Cell):
        return replace(cell, numeric=numeric)
    return Cell.of(cell, numeric=numeric)


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
