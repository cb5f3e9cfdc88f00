"""A chart's SVG and PNG in the site are hard links to the drawing cache's files when the
cache holds exactly the bytes the site gets (reportgen/render/drawing.py: `write_svg`,
`write_png`), written otherwise; and neither side can change the other through the link.
The cache is filled by hand here (no drawing software needed)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reportgen.render.drawing import Drawing, DrawingCache, png_key, write_new

SVG = '<svg xmlns="http://www.w3.org/2000/svg"><text>taxa de omissão</text></svg>\n'
PNG = b"\x89PNG\r\n\x1a\n fake pixels"


def _kept(directory: Path, svg: bytes = SVG.encode(), png: bytes = PNG) -> Drawing:
    """A drawing whose SVG (and its PNG) the cache directory holds."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "k1.svg").write_bytes(svg)
    text = svg.decode("utf-8").replace("\r\n", "\n")  # what the cache reads back
    (directory / f"{png_key(text)}.png").write_bytes(png)
    return Drawing("k1", {}, {}, DrawingCache(directory))


def _same_file(a: Path, b: Path) -> bool:
    return a.stat().st_ino == b.stat().st_ino and a.stat().st_dev == b.stat().st_dev


def test_kept_drawings_are_linked_and_hold_what_was_written_before(tmp_path: Path) -> None:
    drawing = _kept(tmp_path / "cache")
    site = tmp_path / "site"
    site.mkdir()
    drawing.write_svg(site / "a.svg")
    drawing.write_png(site / "a.png")
    assert (site / "a.svg").read_bytes() == drawing.svg.encode("utf-8") == SVG.encode()
    assert (site / "a.png").read_bytes() == drawing.png == PNG
    assert _same_file(site / "a.svg", tmp_path / "cache" / "k1.svg")
    assert _same_file(site / "a.png", tmp_path / "cache" / f"{png_key(SVG)}.png")


def test_an_svg_read_back_otherwise_is_written_as_read(tmp_path: Path) -> None:
    # The cache reads its SVG as text, line ends translated: the site gets that text.
    drawing = _kept(tmp_path / "cache", svg=SVG.replace("\n", "\r\n").encode())
    drawing.write_svg(tmp_path / "a.svg")
    assert (tmp_path / "a.svg").read_bytes() == SVG.encode()
    assert not _same_file(tmp_path / "a.svg", tmp_path / "cache" / "k1.svg")


def test_without_a_link_the_files_are_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cannot_link(source: object, target: object) -> None:
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cannot_link)
    drawing = _kept(tmp_path / "cache")
    drawing.write_svg(tmp_path / "a.svg")
    drawing.write_png(tmp_path / "a.png")
    assert (tmp_path / "a.svg").read_bytes() == SVG.encode()
    assert (tmp_path / "a.png").read_bytes() == PNG
    assert (tmp_path / "a.png").stat().st_nlink == 1


def test_a_png_held_in_memory_only_is_written(tmp_path: Path) -> None:
    drawing = _kept(tmp_path / "cache")
    drawing.cache._pngs[png_key(SVG)] = b"the one in memory"
    drawing.write_png(tmp_path / "a.png")
    assert (tmp_path / "a.png").read_bytes() == b"the one in memory"


def test_a_later_cache_write_leaves_the_site_as_it_was(tmp_path: Path) -> None:
    drawing = _kept(tmp_path / "cache")
    drawing.write_png(tmp_path / "a.png")
    drawing.cache._keep(png_key(SVG), "png", b"drawn again")  # replaced: a new file
    assert (tmp_path / "a.png").read_bytes() == PNG


def test_writing_over_a_site_file_leaves_the_cache_as_it_was(tmp_path: Path) -> None:
    drawing = _kept(tmp_path / "cache")
    drawing.write_svg(tmp_path / "a.svg")
    drawing.write_png(tmp_path / "a.png")
    write_new(tmp_path / "a.png", b"another chart")
    drawing.write_svg(tmp_path / "a.svg")  # the same name twice: a new link, no write
    assert (tmp_path / "cache" / f"{png_key(SVG)}.png").read_bytes() == PNG
    assert (tmp_path / "cache" / "k1.svg").read_bytes() == SVG.encode()
    assert os.stat(tmp_path / "cache" / "k1.svg").st_nlink == 2


CSV = "model,rate\nＦＵＬＬ عربي,0.25\r\n".encode()


def test_a_charts_data_is_kept_once_and_linked_from_every_site(tmp_path: Path) -> None:
    cache = DrawingCache(tmp_path / "cache")
    for site in ("one", "two"):
        (tmp_path / site).mkdir()
        cache.write_data(CSV, "csv", tmp_path / site / "a.csv")
        assert (tmp_path / site / "a.csv").read_bytes() == CSV  # bytes as given, CR kept
    kept = list((tmp_path / "cache").glob("*.csv"))
    assert len(kept) == 1
    assert _same_file(tmp_path / "one" / "a.csv", tmp_path / "two" / "a.csv")
    cache.write_data(b"other data\n", "csv", tmp_path / "one" / "b.csv")
    assert (tmp_path / "one" / "b.csv").read_bytes() == b"other data\n"
    assert len(list((tmp_path / "cache").glob("*.csv"))) == 2


def test_a_charts_data_is_written_without_a_cache_or_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    DrawingCache(None).write_data(CSV, "csv", tmp_path / "a.csv")
    assert (tmp_path / "a.csv").read_bytes() == CSV

    def cannot_link(source: object, target: object) -> None:
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "link", cannot_link)
    DrawingCache(tmp_path / "cache").write_data(CSV, "csv", tmp_path / "b.csv")
    assert (tmp_path / "b.csv").read_bytes() == CSV
    assert (tmp_path / "b.csv").stat().st_nlink == 1
