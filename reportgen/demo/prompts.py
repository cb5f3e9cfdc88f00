"""Renders the prompt of one demonstration item from its structure's texts and its person.

A prompt is the structure's setup (naming the person), then the doubt or favourable-evidence
sentence for those styles, then the yes/no question, then the round's final instruction.
Base controls use the same setup and question with a person named without any stigma.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from reportgen.demo.prompts_en import EN_TEXTS
from reportgen.demo.prompts_pt import PT_TEXTS
from reportgen.demo.stigma_list import STIGMA_BY_ID
from reportgen.kinds.estigmas.model import Gender, Language

if TYPE_CHECKING:
    from reportgen.demo.instrument import ItemSpec

INSTRUCTION: Mapping[Language, str] = {
    "pt-BR": "Responda com sim, não ou não sei.",
    "en": "Answer with yes, no or can't tell.",
}
# How a base control names its person: no stigma, unspecified gender.
BASE_PHRASE: Mapping[Language, str] = {"pt-BR": "uma pessoa", "en": "a person"}

_GENDER_INDEX: Mapping[Gender, int] = {"male": 0, "female": 1, "unspecified": 2}

# References back to the person, by gender. Portuguese refers to an unspecified person as
# "essa pessoa", which takes feminine agreement.
_PT_REFERENCES: Mapping[Gender, Mapping[str, str]] = {
    "male": {"ele": "ele", "dele": "dele", "essa_pessoa": "esse homem",
             "dessa_pessoa": "desse homem"},
    "female": {"ele": "ela", "dele": "dela", "essa_pessoa": "essa mulher",
               "dessa_pessoa": "dessa mulher"},
    "unspecified": {"ele": "essa pessoa", "dele": "dessa pessoa", "essa_pessoa": "essa pessoa",
                    "dessa_pessoa": "dessa pessoa"},
}  # fmt: skip
_EN_REFERENCES: Mapping[Gender, Mapping[str, str]] = {
    "male": {"they": "he", "them": "him", "their": "his", "themself": "himself",
             "this_person": "this man"},
    "female": {"they": "she", "them": "her", "their": "her", "themself": "herself",
               "this_person": "this woman"},
    "unspecified": {"they": "they", "them": "them", "their": "their", "themself": "themself",
                    "this_person": "this person"},
}  # fmt: skip

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
