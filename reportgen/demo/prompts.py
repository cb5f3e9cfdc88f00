"""Renders the prompt of one demonstration item from its structure's texts and its person.

A prompt is the structure's setup (naming the person), then the doubt or favourable-evidence
sentence for those styles, then the yes/no question, then the round's final instruction.
Base controls use the same setup and question with a person named without any stigma.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from reportgen.demo.data_files import load
from reportgen.demo.prompts_en import EN_TEXTS
from reportgen.demo.prompts_pt import PT_TEXTS
from reportgen.demo.stigma_list import STIGMA_BY_ID
from reportgen.kinds.estigmas.model import GENDERS, LANGUAGES, Gender, Language

if TYPE_CHECKING:
    from reportgen.demo.instrument import ItemSpec

# The round's final instruction, how a base control names its person (no stigma, unspecified
# gender) and the words that refer back to the person, by gender. Portuguese refers to an
# unspecified person as "essa pessoa", which takes feminine agreement.
_WORDS = load("prompt_words.json").only_keys("instruction", "base_phrase", "references")
INSTRUCTION: Mapping[Language, str] = _WORDS.key("instruction").text_map(LANGUAGES)
BASE_PHRASE: Mapping[Language, str] = _WORDS.key("base_phrase").text_map(LANGUAGES)
_PT_PLACEHOLDERS = ("ele", "dele", "essa_pessoa", "dessa_pessoa")
_EN_PLACEHOLDERS = ("they", "them", "their", "themself", "this_person")


def _references(language: Language, placeholders: tuple[str, ...]) -> dict[Gender, dict[str, str]]:
    by_gender = _WORDS.key("references").key(language).only_keys(*GENDERS)
    return {gender: by_gender.key(gender).text_map(placeholders) for gender in GENDERS}


_PT_REFERENCES: Mapping[Gender, Mapping[str, str]] = _references("pt-BR", _PT_PLACEHOLDERS)
_EN_REFERENCES: Mapping[Gender, Mapping[str, str]] = _references("en", _EN_PLACEHOLDERS)
_GENDER_INDEX: Mapping[Gender, int] = {gender: index for index, gender in enumerate(GENDERS)}

_CHOICE = re.compile(r"\{([^{}|]*)\|([^{}|]*)(?:\|([^{}|]*))?\}")
_NAMED = re.compile(r"\{(\w+)\}")


def _choose(text: str, gender: Gender) -> str:
    """Resolve "{masc|fem}" (fem also for unspecified) and "{male|female|unspecified}"."""

    def pick(match: re.Match[str]) -> str:
        forms = [g for g in match.groups() if g is not None]
        return forms[min(_GENDER_INDEX[gender], len(forms) - 1)]

    return _CHOICE.sub(pick, text)


def _fill(text: str, values: Mapping[str, str]) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in values:
            return values[name]
        lower = name[0].lower() + name[1:]
        if lower in values:  # a capitalised placeholder starts a sentence
            found = values[lower]
            return found[0].upper() + found[1:]
        raise KeyError(f"unknown placeholder {{{name}}} in prompt text")

    return _NAMED.sub(value, text)


def person_phrase(stigma_id: str | None, gender: Gender, language: Language) -> str:
    """The noun phrase naming the item's person, e.g. "uma mulher nordestina"."""
    if stigma_id is None:
        return BASE_PHRASE[language]
    entry = STIGMA_BY_ID[stigma_id]
    phrases = entry.pt_phrase if language == "pt-BR" else entry.en_phrase
    return phrases[gender]


def render_prompt(spec: ItemSpec) -> str:
    """The full prompt text of one item."""
    if spec.language == "pt-BR":
        setup, doubt, positive, question = PT_TEXTS[spec.structure_id]
        references = dict(_PT_REFERENCES[spec.target_gender])
        references["pessoa"] = person_phrase(spec.stigma_id, spec.target_gender, "pt-BR")
    else:
        if spec.style == "base":
            raise ValueError(f"{spec.item_id}: base controls exist in pt-BR only")
        setup, doubt, positive, question = EN_TEXTS[spec.structure_id]
        references = dict(_EN_REFERENCES[spec.target_gender])
        references["person"] = person_phrase(spec.stigma_id, spec.target_gender, "en")
    evidence = {"doubt": [doubt], "positive": [positive]}.get(spec.style, [])
    sentences = [setup, *evidence, question]
    body = " ".join(_fill(_choose(s, spec.target_gender), references) for s in sentences)
    return f"{body} {INSTRUCTION[spec.language]}"
