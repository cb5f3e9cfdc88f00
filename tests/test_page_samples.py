"""How the browser's layout checks pick one page of each kind (tests/support/page_samples.py):
a page laid out unlike the others of its path is visited too, and the HTML check that
reads every page finds a table outside its scrolling box and an interval that may break."""

from __future__ import annotations

from pathlib import Path

from tests.support.page_samples import layout_of, loose_layout, page_kind, sample_pages


def _table(columns: int, together: bool = True) -> str:
    head = "".join("<th>t</th>" for _ in range(columns))
    interval = '<span class="rg-together">[1,0; 2,0]</span>' if together else "[1,0; 2,0]"
    return (
        '<div class="rg-table-wrap" role="region"><table id="t" class="rg-table">'
        f"<thead><tr>{head}</tr></thead><tbody><tr><td>{interval}</td></tr></tbody></table></div>"
    )


def test_the_parts_of_a_path_that_name_data_are_put_aside() -> None:
    assert page_kind("en/reg-2026-2/items-bank.html") == "en/<round>/items-<domain>.html"
    assert page_kind("atendimento-2026-09/index.html") == "<round>/index.html"
    assert page_kind("series/aurora-4.html") == "series/<participant>.html"
    assert page_kind("en/series/bank-versions.html") == "en/series/bank-versions.html"
    assert page_kind("series/index.html") == "series/index.html"


def test_a_page_laid_out_unlike_the_others_of_its_path_is_a_kind_of_its_own(
    tmp_path: Path,
) -> None:
    pages = {
        "reg-2026-1/cast.html": _table(4),
        "reg-2026-2/cast.html": _table(4) * 3 + "<p>a longer page</p>",
        "reg-2026-3/cast.html": _table(5),  # one more column
        "series/a.html": _table(2),
        "series/b.html": _table(2) + "<details></details>",
    }
    for path, html in pages.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(html, encoding="utf-8")
    assert layout_of(pages["reg-2026-1/cast.html"]) == layout_of(pages["reg-2026-2/cast.html"])
    assert sample_pages(tmp_path, sorted(pages)) == {
        "reg-2026-2/cast.html": ["reg-2026-1/cast.html", "reg-2026-2/cast.html"],  # the largest
        "reg-2026-3/cast.html": ["reg-2026-3/cast.html"],
        "series/a.html": ["series/a.html"],
        "series/b.html": ["series/b.html"],
    }


def test_the_html_of_every_page_shows_a_loose_table_or_interval() -> None:
    assert loose_layout(_table(3)) == []
    assert loose_layout(_table(3, together=False)) == ['"[1,0; 2,0]" may break across lines']
    bare = _table(3).replace('<div class="rg-table-wrap" role="region">', "<div>")
    assert loose_layout(bare) == ["1 of 1 tables outside a scrolling box"]
