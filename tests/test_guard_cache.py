"""The leak guard's kept verdicts: a rebuild scans only the files that changed, and finds
the same problems as a full scan."""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from reportgen import guard_cache
from reportgen.errors import Problem
from reportgen.guard import LeakError, SecretIndex, scan_site, secret_indexes
from reportgen.guard_cache import check_site_cached, index_fingerprint, scan_site_cached
from reportgen.kinds.estigmas.guard import guard_material
from tests.support.guarded_site import LEAK, clean_site, guarded_round


def test_a_second_scan_skips_the_files_found_clean(tmp_path: Path) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, cache = clean_site(tmp_path), tmp_path / "cache"
    assert check_site_cached(site, [material], cache_dir=cache) == 4  # x.png is never read
    assert check_site_cached(site, [material], cache_dir=cache) == 0
    (site / "models" / "a.html").write_text("<p>outra página</p>", encoding="utf-8")
    (site / "models" / "b.html").write_text("<p>página nova</p>", encoding="utf-8")
    assert check_site_cached(site, [material], cache_dir=cache) == 2


def test_a_changed_file_is_scanned_and_its_leak_found(tmp_path: Path) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, cache = clean_site(tmp_path), tmp_path / "cache"
    check_site_cached(site, [material], cache_dir=cache)
    (site / "models" / "a.html").write_text(f"<p>{LEAK}</p>", encoding="utf-8")
    with pytest.raises(LeakError, match=r"models/a\.html"):
        check_site_cached(site, [material], cache_dir=cache)
    # A file with a problem is never kept as clean: the next scan finds it again.
    indexes = secret_indexes([material])
    problems, scanned = scan_site_cached(site, indexes, cache)
    assert problems == scan_site(site, indexes) != []
    assert scanned == 1


def test_the_same_bytes_under_another_path_are_scanned(tmp_path: Path) -> None:
    """Where a file is matters (an embargoed id is looked for in its round's folder)."""
    material = guard_material(guarded_round(tmp_path))
    site, cache = clean_site(tmp_path), tmp_path / "cache"
    check_site_cached(site, [material], cache_dir=cache)
    (site / "models" / "a.html").rename(site / "models" / "c.html")
    assert check_site_cached(site, [material], cache_dir=cache) == 1


def test_other_secrets_scan_everything_again(tmp_path: Path) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, cache = clean_site(tmp_path), tmp_path / "cache"
    check_site_cached(site, [material], cache_dir=cache)
    canary = "página models/a.html"  # now a canary: the kept verdicts no longer hold
    changed = replace(material, canaries=(*material.canaries, canary))
    assert index_fingerprint(secret_indexes([changed])) != index_fingerprint(
        secret_indexes([material])
    )
    with pytest.raises(LeakError, match="canary"):
        check_site_cached(site, [changed], cache_dir=cache)


def test_an_unnamed_tokeniser_gets_no_cache(tmp_path: Path) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, cache = clean_site(tmp_path), tmp_path / "cache"
    local = replace(material, tokenise=lambda text: text.split())
    assert index_fingerprint(secret_indexes([local])) is None
    assert check_site_cached(site, [local], cache_dir=cache) == 4
    assert check_site_cached(site, [local], cache_dir=cache) == 4
    assert not cache.exists()


def test_the_cached_scan_reports_what_the_full_scan_reports(tmp_path: Path) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, cache = clean_site(tmp_path), tmp_path / "cache"
    (site / "leak.html").write_text(f"<p>{LEAK} {material.canaries[0]}</p>", encoding="utf-8")
    index = SecretIndex.from_material([material])
    first, _ = scan_site_cached(site, [index], cache)
    second, scanned = scan_site_cached(site, [index], cache)
    assert first == second == scan_site(site, index)
    assert scanned == 1


@pytest.mark.parametrize("cached", [True, False])
def test_forked_workers_report_what_one_process_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cached: bool
) -> None:
    """Many files are shared between forked workers (here from 1 file, in chunks of 2, so
    that the order of the chunks counts): the same problems, in the same order, and the
    same files kept clean, as scanned in one process."""
    material = guard_material(guarded_round(tmp_path))
    site = clean_site(tmp_path)
    for number in range(7):  # leaks among clean pages, in several chunks
        text = f"<p>{LEAK}</p>" if number % 3 == 0 else f"<p>página {number}</p>"
        (site / "models" / f"m{number}.html").write_text(text, encoding="utf-8")
    (site / "z.csv").write_text(f"canário,{material.canaries[0]}\n", encoding="utf-8")
    index = SecretIndex.from_material([material])
    monkeypatch.setattr(guard_cache, "FORK_MIN", 1)
    monkeypatch.setattr(guard_cache, "_CHUNK", 2)
    contexts: list[str | None] = []
    get_context = multiprocessing.get_context

    def noted(method: str | None = None) -> Any:
        contexts.append(method)
        return get_context(method)

    monkeypatch.setattr(multiprocessing, "get_context", noted)
    found: dict[str, tuple[list[Problem], int, list[str]]] = {}
    for workers in ("1", "2"):
        monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", workers)
        cache = tmp_path / f"cache-{workers}" if cached else None
        problems, scanned = scan_site_cached(site, [index], cache)
        kept = sorted(p.read_text() for p in cache.iterdir()) if cache is not None else []
        found[workers] = (problems, scanned, kept)
    assert contexts == ["fork"]  # the second scan was forked, the first was not
    assert found["1"] == found["2"]
    problems = found["2"][0]
    assert [p.file for p in problems] == [
        "models/m0.html", "models/m3.html", "models/m6.html", "z.csv"
    ]  # fmt: skip
    assert problems == scan_site(site, index)


def _dies(relatives: object) -> list[list[Problem]]:
    os._exit(1)  # a worker killed mid-scan (out of memory, a signal)


def test_a_worker_that_dies_leaves_the_scan_to_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool breaks instead of hanging, and every file is scanned in the build's process."""
    material = guard_material(guarded_round(tmp_path))
    site = clean_site(tmp_path)
    (site / "models" / "leak.html").write_text(f"<p>{LEAK}</p>", encoding="utf-8")
    index = SecretIndex.from_material([material])
    monkeypatch.setattr(guard_cache, "FORK_MIN", 1)
    monkeypatch.setattr(guard_cache, "_scan_chunk", _dies)
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    problems, scanned = scan_site_cached(site, [index], None)
    assert scanned == 5  # x.png is never read
    assert problems == scan_site(site, index)
    assert [p.file for p in problems] == ["models/leak.html"]


@pytest.mark.parametrize(
    ("sizes", "lengths"),
    [
        ([], []),
        ([5], [1]),
        ([50, 1], [1, 1]),  # a file over the bytes is alone in its chunk
        ([4, 6, 1], [2, 1]),  # exactly the bytes: still one chunk
        ([1, 1, 1, 1, 1], [3, 2]),  # at most three files
        ([11, 11], [1, 1]),
    ],
)
def test_chunks_hold_a_few_files_or_one_big_one(sizes: list[int], lengths: list[int]) -> None:
    files = [(f"f{n}", size) for n, size in enumerate(sizes)]
    assert guard_cache._by_size(files, 10, 3) == lengths
    assert sum(lengths) == len(files)
