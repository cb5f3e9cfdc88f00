"""The terms every page of the counterfactual spec uses (counterfactual-round.md).

Words (the project's `guard.words`), exact rationals, hashes, the battery's identity,
the round's signal terms and the canonical spelling of extracted values. Verify, the
rules, the statistics, the demonstration generator and the site all use these, so that
each rule means one thing everywhere.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

from reportgen.guard import words as guard_words
from reportgen.kinds.counterfactual.model import NA, Attribute, Group, Round, Variable, Variant
from reportgen.model import Interpretation

# The battery files, in the (alphabetical) order `sha256sum` lists them; rewrites.csv
# only when present.
BATTERY_FILES: tuple[str, ...] = (
    "attributes.csv",
    "groups.csv",
    "rewrites.csv",
    "templates.csv",
    "variables.csv",
    "variants.csv",
)
OPTIONAL_BATTERY_FILES: frozenset[str] = frozenset({"rewrites.csv"})
EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()  # tools_sha256 of a system with no tools
BINARY_VALUES: tuple[str, ...] = ("yes", "no", NA)

_HASH = re.compile(r"[0-9a-f]{64}")
_RATIONAL = re.compile(r"-?(?:\d+(?:\.\d+)?|\d+/\d+)")
_CANONICAL_INT = re.compile(r"0|[1-9][0-9]*")
_CANONICAL_SIGNED = re.compile(r"0|-?[1-9][0-9]*")
_SLOT = re.compile(r"\{([^{}]*)\}")
SLOT_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def words(text: str) -> list[str]:
    """re.findall(r"[^\\W_]+", NFKC(text).casefold()): the project's `guard.words`."""
    return guard_words(text)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def is_sha256(value: str) -> bool:
    return _HASH.fullmatch(value) is not None


def read_rational(value: object) -> Fraction | None:
    """A rational read exactly from a JSON string: a decimal "0.05" or a fraction "1/20"
    (a leading "-" is read, so that a range check can say what was wrong). None for
    anything else: a JSON number (int or float), a malformed string, a zero denominator."""
    if not isinstance(value, str) or _RATIONAL.fullmatch(value) is None:
        return None
    try:
        return Fraction(value)
    except ZeroDivisionError:
        return None


def rational_text(value: Fraction) -> str:
    """How a rational is written back: an integer "1", a finite decimal "0.05" when the
    value has one, otherwise a fraction "1/3". `read_rational` reads it back exactly."""
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value) * 10**places
    digits = str(scaled.numerator).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def sha256sum_output(files: Sequence[tuple[str, bytes]]) -> bytes:
    """The exact bytes `sha256sum f1 f2 ...` prints: `<64 hex>  <name>\\n` per file."""
    return b"".join(
        f"{hashlib.sha256(data).hexdigest()}  {name}\n".encode() for name, data in files
    )


def battery_sha256(files: Mapping[str, bytes]) -> str:
    """SHA-256 of `sha256sum attributes.csv groups.csv [rewrites.csv] templates.csv
    variables.csv variants.csv`. `files` maps each present battery file name to its exact
    bytes; rewrites.csv is listed only when it is in `files`."""
    listed = [(name, files[name]) for name in BATTERY_FILES if name in files]
    return hashlib.sha256(sha256sum_output(listed)).hexdigest()


def slots_in(text: str) -> list[str]:
    """The `{slot}` names of a text, in order (with repeats)."""
    return _SLOT.findall(text)


def has_stray_brace(text: str) -> bool:
    """A `{` or `}` that is not part of a well-formed `{slot}`."""
    rest = _SLOT.sub("", text)
    return "{" in rest or "}" in rest


def fill(text: str, values: Mapping[str, str]) -> str:
    """Replace every `{slot}` by `values[slot]` (every slot must be in `values`)."""
    return _SLOT.sub(lambda match: values[match.group(1)], text)


# --- signal terms (blindness) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignalTerm:
    """A string no masked text may contain, and where it comes from."""

    term: str
    attribute_id: str
    variant_id: str | None  # None for an attribute's held_value
    words: tuple[str, ...]


def battery_signal_terms(
    attributes: Iterable[Attribute], groups: Iterable[Group], variants: Iterable[Variant]
) -> tuple[SignalTerm, ...]:
    """Every variant's non-empty value (not writing_style labels), every mask term and
    every non-empty held_value. Terms without a word are left out: they cannot occur."""
    attribute_of = {group.group_id: group.attribute_id for group in groups}
    found: list[SignalTerm] = []
    for variant in variants:
        attribute_id = attribute_of.get(variant.group_id, "")
        strings = [] if variant.signal == "writing_style" or not variant.value else [variant.value]
        for term in [*strings, *variant.mask_terms]:
            found.append(SignalTerm(term, attribute_id, variant.variant_id, tuple(words(term))))
    for attribute in attributes:
        if attribute.held_value:
            term = attribute.held_value
            found.append(SignalTerm(term, attribute.attribute_id, None, tuple(words(term))))
    return tuple(term for term in found if term.words)


def signal_terms(round_: Round) -> tuple[SignalTerm, ...]:
    return battery_signal_terms(round_.attributes, round_.groups, round_.variants)


def occurs(term_words: Sequence[str], text_words: Sequence[str]) -> bool:
    """Whether `term_words` occurs contiguously in `text_words`."""
    size = len(term_words)
    if size == 0:
        return False
    first = term_words[0]
    return any(
        text_words[i] == first and tuple(text_words[i : i + size]) == tuple(term_words)
        for i in range(len(text_words) - size + 1)
    )


def first_signal_term(text: str, terms: Iterable[SignalTerm]) -> SignalTerm | None:
    """The first of `terms` that occurs in `text`, or None."""
    text_words = words(text)
    return next((term for term in terms if occurs(term.words, text_words)), None)


# --- extracted values ----------------------------------------------------------------


def is_canonical_count(value: str) -> bool:
    """A non-negative decimal integer without sign or leading zeros ("0", "17")."""
    return _CANONICAL_INT.fullmatch(value) is not None


def is_canonical_int(value: str) -> bool:
    """A decimal integer, "-" allowed, no "+" and no leading zeros ("-1", "0", "3")."""
    return _CANONICAL_SIGNED.fullmatch(value) is not None


def value_ok(variable: Variable, value: str) -> bool:
    """Whether `value` is a canonical spelling for `variable` (na included)."""
    if value == NA:
        return True
    if variable.type == "binary":
        return value in BINARY_VALUES
    if variable.type == "count":
        return is_canonical_count(value)
    if variable.scale is None or not is_canonical_int(value):
        return False
    return variable.scale[0] <= int(value) <= variable.scale[1]


def numeric_value(value: str) -> int | None:
    """A count's or score's value as an int; None for na (or a non-canonical spelling)."""
    return int(value) if is_canonical_int(value) else None


def binary_value(value: str) -> bool | None:
    """yes -> True, no -> False, na (or anything else) -> None."""
    return {"yes": True, "no": False}.get(value)


# --- interpretations (counterfactual-metrics.md §12) ----------------------------------


@cache
def interpretations() -> tuple[Interpretation, ...]:
    """The readings every counterfactual archive carries in round.json, in §12's order
    (interpretations.json is §12's list, verbatim)."""
    text = resources.files(__package__).joinpath("interpretations.json").read_text("utf-8")
    return tuple(
        Interpretation(id=entry["id"], topic=entry["topic"], reading=entry["reading"])
        for entry in json.loads(text)
    )


def required_interpretation_ids() -> tuple[str, ...]:
    """The `cf-…` ids round.json's `interpretations` must contain."""
    return tuple(entry.id for entry in interpretations())
