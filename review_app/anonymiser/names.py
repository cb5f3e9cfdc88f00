"""Known names for the anonymiser (anonymiser.anonymise): their classes and one regex for all.

Every pattern here runs in time linear in the text: digit runs are possessive (a run of
digits is never split between two versions, which made "GPT-" + 24 digits + "xx" take
seconds and double with each digit), and each part of a name's tail is atomic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from review_app.anonymiser.lexicon import NameLexicon
from review_app.anonymiser.scripts import CJK_RANGES, WORD
from review_app.anonymiser.textfold import fold

SEP = r"[\s\-_.:/]?"  # between the parts of a name: "gpt-5.4", "gpt 5.4", "gpt5.4"
# 4, 5.4, 3,5, v3, r1, 4o, 70b, 8x7b. A letter closes a version only when no letter follows,
# so that "5.4mini" is "5.4" and "mini", and "5a6" is read one way only.
VERSION = r"[a-z]?\d++(?:[.,x]\d++)*+(?:[a-z](?![a-z]))?+"
TLDS = r"com|ai|org|net|io|co|cn|dev|app|chat|br|tech|us|uk|fr|de|ca|pt"
# Words of a company's or model's name that name nothing by themselves ("Acme Labs").
_GENERIC_WORDS = frozenset(
    {"labs", "lab", "research", "inc", "ltd", "cloud", "team", "models", "model", "chat", "bot"}
    | {"the", "and", "for", "des", "dos", "das"}
)
KIND_ANYWHERE, KIND_GIVEN, KIND_EVERYDAY, KIND_IN_CONTEXT = (
    "anywhere",
    "given",
    "everyday",
    "in_context",
)
_PARTS = re.compile(r"\d+|[^\W\d_]+")
# What follows a name as its role, never as a surname ("I'm Claude Assistant").
ROLE_WORDS = frozenset(
    {"assistant", "assistente", "asistente", "ai", "ia", "bot", "chatbot", "model", "modelo"}
)


def name_parts(name: str) -> tuple[str, ...]:
    """The folded letter and digit runs of a name: "GPT-5.4 mini" -> gpt, 5, 4, mini."""
    return tuple(_PARTS.findall(fold(name)))


# Cached: a text names the same few names many times, and each is asked of several times.
@lru_cache(maxsize=4096)
def parts_of_folded(folded: str) -> tuple[str, ...]:
    return tuple(_PARTS.findall(folded))


def _stem(parts: tuple[str, ...]) -> tuple[str, ...]:
    """The parts before the first version: "Qwen 3.6 Flash" -> qwen; "DeepSeek V4" -> deepseek."""
    for index, part in enumerate(parts):
        is_v_number = part == "v" and index + 1 < len(parts) and parts[index + 1].isdigit()
        if part.isdigit() or is_v_number:
            return parts[:index]
    return parts


@dataclass(frozen=True)
class Classes:
    """Name patterns (tuples of parts) by how freely they are replaced."""

    anywhere: frozenset[tuple[str, ...]]
    given: frozenset[tuple[str, ...]]
    everyday: frozenset[tuple[str, ...]]
    in_context: frozenset[tuple[str, ...]]  # only in a self-identifying context

    def kind_of(self) -> dict[tuple[str, ...], str]:
        return {
            **dict.fromkeys(self.in_context, KIND_IN_CONTEXT),
            **dict.fromkeys(self.everyday, KIND_EVERYDAY),
            **dict.fromkeys(self.given, KIND_GIVEN),
            **dict.fromkeys(self.anywhere, KIND_ANYWHERE),
        }


def classify(round_: Iterable[str], lexicon: NameLexicon) -> Classes:
    everyday = {name_parts(n) for n in (*lexicon.everyday, *lexicon.companies)}
    given = {name_parts(n) for n in lexicon.given_names}
    anywhere = {name_parts(n) for n in lexicon.distinctive}
    in_context: set[tuple[str, ...]] = set()
    forms_of_round = [name_parts(name) for name in round_]
    # A one-word name the round gives by itself ("Maritaca", "Alibaba"), not only as the stem
    # of a versioned one ("Tuiuiú 2" -> "tuiuiu", "Aurora 4" -> "aurora").
    bare = {parts for parts in forms_of_round if len(parts) == 1}

    def add_single(parts: tuple[str, ...], *, is_stem: bool) -> None:
        # A one-word name of the round is taken as distinctive unless it is a known everyday
        # word or too short to tell ("Yi"): missing a name unblinds, an extra marker does not.
        # A stem the round never gives alone is often a word of the language (a bird, a
        # tree, the dawn: "o ipê amarelo", "a aurora boreal"): it counts where the text
        # names itself or a model, like an everyday word; "Tuiuiú 2" goes anywhere.
        if parts in everyday or parts in given or parts in anywhere:
            return
        is_everyday = len(parts[0]) <= 2 or (is_stem and parts not in bare)
        (everyday if is_everyday else anywhere).add(parts)

    for parts in forms_of_round:
        # A snapshot date ("2026-09-10") names no model, and dates are everywhere.
        if not parts or all(part.isdigit() for part in parts):
            continue
        stem = _stem(parts)
        for form in {parts, stem} - {()}:
            if len(form) == 1:
                if not form[0].isdigit():
                    add_single(form, is_stem=form != parts)
                continue
            if form not in everyday:
                anywhere.add(form)
            if not any(part.isdigit() for part in form):
                # Each word of a phrase ("Muse Spark") names the model in a self-description,
                # but nowhere else: "Kepler-22b" is a planet, not the model "Demo Kepler".
                in_context.update((w,) for w in form if len(w) > 2 and w not in _GENERIC_WORDS)
    everyday -= anywhere | given
    in_context -= anywhere | given | everyday
    return Classes(*(frozenset(kind) for kind in (anywhere, given, everyday, in_context)))


def round_forms(round_: Iterable[str]) -> frozenset[tuple[str, ...]]:
    """The forms of the round's own names and their stems ("GPT 5.4-Mini" -> gpt 5 4 mini,
    gpt): what the review is blind to, so no ordinary use keeps them."""
    forms = {name_parts(name) for name in round_}
    return frozenset(forms | {_stem(parts) for parts in forms}) - {()}


_END = ""  # marks, in a trie node, that a name may end there


def trie_pattern(forms: Iterable[tuple[str, ...]]) -> str:
    """One regex for many names, as a trie: each branch opens with a distinct letter, so
    the regex engine skips most positions with one look-up instead of trying each name."""
    root: dict[str, dict[str, Any]] = {}
    for form in forms:
        node = root
        for index, part in enumerate(form):
            for token in ([SEP] if index else []) + list(part):
                node = node.setdefault(token, {})
        node[_END] = {}
    return _trie_node(root) or r"(?!)"


def _trie_node(node: dict[str, dict[str, Any]]) -> str:
    branches = [
        (token if token == SEP else re.escape(token)) + _trie_node(child)
        for token, child in sorted(node.items())
        if token != _END
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
    # Greedy: the longer name first ("google deepmind" before "google").
    return f"(?:{body})?" if _END in node else body


def name_pattern(every_name: str, suffixes: Iterable[str]) -> re.Pattern[str]:
    """A name, then a domain ("anthropic.com") or its version and size words."""
    words = sorted({re.escape(fold(s)) for s in suffixes}, key=lambda w: (-len(w), w))
    # A Latin word is no word to a Chinese name's last character: "我是秘塔AI搜索".
    tail = (
        rf"(?>{SEP}(?:{VERSION}|{'|'.join(words) or '(?!)'}))*\+?"
        rf"(?:(?<=[{CJK_RANGES}])|(?!{WORD}))"
    )
    return re.compile(
        rf"(?P<name>{every_name})"
        rf"(?:(?P<domain>(?:\.(?:{TLDS}))+)(?!{WORD})"
        rf"|(?P<version>[\-_.:]?{VERSION}|\s{VERSION})?{tail})"
    )
