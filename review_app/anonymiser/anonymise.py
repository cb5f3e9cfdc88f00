"""Anonymisation: opaque sample codes and removal of self-identification.

A model that names itself ("Sou o Sabiazinho", "As an AI developed by ...", "我是Claude")
would unblind its reviewers, so every model, provider and company name is replaced by a
neutral marker before a text is stored where a reviewer can read it.

Names are matched on folded text (review_app.anonymiser.textfold: NFKC, case-folded, accents and
invisible characters removed, Cyrillic and Greek look-alikes read as Latin) and replaced in
the original, at any script boundary ("由Anthropic开发"). A name takes its version and size
suffixes with it ("GPT-5.4 mini", "gpt5.4mini", "Qwen3.6", "llama3.1:70b"). The context
decides the rest (review_app.anonymiser.cues): names that are also everyday words ("a meta do mês",
"Sabia que...", "豆包") count only where the text identifies itself ("sou o ...", "我是...")
or carries a version ("Llama-3"); names replaced anywhere keep their ordinary uses ("meu
vizinho Claude"). Names written apart or with digits for letters (review_app.anonymiser.disguise)
and names in no list that a self-introduction gives (review_app.anonymiser.intro) go too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from review_app.anonymiser.cues import (
    AFTER_NAME,
    CJK_MODEL_AFTER,
    CUES,
    MADE_BY_BETWEEN,
    NAME_THEN_MODEL,
    arrives_at_opening,
    opens_sentence,
    speaks_as,
)
from review_app.anonymiser.disguise import spans_of_disguised_names
from review_app.anonymiser.document import Document
from review_app.anonymiser.identity_forms import reversed_runs, spans_of_system_labels
from review_app.anonymiser.layout import (
    is_code_value,
    is_ordinary_head,
    is_signature,
    signs_a_draft,
)
from review_app.anonymiser.lexicon import NameLexicon, load_lexicon
from review_app.anonymiser.match import (
    MARKER,
    bounded_matches,
    is_in_web_address,
    is_labelled_as_written,
    is_latin_word_after_cue,
    is_link_to_itself,
    is_person_name,
    is_versioned_name,
    replace_spans,
    spans_of_repeats,
    spans_with_what_follows,
)
from review_app.anonymiser.names import (
    KIND_ANYWHERE,
    KIND_EVERYDAY,
    KIND_GIVEN,
    ROLE_WORDS,
    classify,
    name_parts,
    name_pattern,
    parts_of_folded,
    round_forms,
    trie_pattern,
)
from review_app.anonymiser.ordinary import CASED_STEMS, is_in_the_news, is_in_use, is_ordinary_use
from review_app.anonymiser.org import spans_after_names
from review_app.anonymiser.people import is_described_as_model, is_person, is_relative_of
from review_app.anonymiser.quotes import is_quoted_speech
from review_app.anonymiser.round import CODE_PREFIX, new_code, round_names
from review_app.anonymiser.scripts import is_cjk
from review_app.anonymiser.speakers import spans_of_speakers
from review_app.anonymiser.textfold import fold

__all__ = ["CODE_PREFIX", "CUES", "MARKER", "Scrubber", "new_code", "round_names"]


class Scrubber:
    """Replaces self-identification and the given names by MARKER."""

    def __init__(self, names: Iterable[str], *, lexicon: NameLexicon | None = None) -> None:
        lexicon = lexicon or load_lexicon()
        names = tuple(names)
        self._kind_of = classify(names, lexicon).kind_of()
        # The round's own names: never kept as news (nothing keeps a name the review hides).
        self._round_forms = round_forms(names)
        # Companies are capitalised wherever they are written, at a sentence's start too.
        self._companies = frozenset(name_parts(name) for name in lexicon.companies)
        every_name = trie_pattern(self._kind_of)
        self._anywhere = name_pattern(every_name, lexicon.suffixes)
        self._bare_name = re.compile(every_name)
        # What a word spelled apart or in digits may be: any known one-word name but the
        # shortest ("pi", "yi"), which ordinary letters spell by chance.
        self._spellable = frozenset(
            form[0] for form in self._kind_of if len(form) == 1 and len(form[0]) >= 3
        ) | frozenset("".join(form) for form in self._kind_of if len(form) > 1)
        # A capitalised word after a given name is a surname ("Claude Monet") unless it is
        # itself a name or a suffix ("Claude Sonnet", "Claude Anthropic").
        self._known_words = (
            frozenset(form[0] for form in self._kind_of)
            | {fold(s) for s in lexicon.suffixes}
            | ROLE_WORDS
        )

    def __call__(self, text: str) -> str:
        document = Document(text)
        # What tells that the answer names itself besides its known names.
        identifying = [
            # "C l a u d e", "G.P.T", "Cla ude", "Cl4ude": see review_app.anonymiser.disguise.
            *spans_of_disguised_names(document, self._bare_name, self._spellable, self._kind_of),
            *spans_of_speakers(document),
        ]
        spans = [*self._spans_of_names(document, names_itself=bool(identifying))]
        # Set by the names above: "My name is Claude Dupont" introduces a person.
        own = [span for span in identifying if not self._starts_a_person(document, span)]
        spans += [
            *own,
            *spans_of_repeats(text, own),
            *spans_of_system_labels(document),
            *self._spans_of_reversed_names(text),
        ]
        return replace_spans(text, spans_with_what_follows(text, spans_after_names(text, spans)))

    @staticmethod
    def _starts_a_person(document: Document, span: tuple[int, int]) -> bool:
        words = fold(document.original[span[0] : span[1]]).split()
        return len(words) == 2 and words[0] in document.people

    def _spans_of_reversed_names(self, text: str) -> Iterable[tuple[int, int]]:
        """A right-to-left override shows its text backwards: "\u202eecnil/afla" reads
        "alfa/lince". Such a run is read as shown, and goes whole when it holds a name."""
        for start, end, shown in reversed_runs(text):
            # Written backwards to hide: any known name in it goes, even an everyday word.
            if (
                self(shown) != shown
                or any(bounded_matches(self._anywhere, fold(shown)))
                or is_latin_word_after_cue(text, start, shown)
            ):
                yield start, end

    def ambiguous_words(self, text: str) -> list[tuple[int, int]]:
        """Spans of `text` holding words that are names only in some uses ("Meta", "Claude",
        "Llama 3") and that this scrubber leaves in place: what a leak report shows."""
        document = Document(text)
        matches = list(bounded_matches(self._anywhere, document.folded))
        document.name_starts = self._starts_of_models(matches)
        self._find_people(document, matches)
        return [
            document.original_span(match.start(), match.end())
            for match in matches
            if match.group("domain") is None and not self._is_name_here(document, match)
        ]

    def _spans_of_names(
        self, document: Document, *, names_itself: bool = False
    ) -> Iterable[tuple[int, int]]:
        matches = [
            match
            for match in bounded_matches(self._anywhere, document.folded)
            if is_labelled_as_written(document, match)
        ]
        document.name_starts = self._starts_of_models(matches)
        self._find_people(document, matches)
        decided = [
            match.group("domain") is not None
            or is_in_web_address(document.folded, match.end())
            # Something invisible inside a name ("Gem\u2060ini") is there to hide it.
            or document.hides_inside(match.start("name"), match.end("name"))
            or document.in_letter_forms(match.start("name"), match.end("name"))
            or is_link_to_itself(document.folded, match)
            or self._is_name_here(document, match)
            for match in matches
        ]
        for index, match in enumerate(matches):
            if (
                decided[index]
                or not self._looks_like_a_name(document, match)
                or is_ordinary_head(document.folded, match.end())
            ):
                continue
            # 'She said, "Hi, I'm Alexa from HR"': a person introduced in a quoted speech;
            # "Nome: Alice Souza": an everyday word with a surname is a person's name.
            # "我是Gemma的妈妈": the speaker is somebody's relative.
            if (
                is_quoted_speech(document.original, document.original_index(match.start()))
                or self._is_everyday_with_surname(document, match)
                or is_relative_of(document.folded, match.end())
            ):
                continue
            previous = matches[index - 1] if index else None
            after_name = self._is_after_name(document, previous, match)
            decided[index] = (
                (after_name and (decided[index - 1] or self._is_capitalised(document, previous)))
                or NAME_THEN_MODEL.match(document.folded, match.end()) is not None
                or self._follows_cue(document, match.start())
                or is_signature(document.folded, match.start(), match.end())
                or speaks_as(document.folded, match.start(), match.end())
                or arrives_at_opening(document.folded, match.start(), match.end())
            )
            if decided[index] and after_name:
                decided[index - 1] = True
        self._decide_what_a_maker_made(document, matches, decided)
        # A round's name said as news is masked, but no sign that the answer names itself.
        if names_itself or any(
            is_name and not self._is_round_news(document, match)
            for match, is_name in zip(matches, decided, strict=True)
        ):
            self._decide_in_an_answer_that_names_itself(document, matches, decided)
        for match, is_name in zip(matches, decided, strict=True):
            if is_name:
                yield document.original_span(match.start(), match.end())

    @staticmethod
    def _is_after_name(
        document: Document, previous: re.Match[str] | None, match: re.Match[str]
    ) -> bool:
        """ "Sou a Maré, da Demo", "Le Chat, da Mistral": a maker named right after a name;
        not in "sistemas como o Watson, da IBM" (an example's maker, not the speaker's)."""
        return (
            previous is not None
            and AFTER_NAME.fullmatch(document.folded, previous.end(), match.start()) is not None
            and not is_in_use(document.folded, previous.start())
        )

    def _decide_what_a_maker_made(
        self, document: Document, matches: list[re.Match[str]], decided: list[bool]
    ) -> None:
        """ "Grok is made by xAI", "Gemini foi criado pelo Google": what a maker (a name
        decided) made is a model."""
        for index in range(1, len(matches)):
            previous, match = matches[index - 1], matches[index]
            if (
                decided[index]
                and MADE_BY_BETWEEN.fullmatch(document.folded, previous.end(), match.start())
                and self._is_capitalised(document, previous)
            ):
                decided[index - 1] = True

    def _decide_in_an_answer_that_names_itself(
        self, document: Document, matches: list[re.Match[str]], decided: list[bool]
    ) -> None:
        """Once an answer names itself ("Sou o Gemini."), its maker and its own name said
        again are names wherever they are written as one ("O Google me treinou", "o Tuiuiú
        recomenda"): capitalised within a sentence, or in Chinese. An ordinary word
        that opens a sentence ("Nova regra") or a round's phrase word ("Dados") stays."""
        for index, match in enumerate(matches):
            parts = parts_of_folded(match.group("name"))
            kind = self._kind_of.get(parts, KIND_ANYWHERE)
            # A maker in the news, a copilot: ordinary words, but not in this answer.
            if decided[index] or kind == KIND_ANYWHERE:
                decided[index] = True
                continue
            if kind != KIND_EVERYDAY:
                continue
            first = document.original[document.original_index(match.start())]
            decided[index] = is_cjk(first) or (
                first.isupper()
                and (parts in self._companies or not opens_sentence(document.folded, match.start()))
            )

    def _starts_of_models(self, matches: list[re.Match[str]]) -> tuple[int, ...]:
        """Where names start that are no company's: a maker named after one counts ("O Gemini
        foi treinado pelo Google"), after a company it is the company's product ("o celular
        foi fabricado pela Samsung e desenvolvido pela Google")."""
        return tuple(
            match.start()
            for match in matches
            if parts_of_folded(match.group("name")) not in self._companies
        )

    def _is_everyday_with_surname(self, document: Document, match: re.Match[str]) -> bool:
        parts = parts_of_folded(match.group("name"))
        return (
            match.end() == match.end("name")
            and self._kind_of.get(parts) in (KIND_EVERYDAY, KIND_GIVEN)
            and is_person_name(document, match, self._known_words)
        )

    def _looks_like_a_name(self, document: Document, match: re.Match[str]) -> bool:
        """An everyday word is a name in a self-identifying context only when written as one:
        capitalised, in Chinese, or with a version ("Sou a Estrela", "i am llama 3", "我是豆包";
        not "sou a estrela da festa")."""
        has_version = match.group("version") is not None or any(
            c.isdigit() for c in match.group("name")
        )
        return (
            self._is_capitalised(document, match)
            or has_version
            or is_code_value(document.folded, match.start())
            # "abab 模型": a word Chinese calls a model is one, in small letters too.
            or CJK_MODEL_AFTER.match(document.folded, match.end()) is not None
        )

    @staticmethod
    def _is_capitalised(document: Document, match: re.Match[str] | None) -> bool:
        if match is None:
            return False
        first = document.original[document.original_index(match.start())]
        return first.isupper() or is_cjk(first)

    def _is_name_here(self, document: Document, match: re.Match[str]) -> bool:
        """Whether a match is a name by its kind and its context (before any cue is looked
        for): an everyday word needs a version, a given name must not be a person's, and any
        name may be in ordinary use ("pesquisei no Google")."""
        parts = parts_of_folded(match.group("name"))
        kind = self._kind_of.get(parts, KIND_ANYWHERE)
        if kind == KIND_EVERYDAY:
            # A company's product line ("Microsoft 365") is no model's version.
            version = match.group("version")
            return (
                version is not None and is_versioned_name(version) and parts not in self._companies
            )
        if kind not in (KIND_GIVEN, KIND_ANYWHERE):
            return False
        untailed = match.end() == match.end("name")
        if untailed and kind == KIND_GIVEN and self._is_a_person(document, match):
            return False
        if not untailed or NAME_THEN_MODEL.match(document.folded, match.end()) is not None:
            return True
        folded, start, end = document.folded, match.start(), match.end()
        if self._follows_cue(document, match.start()):
            return True
        if kind == KIND_GIVEN and (is_person(folded, start, end) or start in document.person_cells):
            return False
        stem = "".join(parts)
        # How it is written tells only some stems apart ("the copilot", "minimax").
        written = (
            document.original[slice(*document.original_span(start, match.end("name")))]
            if stem in CASED_STEMS
            else ""
        )
        if is_ordinary_use(stem, folded, start, end, written):
            return False
        # "The news said OpenAI is hiring": kept unless the answer names itself (see below).
        return (
            kind != KIND_ANYWHERE
            or parts in self._round_forms
            or not is_in_the_news(folded, start, end)
        )

    def _find_people(self, document: Document, matches: list[re.Match[str]]) -> None:
        document.people = frozenset(
            match.group("name")
            for match in matches
            if self._kind_of.get(parts_of_folded(match.group("name"))) == KIND_GIVEN
            # "My name is Claude Dupont": a surname makes a person even after a cue, unless
            # the sentence then says it is software ("Sou o Claude Monet, um modelo de IA").
            and self._is_named_person(document, match)
            and not (
                self._follows_cue(document, match.start())
                and is_described_as_model(document.folded, match.end())
            )
        )

    def _is_named_person(self, document: Document, match: re.Match[str]) -> bool:
        """A given name with a surname, or introduced in a quoted speech ('"Hi, I'm Ernie
        from 4B. … Best,\nErnie"'): a person's wherever else the answer writes it."""
        return is_person_name(document, match, self._known_words) or (
            self._follows_cue(document, match.start())
            and is_quoted_speech(document.original, document.original_index(match.start()))
        )

    def _is_a_person(self, document: Document, match: re.Match[str]) -> bool:
        """A given name that is a person's even after "my name is": with a surname ("Claude
        Marchand", and so anywhere else in the answer), or in a quoted speech ('He said, "My
        name is Claude"')."""
        if is_quoted_speech(
            document.original, document.original_index(match.start())
        ) or is_relative_of(document.folded, match.end()):
            return True
        if signs_a_draft(document.folded, match.start(), match.end()):
            return True
        return match.group("name") in document.people

    def _is_round_news(self, document: Document, match: re.Match[str]) -> bool:
        folded, start, end = document.folded, match.start(), match.end()
        return (
            parts_of_folded(match.group("name")) in self._round_forms
            and end == match.end("name")
            and not self._follows_cue(document, start)
            and NAME_THEN_MODEL.match(folded, end) is None
            and is_in_the_news(folded, start, end)
        )

    @staticmethod
    def _follows_cue(document: Document, start: int) -> bool:
        """Whether a self-identifying cue ("sou o", "developed by", "我是") ends right before
        `start`."""
        return start in document.cue_ends
