"""The report's words and numbers in one language.

Labels come from this kind's catalogues (`locales/<language>.json`, flat keys; a missing
key is an error, never a fallback). Numbers are the exact values rounded half-up to 2
decimals (rates as percentages with 1), then written in the language's format; each
score comes with its 95% interval and n. Dates use the core `Translator`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import cache

from markupsafe import Markup, escape

from reportgen.i18n import SITE_LANGUAGES, MissingMessageError, Translator, read_catalogue
from reportgen.kinds.multidomain.render.page_types import TableBlock
from reportgen.kinds.multidomain.results import Exact, SliceScore
from reportgen.render.table import Cell, Table, escape_markdown, to_csv

DASH = "–"


@cache
def catalogue(language: str) -> Mapping[str, str]:
    if language not in SITE_LANGUAGES:
        raise MissingMessageError(f"no multidomain catalogue for language {language!r}")
    return read_catalogue(__name__.rpartition(".")[0], f"locales/{language}.json")


@dataclass(frozen=True)
class Text:
    """Catalogue text and number formats of one language."""

    language: str

    @property
    def tr(self) -> Translator:
        return Translator(self.language)

    def t(self, key: str, **params: object) -> str:
        messages = catalogue(self.language)
        if key not in messages:
            raise MissingMessageError(
                f"multidomain locales/{self.language}.json: missing message key {key!r}"
            )
        return messages[key].format(**params) if params else messages[key]

    def tm(self, key: str, **params: object) -> Markup:
        """A catalogue message holding Markdown; its parameters are data (escaped)."""
        safe = {k: v if isinstance(v, Markup) else escape_markdown(v) for k, v in params.items()}
        return Markup(self.t(key, **safe))

    def pick(self, value: Mapping[str, str]) -> str:
        return self.tr.pick(value)

    def decimal(self, value: Decimal | Fraction, places: int = 2) -> str:
        """Rounded half-up by the site's shared formatter (reportgen.i18n)."""
        return self.tr.rounded(value, places)

    def integer(self, value: int | None) -> str:
        """A count, grouped by thousands ("73.171" / "73,171")."""
        return DASH if value is None else self.tr.integer(value)

    def as_declared(self, value: str | Decimal | float | None) -> str:
        """A declared number (a tolerance, an answer key) with the decimals it was given."""
        return DASH if value is None else self.tr.as_declared(value)

    def exact(self, value: Exact | None, places: int = 2) -> str:
        return DASH if value is None else self.decimal(value.fraction, places)

    def rate(self, value: Exact | None) -> str:
        """A rate in [0, 1] as a percentage with one decimal."""
        if value is None:
            return DASH
        return self.exact(Exact.of(value.fraction * 100), 1) + "%"

    def real(self, value: float | None, places: int = 2) -> str:
        return DASH if value is None else self.decimal(Decimal(repr(value)), places)

    def interval(self, lo: str, hi: str) -> str:
        return self.t("number.interval", lo=lo, hi=hi)

    def score(self, value: SliceScore | None) -> str:
        """score [lo, hi] (or a dash for an undefined slice)."""
        if value is None or value.score is None:
            return DASH
        shown = self.exact(value.score)
        if value.lo is None or value.hi is None:
            return shown
        return f"{shown} {self.interval(self.exact(value.lo), self.exact(value.hi))}"

    def rating(self, value: float | None, lo: float | None, hi: float | None) -> str:
        """A rating [lo, hi], or "not estimable" (Bradley-Terry)."""
        if value is None:
            return self.t("number.not_estimable")
        if lo is None or hi is None:
            return self.real(value)
        return f"{self.real(value)} {self.interval(self.real(lo), self.real(hi))}"

    def date(self, value: date) -> str:
        return self.tr.date(value)

    def block(
        self,
        table_id: str,
        caption: str,
        header: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        numeric_from: int = 1,
        notes: Sequence[str] = (),
        sticky: int = 0,
    ) -> TableBlock:
        """A table with its CSV (the cells as shown) and the download label; the column
        `sticky` (the one that names a row) stays in view while a phone scrolls the rest."""
        head = tuple(Cell(h, numeric=i >= numeric_from) for i, h in enumerate(header))
        body = tuple(
            tuple(Cell(c, numeric=i >= numeric_from) for i, c in enumerate(row)) for row in rows
        )
        table = Table(table_id, caption, head, body, notes=tuple(notes), sticky_column=sticky)
        csv = to_csv(tuple(header), [tuple(row) for row in rows])
        return TableBlock(table, f"{table_id}.csv", self.t("table.csv"), csv)


def paragraph(text: str) -> Markup:
    """Plain text as a Markdown paragraph (escaped)."""
    return escape_markdown(text)


def bullets(lines: Sequence[Markup | str]) -> Markup:
    return Markup(
        "\n".join(
            f"- {line if isinstance(line, Markup) else escape_markdown(line)}" for line in lines
        )
    )


def in_language(text: str, language: str, *, block: bool = False) -> Markup:
    """An item's own text in an element that says its language (`lang="zh"`)."""
    tag = "div" if block else "span"
    return Markup(f'<{tag} lang="{escape(language)}">{escape(text)}</{tag}>')
