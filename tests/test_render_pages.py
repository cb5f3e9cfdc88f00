"""The one page writer, text base and download writer that every kind uses
(reportgen.render.pages, .text, .downloads), on a made-up kind's pages."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from markupsafe import Markup

from reportgen.i18n import MissingMessageError
from reportgen.render.downloads import SUMS_FILE, full, json_text, write_round_files
from reportgen.render.pages import (
    TABLE_BLOCKS,
    PageWriter,
    TableBlock,
    TemplateRenderError,
    page_tables,
)
from reportgen.render.table import Cell, Table, to_html
from reportgen.render.text import kind_catalogue
from reportgen.results.exact import Exact


def _block(table_id: str) -> TableBlock:
    table = Table(table_id, "caption", (Cell("a"),), ((Cell("1"),),))
    return TableBlock(table, f"{table_id}.csv", "CSV", f"a\n{table_id}\n")


@dataclass(frozen=True)
class _Folded:
    summary: str
    table: TableBlock


@dataclass(frozen=True)
class _Page:
    title: str
    count: int
    blocks: tuple[Markup | TableBlock | _Folded, ...]


def _writer(tmp_path: Path, template: str) -> PageWriter:
    (tmp_path / "page.md.j2").write_text(template, encoding="utf-8")
    folded = (_Folded, lambda block: Markup(f"<details>{block.summary}</details>"))
    return PageWriter(tmp_path, {_Page: "page.md.j2"}, (*TABLE_BLOCKS, folded))


def test_a_page_prints_text_escaped_blocks_rendered_and_counts(tmp_path: Path) -> None:
    writer = _writer(
        tmp_path, "# {{ title }} {{ count }}\n{% for b in blocks %}{{ b }}\n{% endfor %}"
    )
    page = _Page("<b>", 3, (Markup("**x**"), _Folded("more", _block("t2"))))
    assert writer.render(page) == "# &#60;b&#62; 3\n**x**\n<details>more</details>\n"


def test_an_unfinished_value_names_the_template_and_its_line(tmp_path: Path) -> None:
    writer = _writer(tmp_path, "{{ title }}\n{{ missing }}\n")
    with pytest.raises(TemplateRenderError, match=r"page\.md\.j2, line 2: 'missing'"):
        writer.render(_Page("t", 1, ()))
    with pytest.raises(TypeError, match="the bool True"):
        writer.finished(True)
    with pytest.raises(TypeError, match="not a finished value"):
        PageWriter(tmp_path, {}, ()).finished(3)  # a kind without numbers refuses a count


def test_every_table_of_a_page_gets_its_csv_beside_it_folded_ones_too(tmp_path: Path) -> None:
    writer = _writer(tmp_path, "{{ title }}\n")
    page = _Page("t", 1, (_block("t1"), _Folded("more", _block("t2"))))
    assert [b.csv_name for b in page_tables(page)] == ["t1.csv", "t2.csv"]
    written = writer.write_page(tmp_path / "site", "round/index.md", page)
    assert [p.name for p in written] == ["index.md", "t1.csv", "t2.csv"]
    assert (tmp_path / "site/round/t2.csv").read_text("utf-8") == "a\nt2\n"


def test_a_cell_tooltip_is_its_title_attribute() -> None:
    table = Table("t", "c", (Cell("h"),), ((Cell("0.3", title='1/3 "exact"'),),))
    assert '<td class="rg-sticky" title="1/3 &#34;exact&#34;">0.3</td>' in to_html(table)


def test_downloads_are_listed_in_sha256sums_in_their_order(tmp_path: Path) -> None:
    files = {"b.csv": b"b\n", "a.json": json_text({"z": 1, "a": "é"}).encode()}
    written = write_round_files(tmp_path, "r1", files)
    assert [p.name for p in written] == ["b.csv", "a.json", SUMS_FILE]
    sums = (tmp_path / "data/r1" / SUMS_FILE).read_text("utf-8")
    digest = hashlib.sha256(files["b.csv"]).hexdigest()
    assert sums.splitlines()[0] == f"{digest}  b.csv"
    assert files["a.json"] == '{\n "a": "é",\n "z": 1\n}\n'.encode()
    assert full(Exact(exact="1/3", value=1 / 3)) == "0.3333333333333333"
    assert full(None) is None


def test_a_kind_catalogue_is_refused_for_a_language_the_site_has_not() -> None:
    with pytest.raises(MissingMessageError, match="no multidomain catalogue for language 'fr'"):
        kind_catalogue("reportgen.kinds.multidomain.render", "fr")
