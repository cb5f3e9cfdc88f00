"""The atomic-write helper: all or nothing, and no temporary file left behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from reportgen.atomic import write_atomic


def test_writes_text_and_bytes(tmp_path: Path) -> None:
    write_atomic(tmp_path / "a.txt", "olá\n")
    write_atomic(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "a.txt").read_bytes() == "olá\n".encode()
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"


def test_mode_is_plain_data_unless_told(tmp_path: Path) -> None:
    write_atomic(tmp_path / "public.json", "{}")
    write_atomic(tmp_path / "private.key", "k", mode=0o600)
    assert (tmp_path / "public.json").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "private.key").stat().st_mode & 0o777 == 0o600


def test_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    target.write_text("old, much longer content", encoding="utf-8")
    write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]


def test_failure_keeps_the_old_file_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "f.json"
    target.write_text("old", encoding="utf-8")

    def fail(_src: object, _dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("reportgen.atomic.os.replace", fail)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json"]
