"""Forms of a participant's identity that the scrubber (review_app.anonymiser.anonymise) masks
beyond its names: a kind's own identity columns, the jury's "SISTEMA-07" labels, and text
that a right-to-left override shows backwards."""

from __future__ import annotations

import re
from collections.abc import Iterable

from review_app.anonymiser.textfold import FoldedText

KIND_NAME_ATTRIBUTES = ("organization", "economic_group")
# A right-to-left override or embedding and what it reverses, up to its pop (or the end).
_OVERRIDE_RUN = re.compile("[\u202b\u202e]([^\u202c\u2069\n]*)[\u202c\u2069]?")
# The labels the jury's views give participants ("SISTEMA-07", "sistema_7"; on folded
# text, so fullwidth and zero-width forms too): a reviewer who saw one could match it.
_SYSTEM_LABEL = re.compile(r"(?<![^\W_])sistema(?:[\-_.:#](?:\d{1,3}|[a-z])|\s\d{1,3})(?![^\W_])")


def spans_of_system_labels(document: FoldedText) -> Iterable[tuple[int, int]]:
    """ "SISTEMA-07" and its odd forms; "sistema 2" in running text only in capitals."""
    for match in _SYSTEM_LABEL.finditer(document.folded):
        start, end = document.original_span(match.start(), match.end())
        if match.group()[7].isspace() and not document.original[start:end].startswith("SIS"):
            continue
        yield start, end


def reversed_runs(text: str) -> Iterable[tuple[int, int, str]]:
    """Each right-to-left override run of `text`: its span and its text as shown."""
    for run in _OVERRIDE_RUN.finditer(text):
        yield run.start(), run.end(), run.group(1)[::-1]
