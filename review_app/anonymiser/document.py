"""A text as the anonymiser (review_app.anonymiser.anonymise) reads it: folded, with where its
self-identifying cues end and where a table's column of people holds a name, found on first
need."""

from __future__ import annotations

import re
import unicodedata
from functools import cached_property

from review_app.anonymiser.cues import cue_ends
from review_app.anonymiser.layout import identity_cells, person_cells
from review_app.anonymiser.scripts import is_cjk, latin_look_alike
from review_app.anonymiser.textfold import FoldedText


class Document(FoldedText):
    """A folded text and what the scrubber learns of it while deciding its names."""

    # Given names written with a surname somewhere in the text ("Claude Marchand"): a person's
    # wherever else they are written alone. Set by the scrubber before names are decided.
    people: frozenset[str] = frozenset()
    # Where known names other than companies start: a passive "was trained by" counts after
    # one ("O Gemini foi treinado pelo Google"). Set by the scrubber before names are decided.
    name_starts: tuple[int, ...] = ()

    @cached_property
    def cue_ends(self) -> frozenset[int]:
        """Where a self-identifying cue ends ("sou o |Claude"), and a table's identity cell
        starts ("| Assistente | Conselho |" over "| |Gemini |")."""
        return cue_ends(self.folded, self.name_starts) | frozenset(identity_cells(self.folded))

    @cached_property
    def person_cells(self) -> frozenset[int]:
        """Where the cells of a table's column of people start ("| Aluno |" over "| |Claude |")."""
        return frozenset(person_cells(self.folded))

    @cached_property
    def _has_letter_forms(self) -> bool:
        return _LETTER_FORMS.search(self.original) is not None or not self.original.isascii()

    def in_letter_forms(self, start: int, end: int) -> bool:
        """Whether the name at folded[start:end] is written in letters of another form that
        a reader reads as plain ones: fullwidth ("Ｇｅｍｉｎｉ"), mathematical ("𝐆𝐞𝐦𝐢𝐧𝐢"),
        circled; a look-alike letter of another alphabet ("ꓚortana", "Ƅaichuan") or a Kangxi
        radical for an ideograph ("⾖包"). Nobody writes a word so but to hide it; fullwidth
        Latin is ordinary in Chinese text, where it counts only as a name does."""
        if not self._has_letter_forms:
            return False
        first, last = self.original_span(start, end)
        written = self.original[first:last]
        if not any(map(_is_letter_form, written)):
            return False
        near = self.original[max(0, first - 20) : last + 20]
        return _FULLWIDTH.search(written) is None or not any(is_cjk(c) for c in near)


# Letter forms that NFKC reads as ASCII letters: letterlike symbols, enclosed and fullwidth
# letters, mathematical alphanumerics, squared and circled capitals.
_LETTER_FORMS = re.compile(
    "[\u2100-\u214f\u2460-\u24ff\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff"
    "\U0001f130-\U0001f189]"
)
_FULLWIDTH = re.compile("[\uff01-\uff5e]")


def _is_letter_form(character: str) -> bool:
    if character.isascii():
        return False
    return (
        unicodedata.normalize("NFKC", character).isascii()
        or latin_look_alike(character) is not None
        or "\u2e80" <= character <= "\u2fdf"
    )
