"""A later language's pages written by a forked child (reportgen/render/forked_pages.py):
what the child hands back is taken in as if the pages had been written here; whatever goes
wrong in the child, the language is written again here; the site is the same either way."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from reportgen.build import build_site
from reportgen.guard_cache import EarlyScan, file_key
from reportgen.render import deferred
from reportgen.render.forked_pages import ForkedLanguage, may_fork
from tests.factories import CONFIG, THEME, demonstration_rounds
from tests.support.lone_thread import wait_for_other_threads
from tests.support.shared_builds import demonstration_site, shared_results_cache
from tests.support.site_compare import site_differences

# A block such as a page defers: markup, right-to-left text, fullwidth letters.
BLOCK = '<table><tr><td>\u202eＤｅｍｏ &amp; "quoted"</td></tr></table>'


@dataclass
class _Site:
    """A site of one page per language that defers one block; `trouble` is what goes wrong
    in a child (nothing goes wrong here)."""

    trouble: str | None = None
    parent: int = field(default_factory=os.getpid)
    here: list[str] = field(default_factory=list)  # the languages written here
    adopted: list[tuple[str, object]] = field(default_factory=list)
    prepared: int = 0  # calls of before_fork
    nav = ("index.md",)
    nav_translations: dict[str, dict[str, str]] = field(default_factory=dict)
    source_date = date(2026, 7, 1)

    def _write(self, pages_dir: Path, language: str) -> dict[str, Any]:
        pages_dir.mkdir(parents=True, exist_ok=True)
        placeholder = deferred.defer(f"{BLOCK} {language}", slot=f"index/{language}")
        (pages_dir / "index.md").write_text(f"# {language}\n\n{placeholder}\n", "utf-8")
        return {"language": language, "pid": os.getpid()}

    def before_fork(self) -> None:
        self.prepared += 1

    def write_pages(self, pages_dir: Path, language: str) -> object:
        if os.getpid() != self.parent:
            if self.trouble == "raises":
                raise RuntimeError("a page that fails in the child only")
            if self.trouble == "exits":
                os._exit(3)
            if self.trouble == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            if self.trouble == "waits":
                signal.pause()  # until the parent stops it
            if self.trouble == "unpicklable":
                self._write(pages_dir, language)
                return lambda: None
        return self._write(pages_dir, language)

    def adopt_pages(self, language: str, state: object) -> None:
        self.adopted.append((language, state))

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        self.here.append(language)
        self.adopt_pages(language, self._write(pages_dir, language))
        return [pages_dir / "index.md"]

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        return []

    def write_downloads(self, site_dir: Path) -> list[Path]:
        return []


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    wait_for_other_threads()


@pytest.fixture
def collecting() -> Iterator[dict[str, str]]:
    with deferred.collecting() as blocks:
        yield blocks


def _both(site: _Site, docs: Path) -> bool:
    """pt-BR here while a child writes en; whether the child's pages were taken."""
    assert may_fork(site)
    child = ForkedLanguage.start(site, docs / "en", "en", docs.parent / "en.pickle")
    try:
        site.write_sources(docs / "pt-BR", "pt-BR")
        return child.join()
    finally:
        child.stop()


def _page(docs: Path, language: str) -> str:
    return deferred.restore((docs / language / "index.md").read_text("utf-8"))


def test_a_child_writes_a_language_and_hands_back_its_blocks_and_state(
    tmp_path: Path, two_cores: None, collecting: dict[str, str]
) -> None:
    site, docs = _Site(), tmp_path / "docs"
    assert _both(site, docs)
    assert site.prepared == 1
    assert site.here == ["pt-BR"]
    (first, _), (language, there) = site.adopted
    assert (first, language) == ("pt-BR", "en")
    assert isinstance(there, dict)
    assert there["pid"] != os.getpid()
    assert _page(docs, "en") == f"# en\n\n{BLOCK} en\n"
    assert _page(docs, "pt-BR") == f"# pt-BR\n\n{BLOCK} pt-BR\n"
    assert len(collecting) == 2
    assert not (tmp_path / "en.pickle").exists()


@pytest.mark.parametrize("trouble", ["raises", "exits", "killed", "unpicklable"])
def test_whatever_goes_wrong_in_the_child_the_language_is_written_here(
    tmp_path: Path, two_cores: None, collecting: dict[str, str], trouble: str
) -> None:
    site, docs = _Site(trouble), tmp_path / "docs"
    assert not _both(site, docs)
    assert site.here == ["pt-BR", "en"]
    assert [language for language, _ in site.adopted] == ["pt-BR", "en"]
    assert _page(docs, "en") == f"# en\n\n{BLOCK} en\n"
    assert not (tmp_path / "en.pickle").exists()


def test_without_a_process_to_fork_the_language_is_written_here(
    tmp_path: Path, two_cores: None, collecting: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_process() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_process)
    site, docs = _Site(), tmp_path / "docs"
    assert not _both(site, docs)
    assert site.here == ["pt-BR", "en"]
    assert _page(docs, "en") == f"# en\n\n{BLOCK} en\n"


def test_a_build_that_fails_meanwhile_stops_its_child(
    tmp_path: Path, two_cores: None, collecting: dict[str, str]
) -> None:
    site = _Site("waits")
    child = ForkedLanguage.start(site, tmp_path / "en", "en", tmp_path / "en.pickle")
    pid = child.pid
    assert pid is not None
    child.stop()
    assert child.pid is None
    with pytest.raises(ChildProcessError):  # reaped: no zombie left behind
        os.waitpid(pid, os.WNOHANG)


def test_no_child_is_forked_beside_a_thread_or_on_one_core(
    two_cores: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert may_fork(_Site())
    assert not may_fork(object())  # type: ignore[arg-type]  # a site that cannot
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not may_fork(_Site())
    finally:
        stop.set()
        thread.join()
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "1")
    assert not may_fork(_Site())


def test_blocks_handed_back_must_agree_with_those_kept(collecting: dict[str, str]) -> None:
    placeholder = deferred.defer("mine", slot="page/en")
    deferred.adopt({"k" * 32: "theirs"})
    key = placeholder.split('"')[1]
    deferred.adopt({key: "mine"})  # the same block: nothing to tell apart
    with pytest.raises(deferred.DeferredBlockError, match="two blocks"):
        deferred.adopt({key: "other"})


def test_blocks_are_handed_back_only_into_a_collecting_build() -> None:
    with pytest.raises(deferred.DeferredBlockError, match="outside a collecting build"):
        deferred.adopt({"k" * 32: "block"})


def test_the_site_is_the_same_with_its_english_pages_written_by_a_child(
    tmp_path_factory: pytest.TempPathFactory,
    tmp_path: Path,
    two_cores: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its downloads are scanned early too, by a child forked once this process's pages
    are written (tests/test_guard_early.py): what was scanned is what the site holds,
    found clean."""
    joined: list[bool] = []
    join = ForkedLanguage.join

    def counted(self: ForkedLanguage) -> bool:
        joined.append(join(self))
        return joined[-1]

    monkeypatch.setattr(ForkedLanguage, "join", counted)
    scanned_early: dict[str, bytes] = {}
    clean_early: list[frozenset[str]] = []
    start, clean_keys = EarlyScan.start, EarlyScan.clean_keys

    def noted_start(self: EarlyScan, files: Mapping[str, bytes]) -> None:
        scanned_early.update(files)
        start(self, files)

    def noted_keys(self: EarlyScan) -> frozenset[str]:
        clean_early.append(clean_keys(self))
        return clean_early[-1]

    monkeypatch.setattr(EarlyScan, "start", noted_start)
    monkeypatch.setattr(EarlyScan, "clean_keys", noted_keys)
    forked = tmp_path / "site"
    rounds = demonstration_rounds(tmp_path)
    cache = shared_results_cache(tmp_path_factory)
    build_site(rounds, forked, config_path=CONFIG, theme_dir=THEME, cache_dir=cache)
    assert joined == [True]  # the child's pages were taken
    assert {name.rsplit("/", 1)[-1] for name in scanned_early} >= {"results.json", "stigmas.csv"}
    assert all((forked / name).read_bytes() == data for name, data in scanned_early.items())
    assert clean_early == [{file_key(name, data) for name, data in scanned_early.items()}]
    only_one, changed = site_differences(demonstration_site(tmp_path_factory, "estigmas"), forked)
    assert only_one == set()
    assert changed == []
