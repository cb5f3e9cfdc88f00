"""Anonymisation: opaque sample codes and removal of self-identification.

A model that names itself ("Sou o Sabiazinho", "As an AI developed by ...") would unblind its
reviewers, so every model, provider and company name is replaced by a neutral marker before
a text is stored where a reviewer can read it.

Names are matched on folded text (review_app.textfold: NFKC, case-folded, accents and
invisible characters removed) and replaced in the original. A name takes its version and
size suffixes with it ("GPT-5.4 mini", "gpt5.4mini", "Qwen3.6", "llama3.1:70b"). Names that
are also everyday words ("a meta do mês", "Sabia que...") count only where the text
identifies itself ("sou o ...", "developed by ...") or carries a version ("Llama-3").
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from reportgen.model import Model
from review_app.identity_forms import (
    KIND_NAME_ATTRIBUTES,
    reversed_runs,
    spans_of_system_labels,
)
from review_app.lexicon import NameLexicon, load_lexicon
from review_app.textfold import FoldedText, fold

MARKER = "[SISTEMA]"
CODE_PREFIX = "SISTEMA"
# No 0/O or 1/I/L: a reviewer may copy a code by hand into a contestation.
_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

# Patterns below run on folded text: lower case, no accents, ASCII quotes and dashes.
_WORD = r"[^\W_]"  # a letter or digit: what a name may not touch on either side
_SEP = r"[\s\-_.:/]?"  # between the parts of a name: "gpt-5.4", "gpt 5.4", "gpt5.4"
_VERSION = r"[a-z]?\d+(?:[.,x]\d+)*[a-z]?"  # 4, 5.4, 3,5, v3, r1, 4o, 70b, 8x7b
_TLDS = r"com|ai|org|net|io|co|cn|dev|app|chat|br|tech|us|uk|fr|de|ca|pt"

# Self-identifying contexts, after which an everyday word that is also a name is a name.
_IDENTITY_CUES = (
    r"(?:eu\s+)?sou(?:\s+eu,?)?",
    r"i\s+am",
    r"i'?m",
    r"me\s+chamo",
    r"chamo-me",
    r"meu\s+nome\s+e",
    r"my\s+name(?:\s+is|'s)",
    r"(?:pode|podem|voce\s+pode)\s+me\s+chamar\s+de",
    r"(?:you\s+can\s+)?call\s+me",
    r"aqui\s+(?:e|fala)",
    r"quem\s+fala\s+e",
)
_MAKER_CUES = (
    r"(?:treinad|desenvolvid|criad|feit|construid|projetad|lancad|produzid|mantid|ajustad"
    r"|programad|disponibilizad|operad)[oa]s?\s+(?:pel[oa]s?|por)"
    r"(?:\s+(?:equipe|time|empresa|pesquisador[ae]s|engenheir[oa]s)\s+d[aoe]s?)?",
    r"(?:developed|trained|created|made|built|designed|released|produced|programmed|maintained"
    r"|fine-tuned|finetuned|powered|owned|operated|provided)\s+by"
    r"(?:\s+(?:the\s+)?(?:team|company|researchers|engineers|folks|people)\s+(?:at|of|from))?",
)
_MODEL_OF_CUES = (
    r"(?:modelo|assistente|ia|chatbot|llm)(?:\s+(?:de\s+linguagem|de\s+ia"
    r"|de\s+inteligencia\s+artificial|virtual|conversacional))?\s+(?:d[aoe]|from|by)",
    r"(?:model|assistant|ai|chatbot|llm)\s+(?:from|by|made\s+by)",
    r"(?:sou|fui|estou)\s+basead[oa]\s+(?:em|n[oa]s?)",
    r"(?:i\s+am|i'?m)\s+based\s+on",
    r"(?:sou|i\s+am|i'?m)\s+(?:uma\s+versao|a\s+version|an?\s+variant|uma\s+variante)\s+(?:d[aoe]|of)",
    r"(?:familia|family)(?:\s+d[aoe]|\s+of)?",
    r"(?:resposta|answer|response)\s+(?:d[aoe]|from|by)",
    r"(?:com\s+base\s+(?:n[oa]s?|em)|based\s+on)",
    r"this\s+is",
)
CUES = _IDENTITY_CUES + _MAKER_CUES + _MODEL_OF_CUES
_ARTICLE = (
    r"(?:(?:o|a|um|uma|the|an)\s+)?(?:(?:modelo|model|assistente|assistant|ia|ai|chatbot)\s+)?"
)
_MARKUP = r"(?:<[a-z]+>|[*_~`'\"\[(])*"  # "I'm **Claude**", "Sou o <b>Llama</b>"
_AFTER_NAME = re.compile(r",?\s+(?:d[aoe]|from|by|of|pel[oa])\s+(?:the\s+)?")
# "an Amazon model", "o assistente Gemini"... after the name: what it names is a model.
_NAME_THEN_MODEL = re.compile(
    r"\s+(?:model|modelo|assistant|assistente|ai|llm|chatbot|here|aqui|speaking|falando)\b"
)
_CUE_REACH = 90  # characters before a name searched for a cue: longer than any cue
# Words of a company's or model's name that name nothing by themselves ("Acme Labs").
_GENERIC_WORDS = frozenset(
    {"labs", "lab", "research", "inc", "ltd", "cloud", "team", "models", "model", "chat", "bot"}
    | {"the", "and", "for", "des", "dos", "das"}
)

# A self-description ("an AI ... developed by") names its maker even when the maker is
# unknown ("Initech Research"): the capitalised words after it are replaced too. Only after a
# self-reference, so that "um estereótipo criado pela sociedade" keeps its meaning.
_SELF_DESCRIPTION = re.compile(
    r"\b(?:ai|ia|assistant|assistente|model|modelo|chatbot|llm)\b[^.!?\n]{0,60}?"
    rf"\b(?:{'|'.join(_MAKER_CUES)})\s+(?:(?:the|a|o)\s+)?(?={_WORD})"
)
_CAPITALISED_WORDS = re.compile(r"[^\W\d_][\w&'\-]*(?:[ \t]+(?=[^\W\d_])[\w&'\-]+)*")


def round_names(models: Iterable[Model]) -> tuple[str, ...]:
    """Every name of the round's models and providers that could unblind a sample."""
    names: set[str] = set()
    for model in models:
        for value in (model.model_id, model.display_name, model.provider, model.api_identifier):
            value = value.strip()
            if value:
                names.add(value)
                # "openai/gpt-4o" and "org:model" identifiers: each part may appear alone.
                names.update(p for p in re.split(r"[/:@]", value) if len(p) >= 2)
        if model.snapshot.strip():
            names.add(model.snapshot.strip())
        # A kind's own identity columns (multidomain: the organisation and its group).
        for attribute in KIND_NAME_ATTRIBUTES:
            value = getattr(model, attribute, "")
            if isinstance(value, str) and value.strip():
                names.add(value.strip())
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


_PARTS = re.compile(r"\d+|[^\W\d_]+")


def name_parts(name: str) -> tuple[str, ...]:
    """The folded letter and digit runs of a name: "GPT-5.4 mini" -> gpt, 5, 4, mini."""
    return tuple(_PARTS.findall(fold(name)))


def _stem(parts: tuple[str, ...]) -> tuple[str, ...]:
    """The parts before the first version: "Qwen 3.6 Flash" -> qwen; "DeepSeek V4" -> deepseek."""
    for index, part in enumerate(parts):
        is_v_number = part == "v" and index + 1 < len(parts) and parts[index + 1].isdigit()
        if part.isdigit() or is_v_number:
            return parts[:index]
    return parts


@dataclass(frozen=True)
class _Classes:
    """Name patterns (tuples of parts) by how freely they are replaced."""

    anywhere: frozenset[tuple[str, ...]]
    given: frozenset[tuple[str, ...]]
    everyday: frozenset[tuple[str, ...]]
    in_context: frozenset[tuple[str, ...]]  # only in a self-identifying context


def _classify(round_: Iterable[str], lexicon: NameLexicon) -> _Classes:
    everyday = {name_parts(n) for n in lexicon.everyday}
    given = {name_parts(n) for n in lexicon.given_names}
    anywhere = {name_parts(n) for n in lexicon.distinctive}
    in_context: set[tuple[str, ...]] = set()

    def add_single(parts: tuple[str, ...]) -> None:
        # A one-word name of the round is taken as distinctive unless it is a known everyday
        # word or too short to tell ("Yi"): missing a name unblinds, an extra marker does not.
        if parts in everyday or parts in given or parts in anywhere:
            return
        (everyday if len(parts[0]) <= 2 else anywhere).add(parts)

    for name in round_:
        parts = name_parts(name)
        if not parts:
            continue
        stem = _stem(parts)
        for form in {parts, stem} - {()}:
            if len(form) == 1:
                if not form[0].isdigit():
                    add_single(form)
                continue
            if form not in everyday:
                anywhere.add(form)
            if not any(part.isdigit() for part in form):
                # Each word of a phrase ("Muse Spark") names the model in a self-description,
                # but nowhere else: "Kepler-22b" is a planet, not the model "Demo Kepler".
                in_context.update((w,) for w in form if len(w) > 2 and w not in _GENERIC_WORDS)
    everyday -= anywhere | given
    in_context -= anywhere | given | everyday
    return _Classes(*(frozenset(kind) for kind in (anywhere, given, everyday, in_context)))


_KIND_ANYWHERE, _KIND_GIVEN, _KIND_EVERYDAY, _KIND_IN_CONTEXT = (
    "anywhere",
    "given",
    "everyday",
    "in_context",
)
_END = ""  # marks, in a trie node, that a name may end there


def _trie_pattern(forms: Iterable[tuple[str, ...]]) -> str:
    """One regex for many names, as a trie: each branch opens with a distinct letter, so
    the regex engine skips most positions with one look-up instead of trying each name."""
    root: dict[str, dict[str, Any]] = {}
    for form in forms:
        node = root
        for index, part in enumerate(form):
            for token in ([_SEP] if index else []) + list(part):
                node = node.setdefault(token, {})
        node[_END] = {}
    return _trie_node(root) or r"(?!)"


def _trie_node(node: dict[str, dict[str, Any]]) -> str:
    branches = [
        (token if token == _SEP else re.escape(token)) + _trie_node(child)
        for token, child in sorted(node.items())
        if token != _END
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
    # Greedy: the longer name first ("google deepmind" before "google").
    return f"(?:{body})?" if _END in node else body


class Scrubber:
    """Replaces self-identification and the given names by MARKER."""

    def __init__(self, names: Iterable[str], *, lexicon: NameLexicon | None = None) -> None:
        lexicon = lexicon or load_lexicon()
        classes = _classify(names, lexicon)
        self._kind_of: dict[tuple[str, ...], str] = {
            **dict.fromkeys(classes.in_context, _KIND_IN_CONTEXT),
            **dict.fromkeys(classes.everyday, _KIND_EVERYDAY),
            **dict.fromkeys(classes.given, _KIND_GIVEN),
            **dict.fromkeys(classes.anywhere, _KIND_ANYWHERE),
        }
        suffix_words = "|".join(sorted({re.escape(fold(s)) for s in lexicon.suffixes})) or "(?!)"
        tail = rf"(?:{_SEP}(?:{_VERSION}|{suffix_words}))*\+?(?!{_WORD})"
        every_name = _trie_pattern(self._kind_of)
        self._anywhere = re.compile(
            rf"(?P<name>{every_name})"
            rf"(?:(?P<domain>(?:\.(?:{_TLDS}))+)(?!{_WORD})"
            rf"|(?P<version>[\-_.:]?{_VERSION}|\s{_VERSION})?{tail})"
        )
        # Looked for only before an everyday or given name that is not a name by itself: a
        # search for every cue in every text would cost more than all the rest.
        self._cue_before = re.compile(rf"(?<!{_WORD})(?:{'|'.join(CUES)})\s+{_ARTICLE}{_MARKUP}$")
        # A capitalised word after a given name is a surname ("Claude Monet") unless it is
        # itself a name or a suffix ("Claude Sonnet", "Claude Anthropic").
        self._known_words = frozenset(form[0] for form in self._kind_of) | {
            fold(s) for s in lexicon.suffixes
        }

    def __call__(self, text: str) -> str:
        document = FoldedText(text)
        spans = [
            *self._spans_of_names(document),
            *_spans_of_unknown_makers(document),
            *spans_of_system_labels(document),
            *self._spans_of_reversed_names(text),
        ]
        return _replace(text, spans)

    def _spans_of_reversed_names(self, text: str) -> Iterable[tuple[int, int]]:
        """A right-to-left override shows its text backwards: "\u202eecnil/afla" reads
        "alfa/lince". Such a run is read as shown, and goes whole when it holds a name."""
        for start, end, shown in reversed_runs(text):
            if self(shown) != shown:
                yield start, end

    def ambiguous_words(self, text: str) -> list[tuple[int, int]]:
        """Spans of `text` holding words that are names only in some uses ("Meta", "Claude",
        "Llama 3") and that this scrubber leaves in place: what a leak report shows."""
        document = FoldedText(text)
        return [
            document.original_span(match.start(), match.end())
            for match in _bounded_matches(self._anywhere, document.folded)
            if match.group("domain") is None and not self._is_name_here(document, match)
        ]

    def _spans_of_names(self, document: FoldedText) -> Iterable[tuple[int, int]]:
        previous_end = -1  # folded end of the last name replaced
        for match in _bounded_matches(self._anywhere, document.folded):
            is_name = match.group("domain") is not None or self._is_name_here(document, match)
            if not is_name and self._looks_like_a_name(document, match):
                # "Sou a Maré, da Demo": a maker named right after a name.
                after_name = _AFTER_NAME.fullmatch(document.folded, previous_end, match.start())
                is_name = (
                    after_name is not None
                    or _NAME_THEN_MODEL.match(document.folded, match.end()) is not None
                    or self._follows_cue(document, match.start())
                )
            if is_name:
                previous_end = match.end()
                yield document.original_span(match.start(), match.end())

    @staticmethod
    def _looks_like_a_name(document: FoldedText, match: re.Match[str]) -> bool:
        """An everyday word is a name in a self-identifying context only when written as one:
        capitalised or with a version ("Sou a Estrela", "i am llama 3"; not "sou a estrela
        da festa")."""
        first = document.original[document.original_index(match.start())]
        has_version = match.group("version") is not None or any(
            c.isdigit() for c in match.group("name")
        )
        return first.isupper() or has_version

    def _is_name_here(self, document: FoldedText, match: re.Match[str]) -> bool:
        """Whether a match outside a self-identifying context is a name, by its kind."""
        kind = self._kind_of.get(tuple(_PARTS.findall(match.group("name"))), _KIND_ANYWHERE)
        if kind == _KIND_GIVEN:
            untailed = match.end() == match.end("name")
            return not (untailed and _is_person_name(document, match, self._known_words))
        if kind == _KIND_EVERYDAY:
            version = match.group("version")
            return version is not None and _is_versioned_name(version)
        return kind == _KIND_ANYWHERE

    def _follows_cue(self, document: FoldedText, start: int) -> bool:
        """Whether a self-identifying cue ("sou o", "developed by") ends right before `start`."""
        reach = max(0, start - _CUE_REACH)
        return self._cue_before.search(document.folded, reach, start) is not None


def _bounded_matches(pattern: re.Pattern[str], folded: str) -> Iterable[re.Match[str]]:
    """Matches that do not start inside a word ("Geminiano" holds no "gemini"). Checked here
    rather than by a lookbehind, which would hide the pattern's first letters from the regex
    engine's fast scan."""
    position = 0
    while (match := pattern.search(folded, position)) is not None:
        start = match.start()
        # An underscore is markup ("_Gemini_") or a separator ("my_claude_bot"), not a letter.
        if start > 0 and folded[start - 1].isalnum():
            position = start + 1
            continue
        yield match
        position = max(match.end(), start + 1)


def _is_person_name(document: FoldedText, match: re.Match[str], known: frozenset[str]) -> bool:
    """Whether a given name is a person's: "Jean-Claude", "Claude Monet"."""
    folded, start, end = document.folded, match.start(), match.end()
    if start >= 2 and folded[start - 1] == "-" and folded[start - 2].isalpha():
        return True
    following = re.match(r"[ \t]+([^\W\d_]+)", folded[end:])
    if following is None or following.group(1) in known:
        return False
    original_start = document.original_index(end + following.start(1))
    return document.original[original_start].isupper()


def _is_versioned_name(version: str) -> bool:
    """An everyday word with a version is a name ("Llama-3", "Gemini 2.5", "Falcon 180B"), but
    a bare number after a space is too common to count ("sabia 3 línguas", "Falcon 9")."""
    return not (version[:1].isspace() and version[1:].isdigit())


def _spans_of_unknown_makers(document: FoldedText) -> Iterable[tuple[int, int]]:
    for match in _SELF_DESCRIPTION.finditer(document.folded):
        original_start = document.original_index(match.end())
        if not document.original[original_start].isupper():
            continue
        maker = _CAPITALISED_WORDS.match(document.original, original_start)
        if maker is not None:
            yield original_start, _capitalised_end(document.original, maker)


def _capitalised_end(original: str, maker: re.Match[str]) -> int:
    """Where the capitalised words opening `maker` end ("Acme Labs para" -> "Acme Labs")."""
    end = maker.start()
    for word in re.finditer(r"\S+", maker.group()):
        if word.start() > 0 and not word.group()[0].isupper():
            break
        end = maker.start() + word.end()
    return end


def _replace(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span replaced by MARKER; overlapping spans, and spans apart only by
    spaces, dashes or slashes ("Google DeepMind", "meta-llama/llama"), become one marker."""
    if not spans:
        return text
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and (start <= merged[-1][1] or _only_joiners(text[merged[-1][1] : start])):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    pieces: list[str] = []
    previous = 0
    for start, end in merged:
        pieces += [text[previous:start], MARKER]
        previous = end
    pieces.append(text[previous:])
    return "".join(pieces)


def _only_joiners(gap: str) -> bool:
    return re.fullmatch(r"[ \t\-/]+", gap) is not None


def new_code() -> str:
    """An opaque sample code drawn from the OS's randomness, independent of the sample."""
    token = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))
    return f"{CODE_PREFIX}-{token}"
