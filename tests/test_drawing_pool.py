"""Charts drawn in a pool of worker processes are the charts drawn in the build's own
process, byte for byte (SVG and PNG), and kept drawings are not drawn again
(reportgen/render/drawing.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from reportgen.i18n import D3_NUMBER_LOCALE
from reportgen.render import drawing
from reportgen.render.drawing import DrawingCache, draw_png, draw_svg
from tests.support.main_module import kept_main_module


def bar_spec(values: list[float]) -> dict[str, Any]:
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v6.json",
        "data": {"values": [{"k": f"k{i}", "v": v} for i, v in enumerate(values)]},
        "mark": "bar",
        "encoding": {
            "y": {"field": "k", "type": "nominal"},
            "x": {"field": "v", "type": "quantitative", "axis": {"format": ".2f"}},
        },
        "width": 200,
    }


SPECS = [bar_spec([0.1 * i, 0.05 * i + 0.01, 0.3]) for i in range(6)]
LOCALES = [dict(D3_NUMBER_LOCALE[language]) for language in ("pt-BR", "en")]


def test_the_pool_draws_what_this_process_draws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drawing, "POOL_MIN", 1)  # every batch goes to the workers
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    cache = DrawingCache(tmp_path / "svg")
    drawings = [cache.drawing(spec, locale) for spec in SPECS for locale in LOCALES]
    assert cache.draw_all([*drawings, drawings[0]]) == len(drawings)  # each once
    for d in drawings:
        svg = draw_svg(d.spec, d.locale, d.key)
        assert d.svg == svg
        assert d.png == draw_png(svg)
        assert (tmp_path / "svg" / f"{d.key}.svg").read_text(encoding="utf-8") == svg
    # The number locale reached the workers: pt-BR's decimal comma, English's point.
    assert ">0,10</text>" in drawings[-2].svg
    assert ">0.10</text>" in drawings[-1].svg
    again = DrawingCache(tmp_path / "svg")  # a rebuild: everything is kept
    assert again.draw_all([again.drawing(spec, LOCALES[1]) for spec in SPECS]) == 0


def test_without_a_directory_drawings_are_kept_for_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "1")  # in this process
    cache = DrawingCache(None)
    drawings = [cache.drawing(spec, LOCALES[0]) for spec in SPECS[:2]]
    assert cache.draw_all(drawings) == 2
    assert cache.draw_all(drawings) == 0
    assert drawings[1].png.startswith(b"\x89PNG")


def _an_app() -> None:
    import streamlit as st

    st.write("x")


def test_the_workers_main_module_is_put_back_after_a_streamlit_run() -> None:
    """AppTest leaves its script as `__main__`, which a spawned pool's children would run
    again; tests/conftest.py puts the worker's own back after each test."""
    from streamlit.testing.v1 import AppTest

    before = sys.modules["__main__"]
    with kept_main_module():
        AppTest.from_function(_an_app).run()
        assert sys.modules["__main__"] is not before  # what Streamlit does
    assert sys.modules["__main__"] is before


def test_a_rebuild_draws_only_the_changed_specs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept drawing is read back as a fresh draw makes it; a changed spec gets a new key
    and is drawn again (the build of a grown round redraws only its new charts)."""
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "1")
    first = DrawingCache(tmp_path / "svg")
    assert first.draw_all([first.drawing(spec, LOCALES[0]) for spec in SPECS[:2]]) == 2
    again = DrawingCache(tmp_path / "svg")
    changed = bar_spec([0.9, 0.8, 0.7])
    drawings = [again.drawing(spec, LOCALES[0]) for spec in (*SPECS[:2], changed)]
    assert again.missing(drawings, with_png=True) == [drawings[2]]
    assert again.draw_all(drawings) == 1
    for d in drawings:
        fresh = draw_svg(d.spec, d.locale, d.key)
        assert d.svg == fresh
        assert d.png == draw_png(fresh)


def test_drawings_started_in_the_pool_are_read_while_others_are_still_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A build starts its drawings and goes on: reading one waits for its batch only, a
    drawing already on its way is not started again, and `finish` keeps the rest (here
    without a directory, so in memory) and stops the workers."""
    monkeypatch.setattr(drawing, "POOL_MIN", 1)
    monkeypatch.setattr(drawing, "CHUNK", 2)  # three batches of two
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    cache = DrawingCache(None)
    drawings = [cache.drawing(spec, LOCALES[0]) for spec in SPECS]
    assert cache.start_all(drawings) == len(drawings)
    assert cache.start_all(drawings) == 0  # all on their way
    first = drawings[0]
    assert first.svg == draw_svg(first.spec, first.locale, first.key)
    cache.finish()
    assert cache.missing(drawings, with_png=True) == []
    assert [d.png for d in drawings] == [draw_png(d.svg) for d in drawings]
    assert cache.draw_all(drawings) == 0  # nothing left to draw, no pool started


def test_a_build_that_stops_before_finishing_leaves_no_worker_drawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc
    import multiprocessing

    monkeypatch.setattr(drawing, "POOL_MIN", 1)
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    cache = DrawingCache(None)
    cache.start_all([cache.drawing(spec, LOCALES[1]) for spec in SPECS])
    assert multiprocessing.active_children()
    del cache
    gc.collect()
    for child in multiprocessing.active_children():  # shut down: they exit once idle
        child.join(timeout=60)
    assert multiprocessing.active_children() == []


def test_a_few_drawings_go_to_a_worker_when_the_caller_has_much_else_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import multiprocessing

    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    cache = DrawingCache(None)
    few = [cache.drawing(spec, LOCALES[0]) for spec in SPECS[:2]]
    assert len(few) < drawing.POOL_MIN
    assert cache.start_all(few, background=True) == len(few)
    assert multiprocessing.active_children()  # a worker draws them
    assert few[1].svg == draw_svg(few[1].spec, few[1].locale, few[1].key)
    cache.finish()
    assert cache.missing(few, with_png=True) == []
