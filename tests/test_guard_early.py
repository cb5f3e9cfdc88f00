"""The leak guard's early scan: files known before the site is whole (a round's downloads)
are scanned in a forked process while MkDocs runs, and the final scan skips those found
clean, finding the same problems as without it (reportgen/guard_cache.py, `EarlyScan`).
How the guard reads a file's bytes is how it reads the file (`guard.file_text`)."""

from __future__ import annotations

import gzip
import os
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen import guard_cache
from reportgen.guard import LeakError, file_text, reads, scan_site
from reportgen.guard_cache import EarlyScan, check_site_cached, scan_site_cached
from reportgen.kinds.estigmas.guard import guard_material
from tests.support.guarded_site import LEAK, clean_site, guarded_round
from tests.support.lone_thread import wait_for_other_threads

CLEAN = b"modelo,taxa\nm-1,0.5\n"
LEAKING = f"modelo,prompt\nm-1,{LEAK}\n".encode()


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    wait_for_other_threads()


def site_with_downloads(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    site = clean_site(tmp_path)
    downloads = {"data/r/clean.csv": CLEAN, "data/r/leaking.csv": LEAKING}
    for relative, data in downloads.items():
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        (site / relative).write_bytes(data)
    return site, downloads


def test_the_final_scan_skips_what_the_early_scan_found_clean(
    tmp_path: Path, two_cores: None
) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, downloads = site_with_downloads(tmp_path)
    early = EarlyScan([material])
    early.start(downloads)
    problems, scanned = scan_site_cached(site, early.indexes, tmp_path / "cache", early)
    # Every file the guard reads but the clean download: the leaking one is scanned again.
    assert scanned == 5
    assert problems == scan_site(site, early.indexes)
    assert [p.file for p in problems] == ["data/r/leaking.csv"]


def test_a_file_whose_bytes_changed_since_the_early_scan_is_scanned_again(
    tmp_path: Path, two_cores: None
) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, _ = site_with_downloads(tmp_path)
    early = EarlyScan([material])
    early.start({"data/r/leaking.csv": CLEAN})  # what was scanned is not what was written
    with pytest.raises(LeakError, match=r"data/r/leaking\.csv"):
        check_site_cached(site, [material], cache_dir=tmp_path / "cache", early=early)


def _raises(*args: object) -> list[str]:
    raise RuntimeError("a fault of the guard's own")


def _dies(*args: object) -> list[str]:
    os._exit(1)  # killed mid-scan (out of memory, a signal)


@pytest.mark.parametrize("fault", [_raises, _dies], ids=["raises", "dies"])
def test_whatever_goes_wrong_in_the_early_scan_the_final_scan_reads_everything(
    tmp_path: Path, two_cores: None, monkeypatch: pytest.MonkeyPatch, fault: object
) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, downloads = site_with_downloads(tmp_path)
    monkeypatch.setattr(guard_cache, "_early_clean_keys", fault)
    early = EarlyScan([material])
    early.start(downloads)
    assert early._child is not None  # it was forked
    pid = early._child[0]
    assert early.clean_keys() == frozenset()
    assert early._child is None
    problems, scanned = scan_site_cached(site, early.indexes, tmp_path / "cache", early)
    assert scanned == 6
    assert [p.file for p in problems] == ["data/r/leaking.csv"]
    with pytest.raises(ChildProcessError):  # reaped: no zombie left
        os.waitpid(pid, os.WNOHANG)


def test_without_a_process_to_fork_the_final_scan_reads_everything(
    tmp_path: Path, two_cores: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    material = guard_material(guarded_round(tmp_path))
    site, downloads = site_with_downloads(tmp_path)

    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    early = EarlyScan([material])
    early.start(downloads)
    assert early._child is None
    assert scan_site_cached(site, early.indexes, tmp_path / "cache", early)[1] == 6


def test_no_early_scan_on_one_core_or_beside_a_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    material = guard_material(guarded_round(tmp_path))
    _, downloads = site_with_downloads(tmp_path)
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "1")
    one_core = EarlyScan([material])
    one_core.start(downloads)
    assert one_core._child is None
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", "2")
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        beside_a_thread = EarlyScan([material])
        beside_a_thread.start(downloads)
        assert beside_a_thread._child is None
    finally:
        release.set()
        thread.join()


def test_a_build_that_fails_before_the_guard_stops_the_early_scan(
    tmp_path: Path, two_cores: None
) -> None:
    material = guard_material(guarded_round(tmp_path))
    _, downloads = site_with_downloads(tmp_path)
    early = EarlyScan([material])
    early.start(downloads)
    assert early._child is not None
    pid = early._child[0]
    early.close()  # as the build does in its `finally`
    assert early._child is None
    with pytest.raises(ChildProcessError):  # killed and reaped
        os.waitpid(pid, os.WNOHANG)
    assert early.clean_keys() == frozenset()


@pytest.mark.parametrize(
    ("name", "read"),
    [
        ("a.html", True),
        ("data/r/results.json", True),
        ("a.json.gz", True),
        ("a.png", False),
        ("a.gz", False),
        (".gz", False),
        ("SHA256SUMS", False),
        ("CITATION.cff", False),
    ],
)
def test_which_files_the_guard_reads(name: str, read: bool) -> None:
    assert reads(name) is read


@given(st.binary(max_size=300), st.sampled_from([b"", b"\r", b"\r\n", b"\n\r", b"\xff\xfe"]))
def test_the_text_of_bytes_is_the_text_of_the_file(body: bytes, mark: bytes) -> None:
    import tempfile

    data = mark + body + mark + "ção".encode() + mark
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "a.csv")
        path.write_bytes(data)
        assert file_text("a.csv", data) == path.read_text(encoding="utf-8", errors="replace")
    packed = gzip.compress(data)
    assert file_text("a.json.gz", packed) == data.decode("utf-8", errors="replace")
    assert file_text("a.png", data) is None
