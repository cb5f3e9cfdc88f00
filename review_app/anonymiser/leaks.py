"""The leak report: what still looks like self-identification in a scrubbed text.

The scrubber (anonymiser.anonymise) removes the names it knows. What it cannot know (a new
model's name, a version number left alone, a company mentioned in passing) is flagged here
so that an administrator can read the sample and hold it back before a batch goes out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from review_app.anonymiser.anonymise import CUES, MARKER, Scrubber
from review_app.anonymiser.cues import NAME_CUES
from review_app.anonymiser.scripts import WORD, mixed_script_words
from review_app.anonymiser.textfold import FoldedText

Reason = Literal[
    "self_identification",
    "domain",
    "version",
    "name_word",
    "mixed_script",
    "confusable",
    "unresolved_introduction",
]
REASONS: tuple[Reason, ...] = (
    "self_identification",
    "domain",
    "version",
    "name_word",
    "mixed_script",  # a word mixing Latin with Cyrillic or Greek letters ("Сlaude")
    "confusable",  # a word written wholly in look-alikes of Latin letters ("ОреnАІ")
    "unresolved_introduction",  # "my name is ...", "我叫..." with a name the scrubber left
)

_WORD = WORD
# Version-like tokens (on folded text): "5.4-mini", "v3", "70b", "8x7b", "4o", and any number
# glued to the marker ("[SISTEMA]-2", "[SISTEMA] 3.5"), and jury labels ("sistema 07").
_VERSION = re.compile(
    rf"(?<!{_WORD})(?:\d+(?:\.\d+)+[-_ ]?(?:mini|nano|flash|pro|turbo|lite|max|plus|instruct"
    r"|preview|o)|v\d+(?:\.\d+)*|\d+(?:x\d+)?b|\d+o)"
    rf"(?!{_WORD})"
    rf"|(?<=\[sistema\])[\s\-_.:]?\d[\w.]*"
    # A jury label the scrubber left ("sistema 07" in lower case): it may name a participant.
    rf"|(?<![{_WORD[1:-1]}\[])sistema[\s\-_.:#]?\d{{1,3}}(?!{_WORD})"
)
_DOMAIN = re.compile(
    rf"(?<![{_WORD[1:-1]}@.-])[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*"
    r"\.(?:com|ai|org|net|io|co|cn|dev|app|chat|tech|br|gov)"
    rf"(?!{_WORD})"
    r"|\[sistema\]\.[a-z]{2,4}\b"
)
# A cue of self-identification followed by a capitalised word: "Sou o Zorblax", "I'm Aria".
_CUE = re.compile(
    rf"(?:(?<!{_WORD})(?:{'|'.join(CUES)})\s+(?:(?:o|a|um|uma|the|an)\s+)?|(?:我是|我叫)\s*)"
    r"(?:[*_`'\"\[(]|<[a-z]+>)*"
)
_CAPITALISED = re.compile(r"[^\W\d_][\w\-]*(?:\.[\w\-]+)*")
# "My name is ..." says a name follows, whatever its case; "我叫..." and "我的名字是..." too.
_NAME_CUE = re.compile(
    rf"(?<!{_WORD})(?:{'|'.join(NAME_CUES)})\s+(?:[*_`'\"\[(]|<[a-z]+>)*(?P<name>{_WORD}+)"
    r"|(?:我叫|我的名字是|我的名字叫)(?P<cjk>[^\s，,。！？!?、的]{1,8})"
)
_NOT_NAMES = frozenset(["not", "no", "nothing", "unimportant", "irrelevant", "secret"])
_NUMBER_AFTER = re.compile(r"[\s\-]?\d")
_NEAR = 200  # characters looked back for the start of a sentence
_ORDINALS = "ºª"  # "1º" folds to "1o": an ordinal, not the "o" of "GPT-4o"


@dataclass(frozen=True)
class Suspicion:
    """Something in a scrubbed text that may still reveal the model behind it."""

    text_index: int  # which of the texts given to leak_report
    start: int  # span in that text
    end: int
    fragment: str  # the text of the span
    reason: Reason


def leak_report(texts: Sequence[str], scrubber: Scrubber | None = None) -> list[Suspicion]:
    """Suspicions in `texts` (already scrubbed), in text order. `scrubber`, the one that
    scrubbed them, tells which surviving words are names in some uses."""
    scrubber = scrubber or Scrubber(())
    found: list[Suspicion] = []
    for index, text in enumerate(texts):
        document = FoldedText(text)
        spans = sorted(
            {
                *_self_identifications(document),
                *_by_pattern(document, _DOMAIN, "domain"),
                *_versions(document),
                *_name_words(document, scrubber),
                *_scripts(text),
                *_unresolved_introductions(document),
            }
        )
        found += [Suspicion(index, start, end, text[start:end], why) for start, end, why in spans]
    return found


def suspicious_samples(
    samples: Mapping[str, Sequence[str]], scrubber: Scrubber | None = None
) -> dict[str, list[Suspicion]]:
    """For the admin page: each sample code with suspicions, with them (text_index is the
    position in that sample's texts, e.g. 0 the prompt and 1 the output)."""
    report: dict[str, list[Suspicion]] = {}
    for code, texts in samples.items():
        suspicions = leak_report(texts, scrubber)
        if suspicions:
            report[code] = suspicions
    return report


def _by_pattern(
    document: FoldedText, pattern: re.Pattern[str], why: Reason
) -> Iterable[tuple[int, int, Reason]]:
    for match in pattern.finditer(document.folded):
        yield (*document.original_span(match.start(), match.end()), why)


def _versions(document: FoldedText) -> Iterable[tuple[int, int, Reason]]:
    for start, end, why in _by_pattern(document, _VERSION, "version"):
        if document.original[end - 1] not in _ORDINALS:
            yield start, end, why


def _self_identifications(document: FoldedText) -> Iterable[tuple[int, int, Reason]]:
    original = document.original
    for match in _CUE.finditer(document.folded):
        if match.end() >= len(document.folded):
            continue
        start = document.original_index(match.end())
        word = _CAPITALISED.match(original, start)
        if word is None or not word.group()[0].isupper() or word.group() == "I":
            continue
        if original.startswith(MARKER, start - 1):  # "[SISTEMA]": already scrubbed
            continue
        yield start, word.end(), "self_identification"


def _unresolved_introductions(document: FoldedText) -> Iterable[tuple[int, int, Reason]]:
    """A name announced but left by the scrubber, which masks a name in no list only when the
    sentence says what it is: "my name is aria", "我叫小智"."""
    for match in _NAME_CUE.finditer(document.folded):
        group = "name" if match.group("name") is not None else "cjk"
        start, end = document.original_span(match.start(group), match.end(group))
        if match.group(group) in _NOT_NAMES or document.original[start].isupper():
            continue  # capitalised: flagged as self_identification already
        if not document.original.startswith(MARKER, start - 1):
            yield start, end, "unresolved_introduction"


def _scripts(text: str) -> Iterable[tuple[int, int, Reason]]:
    """Words in look-alike letters that the scrubber folded but did not find a name in."""
    for start, end, mixed in mixed_script_words(text):
        yield start, end, "mixed_script" if mixed else "confusable"


def _name_words(document: FoldedText, scrubber: Scrubber) -> Iterable[tuple[int, int, Reason]]:
    """Words that are names in some uses, left by the scrubber: flagged when capitalised
    inside a sentence ("a Meta lançou") or followed by a number ("Llama 3")."""
    original = document.original
    for start, end in scrubber.ambiguous_words(original):
        numbered = re.search(r"\d", original[start:end]) is not None
        numbered = numbered or _NUMBER_AFTER.match(original, end) is not None
        before = original[max(0, start - _NEAR) : start].rstrip()
        starts_sentence = not before or before[-1] in ".!?:\n" or before.endswith(MARKER)
        if numbered or (original[start].isupper() and not starts_sentence):
            yield start, end, "name_word"
