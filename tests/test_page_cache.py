"""Shell pages kept from the last build into a folder (reportgen/render/page_cache.py), and
the deferred slots that keep a model page's Markdown the same when another model joins."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reportgen.render import deferred, page_cache, shell_convert
from reportgen.render.page_cache import KeptPages, page_key
from reportgen.render.shell_pages import PageConverter, ShellPage, search_entries

MARKDOWN = (["toc", "tables", "attr_list", "admonition"], {"toc": {"permalink": True}})

# Odd text a real round brings: right-to-left marks, fullwidth letters, markup in a name,
# a control character, quotes, an emoji outside the BMP.
ODD = (
    "---\ntitle: \u202eＤｅｍｏ <b>&amp;</b>\n---\n# \u202eＤｅｍｏ\n\n"
    'Text \x07 with \u05e9\u05dc\u05d5\u05dd and "quotes" \U0001f600.\n\n'
    "## Part one\n\n### Inside\n\n[b](b.md)\n\n## Part two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
)


NUMBER_STEM = {"stem": 1, "title": "t", "content": "c", "toc": [], "search": [], "links": []}


def _page(source: str = ODD, relative: str = "models/a.md") -> ShellPage:
    page = PageConverter(*MARKDOWN).convert(relative, source)
    assert page is not None
    url = relative.removesuffix(".md") + ".html"
    return ShellPage(
        page.stem, page.title, page.content, page.toc, tuple(search_entries(page, url)), page.links
    )


def _tokens(toc: Any) -> list[Any]:
    return [(a.title, a.id, a.level, _tokens(a.children), getattr(a, "active", False)) for a in toc]


def _same(one: ShellPage | None, other: ShellPage | None) -> bool:
    if one is None or other is None:
        return one is other
    fields = ("stem", "title", "content", "search", "links")
    return all(getattr(one, f) == getattr(other, f) for f in fields) and _tokens(
        one.toc
    ) == _tokens(other.toc)


def test_a_kept_page_reads_back_as_it_was_converted(tmp_path: Path) -> None:
    page = _page()
    assert len(page.search) >= 3
    assert page.links == {"models/b.md"}
    kept = KeptPages.load(tmp_path, tmp_path / "site")
    kept.keep([("one", page), ("ineligible", None)])
    kept.save()
    again = KeptPages.load(tmp_path, tmp_path / "site")
    assert again.get("one") == (True, again.found["one"])
    assert _same(again.found["one"], page)
    assert again.get("ineligible") == (True, None)
    assert again.get("never") == (False, None)
    # Another output folder has its own file.
    assert KeptPages.load(tmp_path, tmp_path / "other").found == {}


def test_only_the_pages_a_build_used_are_kept_for_the_next(tmp_path: Path) -> None:
    first = KeptPages.load(tmp_path, tmp_path / "site")
    first.keep([("a", _page()), ("b", None)])
    first.save()
    second = KeptPages.load(tmp_path, tmp_path / "site")
    assert second.get("a")[0]
    second.keep([("c", None)])
    second.save()
    assert sorted(KeptPages.load(tmp_path, tmp_path / "site").found) == ["a", "c"]


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\xff not json",
        b"[]",
        json.dumps({"format": page_cache.FORMAT + 1, "pages": {"a": None}}).encode(),
        json.dumps({"format": page_cache.FORMAT, "pages": {"a": {"stem": "a"}}}).encode(),
        json.dumps({"format": page_cache.FORMAT, "pages": {"a": {**NUMBER_STEM}}}).encode(),
        json.dumps({"format": page_cache.FORMAT, "pages": []}).encode(),
    ],
    ids=["empty", "binary", "a list", "another format", "fields missing", "a number", "no map"],
)
def test_a_file_that_cannot_be_read_back_is_ignored_and_written_again(
    tmp_path: Path, content: bytes
) -> None:
    kept = KeptPages.load(tmp_path, tmp_path / "site")
    assert kept.path is not None
    kept.path.parent.mkdir(parents=True)
    kept.path.write_bytes(content)
    ignored = KeptPages.load(tmp_path, tmp_path / "site")
    assert ignored.found == {}
    ignored.keep([("a", None)])
    ignored.save()
    assert KeptPages.load(tmp_path, tmp_path / "site").found == {"a": None}


def test_an_unwritable_cache_only_costs_the_conversions(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder", "utf-8")
    kept = KeptPages.load(tmp_path / "file", tmp_path / "site")
    kept.keep([("a", None)])
    kept.save()  # no error: the folder cannot be made
    assert KeptPages.load(None, tmp_path).path is None


def test_every_part_a_conversion_reads_is_in_its_key() -> None:
    parts = ("settings", "en", "models/a.md", "en/models/a.html", "# A\n")
    key = page_key(*parts)
    assert key == page_key(*parts)
    for index in range(len(parts)):
        changed = list(parts)
        changed[index] += "x"
        assert page_key(*changed) != key, index
    # Parts are length-prefixed: moving text from one part into the next changes the key.
    assert page_key("ab", "c", *parts[2:]) != page_key("a", "bc", *parts[2:])


def test_a_taker_converts_only_the_pages_it_did_not_keep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    converters = {"en": PageConverter(*MARKDOWN)}

    def build(sources: dict[str, str]) -> tuple[list[ShellPage], list[str]]:
        converted: list[str] = []
        convert = shell_convert._convert

        def counted(
            converters: dict[str, PageConverter], conversion: shell_convert.Conversion
        ) -> ShellPage | None:
            converted.append(conversion.relative)
            return convert(converters, conversion)

        monkeypatch.setattr(shell_convert, "_convert", counted)
        kept = KeptPages.load(tmp_path / "cache", tmp_path / "site")
        taker = shell_convert.PageTaker(docs, [], converters, {"en": ""}, kept=kept)
        for stem, body in sources.items():
            page = docs / "en" / "models" / f"{stem}.md"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(f"---\ntitle: {stem}\n---\n# {stem}\n\n{body}\n", "utf-8")
        taker.add_language("en")
        (group,) = taker.groups()
        return list(group.pages), converted

    sources = {"a": ODD.split("---\n# ", 1)[1], "b": "[a](a.md)", "c": "plain"}
    first, converted = build(sources)
    assert converted == ["models/a.md", "models/b.md", "models/c.md"]
    second, converted = build({**sources, "c": "changed"})
    assert converted == ["models/c.md"]
    fresh = {p.stem: p for p in first}
    for page in second[:2]:
        assert _same(page, fresh[page.stem])
    assert "changed" in second[2].content
    # A link kept with a page is checked again against this build's pages.
    (docs / "en" / "models" / "a.md").unlink()
    third, converted = build({"b": "[a](a.md)", "c": "changed", "d": "new"})
    assert converted == ["models/d.md"]
    assert [p.stem for p in third] == ["c", "d"]  # b names a page gone: left to MkDocs


def test_a_slot_names_its_block_the_same_whatever_the_block() -> None:
    with deferred.collecting() as blocks:
        first = deferred.defer("<p>Rank 3 of 9</p>", slot="r/m/rank/en")
        assert deferred.defer("<p>Rank 3 of 9</p>", slot="r/m/rank/en") == first
        with pytest.raises(deferred.DeferredBlockError, match="r/m/rank/en"):
            deferred.defer("<p>Rank 3 of 10</p>", slot="r/m/rank/en")
        other = deferred.defer("<p>Rank 3 of 9</p>", slot="r/m/rank/pt-BR")
        by_content = deferred.defer("<p>Rank 3 of 9</p>")
        assert len({first, other, by_content}) == 3
        assert deferred.restore(str(first)) == "<p>Rank 3 of 9</p>"
    with deferred.collecting():
        assert deferred.defer("<p>Rank 4 of 10</p>", slot="r/m/rank/en") == first
        assert deferred.restore(str(first)) == "<p>Rank 4 of 10</p>"
    assert len(blocks) == 3
