"""The demonstration instrument's 101 stigmas, with the phrases prompts use to name a person.

The rows live in reportgen/demo/data/stigmas.json; this module checks and expands them.

The names and descriptors were written for this project. The peril values are INVENTED for the
demonstration: they imitate the shape of the article's scale (range 0.15-4.21; 54 low, 29 medium
and 18 high stigmas with bands low <= 1.0 < medium <= 2.5 < high) but they are not the published
ratings of any study, and nothing outside the demonstration may rely on them.

Each row gives Portuguese qualifiers in masculine and feminine agreement ("nordestino" /
"nordestina"), placed after "um homem", "uma mulher" or "uma pessoa" (feminine agreement, as the
noun is feminine), and an English phrase where "{person}" becomes man, woman or person. Stigmas
whose meaning fixes a gender (a single mother, a gay man) carry that gender and one full phrase.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from reportgen.demo.data_files import Node, load
from reportgen.kinds.estigmas.model import AXES, GENDERS, ORIGINS, Axis, Gender, Origin, Stigma

PerilSource = Literal["pachankis2018", "assigned"]
STIGMAS_FILE = "stigmas.json"

PT_HEAD: Mapping[Gender, str] = {
    "male": "um homem",
    "female": "uma mulher",
    "unspecified": "uma pessoa",
}
EN_PERSON: Mapping[Gender, str] = {"male": "man", "female": "woman", "unspecified": "person"}


@dataclass(frozen=True)
class StigmaEntry:
    """A stigma row plus how prompts name a person who carries it."""

    stigma: Stigma
    fixed_gender: Gender | None  # None: the gender cycles over structures
    pt_phrase: Mapping[Gender, str]  # indefinite noun phrase, e.g. "uma mulher nordestina"
    en_phrase: Mapping[Gender, str]


def _row(
    stigma_id: str,
    name_pt: str,
    name_en: str,
    origin: Origin,
    peril: float,
    pt: tuple[str, str] | str,
    en: str,
    *,
    axis: Axis | None = None,
    gender: Gender | None = None,
) -> StigmaEntry:
    """`pt`: (masculine, feminine) qualifiers, one invariable qualifier, or, when `gender` is
    fixed, the full noun phrase."""
    genders: tuple[Gender, ...] = (gender,) if gender else GENDERS
    if gender is not None:
        if not isinstance(pt, str):
            raise ValueError(f"{stigma_id}: a fixed gender takes one full Portuguese phrase")
        pt_phrase: dict[Gender, str] = {gender: pt}
    else:
        masculine, feminine = (pt, pt) if isinstance(pt, str) else pt
        pt_phrase = {g: f"{PT_HEAD[g]} {masculine if g == 'male' else feminine}" for g in genders}
    en_phrase: dict[Gender, str] = {g: en.replace("{person}", EN_PERSON[g]) for g in genders}
    source: PerilSource = "pachankis2018" if origin == "inherited" else "assigned"
    stigma = Stigma(stigma_id, name_pt, name_en, origin, peril, source, axis)
    return StigmaEntry(stigma, gender, pt_phrase, en_phrase)


def _entry(row: Node) -> StigmaEntry:
    """One row of stigmas.json; `pt` is a list of two qualifiers or one string."""
    row.only_keys("id", "name_pt", "name_en", "origin", "peril", "pt", "en", "axis", "gender")
    pt_node = row.key("pt")
    if isinstance(pt_node.value, list):
        qualifiers = pt_node.texts()
        if len(qualifiers) != 2:
            pt_node.fail("a list of two qualifiers (masculine, feminine) or one string")
        pt: tuple[str, str] | str = (qualifiers[0], qualifiers[1])
    else:
        pt = pt_node.text()
    gender = row.key("gender") if row.has("gender") else None
    if gender is not None and not isinstance(pt, str):
        pt_node.fail("one full Portuguese phrase (the stigma fixes a gender)")
    return _row(
        row.key("id").text(),
        row.key("name_pt").text(),
        row.key("name_en").text(),
        row.key("origin").choice(ORIGINS),
        row.key("peril").number(),
        pt,
        row.key("en").text(),
        axis=row.key("axis").choice(AXES) if row.has("axis") else None,
        gender=gender.choice(GENDERS) if gender is not None else None,
    )


def _load_table() -> tuple[StigmaEntry, ...]:
    table = load(STIGMAS_FILE).only_keys("about", "stigmas").key("stigmas")
    entries = tuple(_entry(row) for row in table.elements())
    seen: set[str] = set()
    for row, entry in zip(table.elements(), entries, strict=True):
        if entry.stigma.stigma_id in seen:
            row.key("id").fail("an id not used by an earlier row")
        seen.add(entry.stigma.stigma_id)
    return entries


# One row per stigma, in the order of the data file (the order of stigmas.csv).
STIGMA_TABLE: tuple[StigmaEntry, ...] = _load_table()
STIGMA_BY_ID: Mapping[str, StigmaEntry] = {entry.stigma.stigma_id: entry for entry in STIGMA_TABLE}
