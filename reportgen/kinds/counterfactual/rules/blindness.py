"""Refusal 41: a model extractor's or judge's input holds no signal term of the round.

A term (a variant's value, a mask term, a held value; terms.battery_signal_terms)
occurs when its words occur contiguously in the text's words (terms.words: NFKC,
casefold, runs of letters and digits). That is the spec's floor, and this check reads
every text that way first. It then reads the text as a person or a model would see it,
and refuses a term found in any of these readings:

- format characters (Unicode category Cf: zero-width spaces and joiners, bidi controls,
  soft hyphens, ...) deleted: they are invisible, so "Ma<U+200B>ria" reads "Maria", while
  the words of the text as written would split it in two;
- markup tags (`<...>`) deleted and, separately, read as a space, after HTML character
  references are decoded: "<b>Ma</b>ria" reads "Maria" and "Maria<br>do Socorro" reads
  "Maria do Socorro", while the words as written hold "b" and "br" in between.

Fullwidth letters are folded by NFKC and case by casefold in every reading. What no
reading can see (a respelled name, gendered agreement) is the review app's mask audit.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from functools import cache

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.rules._index import RoundIndex, extraction_path
from reportgen.kinds.counterfactual.terms import SignalTerm, signal_terms, words

_TAG = re.compile(r"<[^<>]*>")


@cache
def _is_format(char: str) -> bool:
    """Whether `char` is a format character (Unicode category Cf)."""
    return unicodedata.category(char) == "Cf"


def _visible(text: str) -> str:
    """`text` with its format characters deleted. Each distinct character is looked up
    once per process; a text without any (nearly all) is returned as it is."""
    if text.isascii() or not any(_is_format(char) for char in set(text)):
        return text
    return "".join(char for char in text if not _is_format(char))


def readings(text: str) -> Iterator[list[str]]:
    """The words of `text` as written, then as read (see the module's docstring); a
    reading equal to one before it is skipped."""
    yield words(text)
    visible = _visible(text)
    if visible != text:
        yield words(visible)
    if "<" in visible or "&" in visible:
        decoded = html.unescape(visible)
        for joined in (_TAG.sub("", decoded), _TAG.sub(" ", decoded)):
            if joined != visible:
                yield words(joined)


class TermMatcher:
    """Finds a term's words as a contiguous run of a text's words in one pass: terms are
    indexed by their first word, so each text word costs one dict lookup."""

    def __init__(self, terms: Iterable[SignalTerm]) -> None:
        self._by_first: dict[str, list[tuple[tuple[str, ...], SignalTerm]]] = defaultdict(list)
        for term in terms:
            term_words = tuple(words(_visible(term.term)))
            if term_words:
                self._by_first[term_words[0]].append((term_words, term))

    def find(self, text: str) -> SignalTerm | None:
        """The first signal term any reading of `text` holds, or None."""
        for text_words in readings(text):
            found = self._find_in(text_words)
            if found is not None:
                return found
        return None

    def _find_in(self, text_words: Sequence[str]) -> SignalTerm | None:
        for start, word in enumerate(text_words):
            for term_words, term in self._by_first.get(word, ()):
                if tuple(text_words[start : start + len(term_words)]) == term_words:
                    return term
        return None


def term_origin(term: SignalTerm, index: RoundIndex) -> str:
    """Where a signal term comes from, in words."""
    if term.variant_id is None:
        return f"the held value of attribute {term.attribute_id}"
    variant = index.battery.variants_by_id.get(term.variant_id)
    kind = "value" if variant is not None and variant.value == term.term else "a mask term"
    return f"{kind} of variant {term.variant_id}, attribute {term.attribute_id}"


def check_blindness(round_: Round, index: RoundIndex, problems: Problems) -> None:
    matcher = TermMatcher(signal_terms(round_))
    mask_token = round_.manifest.mask_token
    # The verdict depends on the text alone, and a judge's inputs repeat (a battery's
    # answers share phrasings): each distinct text is read once.
    verdicts: dict[str, SignalTerm | None] = {}
    for system in round_.models:
        rows = round_.extractions.get(system.model_id, ())
        entries = []
        for number, row in enumerate(rows, start=1):
            variable = index.variables.get(row.variable_id)
            if row.input_text is None or variable is None or variable.extractor != "model":
                continue
            text = row.input_text
            if text not in verdicts:
                verdicts[text] = matcher.find(text)
            term = verdicts[text]
            if term is None:
                continue
            entries.append(
                (
                    f"row {number} "
                    f"{index.cell_where(row.item_id, row.run, f', variable {row.variable_id}')}"
                    ", input_text",
                    f"judge input containing the signal term {term.term!r} "
                    f"({term_origin(term, index)}): expected it masked with the mask_token "
                    f"{mask_token!r}",
                )
            )
        problems.in_file(extraction_path(system.model_id)).rows(
            entries, "judge inputs containing a signal term"
        )
