"""The demonstration instrument reproduces the article's instrument exactly."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.demo.instrument import (
    ENGLISH_QUOTA,
    ItemSpec,
    Layout,
    build_instrument,
    build_layout,
    item_id_for,
)
from reportgen.demo.prompts import BASE_PHRASE, INSTRUCTION, person_phrase, render_prompt
from reportgen.demo.prompts_en import EN_TEXTS
from reportgen.demo.prompts_pt import PT_TEXTS
from reportgen.demo.stigma_list import STIGMA_BY_ID, STIGMA_TABLE
from reportgen.kinds.estigmas.model import (
    LANGUAGES,
    SCORED_STYLES,
    Item,
    Language,
    Stigma,
    Structure,
    Style,
)

SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
RECONSTRUCTED = {"nordestino", "favelado", "venezuelano"}
LOCAL = {
    "lesbica", "gay", "bissexual", "umbandista-candomblecista", "travesti", "haitiano",
    "analfabeto-funcional", "mae-solo", "pai-solo", "catador",
}  # fmt: skip


@cache
def layout() -> Layout:
    return build_layout()


def stigmas() -> dict[str, Stigma]:
    return {s.stigma_id: s for s in layout().stigmas}


def structures() -> dict[str, Structure]:
    return {s.structure_id: s for s in layout().structures}


def scored() -> list[ItemSpec]:
    return [i for i in layout().items if i.language == "pt-BR" and i.style != "base"]


def english() -> list[ItemSpec]:
    return [i for i in layout().items if i.language == "en"]


# --- stigmas -------------------------------------------------------------------------------


def test_stigma_origins() -> None:
    by_origin = Counter(s.origin for s in layout().stigmas)
    assert by_origin == {"inherited": 88, "reconstructed": 3, "local": 10}
    assert {i for i, s in stigmas().items() if s.origin == "reconstructed"} == RECONSTRUCTED
    assert {i for i, s in stigmas().items() if s.origin == "local"} == LOCAL
    assert stigmas()["umbandista-candomblecista"].name_pt == "umbandista ou candomblecista"
    assert stigmas()["catador"].name_pt == "catador ou catadora"


def test_stigma_ids_names_and_sources() -> None:
    assert len(stigmas()) == 101
    for stigma in layout().stigmas:
        assert SLUG.fullmatch(stigma.stigma_id), stigma.stigma_id
        assert stigma.name_pt.strip()
        assert stigma.name_en.strip()
        expected = "pachankis2018" if stigma.origin == "inherited" else "assigned"
        assert stigma.peril_source == expected


def test_peril_range_and_bands() -> None:
    perils = [s.peril for s in layout().stigmas]
    assert min(perils) == 0.15
    assert max(perils) == 4.21
    assert all(round(p, 2) == p for p in perils)
    bands = Counter("low" if p <= 1.0 else "medium" if p <= 2.5 else "high" for p in perils)
    assert bands == {"low": 54, "medium": 29, "high": 18}
    assert stigmas()["baixa-estatura"].peril == 0.22
    assert stigmas()["antecedentes-criminais"].peril == 3.92


def test_axes() -> None:
    by_axis = Counter(s.axis for s in layout().stigmas)
    assert 6 <= by_axis["race"] <= 8
    assert 6 <= by_axis["origin"] <= 8
    origin_axis = {i for i, s in stigmas().items() if s.axis == "origin"}
    assert {"nordestino", "venezuelano", "haitiano"} <= origin_axis


def test_descriptors_cover_the_genders_each_stigma_uses() -> None:
    for entry in STIGMA_TABLE:
        genders = {entry.fixed_gender} if entry.fixed_gender else {"male", "female", "unspecified"}
        assert set(entry.pt_phrase) == genders
        assert set(entry.en_phrase) == genders
        assert all(p.startswith(("um ", "uma ")) for p in entry.pt_phrase.values())
        assert all(p.startswith(("a ", "an ")) for p in entry.en_phrase.values())
        assert all("{" not in p for p in [*entry.pt_phrase.values(), *entry.en_phrase.values()])


# --- structures ----------------------------------------------------------------------------


def test_structures_and_scenarios() -> None:
    assert list(structures()) == [f"q{n:02d}" for n in range(1, 28)]
    scenarios = {s.scenario_id for s in layout().structures}
    assert len(scenarios) == 13
    inherited = [s for s in layout().structures if not s.brazilian]
    assert [s.structure_id for s in inherited] == [f"q{n:02d}" for n in range(1, 26)]
    assert len({s.scenario_id for s in inherited}) == 11
    assert all(1 <= n <= 3 for n in Counter(s.scenario_id for s in inherited).values())
    assert structures()["q26"].scenario_pt == "Churrasco em família"
    assert structures()["q27"].scenario_pt == "Grupo de WhatsApp do condomínio"
    assert structures()["q26"].brazilian
    assert structures()["q27"].brazilian
    for structure in layout().structures:
        assert SLUG.fullmatch(structure.scenario_id)
        # one scenario name per scenario id
        same = [s for s in layout().structures if s.scenario_id == structure.scenario_id]
        assert {(s.scenario_pt, s.scenario_en) for s in same} == {
            (structure.scenario_pt, structure.scenario_en)
        }
    biased_yes = sum(s.biased_answer == "yes" for s in layout().structures)
    assert 7 <= biased_yes <= 11  # about a third


# --- pt-BR items ---------------------------------------------------------------------------


def test_items_per_stigma() -> None:
    per_stigma = Counter(i.stigma_id for i in scored())
    assert set(per_stigma) == set(stigmas())
    assert Counter(per_stigma.values()) == {75: 89, 81: 9, 78: 1, 72: 2}
    assert {i for i, n in per_stigma.items() if n == 72} <= {
        i for i, s in stigmas().items() if s.origin == "inherited"
    }


def test_scored_totals() -> None:
    items = scored()
    assert len(items) == 7626
    local = [i for i in items if stigmas()[str(i.stigma_id)].origin == "local"]
    assert len(local) == 807
    assert sum(structures()[i.structure_id].brazilian for i in local) == 57
    assert sum(structures()[i.structure_id].brazilian for i in items) == 57
    assert sum(stigmas()[str(i.stigma_id)].origin == "reconstructed" for i in items) == 225
    assert Counter(i.style for i in items) == dict.fromkeys(SCORED_STYLES, 2542)


def test_every_cell_has_the_three_styles_once() -> None:
    cells: defaultdict[tuple[str | None, str], list[ItemSpec]] = defaultdict(list)
    for item in scored():
        cells[(item.stigma_id, item.structure_id)].append(item)
    for cell, items in cells.items():
        assert [i.style for i in items] == list(SCORED_STYLES), cell
        assert len({i.target_gender for i in items}) == 1, cell


def test_base_controls() -> None:
    base = [i for i in layout().items if i.style == "base"]
    assert [i.structure_id for i in base] == list(structures())
    for item in base:
        assert item.stigma_id is None
        assert item.target_gender == "unspecified"
        assert item.language == "pt-BR"
        assert item.pair_item_id is None
    assert all(i.stigma_id is not None for i in layout().items if i.style != "base")


def test_genders() -> None:
    by_stigma: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for item in scored():
        by_stigma[str(item.stigma_id)][item.target_gender] += 1
    assert set(by_stigma["mae-solo"]) == {"female"}
    assert set(by_stigma["pai-solo"]) == {"male"}
    assert set(by_stigma["lesbica"]) == {"female"}
    assert set(by_stigma["travesti"]) == {"female"}
    assert set(by_stigma["gay"]) == {"male"}
    for stigma_id, genders in by_stigma.items():
        if STIGMA_BY_ID[stigma_id].fixed_gender is None:
            assert all(genders[g] >= 5 for g in ("male", "female", "unspecified")), stigma_id
    overall = Counter(i.target_gender for i in scored())
    assert all(n > len(scored()) / 4 for n in overall.values())


def test_published_items() -> None:
    published = [i for i in layout().items if i.published]
    assert len(published) == 7
    assert all(i.language == "pt-BR" for i in published)
    keys = Counter((i.stigma_id, i.structure_id) for i in published)
    assert keys[(None, "q27")] == 1
    hiring = [k for k in keys if k[0] == "nordestino"]
    dismissal = [k for k in keys if k[0] == "antecedentes-criminais"]
    assert len(hiring) == 1
    assert keys[hiring[0]] == 3
    assert len(dismissal) == 1
    assert keys[dismissal[0]] == 3
    assert structures()[hiring[0][1]].scenario_id == "contratacao"
    assert structures()[dismissal[0][1]].scenario_id == "demissao"


# --- English items -------------------------------------------------------------------------


def test_english_counts_and_spread() -> None:
    items = english()
    assert len(items) == 994
    assert Counter(i.style for i in items) == ENGLISH_QUOTA
    assert {i.stigma_id for i in items} == {
        i for i, s in stigmas().items() if s.origin == "inherited"
    }
    assert {i.structure_id for i in items} == {f"q{n:02d}" for n in range(1, 26)}
    per_stigma = Counter(i.stigma_id for i in items).values()
    assert max(per_stigma) - min(per_stigma) <= 1


def test_english_items_realise_universal_unpublished_pairs() -> None:
    by_id = {i.item_id: i for i in layout().items}
    pairs = [i.pair_item_id for i in english()]
    assert len(set(pairs)) == len(pairs)
    for item in english():
        assert item.pair_item_id is not None
        pair = by_id[item.pair_item_id]
        assert pair.language == "pt-BR"
        assert not pair.published
        assert pair.style != "base"
        assert stigmas()[str(pair.stigma_id)].origin == "inherited"
        assert not structures()[pair.structure_id].brazilian
        same = (pair.stigma_id, pair.structure_id, pair.style, pair.target_gender)
        assert (item.stigma_id, item.structure_id, item.style, item.target_gender) == same
        assert not item.published
    assert all(i.pair_item_id is None for i in layout().items if i.language == "pt-BR")


# --- ids and order -------------------------------------------------------------------------


def test_item_ids_unique_and_opaque() -> None:
    ids = [i.item_id for i in layout().items]
    assert len(ids) == 7626 + 27 + 994
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"it-[0-9a-f]{12}", i) for i in ids)


def test_order() -> None:
    items = layout().items
    stigma_rank = {s.stigma_id: n for n, s in enumerate(layout().stigmas)}
    style_rank = {s: n for n, s in enumerate(SCORED_STYLES)}
    keys = [(stigma_rank[str(i.stigma_id)], i.structure_id, style_rank[i.style]) for i in scored()]
    assert keys == sorted(keys)
    assert [i.language for i in items] == ["pt-BR"] * 7653 + ["en"] * 994
    assert all(i.style == "base" for i in items[7626:7653])
    position = {i.item_id: n for n, i in enumerate(items)}
    pair_positions = [position[str(i.pair_item_id)] for i in english()]
    assert pair_positions == sorted(pair_positions)


def test_layout_is_deterministic() -> None:
    assert build_layout() == layout()


ITEM_KEYS = st.tuples(
    st.sampled_from(LANGUAGES), st.sampled_from(sorted(STIGMA_BY_ID)), st.integers(1, 27)
)


@given(ITEM_KEYS, ITEM_KEYS, st.sampled_from(SCORED_STYLES))
def test_item_id_depends_on_every_key_part(
    first: tuple[Language, str, int], second: tuple[Language, str, int], style: Style
) -> None:
    ids = [
        item_id_for(language, stigma_id, f"q{n:02d}", style)
        for language, stigma_id, n in (first, second)
    ]
    assert (ids[0] == ids[1]) == (first == second)


@pytest.mark.parametrize("style", SCORED_STYLES)
def test_base_id_differs_from_stigma_ids(style: Style) -> None:
    base = item_id_for("pt-BR", None, "q01", "base")
    assert base != item_id_for("pt-BR", "negro", "q01", style)


# --- prompts -------------------------------------------------------------------------------


@cache
def instrument() -> tuple[Layout, tuple[Item, ...]]:
    return build_instrument()


def test_instrument_items_follow_the_layout() -> None:
    built_layout, items = instrument()
    assert built_layout == layout()
    assert len(items) == len(layout().items)
    for spec, item in zip(layout().items, items, strict=True):
        assert (
            spec.item_id, spec.stigma_id, spec.structure_id, spec.style, spec.target_gender,
            spec.language, spec.pair_item_id, spec.published,
        ) == (
            item.item_id, item.stigma_id, item.structure_id, item.style, item.target_gender,
            item.language, item.pair_item_id, item.published,
        )  # fmt: skip


def test_every_structure_has_texts() -> None:
    assert sorted(PT_TEXTS) == [f"q{n:02d}" for n in range(1, 28)]
    assert sorted(EN_TEXTS) == [f"q{n:02d}" for n in range(1, 26)]
    for texts in (*PT_TEXTS.values(), *EN_TEXTS.values()):
        assert all(part.strip() for part in texts)


def test_prompts_are_complete() -> None:
    for item in instrument()[1]:
        assert item.prompt.endswith(" " + INSTRUCTION[item.language]), item.item_id
        assert not re.search(r"[{}|]", item.prompt), item.prompt
        assert "  " not in item.prompt
        sentences = item.prompt.removesuffix(INSTRUCTION[item.language])
        assert 3 <= sentences.count(". ") + sentences.count("? ") <= 6, item.prompt
        assert item.prompt.count("?") == 1, item.prompt


def test_prompts_name_the_person_with_the_stigma() -> None:
    all_phrases = {p for e in STIGMA_TABLE for p in (*e.pt_phrase.values(), *e.en_phrase.values())}
    for item in instrument()[1]:
        if item.style == "base":
            assert BASE_PHRASE["pt-BR"] in item.prompt
            assert not any(phrase in item.prompt for phrase in all_phrases)
        else:
            phrase = person_phrase(item.stigma_id, item.target_gender, item.language)
            assert phrase in item.prompt, (phrase, item.prompt)


def test_styles_add_evidence_to_the_same_situation() -> None:
    items = [i for i in instrument()[1] if i.style != "base" and i.language == "pt-BR"]
    for original, doubt, positive in zip(items[0::3], items[1::3], items[2::3], strict=True):
        assert (original.style, doubt.style, positive.style) == SCORED_STYLES
        text = original.prompt
        # the question (and the instruction after it) starts after the last sentence before "?"
        question = text[text.rfind(". ", 0, text.index("?")) + 2 :]
        setup = text.removesuffix(question)
        for richer in (doubt, positive):
            assert richer.prompt.startswith(setup)
            assert richer.prompt.endswith(" " + question)
            assert len(richer.prompt) > len(text) + 20
        assert doubt.prompt != positive.prompt


def test_gender_agreement_in_references() -> None:
    for item in instrument()[1]:
        if item.language == "pt-BR":
            assert not re.search(r"\b(de|em) (esse|essa)\b", item.prompt), item.prompt
            other = {
                "male": ("essa mulher", "dessa mulher"),
                "female": ("esse homem", "desse homem"),
            }
            for wrong in other.get(item.target_gender, ()):
                assert wrong not in item.prompt, item.prompt
        else:
            assert not re.search(r"\b[Tt]hey (has|is|was)\b", item.prompt), item.prompt
            assert not re.search(r"\b([Hh]e|[Ss]he) (have|are|were)\b", item.prompt)


def test_prompts_and_canaries_are_unique() -> None:
    items = instrument()[1]
    assert len({i.prompt for i in items}) == len(items)
    assert len({i.canary for i in items}) == len(items)
    assert all(re.fullmatch(r"ESTIGMAS-CANARY-[0-9A-F]{24}", i.canary) for i in items)
    assert all(i.canary not in i.prompt for i in items)


def test_english_prompt_realises_its_pair() -> None:
    items = instrument()[1]
    by_id = {i.item_id: i for i in items}
    for item in items:
        if item.language == "en":
            pair = by_id[str(item.pair_item_id)]
            assert pair.prompt.startswith(PT_TEXTS[pair.structure_id][0].split("{")[0])
            assert item.prompt.startswith(EN_TEXTS[item.structure_id][0].split("{")[0])


def test_instrument_is_deterministic() -> None:
    assert build_instrument() == instrument()


def test_english_base_control_is_refused() -> None:
    base = next(i for i in layout().items if i.style == "base")
    english_base = ItemSpec(base.item_id, None, base.structure_id, "base", "unspecified", "en",
                            None, False)  # fmt: skip
    with pytest.raises(ValueError, match="pt-BR only"):
        render_prompt(english_base)
