"""The same review database, exported twice and read the other way round: the same bytes
(issue 20, point 8; tests/test_review_export_bytes.py and the plug-in kind's test)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

from review_app.core.db import make_engine

Export = Callable[[Engine, Path], object]


def reversed_engine(url: str) -> Engine:
    """An engine on the same SQLite database whose every query without an ORDER BY hands
    back its rows in the reverse order (SQLite's `reverse_unordered_selects`): what an
    export does not order itself shows."""
    engine = make_engine(url)

    def reverse(connection: Any, _record: object) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA reverse_unordered_selects = ON")
        cursor.close()

    event.listen(engine, "connect", reverse)
    return engine


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def same_bytes(engine: Engine, export: Export, tmp_path: Path) -> dict[str, bytes]:
    """The export written twice from `engine`, and once from the same database read the
    other way round: the same files, byte for byte; returns them."""
    export(engine, tmp_path / "first")
    export(engine, tmp_path / "second")
    other = reversed_engine(engine.url.render_as_string(hide_password=False))
    try:
        export(other, tmp_path / "reversed")
    finally:
        other.dispose()
    first = files(tmp_path / "first")
    assert first
    assert files(tmp_path / "second") == first
    assert files(tmp_path / "reversed") == first
    return first
