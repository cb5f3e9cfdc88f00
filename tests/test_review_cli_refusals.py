"""Every `reportgen review` command refuses bad input with one line, never a traceback
(issue 23, point 11): in-memory or unknown databases, a mistyped SQLite path, a batch id
the database cannot hold, a password that is not UTF-8, an output the system refuses, a
missing round, a publication date out of range."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main
from tests.factories import make_round
from tests.review.helpers import add_and_login, new_database

MULTIDOMAIN = Path(__file__).resolve().parents[1] / "examples/multidomain/rounds/reg-2026-1"


@dataclass(frozen=True)
class Setup:
    folder: Path
    round_dir: Path
    db: str


@pytest.fixture
def setup(tmp_path: Path) -> Setup:
    round_dir = make_round(tmp_path)
    db = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(db)
    for name in ("ana", "bia"):
        add_and_login(engine, name)
    engine.dispose()
    assert _invoke("sample", str(round_dir), "--seed", "2", "--db", db).exit_code == 0
    return Setup(tmp_path, round_dir, db)


@pytest.fixture(autouse=True)
def _no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` must refuse before it replaces the process with Streamlit; should it not,
    the test fails instead of the test run turning into a server."""

    def started(*_args: object) -> None:
        raise AssertionError("review serve started Streamlit")

    monkeypatch.setattr(os, "execve", started)


def _invoke(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["review", *args], input=stdin)


def _files(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*") if not path.name.startswith("review.db")}


def _refused(result: Result, *, code: int | None = None) -> str:
    """The one line of a refusal: no traceback, exit 1 or 2 (the usage errors)."""
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in ((1, 2) if code is None else (code,)), result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    return errors[0]


# Each subcommand with arguments that reach its database (the round's own where needed).
COMMANDS: dict[str, tuple[str, ...]] = {
    "init": (),
    "add-reviewer": ("carla",),
    "sample": ("{round}", "--seed", "3"),
    "close-batch": ("1",),
    "reopen-batch": ("1",),
    "publish": ("tiny-round",),
    "export": ("{round}", "--output", "{folder}/out.json"),
    "export-judgments": ("{round}", "--output", "{folder}/judgments.csv"),
    "freeze-export": ("{folder}", "{round}"),
    "verify-audit": (),
    "serve": (),
}
BAD_URLS = {
    "memory": ("sqlite://", "in-memory"),
    "memory-named": ("sqlite:///:memory:", "in-memory"),
    "scheme": ("nosuchdb://host/x", "Unsupported database driver"),
}


def _arguments(command: str, setup: Setup) -> list[str]:
    values = {"round": str(setup.round_dir), "folder": str(setup.folder)}
    return [command, *(argument.format(**values) for argument in COMMANDS[command])]


@pytest.mark.parametrize("url_case", sorted(BAD_URLS))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_bad_database_url_is_one_line(setup: Setup, command: str, url_case: str) -> None:
    url, expected = BAD_URLS[url_case]
    before = _files(setup.folder)
    line = _refused(_invoke(*_arguments(command, setup), "--db", url))
    assert expected in line
    assert _files(setup.folder) == before


@pytest.mark.parametrize("command", sorted(set(COMMANDS) - {"init"}))
def test_a_mistyped_sqlite_path_is_refused_not_created(setup: Setup, command: str) -> None:
    mistyped = setup.folder / "reveiw.db"
    line = _refused(_invoke(*_arguments(command, setup), "--db", f"sqlite:///{mistyped}"), code=1)
    assert str(mistyped) in line
    assert "review init" in line
    assert not mistyped.exists()


def test_init_creates_the_file_it_is_given(tmp_path: Path) -> None:
    target = tmp_path / "new.db"
    assert _invoke("init", "--db", f"sqlite:///{target}").exit_code == 0
    assert target.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("command", ["close-batch", "reopen-batch"])
@pytest.mark.parametrize("batch_id", ["99999999999999999999", "9223372036854775808", "2147483648"])
def test_a_batch_id_the_database_cannot_hold_is_a_usage_error(
    setup: Setup, command: str, batch_id: str
) -> None:
    line = _refused(_invoke(command, batch_id, "--db", setup.db), code=2)
    assert "BATCH_ID" in line


def test_a_password_that_is_not_utf8_is_one_line(setup: Setup) -> None:
    result = _invoke(
        "add-reviewer", "carla", "--password-stdin", "--db", setup.db, stdin=b"\xff\xfe pw\n"
    )
    assert "UTF-8" in _refused(result, code=1)


UNWRITABLE = ["/proc/no-such-process/out", "{folder}"]


@pytest.mark.parametrize("where", UNWRITABLE)
@pytest.mark.parametrize(
    ("command", "round_", "name"),
    [
        ("export", "{round}", "out.json"),
        ("export", str(MULTIDOMAIN), "export"),
        ("export-judgments", "{round}", "judgments.csv"),
    ],
)
def test_an_output_the_system_refuses_is_one_line(
    setup: Setup, command: str, round_: str, name: str, where: str
) -> None:
    folder = Path(where.format(folder=setup.folder))
    (setup.folder / "taken").mkdir()
    target = setup.folder / "taken" if where == "{folder}" else folder / name
    if command == "export" and round_ == str(MULTIDOMAIN) and where == "{folder}":
        target = setup.folder / "taken.txt"  # a file where the export's folder should go
        target.write_text("not a folder\n", encoding="utf-8")
    before = _files(setup.folder)
    round_dir = round_.format(round=setup.round_dir)
    _refused(_invoke(command, round_dir, "--output", str(target), "--force", "--db", setup.db))
    assert _files(setup.folder) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_folder_is_one_line(setup: Setup) -> None:
    folder = setup.folder / "read-only"
    folder.mkdir(mode=0o500)
    target = folder / "judgments.csv"
    args = ("export-judgments", str(setup.round_dir), "--output", str(target))
    _refused(_invoke(*args, "--db", setup.db), code=1)
    assert not any(folder.iterdir())


@pytest.mark.parametrize(
    "command", [("sample", "--seed", "3"), ("export",), ("export-judgments", "--output", "j.csv")]
)
def test_a_missing_round_folder_is_one_line(setup: Setup, command: tuple[str, ...]) -> None:
    missing = setup.folder / "no-such-round"
    name, *rest = command
    line = _refused(_invoke(name, str(missing), *rest, "--db", setup.db), code=1)
    assert str(missing) in line


def test_freeze_export_of_a_missing_round_is_one_line(setup: Setup) -> None:
    (setup.folder / "audit.parquet").write_bytes(b"PAR1")
    missing = setup.folder / "no-such-round"
    _refused(_invoke("freeze-export", str(setup.folder), str(missing), "--db", setup.db), code=1)


@pytest.mark.parametrize(
    ("day", "window"),
    [("9999-12-31", "10"), ("1970-01-01", "10"), ("2026-07-01", "99999999999999999999")],
)
def test_publish_refuses_a_date_or_window_out_of_range(setup: Setup, day: str, window: str) -> None:
    args = ("publish", "tiny-round", "--on", day, "--window-days", window, "--db", setup.db)
    line = _refused(_invoke(*args), code=1)
    assert day in line or "at most" in line


def test_a_stored_far_date_does_not_overflow_the_window() -> None:
    from datetime import UTC, datetime

    from review_app.core.publication import days_after

    far = datetime(9999, 12, 31, tzinfo=UTC)
    assert days_after(far, 10) == datetime.max.replace(tzinfo=UTC)
    assert days_after(datetime(2026, 7, 1, tzinfo=UTC), 10) == datetime(2026, 7, 11, tzinfo=UTC)
