"""A text as the anonymiser (review_app.anonymise) reads it: folded, with where its
self-identifying cues end and where a table's column of people holds a name, found on first
need."""

from __future__ import annotations

from functools import cached_property

from review_app.anon_cues import cue_ends
from review_app.anon_layout import identity_cells, person_cells
from review_app.textfold import FoldedText


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
