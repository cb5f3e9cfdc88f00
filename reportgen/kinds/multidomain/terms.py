"""The terms every page of the multidomain spec uses (multidomain-round.md, "Definitions").

Canonical JSON, sha256, the seeded rank key, exact thresholds, the item sets (test,
bank, superseded, active, scored), the ledger as of a date, jury-scored responses,
language matching and the CJK-aware tokeniser. Verify, the statistics, the demonstration
generator, the pages and the leak guard all use these, so that each rule means one thing
everywhere.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import date
from fractions import Fraction

from reportgen.kinds.multidomain.model import Item, Response, Round

# Every CJK ideograph is a token by itself (multidomain-round.md, tokens(t)).
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f\U00030000-\U000323af"
# A run is of word characters other than "_" and the ideographs: one class, which matches
# the same characters as a look-ahead for an ideograph before each of them, faster.
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_THRESHOLD = re.compile(r"-?\d+(?:/\d+)?|-?\d+\.\d+")


def canonical_json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rank_key(seed: int, *parts: str) -> str:
    """rk(seed, p1, ..., pk) = sha256(str(seed) + ":" + p1 + ":" + ... + ":" + pk)."""
    return sha256_text(":".join((str(seed), *parts)))


def seeded_order(seed: int, keys: Iterable[Sequence[str]]) -> list[tuple[str, ...]]:
    """`keys` sorted by (rk(seed, *key), key) ascending."""
    return sorted((tuple(key) for key in keys), key=lambda key: (rank_key(seed, *key), key))


def read_threshold(value: object) -> Fraction | None:
    """A rational threshold read exactly: a JSON int, or a string "n", "n/d" or "0.6";
    None for anything else (a JSON float included)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str) and _THRESHOLD.fullmatch(value):
        try:
            return Fraction(value)
        except ZeroDivisionError:
            return None
    return None


def threshold_text(value: Fraction) -> str:
    """The canonical way to write a threshold back ("3/2", "1")."""
    return str(value)


def tokens(text: str) -> list[str]:
    """NFKC, casefold, then runs of letters/digits, every CJK ideograph on its own."""
    return normalised_tokens(unicodedata.normalize("NFKC", text).casefold())


def normalised_tokens(text: str) -> list[str]:
    """tokens() of a text that `normalise` gave (NFKC and casefold already done)."""
    return _TOKEN.findall(text)


def ngrams(words: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return set(_ngram_tuples(words, n))


def shared_ngrams(grams: set[tuple[str, ...]], words: Sequence[str], n: int) -> int:
    """len(grams & ngrams(words, n)), without building the second set."""
    return len(grams.intersection(_ngram_tuples(words, n)))


def _ngram_tuples(words: Sequence[str], n: int) -> Iterable[tuple[str, ...]]:
    """tuple(words[i : i + n]) for i = 0 .. len(words) - n; zip makes them without a loop
    in Python."""
    if n < 1:
        return (tuple(words[i : i + n]) for i in range(len(words) - n + 1))
    return zip(*(words[i:] for i in range(n)), strict=False)


def normalise(text: str) -> str:
    """NFKC + casefold (canary comparisons)."""
    return unicodedata.normalize("NFKC", text).casefold()


def language_matches(language: str, tag: str) -> bool:
    """Item language L matches tag A when L == A or L starts with A + "-"."""
    return language == tag or language.startswith(tag + "-")


def languages_agree(a: str, b: str) -> bool:
    """Equal, or one a prefix subtag of the other (language compliance, metrics §6)."""
    return language_matches(a, b) or language_matches(b, a)


def ceil_fraction(value: Fraction) -> int:
    return math.ceil(value)


# --- item sets ------------------------------------------------------------------------


def test_items(items: Iterable[Item]) -> list[Item]:
    return [item for item in items if not item.calibration]


def superseded_ids(items: Iterable[Item]) -> frozenset[str]:
    return frozenset(item.variant_of for item in items if item.variant_of is not None)


def active_items(items: Sequence[Item]) -> list[Item]:
    """Test items that no item replaces (annulments ignored)."""
    replaced = superseded_ids(items)
    return [item for item in test_items(items) if item.item_id not in replaced]


def scored_items(round_: Round) -> list[Item]:
    """Active items not annulled in the ledger (any source), in `order`."""
    annulled = round_.annulled_item_ids
    kept = [item for item in active_items(round_.items) if item.item_id not in annulled]
    return sorted(kept, key=lambda item: (item.order or 0, item.item_id))


def round_as_of(round_: Round, as_of: date) -> Round:
    """The round as a build speaking for `as_of` knows it: only the ledger lines decided on
    or before that date. A later decision (a contestation upheld after the items are
    published) is not known yet, so neither the pages nor the scores may show it."""
    kept = tuple(line for line in round_.annulments if line.decided_on <= as_of)
    return round_ if len(kept) == len(round_.annulments) else replace(round_, annulments=kept)


def ledger_digest(round_: Round) -> str:
    """sha256 of the ledger lines the round holds (after `round_as_of`, unlike the file's
    `ledger_sha256`): what the results depend on, so part of their cache key."""
    lines = [
        [a.item_id, a.decided_on.isoformat(), a.source, a.ref, a.prev_sha256]
        for a in round_.annulments
    ]
    return sha256_text(canonical_json(lines))


def is_scored_response(response: Response) -> bool:
    """Counts for points: `ok`, or discarded after being scored."""
    return response.status == "ok" or (
        response.status == "discarded_personal_data" and response.scored_before_discard is True
    )


def is_jury_scored(item: Item, response: Response) -> bool:
    """A response the jury scores: to an open item, and scored (see is_scored_response)."""
    return item.type == "open" and is_scored_response(response)


def bank_sha256(items: Iterable[Item]) -> str:
    """sha256 of "item_id\\tcontent_sha256\\n" lines of every test item, by item_id."""
    lines = sorted((item.item_id, item.content_sha256) for item in items if not item.calibration)
    return sha256_text("".join(f"{item_id}\t{digest}\n" for item_id, digest in lines))


def content_sha256(item: Item) -> str:
    """The item's content hash as the spec defines it."""
    return sha256_text(
        canonical_json(
            {
                "answer_key": item.answer_key,
                "choices": item.choices,
                "domain_id": item.domain_id,
                "grade": item.grade,
                "justification": item.justification,
                "language": item.language,
                "prompt": item.prompt,
                "reference": item.reference,
                "rubric_id": item.rubric_id,
                "tolerance_abs": item.tolerance_abs,
                "type": item.type,
                "unit": item.unit,
            }
        )
    )
