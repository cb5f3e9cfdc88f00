"""The demonstration instrument: stigmas, question structures and the item layout.

`build_layout()` gives the shape of the item bank without texts (fast, used by the label
allocation); `build_instrument()` adds each item's prompt and canary. Both are deterministic:
ids are hashes of fixed keys and the English subsample is drawn with a fixed seed.
The counts reproduce the article's instrument (docs/article-figures.md).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reportgen.demo.data_files import Node, load
from reportgen.demo.stigma_list import STIGMA_BY_ID, STIGMA_TABLE
from reportgen.kinds.estigmas.model import (
    GENDERS,
    LANGUAGES,
    SCORED_STYLES,
    Answer,
    Gender,
    Item,
    Language,
    Stigma,
    Structure,
    Style,
)

ITEM_ID_SALT = "estigmas-demo-item-1|"
CANARY_SALT = "estigmas-demo-canary-1|"
ENGLISH_SAMPLE_SEED = 20260624
# Contrastive language study: how many English realisations of each style.
ENGLISH_QUOTA: Mapping[Style, int] = {"original": 331, "doubt": 331, "positive": 332}
STRUCTURES_FILE = "structures.json"
ANSWERS: tuple[Answer, ...] = ("yes", "no")


def _structure(row: Node, scenarios: Node) -> Structure:
    """One row of structures.json, with its scenario's names."""
    row.only_keys("id", "scenario", "biased_answer", "brazilian", "decision")
    row.key("decision").text()  # documentation only, but it must be there
    scenario_id = row.key("scenario").text()
    if not scenarios.has(scenario_id):
        row.key("scenario").fail("a scenario defined under the top-level key scenarios")
    names = scenarios.key(scenario_id).text_map(LANGUAGES)
    return Structure(
        row.key("id").text(),
        scenario_id,
        names["pt-BR"],
        names["en"],
        row.key("biased_answer").choice(ANSWERS),
        row.key("brazilian").flag(),
    )


def _load_structures() -> tuple[Structure, ...]:
    data = load(STRUCTURES_FILE).only_keys("about", "scenarios", "structures")
    scenarios = data.key("scenarios")
    return tuple(_structure(row, scenarios) for row in data.key("structures").elements())


# biased_answer: the answer that would put the person at a disadvantage.
STRUCTURES: tuple[Structure, ...] = _load_structures()
STRUCTURE_BY_ID: Mapping[str, Structure] = {s.structure_id: s for s in STRUCTURES}

# Structures left out for a stigma because the question would not measure bias there.
# q02 asks whether to hire the person as a driver: a driving licence legally requires sight,
# so for blind and deafblind people the "no" would be the lawful answer, not a biased one.
# q27 happens in a written group chat, which would make functional illiteracy part of the
# situation itself rather than a trait beside it; that local stigma gets q26 only.
EXCLUDED_STRUCTURES: Mapping[str, frozenset[str]] = {
    "cegueira": frozenset({"q02"}),
    "surdocegueira": frozenset({"q02"}),
    "analfabeto-funcional": frozenset({"q27"}),
}

# The only texts the article prints (the site may show these and no others).
PUBLISHED_KEYS: frozenset[tuple[str | None, str]] = frozenset(
    {("nordestino", "q01"), ("antecedentes-criminais", "q04"), (None, "q27")}
)


@dataclass(frozen=True)
class ItemSpec:
    """An item without its texts."""

    item_id: str
    stigma_id: str | None
    structure_id: str
    style: Style
    target_gender: Gender
    language: Language
    pair_item_id: str | None
    published: bool


@dataclass(frozen=True)
class Layout:
    stigmas: tuple[Stigma, ...]
    structures: tuple[Structure, ...]
    items: tuple[ItemSpec, ...]


def _hex(salt: str, key: str, length: int) -> str:
    return hashlib.sha256((salt + key).encode("utf-8")).hexdigest()[:length]


def item_id_for(language: Language, stigma_id: str | None, structure_id: str, style: Style) -> str:
    """The stable opaque id of the item with this key."""
    return "it-" + _hex(ITEM_ID_SALT, f"{language}|{stigma_id or '-'}|{structure_id}|{style}", 12)


def canary_for(item_id: str) -> str:
    return "ESTIGMAS-CANARY-" + _hex(CANARY_SALT, item_id, 24).upper()


def structures_for(stigma: Stigma) -> tuple[Structure, ...]:
    """Inherited structures for every stigma; the Brazilian ones for local stigmas only."""
    excluded = EXCLUDED_STRUCTURES.get(stigma.stigma_id, frozenset())
    return tuple(
        s
        for s in STRUCTURES
        if s.structure_id not in excluded and (not s.brazilian or stigma.origin == "local")
    )


def target_gender(stigma_index: int, structure_index: int) -> Gender:
    """The gender of a (stigma, structure) cell: fixed by meaning, else cycling."""
    fixed = STIGMA_TABLE[stigma_index].fixed_gender
    return fixed if fixed is not None else GENDERS[(stigma_index + structure_index) % 3]


def _portuguese_items() -> list[ItemSpec]:
    structure_index = {s.structure_id: i for i, s in enumerate(STRUCTURES)}
    items: list[ItemSpec] = []
    for stigma_index, entry in enumerate(STIGMA_TABLE):
        stigma = entry.stigma
        for structure in structures_for(stigma):
            gender = target_gender(stigma_index, structure_index[structure.structure_id])
            published = (stigma.stigma_id, structure.structure_id) in PUBLISHED_KEYS
            for style in SCORED_STYLES:
                item_id = item_id_for("pt-BR", stigma.stigma_id, structure.structure_id, style)
                items.append(
                    ItemSpec(
                        item_id,
                        stigma.stigma_id,
                        structure.structure_id,
                        style,
                        gender,
                        "pt-BR",
                        None,
                        published,
                    )
                )
    for structure in STRUCTURES:
        published = (None, structure.structure_id) in PUBLISHED_KEYS
        item_id = item_id_for("pt-BR", None, structure.structure_id, "base")
        items.append(
            ItemSpec(
                item_id,
                None,
                structure.structure_id,
                "base",
                "unspecified",
                "pt-BR",
                None,
                published,
            )
        )
    return items


def _is_universal(spec: ItemSpec) -> bool:
    """Items the English study may realise: inherited stigma, inherited structure, unpublished."""
    if spec.stigma_id is None or spec.published or spec.style == "base":
        return False
    stigma = STIGMA_BY_ID[spec.stigma_id].stigma
    return stigma.origin == "inherited" and not STRUCTURE_BY_ID[spec.structure_id].brazilian


def _english_sample(portuguese: Sequence[ItemSpec]) -> list[ItemSpec]:
    """Draw the English pairs: round-robin over stigmas so each gets 11 or 12, within quotas."""
    rng = random.Random(ENGLISH_SAMPLE_SEED)
    position = {spec.item_id: index for index, spec in enumerate(portuguese)}
    by_stigma: dict[str, list[ItemSpec]] = {}
    for spec in portuguese:
        if _is_universal(spec) and spec.stigma_id is not None:
            by_stigma.setdefault(spec.stigma_id, []).append(spec)
    # Dict order is the stigma table order (insertion), never a hash order.
    queues = list(by_stigma.values())
    for queue in queues:
        rng.shuffle(queue)
    remaining = dict(ENGLISH_QUOTA)
    chosen: list[ItemSpec] = []
    total = sum(ENGLISH_QUOTA.values())
    while len(chosen) < total:
        for queue in queues:
            if len(chosen) == total:
                break
            while queue and remaining[queue[0].style] == 0:
                queue.pop(0)
            if queue:
                pick = queue.pop(0)
                remaining[pick.style] -= 1
                chosen.append(pick)
    chosen.sort(key=lambda spec: position[spec.item_id])
    return [
        ItemSpec(
            item_id_for("en", s.stigma_id, s.structure_id, s.style),
            s.stigma_id,
            s.structure_id,
            s.style,
            s.target_gender,
            "en",
            s.item_id,
            False,
        )
        for s in chosen
    ]


def build_layout() -> Layout:
    """The whole item bank's shape: pt-BR scored items, base controls, then English pairs."""
    portuguese = _portuguese_items()
    english = _english_sample(portuguese)
    stigmas = tuple(entry.stigma for entry in STIGMA_TABLE)
    return Layout(stigmas, STRUCTURES, tuple(portuguese + english))


def build_instrument() -> tuple[Layout, tuple[Item, ...]]:
    """The layout plus every item's prompt and canary, in the layout's order."""
    from reportgen.demo.prompts import render_prompt

    layout = build_layout()
    items = tuple(
        Item(
            spec.item_id,
            spec.stigma_id,
            spec.structure_id,
            spec.style,
            spec.target_gender,
            spec.language,
            spec.pair_item_id,
            render_prompt(spec),
            canary_for(spec.item_id),
            spec.published,
        )
        for spec in layout.items
    )
    return layout, items
