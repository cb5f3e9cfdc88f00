"""What the held-out browser test reads of a page's markup (tests/review/page_forms.py):
hidden text and attribute values count, style sheets and the framework's ids do not."""

from __future__ import annotations

from tests.review.page_forms import attribute_values, markup_texts, readable

MARKUP = (
    "<html><head><style>.x{color:red}</style><title>Revisão</title></head><body>"
    '<div hidden>Sou o Zeltron</div><p title="feito pela Acme&amp;Co">Olá</p>'
    '<div id="react-aria-7" class="react-aria-Button" aria-label="Qwen">Sim</div>'
    "</body></html>"
)


def test_text_nodes_include_hidden_elements_but_not_style_sheets() -> None:
    texts = markup_texts(MARKUP)
    assert "Sou o Zeltron" in texts
    assert "Olá" in texts
    assert "color" not in texts


def test_attribute_values_are_read_without_the_frameworks_ids() -> None:
    values = attribute_values(MARKUP)
    assert "feito pela Acme&Co" in values.splitlines()
    assert "Qwen" in values.splitlines()
    assert readable(["Aria"], values) == frozenset()
    assert readable(["Acme", "Qwen", "Aria"], values) == {"Acme", "Qwen"}
