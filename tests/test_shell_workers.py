"""When the workers that convert the shell pages start (reportgen/build.py, `_shell_workers`;
reportgen/render/shell_convert.py, `PageTaker.page_written`): ahead of the pages when a
round of many models leaves many to convert, else only once a language turns out to have
many pages that no build left converted."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from reportgen import build
from reportgen.model import Round
from reportgen.render import shell_convert
from reportgen.render.page_cache import KeptPages
from reportgen.render.shell_pages import PageConverter, ShellPage

MARKDOWN = (["toc", "tables", "attr_list", "admonition"], {"toc": {"permalink": True}})


class _PoolHere:
    """A stand-in for the workers: each task runs at once, in this process."""

    def __init__(self) -> None:
        self.tasks = 0

    def submit(self, function: Callable[..., Any], *arguments: Any) -> Future[Any]:
        self.tasks += 1
        future: Future[Any] = Future()
        future.set_result(function(*arguments))
        return future

    def shutdown(self, cancel_futures: bool = False) -> None:
        pass


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[_PoolHere]:
    """The pools started (by the taker or by the build), in order."""
    pools: list[_PoolHere] = []

    def start(workers: int) -> _PoolHere:
        assert workers == 2
        pools.append(_PoolHere())
        return pools[-1]

    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    monkeypatch.setattr(shell_convert, "start_workers", start)
    monkeypatch.setattr(build, "start_workers", start)
    return pools


def _write_and_tell(
    tmp_path: Path, sources: dict[str, str], pool_min: int
) -> tuple[list[ShellPage], shell_convert.PageTaker]:
    """One build's pages of one language, each told as written, with workers started by the
    taker from `pool_min` unkept pages (the kept pages of the last build in tmp_path)."""
    docs = tmp_path / "docs"
    kept = KeptPages.load(tmp_path / "cache", tmp_path / "site")
    converters = {"en": PageConverter(*MARKDOWN)}
    taker = shell_convert.PageTaker(docs, [], converters, {"en": ""}, kept=kept)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shell_convert, "POOL_MIN", pool_min)
        patch.setattr(shell_convert, "CHUNK", 2)
        for stem, body in sources.items():
            page = docs / "en" / "models" / f"{stem}.md"
            page.parent.mkdir(parents=True, exist_ok=True)
            text = f"---\ntitle: {stem}\n---\n# {stem}\n\n{body}\n"
            page.write_text(text, "utf-8")
            taker.page_written(page, text)
        taker.add_language("en")
        (group,) = taker.groups()
    return list(group.pages), taker


def test_the_taker_starts_workers_once_a_language_has_many_pages_to_convert(
    tmp_path: Path, started: list[_PoolHere]
) -> None:
    sources = {stem: f"Page {stem}, \u202eＯｄｄ <b>&amp;</b>." for stem in "abcdef"}
    first, _ = _write_and_tell(tmp_path, sources, pool_min=3)
    (pool,) = started  # started at the third page, which no build had converted
    # From then on every page went to them: a, b and c at once, then d and e, f at the end.
    assert pool.tasks == 4
    assert [page.stem for page in first] == list("abcdef")

    second, _ = _write_and_tell(tmp_path, sources, pool_min=3)
    assert len(started) == 1  # every page kept: none to convert, no workers
    assert [(p.stem, p.content) for p in second] == [(p.stem, p.content) for p in first]

    changed = {**sources, "b": "Changed.", "e": "Changed too."}
    third, _ = _write_and_tell(tmp_path, changed, pool_min=3)
    assert len(started) == 1  # two pages to convert, under three: converted here
    assert "Changed." in third[1].content
    assert [p.content for n, p in enumerate(third) if n not in (1, 4)] == [
        p.content for n, p in enumerate(first) if n not in (1, 4)
    ]

    _write_and_tell(tmp_path, {**changed, "a": "x", "c": "y", "d": "z"}, pool_min=3)
    assert len(started) == 2  # three changed: the workers start


def test_the_build_starts_workers_ahead_only_for_many_pages_not_kept(
    tmp_path: Path, started: list[_PoolHere]
) -> None:
    def rounds(models: int) -> list[Round]:
        return [cast(Round, SimpleNamespace(models=range(models)))]

    many = shell_convert.POOL_MIN
    nothing = KeptPages(None)
    assert build._shell_workers(rounds(many - 1), nothing) is None  # a small round
    assert cast(object, build._shell_workers(rounds(many), nothing)) is started[-1]
    # Kept pages for all but a few of the round's pages (one per model and language).
    languages = 2
    almost = KeptPages(None, found=dict.fromkeys(map(str, range(languages * many - 1))))
    assert build._shell_workers(rounds(many), almost) is None
    half = KeptPages(None, found=dict.fromkeys(map(str, range(many // 2))))
    assert cast(object, build._shell_workers(rounds(many), half)) is started[-1]
    assert len(started) == 2
