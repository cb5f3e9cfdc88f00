"""Integrity checks (multidomain-metrics.md §8; MD-I13, MD-I14).

Over every response with `raw_text` (superseded and annulled items included):
- full canary: the normalised canary of any test item inside the normalised answer (one
  regex shaped as a trie of all canaries, so each answer is scanned once);
- suspicious canary: no full canary, and the longest common substring of the answer and its
  own item's canary reaches max(`canary_partial_min_chars`, ⌈len / 2⌉) characters;
- 8-gram containment (open items): |G(prompt) ∩ G(answer)| / |G(prompt)|, flagged when
  above `flag_above`, strictly; "not computable" when the prompt has no 8-gram.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.memo import RecentByIdentity
from reportgen.kinds.multidomain.model import Response, Round
from reportgen.kinds.multidomain.terms import (
    ngrams,
    normalise,
    normalised_tokens,
    shared_ngrams,
    tokens,
)


@dataclass(frozen=True)
class CanaryHit:
    canary_item_id: str
    item_id: str
    model_id: str
    run: int
    common_chars: int


@dataclass(frozen=True)
class Containment:
    item_id: str
    model_id: str
    run: int
    shared: int
    total: int  # |G(prompt)|; 0: not computable

    @property
    def value(self) -> Fraction | None:
        return Fraction(self.shared, self.total) if self.total else None

    def flagged(self, above: Fraction) -> bool:
        value = self.value
        return value is not None and value > above


Trie = dict[str, "Trie"]  # "" marks the end of a canary


def _trie_pattern(words: Iterable[str]) -> str:
    """A regex matching any of `words`, shaped as a trie (one scan per text)."""
    trie: Trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def pattern(node: Trie) -> str:
        branches = [
            re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char
        ]
        if "" in node:
            branches.append("")
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    return pattern(trie)


def _common_start(words: Iterable[str]) -> str:
    """The longest string that every word starts with ("" without words): the common start
    of the first and the last in sorted order."""
    listed = list(words)
    if not listed:
        return ""
    first, last = min(listed), max(listed)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def longest_common_substring(a: str, b: str) -> int:
    """Length of the longest common substring (dynamic programming, O(len a x len b))."""
    best = 0
    previous = [0] * (len(b) + 1)
    for char in a:
        current = [0] * (len(b) + 1)
        for j, other in enumerate(b, start=1):
            if char == other:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


def partial_threshold(canary: str, minimum: int) -> int:
    return max(minimum, math.ceil(len(canary) / 2))


def _has_common_substring(text: str, canary: str, length: int) -> bool:
    """Whether some `length`-character piece of `canary` occurs in `text`.

    Every such piece holds one of the canary's aligned blocks of (length + 1) // 2
    characters (those starting at multiples of the block size), so a text that holds no
    block (most texts) is settled with two or three searches instead of one per piece."""
    if not any(block in text for block in _blocks(canary, length)):
        return False
    return any(canary[start : start + length] in text for start in range(len(canary) - length + 1))


@functools.lru_cache(maxsize=4096)
def _blocks(canary: str, length: int) -> tuple[str, ...]:
    """The canary's aligned blocks of (length + 1) // 2 characters (worked out once per
    canary: every answer to its item is searched for them)."""
    block = max(1, (length + 1) // 2)
    return tuple(
        canary[start : start + block] for start in range(0, len(canary) - block + 1, block)
    )


@dataclass(frozen=True)
class IntegrityReport:
    full: tuple[CanaryHit, ...]
    suspicious: tuple[CanaryHit, ...]
    containment: tuple[Containment, ...]
    flag_above: Fraction

    @property
    def full_items(self) -> tuple[str, ...]:
        return tuple(sorted({hit.canary_item_id for hit in self.full}))

    @property
    def flagged(self) -> tuple[Containment, ...]:
        return tuple(c for c in self.containment if c.flagged(self.flag_above))

    @property
    def not_computable(self) -> int:
        return sum(1 for c in self.containment if c.total == 0)


# The reports of the last rounds asked: a site build asks for each round's from the check
# across rounds, the results and the leak guard, with the same items and responses (the
# report does not depend on the ledger, which `terms.round_as_of` cuts).
_RECENT: RecentByIdentity[IntegrityReport] = RecentByIdentity()


def integrity_report(round_: Round) -> IntegrityReport:
    """The integrity checks over every answer of `round_` (computed once per round)."""
    inputs = (round_.manifest, round_.items, round_.models, round_.responses)
    return _RECENT.get(inputs, lambda: _integrity_report(round_))


def _integrity_report(round_: Round) -> IntegrityReport:
    rules = round_.manifest.contamination
    tests = [item for item in round_.items if not item.calibration and item.canary]
    canary_of = {item.item_id: normalise(item.canary or "") for item in tests}
    owner = {canary: item_id for item_id, canary in canary_of.items()}
    finder = re.compile(_trie_pattern(owner)) if owner else None
    # Every canary starts with this: a text without it holds none (most texts, one search).
    prefix = _common_start(owner)
    item_of = {item.item_id: item for item in round_.items}
    prompt_grams = {
        item.item_id: ngrams(tokens(item.prompt), rules.ngram)
        for item in round_.items
        if item.type == "open" and not item.calibration
    }
    full: list[CanaryHit] = []
    suspicious: list[CanaryHit] = []
    containment: list[Containment] = []
    for model in round_.models:
        for response in round_.responses.get(model.model_id, ()):
            if response.raw_text is None:
                continue
            text = normalise(response.raw_text)
            hits = _full_hits(finder, owner, text, response) if prefix in text else []
            full.extend(hits)
            own = canary_of.get(response.item_id)
            if not hits and own:
                partial = _partial_hit(text, own, rules.canary_partial_min_chars, response)
                if partial is not None:
                    suspicious.append(partial)
            item = item_of.get(response.item_id)
            if item is not None and item.item_id in prompt_grams:
                grams = prompt_grams[item.item_id]
                words = normalised_tokens(text)  # tokens(raw_text): text is normalised
                shared = shared_ngrams(grams, words, rules.ngram)
                containment.append(
                    Containment(item.item_id, model.model_id, response.run, shared, len(grams))
                )
    return IntegrityReport(tuple(full), tuple(suspicious), tuple(containment), rules.flag_above)


def _full_hits(
    finder: re.Pattern[str] | None, owner: Mapping[str, str], text: str, response: Response
) -> list[CanaryHit]:
    if finder is None:
        return []
    found = {m.group(0): owner[m.group(0)] for m in finder.finditer(text)}
    return [
        CanaryHit(item_id, response.item_id, response.model_id, response.run, len(canary))
        for canary, item_id in sorted(found.items(), key=lambda kv: kv[1])
    ]


def _partial_hit(text: str, canary: str, minimum: int, response: Response) -> CanaryHit | None:
    needed = partial_threshold(canary, minimum)
    if needed > len(canary) or not _has_common_substring(text, canary, needed):
        return None
    return CanaryHit(
        response.item_id,
        response.item_id,
        response.model_id,
        response.run,
        longest_common_substring(text, canary),
    )
