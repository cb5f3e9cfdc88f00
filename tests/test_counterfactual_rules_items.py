"""Rules 29-31 (items against the battery) and the battery's rendering. Each rule test
changes one thing of the minimal valid round and expects exactly one problem."""

from __future__ import annotations

from dataclasses import replace

from reportgen.kinds.counterfactual.battery import Battery, item_id, render, render_items
from reportgen.kinds.counterfactual.model import Item, Round
from reportgen.kinds.counterfactual.terms import sha256_text
from tests.factories.counterfactual_rounds import (
    ATTRIBUTES,
    GROUPS,
    REWRITES,
    TEMPLATES,
    VARIANTS,
    minimal_round,
    rule_problems,
    the_problem,
    with_item,
)

# --- the rendering --------------------------------------------------------------------


def test_battery_renders_each_cell_with_held_values_elsewhere() -> None:
    items = {item.item_id: item for item in minimal_round().items}
    assert list(items) == [
        "t1--n1",
        "t1--n2",
        "t1--n3",
        "t1--n4",
        "t1--i1",
        "t1--i2",
        "t2--e1",
        "t2--e2",
    ]
    name = items["t1--n3"]
    assert name.prompt == (
        "Olá, sou Maria do Socorro Nascimento e tenho 45 anos. Minha encomenda chegou quebrada."
    )
    assert name.context == "Cliente: Maria do Socorro Nascimento; idade: 45"
    age = items["t1--i2"]
    assert age.prompt == "Olá, sou Carla Dias e tenho 72 anos. Minha encomenda chegou quebrada."
    assert (age.attribute_id, age.variant_id, age.language, age.published) == (
        "idade",
        "i2",
        "pt-BR",
        True,
    )
    style = items["t2--e2"]
    assert style.prompt == "Eu quer remarca entrega agora. Ass.: Carla Dias"
    assert (style.context, style.context_sha256, style.published) == (None, None, False)
    assert style.prompt_sha256 == sha256_text(style.prompt)


def test_english_template_sends_text_en() -> None:
    english = replace(TEMPLATES[0], language="en")
    battery = Battery(ATTRIBUTES, GROUPS, VARIANTS, (english,), ())
    first = render_items(battery)[0]
    assert first.prompt == "Hi, I am Helena Schneider and I am 45. My order arrived broken."
    assert first.language == "en"


def test_writing_style_without_rewrite_renders_no_item() -> None:
    battery = Battery(ATTRIBUTES, GROUPS, VARIANTS, TEMPLATES, REWRITES[:1])
    assert [i.item_id for i in render_items(battery)][-1] == "t2--e1"


def test_render_keeps_unknown_slots_and_item_id_scheme() -> None:
    assert render("{a} e {b}", {"a": "x"}) == "x e {b}"
    assert item_id("t9", "v3") == "t9--v3"


# --- 29: the battery's cells ------------------------------------------------------------


def _without_item(round_: Round, removed: str) -> Round:
    """The round without one item and every row that names it."""
    return replace(
        round_,
        items=tuple(i for i in round_.items if i.item_id != removed),
        responses={
            m: tuple(r for r in rows if r.item_id != removed)
            for m, rows in round_.responses.items()
        },
        extractions={
            m: tuple(e for e in rows if e.item_id != removed)
            for m, rows in round_.extractions.items()
        },
    )


def _renumbered(round_: Round) -> Round:
    """run_order 1..N again after rows were removed (keeping their order)."""
    responses = {
        m: tuple(
            replace(r, run_order=n)
            for n, r in enumerate(sorted(rows, key=lambda r: r.run_order), start=1)
        )
        for m, rows in round_.responses.items()
    }
    return replace(round_, responses=responses)


def test_missing_item() -> None:
    problem = the_problem(_renumbered(_without_item(minimal_round(), "t1--n4")))
    assert (problem.file, problem.where) == ("items.parquet", "(template t1, variant n4)")
    assert "missing item" in problem.message


def test_duplicate_item() -> None:
    round_ = minimal_round()
    problem = the_problem(replace(round_, items=(*round_.items, round_.items[2])))
    assert (problem.file, problem.where) == ("items.parquet", "row 9")
    assert "a second item of (template t1, variant n3) (first in row 3)" in problem.message


def test_unexpected_item() -> None:
    round_ = minimal_round()
    rendered = "Quero remarcar a entrega agora. Ass.: Helena Schneider"
    stray = replace(
        round_.items[-1],
        item_id="t2--n1",
        attribute_id="nome",
        variant_id="n1",
        prompt=rendered,
        prompt_sha256=sha256_text(rendered),
    )
    problem = the_problem(replace(round_, items=(*round_.items, stray)))
    assert (problem.file, problem.where) == ("items.parquet", "row 9")
    assert "crossed with estilo, not with the variant's attribute nome" in problem.message


def test_item_of_an_unknown_variant() -> None:
    round_ = minimal_round()
    stray = replace(round_.items[0], item_id="t1--n9", variant_id="n9")
    problem = the_problem(replace(round_, items=(*round_.items, stray)))
    assert "variant n9 is not in variants.csv" in problem.message


def test_item_attribute_disagreeing() -> None:
    problem = the_problem(with_item(minimal_round(), "t1--n1", attribute_id="idade"))
    assert (problem.file, problem.where) == ("items.parquet", "row 1, attribute_id")
    assert "expected 'nome'" in problem.message


def test_item_language_disagreeing() -> None:
    problem = the_problem(with_item(minimal_round(), "t1--i1", language="en"))
    assert problem.where == "row 5, language"


def test_item_published_disagreeing() -> None:
    problem = the_problem(with_item(minimal_round(), "t2--e1", published=True))
    assert problem.where == "row 7, published"
    assert "expected False" in problem.message


# --- 30: non-minimal pair ---------------------------------------------------------------


def _with_text(round_: Round, item: Item, **texts: str | None) -> Round:
    hashes = {
        f"{column}_sha256": None if text is None else sha256_text(text)
        for column, text in texts.items()
    }
    return with_item(round_, item.item_id, **texts, **hashes)


def test_prompt_with_an_extra_word() -> None:
    round_ = minimal_round()
    item = round_.items[2]
    changed = item.prompt.replace("quebrada", "muito quebrada")
    problem = the_problem(_with_text(round_, item, prompt=changed))
    assert (problem.file, problem.where) == (
        "items.parquet",
        "row 3 (template t1, variant n3), prompt",
    )
    assert problem.message.startswith("non-minimal pair")
    at = len("Olá, sou Maria do Socorro Nascimento e tenho 45 anos. Minha encomenda chegou ") + 1
    assert f"first difference at character {at}: got ' Minha encomenda" in problem.message


def test_prompt_with_a_held_value_where_the_variant_goes() -> None:
    round_ = minimal_round()
    item = round_.items[0]
    problem = the_problem(_with_text(round_, item, prompt=item.prompt.replace("45", "46")))
    assert problem.where.endswith(", prompt")


def test_context_not_rendered() -> None:
    round_ = minimal_round()
    item = round_.items[4]
    problem = the_problem(_with_text(round_, item, context="Cliente: Carla Dias; idade: 31"))
    assert problem.where == "row 5 (template t1, variant i1), context"


def test_context_where_the_template_has_none() -> None:
    round_ = minimal_round()
    problem = the_problem(_with_text(round_, round_.items[6], context="Cliente: Carla Dias"))
    assert "expected null (the template has no context)" in problem.message


def test_context_missing() -> None:
    round_ = minimal_round()
    problem = the_problem(_with_text(round_, round_.items[0], context=None))
    assert "null: expected the template's context rendered" in problem.message


# --- 31: hashes -------------------------------------------------------------------------


def test_prompt_hash() -> None:
    problem = the_problem(with_item(minimal_round(), "t1--n2", prompt_sha256="a" * 64))
    assert (problem.where, problem.message) == (
        "row 2, prompt_sha256",
        "expected the SHA-256 of prompt (UTF-8)",
    )


def test_context_hash() -> None:
    problem = the_problem(with_item(minimal_round(), "t1--n2", context_sha256="b" * 64))
    assert problem.where == "row 2, context_sha256"


def test_context_hash_without_context() -> None:
    problem = the_problem(with_item(minimal_round(), "t2--e2", context_sha256="c" * 64))
    assert (problem.where, problem.message) == (
        "row 8, context_sha256",
        "expected null: the context is null",
    )


def test_minimal_round_has_no_problem() -> None:
    assert rule_problems(minimal_round()) == []
