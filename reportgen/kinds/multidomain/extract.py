"""The deterministic mcq/calc extractor (Art. 23) that `reportgen freeze` applies.

No judge reads an mcq or calc answer: freeze extracts it from the output text with the
rules below, whose version round.json declares (`multidomain.extractor_version`), and
compares it with the key in exact decimals (`correct`). An answer it cannot read is a
`format_violation` (zero on the item, Art. 23).

- mcq: the capital letter after an answer marker (`Resposta`, `Answer`, `Alternativa`,
  `Letra`, `Option`, `答案`, `选项`, in any case, with or without a colon); else a text
  that is one letter, or that opens with a letter followed by `)` or `.`; the letter
  must be one of the item's `choices`.
- calc: the number after a result marker (`Resposta`, `Resultado`, `Answer`, `Result`,
  `答案`, `结果`); else the text's last number. A comma or a point separates the
  decimals (`60,00` = `60.00`); the number is written canonically (no leading `+`,
  no trailing zeros after the point, no point without decimals: `60.50` -> `60.5`).
"""

from __future__ import annotations

import re
from decimal import Decimal

EXTRACTOR_VERSION = "1.0.0"

_MCQ_MARKER = re.compile(
    r"(?i:Resposta|Answer|Alternativa|Letra|Option|答案|选项)\s*[:：]?\s*\(?([A-Z])(?![A-Za-z])"
)
_MCQ_LEAD = re.compile(r"\s*\(?([A-Z])(?:\s*$|[).](?!\w))")
_NUMBER = r"-?\d+(?:[.,]\d+)?"
_CALC_MARKER = re.compile(
    rf"(?i:Resposta|Resultado|Answer|Result|答案|结果)\s*[:：]?\s*(?:[^\d\s-]{{0,3}}\s*)?({_NUMBER})"
)
_ANY_NUMBER = re.compile(_NUMBER)


def extract_choice(text: str, choices: str) -> str | None:
    """The mcq letter of `text`, or None (a format violation)."""
    marked = _MCQ_MARKER.search(text)
    found = marked or _MCQ_LEAD.match(text)
    if found is None:
        return None
    letter = found.group(1).upper()
    return letter if letter in choices else None


def extract_number(text: str) -> str | None:
    """The calc answer of `text` as a canonical decimal, or None (a format violation)."""
    marked = _CALC_MARKER.search(text)
    if marked is not None:
        raw = marked.group(1)
    else:
        numbers = _ANY_NUMBER.findall(text)
        if not numbers:
            return None
        raw = numbers[-1]
    return canonical_decimal(Decimal(raw.replace(",", ".")))


def canonical_decimal(value: Decimal) -> str:
    """`value` as `-?\\d+(\\.\\d+)?` without trailing zeros (and `0`, never `-0`)."""
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def is_correct(answer: str, key: str, item_type: str, tolerance: str | None) -> bool:
    """mcq: the letter is the key; calc: |answer - key| <= tolerance, in exact decimals."""
    if item_type == "mcq":
        return answer == key
    return abs(Decimal(answer) - Decimal(key)) <= Decimal(tolerance or "0")
