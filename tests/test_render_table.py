"""The neutral table model: escaping in HTML and Markdown, CSV output."""

from __future__ import annotations

import csv
import html
import io
from dataclasses import replace
from html.parser import HTMLParser

import markdown
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.render.table import (
    Cell,
    Table,
    cell_text_html,
    escape_markdown,
    to_csv,
    to_html,
    to_markdown,
)

HOSTILE = '<script>alert("x")</script> *bold* [link](http://x) | pipe & amp'


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(markup: str) -> _Collector:
    collector = _Collector()
    collector.feed(markup)
    return collector


def table_of(text: str) -> Table:
    return Table(
        table_id="t",
        caption=text,
        header=(Cell("Name"), Cell("Rate", numeric=True)),
        rows=((Cell(text), Cell("1,3%", 0.013, numeric=True)),),
        sortable=True,
        notes=(text,),
    )


def test_hostile_text_stays_text_in_html() -> None:
    result = parsed(str(to_html(table_of(HOSTILE))))
    assert "script" not in result.tags
    assert HOSTILE in "".join(result.text)
    assert 'class="num" data-sort="0.013"' in str(to_html(table_of(HOSTILE)))


@given(st.text(min_size=1, max_size=40))
def test_any_cell_text_round_trips_through_html(text: str) -> None:
    result = parsed(str(to_html(table_of(text))))
    tags = {"div", "table", "caption", "thead", "tr", "th", "tbody", "td", "p", "span"}
    assert set(result.tags) <= tags
    assert text.replace("\r", "") in "".join(result.text).replace("\r", "")


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=40))
def test_escaped_markdown_renders_as_the_same_text(text: str) -> None:
    rendered = markdown.markdown(str(escape_markdown(text)))
    result = parsed(rendered)
    assert set(result.tags) <= {"p"}
    assert html.unescape("".join(result.text)).strip() == text.strip()


def test_markdown_table_escapes_cells() -> None:
    text = to_markdown(table_of(HOSTILE))
    rendered = markdown.markdown(text, extensions=["tables"])
    result = parsed(rendered)
    assert "script" not in result.tags
    assert "a" not in result.tags
    assert HOSTILE in html.unescape("".join(result.text))


def test_rows_must_match_the_header() -> None:
    with pytest.raises(ValueError, match="row 1 has 1 cells, expected 2"):
        Table("t", "c", (Cell("a"), Cell("b")), ((Cell("x"),),))


def test_csv_keeps_raw_values() -> None:
    text = to_csv(("a", "b", "c"), [(0.125, None, 'x,"y"')])
    assert list(csv.reader(io.StringIO(text))) == [["a", "b", "c"], ["0.125", "", 'x,"y"']]


def test_html_table_scrolls_in_a_focusable_region_named_by_its_caption() -> None:
    markup = str(to_html(table_of("Tabela 2")))
    assert markup.startswith(
        '<div class="rg-table-wrap" role="region" tabindex="0" aria-labelledby="t-caption">'
    )
    assert '<caption id="t-caption">Tabela 2</caption>' in markup


def test_the_naming_column_is_marked_sticky_and_matrix_cells_may_wrap() -> None:
    table = Table(
        table_id="m",
        caption="matrix",
        header=(Cell("#", numeric=True), Cell("Name"), Cell("Rate", numeric=True)),
        rows=((Cell("1", 1, numeric=True), Cell("a"), Cell("tie (+1 p.p.)", 0.01, numeric=True)),),
        sticky_column=1,
        wrap_cells=True,
    )
    markup = str(to_html(table))
    assert 'class="rg-table rg-wrap"' in markup
    assert '<th class="rg-sticky">Name</th>' in markup
    assert '<td class="rg-sticky">a</td>' in markup
    assert '<td class="num" data-sort="1">1</td>' in markup  # only the naming column
    assert "rg-sticky" not in str(to_html(replace(table, sticky_column=None)))


def test_a_sticky_column_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="table t: sticky column 2 is not one of its 2 columns"):
        Table("t", "c", (Cell("a"), Cell("b")), (), sticky_column=2)


def test_an_interval_is_kept_whole_and_a_long_hash_may_break() -> None:
    """The marks site.css lays out: a score wraps before its interval, never inside it; a
    SHA-256 may break anywhere. The text itself is unchanged, and still escaped."""
    digest = "b51c3ce3b578832ecf9cec25f9b74f5023def9eda327e24abf3d5c2830abcff1"
    assert cell_text_html("83,44 [80,59; 86,05]") == (
        '83,44 <span class="rg-together">[80,59; 86,05]</span>'
    )
    assert cell_text_html(f"sha256:{digest}") == (
        f'<span class="rg-breakable">sha256:{digest}</span>'
    )
    assert cell_text_html("<b> [&] casa-ipe/atendimento-a") == (
        '&lt;b&gt; <span class="rg-together">[&amp;]</span> casa-ipe/atendimento-a'
    )
    long_aside = "[a remark in brackets, longer than any interval]"
    assert cell_text_html(long_aside) == long_aside  # free to wrap like any text
    markup = str(to_html(table_of("82,31 [81,24; 83,39]")))
    assert "82,31 " + '<span class="rg-together">[81,24; 83,39]</span></td>' in markup


def test_a_paged_table_carries_its_controls_labels_escaped_and_every_row() -> None:
    rows = tuple((Cell(f"m{i}"), Cell("1%", 0.01, numeric=True)) for i in range(60))
    paged = replace(table_of("T"), rows=rows, pager=(("filter", 'Filtrar "x" <y>'),))
    markup = str(to_html(paged))
    assert ' data-rg-pager data-rg-pager-filter="Filtrar &#34;x&#34; &lt;y&gt;"' in markup
    assert markup.count("<tr>") == 61  # the header and every row: nothing hidden in the HTML
    assert "data-rg-pager" not in str(to_html(replace(paged, pager=())))
